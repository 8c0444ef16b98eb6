//! The two sides.

use core::fmt;
use core::ops::Not;

/// A side: White or Black.
///
/// ```
/// use cutoff_board::Color;
/// assert_eq!(!Color::White, Color::Black);
/// assert_eq!(Color::Black.index(), 1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Color {
    /// The side that moves first.
    White = 0,
    /// The side that moves second.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    ///
    /// ```
    /// use cutoff_board::Color;
    /// assert_eq!(Color::ALL, [Color::White, Color::Black]);
    /// assert!(Color::ALL.iter().enumerate().all(|(i, c)| c.index() == i));
    /// ```
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// 0 for White, 1 for Black: an index into per-colour tables.
    ///
    /// ```
    /// use cutoff_board::Color;
    /// let pawns_per_side = [8, 7];
    /// assert_eq!(Color::White.index(), 0);
    /// assert_eq!(pawns_per_side[Color::Black.index()], 7);
    /// ```
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The colour with the given index (0 = White, anything else = Black).
    ///
    /// ```
    /// use cutoff_board::Color;
    /// assert_eq!(Color::from_index(0), Color::White);
    /// assert_eq!(Color::from_index(1), Color::Black);
    /// assert_eq!(Color::from_index(Color::Black.index()), Color::Black);
    /// ```
    #[inline(always)]
    pub const fn from_index(index: usize) -> Color {
        if index == 0 { Color::White } else { Color::Black }
    }

    /// The FEN letter of the side to move: `w` or `b`.
    ///
    /// ```
    /// use cutoff_board::{Board, Color};
    /// assert_eq!(Color::White.to_char(), 'w');
    /// assert_eq!(Color::Black.to_char(), 'b');
    /// // The second FEN field is the side to move.
    /// let board = Board::default();
    /// assert!(board.fen().to_string().contains(&format!(" {} ", board.side_to_move().to_char())));
    /// ```
    pub const fn to_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// `+1` for White and `-1` for Black, handy for scores seen from White.
    ///
    /// ```
    /// use cutoff_board::Color;
    /// let white_pov = 150; // White is a pawn and a half up
    /// assert_eq!(white_pov * Color::White.sign(), 150);
    /// assert_eq!(white_pov * Color::Black.sign(), -150); // the same score seen by Black
    /// ```
    #[inline(always)]
    pub const fn sign(self) -> i32 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}
