//! SplitMix64, the one seeded generator of the workspace.

/// SplitMix64 (Steele, Lea and Flood, 2014): 64 bits of state, one addition and three
/// xor-shift-multiplies per number, and any seed, zero included, is fine. Deterministic on
/// every platform, and `const`, so it also generates the Zobrist keys at compile time.
///
/// It gives raw 64-bit numbers only: each user derives what it needs (a bounded number, a
/// float, a shuffle) in its own way, so that its seeded results never change with another
/// crate's needs.
///
/// ```
/// use cutoff_board::SplitMix64;
/// // The first outputs of the reference C code seeded with 1234567.
/// let mut rng = SplitMix64::new(1234567);
/// assert_eq!(rng.next_u64(), 6457827717110365317);
/// assert_eq!(rng.next_u64(), 3203168211198807973);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator started from `seed`.
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    #[inline]
    pub const fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}
