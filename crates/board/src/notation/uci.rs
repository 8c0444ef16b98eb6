//! UCI long algebraic notation (`e2e4`, `e7e8q`, castling `e1g1` or `e1h1`).

use core::fmt;

use crate::{Board, CastlingMode, File, GenKind, Move, MoveList, PieceType, Square};

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

/// A move in UCI notation: from square, to square and promotion, without the board.
///
/// [`Board::uci`] (or [`Move::uci`] with a [`CastlingMode`]) writes a [`Move`] this way, with
/// standard castling as the king's two-square move (`e1g1`). `FromStr` reads the text alone
/// (syntax only); [`UciMove::to_move`] (or [`Board::parse_uci`], both steps at once) finds the
/// legal move it names in a position.
///
/// ```
/// use cutoff_board::{Board, CastlingMode};
/// let board = Board::from_fen("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1", CastlingMode::Standard).unwrap();
/// let castle = board.parse_uci("e1c1").unwrap();
/// assert_eq!(board.uci(castle).to_string(), "e1c1"); // the king's move, as GUIs expect
/// assert_eq!(castle.to_string(), "e1a1"); // `Move` itself prints king takes rook
/// let promotion = board.parse_uci("b7a8n").unwrap();
/// assert_eq!(board.uci(promotion).to_string(), "b7a8n");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UciMove {
    from: Square,
    to: Square,
    promotion: Option<PieceType>,
}

impl UciMove {
    /// The square the piece moves from (the king's square for castling).
    ///
    /// ```
    /// use cutoff_board::{Square, UciMove};
    /// let mv: UciMove = "e7e8q".parse().unwrap();
    /// assert_eq!(mv.from(), Square::E7);
    /// ```
    pub const fn from(&self) -> Square {
        self.from
    }

    /// The square written as the target: for castling the king's destination (`e1g1`) or the
    /// rook's square (`e1h1`), depending on the notation.
    ///
    /// ```
    /// use cutoff_board::{Square, UciMove};
    /// assert_eq!("e1g1".parse::<UciMove>().unwrap().to(), Square::G1);
    /// ```
    pub const fn to(&self) -> Square {
        self.to
    }

    /// The piece a promotion promotes to.
    ///
    /// ```
    /// use cutoff_board::{PieceType, UciMove};
    /// assert_eq!("b2a1n".parse::<UciMove>().unwrap().promotion(), Some(PieceType::Knight));
    /// assert_eq!("e2e4".parse::<UciMove>().unwrap().promotion(), None);
    /// ```
    pub const fn promotion(&self) -> Option<PieceType> {
        self.promotion
    }

    /// The legal move of `board` that this text names, as [`Board::parse_uci`].
    ///
    /// ```
    /// use cutoff_board::{Board, ParseUciMoveError, UciMove};
    /// let board = Board::default();
    /// let e4: UciMove = "e2e4".parse().unwrap();
    /// assert_eq!(e4.to_move(&board), board.parse_uci("e2e4"));
    /// let e5: UciMove = "e7e5".parse().unwrap(); // well formed, but Black's move
    /// assert_eq!(e5.to_move(&board), Err(ParseUciMoveError::Illegal));
    /// ```
    pub fn to_move(&self, board: &Board) -> Result<Move, ParseUciMoveError> {
        let mut moves = MoveList::new();
        board.generate(GenKind::All, &mut moves);
        moves
            .into_iter()
            .find(|&mv| {
                if mv.from() != self.from || mv.promotion() != self.promotion {
                    return false;
                }
                if mv.is_castle() {
                    return mv.to() == self.to || (!board.is_chess960() && board.uci(mv).to == self.to);
                }
                mv.to() == self.to
            })
            .ok_or(ParseUciMoveError::Illegal)
    }
}

/// Reads `<from><to>[q|r|b|n]` (the promotion letter in either case) without a board: only
/// the syntax is checked. See [`UciMove::to_move`].
///
/// ```
/// use cutoff_board::{ParseUciMoveError, UciMove};
/// let mv: UciMove = "a7a8Q".parse().unwrap();
/// assert_eq!(mv.to_string(), "a7a8q");
/// assert_eq!("a7a8k".parse::<UciMove>(), Err(ParseUciMoveError::Syntax));
/// assert_eq!("e2e2".parse::<UciMove>(), Err(ParseUciMoveError::Syntax));
/// ```
impl core::str::FromStr for UciMove {
    type Err = ParseUciMoveError;
    fn from_str(text: &str) -> Result<UciMove, ParseUciMoveError> {
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
        Ok(UciMove { from, to, promotion })
    }
}

impl Move {
    /// This move in UCI notation for a board with castling `mode`: castling is written as the
    /// king's two-square move (`e1g1`) in standard chess and as king takes own rook (`e1h1`)
    /// in Chess960. [`Board::uci`] is the same with the board's own mode.
    ///
    /// A `Move`'s `Display` always prints the encoding (king takes own rook), because a bare
    /// 16-bit move does not know the mode; use this (or [`Board::uci`]) for text a GUI reads.
    ///
    /// ```
    /// use cutoff_board::{CastlingMode, Move, MoveKind, Square};
    /// let castle = Move::new(Square::E1, Square::H1, MoveKind::Castle);
    /// assert_eq!(castle.uci(CastlingMode::Standard).to_string(), "e1g1");
    /// assert_eq!(castle.uci(CastlingMode::Chess960).to_string(), "e1h1");
    /// assert_eq!(castle.to_string(), "e1h1"); // the encoding
    /// let long = Move::new(Square::E8, Square::A8, MoveKind::Castle);
    /// assert_eq!(long.uci(CastlingMode::Standard).to_string(), "e8c8");
    /// ```
    pub fn uci(self, mode: CastlingMode) -> UciMove {
        let (from, mut to) = (self.from(), self.to());
        if self.is_castle() && !mode.is_chess960() {
            let file = if to.file() > from.file() { File::G } else { File::C };
            to = Square::new(file, from.rank());
        }
        UciMove { from, to, promotion: self.promotion() }
    }
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
    /// use cutoff_board::{Board, CastlingMode};
    /// let b = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", CastlingMode::Standard).unwrap();
    /// let castle = b.parse_uci("e1g1").unwrap();
    /// assert!(castle.is_castle());
    /// assert_eq!(b.uci(castle).to_string(), "e1g1");
    /// let b960 = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", CastlingMode::Chess960).unwrap();
    /// assert_eq!(b960.uci(b960.parse_uci("e1h1").unwrap()).to_string(), "e1h1");
    /// ```
    pub fn uci(&self, mv: Move) -> UciMove {
        mv.uci(self.castling_mode())
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
        text.parse::<UciMove>()?.to_move(self)
    }

    /// Reads a move in UCI notation (as [`Board::parse_uci`]) and plays it. On error the
    /// board is unchanged.
    ///
    /// ```
    /// use cutoff_board::{Board, ParseUciMoveError};
    /// let mut board = Board::default();
    /// let e4 = board.play_uci("e2e4").unwrap();
    /// assert_eq!(board.uci(e4).to_string(), "e2e4");
    /// assert_eq!(board.play_uci("e2e4"), Err(ParseUciMoveError::Illegal)); // no pawn on e2 now
    /// assert_eq!(board.play_uci("e7e5").map(|mv| mv.is_capture()), Ok(false));
    /// ```
    pub fn play_uci(&mut self, text: &str) -> Result<Move, ParseUciMoveError> {
        let mv = self.parse_uci(text)?;
        self.play_unchecked(mv);
        Ok(mv)
    }
}
