//! Zobrist hashing keys, generated at compile time.

use crate::{CastlingRights, File, Piece, SplitMix64, Square};

pub(crate) struct Keys {
    pub(crate) pieces: [[u64; 64]; 12],
    castling: [u64; 16],
    en_passant: [u64; 8],
    pub(crate) side: u64,
}

pub(crate) const fn make_keys() -> Keys {
    let mut rng = SplitMix64::new(0x0C07_0FF0_C070_FF00);
    let mut keys = Keys { pieces: [[0; 64]; 12], castling: [0; 16], en_passant: [0; 8], side: 0 };
    let mut p = 0;
    while p < 12 {
        let mut s = 0;
        while s < 64 {
            keys.pieces[p][s] = rng.next_u64();
            s += 1;
        }
        p += 1;
    }
    // Castling keys are XORs of four per-right keys, so removing one right is one XOR of the difference.
    let rights = [rng.next_u64(), rng.next_u64(), rng.next_u64(), rng.next_u64()];
    let mut c = 0;
    while c < 16 {
        let mut k = 0;
        let mut bit = 0;
        while bit < 4 {
            if c & (1 << bit) != 0 {
                k ^= rights[bit];
            }
            bit += 1;
        }
        keys.castling[c] = k;
        c += 1;
    }
    let mut f = 0;
    while f < 8 {
        keys.en_passant[f] = rng.next_u64();
        f += 1;
    }
    keys.side = rng.next_u64();
    keys
}

static KEYS: Keys = make_keys();

#[inline(always)]
pub(crate) fn piece(piece: Piece, sq: Square) -> u64 {
    KEYS.pieces[piece as usize][sq as usize]
}

#[inline(always)]
pub(crate) fn castling(rights: CastlingRights) -> u64 {
    KEYS.castling[rights.bits() as usize & 15]
}

#[inline(always)]
pub(crate) fn en_passant(file: File) -> u64 {
    KEYS.en_passant[file as usize]
}

#[inline(always)]
pub(crate) fn side() -> u64 {
    KEYS.side
}
