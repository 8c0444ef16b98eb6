//! `FromStr` for the small types: colours, pieces, files, ranks, castling modes and boards.
//!
//! Every type that prints itself with `Display` reads the same text back with `FromStr`
//! (and `str::parse`), plus the usual alternatives (`w`/`white`, `N`/`n`).

use core::fmt;
use core::str::FromStr;

use crate::{Board, CastlingMode, Color, File, ParseFenError, Piece, PieceType, Rank};

/// The error of the `FromStr` implementations of [`Color`], [`PieceType`], [`Piece`],
/// [`File`], [`Rank`] and [`CastlingMode`]: the text names none of its values.
/// [`ParseNameError::expected`] says what was expected.
///
/// ```
/// use cutoff_board::{Color, File, ParseNameError, Piece, PieceType, Rank};
/// assert_eq!("white".parse(), Ok(Color::White));
/// assert_eq!("b".parse(), Ok(Color::Black));
/// assert_eq!("N".parse(), Ok(Piece::WhiteKnight));
/// assert_eq!("q".parse(), Ok(PieceType::Queen));
/// assert_eq!("e".parse(), Ok(File::E));
/// assert_eq!("8".parse(), Ok(Rank::Eighth));
/// let err = "x".parse::<Color>().unwrap_err();
/// assert_eq!(err.expected(), "a colour: w, b, white or black");
/// assert_eq!(err.to_string(), "expected a colour: w, b, white or black");
/// assert!("".parse::<File>().is_err() && "ab".parse::<File>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseNameError {
    expected: &'static str,
}

impl ParseNameError {
    /// What the text should have been, in words.
    pub const fn expected(&self) -> &'static str {
        self.expected
    }
}

impl fmt::Display for ParseNameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected {}", self.expected)
    }
}

impl core::error::Error for ParseNameError {}

/// The only character of `s`, if it has exactly one.
fn single_char(s: &str) -> Option<char> {
    let mut chars = s.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Some(c),
        _ => None,
    }
}

/// Reads `w`, `b`, `white` or `black` (any case), as written by `Display` and in FEN.
impl FromStr for Color {
    type Err = ParseNameError;
    fn from_str(s: &str) -> Result<Color, ParseNameError> {
        if is_one_of(s, &["w", "white"]) {
            Ok(Color::White)
        } else if is_one_of(s, &["b", "black"]) {
            Ok(Color::Black)
        } else {
            Err(ParseNameError { expected: "a colour: w, b, white or black" })
        }
    }
}

/// Reads one piece letter in either case (`p n b r q k`), as [`PieceType::from_char`].
impl FromStr for PieceType {
    type Err = ParseNameError;
    fn from_str(s: &str) -> Result<PieceType, ParseNameError> {
        single_char(s)
            .and_then(PieceType::from_char)
            .ok_or(ParseNameError { expected: "a piece letter: p, n, b, r, q or k (either case)" })
    }
}

/// Reads one FEN piece letter: uppercase is White, lowercase Black (as [`Piece::from_char`]).
impl FromStr for Piece {
    type Err = ParseNameError;
    fn from_str(s: &str) -> Result<Piece, ParseNameError> {
        single_char(s)
            .and_then(Piece::from_char)
            .ok_or(ParseNameError { expected: "a FEN piece letter: PNBRQK (White) or pnbrqk (Black)" })
    }
}

/// Reads a file letter `a`–`h` (lowercase, as in square names).
impl FromStr for File {
    type Err = ParseNameError;
    fn from_str(s: &str) -> Result<File, ParseNameError> {
        single_char(s).and_then(File::from_char).ok_or(ParseNameError { expected: "a file letter a-h" })
    }
}

/// Reads a rank digit `1`–`8`.
impl FromStr for Rank {
    type Err = ParseNameError;
    fn from_str(s: &str) -> Result<Rank, ParseNameError> {
        single_char(s).and_then(Rank::from_char).ok_or(ParseNameError { expected: "a rank digit 1-8" })
    }
}

/// Reads `standard` or `chess960` (any case; `960` and `frc` also mean Chess960).
impl FromStr for CastlingMode {
    type Err = ParseNameError;
    fn from_str(s: &str) -> Result<CastlingMode, ParseNameError> {
        if is_one_of(s, &["standard"]) {
            Ok(CastlingMode::Standard)
        } else if is_one_of(s, &["chess960", "960", "frc"]) {
            Ok(CastlingMode::Chess960)
        } else {
            Err(ParseNameError { expected: "a castling mode: standard or chess960" })
        }
    }
}

/// Reads a FEN in standard chess, as
/// [`Board::from_fen(s, CastlingMode::Standard)`](Board::from_fen). Chess960 positions need
/// [`Board::from_fen`] with [`CastlingMode::Chess960`]: the mode cannot be guessed from every
/// FEN (`KQkq` with the king on e1 is valid in both).
///
/// ```
/// use cutoff_board::{Board, CastlingMode, ParseFenError};
/// let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// let board: Board = kiwipete.parse().unwrap();
/// assert_eq!(board, Board::from_fen(kiwipete, CastlingMode::Standard).unwrap());
/// assert_eq!("".parse::<Board>(), Err(ParseFenError::Empty));
/// ```
impl FromStr for Board {
    type Err = ParseFenError;
    fn from_str(s: &str) -> Result<Board, ParseFenError> {
        Board::from_fen(s, CastlingMode::Standard)
    }
}

/// Whether `s` is one of `words`, ignoring ASCII case.
fn is_one_of(s: &str, words: &[&str]) -> bool {
    words.iter().any(|w| s.eq_ignore_ascii_case(w))
}
