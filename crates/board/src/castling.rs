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
        ///
        /// ```
        /// use cutoff_board::{Board, CastlingMode, CastlingRights};
        /// let board = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1", CastlingMode::Standard).unwrap();
        /// assert_eq!(board.castling_rights(), CastlingRights::WHITE_KING_SIDE | CastlingRights::BLACK_QUEEN_SIDE);
        /// ```
        const WHITE_KING_SIDE = 1;
        /// White may castle queen side (towards the a-file).
        ///
        /// ```
        /// use cutoff_board::{Board, CastlingMode, CastlingRights};
        /// // Moving the a1 rook gives up White's queen-side castling only.
        /// let mut board = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", CastlingMode::Standard).unwrap();
        /// board.play(board.parse_uci("a1b1").unwrap());
        /// assert!(!board.castling_rights().contains(CastlingRights::WHITE_QUEEN_SIDE));
        /// assert!(board.castling_rights().contains(CastlingRights::WHITE_KING_SIDE));
        /// ```
        const WHITE_QUEEN_SIDE = 2;
        /// Black may castle king side.
        ///
        /// ```
        /// use cutoff_board::{Board, CastlingMode, CastlingRights, CastlingSide, Color};
        /// assert_eq!(CastlingRights::new(Color::Black, CastlingSide::King), CastlingRights::BLACK_KING_SIDE);
        /// let board = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w k - 0 1", CastlingMode::Standard).unwrap();
        /// assert_eq!(board.castling_rights(), CastlingRights::BLACK_KING_SIDE);
        /// ```
        const BLACK_KING_SIDE = 4;
        /// Black may castle queen side.
        ///
        /// ```
        /// use cutoff_board::{Board, CastlingMode, CastlingRights};
        /// // Rxa8+ captures the a8 rook: both queen-side rights are gone.
        /// let mut board = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", CastlingMode::Standard).unwrap();
        /// board.play(board.parse_san("Rxa8+").unwrap());
        /// assert_eq!(board.castling_rights(), CastlingRights::WHITE_KING_SIDE | CastlingRights::BLACK_KING_SIDE);
        /// ```
        const BLACK_QUEEN_SIDE = 8;
    }
}

impl CastlingRights {
    /// The single right of `color` on `side`.
    ///
    /// ```
    /// use cutoff_board::{CastlingRights, CastlingSide, Color};
    /// assert_eq!(CastlingRights::new(Color::White, CastlingSide::Queen), CastlingRights::WHITE_QUEEN_SIDE);
    /// assert_eq!(CastlingRights::new(Color::Black, CastlingSide::King), CastlingRights::BLACK_KING_SIDE);
    /// ```
    #[inline(always)]
    pub const fn new(color: Color, side: CastlingSide) -> CastlingRights {
        CastlingRights::from_bits_truncate(1 << (color as u8 * 2 + side as u8))
    }

    /// Both rights of `color`.
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode, CastlingRights, Color};
    /// let white = CastlingRights::WHITE_KING_SIDE | CastlingRights::WHITE_QUEEN_SIDE;
    /// assert_eq!(CastlingRights::for_color(Color::White), white);
    /// // A king move gives up both rights of its side.
    /// let mut board = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", CastlingMode::Standard).unwrap();
    /// board.play(board.parse_uci("e1d1").unwrap());
    /// assert_eq!(board.castling_rights(), CastlingRights::for_color(Color::Black));
    /// ```
    #[inline(always)]
    pub const fn for_color(color: Color) -> CastlingRights {
        CastlingRights::from_bits_truncate(3 << (color as u8 * 2))
    }
}

/// The side of the board a castling move goes to.
///
/// ```
/// use cutoff_board::{Board, CastlingMode, CastlingSide, Color, Piece};
/// // Kiwipete: White castles king side.
/// let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// let mut board = Board::from_fen(kiwipete, CastlingMode::Standard).unwrap();
/// board.play(board.parse_san("O-O").unwrap());
/// assert_eq!(board.piece_on(CastlingSide::King.king_destination(Color::White)), Some(Piece::WhiteKing));
/// assert_eq!(board.piece_on(CastlingSide::King.rook_destination(Color::White)), Some(Piece::WhiteRook));
/// ```
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
    ///
    /// ```
    /// use cutoff_board::{CastlingSide, Color, Square};
    /// assert_eq!(CastlingSide::ALL.map(|side| side.king_destination(Color::White)), [Square::G1, Square::C1]);
    /// ```
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
    ///
    /// ```
    /// use cutoff_board::{CastlingSide, Color, Square};
    /// assert_eq!(CastlingSide::Queen.rook_destination(Color::White), Square::D1);
    /// assert_eq!(CastlingSide::King.rook_destination(Color::Black), Square::F8);
    /// ```
    #[inline(always)]
    pub const fn rook_destination(self, color: Color) -> Square {
        let file = match self {
            CastlingSide::King => File::F,
            CastlingSide::Queen => File::D,
        };
        Square::new(file, Rank::First.relative_to(color))
    }
}

/// Which castling rules and notation a [`Board`](crate::Board) follows: standard chess or
/// Chess960 (Fischer random). Given to [`Board::from_fen`](crate::Board::from_fen) instead of
/// a bare `bool`.
///
/// The mode changes three things: which castling rights a FEN may give (standard chess needs
/// the king on the e-file and the rooks in the corners), how a FEN is written (`KQkq` or
/// Shredder-FEN rook files), and how a castling move is written in UCI (`e1g1` or king takes
/// own rook, `e1h1`). Move generation and the [`Move`](crate::Move) encoding are the same.
///
/// ```
/// use cutoff_board::{Board, CastlingMode};
/// let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
/// let board = Board::from_fen(fen, CastlingMode::Chess960).unwrap();
/// assert_eq!(board.castling_mode(), CastlingMode::Chess960);
/// // The king stands on g1: no standard-chess castling right can describe this position.
/// assert!(Board::from_fen(fen, CastlingMode::Standard).is_err());
/// assert_eq!("chess960".parse(), Ok(CastlingMode::Chess960));
/// assert_eq!(CastlingMode::from_chess960(false), CastlingMode::Standard);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CastlingMode {
    /// Standard chess: the king starts on the e-file, the rooks in the corners.
    #[default]
    Standard,
    /// Chess960: the king between the two rooks, anywhere on the back rank.
    Chess960,
}

impl CastlingMode {
    /// [`CastlingMode::Chess960`] if `chess960`, else [`CastlingMode::Standard`] (for a
    /// `UCI_Chess960` option or a command-line flag).
    ///
    /// ```
    /// use cutoff_board::CastlingMode;
    /// assert_eq!(CastlingMode::from_chess960(true), CastlingMode::Chess960);
    /// ```
    pub const fn from_chess960(chess960: bool) -> CastlingMode {
        if chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard }
    }

    /// Whether this is [`CastlingMode::Chess960`].
    ///
    /// ```
    /// use cutoff_board::CastlingMode;
    /// assert!(CastlingMode::Chess960.is_chess960());
    /// assert!(!CastlingMode::Standard.is_chess960());
    /// ```
    pub const fn is_chess960(self) -> bool {
        matches!(self, CastlingMode::Chess960)
    }
}

/// `standard` or `chess960`.
impl core::fmt::Display for CastlingMode {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            CastlingMode::Standard => "standard",
            CastlingMode::Chess960 => "chess960",
        })
    }
}
