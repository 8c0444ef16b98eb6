//! Moves in 16 bits.

use core::fmt;
use core::num::NonZeroU16;

use crate::{PieceType, Square};

/// What kind of move a [`Move`] is: the 4-bit flag in its top bits.
///
/// Castling is encoded as "king takes own rook" (the target square is the rook's square), so
/// one encoding serves standard chess and Chess960.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum MoveKind {
    /// A move to an empty square that is none of the others.
    Quiet = 0,
    /// A pawn moving two squares from its starting rank.
    DoublePush = 1,
    /// Castling; the target square is the castling rook's square.
    Castle = 2,
    /// A capture of the piece on the target square (not a promotion).
    Capture = 4,
    /// An en passant capture; the target square is the en passant square.
    EnPassant = 5,
    /// Promotion to a knight without capture.
    PromoteKnight = 8,
    /// Promotion to a bishop without capture.
    PromoteBishop = 9,
    /// Promotion to a rook without capture.
    PromoteRook = 10,
    /// Promotion to a queen without capture.
    PromoteQueen = 11,
    /// Capture and promotion to a knight.
    CapturePromoteKnight = 12,
    /// Capture and promotion to a bishop.
    CapturePromoteBishop = 13,
    /// Capture and promotion to a rook.
    CapturePromoteRook = 14,
    /// Capture and promotion to a queen.
    CapturePromoteQueen = 15,
}

impl MoveKind {
    const FROM_BITS: [Option<MoveKind>; 16] = [
        Some(MoveKind::Quiet),
        Some(MoveKind::DoublePush),
        Some(MoveKind::Castle),
        None,
        Some(MoveKind::Capture),
        Some(MoveKind::EnPassant),
        None,
        None,
        Some(MoveKind::PromoteKnight),
        Some(MoveKind::PromoteBishop),
        Some(MoveKind::PromoteRook),
        Some(MoveKind::PromoteQueen),
        Some(MoveKind::CapturePromoteKnight),
        Some(MoveKind::CapturePromoteBishop),
        Some(MoveKind::CapturePromoteRook),
        Some(MoveKind::CapturePromoteQueen),
    ];

    /// The promotion kind for `piece` (knight to queen), with or without capture.
    /// Returns `None` for pawns and kings.
    pub const fn promotion(piece: PieceType, capture: bool) -> Option<MoveKind> {
        let base = match piece {
            PieceType::Knight => 0,
            PieceType::Bishop => 1,
            PieceType::Rook => 2,
            PieceType::Queen => 3,
            _ => return None,
        };
        MoveKind::FROM_BITS[8 + base + if capture { 4 } else { 0 }]
    }
}

/// A chess move in 16 bits: `from` (bits 0–5), `to` (bits 6–11) and a [`MoveKind`] flag (bits 12–15).
///
/// A move is only meaningful together with the position it was made for; use
/// [`Board::is_legal`](crate::Board::is_legal) to check a move that may come from elsewhere
/// (a hash table, a killer slot). `Option<Move>` is also 16 bits, since a move never has
/// `from == to`.
///
/// ```
/// use cutoff_board::{Move, MoveKind, PieceType, Square};
/// let mv = Move::new(Square::E7, Square::E8, MoveKind::PromoteQueen);
/// assert_eq!(mv.from(), Square::E7);
/// assert_eq!(mv.to(), Square::E8);
/// assert_eq!(mv.promotion(), Some(PieceType::Queen));
/// assert!(!mv.is_capture());
/// assert_eq!(Move::from_raw(mv.raw()), Some(mv));
/// assert_eq!(core::mem::size_of::<Option<Move>>(), 2);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(NonZeroU16);

static_assertions::assert_eq_size!(Move, u16);
static_assertions::assert_eq_size!(Option<Move>, u16);

impl Move {
    /// Builds a move. `from` and `to` must differ (panics otherwise).
    #[inline(always)]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        let bits = from as u16 | (to as u16) << 6 | (kind as u16) << 12;
        assert!(from as u8 != to as u8, "a move needs two different squares");
        match NonZeroU16::new(bits) {
            Some(nz) => Move(nz),
            None => unreachable!(),
        }
    }

    /// Reads a move from its 16-bit form. Returns `None` for values that encode no move
    /// (`from == to`, or an unused flag). The move may still be illegal in a given position.
    #[inline]
    pub const fn from_raw(bits: u16) -> Option<Move> {
        let from = bits & 63;
        let to = (bits >> 6) & 63;
        if from == to || MoveKind::FROM_BITS[(bits >> 12) as usize].is_none() {
            return None;
        }
        match NonZeroU16::new(bits) {
            Some(nz) => Some(Move(nz)),
            None => None,
        }
    }

    /// The 16-bit form of this move, e.g. for a transposition table.
    #[inline(always)]
    pub const fn raw(self) -> u16 {
        self.0.get()
    }

    /// The square the piece moves from.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::index_const((self.0.get() & 63) as usize)
    }

    /// The square the piece moves to (for castling: the castling rook's square).
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::index_const(((self.0.get() >> 6) & 63) as usize)
    }

    /// The kind of move.
    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        match MoveKind::FROM_BITS[(self.0.get() >> 12) as usize] {
            Some(k) => k,
            None => MoveKind::Quiet, // never built: `new` and `from_raw` reject unused flags
        }
    }

    #[inline(always)]
    const fn flag(self) -> u16 {
        self.0.get() >> 12
    }

    /// Whether the move captures (including en passant and capturing promotions).
    #[inline(always)]
    pub const fn is_capture(self) -> bool {
        self.flag() & 4 != 0 && self.flag() != 6 && self.flag() != 7
    }

    /// Whether the move promotes a pawn.
    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.flag() & 8 != 0
    }

    /// Whether the move is a capture or a promotion (the "noisy" moves of quiescence search).
    #[inline(always)]
    pub const fn is_noisy(self) -> bool {
        self.flag() & 12 != 0
    }

    /// Whether the move is neither a capture nor a promotion.
    #[inline(always)]
    pub const fn is_quiet(self) -> bool {
        !self.is_noisy()
    }

    /// Whether the move is castling.
    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        self.flag() == MoveKind::Castle as u16
    }

    /// Whether the move is an en passant capture.
    #[inline(always)]
    pub const fn is_en_passant(self) -> bool {
        self.flag() == MoveKind::EnPassant as u16
    }

    /// The piece a promotion promotes to.
    #[inline(always)]
    pub const fn promotion(self) -> Option<PieceType> {
        if self.is_promotion() { Some(PieceType::ALL[1 + (self.flag() & 3) as usize]) } else { None }
    }
}

/// Prints the move in UCI form with king-takes-rook castling (`e1h1`).
/// Use [`Board::uci`](crate::Board::uci) for the form a GUI expects in standard chess (`e1g1`).
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(p) = self.promotion() {
            write!(f, "{}", p.to_char())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")?;
        if self.kind() != MoveKind::Quiet {
            write!(f, "({:?})", self.kind())?;
        }
        Ok(())
    }
}

/// A list of moves on the stack, large enough for any legal position (the maximum is 218).
pub type MoveList = arrayvec::ArrayVec<Move, 256>;
