//! The AVX-512 kernels: one `__m512i` holds 32 neurons (AVX-512BW for the 16-bit lanes).
//!
//! Compiled only when the target has AVX-512BW (`cfg(target_feature = "avx512bw")`). `N` is
//! a multiple of 16, not necessarily of 32: each kernel works on 32-neuron blocks and leaves
//! the last 16, if any, to the AVX2 kernels (AVX-512 implies AVX2). As in the AVX2 module,
//! the kernels carry `#[target_feature(enable = "avx512bw")]`, the entry points at the end
//! call them in `unsafe` blocks, loads and stores are unaligned.

#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m512i, _mm512_add_epi16, _mm512_add_epi32, _mm512_add_epi64, _mm512_castsi512_si256, _mm512_cvtepi32_epi64,
    _mm512_extracti64x4_epi64, _mm512_loadu_si512, _mm512_madd_epi16, _mm512_max_epi16, _mm512_min_epi16,
    _mm512_mullo_epi16, _mm512_reduce_add_epi64, _mm512_set1_epi16, _mm512_setzero_si512, _mm512_srli_epi16,
    _mm512_storeu_si512, _mm512_sub_epi16, _mm512_unpackhi_epi16, _mm512_unpacklo_epi16,
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

/// `Σ screlu(stm[k]) × weights[k] + Σ screlu(other[k]) × weights[N + k]`, exactly, as the
/// AVX2 kernel computes it, 32 neurons at a time: the `i32` lanes of the two 512-bit sums
/// each hold one neuron of a 32-neuron block (lane `i` of the first, neuron `i % 4 + 8 ×
/// (i / 4)`, of the second the same plus 4), so every lane's terms share a residue `k % 16`
/// and the load-time proof bounds every partial sum; the last 16 neurons, if any, go to two
/// AVX2 sums with the same property.
#[inline]
#[target_feature(enable = "avx512bw")]
fn output_sum(stm: &[i16], other: &[i16], weights: &[i16]) -> i64 {
    let (w_stm, w_other) = weights.split_at(stm.len());
    let mut lanes = [_mm512_setzero_si512(); 2];
    let mut rest = [core::arch::x86_64::_mm256_setzero_si256(); 2];
    for (acc, w) in [(stm, w_stm), (other, w_other)] {
        let ((a, a_rest), (w, w_rest)) = (wide(acc), wide(w));
        for (a, w) in a.iter().zip(w) {
            let [low, high] = terms(load(a), load(w));
            lanes = [_mm512_add_epi32(lanes[0], low), _mm512_add_epi32(lanes[1], high)];
        }
        for (a, w) in super::blocks(a_rest).iter().zip(super::blocks(w_rest)) {
            let [low, high] = avx2::terms(avx2::load(a), avx2::load(w));
            rest = [
                core::arch::x86_64::_mm256_add_epi32(rest[0], low),
                core::arch::x86_64::_mm256_add_epi32(rest[1], high),
            ];
        }
    }
    let wide_sum = |v: __m512i| {
        let low = _mm512_cvtepi32_epi64(_mm512_castsi512_si256(v));
        _mm512_add_epi64(low, _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64::<1>(v)))
    };
    _mm512_reduce_add_epi64(_mm512_add_epi64(wide_sum(lanes[0]), wide_sum(lanes[1]))) + avx2::reduce(rest)
}

/// The terms `screlu(acc[k]) × w[k]` of 32 neurons as two vectors of 16 `i32`, exactly:
/// the AVX2 kernel's method (`c² = x + y`, `_mm512_madd_epi16` of `(x, y)` and `(w, w)`).
#[inline]
#[target_feature(enable = "avx512bw")]
fn terms(acc: __m512i, w: __m512i) -> [__m512i; 2] {
    let c = _mm512_min_epi16(_mm512_max_epi16(acc, _mm512_setzero_si512()), _mm512_set1_epi16(QA as i16));
    let square = _mm512_mullo_epi16(c, c);
    let x = _mm512_srli_epi16::<1>(square);
    let y = _mm512_sub_epi16(square, x);
    [
        _mm512_madd_epi16(_mm512_unpacklo_epi16(x, y), _mm512_unpacklo_epi16(w, w)),
        _mm512_madd_epi16(_mm512_unpackhi_epi16(x, y), _mm512_unpackhi_epi16(w, w)),
    ]
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
