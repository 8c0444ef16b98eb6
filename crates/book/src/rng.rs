//! The small seeded generator behind [`Book::choose`](crate::Book::choose).

/// A SplitMix64 pseudo-random generator (Steele, Lea and Flood, 2014): 64 bits of state, one
/// addition and three xor-shift-multiplies per number. Deterministic: the same seed gives the
/// same sequence on every platform, so a seeded book choice can be replayed.
///
/// ```
/// use cutoff_book::BookRng;
/// let mut a = BookRng::new(42);
/// let mut b = BookRng::new(42);
/// assert_eq!(a.next_u64(), b.next_u64());
/// assert!(a.below(6) < 6);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookRng {
    inner: cutoff_board::SplitMix64,
}

impl BookRng {
    /// A generator started from `seed` (any value, zero included).
    ///
    /// ```
    /// use cutoff_book::BookRng;
    /// assert_ne!(BookRng::new(1).next_u64(), BookRng::new(2).next_u64());
    /// ```
    pub const fn new(seed: u64) -> BookRng {
        BookRng { inner: cutoff_board::SplitMix64::new(seed) }
    }

    /// The next 64 random bits.
    ///
    /// ```
    /// use cutoff_book::BookRng;
    /// // The first output of SplitMix64 seeded with 0 (the reference implementation's value).
    /// assert_eq!(BookRng::new(0).next_u64(), 0xE220A8397B1DCDAF);
    /// ```
    pub const fn next_u64(&mut self) -> u64 {
        self.inner.next_u64()
    }

    /// A number in `0..n`, without modulo bias (Lemire's multiply-and-reject method).
    /// Returns 0 when `n` is 0.
    ///
    /// ```
    /// use cutoff_book::BookRng;
    /// let mut rng = BookRng::new(7);
    /// assert!((0..1000).all(|_| rng.below(3) < 3));
    /// assert_eq!(rng.below(1), 0);
    /// ```
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        let threshold = n.wrapping_neg() % n; // 2^64 mod n: the low products to reject
        loop {
            let product = u128::from(self.next_u64()) * u128::from(n);
            if (product as u64) >= threshold {
                return (product >> 64) as u64;
            }
        }
    }
}
