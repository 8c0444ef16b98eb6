//! Castling rights.

use crate::{Color, File, Rank, Square};

bitflags::bitflags! {
    /// Which castling moves are still allowed, one bit per colour and side.
    ///
    /// In Chess960 the rook that castles on each side is kept by the [`Board`](crate::Board)
    /// ([`Board::castling_rook`](crate::Board::castling_rook)); these flags only say whether the right remains.
    ///
    /// ```
    /// use cutoff_board::{CastlingRights, CastlingSide, Color};
    /// let rights = CastlingRights::all();
    /// assert!(rights.contains(CastlingRights::new(Color::Black, CastlingSide::Queen)));
    /// assert_eq!((rights - CastlingRights::for_color(Color::White)).bits(), 0b1100);
    /// ```
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
    pub struct CastlingRights: u8 {
        /// White may castle king side (towards the h-file).
        const WHITE_KING_SIDE = 1;
        /// White may castle queen side (towards the a-file).
        const WHITE_QUEEN_SIDE = 2;
        /// Black may castle king side.
        const BLACK_KING_SIDE = 4;
        /// Black may castle queen side.
        const BLACK_QUEEN_SIDE = 8;
    }
}

impl CastlingRights {
    /// The single right of `color` on `side`.
    #[inline(always)]
    pub const fn new(color: Color, side: CastlingSide) -> CastlingRights {
        CastlingRights::from_bits_truncate(1 << (color as u8 * 2 + side as u8))
    }

    /// Both rights of `color`.
    #[inline(always)]
    pub const fn for_color(color: Color) -> CastlingRights {
        CastlingRights::from_bits_truncate(3 << (color as u8 * 2))
    }
}

/// The side of the board a castling move goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum CastlingSide {
    /// Towards the h-file (`O-O`): the king ends on `g`, the rook on `f`.
    King = 0,
    /// Towards the a-file (`O-O-O`): the king ends on `c`, the rook on `d`.
    Queen = 1,
}

impl CastlingSide {
    /// Both sides, king side first.
    pub const ALL: [CastlingSide; 2] = [CastlingSide::King, CastlingSide::Queen];

    /// Where the king ends up after castling on this side.
    ///
    /// ```
    /// use cutoff_board::{CastlingSide, Color, Square};
    /// assert_eq!(CastlingSide::King.king_destination(Color::Black), Square::G8);
    /// ```
    #[inline(always)]
    pub const fn king_destination(self, color: Color) -> Square {
        let file = match self {
            CastlingSide::King => File::G,
            CastlingSide::Queen => File::C,
        };
        Square::new(file, Rank::First.relative_to(color))
    }

    /// Where the rook ends up after castling on this side.
    #[inline(always)]
    pub const fn rook_destination(self, color: Color) -> Square {
        let file = match self {
            CastlingSide::King => File::F,
            CastlingSide::Queen => File::D,
        };
        Square::new(file, Rank::First.relative_to(color))
    }
}
