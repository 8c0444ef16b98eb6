//! Tests shared by the SIMD kernels: each equals the portable reference, exactly, on random
//! inputs and at the bounds of the overflow proofs.

use alloc::vec;
use alloc::vec::Vec;

use super::portable;
use crate::QA;
use crate::network::{MAX_LANE_SUM, check_output};

/// One implementation's kernels (their signatures, as function pointers).
#[allow(clippy::type_complexity)]
pub(super) struct Kernels {
    pub add: fn(&mut [i16], &[i16]),
    pub add_sub: fn(&mut [i16], &[i16], &[i16], &[i16]),
    pub add_sub_sub: fn(&mut [i16], &[i16], &[i16], &[i16], &[i16]),
    pub add_add_sub_sub: fn(&mut [i16], &[i16], [&[i16]; 2], [&[i16]; 2]),
    pub output_sum: fn(&[i16], &[i16], &[i16]) -> i64,
}

/// SplitMix64: a small seeded generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Any `i16`, with the extremes and the activation's edges more often than chance.
    fn any(&mut self) -> i16 {
        const EDGES: [i16; 10] = [i16::MIN, i16::MIN + 1, -1, 0, 1, 254, 255, 256, i16::MAX - 1, i16::MAX];
        let r = self.next();
        if r.is_multiple_of(4) { EDGES[(r >> 8) as usize % EDGES.len()] } else { (r >> 16) as i16 }
    }

    /// A value in `-limit..=limit`.
    fn within(&mut self, limit: i32) -> i16 {
        let span = 2 * limit as u64 + 1;
        ((self.next() % span) as i32 - limit) as i16
    }

    fn vec(&mut self, len: usize) -> Vec<i16> {
        (0..len).map(|_| self.any()).collect()
    }
}

/// Hidden sizes: the smallest, odd and even multiples of 16 (the AVX-512 kernels handle a
/// last half register), earlier defaults, the default network's (the unrolled size) and the
/// largest.
const SIZES: [usize; 9] = [16, 32, 48, 64, 112, 256, 528, 768, 1024];

/// The accumulator updates equal the reference on random values over the whole `i16` range
/// (the arithmetic wraps, so every input is valid).
pub(super) fn updates_equal_the_reference(k: &Kernels) {
    let mut rng = Rng(1);
    for n in SIZES {
        for _ in 0..20 {
            let src = rng.vec(n);
            let rows: [Vec<i16>; 4] = core::array::from_fn(|_| rng.vec(n));
            let [a1, a2, s1, s2] = [&rows[0][..], &rows[1], &rows[2], &rows[3]];
            let (mut ours, mut theirs) = (vec![0; n], vec![0; n]);

            (k.add_sub)(&mut ours, &src, a1, s1);
            portable::add_sub(&mut theirs, &src, a1, s1);
            assert_eq!(ours, theirs, "add_sub, N = {n}");

            (k.add_sub_sub)(&mut ours, &src, a1, s1, s2);
            portable::add_sub_sub(&mut theirs, &src, a1, s1, s2);
            assert_eq!(ours, theirs, "add_sub_sub, N = {n}");

            (k.add_add_sub_sub)(&mut ours, &src, [a1, a2], [s1, s2]);
            portable::add_add_sub_sub(&mut theirs, &src, [a1, a2], [s1, s2]);
            assert_eq!(ours, theirs, "add_add_sub_sub, N = {n}");

            let (mut ours, mut theirs) = (src.clone(), src.clone());
            (k.add)(&mut ours, a1);
            portable::add(&mut theirs, a1);
            assert_eq!(ours, theirs, "add, N = {n}");
        }
        // The extremes: every intermediate sum wraps.
        let (max, min) = (vec![i16::MAX; n], vec![i16::MIN; n]);
        let (mut ours, mut theirs) = (vec![0; n], vec![0; n]);
        (k.add_add_sub_sub)(&mut ours, &max, [&max, &max], [&min, &min]);
        portable::add_add_sub_sub(&mut theirs, &max, [&max, &max], [&min, &min]);
        assert_eq!(ours, theirs, "add_add_sub_sub at the extremes, N = {n}");
        (k.add_sub_sub)(&mut ours, &min, &min, &max, &max);
        portable::add_sub_sub(&mut theirs, &min, &min, &max, &max);
        assert_eq!(ours, theirs, "add_sub_sub at the extremes, N = {n}");
    }
}

/// The output layer equals the reference on random accumulators (the whole `i16` range: the
/// activation clamps) with random output weights that pass the load-time check, and at the
/// check's bound: lanes whose `Σ|w|` is exactly the largest allowed, with every accumulator
/// at or above `QA`, so that a lane's sum reaches `±QA² × MAX_LANE_SUM`, next to `i32::MAX`.
pub(super) fn output_sum_equals_the_reference(k: &Kernels) {
    let mut rng = Rng(2);
    for n in SIZES {
        // A lane holds 2N / 16 weights.
        let per_lane = (2 * n / 16) as u64;
        let limit = (MAX_LANE_SUM / per_lane) as i32;
        for _ in 0..50 {
            let (stm, other) = (rng.vec(n), rng.vec(n));
            let weights: Vec<i16> = (0..2 * n).map(|_| rng.within(limit.min(i16::MAX as i32))).collect();
            assert_eq!(check_output(n, &weights), Ok(()));
            let expected = portable::output_sum(&stm, &other, &weights);
            assert_eq!((k.output_sum)(&stm, &other, &weights), expected, "random, N = {n}");
        }
        // At the bound: lane j's weights all have the sign of `signs[j]`, and sum to
        // MAX_LANE_SUM in magnitude; the first of each lane takes the remainder.
        for signs in [[1i32; 16], [-1; 16], core::array::from_fn(|j| if j % 3 == 0 { -1 } else { 1 })] {
            let share = (MAX_LANE_SUM / per_lane).min(i16::MAX as u64);
            let mut weights = vec![0i16; 2 * n];
            for (j, &sign) in signs.iter().enumerate() {
                let first = MAX_LANE_SUM - share * (per_lane - 1);
                for (i, w) in weights.iter_mut().skip(j).step_by(16).enumerate() {
                    let magnitude = if i == 0 { first } else { share };
                    *w = (sign * magnitude as i32) as i16;
                }
            }
            assert_eq!(check_output(n, &weights), Ok(()));
            let lane_total: u64 = weights.iter().step_by(16).map(|w| u64::from(w.unsigned_abs())).sum();
            assert_eq!(lane_total, MAX_LANE_SUM, "N = {n}");
            for (stm, other) in [(vec![QA as i16; n], vec![i16::MAX; n]), (vec![i16::MAX; n], vec![QA as i16; n])] {
                let expected = portable::output_sum(&stm, &other, &weights);
                assert_eq!((k.output_sum)(&stm, &other, &weights), expected, "at the bound, N = {n}");
                let lanes: i64 = signs.iter().map(|&s| i64::from(s)).sum::<i64>() * (MAX_LANE_SUM * 65_025) as i64;
                assert_eq!(expected, lanes, "N = {n}");
            }
        }
    }
}
