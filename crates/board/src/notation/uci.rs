//! UCI long algebraic notation (`e2e4`, `e7e8q`, castling `e1g1` or `e1h1`).

use core::fmt;

use crate::{Board, CastlingSide, GenKind, Move, MoveList, PieceType, Square};

/// Why a UCI move string was rejected by [`Board::parse_uci`].
///
/// ```
/// use cutoff_board::{Board, ParseUciMoveError};
/// let board = Board::default();
/// assert_eq!(board.parse_uci("e2e9"), Err(ParseUciMoveError::Syntax)); // no such square
/// assert_eq!(board.parse_uci("e2e4x"), Err(ParseUciMoveError::Syntax)); // no such promotion
/// assert_eq!(board.parse_uci("e2e2"), Err(ParseUciMoveError::Syntax));
/// assert_eq!(board.parse_uci("e2e5"), Err(ParseUciMoveError::Illegal));
/// assert_eq!(board.parse_uci("e7e5"), Err(ParseUciMoveError::Illegal)); // White to move
/// assert_eq!(ParseUciMoveError::Illegal.to_string(), "illegal move in this position");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParseUciMoveError {
    /// Not of the form `<from><to>[promotion]`, such as `e2e4` or `a7a8q`.
    Syntax,
    /// Well formed, but not a legal move in the position.
    Illegal,
}

impl fmt::Display for ParseUciMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseUciMoveError::Syntax => {
                f.write_str("malformed UCI move: expected <from><to>[q|r|b|n], such as e2e4 or e7e8q")
            }
            ParseUciMoveError::Illegal => f.write_str("illegal move in this position"),
        }
    }
}

impl core::error::Error for ParseUciMoveError {}

/// A move written in UCI notation for a given board (see [`Board::uci`]).
///
/// ```
/// use cutoff_board::Board;
/// let board = Board::from_fen("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1", false).unwrap();
/// let castle = board.parse_uci("e1c1").unwrap();
/// assert_eq!(board.uci(castle).to_string(), "e1c1"); // the king's move, as GUIs expect
/// assert_eq!(castle.to_string(), "e1a1"); // `Move` itself prints king takes rook
/// let promotion = board.parse_uci("b7a8n").unwrap();
/// assert_eq!(board.uci(promotion).to_string(), "b7a8n");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct UciMove {
    from: Square,
    to: Square,
    promotion: Option<PieceType>,
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)?;
        if let Some(p) = self.promotion {
            write!(f, "{}", p.to_char())?;
        }
        Ok(())
    }
}

impl Board {
    /// `mv` in UCI notation. Castling is written as the king's two-square move (`e1g1`) in
    /// standard chess and as "king takes own rook" (`e1h1`) in Chess960.
    ///
    /// ```
    /// use cutoff_board::Board;
    /// let b = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false).unwrap();
    /// let castle = b.parse_uci("e1g1").unwrap();
    /// assert!(castle.is_castle());
    /// assert_eq!(b.uci(castle).to_string(), "e1g1");
    /// let b960 = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", true).unwrap();
    /// assert_eq!(b960.uci(b960.parse_uci("e1h1").unwrap()).to_string(), "e1h1");
    /// ```
    pub fn uci(&self, mv: Move) -> UciMove {
        let mut to = mv.to();
        if mv.is_castle() && !self.chess960 {
            let side = if to.file() > mv.from().file() { CastlingSide::King } else { CastlingSide::Queen };
            to = side.king_destination(self.side_to_move);
        }
        UciMove { from: mv.from(), to, promotion: mv.promotion() }
    }

    /// Reads a move in UCI notation and returns it if it is legal here.
    ///
    /// In standard chess castling may be written `e1g1` (the usual form) or `e1h1`; in Chess960
    /// only as king takes own rook (`e1h1`), since `e1g1` may be an ordinary king move there.
    ///
    /// ```
    /// use cutoff_board::{Board, ParseUciMoveError};
    /// let b = Board::default();
    /// assert!(b.parse_uci("g1f3").is_ok());
    /// assert_eq!(b.parse_uci("g1g3"), Err(ParseUciMoveError::Illegal));
    /// assert_eq!(b.parse_uci("g1"), Err(ParseUciMoveError::Syntax));
    /// ```
    pub fn parse_uci(&self, text: &str) -> Result<Move, ParseUciMoveError> {
        let bytes = text.as_bytes();
        if !(4..=5).contains(&bytes.len()) || !text.is_ascii() {
            return Err(ParseUciMoveError::Syntax);
        }
        let from: Square = text[0..2].parse().map_err(|_| ParseUciMoveError::Syntax)?;
        let to: Square = text[2..4].parse().map_err(|_| ParseUciMoveError::Syntax)?;
        let promotion = match bytes.get(4) {
            None => None,
            Some(b'q') | Some(b'Q') => Some(PieceType::Queen),
            Some(b'r') | Some(b'R') => Some(PieceType::Rook),
            Some(b'b') | Some(b'B') => Some(PieceType::Bishop),
            Some(b'n') | Some(b'N') => Some(PieceType::Knight),
            Some(_) => return Err(ParseUciMoveError::Syntax),
        };
        if from == to {
            return Err(ParseUciMoveError::Syntax);
        }
        let mut moves = MoveList::new();
        self.generate(GenKind::All, &mut moves);
        moves
            .into_iter()
            .find(|&mv| {
                if mv.from() != from || mv.promotion() != promotion {
                    return false;
                }
                if mv.is_castle() {
                    return mv.to() == to || (!self.chess960 && self.uci(mv).to == to);
                }
                mv.to() == to
            })
            .ok_or(ParseUciMoveError::Illegal)
    }
}
