//! Polyglot's position key.

use cutoff_board::{Board, CastlingRights, Color, PieceType, attacks};

use crate::RANDOM64;

/// Offset of the castling keys in [`RANDOM64`].
const CASTLE: usize = 768;
/// Offset of the en passant file keys in [`RANDOM64`].
const EN_PASSANT: usize = 772;
/// Offset of the side-to-move key in [`RANDOM64`].
const TURN: usize = 780;

/// The Polyglot key of `board`, the key a Polyglot book is sorted and searched by.
///
/// This is not [`Board::key`]: the engine's Zobrist keys are its own, Polyglot's are the XOR of
/// entries of [`RANDOM64`]:
///
/// * each piece: `RANDOM64[64 * kind + square]`, where `kind` is 2 × piece type (pawn 0, knight
///   1, bishop 2, rook 3, queen 4, king 5) plus 1 for a white piece, and `square` counts a1 = 0,
///   b1 = 1, …, h8 = 63;
/// * each castling right held: `RANDOM64[768..772]` for white short, white long, black short,
///   black long (the rights of the FEN, whether castling is possible right now or not);
/// * the file of the en passant square, `RANDOM64[772 + file]`, only if a pawn of the side to
///   move stands beside the pawn that just made a double push, i.e. could take it en passant
///   (whether that capture is legal or not: a pinned pawn still counts);
/// * `RANDOM64[780]` if White is to move.
///
/// In Chess960 the castling part uses the four rights above, as Polyglot itself does, and not
/// XBoard's extension for castling rooks that are not the outermost ones.
///
/// ```
/// use cutoff_book::polyglot_key;
/// use cutoff_board::Board;
/// let mut board = Board::default();
/// assert_eq!(polyglot_key(&board), 0x463b96181691fc9c); // from the book-format specification
/// board.play(board.parse_uci("e2e4").unwrap());
/// assert_eq!(polyglot_key(&board), 0x823c9b50fd114196);
/// ```
pub fn polyglot_key(board: &Board) -> u64 {
    let mut key = 0;
    for sq in board.occupied() {
        if let Some(piece) = board.piece_on(sq) {
            let kind = 2 * piece.kind() as usize + usize::from(piece.color() == Color::White);
            key ^= RANDOM64[64 * kind + sq.index()];
        }
    }
    let rights = board.castling_rights();
    let flags = [
        CastlingRights::WHITE_KING_SIDE,
        CastlingRights::WHITE_QUEEN_SIDE,
        CastlingRights::BLACK_KING_SIDE,
        CastlingRights::BLACK_QUEEN_SIDE,
    ];
    for (i, flag) in flags.into_iter().enumerate() {
        if rights.contains(flag) {
            key ^= RANDOM64[CASTLE + i];
        }
    }
    let us = board.side_to_move();
    // The board keeps an en passant square only when a pawn could take, which is Polyglot's
    // rule; it is checked here again so that the key does not depend on that choice.
    if let Some(ep) = board.en_passant() {
        // Our pawns that attack `ep` are the squares a pawn of the other colour on `ep` attacks.
        if (attacks::pawn(!us, ep) & board.colored_pieces(us, PieceType::Pawn)).is_nonempty() {
            key ^= RANDOM64[EN_PASSANT + ep.file().index()];
        }
    }
    if us == Color::White {
        key ^= RANDOM64[TURN];
    }
    key
}
