//! The Syzygy file format: header parsing, index encoding and the decompression of one value.
//!
//! The layout and the algorithms follow Ronald de Man's format as implemented by Fathom and
//! Pyrrhic (MIT). Every read is bounds-checked: a truncated or corrupt file gives an error
//! when it is loaded, or `None` from a probe, never a panic or an out-of-bounds read.

use crate::TableError;

/// Magic numbers at the start of a WDL and a DTZ file.
pub(crate) const WDL_MAGIC: [u8; 4] = [0x71, 0xe8, 0x23, 0x5d];
pub(crate) const DTZ_MAGIC: [u8; 4] = [0xd7, 0x66, 0x0c, 0xa5];

/// Which kind of table a file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Wdl,
    Dtz,
}

#[rustfmt::skip]
const OFF_DIAG: [i8; 64] = [
    0, -1, -1, -1, -1, -1, -1, -1,
    1,  0, -1, -1, -1, -1, -1, -1,
    1,  1,  0, -1, -1, -1, -1, -1,
    1,  1,  1,  0, -1, -1, -1, -1,
    1,  1,  1,  1,  0, -1, -1, -1,
    1,  1,  1,  1,  1,  0, -1, -1,
    1,  1,  1,  1,  1,  1,  0, -1,
    1,  1,  1,  1,  1,  1,  1,  0,
];

#[rustfmt::skip]
const TRIANGLE: [u8; 64] = [
    6, 0, 1, 2, 2, 1, 0, 6,
    0, 7, 3, 4, 4, 3, 7, 0,
    1, 3, 8, 5, 5, 8, 3, 1,
    2, 4, 5, 9, 9, 5, 4, 2,
    2, 4, 5, 9, 9, 5, 4, 2,
    1, 3, 8, 5, 5, 8, 3, 1,
    0, 7, 3, 4, 4, 3, 7, 0,
    6, 0, 1, 2, 2, 1, 0, 6,
];

#[rustfmt::skip]
const FLIP_DIAG: [u8; 64] = [
    0,  8, 16, 24, 32, 40, 48, 56,
    1,  9, 17, 25, 33, 41, 49, 57,
    2, 10, 18, 26, 34, 42, 50, 58,
    3, 11, 19, 27, 35, 43, 51, 59,
    4, 12, 20, 28, 36, 44, 52, 60,
    5, 13, 21, 29, 37, 45, 53, 61,
    6, 14, 22, 30, 38, 46, 54, 62,
    7, 15, 23, 31, 39, 47, 55, 63,
];

#[rustfmt::skip]
const LOWER: [u8; 64] = [
    28,  0,  1,  2,  3,  4,  5,  6,
     0, 29,  7,  8,  9, 10, 11, 12,
     1,  7, 30, 13, 14, 15, 16, 17,
     2,  8, 13, 31, 18, 19, 20, 21,
     3,  9, 14, 18, 32, 22, 23, 24,
     4, 10, 15, 19, 22, 33, 25, 26,
     5, 11, 16, 20, 23, 25, 34, 27,
     6, 12, 17, 21, 24, 26, 27, 35,
];

#[rustfmt::skip]
const DIAG: [u8; 64] = [
     0,  0,  0,  0,  0,  0,  0,  8,
     0,  1,  0,  0,  0,  0,  9,  0,
     0,  0,  2,  0,  0, 10,  0,  0,
     0,  0,  0,  3, 11,  0,  0,  0,
     0,  0,  0, 12,  4,  0,  0,  0,
     0,  0, 13,  0,  0,  5,  0,  0,
     0, 14,  0,  0,  0,  0,  6,  0,
    15,  0,  0,  0,  0,  0,  0,  7,
];

#[rustfmt::skip]
const FLAP: [u8; 64] = [
    0,  0,  0,  0,  0,  0,  0, 0,
    0,  6, 12, 18, 18, 12,  6, 0,
    1,  7, 13, 19, 19, 13,  7, 1,
    2,  8, 14, 20, 20, 14,  8, 2,
    3,  9, 15, 21, 21, 15,  9, 3,
    4, 10, 16, 22, 22, 16, 10, 4,
    5, 11, 17, 23, 23, 17, 11, 5,
    0,  0,  0,  0,  0,  0,  0, 0,
];

#[rustfmt::skip]
const PAWN_TWIST: [u8; 64] = [
     0,  0,  0,  0,  0,  0,  0,  0,
    47, 35, 23, 11, 10, 22, 34, 46,
    45, 33, 21,  9,  8, 20, 32, 44,
    43, 31, 19,  7,  6, 18, 30, 42,
    41, 29, 17,  5,  4, 16, 28, 40,
    39, 27, 15,  3,  2, 14, 26, 38,
    37, 25, 13,  1,  0, 12, 24, 36,
     0,  0,  0,  0,  0,  0,  0,  0,
];

/// The index of the two kings in the 462 placements of a pawnless table with no other unique
/// piece (`-1`: not a canonical placement), by the first king's triangle index.
#[rustfmt::skip]
const KK_IDX: [[i16; 64]; 10] = [
    [ -1, -1, -1,  0,  1,  2,  3,  4, -1, -1, -1,  5,  6,  7,  8,  9,
      10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
      26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41,
      42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57 ],
    [ 58, -1, -1, -1, 59, 60, 61, 62, 63, -1, -1, -1, 64, 65, 66, 67,
      68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83,
      84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99,
     100,101,102,103,104,105,106,107,108,109,110,111,112,113,114,115 ],
    [116,117, -1, -1, -1,118,119,120,121,122, -1, -1, -1,123,124,125,
     126,127,128,129,130,131,132,133,134,135,136,137,138,139,140,141,
     142,143,144,145,146,147,148,149,150,151,152,153,154,155,156,157,
     158,159,160,161,162,163,164,165,166,167,168,169,170,171,172,173 ],
    [174, -1, -1, -1,175,176,177,178,179, -1, -1, -1,180,181,182,183,
     184, -1, -1, -1,185,186,187,188,189,190,191,192,193,194,195,196,
     197,198,199,200,201,202,203,204,205,206,207,208,209,210,211,212,
     213,214,215,216,217,218,219,220,221,222,223,224,225,226,227,228 ],
    [229,230, -1, -1, -1,231,232,233,234,235, -1, -1, -1,236,237,238,
     239,240, -1, -1, -1,241,242,243,244,245,246,247,248,249,250,251,
     252,253,254,255,256,257,258,259,260,261,262,263,264,265,266,267,
     268,269,270,271,272,273,274,275,276,277,278,279,280,281,282,283 ],
    [284,285,286,287,288,289,290,291,292,293, -1, -1, -1,294,295,296,
     297,298, -1, -1, -1,299,300,301,302,303, -1, -1, -1,304,305,306,
     307,308,309,310,311,312,313,314,315,316,317,318,319,320,321,322,
     323,324,325,326,327,328,329,330,331,332,333,334,335,336,337,338 ],
    [ -1, -1,339,340,341,342,343,344, -1, -1,345,346,347,348,349,350,
      -1, -1,441,351,352,353,354,355, -1, -1, -1,442,356,357,358,359,
      -1, -1, -1, -1,443,360,361,362, -1, -1, -1, -1, -1,444,363,364,
      -1, -1, -1, -1, -1, -1,445,365, -1, -1, -1, -1, -1, -1, -1,446 ],
    [ -1, -1, -1,366,367,368,369,370, -1, -1, -1,371,372,373,374,375,
      -1, -1, -1,376,377,378,379,380, -1, -1, -1,447,381,382,383,384,
      -1, -1, -1, -1,448,385,386,387, -1, -1, -1, -1, -1,449,388,389,
      -1, -1, -1, -1, -1, -1,450,390, -1, -1, -1, -1, -1, -1, -1,451 ],
    [452,391,392,393,394,395,396,397, -1, -1, -1, -1,398,399,400,401,
      -1, -1, -1, -1,402,403,404,405, -1, -1, -1, -1,406,407,408,409,
      -1, -1, -1, -1,453,410,411,412, -1, -1, -1, -1, -1,454,413,414,
      -1, -1, -1, -1, -1, -1,455,415, -1, -1, -1, -1, -1, -1, -1,456 ],
    [457,416,417,418,419,420,421,422, -1,458,423,424,425,426,427,428,
      -1, -1, -1, -1, -1,429,430,431, -1, -1, -1, -1, -1,432,433,434,
      -1, -1, -1, -1, -1,435,436,437, -1, -1, -1, -1, -1,459,438,439,
      -1, -1, -1, -1, -1, -1,460,440, -1, -1, -1, -1, -1, -1, -1,461 ],
];

const FILE_TO_FILE: [u8; 8] = [0, 1, 2, 3, 3, 2, 1, 0];
const WDL_TO_MAP: [usize; 5] = [1, 3, 0, 2, 0];
const PA_FLAGS: [u8; 5] = [8, 0, 0, 0, 4];

/// Binomial coefficients, the pawn index tables and the pawn factors, computed once.
struct Indices {
    binomial: [[u64; 64]; 7],
    pawn_idx: [[u64; 24]; 6],
    pawn_factor: [[u64; 4]; 6],
}

const fn compute_indices() -> Indices {
    let mut binomial = [[0u64; 64]; 7];
    let mut i = 0;
    while i < 7 {
        let mut j = 0;
        while j < 64 {
            let mut f: u64 = 1;
            let mut l: u64 = 1;
            let mut k = 0;
            while k < i {
                f = f.wrapping_mul((j as u64).wrapping_sub(k as u64));
                l *= k as u64 + 1;
                k += 1;
            }
            binomial[i][j] = f / l;
            j += 1;
        }
        i += 1;
    }
    let mut pawn_idx = [[0u64; 24]; 6];
    let mut pawn_factor = [[0u64; 4]; 6];
    let mut i = 0;
    while i < 6 {
        let mut s: u64 = 0;
        let mut j = 0;
        while j < 24 {
            pawn_idx[i][j] = s;
            s = s.wrapping_add(binomial[i][PAWN_TWIST[(1 + j % 6) * 8 + j / 6] as usize]);
            if (j + 1) % 6 == 0 {
                pawn_factor[i][j / 6] = s;
                s = 0;
            }
            j += 1;
        }
        i += 1;
    }
    Indices { binomial, pawn_idx, pawn_factor }
}

static INDICES: Indices = compute_indices();

/// The material of a table, from its file name (`KQvKR`): piece codes as in the files
/// (white 1..=6 for pawn..king, black 9..=14).
#[derive(Clone, Debug)]
pub(crate) struct Material {
    /// Number of pieces, kings included.
    pub num: usize,
    /// White and black are the same material (`KRvKR`).
    pub symmetric: bool,
    pub has_pawns: bool,
    /// Pawnless with exactly two unique pieces (the kings): the 462-placement encoding.
    pub kk_enc: bool,
    /// Pawns of the leading colour and of the other colour (pawn tables).
    pub pawns: [u8; 2],
}

impl Material {
    /// From the counts of each piece code (index 0..16).
    pub(crate) fn from_counts(pcs: &[u8; 16]) -> Material {
        let num = pcs.iter().map(|&c| c as usize).sum();
        let mirrored: [u8; 16] = core::array::from_fn(|i| pcs[i ^ 8]);
        let symmetric = *pcs == mirrored;
        let has_pawns = pcs[1] != 0 || pcs[9] != 0;
        let kk_enc = !has_pawns && pcs.iter().filter(|&&c| c == 1).count() == 2;
        let mut pawns = [pcs[1], pcs[9]];
        if pcs[9] != 0 && (pcs[1] == 0 || pcs[1] > pcs[9]) {
            pawns.swap(0, 1);
        }
        Material { num, symmetric, has_pawns, kk_enc, pawns }
    }
}

/// Where one sub-table's compressed data is, and how to decode it.
#[derive(Clone, Debug, Default)]
struct PairsData {
    index_table: usize,
    size_table: usize,
    data: usize,
    /// Byte offset of the `offset` array (one `u16` per code length from `min_len`).
    offset: usize,
    sym_pat: usize,
    sym_len: Vec<u8>,
    base: Vec<u64>,
    block_size: u8,
    idx_bits: u8,
    min_len: u8,
    const_value: [u8; 2],
}

/// The encoding of one sub-table: piece order, grouping and index factors.
#[derive(Clone, Debug, Default)]
struct EncInfo {
    precomp: PairsData,
    factor: [u64; 7],
    pieces: [u8; 7],
    norm: [u8; 7],
}

/// One loaded table file (WDL or DTZ) of one material.
#[derive(Debug)]
pub(crate) struct Table {
    data: Vec<u8>,
    kind: Kind,
    /// Sub-tables: index `t + num * bside` (`t`: leading-pawn file 0..4 for pawn tables).
    ei: Vec<EncInfo>,
    num_tables: usize,
    split: bool,
    dtz_flags: [u8; 4],
    /// Absolute byte positions of the four DTZ value maps of each sub-table.
    dtz_map: [[usize; 4]; 4],
}

fn err(reason: &'static str) -> TableError {
    TableError::Corrupt(reason)
}

fn byte(data: &[u8], pos: usize) -> Result<u8, TableError> {
    data.get(pos).copied().ok_or(TableError::Truncated)
}

fn u16_le(data: &[u8], pos: usize) -> Option<u16> {
    let b = data.get(pos..pos.checked_add(2)?)?;
    Some(u16::from_le_bytes([b[0], b[1]]))
}

fn u32_le(data: &[u8], pos: usize) -> Option<u32> {
    let b = data.get(pos..pos.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

fn u32_be(data: &[u8], pos: usize) -> Option<u32> {
    let b = data.get(pos..pos.checked_add(4)?)?;
    Some(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
}

fn subfactor(k: u64, n: u64) -> u64 {
    let mut f = n;
    let mut l = 1u64;
    for i in 1..k {
        f = f.wrapping_mul(n.wrapping_sub(i));
        l *= i + 1;
    }
    f / l
}

impl Table {
    /// Parses a whole table file. `Err` for a wrong magic number, a truncated file or a header
    /// that does not describe a valid table.
    pub(crate) fn parse(data: Vec<u8>, kind: Kind, mat: &Material) -> Result<Table, TableError> {
        let magic = if kind == Kind::Wdl { WDL_MAGIC } else { DTZ_MAGIC };
        if data.len() < 5 {
            return Err(TableError::Truncated);
        }
        if data[..4] != magic {
            return Err(TableError::BadMagic);
        }
        if mat.num > 7 || mat.num < 2 {
            return Err(err("unsupported number of pieces"));
        }
        let split = kind == Kind::Wdl && data[4] & 1 != 0;
        let num_tables = if mat.has_pawns { 4 } else { 1 };
        let sides = if split { 2 } else { 1 };
        let mut ei = vec![EncInfo::default(); num_tables * sides];
        let mut pos = 5usize;
        let mut tb_size = [[0u64; 2]; 4];
        let step = mat.num + 1 + usize::from(mat.has_pawns && mat.pawns[1] != 0);
        for t in 0..num_tables {
            tb_size[t][0] = init_enc_info(&mut ei[t], mat, &data, pos, 0, t)?;
            if split {
                tb_size[t][1] = init_enc_info(&mut ei[num_tables + t], mat, &data, pos, 4, t)?;
            }
            pos += step;
        }
        pos += pos & 1;
        let mut sizes = [[[0u64; 3]; 2]; 4];
        let mut dtz_flags = [0u8; 4];
        for t in 0..num_tables {
            let (pairs, flags, size) = setup_pairs(&data, &mut pos, tb_size[t][0], kind)?;
            ei[t].precomp = pairs;
            sizes[t][0] = size;
            if kind == Kind::Dtz {
                dtz_flags[t] = flags;
            }
            if split {
                let (pairs, _, size) = setup_pairs(&data, &mut pos, tb_size[t][1], kind)?;
                ei[num_tables + t].precomp = pairs;
                sizes[t][1] = size;
            }
        }
        let mut dtz_map = [[0usize; 4]; 4];
        if kind == Kind::Dtz {
            for t in 0..num_tables {
                if dtz_flags[t] & 2 != 0 {
                    if dtz_flags[t] & 16 == 0 {
                        for slot in &mut dtz_map[t] {
                            *slot = pos + 1;
                            pos += 1 + usize::from(byte(&data, pos)?);
                        }
                    } else {
                        pos += pos & 1;
                        for slot in &mut dtz_map[t] {
                            *slot = pos + 2;
                            let len = u16_le(&data, pos).ok_or(TableError::Truncated)?;
                            pos += 2 + 2 * usize::from(len);
                        }
                    }
                }
            }
            pos += pos & 1;
        }
        let to_usize = |v: u64| usize::try_from(v).map_err(|_| err("table too large"));
        for t in 0..num_tables {
            for side in 0..sides {
                ei[side * num_tables + t].precomp.index_table = pos;
                pos = pos.checked_add(to_usize(sizes[t][side][0])?).ok_or(err("size overflow"))?;
            }
        }
        for t in 0..num_tables {
            for side in 0..sides {
                ei[side * num_tables + t].precomp.size_table = pos;
                pos = pos.checked_add(to_usize(sizes[t][side][1])?).ok_or(err("size overflow"))?;
            }
        }
        for t in 0..num_tables {
            for side in 0..sides {
                pos = pos.checked_add(0x3f).ok_or(err("size overflow"))? & !0x3f;
                ei[side * num_tables + t].precomp.data = pos;
                pos = pos.checked_add(to_usize(sizes[t][side][2])?).ok_or(err("size overflow"))?;
            }
        }
        if pos > data.len() {
            return Err(TableError::Truncated);
        }
        Ok(Table { data, kind, ei, num_tables, split, dtz_flags, dtz_map })
    }

    /// The value of a position: the WDL value (-2..=2), or the DTZ value for a position whose
    /// WDL value is `wdl`, or [`Probed::OtherSide`] when the DTZ table stores only the other
    /// side to move. `None` when the data cannot be decoded (corrupt table).
    pub(crate) fn probe(&self, mat: &Material, pos: &crate::probe::Placement, wdl: i32) -> Option<Probed> {
        let bside = usize::from(pos.bside);
        let mut p = [0usize; 7];
        let n = mat.num;
        let (ei, t, flags) = if !mat.has_pawns {
            let flags = self.dtz_flags[0];
            if self.kind == Kind::Dtz && usize::from(flags & 1) != bside && !mat.symmetric {
                return Some(Probed::OtherSide);
            }
            let ei = self.sub_table(0, bside)?;
            pos.fill(&ei.pieces[..n], &mut p[..n], false)?;
            (ei, 0, flags)
        } else {
            let first = &self.ei[0];
            let lead = usize::from(mat.pawns[0]);
            pos.fill(&first.pieces[..lead], &mut p[..lead], true)?;
            for i in 1..lead {
                if FLAP[p[0]] > FLAP[p[i]] {
                    p.swap(0, i);
                }
            }
            let t = usize::from(FILE_TO_FILE[p[0] & 7]);
            let flags = self.dtz_flags[t];
            if self.kind == Kind::Dtz && usize::from(flags & 1) != bside && !mat.symmetric {
                return Some(Probed::OtherSide);
            }
            let ei = self.sub_table(t, bside)?;
            pos.fill(&ei.pieces[lead..n], &mut p[lead..n], true)?;
            (ei, t, flags)
        };
        let idx = encode(&mut p[..n], ei, mat)?;
        let w = self.decompress(&ei.precomp, idx)?;
        if self.kind == Kind::Wdl {
            return Some(Probed::Value(i32::from(w[0]) - 2));
        }
        let mut v = usize::from(w[0]) + (usize::from(w[1] & 0xf) << 8);
        let s = usize::try_from(wdl + 2).ok().filter(|&s| s < 5)?;
        if flags & 2 != 0 {
            let m = WDL_TO_MAP[s];
            let base = self.dtz_map[t][m];
            v = if flags & 16 == 0 {
                usize::from(*self.data.get(base.checked_add(v)?)?)
            } else {
                usize::from(u16_le(&self.data, base.checked_add(v.checked_mul(2)?)?)?)
            };
        }
        let mut v = i32::try_from(v).ok()?;
        if flags & PA_FLAGS[s] == 0 || wdl & 1 != 0 {
            v *= 2;
        }
        Some(Probed::Value(v))
    }

    /// The sub-table for leading-pawn file `t` and side `bside` (WDL tables may store the two
    /// sides to move separately; a DTZ table stores one).
    fn sub_table(&self, t: usize, bside: usize) -> Option<&EncInfo> {
        match (self.kind, self.split, bside) {
            (Kind::Wdl, true, _) => self.ei.get(t + self.num_tables * bside),
            (Kind::Wdl, false, 1) => None,
            _ => self.ei.get(t),
        }
    }

    /// Decodes the symbol at index `idx` of a sub-table: its first two bytes.
    fn decompress(&self, d: &PairsData, idx: u64) -> Option<[u8; 2]> {
        let data = &self.data;
        if d.idx_bits == 0 {
            return Some(d.const_value);
        }
        let idx_bits = u32::from(d.idx_bits);
        let main_idx = usize::try_from(idx >> idx_bits).ok()?;
        let mut lit_idx: i64 = (idx & ((1u64 << idx_bits) - 1)) as i64 - (1i64 << (idx_bits - 1));
        let entry = d.index_table.checked_add(main_idx.checked_mul(6)?)?;
        let mut block = u64::from(u32_le(data, entry)?);
        lit_idx += i64::from(u16_le(data, entry + 4)?);
        let size_of = |block: u64| -> Option<i64> {
            let pos = d.size_table.checked_add(usize::try_from(block).ok()?.checked_mul(2)?)?;
            Some(i64::from(u16_le(data, pos)?))
        };
        while lit_idx < 0 {
            block = block.checked_sub(1)?;
            lit_idx += size_of(block)? + 1;
        }
        loop {
            let size = size_of(block)?;
            if lit_idx <= size {
                break;
            }
            lit_idx -= size + 1;
            block += 1;
        }
        let mut ptr = d.data.checked_add(usize::try_from(block).ok()?.checked_shl(u32::from(d.block_size))?)?;
        let m = usize::from(d.min_len);
        let hi = u64::from(u32_be(data, ptr)?);
        let lo = u64::from(u32_be(data, ptr + 4)?);
        let mut code = (hi << 32) | lo;
        ptr += 8;
        let mut bit_cnt = 0u32;
        let mut sym;
        loop {
            let mut l = 0usize;
            while code < *d.base.get(l)? {
                l += 1;
            }
            let len = (l + m) as u32;
            sym = usize::from(u16_le(data, d.offset + 2 * l)?) + ((code - d.base[l]) >> (64 - len)) as usize;
            let sl = i64::from(*d.sym_len.get(sym)?);
            if lit_idx < sl + 1 {
                break;
            }
            lit_idx -= sl + 1;
            code <<= len;
            bit_cnt += len;
            if bit_cnt >= 32 {
                bit_cnt -= 32;
                let tmp = u64::from(u32_be(data, ptr)?);
                ptr += 4;
                code |= tmp << bit_cnt;
            }
        }
        while d.sym_len[sym] != 0 {
            let w = d.sym_pat + 3 * sym;
            let (w0, w1, w2) = (data.get(w).copied()?, data.get(w + 1).copied()?, data.get(w + 2).copied()?);
            let s1 = (usize::from(w1 & 0xf) << 8) | usize::from(w0);
            let sl1 = i64::from(*d.sym_len.get(s1)?);
            if lit_idx < sl1 + 1 {
                sym = s1;
            } else {
                lit_idx -= sl1 + 1;
                sym = (usize::from(w2) << 4) | usize::from(w1 >> 4);
            }
            if sym >= d.sym_len.len() {
                return None;
            }
        }
        let w = d.sym_pat + 3 * sym;
        Some([data.get(w).copied()?, data.get(w + 1).copied()?])
    }
}

/// What a table gives for a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Probed {
    Value(i32),
    /// A DTZ table stores one side to move only; this position has the other.
    OtherSide,
}

fn init_enc_info(
    ei: &mut EncInfo,
    mat: &Material,
    data: &[u8],
    pos: usize,
    shift: u32,
    t: usize,
) -> Result<u64, TableError> {
    let n = mat.num;
    let more_pawns = mat.has_pawns && mat.pawns[1] > 0;
    for i in 0..n {
        let code = (byte(data, pos + i + 1 + usize::from(more_pawns))? >> shift) & 0xf;
        if !matches!(code, 1..=6 | 9..=14) {
            return Err(err("bad piece code"));
        }
        ei.pieces[i] = code;
        ei.norm[i] = 0;
    }
    let order = usize::from((byte(data, pos)? >> shift) & 0xf);
    let order2 = if more_pawns { usize::from((byte(data, pos + 1)? >> shift) & 0xf) } else { 0xf };
    ei.norm[0] = if mat.has_pawns {
        mat.pawns[0]
    } else if mat.kk_enc {
        2
    } else {
        3
    };
    let mut k = usize::from(ei.norm[0]);
    if more_pawns {
        ei.norm[k] = mat.pawns[1];
        k += usize::from(ei.norm[k]);
    }
    let mut i = k;
    while i < n {
        let mut j = i;
        while j < n && ei.pieces[j] == ei.pieces[i] {
            ei.norm[i] += 1;
            j += 1;
        }
        i += usize::from(ei.norm[i]);
    }
    let mut free = 64 - k as u64;
    let mut f: u64 = 1;
    let mut i = 0;
    let overflow = || err("index overflow");
    while k < n || i == order || i == order2 {
        if i == order {
            ei.factor[0] = f;
            let mul = if mat.has_pawns {
                let norm0 = usize::from(ei.norm[0]);
                if norm0 == 0 || norm0 > 6 {
                    return Err(err("bad pawn count"));
                }
                INDICES.pawn_factor[norm0 - 1][t]
            } else if mat.kk_enc {
                462
            } else {
                31332
            };
            f = f.checked_mul(mul).ok_or_else(overflow)?;
        } else if i == order2 {
            let norm0 = usize::from(ei.norm[0]);
            ei.factor[norm0] = f;
            f = f.checked_mul(subfactor(u64::from(ei.norm[norm0]), 48 - norm0 as u64)).ok_or_else(overflow)?;
        } else {
            ei.factor[k] = f;
            f = f.checked_mul(subfactor(u64::from(ei.norm[k]), free)).ok_or_else(overflow)?;
            free -= u64::from(ei.norm[k]);
            k += usize::from(ei.norm[k]);
        }
        i += 1;
        if i > 16 {
            return Err(err("bad piece order"));
        }
    }
    Ok(f)
}

/// Reads the Huffman set-up of one sub-table at `*pos`, advancing it. Returns the decoder, the
/// flags byte, and the sizes of its index table, size table and data.
fn setup_pairs(
    data: &[u8],
    pos: &mut usize,
    tb_size: u64,
    kind: Kind,
) -> Result<(PairsData, u8, [u64; 3]), TableError> {
    let d = *pos;
    let flags = byte(data, d)?;
    if flags & 0x80 != 0 {
        let value = if kind == Kind::Wdl { byte(data, d + 1)? } else { 0 };
        *pos = d + 2;
        let pairs = PairsData { idx_bits: 0, const_value: [value, 0], ..PairsData::default() };
        return Ok((pairs, flags, [0; 3]));
    }
    let block_size = byte(data, d + 1)?;
    let idx_bits = byte(data, d + 2)?;
    let real_num_blocks = u32_le(data, d + 4).ok_or(TableError::Truncated)?;
    let num_blocks = u64::from(real_num_blocks) + u64::from(byte(data, d + 3)?);
    let max_len = byte(data, d + 8)?;
    let min_len = byte(data, d + 9)?;
    if min_len == 0 || max_len < min_len || max_len > 32 {
        return Err(err("bad code lengths"));
    }
    if idx_bits == 0 || idx_bits > 40 || block_size > 32 {
        return Err(err("bad block parameters"));
    }
    let h = usize::from(max_len - min_len) + 1;
    let num_syms = usize::from(u16_le(data, d + 10 + 2 * h).ok_or(TableError::Truncated)?);
    if num_syms >= 4096 {
        return Err(err("too many symbols"));
    }
    let offset = d + 10;
    let sym_pat = d + 12 + 2 * h;
    if data.len() < sym_pat + 3 * num_syms {
        return Err(TableError::Truncated);
    }
    *pos = sym_pat + 3 * num_syms + (num_syms & 1);
    let num_indices = (tb_size + (1u64 << idx_bits) - 1) >> idx_bits;
    let sizes = [
        6u64.checked_mul(num_indices).ok_or(err("size overflow"))?,
        2 * num_blocks,
        u64::from(real_num_blocks) << block_size,
    ];
    let sym_len = sym_lengths(data, sym_pat, num_syms)?;
    // base[l - min_len]: the smallest left-aligned code of length l.
    let mut base = vec![0u64; h];
    let off = |i: usize| u64::from(u16_le(data, offset + 2 * i).unwrap_or(0));
    for i in (0..h - 1).rev() {
        base[i] = base[i + 1].wrapping_add(off(i)).wrapping_sub(off(i + 1)) / 2;
    }
    for (i, b) in base.iter_mut().enumerate() {
        *b <<= 64 - (u32::from(min_len) + i as u32);
    }
    let pairs = PairsData { offset, sym_pat, sym_len, base, block_size, idx_bits, min_len, ..PairsData::default() };
    Ok((pairs, flags, sizes))
}

/// The length (in values, minus one) of every symbol: a symbol is a value or a pair of two
/// earlier symbols. Iterative, and a cycle (only in a corrupt file) is an error.
fn sym_lengths(data: &[u8], sym_pat: usize, num_syms: usize) -> Result<Vec<u8>, TableError> {
    const UNSEEN: u8 = 0;
    const ACTIVE: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![UNSEEN; num_syms];
    let mut len = vec![0u8; num_syms];
    let children = |s: usize| -> Option<(usize, usize)> {
        let w = sym_pat + 3 * s;
        let (w0, w1, w2) = (data[w], data[w + 1], data[w + 2]);
        let s2 = (usize::from(w2) << 4) | usize::from(w1 >> 4);
        if s2 == 0xfff {
            return None;
        }
        Some(((usize::from(w1 & 0xf) << 8) | usize::from(w0), s2))
    };
    for root in 0..num_syms {
        if state[root] == DONE {
            continue;
        }
        let mut stack = vec![root];
        while let Some(&s) = stack.last() {
            match children(s) {
                None => {
                    len[s] = 0;
                    state[s] = DONE;
                    stack.pop();
                }
                Some((s1, s2)) => {
                    if s1 >= num_syms || s2 >= num_syms {
                        return Err(err("bad symbol"));
                    }
                    state[s] = ACTIVE;
                    let mut pending = false;
                    for c in [s1, s2] {
                        match state[c] {
                            DONE => {}
                            ACTIVE => return Err(err("symbol cycle")),
                            _ => {
                                stack.push(c);
                                pending = true;
                            }
                        }
                    }
                    if !pending {
                        len[s] = len[s1]
                            .checked_add(len[s2])
                            .and_then(|v| v.checked_add(1))
                            .ok_or(err("symbol too long"))?;
                        state[s] = DONE;
                        stack.pop();
                    }
                }
            }
        }
    }
    Ok(len)
}

/// The index of a placement `p` (squares in the sub-table's piece order) in its sub-table.
fn encode(p: &mut [usize], ei: &EncInfo, mat: &Material) -> Option<u64> {
    let n = mat.num;
    let ix = &INDICES;
    if p[0] & 0x4 != 0 {
        for sq in p.iter_mut() {
            *sq ^= 0x7;
        }
    }
    let mut idx: u64;
    let mut k: usize;
    if !mat.has_pawns {
        if p[0] & 0x20 != 0 {
            for sq in p.iter_mut() {
                *sq ^= 0x38;
            }
        }
        let unique = if mat.kk_enc { 2 } else { 3 };
        for i in 0..n {
            if OFF_DIAG[p[i]] != 0 {
                if OFF_DIAG[p[i]] > 0 && i < unique {
                    for sq in p.iter_mut() {
                        *sq = usize::from(FLIP_DIAG[*sq]);
                    }
                }
                break;
            }
        }
        if mat.kk_enc {
            idx = u64::try_from(KK_IDX[usize::from(TRIANGLE[p[0]])][p[1]]).ok()?;
            k = 2;
        } else {
            let s1 = usize::from(p[1] > p[0]);
            let s2 = usize::from(p[2] > p[0]) + usize::from(p[2] > p[1]);
            let t = |sq: usize| usize::from(TRIANGLE[sq]);
            let dg = |sq: usize| usize::from(DIAG[sq]);
            let lw = |sq: usize| usize::from(LOWER[sq]);
            let v = if OFF_DIAG[p[0]] != 0 {
                t(p[0]) * 63 * 62 + (p[1] - s1) * 62 + (p[2] - s2)
            } else if OFF_DIAG[p[1]] != 0 {
                6 * 63 * 62 + dg(p[0]) * 28 * 62 + lw(p[1]) * 62 + p[2] - s2
            } else if OFF_DIAG[p[2]] != 0 {
                6 * 63 * 62 + 4 * 28 * 62 + dg(p[0]) * 7 * 28 + (dg(p[1]).checked_sub(s1)?) * 28 + lw(p[2])
            } else {
                6 * 63 * 62
                    + 4 * 28 * 62
                    + 4 * 7 * 28
                    + dg(p[0]) * 7 * 6
                    + (dg(p[1]).checked_sub(s1)?) * 6
                    + (dg(p[2]).checked_sub(s2)?)
            };
            idx = v as u64;
            k = 3;
        }
        idx = idx.wrapping_mul(ei.factor[0]);
    } else {
        let lead = usize::from(mat.pawns[0]);
        for i in 1..lead {
            for j in i + 1..lead {
                if PAWN_TWIST[p[i]] < PAWN_TWIST[p[j]] {
                    p.swap(i, j);
                }
            }
        }
        k = lead;
        idx = ix.pawn_idx[k - 1][usize::from(FLAP[p[0]])];
        for i in 1..k {
            idx = idx.wrapping_add(ix.binomial[k - i][usize::from(PAWN_TWIST[p[i]])]);
        }
        idx = idx.wrapping_mul(ei.factor[0]);
        if mat.pawns[1] != 0 {
            let t = k + usize::from(mat.pawns[1]);
            p[k..t].sort_unstable();
            let mut s: u64 = 0;
            for i in k..t {
                let sq = p[i];
                let skips = p[..k].iter().filter(|&&q| sq > q).count();
                s = s.wrapping_add(ix.binomial[i - k + 1][(sq - skips).checked_sub(8)?]);
            }
            idx = idx.wrapping_add(s.wrapping_mul(ei.factor[k]));
            k = t;
        }
    }
    while k < n {
        let t = k + usize::from(ei.norm[k]);
        if t > n || t == k {
            return None;
        }
        p[k..t].sort_unstable();
        let mut s: u64 = 0;
        for i in k..t {
            let sq = p[i];
            let skips = p[..k].iter().filter(|&&q| sq > q).count();
            s = s.wrapping_add(ix.binomial[i - k + 1][sq - skips]);
        }
        idx = idx.wrapping_add(s.wrapping_mul(ei.factor[k]));
        k = t;
    }
    Some(idx)
}
