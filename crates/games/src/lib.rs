#![doc = include_str!("../README.md")]
#![warn(missing_docs)]
#![forbid(unsafe_code)]
//!
//! # The format
//!
//! A file is a 12-byte header followed by games back to back, with no index and no count, so
//! a file is written by appending and a partial last game (a generator stopped while writing)
//! is detected by the reader and can be cut off. All integers are little-endian.
//!
//! ## File header (12 bytes)
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic `b"CUTOFFGR"` ([`MAGIC`]) |
//! | 8..12 | format version, `u32`: 1 ([`Encoding::Plain`], below) or 2 ([`Encoding::Compact`]) |
//!
//! ## Game (version 1)
//!
//! | size | field |
//! |---|---|
//! | 16 + ⌈n/2⌉ | the start position, packed (below; `n` pieces) |
//! | 1 | the result ([`GameResult::to_byte`]): 0 Black won, 1 draw, 2 White won |
//! | 4 per ply | `u16` move, then `i16` score: one record per move played |
//! | 4 | terminator: `u16` 0, then the `i16` score of the final position |
//!
//! **Move**: [`Move::raw`] of `cutoff-board` (from square in bits 0–5, to square in bits 6–11,
//! a [`MoveKind`](cutoff_board::MoveKind) flag in bits 12–15; castling is "king takes own rook",
//! so the same encoding serves Chess960). No move encodes to 0 (`from == to`), so 0 ends the game.
//!
//! **Score**: the search score of the position *before* the move, from the side to move's point
//! of view, in centipawns. It is Cutoff's search score unchanged, clamped to ±32000
//! ([`SCORE_MAX`]); Cutoff's mate scores fit in it as they are: mate in `n` plies is
//! `32000 - n` (`cutoff_tt::MATE - n`), being mated in `n` plies `-(32000 - n)`, so any
//! `|score| >= 31872` (`MATE_IN_MAX_PLY`) is a mate, and Syzygy wins found by the search are
//! just below that. `-32768` ([`NO_SCORE`]) means "no score" (a position labelled only with the
//! game result, or the final position of a self-play game, which is never searched; on a move,
//! a position the game does not vouch for, such as a scored opening's position whose search
//! chose a noisy move: no training position, see [`is_training_position`]). Scores between
//! 32000 and 32767 in absolute value are rejected as corrupt.
//!
//! The terminator's score belongs to the final position (the one after the last move): a
//! position from an EPD file, converted to a game of no moves, carries its score there.
//!
//! ## Packed position (16 + ⌈n/2⌉ bytes: 32 for 32 pieces)
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | occupancy `u64`: bit `i` set when square `i` holds a piece (a1 = 0, b1 = 1, …, h8 = 63) |
//! | 8 | ⌈n/2⌉ | 4-bit piece codes of the `n` occupied squares in square order (a1 … h8): the `i`-th in the low nibble of byte `8 + i/2` when `i` is even, in the high nibble when odd; an unused last high nibble is 0 |
//! | 8 + ⌈n/2⌉ | 1 | state: bits 0–3 castling rights (1 White king side, 2 White queen side, 4 Black king side, 8 Black queen side: [`CastlingRights::bits`]), bit 4 side to move (1 = Black), bit 5 Chess960 ([`CastlingMode`]), bits 6–7 zero |
//! | +1 | 1 | White's castling rook files: low nibble king side, high nibble queen side (0 = a … 7 = h; 0 where the right is not held) |
//! | +2 | 1 | Black's castling rook files, the same way |
//! | +3 | 1 | en passant square 0–63 (set only when a pawn can take there, as [`Board::en_passant`]), 255 = none |
//! | +4 | 2 | halfmove clock `u16` |
//! | +6 | 2 | fullmove number `u16` |
//!
//! Piece code: `colour << 3 | type`, colour 0 White, 1 Black; type 0 pawn, 1 knight, 2 bishop,
//! 3 rook, 4 queen, 5 king (codes 6, 7, 14, 15 are invalid). Storing the rook of each castling
//! right (not just the right) is what makes Chess960 positions exact, and the Chess960 bit keeps
//! the board's castling mode (notation) through a round trip. The packing is canonical: a
//! position packs to exactly one byte string, and the reader rejects any other.
//!
//! A game of `p` plies from a 32-piece start takes `32 + 1 + 4p + 4` bytes, so `4 + 37/p`
//! bytes per position (about 4.3 for a 120-ply game).
//!
//! ## The compact encoding (version 2)
//!
//! Version 1 ([`Encoding::Plain`]) is what `cutoff datagen` writes: whole games appended one
//! at a time, with fixed-size move records. Version 2 ([`Encoding::Compact`]) stores the same
//! games for archives (`cutoff datagen compact`, `scripts/pack-selfplay.sh`): compressed with
//! zstd, it takes about 40 % less space than version 1 compressed the same way. [`GameReader`]
//! reads both. A compact game is:
//!
//! | size | field |
//! |---|---|
//! | 16 + ⌈n/2⌉ | the start position, packed as in version 1 |
//! | 1 | the result, as in version 1 |
//! | varint | `p`, the number of moves |
//! | `p` | one byte per move: its index among the legal moves of its position, sorted by [`Move::raw`] |
//! | `p + 1` varints | the scores of the positions before each move, then of the final position |
//!
//! A **varint** is an unsigned LEB128 `u32` (7 bits a byte, low bits first, the high bit set on
//! every byte but the last) in its shortest form. A **score** is stored as
//! 0 for "no score", otherwise as `zigzag(score - prediction) + 1`, where the prediction is the
//! previous position's score negated (the side to move alternates), or 0 at the start of the
//! game or after a position without a score; `zigzag` maps 0, -1, 1, -2, … to 0, 1, 2, 3, ….
//! Consecutive search scores differ little, so most scores take one byte, and move indices
//! take one byte where version 1 spends two (a position has at most 218 legal moves; the
//! reader rejects a position with more than a byte can index). Sorting by the raw move makes
//! the index independent of the move generator's order. The encoding is canonical, as version
//! 1 is.
//!
//! A compact file decodes through the legal move generator: were a build's generator to miss
//! or invent a move, a version 2 file would decode as another legal game (or fail), where a
//! version 1 file names its moves outright. The generator is checked by every perft count of
//! the board crate's suites, and `scripts/pack-selfplay.sh` keeps the sha256 of the version 1
//! files in each manifest, so `cutoff datagen compact --plain` can prove a decoding.
//!
//! ## Reading
//!
//! [`GameReader`] checks everything: the header, every field of the packed position (the
//! position must also be legal by [`Board::validate`]), the result, and every move, by replaying
//! the game on a [`Board`] (an illegal move is an error). A [`GameRecord`] is therefore always a
//! legal game. Corrupt input gives a [`FormatError`], never a panic.

mod encoding;
mod error;
mod packing;
mod reader;
mod record;
mod writer;

use std::fmt;
use std::io::{self, Read, Write};

use cutoff_board::{
    Board, CastlingMode, CastlingRights, CastlingSide, Color, File, IllegalMoveError, Move, ParseFenError, Piece,
    PieceType, Rank, Square,
};

pub use encoding::{encode_game, encode_game_as};
pub use error::FormatError;
pub use reader::{FileStats, GameReader, file_stats};
pub use record::{GameRecord, GameResult, Ply, RecordedPosition, Replay, TrainingPosition, is_training_position};
pub use writer::GameWriter;

use encoding::{score_from_code, sorted_legal_moves};
use packing::{pack_position, unpack_position};

/// The first 8 bytes of a game file.
pub const MAGIC: [u8; 8] = *b"CUTOFFGR";

/// The format version of [`Encoding::Plain`], which `cutoff datagen` writes (bytes 8..12 of a
/// file).
pub const VERSION: u32 = 1;

/// The two encodings of a game file, told apart by the version in its header.
///
/// ```
/// use cutoff_games::Encoding;
/// assert_eq!(Encoding::Plain.version(), 1);
/// assert_eq!(Encoding::from_version(2), Some(Encoding::Compact));
/// assert_eq!(Encoding::from_version(3), None);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// Version 1: 4 bytes a move, written by self-play (see the module documentation).
    #[default]
    Plain,
    /// Version 2: a byte a move and a varint a score, for archives.
    Compact,
}

impl Encoding {
    /// The version number in the file header.
    pub const fn version(self) -> u32 {
        match self {
            Encoding::Plain => 1,
            Encoding::Compact => 2,
        }
    }

    /// The encoding of header version `version`, if this build reads it.
    pub const fn from_version(version: u32) -> Option<Encoding> {
        match version {
            1 => Some(Encoding::Plain),
            2 => Some(Encoding::Compact),
            _ => None,
        }
    }

    /// The file header of this encoding: [`MAGIC`] and the version.
    pub fn header(self) -> [u8; HEADER_LEN] {
        let mut header = [0; HEADER_LEN];
        header[..8].copy_from_slice(&MAGIC);
        header[8..].copy_from_slice(&self.version().to_le_bytes());
        header
    }
}

/// The size of the file header: [`MAGIC`] and the `u32` version.
pub const HEADER_LEN: usize = 12;

/// The stored score that means "no score".
pub const NO_SCORE: i16 = i16::MIN;

/// The largest score magnitude stored: Cutoff's `MATE` (a mate at the root). Search scores are
/// clamped to `-SCORE_MAX..=SCORE_MAX`.
pub const SCORE_MAX: i16 = 32_000;

/// Training positions need `|score| < TRAINING_SCORE_LIMIT`: beyond it a score is a mate, a
/// tablebase win, or a position so lopsided that the exact number teaches nothing (Cutoff's
/// evaluation rarely passes 3000 outside of those). See [`is_training_position`].
pub const TRAINING_SCORE_LIMIT: i16 = 10_000;

/// The value a search score is stored as: clamped to ±[`SCORE_MAX`] (which keeps Cutoff's
/// mate scores, `±(32000 - plies)`, as they are).
///
/// ```
/// use cutoff_games::{SCORE_MAX, encode_score};
/// assert_eq!(encode_score(35), 35);
/// assert_eq!(encode_score(-31_999), -31_999); // mated in one ply
/// assert_eq!(encode_score(1_000_000), SCORE_MAX);
/// assert_eq!(encode_score(i32::MIN), -SCORE_MAX);
/// ```
pub fn encode_score(score: i32) -> i16 {
    score.clamp(-i32::from(SCORE_MAX), i32::from(SCORE_MAX)) as i16
}
