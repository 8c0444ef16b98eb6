#![doc = include_str!("../README.md")]
#![no_std]
#![warn(missing_docs)]

extern crate alloc;
#[cfg(test)]
extern crate std;

/// The `arrayvec` crate, re-exported: [`MoveList`] and the result of [`Board::divide`] are
/// `arrayvec` types, so it is part of this crate's public API (same version, no need to
/// depend on it separately).
///
/// ```
/// use cutoff_board::arrayvec::ArrayVec;
/// use cutoff_board::{Board, Move, MoveList};
/// let moves: MoveList = Board::default().legal_moves();
/// let first_two: ArrayVec<Move, 2> = moves.iter().copied().take(2).collect();
/// assert_eq!(first_two.len(), 2);
/// ```
pub use arrayvec;

pub mod attacks;
mod bitboard;
mod board;
mod castling;
mod color;
mod cuckoo;
mod fen;
mod game;
mod make;
mod movegen;
mod mv;
mod names;
mod notation;
mod perft;
mod piece;
mod rng;
mod see;
mod square;
mod zobrist;

pub use bitboard::{Bitboard, BitboardIter};
pub use board::{Board, CheckSquares, STARTPOS_FEN};
pub use castling::{CastlingMode, CastlingRights, CastlingSide};
pub use color::Color;
pub use fen::{Fen, ParseFenError, PositionError};
pub use game::{Game, Outcome};
pub use make::{IllegalMoveError, Undo};
pub use movegen::GenKind;
pub use mv::{Move, MoveKind, MoveList};
pub use names::ParseNameError;
pub use notation::san::{ParseSanError, San};
pub use notation::uci::{ParseUciMoveError, UciMove};
pub use piece::{Piece, PieceType};
pub use rng::SplitMix64;
pub use see::SEE_VALUES;
pub use square::{File, ParseSquareError, Rank, Square};

/// The deepest ply from the root that a search built on these crates reaches. It is the one
/// ply limit of Cutoff, defined here, in the lowest crate that needs it: `cutoff-ordering`
/// sizes its killer table with it, `cutoff-tt` bounds mate distances with it
/// (`MATE_IN_MAX_PLY = MATE - MAX_PLY`), and Cutoff's search stops deepening there.
///
/// ```
/// assert_eq!(cutoff_board::MAX_PLY, 128);
/// ```
pub const MAX_PLY: usize = 128;

#[cfg(test)]
mod tests;
