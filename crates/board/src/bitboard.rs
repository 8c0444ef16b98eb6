//! Sets of squares as 64-bit masks.

use core::fmt;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub, SubAssign};

use crate::{Color, File, Rank, Square};

/// A set of squares, bit `i` standing for the square with index `i` (`a1` = bit 0).
///
/// Supports the set operators `& | ^ !` and `-` (difference), iteration over its
/// squares (lowest first) and population count.
///
/// ```
/// use cutoff_board::{Bitboard, File, Rank, Square};
/// let bb = Bitboard::from(Square::A1) | Square::H8.bitboard();
/// assert_eq!(bb.len(), 2);
/// assert!(bb.has(Square::H8));
/// assert_eq!(bb.into_iter().collect::<Vec<_>>(), [Square::A1, Square::H8]);
/// assert_eq!((Bitboard::file(File::A) & Bitboard::rank(Rank::First)), Square::A1.bitboard());
/// assert!((bb - Square::A1.bitboard()).has(Square::H8));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(
    /// The mask: bit `i` is set when the square with index `i` is in the set.
    pub u64,
);

impl Bitboard {
    /// The empty set.
    ///
    /// ```
    /// use cutoff_board::{Bitboard, Board};
    /// assert_eq!(Bitboard::EMPTY.len(), 0);
    /// assert_eq!(Board::default().checkers(), Bitboard::EMPTY); // nobody is in check at the start
    /// ```
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 64 squares.
    ///
    /// ```
    /// use cutoff_board::{Bitboard, Square};
    /// assert_eq!(Bitboard::FULL.len(), 64);
    /// assert_eq!(!Bitboard::FULL, Bitboard::EMPTY);
    /// assert!(Bitboard::FULL.has(Square::H8));
    /// ```
    pub const FULL: Bitboard = Bitboard(!0);
    /// The light squares (`h1` is light).
    ///
    /// ```
    /// use cutoff_board::{Bitboard, Square};
    /// assert_eq!(Bitboard::LIGHT.len(), 32);
    /// assert!(Bitboard::LIGHT.has(Square::H1));
    /// assert!(Bitboard::LIGHT.has(Square::D1)); // the white queen starts on her own colour
    /// ```
    pub const LIGHT: Bitboard = Bitboard(0x55AA_55AA_55AA_55AA);
    /// The dark squares (`a1` is dark).
    ///
    /// ```
    /// use cutoff_board::{Bitboard, Square};
    /// assert!(Bitboard::DARK.has(Square::A1));
    /// assert!(Bitboard::DARK.has(Square::D8)); // so does the black queen
    /// assert_eq!(Bitboard::DARK | Bitboard::LIGHT, Bitboard::FULL);
    /// assert!(!Bitboard::DARK.intersects(Bitboard::LIGHT));
    /// ```
    pub const DARK: Bitboard = Bitboard(!0x55AA_55AA_55AA_55AA);
    /// The four edges of the board.
    ///
    /// ```
    /// use cutoff_board::{Bitboard, Square};
    /// assert_eq!(Bitboard::EDGES.len(), 28);
    /// assert!(Bitboard::EDGES.has(Square::A4) && Bitboard::EDGES.has(Square::E8));
    /// assert!(!Bitboard::EDGES.has(Square::B2));
    /// ```
    pub const EDGES: Bitboard = Bitboard(0xFF81_8181_8181_81FF);

    /// The squares of one file.
    ///
    /// ```
    /// use cutoff_board::{Bitboard, File, Square};
    /// let e_file = Bitboard::file(File::E);
    /// assert_eq!(e_file.len(), 8);
    /// assert!(e_file.has(Square::E1) && e_file.has(Square::E8));
    /// assert!(!e_file.has(Square::D4));
    /// ```
    #[inline(always)]
    pub const fn file(file: File) -> Bitboard {
        Bitboard(0x0101_0101_0101_0101 << file as u8)
    }

    /// The squares of one rank.
    ///
    /// ```
    /// use cutoff_board::{Bitboard, Board, Color, PieceType, Rank};
    /// // White's pawns start on the whole second rank.
    /// let board = Board::default();
    /// assert_eq!(board.colored_pieces(Color::White, PieceType::Pawn), Bitboard::rank(Rank::Second));
    /// ```
    #[inline(always)]
    pub const fn rank(rank: Rank) -> Bitboard {
        Bitboard(0xFF << (rank as u8 * 8))
    }

    /// Whether the set is empty.
    ///
    /// ```
    /// use cutoff_board::{Bitboard, Board, Square};
    /// assert!(Bitboard::EMPTY.is_empty());
    /// assert!(!Square::E4.bitboard().is_empty());
    /// assert!(Board::default().pinned().is_empty());
    /// ```
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set holds at least one square.
    ///
    /// ```
    /// use cutoff_board::{Bitboard, Board, CastlingMode};
    /// assert!(!Bitboard::EMPTY.is_nonempty());
    /// // Fool's mate: White is checkmated by the queen on h4.
    /// let board = Board::from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", CastlingMode::Standard).unwrap();
    /// assert!(board.checkers().is_nonempty());
    /// ```
    #[inline(always)]
    pub const fn is_nonempty(self) -> bool {
        self.0 != 0
    }

    /// Whether `sq` is in the set.
    ///
    /// ```
    /// use cutoff_board::{Bitboard, File, Square};
    /// assert!(Bitboard::file(File::A).has(Square::A5));
    /// assert!(!Bitboard::file(File::A).has(Square::B5));
    /// ```
    #[inline(always)]
    pub const fn has(self, sq: Square) -> bool {
        self.0 & (1 << sq as u8) != 0
    }

    /// The number of squares in the set.
    ///
    /// ```
    /// use cutoff_board::{Bitboard, Board, Color};
    /// let board = Board::default();
    /// assert_eq!(board.occupied().len(), 32);
    /// assert_eq!(board.colored(Color::Black).len(), 16);
    /// assert_eq!(Bitboard::EMPTY.len(), 0);
    /// ```
    #[inline(always)]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set holds two or more squares.
    ///
    /// ```
    /// use cutoff_board::{Bitboard, Square};
    /// assert!(!Bitboard::EMPTY.has_more_than_one());
    /// assert!(!Square::E4.bitboard().has_more_than_one());
    /// assert!((Square::E4.bitboard() | Square::E5).has_more_than_one());
    /// ```
    #[inline(always)]
    pub const fn has_more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square of the set, if any.
    ///
    /// ```
    /// use cutoff_board::{Bitboard, Square};
    /// assert_eq!((Square::F6.bitboard() | Square::C3).first(), Some(Square::C3));
    /// assert_eq!(Bitboard::EMPTY.first(), None);
    /// ```
    #[inline(always)]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 { None } else { Some(Square::index_const(self.0.trailing_zeros() as usize)) }
    }

    /// The highest square of the set, if any.
    ///
    /// ```
    /// use cutoff_board::{Bitboard, Square};
    /// assert_eq!((Square::F6.bitboard() | Square::C3).last(), Some(Square::F6));
    /// assert_eq!(Bitboard::EMPTY.last(), None);
    /// ```
    #[inline(always)]
    pub const fn last(self) -> Option<Square> {
        if self.0 == 0 { None } else { Some(Square::index_const(63 - self.0.leading_zeros() as usize)) }
    }

    /// The lowest square when the set is known to be non-empty.
    /// For an empty set the result is `a1` (never undefined behaviour).
    ///
    /// ```
    /// use cutoff_board::{Bitboard, Board, Color, PieceType, Square};
    /// let board = Board::default();
    /// assert_eq!(board.colored_pieces(Color::Black, PieceType::King).first_unchecked(), Square::E8);
    /// assert_eq!(Bitboard::EMPTY.first_unchecked(), Square::A1); // well defined, but meaningless
    /// ```
    #[inline(always)]
    pub const fn first_unchecked(self) -> Square {
        Square::index_const((self.0.trailing_zeros() & 63) as usize)
    }

    /// Whether the two sets share a square.
    ///
    /// ```
    /// use cutoff_board::{Bitboard, File, Rank};
    /// assert!(Bitboard::rank(Rank::Second).intersects(Bitboard::file(File::E)));
    /// assert!(!Bitboard::LIGHT.intersects(Bitboard::DARK));
    /// ```
    #[inline(always)]
    pub const fn intersects(self, other: Bitboard) -> bool {
        self.0 & other.0 != 0
    }

    /// Whether every square of `self` is in `other`.
    ///
    /// ```
    /// use cutoff_board::{Bitboard, Board, Color, Rank, Square};
    /// let board = Board::default();
    /// assert!(board.colored(Color::White).is_subset(Bitboard::rank(Rank::First) | Bitboard::rank(Rank::Second)));
    /// assert!(Square::A1.bitboard().is_subset(Bitboard::DARK));
    /// assert!(Bitboard::EMPTY.is_subset(Bitboard::EMPTY));
    /// assert!(!Bitboard::FULL.is_subset(Bitboard::LIGHT));
    /// ```
    #[inline(always)]
    pub const fn is_subset(self, other: Bitboard) -> bool {
        self.0 & !other.0 == 0
    }

    /// The set moved one rank "forward" for `color` (towards rank 8 for White); squares leaving the board vanish.
    ///
    /// ```
    /// use cutoff_board::{Bitboard, Board, Color, PieceType, Rank};
    /// // The squares White's pawns can push to in the start position.
    /// let board = Board::default();
    /// let pushes = board.colored_pieces(Color::White, PieceType::Pawn).forward(Color::White) - board.occupied();
    /// assert_eq!(pushes, Bitboard::rank(Rank::Third));
    /// assert_eq!(Bitboard::rank(Rank::Seventh).forward(Color::Black), Bitboard::rank(Rank::Sixth));
    /// assert!(Bitboard::rank(Rank::Eighth).forward(Color::White).is_empty());
    /// ```
    #[inline(always)]
    pub const fn forward(self, color: Color) -> Bitboard {
        match color {
            Color::White => Bitboard(self.0 << 8),
            Color::Black => Bitboard(self.0 >> 8),
        }
    }

    /// The set mirrored vertically (rank 1 becomes rank 8).
    ///
    /// ```
    /// use cutoff_board::{Board, Color, PieceType};
    /// let board = Board::default();
    /// let white_pieces = board.colored(Color::White);
    /// assert_eq!(white_pieces.flip_ranks(), board.colored(Color::Black));
    /// let white_pawns = board.colored_pieces(Color::White, PieceType::Pawn);
    /// assert_eq!(white_pawns.flip_ranks(), board.colored_pieces(Color::Black, PieceType::Pawn));
    /// ```
    #[inline(always)]
    pub const fn flip_ranks(self) -> Bitboard {
        Bitboard(self.0.swap_bytes())
    }

    /// Const-friendly union.
    ///
    /// ```
    /// use cutoff_board::{Bitboard, Square};
    /// const D_FILE_CENTER: Bitboard = Square::D4.bitboard().union(Square::D5.bitboard());
    /// const CENTER: Bitboard = D_FILE_CENTER.union(Square::E4.bitboard()).union(Square::E5.bitboard());
    /// assert_eq!(CENTER.len(), 4);
    /// assert_eq!(CENTER, Square::D4.bitboard() | Square::E4 | Square::D5 | Square::E5);
    /// ```
    #[inline(always)]
    pub const fn union(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 | other.0)
    }

    /// Const-friendly intersection.
    ///
    /// ```
    /// use cutoff_board::{Bitboard, File, Rank, Square};
    /// const E4: Bitboard = Bitboard::file(File::E).and(Bitboard::rank(Rank::Fourth));
    /// assert_eq!(E4, Square::E4.bitboard());
    /// ```
    #[inline(always)]
    pub const fn and(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & other.0)
    }

    /// Const-friendly difference `self - other`.
    ///
    /// ```
    /// use cutoff_board::Bitboard;
    /// const INNER: Bitboard = Bitboard::FULL.without(Bitboard::EDGES);
    /// assert_eq!(INNER.len(), 36);
    /// assert_eq!(INNER, Bitboard::FULL - Bitboard::EDGES);
    /// ```
    #[inline(always)]
    pub const fn without(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & !other.0)
    }

    /// An iterator over the subsets of this set (including the empty set and the set itself),
    /// by the carry-rippler trick. Useful for building sliding-attack tables.
    ///
    /// ```
    /// use cutoff_board::{Bitboard, Square};
    /// let set = Square::A1.bitboard() | Square::C3.bitboard();
    /// assert_eq!(set.subsets().count(), 4);
    /// ```
    pub fn subsets(self) -> impl Iterator<Item = Bitboard> {
        let mask = self.0;
        let mut sub = 0u64;
        let mut done = false;
        core::iter::from_fn(move || {
            if done {
                return None;
            }
            let out = Bitboard(sub);
            sub = sub.wrapping_sub(mask) & mask;
            done = sub == 0;
            Some(out)
        })
    }
}

impl From<Square> for Bitboard {
    #[inline(always)]
    fn from(sq: Square) -> Bitboard {
        sq.bitboard()
    }
}

macro_rules! impl_bitop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tr<Square> for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Square) -> Bitboard {
                Bitboard(self.0 $op rhs.bitboard().0)
            }
        }
        impl $tra for Bitboard {
            #[inline(always)]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
        impl $tra<Square> for Bitboard {
            #[inline(always)]
            fn $fa(&mut self, rhs: Square) {
                self.0 = self.0 $op rhs.bitboard().0;
            }
        }
    };
}
impl_bitop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
impl_bitop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
impl_bitop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Sub for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

impl Sub<Square> for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn sub(self, rhs: Square) -> Bitboard {
        Bitboard(self.0 & !rhs.bitboard().0)
    }
}

impl SubAssign for Bitboard {
    #[inline(always)]
    fn sub_assign(&mut self, rhs: Bitboard) {
        self.0 &= !rhs.0;
    }
}

impl SubAssign<Square> for Bitboard {
    #[inline(always)]
    fn sub_assign(&mut self, rhs: Square) {
        self.0 &= !rhs.bitboard().0;
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

/// Iterator over the squares of a [`Bitboard`], lowest first.
///
/// ```
/// use cutoff_board::{Board, Color, PieceType, Square};
/// let knights = Board::default().colored_pieces(Color::White, PieceType::Knight);
/// let mut iter = knights.into_iter();
/// assert_eq!(iter.len(), 2);
/// assert_eq!(iter.next(), Some(Square::B1));
/// assert_eq!(iter.next(), Some(Square::G1));
/// assert_eq!(iter.next(), None);
/// ```
#[derive(Clone, Debug)]
pub struct BitboardIter(u64);

impl Iterator for BitboardIter {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = Square::index_const(self.0.trailing_zeros() as usize);
        self.0 &= self.0 - 1;
        Some(sq)
    }

    #[inline(always)]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitboardIter {}
impl core::iter::FusedIterator for BitboardIter {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitboardIter;
    #[inline(always)]
    fn into_iter(self) -> BitboardIter {
        BitboardIter(self.0)
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, |bb, sq| bb | sq)
    }
}

/// Prints the set as an 8×8 grid, rank 8 first, `X` for a member and `.` otherwise.
impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard(0x{:016X})", self.0)?;
        for rank in Rank::ALL.iter().rev() {
            for file in File::ALL {
                let c = if self.has(Square::new(file, *rank)) { 'X' } else { '.' };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
