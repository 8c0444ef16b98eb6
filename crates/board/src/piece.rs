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
    Pawn,
    Knight,
    Bishop,
    Rook,
    Queen,
    King,
}

impl PieceType {
    /// All six piece types, pawn first.
    pub const ALL: [PieceType; 6] =
        [PieceType::Pawn, PieceType::Knight, PieceType::Bishop, PieceType::Rook, PieceType::Queen, PieceType::King];

    /// The four piece types a pawn may promote to, best first.
    pub const PROMOTIONS: [PieceType; 4] = [PieceType::Queen, PieceType::Knight, PieceType::Rook, PieceType::Bishop];

    /// 0 for pawn ... 5 for king.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The piece type with index `i`, or `None` if `i >= 6`.
    pub const fn try_from_index(i: usize) -> Option<PieceType> {
        if i < 6 { Some(PieceType::ALL[i]) } else { None }
    }

    /// Parses a piece letter in either case (`p n b r q k`).
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
    WhitePawn,
    WhiteKnight,
    WhiteBishop,
    WhiteRook,
    WhiteQueen,
    WhiteKing,
    BlackPawn,
    BlackKnight,
    BlackBishop,
    BlackRook,
    BlackQueen,
    BlackKing,
}

static_assertions::const_assert_eq!(core::mem::size_of::<Option<Piece>>(), 1);

impl Piece {
    /// All twelve pieces, White's first.
    #[rustfmt::skip]
    pub const ALL: [Piece; 12] = [
        Piece::WhitePawn, Piece::WhiteKnight, Piece::WhiteBishop, Piece::WhiteRook, Piece::WhiteQueen, Piece::WhiteKing,
        Piece::BlackPawn, Piece::BlackKnight, Piece::BlackBishop, Piece::BlackRook, Piece::BlackQueen, Piece::BlackKing,
    ];

    /// The piece of `color` and `kind`.
    #[inline(always)]
    pub const fn new(color: Color, kind: PieceType) -> Piece {
        Piece::ALL[color as usize * 6 + kind as usize]
    }

    /// The colour of this piece.
    #[inline(always)]
    pub const fn color(self) -> Color {
        if (self as u8) < 6 { Color::White } else { Color::Black }
    }

    /// The type of this piece.
    #[inline(always)]
    pub const fn kind(self) -> PieceType {
        PieceType::ALL[self as usize % 6]
    }

    /// 0..12, White's pieces first: an index into per-piece tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Parses a FEN piece letter: uppercase is White, lowercase is Black.
    pub const fn from_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        match PieceType::from_char(c) {
            Some(kind) => Some(Piece::new(color, kind)),
            None => None,
        }
    }

    /// The FEN letter of this piece: uppercase for White, lowercase for Black.
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
