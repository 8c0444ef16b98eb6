//! Match statistics as fastchess and OpenBench compute them: logistic Elo and normalized Elo
//! (nElo) with 95% intervals, the likelihood of superiority (LOS), and the SPRT log-likelihood
//! ratio under either Elo model.
//!
//! Results are *outcomes* `(score in [0, 1], count)`: per game (trinomial: 0, 1/2, 1) or per
//! game pair with colours swapped (pentanomial: the pair's points per game, 0, 1/4, ..., 1).
//!
//! * **Logistic Elo**: the expected score is `1 / (1 + 10^(-elo / 400))`; the estimate maps the
//!   mean score through that curve, and its interval is the normal-approximation interval of the
//!   mean mapped the same way.
//! * **Normalized Elo** (Michel Van den Bergh, "Comments on normalized Elo"): `(s - 1/2) / sigma`
//!   times `800 / ln 10`, where `sigma` is the standard deviation of one game's score; a pair's
//!   per-game score has about half a game's variance, so for pairs `sigma = sqrt(2) sigma_pair`.
//!   It measures how fast a test resolves, whatever the draw rate.
//!
//! The SPRT is the generalised SPRT of fishtest, OpenBench and fastchess: for each hypothesis
//! the maximum-likelihood distribution on the outcome scores that satisfies the hypothesis
//! (logistic: a mean score; normalized: a `(mean - 1/2) / sigma`) is fitted to the observed
//! frequencies `p_hat`, and the LLR is `N * sum(p_hat * ln(p1 / p0))`. Zero counts are
//! regularised to 1e-3, as those tools do.

use std::fmt;
use std::str::FromStr;

/// Two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// One unit of normalized Elo per unit of `t = (s - 1/2) / sigma`: `800 / ln 10`.
pub const NELO_SCALE: f64 = 800.0 / std::f64::consts::LN_10;

/// Weight given to an outcome that has not occurred yet (the `regularize` of fishtest and
/// fastchess).
const REGULARIZE: f64 = 1e-3;

/// Logistic Elo difference for an expected score in (0, 1); +-infinity at 1 and 0.
pub fn score_to_elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Expected score for a logistic Elo difference.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Game results from engine1's point of view.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Wdl {
    pub fn games(self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points per game, `None` before the first game.
    pub fn score(self) -> Option<f64> {
        (self.games() > 0).then(|| (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(self.games()))
    }

    pub fn draw_ratio(self) -> Option<f64> {
        (self.games() > 0).then(|| f64::from(self.draws) / f64::from(self.games()))
    }

    /// `(score, count)` for a loss, a draw and a win.
    pub fn outcomes(self) -> [(f64, f64); 3] {
        [(0.0, f64::from(self.losses)), (0.5, f64::from(self.draws)), (1.0, f64::from(self.wins))]
    }
}

impl std::ops::Add for Wdl {
    type Output = Wdl;

    /// The games of two counts together (the parts of one match).
    fn add(self, other: Wdl) -> Wdl {
        Wdl { wins: self.wins + other.wins, draws: self.draws + other.draws, losses: self.losses + other.losses }
    }
}

/// Game-pair results (same opening, colours swapped) from engine1's point of view:
/// `counts[k]` is the number of pairs in which engine1 scored `k / 2` points, so the classes are
/// LL, LD, WL+DD, WD, WW (fastchess' `Ptnml(0-2)`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Pentanomial {
    pub counts: [u32; 5],
}

impl Pentanomial {
    /// Adds a pair in which engine1 scored `half_points / 2` points (0..=4).
    pub fn add(&mut self, half_points: usize) {
        self.counts[half_points.min(4)] += 1;
    }

    pub fn pairs(self) -> u32 {
        self.counts.iter().sum()
    }

    /// `(score per game, count)` for each pair class.
    pub fn outcomes(self) -> [(f64, f64); 5] {
        std::array::from_fn(|k| (k as f64 / 4.0, f64::from(self.counts[k])))
    }
}

impl std::ops::Add for Pentanomial {
    type Output = Pentanomial;

    /// The pairs of two counts together (the parts of one match).
    fn add(self, other: Pentanomial) -> Pentanomial {
        Pentanomial { counts: std::array::from_fn(|k| self.counts[k] + other.counts[k]) }
    }
}

/// How results are counted: per game or per game pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Statistics {
    /// Game results (win/draw/loss).
    Trinomial,
    /// Results of game pairs with the same opening and colours swapped (the default of fishtest,
    /// OpenBench and fastchess).
    Pentanomial,
}

impl fmt::Display for Statistics {
    /// `trinomial`, `pentanomial`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Statistics::Trinomial => "trinomial",
            Statistics::Pentanomial => "pentanomial",
        })
    }
}

impl Statistics {
    /// Games per counted sample: 1 for games, 2 for pairs.
    pub fn games_per_sample(self) -> f64 {
        match self {
            Statistics::Trinomial => 1.0,
            Statistics::Pentanomial => 2.0,
        }
    }

    /// The outcomes of `wdl` (trinomial) or `pairs` (pentanomial).
    pub fn outcomes(self, wdl: Wdl, pairs: Pentanomial) -> Vec<(f64, f64)> {
        match self {
            Statistics::Trinomial => wdl.outcomes().to_vec(),
            Statistics::Pentanomial => pairs.outcomes().to_vec(),
        }
    }
}

/// An Elo estimate (logistic or normalized) with its 95% confidence interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    pub lower: f64,
    pub upper: f64,
}

impl EloEstimate {
    /// Half the width of the 95% interval (the `±` / `+/-` figure of cutechess and fastchess).
    pub fn error(self) -> f64 {
        (self.upper - self.lower) / 2.0
    }
}

/// Sample count, mean and per-sample variance of a weighted outcome list; `None` without
/// samples.
fn mean_variance(outcomes: &[(f64, f64)]) -> Option<(f64, f64, f64)> {
    let n: f64 = outcomes.iter().map(|&(_, c)| c).sum();
    if n <= 0.0 {
        return None;
    }
    let mean = outcomes.iter().map(|&(x, c)| x * c).sum::<f64>() / n;
    let variance = outcomes.iter().map(|&(x, c)| c * (x - mean).powi(2)).sum::<f64>() / n;
    Some((n, mean, variance))
}

/// Logistic Elo and its 95% interval from outcomes `(score, count)`: the normal approximation
/// of the mean score, mapped through the logistic curve. Pass [`Wdl::outcomes`] for the
/// trinomial error bar, [`Pentanomial::outcomes`] for the pair-based one.
pub fn elo_estimate(outcomes: &[(f64, f64)]) -> Option<EloEstimate> {
    let (n, mean, variance) = mean_variance(outcomes)?;
    let margin = Z95 * (variance / n).sqrt();
    Some(EloEstimate {
        elo: score_to_elo(mean),
        lower: score_to_elo((mean - margin).max(0.0)),
        upper: score_to_elo((mean + margin).min(1.0)),
    })
}

/// Normalized Elo and its 95% interval, from outcomes counted per game
/// (`games_per_sample = 1`) or per pair (`2`). `None` without samples or without spread (all
/// results equal: the standard deviation is zero).
pub fn nelo_estimate(outcomes: &[(f64, f64)], games_per_sample: f64) -> Option<EloEstimate> {
    let (n, mean, variance) = mean_variance(outcomes)?;
    if variance <= 0.0 {
        return None;
    }
    let sigma_per_game = (games_per_sample * variance).sqrt();
    let elo = (mean - 0.5) / sigma_per_game * NELO_SCALE;
    let margin = Z95 * (variance / n).sqrt() / sigma_per_game * NELO_SCALE;
    Some(EloEstimate { elo, lower: elo - margin, upper: elo + margin })
}

/// Likelihood of superiority of engine1, `P(true score > 1/2)`, by the normal approximation of
/// the mean score (as fastchess computes it, from games or from pairs). `None` without samples.
pub fn los(outcomes: &[(f64, f64)]) -> Option<f64> {
    let (n, mean, variance) = mean_variance(outcomes)?;
    if variance <= 0.0 {
        return Some(if mean > 0.5 {
            1.0
        } else if mean < 0.5 {
            0.0
        } else {
            0.5
        });
    }
    Some(0.5 * (1.0 + erf((mean - 0.5) / (2.0 * variance / n).sqrt())))
}

/// The error function (`libm`'s port of the C library's `erf`).
pub use libm::erf;

/// The Elo scale the SPRT bounds are given in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EloModel {
    /// Normalized Elo (the default of fastchess, OpenBench and fishtest).
    Normalized,
    /// Logistic Elo (fastchess' `model=logistic`).
    Logistic,
}

impl FromStr for EloModel {
    type Err = String;

    fn from_str(text: &str) -> Result<EloModel, String> {
        match text.to_ascii_lowercase().as_str() {
            "normalized" => Ok(EloModel::Normalized),
            "logistic" => Ok(EloModel::Logistic),
            _ => Err(format!("unknown SPRT model `{text}` (expected normalized or logistic)")),
        }
    }
}

impl fmt::Display for EloModel {
    /// The fastchess spelling: `normalized`, `logistic`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EloModel::Normalized => "normalized",
            EloModel::Logistic => "logistic",
        })
    }
}

/// An accepted hypothesis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hypothesis {
    /// H0: Elo <= elo0.
    H0,
    /// H1: Elo >= elo1.
    H1,
}

/// A sequential probability ratio test of H0: `elo = elo0` against H1: `elo = elo1` in the
/// chosen Elo model, with error probabilities `alpha` (false H1) and `beta` (false H0).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: EloModel,
    pub statistics: Statistics,
}

impl Sprt {
    /// Accept H0 at or below this LLR: `ln(beta / (1 - alpha))`.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// Accept H1 at or above this LLR: `ln((1 - beta) / alpha)`.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The LLR of the results so far under the configured model and statistics.
    pub fn llr(&self, wdl: Wdl, pairs: Pentanomial) -> f64 {
        let outcomes = self.statistics.outcomes(wdl, pairs);
        match self.model {
            EloModel::Logistic => logistic_llr(&outcomes, self.elo0, self.elo1),
            EloModel::Normalized => normalized_llr(&outcomes, self.elo0, self.elo1, self.statistics.games_per_sample()),
        }
    }

    pub fn decision(&self, llr: f64) -> Option<Hypothesis> {
        if llr >= self.upper_bound() {
            Some(Hypothesis::H1)
        } else if llr <= self.lower_bound() {
            Some(Hypothesis::H0)
        } else {
            None
        }
    }
}

/// Scores and regularised empirical frequencies of outcomes, with the sample count; `None`
/// without samples.
fn empirical(outcomes: &[(f64, f64)]) -> Option<(Vec<f64>, Vec<f64>, f64)> {
    if outcomes.iter().all(|&(_, c)| c <= 0.0) {
        return None;
    }
    let counts: Vec<f64> = outcomes.iter().map(|&(_, c)| if c > 0.0 { c } else { REGULARIZE }).collect();
    let total: f64 = counts.iter().sum();
    let scores = outcomes.iter().map(|&(x, _)| x).collect();
    Some((scores, counts.iter().map(|c| c / total).collect(), total))
}

/// `total * sum(p_hat * ln(p1 / p0))`.
fn log_likelihood_ratio(total: f64, p_hat: &[f64], p0: &[f64], p1: &[f64]) -> f64 {
    total * p_hat.iter().zip(p0.iter().zip(p1)).map(|(p, (a, b))| p * (b.ln() - a.ln())).sum::<f64>()
}

/// Generalised log-likelihood ratio of logistic Elo `elo1` against `elo0` for outcomes
/// `(score in [0, 1], count)`, with the scores in increasing order. 0 without samples.
pub fn logistic_llr(outcomes: &[(f64, f64)], elo0: f64, elo1: f64) -> f64 {
    let Some((scores, p_hat, total)) = empirical(outcomes) else { return 0.0 };
    let p0 = mle_with_mean(&scores, &p_hat, elo_to_score(elo0));
    let p1 = mle_with_mean(&scores, &p_hat, elo_to_score(elo1));
    log_likelihood_ratio(total, &p_hat, &p0, &p1)
}

/// Generalised log-likelihood ratio of normalized Elo `nelo1` against `nelo0` for outcomes
/// counted per game (`games_per_sample = 1`) or per game pair (`2`). 0 without samples.
///
/// A normalized Elo `x` is `t = x / NELO_SCALE` standard deviations of one game's score above
/// 1/2, that is `t * sqrt(games_per_sample)` standard deviations of one sample's.
pub fn normalized_llr(outcomes: &[(f64, f64)], nelo0: f64, nelo1: f64, games_per_sample: f64) -> f64 {
    let Some((scores, p_hat, total)) = empirical(outcomes) else { return 0.0 };
    let t = |nelo: f64| nelo / NELO_SCALE * games_per_sample.sqrt();
    let p0 = mle_with_t_value(&scores, &p_hat, t(nelo0));
    let p1 = mle_with_t_value(&scores, &p_hat, t(nelo1));
    log_likelihood_ratio(total, &p_hat, &p0, &p1)
}

/// The root `theta` of the secular equation `sum(p_hat_i phi_i / (1 + theta phi_i)) = 0` on the
/// interval where every `1 + theta phi_i` is positive (`phi` must take both signs; 0 otherwise).
/// The left side decreases in `theta` from +infinity to -infinity there, so bisection finds it.
fn secular_root(phi: &[f64], p_hat: &[f64]) -> f64 {
    let min = phi.iter().copied().fold(f64::INFINITY, f64::min);
    let max = phi.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(min < 0.0 && max > 0.0) {
        return 0.0;
    }
    let f = |theta: f64| -> f64 { phi.iter().zip(p_hat).map(|(&a, &p)| p * a / (1.0 + theta * a)).sum() };
    let (mut lo, mut hi) = (-1.0 / max, -1.0 / min);
    for _ in 0..300 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// `p_i = p_hat_i / (1 + theta phi_i)` with `theta` from [`secular_root`]: the distribution
/// closest to `p_hat` (maximum likelihood) with `sum(p_i phi_i) = 0`.
fn reweight(phi: &[f64], p_hat: &[f64]) -> Vec<f64> {
    let theta = secular_root(phi, p_hat);
    phi.iter().zip(p_hat).map(|(&a, &p)| p / (1.0 + theta * a)).collect()
}

/// The distribution on `scores` with expected value `mean` that maximises the likelihood of the
/// empirical frequencies `p_hat` (all positive, `mean` strictly inside the scores' range):
/// [`reweight`] with `phi_i = a_i - mean` (Van den Bergh, "Comparing the approximations for the
/// generalized log likelihood ratio of a multinomial distribution", Proposition 1.1).
pub fn mle_with_mean(scores: &[f64], p_hat: &[f64], mean: f64) -> Vec<f64> {
    let phi: Vec<f64> = scores.iter().map(|&a| a - mean).collect();
    reweight(&phi, p_hat)
}

/// Mean and variance of the distribution `p` on `scores`.
fn moments(scores: &[f64], p: &[f64]) -> (f64, f64) {
    let mean: f64 = scores.iter().zip(p).map(|(a, p)| a * p).sum();
    (mean, scores.iter().zip(p).map(|(a, p)| p * (a - mean).powi(2)).sum())
}

/// Iterations of the fixed point in [`mle_with_t_value`] (it converges in a handful).
const T_VALUE_ITERATIONS: usize = 100;

/// The distribution on `scores` with `(mean - 1/2) / sigma = t` that maximises the likelihood of
/// `p_hat` ("Comments on normalized Elo", section 4.1): the fixed point of [`reweight`] with
/// `phi_i = a_i - 1/2 - t sigma (1 + ((a_i - mean) / sigma)^2) / 2`, where `mean` and `sigma` are
/// those of the current estimate, starting from the uniform distribution. (Each `phi` is the
/// gradient of the constraint, shifted so that `sum(p_i phi_i) = 0` is the constraint itself.)
pub fn mle_with_t_value(scores: &[f64], p_hat: &[f64], t: f64) -> Vec<f64> {
    let mut p = vec![1.0 / scores.len() as f64; scores.len()];
    for _ in 0..T_VALUE_ITERATIONS {
        let (mean, variance) = moments(scores, &p);
        let sigma = variance.sqrt();
        let phi: Vec<f64> =
            scores.iter().map(|&a| a - 0.5 - 0.5 * t * sigma * (1.0 + ((a - mean) / sigma).powi(2))).collect();
        let next = reweight(&phi, p_hat);
        let change = next.iter().zip(&p).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        p = next;
        if change < 1e-14 {
            break;
        }
    }
    p
}

#[cfg(test)]
mod tests;
