//! Why a game file could not be read.

use super::*;

/// Why a game file could not be read.
#[derive(Debug)]
#[non_exhaustive]
pub enum FormatError {
    /// Reading failed.
    Io(io::Error),
    /// The file does not start with [`MAGIC`]: not a game file.
    BadMagic {
        /// The first 8 bytes.
        found: [u8; 8],
    },
    /// The file is of another format version.
    UnsupportedVersion {
        /// The version in the file.
        found: u32,
    },
    /// The input ends inside the 12-byte header.
    TruncatedHeader {
        /// The bytes there were.
        len: usize,
    },
    /// The input ends inside a game (a writer stopped in the middle of it).
    Truncated {
        /// The game's index in the file, from 0.
        game: u64,
    },
    /// A piece code that is no piece (6, 7, 14 or 15).
    BadPieceCode {
        /// The game's index in the file, from 0.
        game: u64,
        /// The square of the piece.
        square: Square,
        /// The code.
        code: u8,
    },
    /// A field of the packed position holds a value it cannot (reserved bits set, an en
    /// passant square out of range, a rook file for a right that is not held, ...), or the
    /// position is not stored the one way this format stores it.
    BadField {
        /// The game's index in the file, from 0.
        game: u64,
        /// Which field.
        field: &'static str,
    },
    /// The packed position is not a legal chess position.
    InvalidPosition {
        /// The game's index in the file, from 0.
        game: u64,
        /// What is wrong with it.
        source: ParseFenError,
    },
    /// A result byte above 2.
    BadResult {
        /// The game's index in the file, from 0.
        game: u64,
        /// The byte.
        found: u8,
    },
    /// A move that encodes no move or is illegal in the position reached by the moves before.
    IllegalMove {
        /// The game's index in the file, from 0.
        game: u64,
        /// The move's index in the game, from 0.
        ply: usize,
        /// The stored 16 bits.
        raw: u16,
    },
    /// A compact game's move index at or beyond the number of legal moves of its position.
    BadMoveIndex {
        /// The game's index in the file, from 0.
        game: u64,
        /// The move's index in the game, from 0.
        ply: usize,
        /// The stored index.
        index: u8,
        /// The number of legal moves there.
        legal: usize,
    },
    /// A compact game's varint that is not in its shortest form or does not fit a `u32`.
    BadVarint {
        /// The game's index in the file, from 0.
        game: u64,
    },
    /// A score beyond ±[`SCORE_MAX`] that is not [`NO_SCORE`].
    BadScore {
        /// The game's index in the file, from 0.
        game: u64,
        /// The move's index in the game, from 0 (the game's length for the final position).
        ply: usize,
        /// The stored value.
        value: i16,
    },
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::Io(e) => write!(f, "read error: {e}"),
            FormatError::BadMagic { found } => {
                write!(f, "not a Cutoff game file: it starts with {found:02x?}, not \"CUTOFFGR\"")
            }
            FormatError::UnsupportedVersion { found } => {
                write!(f, "game file format version {found} is not supported (this build reads versions 1 and 2)")
            }
            FormatError::TruncatedHeader { len } => {
                write!(f, "truncated game file: {len} bytes, shorter than the {HEADER_LEN}-byte header")
            }
            FormatError::Truncated { game } => write!(f, "game {game}: truncated (the file ends inside the game)"),
            FormatError::BadPieceCode { game, square, code } => {
                write!(f, "game {game}: bad piece code {code} on {square}")
            }
            FormatError::BadField { game, field } => write!(f, "game {game}: bad packed position: {field}"),
            FormatError::InvalidPosition { game, source } => write!(f, "game {game}: invalid start position: {source}"),
            FormatError::BadResult { game, found } => write!(f, "game {game}: bad result byte {found}"),
            FormatError::IllegalMove { game, ply, raw } => {
                write!(f, "game {game}: illegal move {raw:#06x} at ply {ply}")
            }
            FormatError::BadMoveIndex { game, ply, index, legal } => {
                write!(f, "game {game}: move index {index} at ply {ply}, where there are {legal} legal moves")
            }
            FormatError::BadVarint { game } => {
                write!(f, "game {game}: bad varint (not in its shortest form, or beyond 32 bits)")
            }
            FormatError::BadScore { game, ply, value } => write!(f, "game {game}: bad score {value} at ply {ply}"),
        }
    }
}

impl std::error::Error for FormatError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FormatError::Io(e) => Some(e),
            FormatError::InvalidPosition { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl From<io::Error> for FormatError {
    fn from(e: io::Error) -> FormatError {
        FormatError::Io(e)
    }
}
