//! Files, ranks and squares.

use core::fmt;
use core::str::FromStr;

use crate::Color;

/// A file (column) of the board, `a` to `h`.
///
/// ```
/// use cutoff_board::File;
/// assert_eq!(File::from_char('c'), Some(File::C));
/// assert_eq!(File::H.to_char(), 'h');
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum File {
    A,
    B,
    C,
    D,
    E,
    F,
    G,
    H,
}

/// A rank (row) of the board, `1` to `8`.
///
/// ```
/// use cutoff_board::{Color, Rank};
/// assert_eq!(Rank::Second.relative_to(Color::Black), Rank::Seventh);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum Rank {
    First,
    Second,
    Third,
    Fourth,
    Fifth,
    Sixth,
    Seventh,
    Eighth,
}

impl File {
    /// All files from `a` to `h`.
    pub const ALL: [File; 8] = [File::A, File::B, File::C, File::D, File::E, File::F, File::G, File::H];

    /// The file with index `i` (0 = `a`). Panics if `i >= 8`.
    #[inline(always)]
    pub const fn index_const(i: usize) -> File {
        File::ALL[i]
    }

    /// The file with index `i`, or `None` if `i >= 8`.
    pub const fn try_from_index(i: usize) -> Option<File> {
        if i < 8 { Some(File::ALL[i]) } else { None }
    }

    /// 0 for `a` ... 7 for `h`.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Parses a lowercase file letter.
    pub const fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='h' => Some(File::ALL[c as usize - 'a' as usize]),
            _ => None,
        }
    }

    /// The lowercase letter of this file.
    pub const fn to_char(self) -> char {
        (b'a' + self as u8) as char
    }
}

impl Rank {
    /// All ranks from `1` to `8`.
    pub const ALL: [Rank; 8] =
        [Rank::First, Rank::Second, Rank::Third, Rank::Fourth, Rank::Fifth, Rank::Sixth, Rank::Seventh, Rank::Eighth];

    /// The rank with index `i`, or `None` if `i >= 8`.
    pub const fn try_from_index(i: usize) -> Option<Rank> {
        if i < 8 { Some(Rank::ALL[i]) } else { None }
    }

    /// 0 for rank 1 ... 7 for rank 8.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Parses a rank digit.
    pub const fn from_char(c: char) -> Option<Rank> {
        match c {
            '1'..='8' => Some(Rank::ALL[c as usize - '1' as usize]),
            _ => None,
        }
    }

    /// The digit of this rank.
    pub const fn to_char(self) -> char {
        (b'1' + self as u8) as char
    }

    /// This rank as seen by `color`: rank 1 is White's first rank and Black's eighth.
    #[inline(always)]
    pub const fn relative_to(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => Rank::ALL[7 - self as usize],
        }
    }
}

/// A square of the board, `a1` = 0 to `h8` = 63 (little-endian rank-file mapping).
///
/// ```
/// use cutoff_board::{File, Rank, Square};
/// let sq: Square = "e4".parse().unwrap();
/// assert_eq!(sq, Square::E4);
/// assert_eq!(sq.file(), File::E);
/// assert_eq!(sq.rank(), Rank::Fourth);
/// assert_eq!(Square::new(File::E, Rank::Fourth), sq);
/// assert_eq!(sq.to_string(), "e4");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
#[rustfmt::skip]
#[allow(missing_docs)]
pub enum Square {
    A1, B1, C1, D1, E1, F1, G1, H1,
    A2, B2, C2, D2, E2, F2, G2, H2,
    A3, B3, C3, D3, E3, F3, G3, H3,
    A4, B4, C4, D4, E4, F4, G4, H4,
    A5, B5, C5, D5, E5, F5, G5, H5,
    A6, B6, C6, D6, E6, F6, G6, H6,
    A7, B7, C7, D7, E7, F7, G7, H7,
    A8, B8, C8, D8, E8, F8, G8, H8,
}

impl Square {
    /// All 64 squares, `a1` first, `h8` last.
    #[rustfmt::skip]
    pub const ALL: [Square; 64] = {
        use Square::*;
        [
            A1, B1, C1, D1, E1, F1, G1, H1, A2, B2, C2, D2, E2, F2, G2, H2,
            A3, B3, C3, D3, E3, F3, G3, H3, A4, B4, C4, D4, E4, F4, G4, H4,
            A5, B5, C5, D5, E5, F5, G5, H5, A6, B6, C6, D6, E6, F6, G6, H6,
            A7, B7, C7, D7, E7, F7, G7, H7, A8, B8, C8, D8, E8, F8, G8, H8,
        ]
    };

    /// The square on `file` and `rank`.
    #[inline(always)]
    pub const fn new(file: File, rank: Rank) -> Square {
        Square::ALL[rank as usize * 8 + file as usize]
    }

    /// The square with index `i` (`a1` = 0). Panics if `i >= 64`.
    #[inline(always)]
    pub const fn index_const(i: usize) -> Square {
        Square::ALL[i]
    }

    /// The square with index `i`, or `None` if `i >= 64`.
    #[inline(always)]
    pub const fn try_from_index(i: usize) -> Option<Square> {
        if i < 64 { Some(Square::ALL[i]) } else { None }
    }

    /// The index of this square, `a1` = 0 ... `h8` = 63.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The file of this square.
    #[inline(always)]
    pub const fn file(self) -> File {
        File::ALL[self as usize & 7]
    }

    /// The rank of this square.
    #[inline(always)]
    pub const fn rank(self) -> Rank {
        Rank::ALL[self as usize >> 3]
    }

    /// The square mirrored vertically (`e2` becomes `e7`).
    #[inline(always)]
    pub const fn flip_rank(self) -> Square {
        Square::ALL[self as usize ^ 56]
    }

    /// The square mirrored horizontally (`b3` becomes `g3`).
    #[inline(always)]
    pub const fn flip_file(self) -> Square {
        Square::ALL[self as usize ^ 7]
    }

    /// This square seen from `color`'s side: unchanged for White, mirrored vertically for Black.
    #[inline(always)]
    pub const fn relative_to(self, color: Color) -> Square {
        match color {
            Color::White => self,
            Color::Black => self.flip_rank(),
        }
    }

    /// The square `dfile` files and `drank` ranks away, or `None` off the board.
    ///
    /// ```
    /// use cutoff_board::Square;
    /// assert_eq!(Square::E4.offset(1, 2), Some(Square::F6));
    /// assert_eq!(Square::H4.offset(1, 0), None);
    /// ```
    pub const fn offset(self, dfile: i8, drank: i8) -> Option<Square> {
        let f = (self as u8 & 7) as i8 + dfile;
        let r = (self as u8 >> 3) as i8 + drank;
        if f >= 0 && f < 8 && r >= 0 && r < 8 { Some(Square::ALL[(r * 8 + f) as usize]) } else { None }
    }

    /// The bitboard with just this square.
    #[inline(always)]
    pub const fn bitboard(self) -> crate::Bitboard {
        crate::Bitboard(1 << self as u8)
    }
}

/// The error returned when a square name such as `e4` cannot be parsed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseSquareError;

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a square is a file letter a-h followed by a rank digit 1-8")
    }
}

impl core::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let mut chars = s.chars();
        match (chars.next().and_then(File::from_char), chars.next().and_then(Rank::from_char), chars.next()) {
            (Some(f), Some(r), None) => Ok(Square::new(f, r)),
            _ => Err(ParseSquareError),
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().to_char(), self.rank().to_char())
    }
}

impl fmt::Display for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}
