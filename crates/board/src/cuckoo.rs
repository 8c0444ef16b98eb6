//! A table of every reversible move by its Zobrist key difference, for detecting a repetition
//! that the side to move can bring about with its next move ("upcoming repetition").
//!
//! A move of a knight, bishop, rook, queen or king from `a` to an empty `b` changes a
//! position's key by `piece(a) ^ piece(b) ^ side`, the same whichever way it goes. There are
//! 3,668 such (piece, square pair) combinations on an empty board. Stored by that difference in
//! a cuckoo hash table (each key in one of two slots, chosen by two parts of the key), one
//! XOR and at most two reads tell whether two positions' keys differ by one such move.
//!
//! Built at compile time from the same Zobrist keys the board uses.

use crate::zobrist::make_keys;
use crate::{Piece, PieceType, Square};

/// Slots in the table: a power of two, a bit more than twice the moves, so that insertion
/// always ends.
const SLOTS: usize = 8192;

#[inline(always)]
const fn slot1(key: u64) -> usize {
    (key as usize) & (SLOTS - 1)
}

#[inline(always)]
const fn slot2(key: u64) -> usize {
    ((key >> 16) as usize) & (SLOTS - 1)
}

/// Whether a `kind` piece on `a` attacks `b` on an empty board.
const fn reaches(kind: PieceType, a: usize, b: usize) -> bool {
    let df = (a % 8).abs_diff(b % 8);
    let dr = (a / 8).abs_diff(b / 8);
    let diagonal = df == dr && df != 0;
    let straight = (df == 0) != (dr == 0);
    match kind {
        PieceType::Knight => (df == 1 && dr == 2) || (df == 2 && dr == 1),
        PieceType::Bishop => diagonal,
        PieceType::Rook => straight,
        PieceType::Queen => diagonal || straight,
        PieceType::King => df <= 1 && dr <= 1 && df + dr > 0,
        PieceType::Pawn => false,
    }
}

pub(crate) struct Table {
    /// The key difference stored in each slot; 0 for an empty slot (no move's difference is 0).
    keys: [u64; SLOTS],
    /// The two squares of the move in each slot, the lower first.
    squares: [[u8; 2]; SLOTS],
    /// How many moves were stored (3,668: checked by a test).
    pub(crate) count: usize,
}

const fn build() -> Table {
    let zobrist = make_keys();
    let mut table = Table { keys: [0; SLOTS], squares: [[0; 2]; SLOTS], count: 0 };
    let mut i = 0;
    while i < Piece::ALL.len() {
        let piece = Piece::ALL[i];
        let mut a = 0;
        while a < 64 {
            let mut b = a + 1;
            while b < 64 {
                if reaches(piece.kind(), a, b) {
                    let keys = &zobrist.pieces[piece as usize];
                    let mut key = keys[a] ^ keys[b] ^ zobrist.side;
                    let mut squares = [a as u8, b as u8];
                    let mut slot = slot1(key);
                    // Cuckoo insertion: take the slot, move its occupant to its other slot.
                    loop {
                        let (old_key, old_squares) = (table.keys[slot], table.squares[slot]);
                        table.keys[slot] = key;
                        table.squares[slot] = squares;
                        if old_key == 0 {
                            break;
                        }
                        key = old_key;
                        squares = old_squares;
                        slot = if slot == slot1(key) { slot2(key) } else { slot1(key) };
                    }
                    table.count += 1;
                }
                b += 1;
            }
            a += 1;
        }
        i += 1;
    }
    table
}

pub(crate) static TABLE: Table = build();

/// The two squares of the reversible move whose key difference is `diff`, if there is one.
#[inline]
pub(crate) fn reversible_move(diff: u64) -> Option<(Square, Square)> {
    let found = |slot: usize| {
        let [a, b] = TABLE.squares[slot];
        (Square::index_const(a as usize), Square::index_const(b as usize))
    };
    if TABLE.keys[slot1(diff)] == diff {
        Some(found(slot1(diff)))
    } else if TABLE.keys[slot2(diff)] == diff {
        Some(found(slot2(diff)))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reversible moves of the five non-pawn piece types and both colours, each counted
    /// once for its two squares: knights 168, bishops 280, rooks 448, queens 728, kings 210
    /// for each colour.
    const MOVES: usize = 2 * (168 + 280 + 448 + 728 + 210);

    #[test]
    fn every_reversible_move_is_stored_once() {
        assert_eq!(TABLE.count, MOVES);
        assert_eq!(TABLE.keys.iter().filter(|&&k| k != 0).count(), MOVES);
    }
}
