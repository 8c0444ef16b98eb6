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
    /// The a-file.
    A,
    /// The b-file.
    B,
    /// The c-file.
    C,
    /// The d-file.
    D,
    /// The e-file.
    E,
    /// The f-file.
    F,
    /// The g-file.
    G,
    /// The h-file.
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
    /// Rank 1 (White's back rank).
    First,
    /// Rank 2 (White's pawns start here).
    Second,
    /// Rank 3.
    Third,
    /// Rank 4.
    Fourth,
    /// Rank 5.
    Fifth,
    /// Rank 6.
    Sixth,
    /// Rank 7 (Black's pawns start here).
    Seventh,
    /// Rank 8 (Black's back rank).
    Eighth,
}

impl File {
    /// All files from `a` to `h`.
    ///
    /// ```
    /// use cutoff_board::File;
    /// let letters: String = File::ALL.iter().map(|f| f.to_char()).collect();
    /// assert_eq!(letters, "abcdefgh");
    /// ```
    pub const ALL: [File; 8] = [File::A, File::B, File::C, File::D, File::E, File::F, File::G, File::H];

    /// The file with index `i` (0 = `a`). Panics if `i >= 8`.
    ///
    /// ```
    /// use cutoff_board::File;
    /// assert_eq!(File::index_const(0), File::A);
    /// assert_eq!(File::index_const(4), File::E);
    /// ```
    #[inline(always)]
    pub const fn index_const(i: usize) -> File {
        File::ALL[i]
    }

    /// The file with index `i`, or `None` if `i >= 8`.
    ///
    /// ```
    /// use cutoff_board::File;
    /// assert_eq!(File::try_from_index(7), Some(File::H));
    /// assert_eq!(File::try_from_index(8), None);
    /// ```
    pub const fn try_from_index(i: usize) -> Option<File> {
        if i < 8 { Some(File::ALL[i]) } else { None }
    }

    /// 0 for `a` ... 7 for `h`.
    ///
    /// ```
    /// use cutoff_board::{File, Square};
    /// assert_eq!(File::C.index(), 2);
    /// assert_eq!(Square::C1.index(), File::C.index()); // first-rank squares share the file index
    /// ```
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Parses a lowercase file letter.
    ///
    /// ```
    /// use cutoff_board::File;
    /// assert_eq!(File::from_char('e'), Some(File::E));
    /// assert_eq!(File::from_char('E'), None); // uppercase is not a file
    /// assert_eq!(File::from_char('i'), None);
    /// ```
    pub const fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='h' => Some(File::ALL[c as usize - 'a' as usize]),
            _ => None,
        }
    }

    /// The lowercase letter of this file.
    ///
    /// ```
    /// use cutoff_board::{File, Square};
    /// assert_eq!(File::A.to_char(), 'a');
    /// assert_eq!(Square::G5.file().to_char(), 'g');
    /// ```
    pub const fn to_char(self) -> char {
        (b'a' + self as u8) as char
    }
}

impl Rank {
    /// All ranks from `1` to `8`.
    ///
    /// ```
    /// use cutoff_board::Rank;
    /// let digits: String = Rank::ALL.iter().map(|r| r.to_char()).collect();
    /// assert_eq!(digits, "12345678");
    /// ```
    pub const ALL: [Rank; 8] =
        [Rank::First, Rank::Second, Rank::Third, Rank::Fourth, Rank::Fifth, Rank::Sixth, Rank::Seventh, Rank::Eighth];

    /// The rank with index `i`, or `None` if `i >= 8`.
    ///
    /// ```
    /// use cutoff_board::Rank;
    /// assert_eq!(Rank::try_from_index(0), Some(Rank::First));
    /// assert_eq!(Rank::try_from_index(8), None);
    /// ```
    pub const fn try_from_index(i: usize) -> Option<Rank> {
        if i < 8 { Some(Rank::ALL[i]) } else { None }
    }

    /// 0 for rank 1 ... 7 for rank 8.
    ///
    /// ```
    /// use cutoff_board::{Rank, Square};
    /// assert_eq!(Rank::Eighth.index(), 7);
    /// assert_eq!(Square::A8.index(), Rank::Eighth.index() * 8);
    /// ```
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Parses a rank digit.
    ///
    /// ```
    /// use cutoff_board::Rank;
    /// assert_eq!(Rank::from_char('8'), Some(Rank::Eighth));
    /// assert_eq!(Rank::from_char('0'), None);
    /// assert_eq!(Rank::from_char('9'), None);
    /// ```
    pub const fn from_char(c: char) -> Option<Rank> {
        match c {
            '1'..='8' => Some(Rank::ALL[c as usize - '1' as usize]),
            _ => None,
        }
    }

    /// The digit of this rank.
    ///
    /// ```
    /// use cutoff_board::{Rank, Square};
    /// assert_eq!(Rank::Fourth.to_char(), '4');
    /// assert_eq!(Square::E2.rank().to_char(), '2');
    /// ```
    pub const fn to_char(self) -> char {
        (b'1' + self as u8) as char
    }

    /// This rank as seen by `color`: rank 1 is White's first rank and Black's eighth.
    ///
    /// ```
    /// use cutoff_board::{Color, Rank};
    /// // Each side's pawns promote on its own eighth rank.
    /// assert_eq!(Rank::Eighth.relative_to(Color::White), Rank::Eighth);
    /// assert_eq!(Rank::Eighth.relative_to(Color::Black), Rank::First);
    /// assert_eq!(Rank::Fourth.relative_to(Color::Black), Rank::Fifth);
    /// ```
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
    /// The square a1.
    A1,
    /// The square b1.
    B1,
    /// The square c1.
    C1,
    /// The square d1.
    D1,
    /// The square e1.
    E1,
    /// The square f1.
    F1,
    /// The square g1.
    G1,
    /// The square h1.
    H1,
    /// The square a2.
    A2,
    /// The square b2.
    B2,
    /// The square c2.
    C2,
    /// The square d2.
    D2,
    /// The square e2.
    E2,
    /// The square f2.
    F2,
    /// The square g2.
    G2,
    /// The square h2.
    H2,
    /// The square a3.
    A3,
    /// The square b3.
    B3,
    /// The square c3.
    C3,
    /// The square d3.
    D3,
    /// The square e3.
    E3,
    /// The square f3.
    F3,
    /// The square g3.
    G3,
    /// The square h3.
    H3,
    /// The square a4.
    A4,
    /// The square b4.
    B4,
    /// The square c4.
    C4,
    /// The square d4.
    D4,
    /// The square e4.
    E4,
    /// The square f4.
    F4,
    /// The square g4.
    G4,
    /// The square h4.
    H4,
    /// The square a5.
    A5,
    /// The square b5.
    B5,
    /// The square c5.
    C5,
    /// The square d5.
    D5,
    /// The square e5.
    E5,
    /// The square f5.
    F5,
    /// The square g5.
    G5,
    /// The square h5.
    H5,
    /// The square a6.
    A6,
    /// The square b6.
    B6,
    /// The square c6.
    C6,
    /// The square d6.
    D6,
    /// The square e6.
    E6,
    /// The square f6.
    F6,
    /// The square g6.
    G6,
    /// The square h6.
    H6,
    /// The square a7.
    A7,
    /// The square b7.
    B7,
    /// The square c7.
    C7,
    /// The square d7.
    D7,
    /// The square e7.
    E7,
    /// The square f7.
    F7,
    /// The square g7.
    G7,
    /// The square h7.
    H7,
    /// The square a8.
    A8,
    /// The square b8.
    B8,
    /// The square c8.
    C8,
    /// The square d8.
    D8,
    /// The square e8.
    E8,
    /// The square f8.
    F8,
    /// The square g8.
    G8,
    /// The square h8.
    H8,
}

impl Square {
    /// All 64 squares, `a1` first, `h8` last.
    ///
    /// ```
    /// use cutoff_board::Square;
    /// assert_eq!(Square::ALL.len(), 64);
    /// assert_eq!((Square::ALL[0], Square::ALL[63]), (Square::A1, Square::H8));
    /// assert!(Square::ALL.iter().enumerate().all(|(i, sq)| sq.index() == i));
    /// ```
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
    ///
    /// ```
    /// use cutoff_board::{File, Rank, Square};
    /// assert_eq!(Square::new(File::G, Rank::First), Square::G1);
    /// assert_eq!(Square::new(File::A, Rank::Eighth), Square::A8);
    /// ```
    #[inline(always)]
    pub const fn new(file: File, rank: Rank) -> Square {
        Square::ALL[rank as usize * 8 + file as usize]
    }

    /// The square with index `i` (`a1` = 0). Panics if `i >= 64`.
    ///
    /// ```
    /// use cutoff_board::Square;
    /// assert_eq!(Square::index_const(4), Square::E1);
    /// assert_eq!(Square::index_const(63), Square::H8);
    /// ```
    #[inline(always)]
    pub const fn index_const(i: usize) -> Square {
        Square::ALL[i]
    }

    /// The square with index `i`, or `None` if `i >= 64`.
    ///
    /// ```
    /// use cutoff_board::Square;
    /// assert_eq!(Square::try_from_index(28), Some(Square::E4));
    /// assert_eq!(Square::try_from_index(64), None);
    /// ```
    #[inline(always)]
    pub const fn try_from_index(i: usize) -> Option<Square> {
        if i < 64 { Some(Square::ALL[i]) } else { None }
    }

    /// The index of this square, `a1` = 0 ... `h8` = 63.
    ///
    /// ```
    /// use cutoff_board::Square;
    /// assert_eq!(Square::A2.index(), 8);
    /// assert_eq!(Square::E4.index(), 28);
    /// ```
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The file of this square.
    ///
    /// ```
    /// use cutoff_board::{File, Square};
    /// assert_eq!(Square::G7.file(), File::G);
    /// ```
    #[inline(always)]
    pub const fn file(self) -> File {
        File::ALL[self as usize & 7]
    }

    /// The rank of this square.
    ///
    /// ```
    /// use cutoff_board::{Rank, Square};
    /// assert_eq!(Square::G7.rank(), Rank::Seventh);
    /// ```
    #[inline(always)]
    pub const fn rank(self) -> Rank {
        Rank::ALL[self as usize >> 3]
    }

    /// The square mirrored vertically (`e2` becomes `e7`).
    ///
    /// ```
    /// use cutoff_board::Square;
    /// assert_eq!(Square::E2.flip_rank(), Square::E7);
    /// assert_eq!(Square::A1.flip_rank(), Square::A8);
    /// assert_eq!(Square::D4.flip_rank().flip_rank(), Square::D4);
    /// ```
    #[inline(always)]
    pub const fn flip_rank(self) -> Square {
        Square::ALL[self as usize ^ 56]
    }

    /// The square mirrored horizontally (`b3` becomes `g3`).
    ///
    /// ```
    /// use cutoff_board::Square;
    /// assert_eq!(Square::B3.flip_file(), Square::G3);
    /// assert_eq!(Square::A1.flip_file(), Square::H1);
    /// ```
    #[inline(always)]
    pub const fn flip_file(self) -> Square {
        Square::ALL[self as usize ^ 7]
    }

    /// This square seen from `color`'s side: unchanged for White, mirrored vertically for Black.
    ///
    /// ```
    /// use cutoff_board::{Color, Square};
    /// // The kings start on e1 and e8: the same square, seen from each side.
    /// assert_eq!(Square::E1.relative_to(Color::White), Square::E1);
    /// assert_eq!(Square::E1.relative_to(Color::Black), Square::E8);
    /// ```
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
    ///
    /// ```
    /// use cutoff_board::{Bitboard, Square};
    /// let bb = Square::D4.bitboard();
    /// assert_eq!(bb, Bitboard(1 << 27));
    /// assert_eq!(bb.len(), 1);
    /// assert!(bb.has(Square::D4));
    /// ```
    #[inline(always)]
    pub const fn bitboard(self) -> crate::Bitboard {
        crate::Bitboard(1 << self as u8)
    }
}

/// The error returned when a square name such as `e4` cannot be parsed.
///
/// ```
/// use cutoff_board::{ParseSquareError, Square};
/// assert_eq!("e9".parse::<Square>(), Err(ParseSquareError));
/// assert_eq!("E4".parse::<Square>(), Err(ParseSquareError)); // file letters are lowercase
/// assert_eq!("e44".parse::<Square>(), Err(ParseSquareError));
/// assert_eq!(ParseSquareError.to_string(), "a square is a file letter a-h followed by a rank digit 1-8");
/// ```
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
