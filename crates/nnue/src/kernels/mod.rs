//! The inner loops: accumulator updates and the output layer, over blocks of 16 neurons.
//!
//! Three implementations with the same functions, chosen at compile time by the target's
//! features (this crate is `no_std`, so there is no run-time detection; the default build is
//! `-C target-cpu=native`):
//!
//! * `avx512` (`x86_64` with AVX-512BW): 32 neurons a register, and the AVX2 kernels for the
//!   last 16 when `N` is an odd multiple of 16;
//! * `avx2` (`x86_64` with AVX2): 16 neurons a register;
//! * `portable`: plain Rust written for LLVM's auto-vectoriser, the other targets' kernels
//!   and the reference the SIMD kernels are tested against, on random inputs and at the
//!   bounds of the overflow proofs.
//!
//! The gain that pays for the SIMD kernels' `unsafe` (loads, stores and the calls into
//! `#[target_feature]` functions), measured with `valgrind --tool=callgrind` on
//! `cutoff bench 6` with the default network of then (`net5`, N = 256): 927.2 M instructions
//! with the portable kernels, 799.3 M with the AVX2 ones (−13.8 %, the same 223,299 nodes); see
//! `docs/nnue-speed.md`.
//!
//! Every slice's length is a multiple of 16 by construction (checked when a
//! [`Network`](crate::Network) is built), so the kernels view slices as `[[i16; 16]]` (or
//! `[[i16; 32]]`) blocks with no bounds checks and no remainder loop.
//!
//! The accumulator arithmetic wraps: sums modulo 2¹⁶ give the exact result whatever the order
//! of additions and subtractions, as long as the final value fits in an `i16`, which the
//! network's load-time check proves for every position (see `Network::from_parts`).
//!
//! The output layer's SIMD kernels sum in `i32` lanes whose terms are bounded by the
//! network's load-time output check, so the lanes never overflow in any order. The check
//! bounds `Σ|w[k]|` over each residue `k % 16` of the bucket's `2N` weights (the two halves
//! share the residues: `N` is a multiple of 16). Both SIMD kernels give each lane terms of two
//! neighbouring residues in two parts, `c² / 2` and `c² % 2` (see `avx2::pair_terms` for the
//! bound; an AVX-512 lane sums half of the terms of an AVX2 lane).

pub(crate) mod portable;

#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
pub(crate) mod avx2;

#[cfg(all(target_arch = "x86_64", target_feature = "avx512bw"))]
pub(crate) mod avx512;

#[cfg(all(target_arch = "x86_64", target_feature = "avx512bw"))]
pub(crate) use avx512::entry::{add, add_add_sub_sub, add_sub, add_sub_sub, output_sum};

#[cfg(all(target_arch = "x86_64", target_feature = "avx2", not(target_feature = "avx512bw")))]
pub(crate) use avx2::entry::{add, add_add_sub_sub, add_sub, add_sub_sub, output_sum};

#[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
pub(crate) use portable::{add, add_add_sub_sub, add_sub, add_sub_sub, output_sum};

// The refresh cache's in-place updates: portable on every target (see `portable::sub`).
pub(crate) use portable::{add_sub_assign, sub};

/// The number of neurons in a block; [`HIDDEN_STEP`](crate::HIDDEN_STEP).
pub(crate) const BLOCK: usize = crate::HIDDEN_STEP;

/// 16 neurons: one AVX2 register of `i16`.
pub(crate) type Block = [i16; BLOCK];

/// `s` as blocks (its length is a multiple of [`BLOCK`]).
#[inline(always)]
pub(crate) fn blocks(s: &[i16]) -> &[Block] {
    let (blocks, rest) = s.as_chunks();
    debug_assert!(rest.is_empty());
    blocks
}

/// `s` as blocks (its length is a multiple of [`BLOCK`]).
#[inline(always)]
pub(crate) fn blocks_mut(s: &mut [i16]) -> &mut [Block] {
    let (blocks, rest) = s.as_chunks_mut();
    debug_assert!(rest.is_empty());
    blocks
}

/// The hidden size whose AVX2 kernels are compiled with their length known, so that their
/// loops unroll: the default network's (`net11`, 768 neurons). Other sizes run the same kernels with a
/// length known only at run time. Unrolled, an x86-64-v3 build of `cutoff bench 7` runs 3.9 %
/// fewer instructions than with the run-time loop (`docs/benchmarks.md`).
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
pub(crate) const UNROLLED: usize = 768;

/// `s` as blocks: exactly `B` of them if `B > 0` (a length known at compile time, so that
/// the kernels' loops unroll; `s` has that length), or all of them if `B == 0`.
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[inline(always)]
pub(crate) fn sized<const B: usize>(s: &[i16]) -> &[Block] {
    let all = blocks(s);
    if B == 0 { all } else { &all[..B] }
}

/// `s` as blocks, mutably: see [`sized`].
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[inline(always)]
pub(crate) fn sized_mut<const B: usize>(s: &mut [i16]) -> &mut [Block] {
    let all = blocks_mut(s);
    if B == 0 { all } else { &mut all[..B] }
}

/// The SIMD kernels' tests: each kernel equals the portable reference.
#[cfg(all(test, target_arch = "x86_64", target_feature = "avx2"))]
mod testing;
