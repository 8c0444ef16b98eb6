//! The portable kernels: plain Rust over blocks of 16 neurons, the reference that the SIMD
//! kernels are tested against, and the kernels of builds without AVX2.
//!
//! Written for LLVM's auto-vectoriser: every slice is viewed as `[[i16; 16]]`, so the
//! accumulator loops have no bounds checks and no remainder; the output layer is a plain
//! `i64` reduction (see [`output_sum`]).

// With AVX2 these are the tests' reference only.
#![cfg_attr(all(target_arch = "x86_64", target_feature = "avx2"), allow(dead_code))]

use super::{blocks, blocks_mut};
use crate::QA;

/// `acc += row`.
#[inline]
pub(crate) fn add(acc: &mut [i16], row: &[i16]) {
    for (d, a) in blocks_mut(acc).iter_mut().zip(blocks(row)) {
        for (d, &a) in d.iter_mut().zip(a) {
            *d = d.wrapping_add(a);
        }
    }
}

/// `acc -= row`. Used by the refresh cache on every target: LLVM vectorises it as well as a
/// hand-written kernel, and it needs no `unsafe`.
#[inline]
pub(crate) fn sub(acc: &mut [i16], row: &[i16]) {
    for (d, a) in blocks_mut(acc).iter_mut().zip(blocks(row)) {
        for (d, &a) in d.iter_mut().zip(a) {
            *d = d.wrapping_sub(a);
        }
    }
}

/// `acc += add - sub`, in place: the refresh cache's piece changes, a pair at a time. Used on
/// every target, as [`sub`].
#[inline]
pub(crate) fn add_sub_assign(acc: &mut [i16], add: &[i16], sub: &[i16]) {
    for (d, (a, r)) in blocks_mut(acc).iter_mut().zip(blocks(add).iter().zip(blocks(sub))) {
        for (d, (&a, &r)) in d.iter_mut().zip(a.iter().zip(r)) {
            *d = d.wrapping_add(a).wrapping_sub(r);
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

/// `Σ screlu(stm[k]) × weights[k] + Σ screlu(other[k]) × weights[N + k]`, exactly, where
/// `N` is the length of `stm` and `other` and `weights` holds `2N` values (one bucket's).
///
/// Each term is at most `QA² × 2¹⁵ = 2,130,739,200 < 2³¹` in magnitude, so it is computed in
/// `i32`, and the sum in `i64`, which no network can overflow (at most 2048 terms). A plain
/// reduction is what the auto-vectoriser handles best: 16 terms an iteration in four `i64`
/// accumulators (`vpmuldq`). The first version summed into 16 `i32` lanes (`lanes[k % 16]`),
/// which LLVM vectorised across blocks with a gather of single `i16`s per lane, and the output
/// layer took 22 % of the network build's bench time.
#[inline]
pub(crate) fn output_sum(stm: &[i16], other: &[i16], weights: &[i16]) -> i64 {
    let (w_stm, w_other) = weights.split_at(stm.len());
    half_sum(stm, w_stm) + half_sum(other, w_other)
}

/// `Σ screlu(acc[k]) × weights[k]`.
#[inline(always)]
fn half_sum(acc: &[i16], weights: &[i16]) -> i64 {
    acc.iter().zip(weights).map(|(&a, &w)| i64::from(screlu(a) * i32::from(w))).sum()
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
    fn the_output_sum_is_exact_at_the_extremes() {
        // The largest terms: screlu 65025 times ±32768 / 32767, 2048 of them.
        let acc = [i16::MAX; 1024];
        assert_eq!(output_sum(&acc, &acc, &[i16::MIN; 2048]), -2048 * 65_025 * 32_768);
        assert_eq!(output_sum(&acc, &acc, &[i16::MAX; 2048]), 2048 * 65_025 * 32_767);
        // Negative accumulators contribute nothing, the clamp applies before the square.
        let acc: [i16; 64] = core::array::from_fn(|k| [-300, 0, 7, 255, 300][k % 5]);
        let weights: [i16; 64] = core::array::from_fn(|k| k as i16 * 500 - 16_000);
        let naive: i64 = acc
            .iter()
            .zip(&weights)
            .map(|(&a, &w)| {
                let c = i64::from(a).clamp(0, 255);
                c * c * i64::from(w)
            })
            .sum();
        let (stm, other) = acc.split_at(32);
        assert_eq!(output_sum(stm, other, &weights), naive);
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
