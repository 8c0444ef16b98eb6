//! The packed position of a game's start (see the crate documentation): written
//! by both encodings, read back canonically.

use super::*;

/// The 4-bit code of a piece: colour << 3 | type.
fn piece_code(piece: Piece) -> u8 {
    (piece.color() as u8) << 3 | piece.kind() as u8
}

fn piece_from_code(code: u8) -> Option<Piece> {
    let kind = PieceType::try_from_index(usize::from(code & 7))?;
    let color = if code & 8 == 0 { Color::White } else { Color::Black };
    Some(Piece::new(color, kind))
}

const STATE_BLACK: u8 = 1 << 4;
const STATE_CHESS960: u8 = 1 << 5;
const NO_EN_PASSANT: u8 = 255;

/// Appends the packed form of `board` to `out` (see the module documentation).
pub(super) fn pack_position(board: &Board, out: &mut Vec<u8>) {
    let occupied = board.occupied();
    out.extend_from_slice(&occupied.0.to_le_bytes());
    let mut pending: Option<u8> = None;
    for sq in occupied {
        let code = board.piece_on(sq).map_or(0, piece_code);
        match pending.take() {
            None => pending = Some(code),
            Some(low) => out.push(low | code << 4),
        }
    }
    if let Some(low) = pending {
        out.push(low);
    }
    let mut state = board.castling_rights().bits();
    if board.side_to_move() == Color::Black {
        state |= STATE_BLACK;
    }
    if board.is_chess960() {
        state |= STATE_CHESS960;
    }
    out.push(state);
    for color in Color::ALL {
        let file = |side| board.castling_rook(color, side).map_or(0, |sq: Square| sq.file() as u8);
        out.push(file(CastlingSide::King) | file(CastlingSide::Queen) << 4);
    }
    out.push(board.en_passant().map_or(NO_EN_PASSANT, |sq| sq as u8));
    out.extend_from_slice(&board.halfmove_clock().to_le_bytes());
    out.extend_from_slice(&board.fullmove_number().to_le_bytes());
}

/// Decodes a packed position (`packed` is exactly its bytes): checks every field, builds the
/// board through FEN (which validates it), and checks that the board packs back to the same
/// bytes.
pub(super) fn unpack_position(packed: &[u8], game: u64) -> Result<Board, FormatError> {
    let bad = |field| FormatError::BadField { game, field };
    let occupancy = u64::from_le_bytes(packed[..8].try_into().map_err(|_| bad("length"))?);
    let pieces = occupancy.count_ones() as usize;
    let codes = &packed[8..8 + pieces.div_ceil(2)];
    let tail = &packed[8 + pieces.div_ceil(2)..];
    let [state, white_rooks, black_rooks, en_passant, h0, h1, f0, f1] =
        <[u8; 8]>::try_from(tail).map_err(|_| bad("length"))?;

    let mut board_pieces: [Option<Piece>; 64] = [None; 64];
    let mut occupied = occupancy;
    let mut i = 0;
    while occupied != 0 {
        let index = occupied.trailing_zeros() as usize;
        occupied &= occupied - 1;
        let byte = codes[i / 2];
        let code = if i % 2 == 0 { byte & 15 } else { byte >> 4 };
        let square = Square::index_const(index);
        board_pieces[index] = Some(piece_from_code(code).ok_or(FormatError::BadPieceCode { game, square, code })?);
        i += 1;
    }
    if pieces % 2 == 1 && codes[pieces / 2] >> 4 != 0 {
        return Err(bad("piece codes: the unused last nibble is not zero"));
    }
    if state & 0b1100_0000 != 0 {
        return Err(bad("state: reserved bits set"));
    }
    let rights = CastlingRights::from_bits_truncate(state & 15);
    let mode = CastlingMode::from_chess960(state & STATE_CHESS960 != 0);

    let mut fen = String::with_capacity(100);
    for rank in Rank::ALL.iter().rev() {
        let mut empty = 0;
        for file in File::ALL {
            match board_pieces[Square::new(file, *rank).index()] {
                Some(p) => {
                    if empty > 0 {
                        fen.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    fen.push(p.to_char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push(char::from(b'0' + empty));
        }
        if *rank != Rank::First {
            fen.push('/');
        }
    }
    fen.push_str(if state & STATE_BLACK != 0 { " b " } else { " w " });
    let mut any_right = false;
    for (color, files) in [(Color::White, white_rooks), (Color::Black, black_rooks)] {
        for side in CastlingSide::ALL {
            let file = if side == CastlingSide::King { files & 15 } else { files >> 4 };
            if !rights.contains(CastlingRights::new(color, side)) {
                if file != 0 {
                    return Err(bad("castling rook file for a right that is not held"));
                }
                continue;
            }
            let file = File::try_from_index(usize::from(file)).ok_or(bad("castling rook file"))?;
            let letter = file.to_char();
            fen.push(if color == Color::White { letter.to_ascii_uppercase() } else { letter });
            any_right = true;
        }
    }
    if !any_right {
        fen.push('-');
    }
    fen.push(' ');
    if en_passant == NO_EN_PASSANT {
        fen.push('-');
    } else {
        let sq = Square::try_from_index(usize::from(en_passant)).ok_or(bad("en passant square"))?;
        fen.push_str(&sq.to_string());
    }
    let halfmove = u16::from_le_bytes([h0, h1]);
    let fullmove = u16::from_le_bytes([f0, f1]);
    fen.push_str(&format!(" {halfmove} {fullmove}"));

    let board = Board::from_fen(&fen, mode).map_err(|source| FormatError::InvalidPosition { game, source })?;
    let mut repacked = Vec::with_capacity(packed.len());
    pack_position(&board, &mut repacked);
    if repacked != packed {
        // Every field was in range and the position is legal, but it does not read back the
        // same: an en passant square where no pawn can take, a fullmove number of 0, a
        // castling right whose rook file puts it on the other side of the king, ...
        return Err(bad("not the canonical packing of its position (castling, en passant or clocks)"));
    }
    Ok(board)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_codes_round_trip() {
        for piece in Piece::ALL {
            assert_eq!(piece_from_code(piece_code(piece)), Some(piece));
        }
        for code in [6, 7, 14, 15] {
            assert_eq!(piece_from_code(code), None);
        }
    }

    #[test]
    fn start_position_packs_to_32_bytes() {
        let mut out = Vec::new();
        pack_position(&Board::default(), &mut out);
        assert_eq!(out.len(), 32);
        assert_eq!(&out[..8], &0xFFFF_0000_0000_FFFFu64.to_le_bytes());
        // a1 white rook (3), b1 white knight (1): one byte 0x13.
        assert_eq!(out[8], 0x13);
        // State: all four rights, White to move, standard chess; rooks on h (7) and a (0).
        assert_eq!(&out[24..], &[0x0F, 0x07, 0x07, 255, 0, 0, 1, 0]);
        assert_eq!(unpack_position(&out, 0).unwrap(), Board::default());
    }
}
