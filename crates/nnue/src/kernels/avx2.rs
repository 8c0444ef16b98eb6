//! The AVX2 kernels: one `__m256i` holds a block of 16 neurons.
//!
//! Compiled only when the target has AVX2 (`cfg(target_feature = "avx2")`, as with the
//! default `-C target-cpu=native` on a CPU that has it). The kernels are functions with
//! `#[target_feature(enable = "avx2")]`, in which the arithmetic intrinsics are safe; calling
//! one from code without the attribute is `unsafe` even so, which the entry points at the end
//! of the file do, once each. Loads and stores take pointers and need `unsafe` too. Every
//! load and store is unaligned (`loadu`/`storeu`): the accumulators and weights are `Vec`s of
//! `i16` with no alignment guarantee beyond 2 bytes.
//!
//! Each kernel takes `B`, its slices' number of blocks when it is known at compile time (the
//! entry points pass it when the hidden size is [`UNROLLED`](super::UNROLLED), the default
//! network's, so that the loops unroll), or 0 for the slices' own length.

#![allow(unsafe_code)]
// The AVX-512 build uses the AVX2 kernels for its last 16 neurons only; these are then its tests.
#![cfg_attr(target_feature = "avx512bw", allow(dead_code))]

use core::arch::x86_64::{
    __m256i, _mm256_add_epi16, _mm256_add_epi32, _mm256_add_epi64, _mm256_and_si256, _mm256_castsi256_si128,
    _mm256_cvtepi32_epi64, _mm256_extracti128_si256, _mm256_loadu_si256, _mm256_madd_epi16, _mm256_max_epi16,
    _mm256_min_epi16, _mm256_mullo_epi16, _mm256_set1_epi16, _mm256_setzero_si256, _mm256_srli_epi16,
    _mm256_storeu_si256, _mm256_sub_epi16,
};

use super::{Block, sized, sized_mut};
use crate::QA;

/// The 16 values of `block`.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn load(block: &Block) -> __m256i {
    // SAFETY: `block` is 16 `i16`s, the 32 bytes that the load reads; `loadu` accepts any
    // alignment; AVX2 is enabled at compile time (this module's `cfg`).
    unsafe { _mm256_loadu_si256(block.as_ptr().cast()) }
}

/// Writes `v` into `block`.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn store(block: &mut Block, v: __m256i) {
    // SAFETY: `block` is 16 `i16`s, the 32 bytes that the store writes, borrowed mutably;
    // `storeu` accepts any alignment; AVX2 is enabled at compile time.
    unsafe { _mm256_storeu_si256(block.as_mut_ptr().cast(), v) }
}

/// `acc += row`.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn add<const B: usize>(acc: &mut [i16], row: &[i16]) {
    for (d, a) in sized_mut::<B>(acc).iter_mut().zip(sized::<B>(row)) {
        store(d, _mm256_add_epi16(load(d), load(a)));
    }
}

/// `dst = src + add - sub`: a quiet move or a promotion.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn add_sub<const B: usize>(dst: &mut [i16], src: &[i16], add: &[i16], sub: &[i16]) {
    let rows = sized::<B>(src).iter().zip(sized::<B>(add)).zip(sized::<B>(sub));
    for (d, ((s, a), r)) in sized_mut::<B>(dst).iter_mut().zip(rows) {
        store(d, _mm256_sub_epi16(_mm256_add_epi16(load(s), load(a)), load(r)));
    }
}

/// `dst = src + add - sub1 - sub2`: a capture (en passant and capturing promotions included).
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn add_sub_sub<const B: usize>(dst: &mut [i16], src: &[i16], add: &[i16], sub1: &[i16], sub2: &[i16]) {
    let rows = sized::<B>(src).iter().zip(sized::<B>(add)).zip(sized::<B>(sub1)).zip(sized::<B>(sub2));
    for (d, (((s, a), r1), r2)) in sized_mut::<B>(dst).iter_mut().zip(rows) {
        let v = _mm256_sub_epi16(_mm256_add_epi16(load(s), load(a)), _mm256_add_epi16(load(r1), load(r2)));
        store(d, v);
    }
}

/// `dst = src + add1 + add2 - sub1 - sub2`: castling.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn add_add_sub_sub<const B: usize>(dst: &mut [i16], src: &[i16], adds: [&[i16]; 2], subs: [&[i16]; 2]) {
    let rows = sized::<B>(src)
        .iter()
        .zip(sized::<B>(adds[0]))
        .zip(sized::<B>(adds[1]))
        .zip(sized::<B>(subs[0]))
        .zip(sized::<B>(subs[1]));
    for (d, ((((s, a1), a2), r1), r2)) in sized_mut::<B>(dst).iter_mut().zip(rows) {
        let plus = _mm256_add_epi16(load(s), _mm256_add_epi16(load(a1), load(a2)));
        store(d, _mm256_sub_epi16(plus, _mm256_add_epi16(load(r1), load(r2))));
    }
}

/// The terms `screlu(acc[k]) × w[k]` of one block in two parts, `[half, odd]`, with
/// `c²·w = 2 × half + odd` summed over each pair of neighbouring neurons: `c = clamp(acc, 0,
/// QA)`, and `c²` (at most 65025, too large for an `i16`) is split into `c² / 2` (at most
/// 32512) and `c² % 2`, each multiplied by `w` and added in pairs by `_mm256_madd_epi16`
/// (at most `2 × 32512 × 32768 < 2³¹`). No unpacking: 4 instructions fewer a block than
/// interleaving `c² / 2` and `c² - c² / 2` into one `madd` with `(w, w)`.
///
/// `i32` lane `i` of each part holds neurons `2i` and `2i + 1` of the block (residues
/// `2i % 16` and `(2i + 1) % 16`). Over a whole sum, a lane of `half` is at most
/// `32512 × (S[2i] + S[2i + 1])`, where `S[j]` is the lane sum `Σ|w[k]|` over `k % 16 == j`
/// that the load-time check bounds by `MAX_LANE_SUM` = 33025: at most
/// `32512 × 66050 < 2³¹`. A lane of `odd` is at most `66050`.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn pair_terms(acc: __m256i, w: __m256i) -> [__m256i; 2] {
    let c = _mm256_min_epi16(_mm256_max_epi16(acc, _mm256_setzero_si256()), _mm256_set1_epi16(QA as i16));
    let square = _mm256_mullo_epi16(c, c);
    let half = _mm256_srli_epi16::<1>(square);
    let odd = _mm256_and_si256(square, _mm256_set1_epi16(1));
    [_mm256_madd_epi16(half, w), _mm256_madd_epi16(odd, w)]
}

/// The sum of the 8 `i32` lanes of `v`, in `i64`.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn lane_sum(v: __m256i) -> i64 {
    let low = _mm256_cvtepi32_epi64(_mm256_castsi256_si128(v));
    let sum = _mm256_add_epi64(low, _mm256_cvtepi32_epi64(_mm256_extracti128_si256::<1>(v)));
    let mut out = [0i64; 4];
    // SAFETY: `out` is 4 `i64`s, the 32 bytes that the store writes; `storeu` accepts any
    // alignment; AVX2 is enabled at compile time.
    unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), sum) };
    out.iter().sum()
}

/// `Σ screlu(stm[k]) × weights[k] + Σ screlu(other[k]) × weights[N + k]`, exactly
/// (`weights`: one bucket's `2N`). Sums the two parts of [`pair_terms`] in 8 `i32` lanes
/// each, which the network's load-time check proves never overflow, then adds the lanes in
/// `i64` as `2 × half + odd`.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn output_sum<const B: usize>(stm: &[i16], other: &[i16], weights: &[i16]) -> i64 {
    let (w_stm, w_other) = weights.split_at(stm.len());
    let mut half = _mm256_setzero_si256();
    let mut odd = _mm256_setzero_si256();
    for (acc, w) in [(stm, w_stm), (other, w_other)] {
        for (a, w) in sized::<B>(acc).iter().zip(sized::<B>(w)) {
            let [h, o] = pair_terms(load(a), load(w));
            half = _mm256_add_epi32(half, h);
            odd = _mm256_add_epi32(odd, o);
        }
    }
    2 * lane_sum(half) + lane_sum(odd)
}

/// The entry points of the kernels above, callable from code without the `target_feature`
/// attribute.
pub(crate) mod entry {
    // SAFETY (each `unsafe` block below): the function called needs AVX2, which this module's
    // `cfg` guarantees the target has (it is enabled at compile time for the whole build).

    use super::super::{BLOCK, UNROLLED};

    /// Calls the kernel with its length known at compile time when the hidden size is
    /// [`UNROLLED`], and with `B = 0` (the slices' own length) otherwise.
    macro_rules! unrolled {
        ($len:expr, $kernel:ident($($arg:expr),*)) => {
            if $len == UNROLLED {
                super::$kernel::<{ UNROLLED / BLOCK }>($($arg),*)
            } else {
                super::$kernel::<0>($($arg),*)
            }
        };
    }

    /// `acc += row`.
    #[inline]
    pub(crate) fn add(acc: &mut [i16], row: &[i16]) {
        // SAFETY: AVX2 is enabled at compile time (see above).
        unsafe { unrolled!(acc.len(), add(acc, row)) }
    }

    /// `dst = src + add - sub`.
    #[inline]
    pub(crate) fn add_sub(dst: &mut [i16], src: &[i16], add: &[i16], sub: &[i16]) {
        // SAFETY: AVX2 is enabled at compile time (see above).
        unsafe { unrolled!(dst.len(), add_sub(dst, src, add, sub)) }
    }

    /// `dst = src + add - sub1 - sub2`.
    #[inline]
    pub(crate) fn add_sub_sub(dst: &mut [i16], src: &[i16], add: &[i16], sub1: &[i16], sub2: &[i16]) {
        // SAFETY: AVX2 is enabled at compile time (see above).
        unsafe { unrolled!(dst.len(), add_sub_sub(dst, src, add, sub1, sub2)) }
    }

    /// `dst = src + add1 + add2 - sub1 - sub2`.
    #[inline]
    pub(crate) fn add_add_sub_sub(dst: &mut [i16], src: &[i16], adds: [&[i16]; 2], subs: [&[i16]; 2]) {
        // SAFETY: AVX2 is enabled at compile time (see above).
        unsafe { unrolled!(dst.len(), add_add_sub_sub(dst, src, adds, subs)) }
    }

    /// The output layer's sum (see [`super::output_sum`]).
    #[inline]
    pub(crate) fn output_sum(stm: &[i16], other: &[i16], weights: &[i16]) -> i64 {
        // SAFETY: AVX2 is enabled at compile time (see above).
        unsafe { unrolled!(stm.len(), output_sum(stm, other, weights)) }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{self, Kernels};
    use super::entry;

    const AVX2: Kernels = Kernels {
        add: entry::add,
        add_sub: entry::add_sub,
        add_sub_sub: entry::add_sub_sub,
        add_add_sub_sub: entry::add_add_sub_sub,
        output_sum: entry::output_sum,
    };

    #[test]
    fn updates_equal_the_reference() {
        testing::updates_equal_the_reference(&AVX2);
    }

    #[test]
    fn output_sum_equals_the_reference() {
        testing::output_sum_equals_the_reference(&AVX2);
    }
}
