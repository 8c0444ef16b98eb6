//! SplitMix64, the seeded generator of the random openings (private to the crate, so that the
//! games of a seed never change with another crate's generator).

/// SplitMix64 (Steele, Lea and Flood 2014): 64 bits of state, passes BigCrush, and any seed,
/// zero included, is fine.
#[derive(Clone, Debug)]
pub(crate) struct SplitMix64(cutoff_board::SplitMix64);

impl SplitMix64 {
    pub(crate) fn new(seed: u64) -> SplitMix64 {
        SplitMix64(cutoff_board::SplitMix64::new(seed))
    }

    /// The generator of game `index` of a run seeded with `seed`: its state is a hash of both,
    /// so neighbouring games (and neighbouring seeds) get unrelated streams.
    pub(crate) fn for_game(seed: u64, index: u64) -> SplitMix64 {
        let mut mix = SplitMix64::new(seed);
        let base = mix.next_u64();
        let mut mix = SplitMix64::new(base ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
        SplitMix64::new(mix.next_u64())
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in `0..n` (`n > 0`), by the multiply-high method (bias below 2^-50 for any
    /// `n` a move list can have).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_values() {
        // The first outputs of SplitMix64 seeded with 1234567 (from the reference C code).
        let mut rng = SplitMix64::new(1234567);
        assert_eq!(rng.next_u64(), 6457827717110365317);
        assert_eq!(rng.next_u64(), 3203168211198807973);
    }

    #[test]
    fn games_get_different_streams() {
        let first: Vec<u64> = (0..4).map(|i| SplitMix64::for_game(7, i).next_u64()).collect();
        for i in 0..4 {
            for j in i + 1..4 {
                assert_ne!(first[i], first[j]);
            }
        }
        assert_ne!(SplitMix64::for_game(7, 0).next_u64(), SplitMix64::for_game(8, 0).next_u64());
        let mut rng = SplitMix64::new(1);
        assert!((0..1000).all(|_| rng.below(20) < 20));
    }
}
