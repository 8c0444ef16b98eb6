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
/// ```
/// use cutoff_eval::{S, Score};
/// let s = S(10, -4) * 3 + S(1, 1);
/// assert_eq!(s, Score { mg: 31, eg: -11 });
/// assert_eq!(s.taper(24), 31); // pure middle game
/// assert_eq!(s.taper(0), -11); // pure end game
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Score {
    /// The middle-game half (used in full at phase 24).
    pub mg: i32,
    /// The end-game half (used in full at phase 0).
    pub eg: i32,
}

/// Shorthand constructor for a [`Score`]: `S(mg, eg)`. The weight tables in
/// [`params`](crate::params) are written with it.
#[allow(non_snake_case)]
#[inline(always)]
pub const fn S(mg: i32, eg: i32) -> Score {
    Score { mg, eg }
}

impl Score {
    /// Zero in both halves.
    pub const ZERO: Score = S(0, 0);

    /// Const-friendly addition.
    #[inline(always)]
    pub const fn add(self, other: Score) -> Score {
        S(self.mg + other.mg, self.eg + other.eg)
    }

    /// Blends the two halves for `phase` (0 = bare end game ... [`MAX_PHASE`](crate::MAX_PHASE)
    /// = full middle game): `(mg * phase + eg * (24 - phase)) / 24`, rounded towards zero
    /// (so `(-s).taper(p) == -s.taper(p)`, which keeps the evaluation colour-symmetric).
    #[inline(always)]
    pub const fn taper(self, phase: i32) -> i32 {
        (self.mg * phase + self.eg * (crate::MAX_PHASE - phase)) / crate::MAX_PHASE
    }
}

impl Add for Score {
    type Output = Score;
    #[inline(always)]
    fn add(self, rhs: Score) -> Score {
        S(self.mg + rhs.mg, self.eg + rhs.eg)
    }
}

impl AddAssign for Score {
    #[inline(always)]
    fn add_assign(&mut self, rhs: Score) {
        *self = *self + rhs;
    }
}

impl Sub for Score {
    type Output = Score;
    #[inline(always)]
    fn sub(self, rhs: Score) -> Score {
        S(self.mg - rhs.mg, self.eg - rhs.eg)
    }
}

impl SubAssign for Score {
    #[inline(always)]
    fn sub_assign(&mut self, rhs: Score) {
        *self = *self - rhs;
    }
}

impl Neg for Score {
    type Output = Score;
    #[inline(always)]
    fn neg(self) -> Score {
        S(-self.mg, -self.eg)
    }
}

impl Mul<i32> for Score {
    type Output = Score;
    #[inline(always)]
    fn mul(self, rhs: i32) -> Score {
        S(self.mg * rhs, self.eg * rhs)
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
        write!(f, "S({}, {})", self.mg, self.eg)
    }
}
