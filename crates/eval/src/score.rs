//! The packed middle-game / end-game score used by every evaluation weight.

use core::fmt;
use core::iter::Sum;
use core::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A pair of scores in centipawns: one for the middle game, one for the end game.
///
/// Every evaluation weight is a `Score`; the final evaluation blends the two halves by the
/// game [phase](crate::phase) ("tapered evaluation"). Supports `+ - +=  -=`, negation,
/// multiplication by an `i32` count and summing an iterator.
///
/// Both halves are packed into one `i32` (the end game in the high 16 bits, the middle game
/// in the low 16, carried as signed), so that adding two scores or multiplying one by a count
/// is one integer operation: the evaluation adds several dozen weights per call. Each half,
/// and each sum of weights the evaluation forms, must lie in `i16` range (±32,767 cp; the
/// largest sum is a side's material and position, a few thousand).
///
/// ```
/// use cutoff_eval::{S, Score};
/// let s = S(10, -4) * 3 + S(1, 1);
/// assert_eq!(s, S(31, -11));
/// assert_eq!((s.mg(), s.eg()), (31, -11));
/// assert_eq!(s.taper(24), 31); // pure middle game
/// assert_eq!(s.taper(0), -11); // pure end game
/// assert_eq!(S(-300, 700) - S(-400, 900), S(100, -200));
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Score(i32);

/// Shorthand constructor for a [`Score`]: `S(mg, eg)`. The weight tables in
/// [`params`](crate::params) are written with it. Each half must lie in `i16` range.
#[allow(non_snake_case)]
#[inline(always)]
pub const fn S(mg: i32, eg: i32) -> Score {
    debug_assert!(mg >= i16::MIN as i32 && mg <= i16::MAX as i32 && eg >= i16::MIN as i32 && eg <= i16::MAX as i32);
    Score(eg * (1 << 16) + mg)
}

impl Score {
    /// Zero in both halves.
    pub const ZERO: Score = S(0, 0);

    /// The middle-game half (used in full at phase 24).
    #[inline(always)]
    pub const fn mg(self) -> i32 {
        self.0 as i16 as i32
    }

    /// The end-game half (used in full at phase 0).
    #[inline(always)]
    pub const fn eg(self) -> i32 {
        // The low half is signed: adding 2^15 carries a borrow it took back into the high half.
        (self.0 + (1 << 15)) >> 16
    }

    /// Const-friendly addition.
    #[inline(always)]
    pub const fn add(self, other: Score) -> Score {
        Score(self.0 + other.0)
    }

    /// Blends the two halves for `phase` (0 = bare end game ... [`MAX_PHASE`](crate::MAX_PHASE)
    /// = full middle game): `(mg * phase + eg * (24 - phase)) / 24`, rounded towards zero
    /// (so `(-s).taper(p) == -s.taper(p)`, which keeps the evaluation colour-symmetric).
    #[inline(always)]
    pub const fn taper(self, phase: i32) -> i32 {
        (self.mg() * phase + self.eg() * (crate::MAX_PHASE - phase)) / crate::MAX_PHASE
    }
}

impl Add for Score {
    type Output = Score;
    #[inline(always)]
    fn add(self, rhs: Score) -> Score {
        Score(self.0 + rhs.0)
    }
}

impl AddAssign for Score {
    #[inline(always)]
    fn add_assign(&mut self, rhs: Score) {
        self.0 += rhs.0;
    }
}

impl Sub for Score {
    type Output = Score;
    #[inline(always)]
    fn sub(self, rhs: Score) -> Score {
        Score(self.0 - rhs.0)
    }
}

impl SubAssign for Score {
    #[inline(always)]
    fn sub_assign(&mut self, rhs: Score) {
        self.0 -= rhs.0;
    }
}

impl Neg for Score {
    type Output = Score;
    #[inline(always)]
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

impl Mul<i32> for Score {
    type Output = Score;
    #[inline(always)]
    fn mul(self, rhs: i32) -> Score {
        Score(self.0 * rhs)
    }
}

impl Sum for Score {
    fn sum<I: Iterator<Item = Score>>(iter: I) -> Score {
        iter.fold(Score::ZERO, Add::add)
    }
}

impl fmt::Display for Score {
    /// `S(mg, eg)`, the way the weight tables are written.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "S({}, {})", self.mg(), self.eg())
    }
}

impl fmt::Debug for Score {
    /// `S(mg, eg)`, as [`Display`](fmt::Display) writes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
