//! The inner loops: accumulator updates and the output layer, over blocks of 16 neurons.
//!
//! Written for LLVM's auto-vectoriser: every slice is viewed as `[[i16; 16]]` (its length is
//! a multiple of 16 by construction, checked when a [`Network`](crate::Network) is built), so
//! the loops have no bounds checks and no remainder, and each block is one AVX2 register of
//! `i16` (two of `i32` for the output). Hand-written SIMD (`core::arch` intrinsics, e.g.
//! `_mm256_madd_epi16` for the output layer) would replace the bodies of these functions and
//! nothing else.
//!
//! The accumulator arithmetic wraps: sums modulo 2¹⁶ give the exact result whatever the order
//! of additions and subtractions, as long as the final value fits in an `i16`, which the
//! network's load-time check proves for every position (see `Network::from_parts`).

use crate::QA;

/// The number of neurons in a block; [`HIDDEN_STEP`](crate::HIDDEN_STEP).
pub(crate) const BLOCK: usize = crate::HIDDEN_STEP;

type Block = [i16; BLOCK];

#[inline(always)]
fn blocks(s: &[i16]) -> &[Block] {
    let (blocks, rest) = s.as_chunks();
    debug_assert!(rest.is_empty());
    blocks
}

#[inline(always)]
fn blocks_mut(s: &mut [i16]) -> &mut [Block] {
    let (blocks, rest) = s.as_chunks_mut();
    debug_assert!(rest.is_empty());
    blocks
}

/// `acc += row`.
#[inline]
pub(crate) fn add(acc: &mut [i16], row: &[i16]) {
    for (d, a) in blocks_mut(acc).iter_mut().zip(blocks(row)) {
        for (d, &a) in d.iter_mut().zip(a) {
            *d = d.wrapping_add(a);
        }
    }
}

/// `dst = src + add - sub`: a quiet move or a promotion.
#[inline]
pub(crate) fn add_sub(dst: &mut [i16], src: &[i16], add: &[i16], sub: &[i16]) {
    let rows = blocks(src).iter().zip(blocks(add)).zip(blocks(sub));
    for (d, ((s, a), r)) in blocks_mut(dst).iter_mut().zip(rows) {
        for (d, ((&s, &a), &r)) in d.iter_mut().zip(s.iter().zip(a).zip(r)) {
            *d = s.wrapping_add(a).wrapping_sub(r);
        }
    }
}

/// `dst = src + add - sub1 - sub2`: a capture (en passant and capturing promotions included).
#[inline]
pub(crate) fn add_sub_sub(dst: &mut [i16], src: &[i16], add: &[i16], sub1: &[i16], sub2: &[i16]) {
    let rows = blocks(src).iter().zip(blocks(add)).zip(blocks(sub1)).zip(blocks(sub2));
    for (d, (((s, a), r1), r2)) in blocks_mut(dst).iter_mut().zip(rows) {
        for (d, (((&s, &a), &r1), &r2)) in d.iter_mut().zip(s.iter().zip(a).zip(r1).zip(r2)) {
            *d = s.wrapping_add(a).wrapping_sub(r1).wrapping_sub(r2);
        }
    }
}

/// `dst = src + add1 + add2 - sub1 - sub2`: castling.
#[inline]
pub(crate) fn add_add_sub_sub(dst: &mut [i16], src: &[i16], adds: [&[i16]; 2], subs: [&[i16]; 2]) {
    let rows = blocks(src).iter().zip(blocks(adds[0])).zip(blocks(adds[1])).zip(blocks(subs[0])).zip(blocks(subs[1]));
    for (d, ((((s, a1), a2), r1), r2)) in blocks_mut(dst).iter_mut().zip(rows) {
        let lanes = s.iter().zip(a1).zip(a2).zip(r1).zip(r2);
        for (d, ((((&s, &a1), &a2), &r1), &r2)) in d.iter_mut().zip(lanes) {
            *d = s.wrapping_add(a1).wrapping_add(a2).wrapping_sub(r1).wrapping_sub(r2);
        }
    }
}

/// SCReLU: `clamp(x, 0, QA)²`, at most `QA² = 65025`.
#[inline(always)]
fn screlu(x: i16) -> i32 {
    const QA_I16: i16 = QA as i16;
    let c = i32::from(x.clamp(0, QA_I16));
    c * c
}

/// Adds `screlu(acc[k]) * weights[k]` to `lanes[k % 16]` for every `k`.
///
/// Each lane is an `i32` sum of its own terms in a fixed order, so it cannot overflow when
/// `QA² × Σ|weights[k]|` over its `k` fits in an `i32` (checked when the network is built).
/// The caller sums the 16 lanes in `i64`.
#[inline]
pub(crate) fn output_lanes(acc: &[i16], weights: &[i16], lanes: &mut [i32; BLOCK]) {
    for (a, w) in blocks(acc).iter().zip(blocks(weights)) {
        for ((l, &a), &w) in lanes.iter_mut().zip(a).zip(w) {
            *l += screlu(a) * i32::from(w);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn screlu_clamps_then_squares() {
        assert_eq!(screlu(-5), 0);
        assert_eq!(screlu(0), 0);
        assert_eq!(screlu(3), 9);
        assert_eq!(screlu(255), 65_025);
        assert_eq!(screlu(i16::MAX), 65_025);
    }

    #[test]
    fn updates_wrap_exactly() {
        // An intermediate sum leaves the i16 range; the final value does not.
        let src = [i16::MAX - 1; 32];
        let big = [100i16; 32];
        let small = [60i16; 32];
        let mut dst = [0i16; 32];
        add_sub_sub(&mut dst, &src, &big, &small, &small);
        assert_eq!(dst, [i16::MAX - 21; 32]);
        add_add_sub_sub(&mut dst, &src, [&big, &small], [&big, &big]);
        assert_eq!(dst, [i16::MAX - 41; 32]);
        add_sub(&mut dst, &src, &big, &small);
        assert_eq!(dst, [i16::MIN + 38; 32]); // a final value out of range wraps, as documented
    }
}
