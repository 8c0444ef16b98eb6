//! A game: a board plus the history needed for repetition detection.

use alloc::vec::Vec;

use crate::{Board, Color, IllegalMoveError, Move};

/// How a game ended, when it has.
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
    pub fn new(board: Board) -> Game {
        Game { board, history: Vec::new() }
    }

    /// The current position.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The keys of the positions before the current one, oldest first.
    pub fn history(&self) -> &[u64] {
        &self.history
    }

    /// Plays a legal move; an illegal one is rejected and the game is unchanged.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMoveError> {
        let key = self.board.key();
        self.board.try_play(mv)?;
        self.history.push(key);
        Ok(())
    }

    /// Parses a UCI move and plays it.
    pub fn play_uci(&mut self, text: &str) -> Result<Move, crate::ParseUciMoveError> {
        let mv = self.board.parse_uci(text)?;
        self.history.push(self.board.key());
        self.board.play_unchecked(mv);
        Ok(mv)
    }

    /// How many times the current position occurred before (only positions since the last
    /// capture or pawn move can repeat).
    pub fn repetitions(&self) -> usize {
        let key = self.board.key();
        let window = (self.board.halfmove_clock() as usize).min(self.history.len());
        self.history[self.history.len() - window..].iter().rev().skip(1).step_by(2).filter(|&&k| k == key).count()
    }

    /// The result of the game if it is over by the rules (mate, stalemate) or may be claimed
    /// drawn (threefold repetition, 50 moves), or is a dead draw by insufficient material.
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
