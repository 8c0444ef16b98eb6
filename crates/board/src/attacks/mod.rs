//! Attack tables, all built at compile time by `const fn` (no initialisation call).
//!
//! Sliding pieces use magic bitboards, or the same tables indexed by the PEXT instruction when
//! the target has BMI2 and PEXT is fast there (the crate's `build.rs` decides; the `pext`
//! feature forces it). Both give identical results; the test suite checks every square
//! against a slow ray walk.
//!
//! ```
//! use cutoff_board::{attacks, Bitboard, Color, Square};
//! assert_eq!(attacks::knight(Square::A1).len(), 2);
//! assert_eq!(attacks::pawn(Color::White, Square::E4), Square::D5.bitboard() | Square::F5);
//! let blockers = Square::E6.bitboard();
//! assert!(attacks::rook(Square::E4, blockers).has(Square::E6));
//! assert!(!attacks::rook(Square::E4, blockers).has(Square::E7));
//! assert_eq!(attacks::between(Square::A1, Square::D4), Square::B2.bitboard() | Square::C3);
//! ```

mod sliders;

use crate::{Bitboard, Color, PieceType, Square};

pub use sliders::{bishop, queen, rook};

const fn leaper_table(deltas: &[(i8, i8)]) -> [Bitboard; 64] {
    let mut table = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut bb = 0u64;
        let mut i = 0;
        while i < deltas.len() {
            if let Some(to) = Square::index_const(sq).offset(deltas[i].0, deltas[i].1) {
                bb |= 1 << to as u8;
            }
            i += 1;
        }
        table[sq] = Bitboard(bb);
        sq += 1;
    }
    table
}

static KNIGHT: [Bitboard; 64] = leaper_table(&[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]);
static KING: [Bitboard; 64] = leaper_table(&[(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]);
static PAWN: [[Bitboard; 64]; 2] = [leaper_table(&[(-1, 1), (1, 1)]), leaper_table(&[(-1, -1), (1, -1)])];

/// Walks from `sq` in direction (`df`, `dr`) until the edge or the first blocker (included).
pub(crate) const fn ray_walk(sq: Square, df: i8, dr: i8, occupied: u64) -> u64 {
    let mut bb = 0u64;
    let mut cur = sq;
    while let Some(next) = cur.offset(df, dr) {
        bb |= 1 << next as u8;
        if occupied & (1 << next as u8) != 0 {
            break;
        }
        cur = next;
    }
    bb
}

const DIRECTIONS: [(i8, i8); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];

const fn line_tables() -> ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) {
    let mut between = [[Bitboard::EMPTY; 64]; 64];
    let mut line = [[Bitboard::EMPTY; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let sa = Square::index_const(a);
        let mut d = 0;
        while d < 8 {
            let (df, dr) = DIRECTIONS[d];
            let full = ray_walk(sa, df, dr, 0) | ray_walk(sa, -df, -dr, 0) | (1 << a);
            let mut cur = sa;
            let mut passed = 0u64;
            while let Some(next) = cur.offset(df, dr) {
                between[a][next as usize] = Bitboard(passed);
                line[a][next as usize] = Bitboard(full);
                passed |= 1 << next as u8;
                cur = next;
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

static LINES: ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) = line_tables();

/// The squares a knight on `sq` attacks.
///
/// ```
/// use cutoff_board::{attacks, Square};
/// assert_eq!(attacks::knight(Square::G1), Square::E2.bitboard() | Square::F3 | Square::H3);
/// assert_eq!(attacks::knight(Square::E4).len(), 8);
/// ```
#[inline(always)]
pub fn knight(sq: Square) -> Bitboard {
    KNIGHT[sq as usize]
}

/// The squares a king on `sq` attacks.
///
/// ```
/// use cutoff_board::{attacks, Square};
/// assert_eq!(attacks::king(Square::A1), Square::A2.bitboard() | Square::B1 | Square::B2);
/// assert_eq!(attacks::king(Square::E1).len(), 5);
/// assert_eq!(attacks::king(Square::E4).len(), 8);
/// ```
#[inline(always)]
pub fn king(sq: Square) -> Bitboard {
    KING[sq as usize]
}

/// The squares a pawn of `color` on `sq` attacks (diagonally forward).
///
/// ```
/// use cutoff_board::{attacks, Color, Square};
/// assert_eq!(attacks::pawn(Color::Black, Square::E5), Square::D4.bitboard() | Square::F4);
/// assert_eq!(attacks::pawn(Color::White, Square::A2), Square::B3.bitboard()); // edge pawn: one square
/// assert!(!attacks::pawn(Color::White, Square::E4).has(Square::E5)); // pushes are not attacks
/// ```
#[inline(always)]
pub fn pawn(color: Color, sq: Square) -> Bitboard {
    PAWN[color as usize][sq as usize]
}

/// The squares a set of `pawns` of `color` attacks, split by direction: towards the a-file
/// (west) and towards the h-file (east). Both sets together are every square some pawn attacks.
///
/// ```
/// use cutoff_board::{attacks, Bitboard, Color, Square};
/// let pawns = Square::A2.bitboard() | Square::E4;
/// let (west, east) = attacks::pawn_captures(Color::White, pawns);
/// assert_eq!(west, Square::D5.bitboard()); // the a2 pawn has no capture towards the a-file
/// assert_eq!(east, Square::B3.bitboard() | Square::F5);
/// let (west, east) = attacks::pawn_captures(Color::Black, Square::H7.bitboard());
/// assert_eq!((west, east), (Square::G6.bitboard(), Bitboard::EMPTY));
/// ```
#[inline(always)]
pub fn pawn_captures(color: Color, pawns: Bitboard) -> (Bitboard, Bitboard) {
    const NOT_A: u64 = !0x0101_0101_0101_0101;
    const NOT_H: u64 = !0x8080_8080_8080_8080;
    match color {
        Color::White => (Bitboard((pawns.0 & NOT_A) << 7), Bitboard((pawns.0 & NOT_H) << 9)),
        Color::Black => (Bitboard((pawns.0 & NOT_A) >> 9), Bitboard((pawns.0 & NOT_H) >> 7)),
    }
}

/// The squares strictly between `a` and `b` if they share a rank, file or diagonal; empty otherwise.
///
/// ```
/// use cutoff_board::{attacks, Square};
/// assert_eq!(attacks::between(Square::E1, Square::H4), Square::F2.bitboard() | Square::G3);
/// assert_eq!(attacks::between(Square::E1, Square::E8).len(), 6);
/// assert!(attacks::between(Square::E1, Square::E2).is_empty()); // adjacent
/// assert!(attacks::between(Square::G1, Square::F3).is_empty()); // not on a line
/// ```
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    LINES.0[a as usize][b as usize]
}

/// The whole line (edge to edge) through `a` and `b` if they share a rank, file or diagonal;
/// empty otherwise (and for `a == b`).
///
/// ```
/// use cutoff_board::{attacks, Bitboard, File, Square};
/// assert_eq!(attacks::line(Square::E1, Square::E5), Bitboard::file(File::E));
/// assert_eq!(attacks::line(Square::B2, Square::C3), attacks::line(Square::A1, Square::H8));
/// assert_eq!(attacks::line(Square::A1, Square::H8).len(), 8);
/// assert!(attacks::line(Square::A1, Square::B3).is_empty());
/// assert!(attacks::line(Square::E4, Square::E4).is_empty());
/// ```
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    LINES.1[a as usize][b as usize]
}

/// The squares a piece of type `kind` and colour `color` on `sq` attacks, given the occupied squares.
///
/// ```
/// use cutoff_board::{attacks, Bitboard, Color, PieceType, Square};
/// assert_eq!(attacks::piece(PieceType::Rook, Color::White, Square::A1, Bitboard::EMPTY).len(), 14);
/// ```
#[inline]
pub fn piece(kind: PieceType, color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
    match kind {
        PieceType::Pawn => pawn(color, sq),
        PieceType::Knight => knight(sq),
        PieceType::Bishop => bishop(sq, occupied),
        PieceType::Rook => rook(sq, occupied),
        PieceType::Queen => queen(sq, occupied),
        PieceType::King => king(sq),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sliders_match_ray_walk_on_every_subset() {
        for sq in Square::ALL {
            for (mask, dirs, f) in [
                (sliders::rook_mask(sq), &DIRECTIONS[..4], rook as fn(Square, Bitboard) -> Bitboard),
                (sliders::bishop_mask(sq), &DIRECTIONS[4..], bishop as fn(Square, Bitboard) -> Bitboard),
            ] {
                for occ in Bitboard(mask).subsets() {
                    let slow = dirs.iter().fold(0, |acc, &(df, dr)| acc | ray_walk(sq, df, dr, occ.0));
                    // Squares outside the mask must not change the result.
                    assert_eq!(f(sq, occ | (Bitboard::EDGES - Bitboard(mask))).0 & slow, slow);
                    assert_eq!(f(sq, occ).0, slow, "{sq} {occ:?}");
                }
            }
        }
    }

    #[test]
    fn pawn_captures_match_the_per_square_table() {
        for color in Color::ALL {
            for sq in Square::ALL {
                let (west, east) = pawn_captures(color, sq.bitboard());
                assert_eq!(west | east, pawn(color, sq), "{color:?} {sq}");
                assert!((west & east).is_empty());
            }
        }
    }

    #[test]
    fn line_and_between() {
        assert_eq!(between(Square::A1, Square::H8).len(), 6);
        assert!(between(Square::A1, Square::B3).is_empty());
        assert!(line(Square::A1, Square::B3).is_empty());
        assert_eq!(line(Square::B2, Square::C3), line(Square::A1, Square::H8));
        assert!(line(Square::E1, Square::E5).has(Square::E8));
    }
}
