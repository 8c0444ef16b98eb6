#![doc = include_str!("../README.md")]
#![no_std]
#![deny(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

mod book;
mod entry;
mod key;
mod random;
mod rng;

pub use book::{Book, BookError, BookMove};
pub use entry::{Entry, decode_move, encode_move};
pub use key::polyglot_key;
pub use random::RANDOM64;
pub use rng::BookRng;
