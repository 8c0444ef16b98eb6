//! Sliding-piece attacks: magic bitboards, or PEXT on BMI2 targets (`cfg(cutoff_pext)`, set by
//! `build.rs`).
//!
//! Index layout: one shared table; square `s` owns entries `OFFSETS[s] .. OFFSETS[s] + 2^bits(s)`,
//! where `bits(s)` is the number of relevant blocker squares (the ray squares without the edge).
//! The table is filled by `const fn`; a magic number that maps two blocker sets with different
//! attacks to one entry aborts compilation (the collision check).

use super::ray_walk;
use crate::{Bitboard, Square};

const ROOK_MAGICS: [u64; 64] = [
    0x1080004008801020,
    0x0840092002C03000,
    0x1900200010400900,
    0x0880100008000480,
    0x4200100420080200,
    0x8100020100080400,
    0x0200040110886200,
    0x0200008040220411,
    0x0404800084400220,
    0x0000401000402000,
    0x0086001081220440,
    0x0408800800100280,
    0x000A001201040820,
    0x8848800200840080,
    0x4001000100040200,
    0x0442000102105084,
    0x9080010020804100,
    0x0040404000201009,
    0x0000808010002009,
    0x2200090021D00100,
    0x0008008008040080,
    0x0004004002010040,
    0x0011040008015042,
    0x00000A0001768104,
    0x0000800080204009,
    0x2010004140002001,
    0x9800200280100080,
    0x1000100080080080,
    0x0442000A00049020,
    0x2100040080020080,
    0x0800120400900148,
    0x0010040A00128541,
    0x2800804000800030,
    0x1010002000400041,
    0x4000200011004100,
    0x0610008410800800,
    0x0400802402800800,
    0xC100020080800400,
    0x0002000802000401,
    0x0182085882000401,
    0x0220204000808000,
    0x2860100040024022,
    0x0001002004110040,
    0x99101042000A0020,
    0x0004080004008080,
    0x0010040002008080,
    0x2012004881020004,
    0x8300842444820011,
    0x0088403882010200,
    0x0820400080210100,
    0x0110910040A00300,
    0x0801100280080480,
    0x0242009008200600,
    0x1002000489500200,
    0x0040800200010080,
    0x0091800041000080,
    0x0000209300488001,
    0x04C1002414824001,
    0x020020000B001041,
    0x7000100004200901,
    0x8002002004100802,
    0x30010002084C0007,
    0x0888221800813004,
    0x4000002840840112,
];
const BISHOP_MAGICS: [u64; 64] = [
    0xA010041108003100,
    0x006082020A002900,
    0x6810010619200000,
    0x08281A0520000408,
    0x0001104001000400,
    0x0018901008048400,
    0x00040A0210245280,
    0x000200210808A402,
    0x9140048410821200,
    0x0800091010820041,
    0x20504804832202C0,
    0x0100091401081000,
    0x8021011140000012,
    0x0810020804450400,
    0x208B0542109008A2,
    0x0080084A08040204,
    0x0040E2A80811244C,
    0x2505022008008108,
    0x0430220100420040,
    0x010A040420220040,
    0x1105000290400000,
    0x0093001200822120,
    0x4000A62048043004,
    0x280120048A015004,
    0x006090002A020814,
    0x44042000240800D0,
    0x01102800040A4400,
    0x1004080080220040,
    0x0001001011004024,
    0x0010044000805040,
    0x0914041200820100,
    0x0004821012821480,
    0x0024040500C05021,
    0x0088611002080200,
    0x0116080A00040020,
    0x4000020080080080,
    0x2450450140840040,
    0x0000880201484100,
    0x0222020404020092,
    0x8081110600002E00,
    0x2842101105000801,
    0x1100809008001025,
    0x00020202221C0400,
    0x0422014022009020,
    0x0210046102100C00,
    0xC004008082029102,
    0x00AA461801101200,
    0x0404080080201108,
    0x020542108C205002,
    0x0410544804100100,
    0x0040910841100000,
    0x0400200042021100,
    0x00004204850400C0,
    0x0200100410A42102,
    0x1040020801210102,
    0x0805040410420000,
    0x2884804130100200,
    0x800C262201242000,
    0x1058000194108800,
    0x0014221054420204,
    0x0104000012A02200,
    0x0200881003300100,
    0x0140400202840100,
    0x0402020801010201,
];

const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// The relevant blocker squares: each ray without its last (edge) square.
const fn relevant_mask(sq: Square, dirs: &[(i8, i8); 4]) -> u64 {
    let mut mask = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let mut cur = sq;
        while let Some(next) = cur.offset(df, dr) {
            if next.offset(df, dr).is_none() {
                break;
            }
            mask |= 1 << next as u8;
            cur = next;
        }
        d += 1;
    }
    mask
}

#[cfg(test)]
pub(crate) const fn rook_mask(sq: Square) -> u64 {
    relevant_mask(sq, &ROOK_DIRS)
}

#[cfg(test)]
pub(crate) const fn bishop_mask(sq: Square) -> u64 {
    relevant_mask(sq, &BISHOP_DIRS)
}

/// Per-square lookup data.
#[derive(Clone, Copy)]
struct Entry {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: u32,
}

const fn entries(dirs: &[(i8, i8); 4], magics: &[u64; 64]) -> ([Entry; 64], usize) {
    let mut out = [Entry { mask: 0, magic: 0, shift: 0, offset: 0 }; 64];
    let mut offset = 0usize;
    let mut sq = 0;
    while sq < 64 {
        let mask = relevant_mask(Square::index_const(sq), dirs);
        let bits = mask.count_ones();
        out[sq] = Entry { mask, magic: magics[sq], shift: 64 - bits, offset: offset as u32 };
        offset += 1 << bits;
        sq += 1;
    }
    (out, offset)
}

const ROOK_ENTRIES: ([Entry; 64], usize) = entries(&ROOK_DIRS, &ROOK_MAGICS);
const BISHOP_ENTRIES: ([Entry; 64], usize) = entries(&BISHOP_DIRS, &BISHOP_MAGICS);
const ROOK_SIZE: usize = ROOK_ENTRIES.1;
const BISHOP_SIZE: usize = BISHOP_ENTRIES.1;

/// The table index of a blocker set: the magic hash, or with PEXT (see `build.rs`) the rank of
/// the subset (carry-rippler enumeration visits the subsets of a mask in increasing PEXT
/// order, so the k-th subset has index k).
#[inline(always)]
const fn index_of(e: &Entry, occupied: u64, subset_rank: usize) -> usize {
    if cfg!(cutoff_pext) { subset_rank } else { ((occupied & e.mask).wrapping_mul(e.magic) >> e.shift) as usize }
}

const fn fill<const N: usize>(entries: &[Entry; 64], dirs: &[(i8, i8); 4]) -> [Bitboard; N] {
    let mut table = [Bitboard::EMPTY; N];
    let mut written = [false; N];
    let mut sq = 0;
    while sq < 64 {
        let e = &entries[sq];
        let mut sub = 0u64;
        let mut rank = 0usize;
        loop {
            let mut attacks = 0u64;
            let mut d = 0;
            while d < 4 {
                attacks |= ray_walk(Square::index_const(sq), dirs[d].0, dirs[d].1, sub);
                d += 1;
            }
            let i = e.offset as usize + index_of(e, sub, rank);
            rank += 1;
            if written[i] && table[i].0 != attacks {
                panic!("magic collision in the slider attack table");
            }
            written[i] = true;
            table[i] = Bitboard(attacks);
            sub = sub.wrapping_sub(e.mask) & e.mask;
            if sub == 0 {
                break;
            }
        }
        sq += 1;
    }
    table
}

#[allow(long_running_const_eval)]
static ROOK_TABLE: [Bitboard; ROOK_SIZE] = fill(&ROOK_ENTRIES.0, &ROOK_DIRS);
#[allow(long_running_const_eval)]
static BISHOP_TABLE: [Bitboard; BISHOP_SIZE] = fill(&BISHOP_ENTRIES.0, &BISHOP_DIRS);

#[cfg(all(feature = "pext", not(target_feature = "bmi2")))]
compile_error!(
    "the `pext` feature needs a BMI2 target: build with RUSTFLAGS='-C target-feature=+bmi2' or '-C target-cpu=native'"
);

#[inline(always)]
fn lookup(table: &[Bitboard], e: &Entry, occupied: Bitboard) -> Bitboard {
    #[cfg(cutoff_pext)]
    // SAFETY: `_pext_u64` needs the BMI2 instruction set. `build.rs` sets `cutoff_pext` only
    // when BMI2 is enabled for the whole build (`target_feature = "bmi2"`), so every CPU this
    // binary is built for has it. Measured gain: see docs/benchmarks.md (PEXT).
    let index = unsafe { core::arch::x86_64::_pext_u64(occupied.0, e.mask) } as usize;
    #[cfg(not(cutoff_pext))]
    let index = ((occupied.0 & e.mask).wrapping_mul(e.magic) >> e.shift) as usize;
    table[e.offset as usize + index]
}

/// The squares a rook on `sq` attacks, given the occupied squares.
///
/// ```
/// use cutoff_board::{attacks, Bitboard, Board, Square};
/// assert_eq!(attacks::rook(Square::A1, Bitboard::EMPTY).len(), 14);
/// // Attacks stop at, and include, the first piece in each direction, of either colour.
/// let occupied = Board::default().occupied();
/// assert_eq!(attacks::rook(Square::D1, occupied), Square::C1.bitboard() | Square::E1 | Square::D2);
/// assert_eq!(attacks::rook(Square::D4, occupied).len(), 7 + 5); // the 4th rank; d2, d3, d5, d6, d7
/// ```
#[inline(always)]
pub fn rook(sq: Square, occupied: Bitboard) -> Bitboard {
    lookup(&ROOK_TABLE, &ROOK_ENTRIES.0[sq as usize], occupied)
}

/// The squares a bishop on `sq` attacks, given the occupied squares.
///
/// ```
/// use cutoff_board::{attacks, Bitboard, Board, Square};
/// assert_eq!(attacks::bishop(Square::D4, Bitboard::EMPTY).len(), 13);
/// let occupied = Board::default().occupied();
/// assert_eq!(attacks::bishop(Square::C1, occupied), Square::B2.bitboard() | Square::D2);
/// ```
#[inline(always)]
pub fn bishop(sq: Square, occupied: Bitboard) -> Bitboard {
    lookup(&BISHOP_TABLE, &BISHOP_ENTRIES.0[sq as usize], occupied)
}

/// The squares a queen on `sq` attacks, given the occupied squares.
///
/// ```
/// use cutoff_board::{attacks, Bitboard, Board, Square};
/// assert_eq!(attacks::queen(Square::D4, Bitboard::EMPTY).len(), 27);
/// let occupied = Board::default().occupied();
/// let (rook, bishop) = (attacks::rook(Square::D1, occupied), attacks::bishop(Square::D1, occupied));
/// assert_eq!(attacks::queen(Square::D1, occupied), rook | bishop);
/// assert_eq!(attacks::queen(Square::D1, occupied).len(), 5); // c1, e1, c2, d2, e2
/// ```
#[inline(always)]
pub fn queen(sq: Square, occupied: Bitboard) -> Bitboard {
    rook(sq, occupied) | bishop(sq, occupied)
}
