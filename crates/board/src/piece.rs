//! Piece types and coloured pieces.

use core::fmt;

use crate::Color;

/// A kind of piece, without colour.
///
/// ```
/// use cutoff_board::PieceType;
/// assert_eq!(PieceType::from_char('n'), Some(PieceType::Knight));
/// assert_eq!(PieceType::Queen.to_char(), 'q');
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum PieceType {
    /// A pawn.
    Pawn,
    /// A knight.
    Knight,
    /// A bishop.
    Bishop,
    /// A rook.
    Rook,
    /// A queen.
    Queen,
    /// A king.
    King,
}

impl PieceType {
    /// All six piece types, pawn first.
    ///
    /// ```
    /// use cutoff_board::{Board, PieceType};
    /// // 32 pieces in the start position, each of one of the six types.
    /// let board = Board::default();
    /// let total: u32 = PieceType::ALL.iter().map(|&kind| board.pieces(kind).len()).sum();
    /// assert_eq!(total, 32);
    /// assert_eq!(PieceType::ALL[0], PieceType::Pawn);
    /// ```
    pub const ALL: [PieceType; 6] =
        [PieceType::Pawn, PieceType::Knight, PieceType::Bishop, PieceType::Rook, PieceType::Queen, PieceType::King];

    /// The four piece types a pawn may promote to, best first.
    ///
    /// ```
    /// use cutoff_board::PieceType;
    /// assert_eq!(PieceType::PROMOTIONS[0], PieceType::Queen);
    /// assert!(!PieceType::PROMOTIONS.contains(&PieceType::King));
    /// assert!(!PieceType::PROMOTIONS.contains(&PieceType::Pawn));
    /// ```
    pub const PROMOTIONS: [PieceType; 4] = [PieceType::Queen, PieceType::Knight, PieceType::Rook, PieceType::Bishop];

    /// 0 for pawn ... 5 for king.
    ///
    /// ```
    /// use cutoff_board::{PieceType, SEE_VALUES};
    /// assert_eq!(PieceType::King.index(), 5);
    /// assert_eq!(SEE_VALUES[PieceType::Rook.index()], 500);
    /// ```
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The piece type with index `i`, or `None` if `i >= 6`.
    ///
    /// ```
    /// use cutoff_board::PieceType;
    /// assert_eq!(PieceType::try_from_index(1), Some(PieceType::Knight));
    /// assert_eq!(PieceType::try_from_index(6), None);
    /// ```
    pub const fn try_from_index(i: usize) -> Option<PieceType> {
        if i < 6 { Some(PieceType::ALL[i]) } else { None }
    }

    /// Parses a piece letter in either case (`p n b r q k`).
    ///
    /// ```
    /// use cutoff_board::PieceType;
    /// assert_eq!(PieceType::from_char('R'), Some(PieceType::Rook));
    /// assert_eq!(PieceType::from_char('r'), Some(PieceType::Rook));
    /// assert_eq!(PieceType::from_char('x'), None);
    /// ```
    pub const fn from_char(c: char) -> Option<PieceType> {
        match c.to_ascii_lowercase() {
            'p' => Some(PieceType::Pawn),
            'n' => Some(PieceType::Knight),
            'b' => Some(PieceType::Bishop),
            'r' => Some(PieceType::Rook),
            'q' => Some(PieceType::Queen),
            'k' => Some(PieceType::King),
            _ => None,
        }
    }

    /// The lowercase letter of this piece type.
    ///
    /// ```
    /// use cutoff_board::PieceType;
    /// assert_eq!(PieceType::Knight.to_char(), 'n');
    /// assert_eq!(PieceType::King.to_char(), 'k');
    /// ```
    pub const fn to_char(self) -> char {
        match self {
            PieceType::Pawn => 'p',
            PieceType::Knight => 'n',
            PieceType::Bishop => 'b',
            PieceType::Rook => 'r',
            PieceType::Queen => 'q',
            PieceType::King => 'k',
        }
    }
}

/// A piece of a given colour.
///
/// Stored in one byte; `Option<Piece>` is one byte too.
///
/// ```
/// use cutoff_board::{Color, Piece, PieceType};
/// let p = Piece::new(Color::Black, PieceType::Knight);
/// assert_eq!(p.color(), Color::Black);
/// assert_eq!(p.kind(), PieceType::Knight);
/// assert_eq!(p.to_char(), 'n');
/// assert_eq!(Piece::from_char('Q'), Some(Piece::new(Color::White, PieceType::Queen)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum Piece {
    /// A white pawn (`P` in FEN).
    WhitePawn,
    /// A white knight (`N` in FEN).
    WhiteKnight,
    /// A white bishop (`B` in FEN).
    WhiteBishop,
    /// A white rook (`R` in FEN).
    WhiteRook,
    /// A white queen (`Q` in FEN).
    WhiteQueen,
    /// A white king (`K` in FEN).
    WhiteKing,
    /// A black pawn (`p` in FEN).
    BlackPawn,
    /// A black knight (`n` in FEN).
    BlackKnight,
    /// A black bishop (`b` in FEN).
    BlackBishop,
    /// A black rook (`r` in FEN).
    BlackRook,
    /// A black queen (`q` in FEN).
    BlackQueen,
    /// A black king (`k` in FEN).
    BlackKing,
}

// `Option<Piece>` fills a mailbox square in one byte.
const _: () = assert!(core::mem::size_of::<Option<Piece>>() == 1);

impl Piece {
    /// All twelve pieces, White's first.
    ///
    /// ```
    /// use cutoff_board::{Color, Piece};
    /// let fen_letters: String = Piece::ALL.iter().map(|p| p.to_char()).collect();
    /// assert_eq!(fen_letters, "PNBRQKpnbrqk");
    /// assert!(Piece::ALL[..6].iter().all(|p| p.color() == Color::White));
    /// ```
    #[rustfmt::skip]
    pub const ALL: [Piece; 12] = [
        Piece::WhitePawn, Piece::WhiteKnight, Piece::WhiteBishop, Piece::WhiteRook, Piece::WhiteQueen, Piece::WhiteKing,
        Piece::BlackPawn, Piece::BlackKnight, Piece::BlackBishop, Piece::BlackRook, Piece::BlackQueen, Piece::BlackKing,
    ];

    /// The piece of `color` and `kind`.
    ///
    /// ```
    /// use cutoff_board::{Color, Piece, PieceType};
    /// assert_eq!(Piece::new(Color::White, PieceType::Bishop), Piece::WhiteBishop);
    /// assert_eq!(Piece::new(Color::Black, PieceType::King), Piece::BlackKing);
    /// ```
    #[inline(always)]
    pub const fn new(color: Color, kind: PieceType) -> Piece {
        Piece::ALL[color as usize * 6 + kind as usize]
    }

    /// The colour of this piece.
    ///
    /// ```
    /// use cutoff_board::{Color, Piece};
    /// assert_eq!(Piece::WhiteQueen.color(), Color::White);
    /// assert_eq!(Piece::BlackPawn.color(), Color::Black);
    /// ```
    #[inline(always)]
    pub const fn color(self) -> Color {
        if (self as u8) < 6 { Color::White } else { Color::Black }
    }

    /// The type of this piece.
    ///
    /// ```
    /// use cutoff_board::{Piece, PieceType};
    /// assert_eq!(Piece::BlackRook.kind(), PieceType::Rook);
    /// assert_eq!(Piece::WhiteRook.kind(), Piece::BlackRook.kind());
    /// ```
    #[inline(always)]
    pub const fn kind(self) -> PieceType {
        // A match rather than `ALL[self % 6]`: it compiles to one table load, without the
        // division (measured in `docs/benchmarks.md`).
        match self {
            Piece::WhitePawn | Piece::BlackPawn => PieceType::Pawn,
            Piece::WhiteKnight | Piece::BlackKnight => PieceType::Knight,
            Piece::WhiteBishop | Piece::BlackBishop => PieceType::Bishop,
            Piece::WhiteRook | Piece::BlackRook => PieceType::Rook,
            Piece::WhiteQueen | Piece::BlackQueen => PieceType::Queen,
            Piece::WhiteKing | Piece::BlackKing => PieceType::King,
        }
    }

    /// 0..12, White's pieces first: an index into per-piece tables.
    ///
    /// ```
    /// use cutoff_board::{Color, Piece, PieceType};
    /// assert_eq!(Piece::WhitePawn.index(), 0);
    /// assert_eq!(Piece::BlackKing.index(), 11);
    /// assert_eq!(Piece::new(Color::Black, PieceType::Knight).index(), 6 + PieceType::Knight.index());
    /// ```
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Parses a FEN piece letter: uppercase is White, lowercase is Black.
    ///
    /// ```
    /// use cutoff_board::Piece;
    /// assert_eq!(Piece::from_char('K'), Some(Piece::WhiteKing));
    /// assert_eq!(Piece::from_char('k'), Some(Piece::BlackKing));
    /// assert_eq!(Piece::from_char('8'), None);
    /// ```
    pub const fn from_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        match PieceType::from_char(c) {
            Some(kind) => Some(Piece::new(color, kind)),
            None => None,
        }
    }

    /// The FEN letter of this piece: uppercase for White, lowercase for Black.
    ///
    /// ```
    /// use cutoff_board::{Board, Piece, Square};
    /// assert_eq!(Piece::WhiteKnight.to_char(), 'N');
    /// let board = Board::default();
    /// assert_eq!(board.piece_on(Square::D8).map(Piece::to_char), Some('q'));
    /// ```
    pub const fn to_char(self) -> char {
        let c = self.kind().to_char();
        match self.color() {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }
}

impl fmt::Display for PieceType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}
