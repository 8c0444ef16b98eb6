//! Book entries and Polyglot's move encoding.

use cutoff_board::{Board, CastlingSide, GenKind, Move, MoveList, PieceType, Square};

use crate::polyglot_key;

/// One 16-byte entry of a Polyglot book: a position key, a move, its weight and a learning
/// field, stored big-endian in that order.
///
/// ```
/// use cutoff_book::{Entry, polyglot_key};
/// use cutoff_board::Board;
/// let board = Board::default();
/// let e4 = board.parse_uci("e2e4").unwrap();
/// let entry = Entry::new(&board, e4, 10);
/// assert_eq!(entry.key, polyglot_key(&board));
/// assert_eq!(entry.raw_move, 0x031C); // e2 (file 4, row 1) to e4 (file 4, row 3)
/// assert_eq!(Entry::from_bytes(entry.to_bytes()), entry);
/// assert_eq!(entry.decode(&board), Some(e4));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Entry {
    /// The [`polyglot_key`] of the position.
    pub key: u64,
    /// The move in Polyglot's encoding (see [`encode_move`]).
    pub raw_move: u16,
    /// How good the move is: the chance to choose it is its weight over the sum of the weights
    /// of the position's moves. Polyglot's `make-book` writes 2 × wins + draws, scaled to 16 bits.
    pub weight: u16,
    /// Learning data; 0 as written by `make-book`, and not used here.
    pub learn: u32,
}

impl Entry {
    /// The size of an entry in a book file, in bytes.
    pub const SIZE: usize = 16;

    /// The entry for `mv` (which should be legal) in `board`, with `weight` and no learning data.
    ///
    /// ```
    /// use cutoff_book::Entry;
    /// use cutoff_board::Board;
    /// let board = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", cutoff_board::CastlingMode::Standard).unwrap();
    /// let castle = board.parse_uci("e1g1").unwrap();
    /// let entry = Entry::new(&board, castle, 1);
    /// assert_eq!(entry.raw_move, 0x0107); // written e1h1, king takes own rook
    /// assert_eq!(entry.decode(&board), Some(castle));
    /// ```
    pub fn new(board: &Board, mv: Move, weight: u16) -> Entry {
        Entry { key: polyglot_key(board), raw_move: encode_move(mv), weight, learn: 0 }
    }

    /// Reads an entry from its 16 bytes in a book file.
    ///
    /// ```
    /// use cutoff_book::Entry;
    /// let bytes = [0x46, 0x3b, 0x96, 0x18, 0x16, 0x91, 0xfc, 0x9c, 0x03, 0x1c, 0x00, 0x07, 0, 0, 0, 0];
    /// let entry = Entry::from_bytes(bytes);
    /// assert_eq!((entry.key, entry.raw_move, entry.weight, entry.learn), (0x463b96181691fc9c, 0x031c, 7, 0));
    /// ```
    pub const fn from_bytes(bytes: [u8; Entry::SIZE]) -> Entry {
        let [k0, k1, k2, k3, k4, k5, k6, k7, m0, m1, w0, w1, l0, l1, l2, l3] = bytes;
        Entry {
            key: u64::from_be_bytes([k0, k1, k2, k3, k4, k5, k6, k7]),
            raw_move: u16::from_be_bytes([m0, m1]),
            weight: u16::from_be_bytes([w0, w1]),
            learn: u32::from_be_bytes([l0, l1, l2, l3]),
        }
    }

    /// The 16 bytes of this entry in a book file (big-endian fields).
    ///
    /// ```
    /// use cutoff_book::Entry;
    /// let entry = Entry { key: 1, raw_move: 0x031c, weight: 2, learn: 3 };
    /// assert_eq!(entry.to_bytes(), [0, 0, 0, 0, 0, 0, 0, 1, 0x03, 0x1c, 0, 2, 0, 0, 0, 3]);
    /// ```
    pub const fn to_bytes(self) -> [u8; Entry::SIZE] {
        let [k0, k1, k2, k3, k4, k5, k6, k7] = self.key.to_be_bytes();
        let [m0, m1] = self.raw_move.to_be_bytes();
        let [w0, w1] = self.weight.to_be_bytes();
        let [l0, l1, l2, l3] = self.learn.to_be_bytes();
        [k0, k1, k2, k3, k4, k5, k6, k7, m0, m1, w0, w1, l0, l1, l2, l3]
    }

    /// This entry's move in `board`, if it decodes to a legal move there (see [`decode_move`]).
    /// The key is not compared with `board`.
    ///
    /// ```
    /// use cutoff_book::Entry;
    /// use cutoff_board::Board;
    /// let entry = Entry { key: 0, raw_move: 0x0324, weight: 1, learn: 0 }; // e2e5
    /// assert_eq!(entry.decode(&Board::default()), None);
    /// ```
    pub fn decode(&self, board: &Board) -> Option<Move> {
        decode_move(board, self.raw_move)
    }
}

/// `mv` in Polyglot's 16-bit encoding: to file (bits 0–2), to row (3–5), from file (6–8),
/// from row (9–11), promotion (12–14: none 0, knight 1, bishop 2, rook 3, queen 4).
/// Castling is written as the king taking its own rook (`e1h1`, `e1a1`, `e8h8`, `e8a8` in
/// standard chess), which is how [`Move`] stores it too.
///
/// ```
/// use cutoff_book::encode_move;
/// use cutoff_board::{Move, MoveKind, Square};
/// assert_eq!(encode_move(Move::new(Square::G1, Square::F3, MoveKind::Quiet)), 0x0195);
/// assert_eq!(encode_move(Move::new(Square::E8, Square::A8, MoveKind::Castle)), 0x0F38);
/// assert_eq!(encode_move(Move::new(Square::B7, Square::A8, MoveKind::CapturePromoteKnight)), 0x1C78);
/// ```
pub const fn encode_move(mv: Move) -> u16 {
    let promotion = match mv.promotion() {
        Some(PieceType::Knight) => 1,
        Some(PieceType::Bishop) => 2,
        Some(PieceType::Rook) => 3,
        Some(PieceType::Queen) => 4,
        _ => 0,
    };
    // Polyglot's `row * 8 + file` is the board's square index, a1 = 0 to h8 = 63.
    (mv.to() as u16) | (mv.from() as u16) << 6 | promotion << 12
}

/// The legal move of `board` that the Polyglot move `raw` stands for, or `None` when `raw`
/// encodes no move (`0`, `from == to`, a promotion code above 4, bit 15 set) or a move that is
/// not legal in `board`.
///
/// Castling, written as the king taking its own rook (`e1h1`), becomes the board's castling
/// move only when that castling is legal. In standard chess the king's two-square form
/// (`e1g1`), which some book writers use, is accepted for castling too, as python-chess and
/// [`Board::parse_uci`] accept it.
///
/// ```
/// use cutoff_book::decode_move;
/// use cutoff_board::Board;
/// let board = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", cutoff_board::CastlingMode::Standard).unwrap();
/// let castle = decode_move(&board, 0x0F38).unwrap(); // e8a8
/// assert!(castle.is_castle());
/// assert_eq!(board.uci(castle).to_string(), "e8c8");
/// assert_eq!(decode_move(&board, 0x0107), None); // e1h1: White's castling, Black to move
/// assert_eq!(decode_move(&board, 0), None);
/// ```
pub fn decode_move(board: &Board, raw: u16) -> Option<Move> {
    let mut moves = MoveList::new();
    board.generate(GenKind::All, &mut moves);
    decode_in(board, &moves, raw)
}

/// [`decode_move`] against the legal moves of `board`, generated once by the caller.
pub(crate) fn decode_in(board: &Board, legal: &MoveList, raw: u16) -> Option<Move> {
    if raw & 0x8000 != 0 {
        return None;
    }
    let to = Square::index_const(usize::from(raw & 63));
    let from = Square::index_const(usize::from((raw >> 6) & 63));
    let promotion = match raw >> 12 {
        0 => None,
        1 => Some(PieceType::Knight),
        2 => Some(PieceType::Bishop),
        3 => Some(PieceType::Rook),
        4 => Some(PieceType::Queen),
        _ => return None,
    };
    if from == to {
        return None;
    }
    legal.iter().copied().find(|mv| {
        if mv.from() != from || mv.promotion() != promotion {
            return false;
        }
        if mv.is_castle() && !board.is_chess960() && mv.to() != to {
            // The king's two-square form of standard castling.
            let side = if mv.to().file() > from.file() { CastlingSide::King } else { CastlingSide::Queen };
            return side.king_destination(board.side_to_move()) == to;
        }
        mv.to() == to
    })
}
