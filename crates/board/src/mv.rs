//! Moves in 16 bits.

use core::fmt;
use core::num::NonZeroU16;

use crate::{PieceType, Square};

/// What kind of move a [`Move`] is: the 4-bit flag in its top bits.
///
/// Castling is encoded as "king takes own rook" (the target square is the rook's square), so
/// one encoding serves standard chess and Chess960.
///
/// ```
/// use cutoff_board::{Board, CastlingMode, MoveKind, Square};
/// let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// let board = Board::from_fen(kiwipete, CastlingMode::Standard).unwrap();
/// assert_eq!(board.parse_uci("a2a4").unwrap().kind(), MoveKind::DoublePush);
/// assert_eq!(board.parse_uci("a2a3").unwrap().kind(), MoveKind::Quiet);
/// assert_eq!(board.parse_uci("d5e6").unwrap().kind(), MoveKind::Capture);
/// let castle = board.parse_san("O-O").unwrap();
/// assert_eq!(castle.kind(), MoveKind::Castle);
/// assert_eq!(castle.to(), Square::H1); // king takes own rook
/// ```
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
    ///
    /// ```
    /// use cutoff_board::{MoveKind, PieceType};
    /// assert_eq!(MoveKind::promotion(PieceType::Queen, false), Some(MoveKind::PromoteQueen));
    /// assert_eq!(MoveKind::promotion(PieceType::Knight, true), Some(MoveKind::CapturePromoteKnight));
    /// assert_eq!(MoveKind::promotion(PieceType::King, false), None);
    /// assert_eq!(MoveKind::promotion(PieceType::Pawn, true), None);
    /// ```
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

// A move is 16 bits, and the zero niche keeps `Option<Move>` at 16 bits too.
const _: () = assert!(core::mem::size_of::<Move>() == 2);
const _: () = assert!(core::mem::size_of::<Option<Move>>() == 2);

impl Move {
    /// Builds a move. `from` and `to` must differ (panics otherwise).
    ///
    /// ```
    /// use cutoff_board::{Board, Move, MoveKind, Square};
    /// let nf3 = Move::new(Square::G1, Square::F3, MoveKind::Quiet);
    /// assert_eq!(Board::default().parse_uci("g1f3"), Ok(nf3));
    /// // A pawn's two-square push must say so.
    /// assert_eq!(Board::default().parse_uci("e2e4"), Ok(Move::new(Square::E2, Square::E4, MoveKind::DoublePush)));
    /// ```
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
    ///
    /// ```
    /// use cutoff_board::{Board, Move, MoveKind, Square};
    /// let e4 = Move::new(Square::E2, Square::E4, MoveKind::DoublePush);
    /// assert_eq!(Move::from_raw(0x170C), Some(e4)); // e2 = 12, e4 = 28 << 6, DoublePush = 1 << 12
    /// assert_eq!(Move::from_raw(0), None); // a1 to a1
    /// assert_eq!(Move::from_raw(0x370C), None); // flag 3 is unused
    /// let rook_lift = Move::from_raw(0x0F1C).unwrap(); // e4e8: a move, but not a legal one here
    /// assert!(!Board::default().is_legal(rook_lift));
    /// ```
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
    ///
    /// ```
    /// use cutoff_board::{Move, MoveKind, Square};
    /// let e4 = Move::new(Square::E2, Square::E4, MoveKind::DoublePush);
    /// assert_eq!(e4.raw(), 12 | 28 << 6 | 1 << 12);
    /// assert_eq!(Move::from_raw(e4.raw()), Some(e4));
    /// ```
    #[inline(always)]
    pub const fn raw(self) -> u16 {
        self.0.get()
    }

    /// The square the piece moves from.
    ///
    /// ```
    /// use cutoff_board::{Board, Square};
    /// assert_eq!(Board::default().parse_uci("b1c3").unwrap().from(), Square::B1);
    /// ```
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::index_const((self.0.get() & 63) as usize)
    }

    /// The square the piece moves to (for castling: the castling rook's square).
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode, Square};
    /// let board = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", CastlingMode::Standard).unwrap();
    /// assert_eq!(board.parse_uci("h8h5").unwrap().to(), Square::H5);
    /// let long_castle = board.parse_san("O-O-O").unwrap();
    /// assert_eq!(long_castle.to(), Square::A8); // not c8
    /// ```
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::index_const(((self.0.get() >> 6) & 63) as usize)
    }

    /// The kind of move.
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode, MoveKind};
    /// let board = Board::from_fen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", CastlingMode::Standard).unwrap();
    /// assert_eq!(board.parse_uci("b7b8n").unwrap().kind(), MoveKind::PromoteKnight);
    /// assert_eq!(board.parse_uci("e1e2").unwrap().kind(), MoveKind::Quiet);
    /// ```
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
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode, Move, MoveKind, Square};
    /// // After 1.e4 d5 2.e5 f5, White may take en passant on f6.
    /// let board = Board::from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", CastlingMode::Standard).unwrap();
    /// assert!(board.parse_uci("e5f6").unwrap().is_capture());
    /// assert!(!board.parse_uci("e5e6").unwrap().is_capture());
    /// assert!(Move::new(Square::B7, Square::A8, MoveKind::CapturePromoteQueen).is_capture());
    /// assert!(!Move::new(Square::B7, Square::B8, MoveKind::PromoteQueen).is_capture());
    /// ```
    #[inline(always)]
    pub const fn is_capture(self) -> bool {
        // Flags 6 and 7 are never built (`new` and `from_raw` reject them), so bit 2 alone
        // marks the captures: 4 and 5 (en passant), 12 to 15 (capturing promotions).
        self.flag() & 4 != 0
    }

    /// Whether the move promotes a pawn.
    ///
    /// ```
    /// use cutoff_board::{Move, MoveKind, Square};
    /// assert!(Move::new(Square::B2, Square::B1, MoveKind::PromoteBishop).is_promotion());
    /// assert!(Move::new(Square::B2, Square::A1, MoveKind::CapturePromoteKnight).is_promotion());
    /// assert!(!Move::new(Square::B2, Square::A1, MoveKind::Capture).is_promotion());
    /// ```
    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.flag() & 8 != 0
    }

    /// Whether the move is a capture or a promotion (the "noisy" moves of quiescence search).
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode, GenKind, MoveList};
    /// let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    /// let board = Board::from_fen(kiwipete, CastlingMode::Standard).unwrap();
    /// let mut noisy = MoveList::new();
    /// board.generate(GenKind::Noisy, &mut noisy);
    /// assert!(noisy.iter().all(|mv| mv.is_noisy()));
    /// assert_eq!(board.legal_moves().iter().filter(|mv| mv.is_noisy()).count(), noisy.len());
    /// assert!(!board.parse_uci("a2a4").unwrap().is_noisy());
    /// ```
    #[inline(always)]
    pub const fn is_noisy(self) -> bool {
        self.flag() & 12 != 0
    }

    /// Whether the move is neither a capture nor a promotion.
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode};
    /// let board = Board::default();
    /// assert!(board.legal_moves().iter().all(|mv| mv.is_quiet())); // nothing to take at the start
    /// let board = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", CastlingMode::Standard).unwrap();
    /// assert!(board.parse_uci("e1g1").unwrap().is_quiet()); // castling is quiet
    /// assert!(!board.parse_uci("a1a8").unwrap().is_quiet());
    /// ```
    #[inline(always)]
    pub const fn is_quiet(self) -> bool {
        !self.is_noisy()
    }

    /// Whether the move is castling.
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode};
    /// let board = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", CastlingMode::Standard).unwrap();
    /// assert!(board.parse_uci("e1c1").unwrap().is_castle());
    /// assert!(!board.parse_uci("e1d1").unwrap().is_castle());
    /// ```
    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        self.flag() == MoveKind::Castle as u16
    }

    /// Whether the move is an en passant capture.
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode, Square};
    /// let fen = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"; // 1.e4 d5 2.e5 f5
    /// let mut board = Board::from_fen(fen, CastlingMode::Standard).unwrap();
    /// let exf6 = board.parse_uci("e5f6").unwrap();
    /// assert!(exf6.is_en_passant());
    /// board.play(exf6);
    /// assert_eq!(board.piece_on(Square::F5), None); // the captured pawn was beside, not on f6
    /// ```
    #[inline(always)]
    pub const fn is_en_passant(self) -> bool {
        self.flag() == MoveKind::EnPassant as u16
    }

    /// The piece a promotion promotes to.
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode, PieceType};
    /// let board = Board::from_fen("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", CastlingMode::Standard).unwrap();
    /// assert_eq!(board.parse_uci("a7b8r").unwrap().promotion(), Some(PieceType::Rook));
    /// assert_eq!(board.parse_uci("a7a8q").unwrap().promotion(), Some(PieceType::Queen));
    /// assert_eq!(board.parse_uci("e1d2").unwrap().promotion(), None);
    /// ```
    #[inline(always)]
    pub const fn promotion(self) -> Option<PieceType> {
        if self.is_promotion() { Some(PieceType::ALL[1 + (self.flag() & 3) as usize]) } else { None }
    }
}

/// Prints the move's encoding in UCI form: from, to, promotion letter. Castling prints as
/// king takes own rook (`e1h1`), which is UCI for Chess960 but not for standard chess, where
/// GUIs expect the king's move (`e1g1`).
///
/// This is a deliberate choice: a 16-bit `Move` does not know whether its game is Chess960,
/// so it cannot print the standard form by itself. For text that a GUI or another program
/// reads, use [`Board::uci`](crate::Board::uci) (the board knows its mode) or
/// [`Move::uci`] with a [`CastlingMode`](crate::CastlingMode).
///
/// ```
/// use cutoff_board::{Board, CastlingMode};
/// let board = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", CastlingMode::Standard).unwrap();
/// let castle = board.parse_uci("e1g1").unwrap();
/// assert_eq!(castle.to_string(), "e1h1"); // the encoding
/// assert_eq!(board.uci(castle).to_string(), "e1g1"); // what a GUI expects
/// let quiet = board.parse_uci("a1b1").unwrap();
/// assert_eq!(quiet.to_string(), board.uci(quiet).to_string()); // the same for every other move
/// ```
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
///
/// ```
/// use cutoff_board::{Board, CastlingMode, GenKind, MoveList};
/// let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// let mut moves = MoveList::new();
/// Board::from_fen(kiwipete, CastlingMode::Standard).unwrap().generate(GenKind::All, &mut moves);
/// assert_eq!(moves.len(), 48);
/// assert!(moves.capacity() >= 218);
/// ```
pub type MoveList = arrayvec::ArrayVec<Move, 256>;
