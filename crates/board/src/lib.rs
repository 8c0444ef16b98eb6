#![doc = include_str!("../README.md")]
#![no_std]
#![warn(missing_docs)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod attacks;
mod bitboard;
mod board;
mod castling;
mod color;
mod fen;
mod game;
mod movegen;
mod mv;
mod notation;
mod perft;
mod piece;
mod see;
mod square;
mod zobrist;

pub use bitboard::{Bitboard, BitboardIter};
pub use board::{Board, IllegalMoveError, STARTPOS_FEN, Undo};
pub use castling::{CastlingRights, CastlingSide};
pub use color::Color;
pub use fen::{Fen, ParseFenError, PositionError};
pub use game::{Game, Outcome};
pub use movegen::GenKind;
pub use mv::{Move, MoveKind, MoveList};
pub use notation::san::{ParseSanError, San};
pub use notation::uci::{ParseUciMoveError, UciMove};
pub use piece::{Piece, PieceType};
pub use see::SEE_VALUES;
pub use square::{File, ParseSquareError, Rank, Square};

#[cfg(test)]
mod tests;
