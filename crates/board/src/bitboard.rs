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
pub struct Bitboard(pub u64);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 64 squares.
    pub const FULL: Bitboard = Bitboard(!0);
    /// The light squares (`h1` is light).
    pub const LIGHT: Bitboard = Bitboard(0x55AA_55AA_55AA_55AA);
    /// The dark squares (`a1` is dark).
    pub const DARK: Bitboard = Bitboard(!0x55AA_55AA_55AA_55AA);
    /// The four edges of the board.
    pub const EDGES: Bitboard = Bitboard(0xFF81_8181_8181_81FF);

    /// The squares of one file.
    #[inline(always)]
    pub const fn file(file: File) -> Bitboard {
        Bitboard(0x0101_0101_0101_0101 << file as u8)
    }

    /// The squares of one rank.
    #[inline(always)]
    pub const fn rank(rank: Rank) -> Bitboard {
        Bitboard(0xFF << (rank as u8 * 8))
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set holds at least one square.
    #[inline(always)]
    pub const fn is_nonempty(self) -> bool {
        self.0 != 0
    }

    /// Whether `sq` is in the set.
    #[inline(always)]
    pub const fn has(self, sq: Square) -> bool {
        self.0 & (1 << sq as u8) != 0
    }

    /// The number of squares in the set.
    #[inline(always)]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set holds two or more squares.
    #[inline(always)]
    pub const fn has_more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square of the set, if any.
    #[inline(always)]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 { None } else { Some(Square::index_const(self.0.trailing_zeros() as usize)) }
    }

    /// The highest square of the set, if any.
    #[inline(always)]
    pub const fn last(self) -> Option<Square> {
        if self.0 == 0 { None } else { Some(Square::index_const(63 - self.0.leading_zeros() as usize)) }
    }

    /// The lowest square when the set is known to be non-empty.
    /// For an empty set the result is `h8` (never undefined behaviour).
    #[inline(always)]
    pub const fn first_unchecked(self) -> Square {
        Square::index_const((self.0.trailing_zeros() & 63) as usize)
    }

    /// Whether the two sets share a square.
    #[inline(always)]
    pub const fn intersects(self, other: Bitboard) -> bool {
        self.0 & other.0 != 0
    }

    /// Whether every square of `self` is in `other`.
    #[inline(always)]
    pub const fn is_subset(self, other: Bitboard) -> bool {
        self.0 & !other.0 == 0
    }

    /// The set moved one rank "forward" for `color` (towards rank 8 for White); squares leaving the board vanish.
    #[inline(always)]
    pub const fn forward(self, color: Color) -> Bitboard {
        match color {
            Color::White => Bitboard(self.0 << 8),
            Color::Black => Bitboard(self.0 >> 8),
        }
    }

    /// The set mirrored vertically (rank 1 becomes rank 8).
    #[inline(always)]
    pub const fn flip_ranks(self) -> Bitboard {
        Bitboard(self.0.swap_bytes())
    }

    /// Const-friendly union.
    #[inline(always)]
    pub const fn union(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 | other.0)
    }

    /// Const-friendly intersection.
    #[inline(always)]
    pub const fn and(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & other.0)
    }

    /// Const-friendly difference `self - other`.
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
