//! From piece squares to a sub-table index (`docs/syzygy-format.md`, section 4): the fixed
//! maps of the format, and the [`Layout`] of one sub-table (its piece order cut into groups,
//! each group's number of encodings and its stride in the index).

use crate::TableError;

/// No value in a square map.
const NONE: u8 = u8::MAX;
/// No value in the king-pair map.
const NO_PAIR: u16 = u16::MAX;

const fn file(sq: usize) -> usize {
    sq & 7
}
const fn rank(sq: usize) -> usize {
    sq >> 3
}
const fn on_diagonal(sq: usize) -> bool {
    file(sq) == rank(sq)
}
const fn below_diagonal(sq: usize) -> bool {
    rank(sq) < file(sq)
}
const fn above_diagonal(sq: usize) -> bool {
    rank(sq) > file(sq)
}

/// `BINOMIAL[k][n]` = C(n, k), for up to 7 pieces in a group and 64 squares.
const BINOMIAL: [[u64; 65]; 8] = {
    let mut t = [[0u64; 65]; 8];
    let mut n = 0;
    while n <= 64 {
        t[0][n] = 1;
        let mut k = 1;
        while k < 8 && n > 0 {
            t[k][n] = t[k - 1][n - 1] + t[k][n - 1];
            k += 1;
        }
        n += 1;
    }
    t
};

fn binomial(n: usize, k: usize) -> u64 {
    BINOMIAL.get(k).and_then(|row| row.get(n)).copied().unwrap_or(0)
}

/// The a1-d1-d4 triangle: b1 c1 d1 c2 d2 d3 are 0..5, the diagonal a1 b2 c3 d4 6..9.
const TRIANGLE: [u8; 64] = {
    let mut t = [NONE; 64];
    let mut code = 0;
    let mut sq = 0;
    while sq < 32 {
        if file(sq) < 4 && below_diagonal(sq) {
            t[sq] = code;
            code += 1;
        }
        sq += 1;
    }
    let mut d = 0;
    while d < 4 {
        t[d * 9] = code;
        code += 1;
        d += 1;
    }
    t
};

/// The 28 squares below the a1-h8 diagonal, numbered in board order (b1 = 0, h7 = 27).
const BELOW: [u8; 64] = {
    let mut t = [NONE; 64];
    let mut code = 0;
    let mut sq = 0;
    while sq < 64 {
        if below_diagonal(sq) {
            t[sq] = code;
            code += 1;
        }
        sq += 1;
    }
    t
};

const fn touching(a: usize, b: usize) -> bool {
    let df = file(a).abs_diff(file(b));
    let dr = rank(a).abs_diff(rank(b));
    df <= 1 && dr <= 1
}

/// The square whose triangle number is `t`.
const fn triangle_square(t: u8) -> usize {
    let mut sq = 0;
    while TRIANGLE[sq] != t {
        sq += 1;
    }
    sq
}

/// `KING_PAIRS[T(first)][second]`: the 462 placements of two kings (section 4.3).
const KING_PAIRS: [[u16; 64]; 10] = {
    let mut t = [[NO_PAIR; 64]; 10];
    let mut code = 0u16;
    // Pass 0 numbers every pair but those with both kings on the diagonal; pass 1 those.
    let mut pass = 0;
    while pass < 2 {
        let mut first = 0;
        while first < 10 {
            let s1 = triangle_square(first as u8);
            let mut s2 = 0;
            while s2 < 64 {
                let allowed = !touching(s1, s2) && !(on_diagonal(s1) && above_diagonal(s2));
                let both_diagonal = on_diagonal(s1) && on_diagonal(s2);
                if allowed && both_diagonal == (pass == 1) {
                    t[first][s2] = code;
                    code += 1;
                }
                s2 += 1;
            }
            first += 1;
        }
        pass += 1;
    }
    t
};

/// Pawn numbers a2..h7 → 47..0: files from the edges inward, ranks upward, a file before its
/// mirror. The leading pawn is the one with the largest number.
const PAWN_NUMBER: [u8; 64] = {
    let mut t = [NONE; 64];
    let mut next = 47u8;
    let mut f = 0;
    while f < 4 {
        let mut r = 1;
        while r < 7 {
            t[r * 8 + f] = next;
            t[r * 8 + 7 - f] = next - 1;
            next = next.wrapping_sub(2);
            r += 1;
        }
        f += 1;
    }
    t
};

/// Most pawns of one colour in a table (seven pieces, two kings).
const MAX_LEAD_PAWNS: usize = 5;

/// `(FIRST_INDEX[k][sq], LEAD_SIZE[k][file])` for `k` leading pawns: the encodings of the
/// leading pawn below `sq` on its file, and all of a file's.
const LEAD_TABLES: ([[u64; 64]; MAX_LEAD_PAWNS + 1], [[u64; 4]; MAX_LEAD_PAWNS + 1]) = {
    let mut first = [[0u64; 64]; MAX_LEAD_PAWNS + 1];
    let mut size = [[0u64; 4]; MAX_LEAD_PAWNS + 1];
    let mut k = 1;
    while k <= MAX_LEAD_PAWNS {
        let mut f = 0;
        while f < 4 {
            let mut acc = 0u64;
            let mut r = 1;
            while r < 7 {
                let sq = r * 8 + f;
                first[k][sq] = acc;
                acc += BINOMIAL[k - 1][PAWN_NUMBER[sq] as usize];
                r += 1;
            }
            size[k][f] = acc;
            f += 1;
        }
        k += 1;
    }
    (first, size)
};

/// How the leading group is encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lead {
    /// The leading pawns (pawn tables).
    Pawns,
    /// Three pieces, one of them unique (31332 encodings).
    Triple,
    /// The two kings (462 encodings).
    Kings,
}

/// One group of the piece order after the leading group.
#[derive(Clone, Copy, Debug, Default)]
struct Group {
    start: u8,
    len: u8,
    stride: u64,
}

/// The index layout of one sub-table.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    /// Piece codes in the order the index encodes them.
    pub(crate) pieces: Vec<u8>,
    lead: Lead,
    lead_len: usize,
    lead_stride: u64,
    /// The groups after the leading one; the first is the second pawn group when both
    /// colours have pawns (`second_pawns`).
    rest: Vec<Group>,
    second_pawns: bool,
    /// Number of indices.
    pub(crate) size: u64,
}

fn is_pawn(code: u8) -> bool {
    code & 7 == 1
}

impl Layout {
    /// The layout of a sub-table with piece order `pieces` (codes, table frame), order nibbles
    /// `lead_pos` and `pawns_pos`, for file slot `slot` (0 without pawns). `unique`: the
    /// material has a unique non-king piece; `both_pawns`: both colours have pawns.
    pub(crate) fn new(
        pieces: Vec<u8>,
        lead_pos: u8,
        pawns_pos: u8,
        slot: usize,
        has_pawns: bool,
        unique: bool,
        both_pawns: bool,
    ) -> Result<Layout, TableError> {
        let bad = |why| Err(TableError::Corrupt(why));
        let n = pieces.len();
        let (lead, lead_len) = if has_pawns {
            if !is_pawn(pieces[0]) {
                return bad("pawn table without a leading pawn");
            }
            (Lead::Pawns, pieces.iter().take_while(|&&c| c == pieces[0]).count())
        } else if unique {
            (Lead::Triple, 3)
        } else {
            (Lead::Kings, 2)
        };
        if lead_len > n || (lead == Lead::Pawns && lead_len > MAX_LEAD_PAWNS) {
            return bad("leading group too large");
        }
        // Runs of equal codes after the leading group.
        let mut rest = Vec::new();
        let mut i = lead_len;
        while i < n {
            let len = pieces[i..].iter().take_while(|&&c| c == pieces[i]).count();
            rest.push(Group { start: i as u8, len: len as u8, stride: 0 });
            i += len;
        }
        if both_pawns && !rest.first().is_some_and(|g| is_pawn(pieces[usize::from(g.start)])) {
            return bad("second pawn group missing");
        }
        // Sizes: the leading group, then the others in order.
        let lead_size = match lead {
            Lead::Pawns => LEAD_TABLES.1[lead_len][slot],
            Lead::Triple => 31332,
            Lead::Kings => 462,
        };
        let mut sizes = Vec::with_capacity(rest.len());
        let mut free = 64 - lead_len;
        for (g, group) in rest.iter().enumerate() {
            let len = usize::from(group.len);
            if g == 0 && both_pawns {
                sizes.push(binomial(48 - lead_len, len));
            } else {
                sizes.push(binomial(free, len));
            }
            free = free.saturating_sub(len);
        }
        // Digit positions: the order nibbles place the leading (and second pawn) group; the
        // piece groups take the other positions in turn.
        let groups = 1 + rest.len();
        let lead_pos = usize::from(lead_pos);
        let pawns_pos = usize::from(pawns_pos);
        if lead_pos >= groups || (both_pawns && (pawns_pos >= groups || pawns_pos == lead_pos)) {
            return bad("group order out of range");
        }
        let mut stride = 1u64;
        let mut lead_stride = 0;
        let mut next_piece_group = usize::from(both_pawns);
        for pos in 0..groups {
            let size = if pos == lead_pos {
                lead_stride = stride;
                lead_size
            } else {
                let g = if both_pawns && pos == pawns_pos {
                    0
                } else {
                    next_piece_group += 1;
                    next_piece_group - 1
                };
                rest[g].stride = stride;
                sizes[g]
            };
            stride = stride.checked_mul(size).ok_or(TableError::Corrupt("table size overflows"))?;
        }
        Ok(Layout { pieces, lead, lead_len, lead_stride, rest, second_pawns: both_pawns, size: stride })
    }

    /// The index of the position whose piece squares (table frame) are `squares`, in the
    /// order of [`Layout::pieces`]; for a pawn table `squares[0]` is the leading pawn. `None`
    /// for placements no legal position has (kings touching, a pawn on its last rank).
    pub(crate) fn index(&self, squares: &mut [u8]) -> Option<u64> {
        let n = self.pieces.len();
        let squares = squares.get_mut(..n)?;
        let lead_index = match self.lead {
            Lead::Pawns => {
                if file(usize::from(squares[0])) >= 4 {
                    squares.iter_mut().for_each(|s| *s ^= 7);
                }
                let number = |s: u8| PAWN_NUMBER.get(usize::from(s)).copied().filter(|&p| p != NONE);
                let others = &mut squares[1..self.lead_len];
                others.sort_unstable_by_key(|&s| number(s));
                let mut idx = LEAD_TABLES.0[self.lead_len][usize::from(squares[0])];
                number(squares[0])?;
                for (i, &s) in squares[1..self.lead_len].iter().enumerate() {
                    idx += binomial(usize::from(number(s)?), i + 1);
                }
                idx
            }
            Lead::Triple | Lead::Kings => {
                normalise_pawnless(squares, self.lead_len);
                if self.lead == Lead::Kings {
                    let t = TRIANGLE[usize::from(squares[0])];
                    let pair = *KING_PAIRS.get(usize::from(t))?.get(usize::from(squares[1]))?;
                    (pair != NO_PAIR).then_some(u64::from(pair))?
                } else {
                    triple_index(squares[0], squares[1], squares[2])?
                }
            }
        };
        let mut index = lead_index * self.lead_stride;
        for (g, group) in self.rest.iter().enumerate() {
            let start = usize::from(group.start);
            let (before, this) = squares.split_at_mut(start);
            let this = &mut this[..usize::from(group.len)];
            this.sort_unstable();
            let lower = if g == 0 && self.second_pawns { 8 } else { 0 };
            let mut enc = 0;
            for (i, &s) in this.iter().enumerate() {
                let below = before.iter().filter(|&&b| b < s).count();
                let t = usize::from(s).checked_sub(below + lower)?;
                enc += binomial(t, i + 1);
            }
            index += enc * group.stride;
        }
        Some(index)
    }
}

/// Moves the first square into the a1-d1-d4 triangle with the board's symmetries (section
/// 4.2), applying them to every square.
fn normalise_pawnless(squares: &mut [u8], lead_len: usize) {
    if file(usize::from(squares[0])) >= 4 {
        squares.iter_mut().for_each(|s| *s ^= 7);
    }
    if rank(usize::from(squares[0])) >= 4 {
        squares.iter_mut().for_each(|s| *s ^= 56);
    }
    let first_off = squares[..lead_len].iter().map(|&s| usize::from(s)).find(|&s| !on_diagonal(s));
    if first_off.is_some_and(above_diagonal) {
        squares.iter_mut().for_each(|s| *s = (*s >> 3) | ((*s & 7) << 3));
    }
}

/// The leading index of three pieces, the first in the triangle (section 4.3).
fn triple_index(s0: u8, s1: u8, s2: u8) -> Option<u64> {
    let (a, b, c) = (usize::from(s0), usize::from(s1), usize::from(s2));
    let t = u64::from(TRIANGLE[a]);
    let adj1 = u64::from(b > a);
    let adj2 = u64::from(c > a) + u64::from(c > b);
    let below = |sq: usize| Some(u64::from(BELOW[sq])).filter(|&v| v != u64::from(NONE));
    let r = |sq: usize| rank(sq) as u64;
    const OFF: u64 = 6 * 63 * 62;
    const ONE_ON: u64 = OFF + 4 * 28 * 62;
    const TWO_ON: u64 = ONE_ON + 4 * 7 * 28;
    Some(if !on_diagonal(a) {
        (t * 63 + b as u64 - adj1) * 62 + c as u64 - adj2
    } else if !on_diagonal(b) {
        OFF + (r(a) * 28 + below(b)?) * 62 + c as u64 - adj2
    } else if !on_diagonal(c) {
        ONE_ON + r(a) * 7 * 28 + (r(b) - adj1) * 28 + below(c)?
    } else {
        TWO_ON + r(a) * 7 * 6 + (r(b) - adj1) * 6 + r(c) - adj2
    })
}

/// The pawn number of a square (section 4.3), `None` off ranks 2..7.
pub(crate) fn pawn_number(sq: u8) -> Option<u8> {
    PAWN_NUMBER.get(usize::from(sq)).copied().filter(|&p| p != NONE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_maps() {
        assert_eq!(binomial(64, 3), 41664);
        assert_eq!(binomial(3, 5), 0);
        assert_eq!((TRIANGLE[1], TRIANGLE[19], TRIANGLE[0], TRIANGLE[27], TRIANGLE[4]), (0, 5, 6, 9, NONE));
        assert_eq!((BELOW[1], BELOW[55]), (0, 27));
        let pairs = KING_PAIRS.iter().flatten().filter(|&&p| p != NO_PAIR).count();
        assert_eq!(pairs, 462);
        let max = KING_PAIRS.iter().flatten().filter(|&&p| p != NO_PAIR).max();
        assert_eq!(max, Some(&461));
        assert_eq!((PAWN_NUMBER[8], PAWN_NUMBER[15], PAWN_NUMBER[16], PAWN_NUMBER[52]), (47, 46, 45, 0));
        // One leading pawn: every pawn square of the file, six per file.
        assert_eq!(LEAD_TABLES.1[1], [6, 6, 6, 6]);
        // The triple encodings fill 0..31332.
        assert_eq!(triple_index(27, 63, 54), Some(31331));
    }

    #[test]
    fn kings_index_is_a_bijection_on_legal_pairs() {
        // KNNvK-like layout: kings, then a group of two.
        let layout = Layout::new(vec![6, 14, 2, 2], 0, 0, 0, false, false, false).unwrap();
        assert_eq!(layout.size, 462 * binomial(62, 2));
        let mut seen = std::collections::HashSet::new();
        for k1 in [1u8, 2, 3, 10, 11, 19, 0, 9, 18, 27] {
            for k2 in 0..64u8 {
                let mut sq = [k1, k2, 40, 50];
                if let Some(i) = layout.index(&mut sq) {
                    assert!(i < layout.size);
                    seen.insert(i);
                }
            }
        }
        assert!(seen.len() > 400);
    }
}
