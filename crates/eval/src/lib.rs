#![doc = include_str!("../README.md")]
#![no_std]
#![warn(missing_docs)]
#![deny(unsafe_code)]

extern crate alloc;
#[cfg(test)]
extern crate std;

mod eval;
mod masks;
pub mod params;
mod pawns;
mod score;
mod trace;
pub mod tune;
mod weights;

pub use pawns::PawnCache;
pub use score::{S, Score};
pub use trace::{Term, Trace};

use cutoff_board::Board;

/// The largest absolute value [`evaluate`] returns. Evaluations are clamped to
/// `-MAX_EVAL..=MAX_EVAL`, so they never reach the mate-score range of a search.
pub const MAX_EVAL: i32 = 9_999;

/// The phase of a position with all pieces on the board (see [`phase`]).
pub const MAX_PHASE: i32 = 24;

/// The static evaluation of `board` in centipawns, from the side to move's point of view
/// (positive = good for the side to move), clamped to `±`[`MAX_EVAL`].
///
/// Allocation-free and pure; see [`evaluate_cached`] for the faster version a search uses.
///
/// ```
/// use cutoff_board::Board;
/// use cutoff_eval::{evaluate, params::TEMPO};
/// // The start position is balanced: only the side to move's tempo bonus remains.
/// assert_eq!(evaluate(&Board::default()), TEMPO.mg());
/// ```
#[inline]
pub fn evaluate(board: &Board) -> i32 {
    let mut sum = eval::Sum::default();
    let passed = pawns::structure(board, &mut sum);
    eval::features(board, passed, &mut sum);
    eval::finish(board, sum.0, eval::phase(board))
}

/// [`evaluate`], with the pawn-structure part looked up in (or stored into) `cache`.
/// The result is always the same as [`evaluate`]'s.
#[inline]
pub fn evaluate_cached(board: &Board, cache: &mut PawnCache) -> i32 {
    let pawns = cache.probe(board);
    let mut sum = eval::Sum(pawns.scores);
    eval::features(board, pawns.passed, &mut sum);
    eval::finish(board, sum.0, eval::phase(board))
}

/// The evaluation of `board` broken down by term and colour; its `Display` is a table.
/// [`Trace::eval`] equals [`evaluate`]`(board)`.
pub fn trace(board: &Board) -> Trace {
    let mut by_term = eval::ByTerm([[Score::ZERO; 2]; Term::COUNT]);
    let passed = pawns::structure(board, &mut by_term);
    eval::features(board, passed, &mut by_term);
    let terms = by_term.0;
    let phase = eval::phase(board);
    let mut sides = [Score::ZERO; 2];
    for term in &terms {
        sides[0] += term[0];
        sides[1] += term[1];
    }
    let eval = eval::finish(board, sides, phase);
    Trace { terms, phase, side_to_move: board.side_to_move(), eval }
}

/// The game phase of `board`, from [`MAX_PHASE`] (24: every piece on the board) down to 0
/// (kings and pawns only): knights and bishops count 1, rooks 2, queens 4
/// ([`params::PHASE_WEIGHT`]), capped at 24.
///
/// ```
/// use cutoff_board::{Board, CastlingMode};
/// assert_eq!(cutoff_eval::phase(&Board::default()), 24);
/// let pawn_ending = Board::from_fen("4k3/pp6/8/8/8/8/6PP/4K3 w - - 0 1", CastlingMode::Standard).unwrap();
/// assert_eq!(cutoff_eval::phase(&pawn_ending), 0);
/// ```
pub fn phase(board: &Board) -> i32 {
    eval::phase(board)
}

#[cfg(test)]
mod tests;
