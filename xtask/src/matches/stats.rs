//! Match statistics: logistic Elo from a score, its 95% error bar (trinomial and pentanomial),
//! the likelihood of superiority (LOS), and the SPRT log-likelihood ratio.
//!
//! The LLR is the generalised SPRT of fishtest and fastchess (Michel Van den Bergh, "Comments on
//! Normalized Elo"): for each hypothesis Elo the maximum-likelihood distribution with that
//! expected score is fitted to the observed outcome frequencies (game results for the
//! trinomial model, game-pair results for the pentanomial one), and the LLR is
//! `N * sum(p_hat * ln(p1 / p0))`. Zero counts are regularised to 1e-3, as both tools do.

/// Two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Weight given to an outcome that has not occurred yet (fishtest's and fastchess' `regularize`).
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

/// Game-pair results (same opening, colours swapped) from engine1's point of view:
/// `counts[k]` is the number of pairs in which engine1 scored `k / 2` points, so the classes are
/// LL, LD, WL+DD, WD, WW.
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

/// An Elo estimate with its 95% confidence interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    pub lower: f64,
    pub upper: f64,
}

impl EloEstimate {
    /// Half the width of the 95% interval (the `±` figure of cutechess and fastchess).
    pub fn error(self) -> f64 {
        (self.upper - self.lower) / 2.0
    }
}

/// Mean and per-sample variance of a weighted outcome list; `None` without samples.
fn mean_variance(outcomes: &[(f64, f64)]) -> Option<(f64, f64, f64)> {
    let n: f64 = outcomes.iter().map(|&(_, c)| c).sum();
    if n <= 0.0 {
        return None;
    }
    let mean = outcomes.iter().map(|&(x, c)| x * c).sum::<f64>() / n;
    let variance = outcomes.iter().map(|&(x, c)| c * (x - mean).powi(2)).sum::<f64>() / n;
    Some((n, mean, variance))
}

/// Elo and 95% interval from outcomes `(score, count)`: the normal approximation of the mean
/// score, mapped through the logistic curve. Pass [`Wdl::outcomes`] for the usual (trinomial)
/// error bar, [`Pentanomial::outcomes`] for the pair-based one.
pub fn elo_estimate(outcomes: &[(f64, f64)]) -> Option<EloEstimate> {
    let (n, mean, variance) = mean_variance(outcomes)?;
    let margin = Z95 * (variance / n).sqrt();
    Some(EloEstimate {
        elo: score_to_elo(mean),
        lower: score_to_elo((mean - margin).max(0.0)),
        upper: score_to_elo((mean + margin).min(1.0)),
    })
}

/// Likelihood of superiority of engine1: `P(engine1 stronger)` from wins and losses (draws carry
/// no information), by the normal approximation `0.5 * (1 + erf((W - L) / sqrt(2 (W + L))))`.
pub fn los(wins: u32, losses: u32) -> f64 {
    if wins + losses == 0 {
        return 0.5;
    }
    let (w, l) = (f64::from(wins), f64::from(losses));
    0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
}

/// The error function, to about 1e-14: Taylor series below 3, a continued fraction of erfc above.
pub fn erf(x: f64) -> f64 {
    let z = x.abs();
    let value = if z < 3.0 {
        // erf(z) = 2/sqrt(pi) * sum_n (-1)^n z^(2n+1) / (n! (2n+1))
        let mut term = z;
        let mut sum = z;
        for n in 1..200 {
            let n = f64::from(n);
            term *= -z * z / n;
            let add = term / (2.0 * n + 1.0);
            sum += add;
            if add.abs() < 1e-17 * sum.abs() {
                break;
            }
        }
        sum * 2.0 / std::f64::consts::PI.sqrt()
    } else {
        // erfc(z) = exp(-z^2) / sqrt(pi) / (z + (1/2) / (z + 1 / (z + (3/2) / (z + ...))))
        let mut fraction = z;
        for n in (1..=60).rev() {
            fraction = z + f64::from(n) / 2.0 / fraction;
        }
        1.0 - (-z * z).exp() / std::f64::consts::PI.sqrt() / fraction
    };
    value.copysign(x)
}

/// The SPRT statistical model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SprtModel {
    /// Game results (win/draw/loss).
    Trinomial,
    /// Results of game pairs with the same opening and colours swapped (fishtest's default).
    Pentanomial,
}

/// An accepted hypothesis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hypothesis {
    /// H0: Elo <= elo0.
    H0,
    /// H1: Elo >= elo1.
    H1,
}

/// A sequential probability ratio test of H0: `elo = elo0` against H1: `elo = elo1` (logistic
/// Elo), with error probabilities `alpha` (false H1) and `beta` (false H0).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: SprtModel,
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

    /// The LLR of the results so far under the configured model.
    pub fn llr(&self, wdl: Wdl, pairs: Pentanomial) -> f64 {
        match self.model {
            SprtModel::Trinomial => llr(&wdl.outcomes(), self.elo0, self.elo1),
            SprtModel::Pentanomial => llr(&pairs.outcomes(), self.elo0, self.elo1),
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

/// Generalised log-likelihood ratio of logistic Elo `elo1` against `elo0` for outcomes
/// `(score in [0, 1], count)`, with the scores in increasing order. 0 without samples.
pub fn llr(outcomes: &[(f64, f64)], elo0: f64, elo1: f64) -> f64 {
    if outcomes.iter().all(|&(_, c)| c <= 0.0) {
        return 0.0;
    }
    let counts: Vec<f64> = outcomes.iter().map(|&(_, c)| if c > 0.0 { c } else { REGULARIZE }).collect();
    let total: f64 = counts.iter().sum();
    let scores: Vec<f64> = outcomes.iter().map(|&(x, _)| x).collect();
    let p_hat: Vec<f64> = counts.iter().map(|c| c / total).collect();
    let p0 = mle_with_mean(&scores, &p_hat, elo_to_score(elo0));
    let p1 = mle_with_mean(&scores, &p_hat, elo_to_score(elo1));
    total * p_hat.iter().zip(p0.iter().zip(&p1)).map(|(p, (a, b))| p * (b.ln() - a.ln())).sum::<f64>()
}

/// The distribution on `scores` with expected value `mean` that maximises the likelihood of the
/// empirical frequencies `p_hat` (all positive, `scores` increasing, `mean` strictly inside):
/// `p_i = p_hat_i / (1 + theta (a_i - mean))`, where `theta` solves
/// `sum p_hat_i (a_i - mean) / (1 + theta (a_i - mean)) = 0` (a decreasing function of `theta`,
/// solved by bisection on the interval where all `p_i` are positive).
pub fn mle_with_mean(scores: &[f64], p_hat: &[f64], mean: f64) -> Vec<f64> {
    let first = scores.first().copied().unwrap_or(0.0);
    let last = scores.last().copied().unwrap_or(1.0);
    let f = |theta: f64| -> f64 {
        scores.iter().zip(p_hat).map(|(&a, &p)| p * (a - mean) / (1.0 + theta * (a - mean))).sum()
    };
    let (mut lo, mut hi) = (-1.0 / (last - mean), -1.0 / (first - mean));
    for _ in 0..200 {
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
    let theta = 0.5 * (lo + hi);
    scores.iter().zip(p_hat).map(|(&a, &p)| p / (1.0 + theta * (a - mean))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn elo_of_known_scores() {
        assert_eq!(score_to_elo(0.5), 0.0);
        // 75%: 1/s - 1 = 1/3, so Elo = 400 log10(3).
        let expected = 400.0 * 3f64.log10();
        assert!(close(score_to_elo(0.75), expected, 1e-9));
        assert!(close(expected, 190.848_501_887_865, 1e-9));
        assert!(close(score_to_elo(0.25), -expected, 1e-9));
        // 10:1 odds: 400 Elo.
        assert!(close(score_to_elo(10.0 / 11.0), 400.0, 1e-9));
        for elo in [-600.0, -35.5, 0.0, 5.0, 190.0, 800.0] {
            assert!(close(score_to_elo(elo_to_score(elo)), elo, 1e-9));
        }
        assert_eq!(score_to_elo(1.0), f64::INFINITY);
        assert_eq!(score_to_elo(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn erf_matches_reference_values() {
        // Reference values: erf(x) from the C library (glibc), 16 digits.
        for (x, expected) in [
            (0.0, 0.0),
            (0.1, 0.112_462_916_018_284_9),
            (0.5, 0.520_499_877_813_046_5),
            (1.0, 0.842_700_792_949_714_9),
            (2.0, 0.995_322_265_018_952_7),
            (3.5, 0.999_999_256_901_627_6),
            (6.0, 1.0),
        ] {
            assert!(close(erf(x), expected, 1e-13), "erf({x}) = {}", erf(x));
            assert!(close(erf(-x), -expected, 1e-13));
        }
    }

    #[test]
    fn los_of_known_results() {
        assert_eq!(los(0, 0), 0.5);
        // W = D = L (and any W = L): no evidence either way.
        assert!(close(los(10, 10), 0.5, 1e-15));
        assert!(close(los(123, 123), 0.5, 1e-15));
        // W - L = sqrt(2 (W + L)) = 4 gives 0.5 (1 + erf(1)).
        assert!(close(los(6, 2), 0.5 * (1.0 + 0.842_700_792_949_714_9), 1e-12));
        assert!(close(los(2, 6), 0.5 * (1.0 - 0.842_700_792_949_714_9), 1e-12));
        assert!(los(100, 50) > 0.999);
    }

    #[test]
    fn trinomial_error_bar_by_hand() {
        // W = D = L = 10: score 1/2, variance per game = (10/4 + 0 + 10/4) / 30 = 1/6, standard
        // error sqrt(1/6/30) = sqrt(1/180); the interval is symmetric around 0 Elo.
        let wdl = Wdl { wins: 10, draws: 10, losses: 10 };
        let estimate = elo_estimate(&wdl.outcomes()).unwrap();
        let margin = Z95 * (1.0f64 / 180.0).sqrt();
        let upper = -400.0 * (1.0 / (0.5 + margin) - 1.0).log10();
        assert_eq!(estimate.elo, 0.0);
        assert!(close(estimate.error(), upper, 1e-9));
        assert!(close(estimate.error(), 104.557_863_294, 1e-6));
        assert!(close(estimate.lower, -estimate.upper, 1e-9));

        // 30 wins, 40 draws, 20 losses: s = 50/90; cross-checked with an independent script.
        let estimate = elo_estimate(&Wdl { wins: 30, draws: 40, losses: 20 }.outcomes()).unwrap();
        assert!(close(estimate.elo, 38.764_005_203, 1e-6));
        assert!(close(estimate.error(), 54.011_912_912, 1e-6));

        assert_eq!(elo_estimate(&Wdl::default().outcomes()), None);
        // Only wins: infinite Elo, no spread.
        let all_wins = elo_estimate(&Wdl { wins: 3, draws: 0, losses: 0 }.outcomes()).unwrap();
        assert_eq!(all_wins.elo, f64::INFINITY);
    }

    #[test]
    fn pentanomial_error_bar_by_hand() {
        // Pairs scoring 0.5 and 1.5 points, 10 of each: per-game pair scores 0.25 and 0.75, mean
        // 0.5, variance 1/16, standard error sqrt(1/16/20).
        let pairs = Pentanomial { counts: [0, 10, 0, 10, 0] };
        let estimate = elo_estimate(&pairs.outcomes()).unwrap();
        let margin = Z95 * (1.0f64 / 16.0 / 20.0).sqrt();
        assert_eq!(estimate.elo, 0.0);
        assert!(close(estimate.upper, score_to_elo(0.5 + margin), 1e-9));
        // The same 40 games as a trinomial (10 W, 20 D, 10 L): variance (10/4 + 10/4) / 40 = 1/8
        // per game over 40 games, also 1/320: the pairs were uncorrelated (WD and LD).
        let wdl = Wdl { wins: 10, draws: 20, losses: 10 };
        let tri = elo_estimate(&wdl.outcomes()).unwrap();
        assert!(close(tri.error(), estimate.error(), 1e-9));
        // Correlated pairs (WL) narrow the pentanomial interval: 10 pairs WL = all scoring 1.
        let correlated = Pentanomial { counts: [0, 0, 10, 0, 0] };
        assert!(elo_estimate(&correlated.outcomes()).unwrap().error() < 1e-9);
    }

    #[test]
    fn sprt_bounds() {
        let sprt = Sprt { elo0: 0.0, elo1: 5.0, alpha: 0.05, beta: 0.05, model: SprtModel::Pentanomial };
        assert!(close(sprt.lower_bound(), (0.05f64 / 0.95).ln(), 1e-15));
        assert!(close(sprt.lower_bound(), -2.944_438_979_166_44, 1e-12));
        assert!(close(sprt.upper_bound(), 2.944_438_979_166_44, 1e-12));
        assert_eq!(sprt.decision(3.0), Some(Hypothesis::H1));
        assert_eq!(sprt.decision(-3.0), Some(Hypothesis::H0));
        assert_eq!(sprt.decision(0.0), None);
    }

    /// Log-likelihood of frequencies `p_hat` under `p`.
    fn log_likelihood(p_hat: &[f64], p: &[f64]) -> f64 {
        p_hat.iter().zip(p).map(|(a, b)| a * b.ln()).sum()
    }

    /// Independent trinomial MLE with a fixed mean score `s`: with p_win = t, the constraints
    /// force p_draw = 2 (s - t) and p_loss = 1 - 2 s + t; the log-likelihood is concave in t, so a
    /// golden-section search over the feasible t finds the maximum.
    fn trinomial_max_log_likelihood(wins: f64, draws: f64, losses: f64, s: f64) -> f64 {
        let g = |t: f64| wins * t.ln() + draws * (2.0 * (s - t)).ln() + losses * (1.0 - 2.0 * s + t).ln();
        let (mut a, mut b) = ((2.0 * s - 1.0).max(0.0), s);
        let ratio = (5f64.sqrt() - 1.0) / 2.0;
        for _ in 0..300 {
            let c = b - ratio * (b - a);
            let d = a + ratio * (b - a);
            if g(c) > g(d) {
                b = d;
            } else {
                a = c;
            }
        }
        g(0.5 * (a + b))
    }

    /// The classic normal approximation of the GSPRT: `N (s1 - s0) (2 s - s0 - s1) / (2 var)`,
    /// written as the log-ratio of two Gaussian likelihoods.
    fn gaussian_llr(outcomes: &[(f64, f64)], elo0: f64, elo1: f64) -> f64 {
        let n: f64 = outcomes.iter().map(|o| o.1).sum();
        let s = outcomes.iter().map(|o| o.0 * o.1).sum::<f64>() / n;
        let var = outcomes.iter().map(|o| o.1 * (o.0 - s).powi(2)).sum::<f64>() / n;
        let (s0, s1) = (elo_to_score(elo0), elo_to_score(elo1));
        n * ((s - s0).powi(2) - (s - s1).powi(2)) / (2.0 * var)
    }

    #[test]
    fn trinomial_llr_against_direct_maximum_likelihood() {
        for (w, d, l, elo0, elo1) in [
            (1200u32, 2000u32, 1100u32, 0.0, 5.0),
            (320, 560, 280, -5.0, 0.0),
            (55, 20, 25, 0.0, 10.0),
            (1000, 3000, 1000, 0.0, 2.0),
        ] {
            let wdl = Wdl { wins: w, draws: d, losses: l };
            let got = llr(&wdl.outcomes(), elo0, elo1);
            let (w, d, l) = (f64::from(w), f64::from(d), f64::from(l));
            let expected = trinomial_max_log_likelihood(w, d, l, elo_to_score(elo1))
                - trinomial_max_log_likelihood(w, d, l, elo_to_score(elo0));
            assert!(close(got, expected, 1e-6 * (1.0 + expected.abs())), "{got} vs {expected}");
            // The normal approximation agrees closely for large samples with a score near the
            // hypotheses (not for 55-20-25, a 65% score).
            let approx = gaussian_llr(&wdl.outcomes(), elo0, elo1);
            if wdl.games() >= 1000 {
                assert!(close(got, approx, 0.02 * (1.0 + approx.abs())), "{got} vs approx {approx}");
            }
        }
        // A worked example: 1200 W, 2000 D, 1100 L, [0, 5] (also computed with a Python script).
        let example = llr(&Wdl { wins: 1200, draws: 2000, losses: 1100 }.outcomes(), 0.0, 5.0);
        assert!(close(example, 1.858_43, 1e-4), "{example}");
        // No games, no evidence.
        assert_eq!(llr(&Wdl::default().outcomes(), 0.0, 5.0), 0.0);
    }

    #[test]
    fn pentanomial_llr_is_a_constrained_maximum() {
        let pairs = Pentanomial { counts: [30, 400, 900, 450, 40] };
        let outcomes = pairs.outcomes();
        let scores: Vec<f64> = outcomes.iter().map(|o| o.0).collect();
        let n = f64::from(pairs.pairs());
        let p_hat: Vec<f64> = outcomes.iter().map(|o| o.1 / n).collect();
        for elo in [-5.0, 0.0, 5.0] {
            let s = elo_to_score(elo);
            let p = mle_with_mean(&scores, &p_hat, s);
            // Feasible: a distribution with mean s.
            assert!(close(p.iter().sum::<f64>(), 1.0, 1e-12));
            assert!(close(p.iter().zip(&scores).map(|(p, x)| p * x).sum::<f64>(), s, 1e-12));
            // Optimal: moving weight along any direction that keeps the sum and the mean lowers
            // the likelihood (directions: 3-point "second differences" of the support).
            let best = log_likelihood(&p_hat, &p);
            for i in 0..3 {
                for eps in [1e-4, -1e-4] {
                    let mut q = p.clone();
                    q[i] += eps;
                    q[i + 1] -= 2.0 * eps;
                    q[i + 2] += eps;
                    assert!(log_likelihood(&p_hat, &q) < best);
                }
            }
        }
        let got = llr(&outcomes, 0.0, 5.0);
        let approx = gaussian_llr(&outcomes, 0.0, 5.0);
        assert!(close(got, approx, 0.02 * (1.0 + approx.abs())), "{got} vs {approx}");
        // Zero counts are regularised: the LLR stays finite.
        let sparse = llr(&Pentanomial { counts: [0, 0, 3, 4, 0] }.outcomes(), 0.0, 5.0);
        assert!(sparse.is_finite());
    }

    #[test]
    fn pentanomial_classes() {
        let mut pairs = Pentanomial::default();
        pairs.add(4);
        pairs.add(2);
        pairs.add(2);
        pairs.add(0);
        assert_eq!(pairs.counts, [1, 0, 2, 0, 1]);
        assert_eq!(pairs.pairs(), 4);
        assert_eq!(pairs.outcomes()[3], (0.75, 0.0));
    }
}
