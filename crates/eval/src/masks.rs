//! Bitboard masks used by the evaluation, all built at compile time.

use cutoff_board::{Bitboard, Color, File, Square};

const fn bb_of_offsets(sq: Square, deltas: &[(i8, i8)]) -> Bitboard {
    let mut bb = Bitboard::EMPTY;
    let mut i = 0;
    while i < deltas.len() {
        if let Some(to) = sq.offset(deltas[i].0, deltas[i].1) {
            bb = bb.union(to.bitboard());
        }
        i += 1;
    }
    bb
}

/// The squares strictly in front of `sq` (for `color`) on files `sq.file() + df` for each `df`
/// in `dfs`.
const fn ahead(color: Color, sq: Square, dfs: &[i8]) -> Bitboard {
    let dir: i8 = match color {
        Color::White => 1,
        Color::Black => -1,
    };
    let mut bb = Bitboard::EMPTY;
    let mut i = 0;
    while i < dfs.len() {
        let mut step = 1;
        while step < 8 {
            if let Some(to) = sq.offset(dfs[i], dir * step) {
                bb = bb.union(to.bitboard());
            }
            step += 1;
        }
        i += 1;
    }
    bb
}

const fn per_square(color: Color, dfs: &[i8]) -> [Bitboard; 64] {
    let mut t = [Bitboard::EMPTY; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = ahead(color, Square::index_const(i), dfs);
        i += 1;
    }
    t
}

const fn king_zones(color: Color) -> [Bitboard; 64] {
    let fwd: i8 = match color {
        Color::White => 2,
        Color::Black => -2,
    };
    let mut t = [Bitboard::EMPTY; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = bb_of_offsets(
            Square::index_const(i),
            &[
                (0, 0),
                (1, 0),
                (1, 1),
                (0, 1),
                (-1, 1),
                (-1, 0),
                (-1, -1),
                (0, -1),
                (1, -1),
                (-1, fwd),
                (0, fwd),
                (1, fwd),
            ],
        );
        i += 1;
    }
    t
}

const fn adjacent_files() -> [Bitboard; 8] {
    let mut t = [Bitboard::EMPTY; 8];
    let mut f = 0;
    while f < 8 {
        if f > 0 {
            t[f] = t[f].union(Bitboard::file(File::ALL[f - 1]));
        }
        if f < 7 {
            t[f] = t[f].union(Bitboard::file(File::ALL[f + 1]));
        }
        f += 1;
    }
    t
}

/// The files next to each file (one or two files; the file itself is not included).
pub(crate) static ADJACENT_FILES: [Bitboard; 8] = adjacent_files();

/// `[color][square]`: the squares strictly in front of the square on its file.
pub(crate) static FORWARD_FILE: [[Bitboard; 64]; 2] = [per_square(Color::White, &[0]), per_square(Color::Black, &[0])];

/// `[color][square]`: the squares strictly in front of the square on its own and the adjacent
/// files (a pawn is passed when no enemy pawn stands there).
pub(crate) static PASSED_SPAN: [[Bitboard; 64]; 2] =
    [per_square(Color::White, &[-1, 0, 1]), per_square(Color::Black, &[-1, 0, 1])];

/// `[color][square]`: the king zone of a king of `color` on the square: the square, its
/// neighbours and the three squares two ranks in front of it (those that exist).
pub(crate) static KING_ZONE: [[Bitboard; 64]; 2] = [king_zones(Color::White), king_zones(Color::Black)];

/// The squares attacked by the pawns `pawns` of `color`.
#[inline(always)]
pub(crate) fn pawn_attacks(color: Color, pawns: Bitboard) -> Bitboard {
    let (west, east) = cutoff_board::attacks::pawn_captures(color, pawns);
    west | east
}

#[cfg(test)]
mod tests {
    use super::*;
    use cutoff_board::attacks;

    #[test]
    fn pawn_attacks_match_board_tables() {
        for color in Color::ALL {
            for sq in Square::ALL {
                assert_eq!(pawn_attacks(color, sq.bitboard()), attacks::pawn(color, sq), "{color:?} {sq}");
            }
        }
    }

    #[test]
    fn masks() {
        assert_eq!(ADJACENT_FILES[0], Bitboard::file(File::B));
        assert_eq!(ADJACENT_FILES[3], Bitboard::file(File::C) | Bitboard::file(File::E));
        assert_eq!(FORWARD_FILE[0][Square::E2 as usize].len(), 6);
        assert!(FORWARD_FILE[1][Square::E7 as usize].has(Square::E2));
        assert_eq!(PASSED_SPAN[0][Square::A2 as usize].len(), 12);
        assert_eq!(PASSED_SPAN[1][Square::D7 as usize].len(), 18);
        assert_eq!(KING_ZONE[0][Square::G1 as usize].len(), 9);
        assert!(KING_ZONE[0][Square::G1 as usize].has(Square::H3));
        assert!(KING_ZONE[1][Square::G8 as usize].has(Square::F6));
        assert_eq!(KING_ZONE[0][Square::E4 as usize].len(), 12);
        for color in Color::ALL {
            for sq in Square::ALL {
                assert_eq!(
                    KING_ZONE[color as usize][sq as usize].flip_ranks(),
                    KING_ZONE[!color as usize][sq.flip_rank() as usize]
                );
                assert_eq!(
                    PASSED_SPAN[color as usize][sq as usize].flip_ranks(),
                    PASSED_SPAN[!color as usize][sq.flip_rank() as usize]
                );
            }
        }
    }
}
