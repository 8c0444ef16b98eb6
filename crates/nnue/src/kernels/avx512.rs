//! The AVX-512 kernels: one `__m512i` holds 32 neurons (AVX-512BW for the 16-bit lanes).
//!
//! Compiled only when the target has AVX-512BW (`cfg(target_feature = "avx512bw")`). `N` is
//! a multiple of 16, not necessarily of 32: each kernel works on 32-neuron blocks and leaves
//! the last 16, if any, to the AVX2 kernels (AVX-512 implies AVX2). As in the AVX2 module,
//! the kernels carry `#[target_feature(enable = "avx512bw")]`, the entry points at the end
//! call them in `unsafe` blocks, loads and stores are unaligned.

#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m512i, _mm256_add_epi32, _mm256_setzero_si256, _mm512_add_epi16, _mm512_add_epi32, _mm512_add_epi64,
    _mm512_and_si512, _mm512_castsi512_si256, _mm512_cvtepi32_epi64, _mm512_extracti64x4_epi64, _mm512_loadu_si512,
    _mm512_madd_epi16, _mm512_max_epi16, _mm512_min_epi16, _mm512_mullo_epi16, _mm512_reduce_add_epi64,
    _mm512_set1_epi16, _mm512_setzero_si512, _mm512_srli_epi16, _mm512_storeu_si512, _mm512_sub_epi16,
};

use super::avx2;
use crate::QA;

/// 32 neurons: one AVX-512 register of `i16`.
type Wide = [i16; 32];

/// `s` as 32-neuron blocks and the rest (0 or 16 values).
#[inline(always)]
fn wide(s: &[i16]) -> (&[Wide], &[i16]) {
    s.as_chunks()
}

/// `s` as 32-neuron blocks and the rest (0 or 16 values).
#[inline(always)]
fn wide_mut(s: &mut [i16]) -> (&mut [Wide], &mut [i16]) {
    s.as_chunks_mut()
}

/// The 32 values of `block`.
#[inline]
#[target_feature(enable = "avx512bw")]
fn load(block: &Wide) -> __m512i {
    // SAFETY: `block` is 32 `i16`s, the 64 bytes that the load reads; `loadu` accepts any
    // alignment; AVX-512 is enabled at compile time (this module's `cfg`).
    unsafe { _mm512_loadu_si512(block.as_ptr().cast()) }
}

/// Writes `v` into `block`.
#[inline]
#[target_feature(enable = "avx512bw")]
fn store(block: &mut Wide, v: __m512i) {
    // SAFETY: `block` is 32 `i16`s, the 64 bytes that the store writes, borrowed mutably;
    // `storeu` accepts any alignment; AVX-512 is enabled at compile time.
    unsafe { _mm512_storeu_si512(block.as_mut_ptr().cast(), v) }
}

/// `acc += row`.
#[inline]
#[target_feature(enable = "avx512bw")]
fn add(acc: &mut [i16], row: &[i16]) {
    let ((d, d_rest), (a, a_rest)) = (wide_mut(acc), wide(row));
    for (d, a) in d.iter_mut().zip(a) {
        store(d, _mm512_add_epi16(load(d), load(a)));
    }
    avx2::add::<0>(d_rest, a_rest);
}

/// `dst = src + add - sub`: a quiet move or a promotion.
#[inline]
#[target_feature(enable = "avx512bw")]
fn add_sub(dst: &mut [i16], src: &[i16], add: &[i16], sub: &[i16]) {
    let ((d, d_rest), (s, s_rest), (a, a_rest), (r, r_rest)) = (wide_mut(dst), wide(src), wide(add), wide(sub));
    for (d, ((s, a), r)) in d.iter_mut().zip(s.iter().zip(a).zip(r)) {
        store(d, _mm512_sub_epi16(_mm512_add_epi16(load(s), load(a)), load(r)));
    }
    avx2::add_sub::<0>(d_rest, s_rest, a_rest, r_rest);
}

/// `dst = src + add - sub1 - sub2`: a capture (en passant and capturing promotions included).
#[inline]
#[target_feature(enable = "avx512bw")]
fn add_sub_sub(dst: &mut [i16], src: &[i16], add: &[i16], sub1: &[i16], sub2: &[i16]) {
    let ((d, d_rest), (s, s_rest), (a, a_rest)) = (wide_mut(dst), wide(src), wide(add));
    let ((r1, r1_rest), (r2, r2_rest)) = (wide(sub1), wide(sub2));
    for (d, (((s, a), r1), r2)) in d.iter_mut().zip(s.iter().zip(a).zip(r1).zip(r2)) {
        let v = _mm512_sub_epi16(_mm512_add_epi16(load(s), load(a)), _mm512_add_epi16(load(r1), load(r2)));
        store(d, v);
    }
    avx2::add_sub_sub::<0>(d_rest, s_rest, a_rest, r1_rest, r2_rest);
}

/// `dst = src + add1 + add2 - sub1 - sub2`: castling.
#[inline]
#[target_feature(enable = "avx512bw")]
fn add_add_sub_sub(dst: &mut [i16], src: &[i16], adds: [&[i16]; 2], subs: [&[i16]; 2]) {
    let ((d, d_rest), (s, s_rest)) = (wide_mut(dst), wide(src));
    let ((a1, a1_rest), (a2, a2_rest)) = (wide(adds[0]), wide(adds[1]));
    let ((r1, r1_rest), (r2, r2_rest)) = (wide(subs[0]), wide(subs[1]));
    for (d, ((((s, a1), a2), r1), r2)) in d.iter_mut().zip(s.iter().zip(a1).zip(a2).zip(r1).zip(r2)) {
        let plus = _mm512_add_epi16(load(s), _mm512_add_epi16(load(a1), load(a2)));
        store(d, _mm512_sub_epi16(plus, _mm512_add_epi16(load(r1), load(r2))));
    }
    avx2::add_add_sub_sub::<0>(d_rest, s_rest, [a1_rest, a2_rest], [r1_rest, r2_rest]);
}

/// `Σ screlu(stm[k]) × weights[k] + Σ screlu(other[k]) × weights[N + k]`, exactly, by the
/// AVX2 kernel's method 32 neurons at a time: the two parts of [`pair_terms`] are summed in
/// 16 `i32` lanes each, then added in `i64` as `2 × half + odd`. Lane `i` of a part holds
/// neurons `2i` and `2i + 1` of each 32-neuron block, residues `2i % 16` and `2i % 16 + 1`:
/// half of the terms that the AVX2 kernel's lane `i % 8` sums, so the same load-time bound
/// holds. The last 16 neurons, if any, go to the AVX2 kernel's own two parts.
#[inline]
#[target_feature(enable = "avx512bw")]
fn output_sum(stm: &[i16], other: &[i16], weights: &[i16]) -> i64 {
    let (w_stm, w_other) = weights.split_at(stm.len());
    let (mut half, mut odd) = (_mm512_setzero_si512(), _mm512_setzero_si512());
    let (mut half_rest, mut odd_rest) = (_mm256_setzero_si256(), _mm256_setzero_si256());
    for (acc, w) in [(stm, w_stm), (other, w_other)] {
        let ((a, a_rest), (w, w_rest)) = (wide(acc), wide(w));
        for (a, w) in a.iter().zip(w) {
            let [h, o] = pair_terms(load(a), load(w));
            (half, odd) = (_mm512_add_epi32(half, h), _mm512_add_epi32(odd, o));
        }
        for (a, w) in super::blocks(a_rest).iter().zip(super::blocks(w_rest)) {
            let [h, o] = avx2::pair_terms(avx2::load(a), avx2::load(w));
            (half_rest, odd_rest) = (_mm256_add_epi32(half_rest, h), _mm256_add_epi32(odd_rest, o));
        }
    }
    let half = lane_sum(half) + avx2::lane_sum(half_rest);
    2 * half + lane_sum(odd) + avx2::lane_sum(odd_rest)
}

/// The terms `screlu(acc[k]) × w[k]` of 32 neurons in two parts, `[half, odd]`, as the AVX2
/// kernel's `pair_terms` computes them for 16: `c = clamp(acc, 0, QA)`, `c² / 2` and
/// `c² % 2` each multiplied by `w` and added in neighbouring pairs by `_mm512_madd_epi16`.
#[inline]
#[target_feature(enable = "avx512bw")]
fn pair_terms(acc: __m512i, w: __m512i) -> [__m512i; 2] {
    let c = _mm512_min_epi16(_mm512_max_epi16(acc, _mm512_setzero_si512()), _mm512_set1_epi16(QA as i16));
    let square = _mm512_mullo_epi16(c, c);
    let half = _mm512_srli_epi16::<1>(square);
    let odd = _mm512_and_si512(square, _mm512_set1_epi16(1));
    [_mm512_madd_epi16(half, w), _mm512_madd_epi16(odd, w)]
}

/// The sum of the 16 `i32` lanes of `v`, in `i64`.
#[inline]
#[target_feature(enable = "avx512bw")]
fn lane_sum(v: __m512i) -> i64 {
    let low = _mm512_cvtepi32_epi64(_mm512_castsi512_si256(v));
    _mm512_reduce_add_epi64(_mm512_add_epi64(low, _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64::<1>(v))))
}

/// The entry points of the kernels above, callable from code without the `target_feature`
/// attribute.
pub(crate) mod entry {
    // SAFETY (each `unsafe` block below): the function called needs AVX-512BW, which this
    // module's `cfg` guarantees the target has (it is enabled at compile time for the whole
    // build).

    /// `acc += row`.
    #[inline]
    pub(crate) fn add(acc: &mut [i16], row: &[i16]) {
        // SAFETY: AVX-512BW is enabled at compile time (see above).
        unsafe { super::add(acc, row) }
    }

    /// `dst = src + add - sub`.
    #[inline]
    pub(crate) fn add_sub(dst: &mut [i16], src: &[i16], add: &[i16], sub: &[i16]) {
        // SAFETY: AVX-512BW is enabled at compile time (see above).
        unsafe { super::add_sub(dst, src, add, sub) }
    }

    /// `dst = src + add - sub1 - sub2`.
    #[inline]
    pub(crate) fn add_sub_sub(dst: &mut [i16], src: &[i16], add: &[i16], sub1: &[i16], sub2: &[i16]) {
        // SAFETY: AVX-512BW is enabled at compile time (see above).
        unsafe { super::add_sub_sub(dst, src, add, sub1, sub2) }
    }

    /// `dst = src + add1 + add2 - sub1 - sub2`.
    #[inline]
    pub(crate) fn add_add_sub_sub(dst: &mut [i16], src: &[i16], adds: [&[i16]; 2], subs: [&[i16]; 2]) {
        // SAFETY: AVX-512BW is enabled at compile time (see above).
        unsafe { super::add_add_sub_sub(dst, src, adds, subs) }
    }

    /// The output layer's sum (see [`super::output_sum`]).
    #[inline]
    pub(crate) fn output_sum(stm: &[i16], other: &[i16], weights: &[i16]) -> i64 {
        // SAFETY: AVX-512BW is enabled at compile time (see above).
        unsafe { super::output_sum(stm, other, weights) }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{self, Kernels};
    use super::entry;

    const AVX512: Kernels = Kernels {
        add: entry::add,
        add_sub: entry::add_sub,
        add_sub_sub: entry::add_sub_sub,
        add_add_sub_sub: entry::add_add_sub_sub,
        output_sum: entry::output_sum,
    };

    #[test]
    fn updates_equal_the_reference() {
        testing::updates_equal_the_reference(&AVX512);
    }

    #[test]
    fn output_sum_equals_the_reference() {
        testing::output_sum_equals_the_reference(&AVX512);
    }
}
