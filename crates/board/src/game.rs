//! A game: a board plus the history needed for repetition detection.

use alloc::vec::Vec;

use crate::{Board, Color, IllegalMoveError, Move};

/// How a game ended, when it has.
///
/// ```
/// use cutoff_board::{Board, CastlingMode, Color, Game, Outcome};
/// let outcome = |fen: &str| Game::new(Board::from_fen(fen, CastlingMode::Standard).unwrap()).outcome();
/// // Fool's mate: 1.f3 e5 2.g4 Qh4#.
/// let fools_mate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
/// assert_eq!(outcome(fools_mate), Some(Outcome::Checkmate { winner: Color::Black }));
/// assert_eq!(outcome("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), Some(Outcome::Stalemate));
/// assert_eq!(outcome("8/8/4k3/8/8/3NK3/8/8 w - - 0 1"), Some(Outcome::InsufficientMaterial));
/// assert_eq!(outcome("8/8/8/4k3/8/8/3QK3/8 w - - 100 80"), Some(Outcome::FiftyMoves));
/// assert_eq!(outcome(cutoff_board::STARTPOS_FEN), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move is checkmated: the other colour wins.
    Checkmate {
        /// The winner.
        winner: Color,
    },
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// The same position (same side to move, castling rights and en passant) occurred a third time.
    ThreefoldRepetition,
    /// 100 plies without a capture or pawn move (and the last move was not mate).
    FiftyMoves,
    /// Neither side can mate.
    InsufficientMaterial,
}

/// A [`Board`] with the keys of earlier positions, for repetition detection.
///
/// ```
/// use cutoff_board::{Game, Outcome};
/// let mut game = Game::default();
/// for mv in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"] {
///     game.play_uci(mv).unwrap();
/// }
/// assert_eq!(game.outcome(), Some(Outcome::ThreefoldRepetition));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Game {
    board: Board,
    /// Keys of the positions before each move, oldest first.
    history: Vec<u64>,
}

impl Game {
    /// A game starting from `board`.
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode, Game};
    /// let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    /// let board = Board::from_fen(kiwipete, CastlingMode::Standard).unwrap();
    /// let game = Game::new(board);
    /// assert_eq!(game.board(), &board);
    /// assert!(game.history().is_empty());
    /// ```
    pub fn new(board: Board) -> Game {
        Game { board, history: Vec::new() }
    }

    /// The current position.
    ///
    /// ```
    /// use cutoff_board::{Color, Game, Piece, Square};
    /// let mut game = Game::default();
    /// game.play_uci("e2e4").unwrap();
    /// assert_eq!(game.board().side_to_move(), Color::Black);
    /// assert_eq!(game.board().piece_on(Square::E4), Some(Piece::WhitePawn));
    /// ```
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The keys of the positions before the current one, oldest first.
    ///
    /// ```
    /// use cutoff_board::{Board, Game};
    /// let mut game = Game::default();
    /// game.play_uci("e2e4").unwrap();
    /// let after_e4 = game.board().key();
    /// game.play_uci("e7e5").unwrap();
    /// assert_eq!(game.history(), [Board::default().key(), after_e4]);
    /// ```
    pub fn history(&self) -> &[u64] {
        &self.history
    }

    /// Plays a legal move; an illegal one is rejected and the game is unchanged.
    ///
    /// ```
    /// use cutoff_board::{Game, IllegalMoveError, Move, MoveKind, Square};
    /// let mut game = Game::default();
    /// let nf3 = Move::new(Square::G1, Square::F3, MoveKind::Quiet);
    /// assert_eq!(game.play(nf3), Ok(()));
    /// assert_eq!(game.history().len(), 1);
    /// // White's knight cannot move again: it is Black's turn.
    /// let nd4 = Move::new(Square::F3, Square::D4, MoveKind::Quiet);
    /// assert_eq!(game.play(nd4), Err(IllegalMoveError { mv: nd4 }));
    /// assert_eq!(game.history().len(), 1);
    /// ```
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMoveError> {
        let key = self.board.key();
        self.board.try_play(mv)?;
        self.history.push(key);
        Ok(())
    }

    /// Parses a UCI move and plays it.
    ///
    /// ```
    /// use cutoff_board::{Game, MoveKind, ParseUciMoveError, Square};
    /// let mut game = Game::default();
    /// let mv = game.play_uci("e2e4").unwrap();
    /// assert_eq!((mv.from(), mv.to(), mv.kind()), (Square::E2, Square::E4, MoveKind::DoublePush));
    /// assert_eq!(game.play_uci("e4e5"), Err(ParseUciMoveError::Illegal)); // Black to move
    /// assert_eq!(game.play_uci("e7"), Err(ParseUciMoveError::Syntax));
    /// assert_eq!(game.history().len(), 1); // neither error changed the game
    /// ```
    pub fn play_uci(&mut self, text: &str) -> Result<Move, crate::ParseUciMoveError> {
        let mv = self.board.parse_uci(text)?;
        self.history.push(self.board.key());
        self.board.play_unchecked(mv);
        Ok(mv)
    }

    /// Parses a SAN move and plays it.
    ///
    /// ```
    /// use cutoff_board::{Game, ParseSanError};
    /// let mut game = Game::default();
    /// let mv = game.play_san("Nf3").unwrap();
    /// assert_eq!(game.board().uci(mv).to_string(), "g1f3");
    /// assert_eq!(game.play_san("Nf3"), Err(ParseSanError::Illegal)); // Black to move
    /// assert_eq!(game.history().len(), 1);
    /// ```
    pub fn play_san(&mut self, text: &str) -> Result<Move, crate::ParseSanError> {
        let mv = self.board.parse_san(text)?;
        self.history.push(self.board.key());
        self.board.play_unchecked(mv);
        Ok(mv)
    }

    /// How many times the current position occurred before (only positions since the last
    /// capture or pawn move can repeat).
    ///
    /// ```
    /// use cutoff_board::Game;
    /// let mut game = Game::default();
    /// assert_eq!(game.repetitions(), 0);
    /// for mv in ["g1f3", "g8f6", "f3g1", "f6g8"] {
    ///     game.play_uci(mv).unwrap();
    /// }
    /// assert_eq!(game.repetitions(), 1); // the start position, seen once before
    /// ```
    pub fn repetitions(&self) -> usize {
        let key = self.board.key();
        let window = (self.board.halfmove_clock() as usize).min(self.history.len());
        self.history[self.history.len() - window..].iter().rev().skip(1).step_by(2).filter(|&&k| k == key).count()
    }

    /// The result of the game if it is over by the rules (mate, stalemate) or may be claimed
    /// drawn (threefold repetition, 50 moves), or is a dead draw by insufficient material.
    ///
    /// ```
    /// use cutoff_board::{Color, Game, Outcome};
    /// // Scholar's mate.
    /// let mut game = Game::default();
    /// for mv in ["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6"] {
    ///     game.play_uci(mv).unwrap();
    ///     assert_eq!(game.outcome(), None);
    /// }
    /// game.play_uci("h5f7").unwrap();
    /// assert_eq!(game.outcome(), Some(Outcome::Checkmate { winner: Color::White }));
    /// ```
    pub fn outcome(&self) -> Option<Outcome> {
        let b = &self.board;
        if !b.has_legal_moves() {
            return Some(if b.in_check() {
                Outcome::Checkmate { winner: !b.side_to_move() }
            } else {
                Outcome::Stalemate
            });
        }
        if b.is_insufficient_material() {
            return Some(Outcome::InsufficientMaterial);
        }
        if b.is_fifty_move_draw() {
            return Some(Outcome::FiftyMoves);
        }
        if self.repetitions() >= 2 {
            return Some(Outcome::ThreefoldRepetition);
        }
        None
    }
}
