//! Tests of the match statistics: hand-computed cases, independent maximum-likelihood checks,
//! and the reference values that fastchess and OpenBench publish.
//!
//! Sources (read at these commits):
//! * fastchess: `app/tests/sprt_test.cpp` and `app/tests/elo_test.cpp`, github.com/Disservin/fastchess
//!   at 74deac23aadc6718fa0f8e24ac95d16392d79444. Its `Stats(a, b, c)` is (wins, losses,
//!   draws) and `Stats(a, b, c, d, e, f)` is (LL, LD, WL, DD, WD, WW); its checks are
//!   `doctest::Approx(x).epsilon(0.01)`, i.e. `|got - x| < 0.01 (1 + max(|got|, |x|))`.
//! * OpenBench: `OpenBench/stats.py`, github.com/AndyGrant/OpenBench at
//!   9906bad18e044c4b455539317b8cf037393a7218, whose `__main__` runs `PentanomialSPRT` (normalized
//!   Elo) on `R5 = (39, 8843, 26675, 9240, 44)` (LL, LD, WL+DD, WD, WW) and `TrinomialSPRT` on
//!   `R3 = (22569, 44137, 22976)` (L, D, W) with `elo0, elo1 = 0.50, 2.50`, but prints no expected
//!   value.
//!
//! "Independent" values below were computed for these tests in Python with mpmath at 50 digits,
//! by solving the Karush-Kuhn-Tucker conditions of each constrained maximum-likelihood problem
//! (p, the two Lagrange multipliers) with Newton's method, continued in 40-200 small steps from
//! the empirical distribution to the hypothesis: no secular equation and no fixed point, so not
//! the method of the code under test. They agree with every fastchess reference value.

use super::*;

fn close(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance
}

/// fastchess' test tolerance, `doctest::Approx(expected).epsilon(0.01)`.
fn fastchess_approx(got: f64, expected: f64) -> bool {
    (got - expected).abs() < 0.01 * (1.0 + got.abs().max(expected.abs()))
}

/// A value published with two decimals: equal after rounding (half a unit of the last digit).
fn two_decimals(got: f64, published: f64) -> bool {
    (got - published).abs() <= 0.005 + 1e-9
}

/// fastchess' `Stats(wins, losses, draws)`.
fn wdl(wins: u32, losses: u32, draws: u32) -> Wdl {
    Wdl { wins, draws, losses }
}

/// fastchess' `Stats(LL, LD, WL, DD, WD, WW)` (WL and DD share a class).
fn penta(ll: u32, ld: u32, wl: u32, dd: u32, wd: u32, ww: u32) -> Pentanomial {
    Pentanomial { counts: [ll, ld, wl + dd, wd, ww] }
}

fn sprt(elo0: f64, elo1: f64, model: EloModel, statistics: Statistics) -> Sprt {
    Sprt { elo0, elo1, alpha: 0.05, beta: 0.05, model, statistics }
}

#[test]
fn sprt_matches_fastchess_reference_values() {
    use EloModel::{Logistic, Normalized};
    use Statistics::{Pentanomial as Penta, Trinomial as Tri};
    // (fastchess test case, results, elo0, elo1, model, statistics, fastchess value,
    // independent value)
    let cases = [
        ("normalized trinomial 1", wdl(36433, 36027, 68692), None, 0.0, 2.0, Normalized, Tri, 0.92, 0.923_293_450_95),
        ("normalized trinomial 2", wdl(10871, 10650, 20431), None, -1.75, 0.25, Normalized, Tri, 2.30, 2.297_500_407_1),
        ("normalized trinomial 3", wdl(4250, 0, 0), None, 0.0, 10.0, Normalized, Tri, 120.56, 120.548_267_741),
        ("logistic trinomial 1", wdl(21404, 21184, 40708), None, 0.5, 2.5, Logistic, Tri, -1.57, -1.571_888_792_69),
        ("logistic trinomial 2", wdl(57433, 57030, 106593), None, 0.0, 2.0, Logistic, Tri, -2.59, -2.593_024_163_52),
        (
            "normalized pentanomial 1",
            Wdl::default(),
            Some(penta(365, 16618, 36029, 200, 16974, 390)),
            0.0,
            2.0,
            Normalized,
            Penta,
            2.25,
            2.250_367_703_55,
        ),
        (
            "normalized pentanomial 2",
            Wdl::default(),
            Some(penta(127, 4883, 10311, 401, 5150, 104)),
            -1.75,
            0.25,
            Normalized,
            Penta,
            3.01,
            3.010_154_196_6,
        ),
        (
            "normalized pentanomial 3",
            Wdl::default(),
            Some(penta(0, 0, 0, 0, 0, 5550)),
            0.0,
            5.0,
            Normalized,
            Penta,
            111.82,
            111.797_555_087,
        ),
        (
            "logistic pentanomial 1",
            Wdl::default(),
            Some(penta(223, 9863, 20279, 1000, 10037, 246)),
            0.5,
            2.5,
            Logistic,
            Penta,
            -3.07,
            -3.074_126_439_59,
        ),
        (
            "logistic pentanomial 2",
            Wdl::default(),
            Some(penta(871, 26175, 55003, 980, 26678, 821)),
            0.0,
            2.0,
            Logistic,
            Penta,
            -4.98,
            -4.978_672_863_45,
        ),
    ];
    for (name, wdl, pairs, elo0, elo1, model, statistics, fastchess, independent) in cases {
        let llr = sprt(elo0, elo1, model, statistics).llr(wdl, pairs.unwrap_or_default());
        assert!(fastchess_approx(llr, fastchess), "{name}: LLR {llr}, fastchess {fastchess}");
        assert!(close(llr, independent, 1e-6 * (1.0 + independent.abs())), "{name}: LLR {llr} vs {independent}");
    }
}

#[test]
fn sprt_on_openbench_example_inputs() {
    // OpenBench's R5 under its own model (normalized, pentanomial) and the other models on R5
    // and R3; all values independent (OpenBench prints no expected value).
    let r5 = Pentanomial { counts: [39, 8843, 26675, 9240, 44] };
    let r3 = Wdl { wins: 22976, draws: 44137, losses: 22569 };
    for (model, statistics, wdl, pairs, independent) in [
        (EloModel::Normalized, Statistics::Pentanomial, Wdl::default(), r5, 2.941_675_207_99),
        (EloModel::Logistic, Statistics::Pentanomial, Wdl::default(), r5, 0.555_517_068_724),
        (EloModel::Normalized, Statistics::Trinomial, r3, Pentanomial::default(), 1.058_825_493_86),
        (EloModel::Logistic, Statistics::Trinomial, r3, Pentanomial::default(), 0.224_606_492_84),
    ] {
        let llr = sprt(0.5, 2.5, model, statistics).llr(wdl, pairs);
        assert!(close(llr, independent, 1e-6), "{model} {statistics:?}: LLR {llr} vs {independent}");
    }
}

/// One case of fastchess' `app/tests/elo_test.cpp`, with the values it checks (two decimals;
/// the LOS as printed).
struct EloCase {
    name: &'static str,
    outcomes: Vec<(f64, f64)>,
    games_per_sample: f64,
    score: f64,
    /// Logistic Elo and error, where the case checks them.
    elo: Option<(f64, f64)>,
    nelo: (f64, f64),
    los: Option<&'static str>,
}

impl EloCase {
    fn check(&self) {
        let name = self.name;
        let (_, mean, _) = mean_variance(&self.outcomes).unwrap();
        assert!(close(mean, self.score, 0.0005), "{name}: score {mean}");
        if let Some((diff, error)) = self.elo {
            let got = elo_estimate(&self.outcomes).unwrap();
            assert!(two_decimals(got.elo, diff) && two_decimals(got.error(), error), "{name}: Elo {got:?}");
        }
        let got = nelo_estimate(&self.outcomes, self.games_per_sample).unwrap();
        assert!(two_decimals(got.elo, self.nelo.0) && two_decimals(got.error(), self.nelo.1), "{name}: nElo {got:?}");
        if let Some(text) = self.los {
            assert_eq!(format!("{:.2}", 100.0 * los(&self.outcomes).unwrap()), text, "{name}: LOS");
        }
    }
}

#[test]
fn elo_matches_fastchess_reference_values() {
    let games = |name, wdl: Wdl, score, elo, nelo, los| EloCase {
        name,
        outcomes: wdl.outcomes().to_vec(),
        games_per_sample: 1.0,
        score,
        elo,
        nelo,
        los,
    };
    let pairs = |name, pairs: Pentanomial, score, elo, nelo, los| EloCase {
        name,
        outcomes: pairs.outcomes().to_vec(),
        games_per_sample: 2.0,
        score,
        elo,
        nelo,
        los,
    };
    for case in [
        games("EloWDL 1", wdl(76, 89, 123), 0.477, None, (-20.76, 40.13), Some("15.53")),
        games("EloWDL 2", wdl(136, 96, 111), 0.558, Some((40.70, 30.43)), (49.77, 36.77), Some("99.60")),
        games("EloWDL 3", wdl(34, 356, 0), 0.087, None, (-508.44, 34.48), None),
        pairs(
            "EloPentanomial 1",
            penta(34, 54, 31, 32, 64, 75),
            0.579,
            Some((55.58, 27.65)),
            (57.94, 28.28),
            Some("100.00"),
        ),
        pairs(
            "EloPentanomial 2",
            penta(332, 433, 457, 41, 333, 334),
            0.488,
            Some((-8.64, 10.33)),
            (-9.17, 10.96),
            Some("5.05"),
        ),
        pairs(
            "EloPentanomial 3",
            penta(7895, 8757, 5485, 200, 568, 9999),
            0.470,
            Some((-21.04, 2.95)),
            (-19.01, 2.65),
            Some("0.00"),
        ),
    ] {
        case.check();
    }
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
fn los_by_hand() {
    assert_eq!(los(&Wdl::default().outcomes()), None);
    // Symmetric results: no evidence either way.
    assert!(close(los(&Wdl { wins: 10, draws: 10, losses: 10 }.outcomes()).unwrap(), 0.5, 1e-15));
    assert!(close(los(&Pentanomial { counts: [3, 5, 7, 5, 3] }.outcomes()).unwrap(), 0.5, 1e-15));
    // 6 wins and 2 losses: mean 3/4, variance 3/16 per game, so (mean - 1/2) / sqrt(2 variance / n) = (1/4) / sqrt(3/64) = 2 / sqrt(3).
    let expected = 0.5 * (1.0 + erf(2.0 / 3f64.sqrt()));
    assert!(close(los(&Wdl { wins: 6, draws: 0, losses: 2 }.outcomes()).unwrap(), expected, 1e-12));
    // No spread: certain.
    assert_eq!(los(&Wdl { wins: 3, draws: 0, losses: 0 }.outcomes()), Some(1.0));
    assert_eq!(los(&Wdl { wins: 0, draws: 4, losses: 0 }.outcomes()), Some(0.5));
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
fn normalized_elo_by_hand() {
    // W = D = L = 10: sigma = sqrt(1/6), nElo 0, error Z95 / sqrt(30) * 800 / ln 10 (the error of
    // the normalized Elo depends on the sample count only).
    let estimate = nelo_estimate(&Wdl { wins: 10, draws: 10, losses: 10 }.outcomes(), 1.0).unwrap();
    assert_eq!(estimate.elo, 0.0);
    assert!(close(estimate.error(), Z95 / 30f64.sqrt() * NELO_SCALE, 1e-9));
    // 6 wins, 2 losses: (3/4 - 1/2) / sqrt(3/16) = 1 / sqrt(3) standard deviations.
    let estimate = nelo_estimate(&Wdl { wins: 6, draws: 0, losses: 2 }.outcomes(), 1.0).unwrap();
    assert!(close(estimate.elo, NELO_SCALE / 3f64.sqrt(), 1e-9));
    // Pairs: 20 pairs scoring 1/4 and 3/4 per game, variance 1/16 per pair, 1/8 per game.
    let pairs = Pentanomial { counts: [0, 10, 0, 10, 0] };
    let estimate = nelo_estimate(&pairs.outcomes(), 2.0).unwrap();
    assert_eq!(estimate.elo, 0.0);
    assert!(close(estimate.error(), Z95 / 40f64.sqrt() * NELO_SCALE, 1e-9));
    // No spread, no samples: undefined.
    assert_eq!(nelo_estimate(&Wdl { wins: 0, draws: 5, losses: 0 }.outcomes(), 1.0), None);
    assert_eq!(nelo_estimate(&Pentanomial::default().outcomes(), 2.0), None);
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
fn sprt_bounds_and_models() {
    let sprt = sprt(0.0, 5.0, EloModel::Normalized, Statistics::Pentanomial);
    assert!(close(sprt.lower_bound(), (0.05f64 / 0.95).ln(), 1e-15));
    assert!(close(sprt.lower_bound(), -2.944_438_979_166_44, 1e-12));
    assert!(close(sprt.upper_bound(), 2.944_438_979_166_44, 1e-12));
    assert_eq!(sprt.decision(3.0), Some(Hypothesis::H1));
    assert_eq!(sprt.decision(-3.0), Some(Hypothesis::H0));
    assert_eq!(sprt.decision(0.0), None);
    // No results, no evidence, in every model.
    for model in [EloModel::Normalized, EloModel::Logistic] {
        for statistics in [Statistics::Trinomial, Statistics::Pentanomial] {
            let s = Sprt { model, statistics, ..sprt };
            assert_eq!(s.llr(Wdl::default(), Pentanomial::default()), 0.0);
        }
    }
    assert_eq!("Normalized".parse(), Ok(EloModel::Normalized));
    assert_eq!("logistic".parse(), Ok(EloModel::Logistic));
    assert!("bayesian".parse::<EloModel>().is_err());
    assert_eq!(EloModel::Normalized.to_string(), "normalized");
}

/// Log-likelihood of frequencies `p_hat` under `p`.
fn log_likelihood(p_hat: &[f64], p: &[f64]) -> f64 {
    p_hat.iter().zip(p).map(|(a, b)| a * b.ln()).sum()
}

/// Independent trinomial MLE with a fixed mean score `s`: with p_win = t, the constraints force
/// p_draw = 2 (s - t) and p_loss = 1 - 2 s + t; the log-likelihood is concave in t, so a
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
fn logistic_trinomial_llr_against_direct_maximum_likelihood() {
    for (w, d, l, elo0, elo1) in [
        (1200u32, 2000u32, 1100u32, 0.0, 5.0),
        (320, 560, 280, -5.0, 0.0),
        (55, 20, 25, 0.0, 10.0),
        (1000, 3000, 1000, 0.0, 2.0),
    ] {
        let wdl = Wdl { wins: w, draws: d, losses: l };
        let got = logistic_llr(&wdl.outcomes(), elo0, elo1);
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
    let example = logistic_llr(&Wdl { wins: 1200, draws: 2000, losses: 1100 }.outcomes(), 0.0, 5.0);
    assert!(close(example, 1.858_43, 1e-4), "{example}");
}

#[test]
fn logistic_pentanomial_llr_is_a_constrained_maximum() {
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
        // Optimal: moving weight along any direction that keeps the sum and the mean lowers the
        // likelihood (directions: 3-point "second differences" of the support).
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
    let got = logistic_llr(&outcomes, 0.0, 5.0);
    let approx = gaussian_llr(&outcomes, 0.0, 5.0);
    assert!(close(got, approx, 0.02 * (1.0 + approx.abs())), "{got} vs {approx}");
    // Zero counts are regularised: the LLR stays finite.
    let sparse = logistic_llr(&Pentanomial { counts: [0, 0, 3, 4, 0] }.outcomes(), 0.0, 5.0);
    assert!(sparse.is_finite());
}

#[test]
fn normalized_mle_meets_its_constraint() {
    // The fixed point is a distribution whose t-value is the one asked for, also from extreme
    // data (a regularised 5550-0 pentanomial).
    for (counts, t) in [
        ([365.0, 16618.0, 36229.0, 16974.0, 390.0], 0.02),
        ([30.0, 400.0, 900.0, 450.0, 40.0], -0.05),
        ([REGULARIZE, REGULARIZE, REGULARIZE, REGULARIZE, 5550.0], 5.0 / NELO_SCALE * 2f64.sqrt()),
    ] {
        let total: f64 = counts.iter().sum();
        let p_hat: Vec<f64> = counts.iter().map(|c| c / total).collect();
        let scores = [0.0, 0.25, 0.5, 0.75, 1.0];
        let p = mle_with_t_value(&scores, &p_hat, t);
        let (mean, variance) = moments(&scores, &p);
        // In the extreme case the root lies within 4e-7 of a pole of the secular equation, so
        // the sum is exact to about 1e-10 only.
        assert!(close(p.iter().sum::<f64>(), 1.0, 1e-9));
        assert!(close((mean - 0.5) / variance.sqrt(), t, 1e-9), "t = {}", (mean - 0.5) / variance.sqrt());
    }
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
    assert_eq!(Statistics::Pentanomial.outcomes(Wdl::default(), pairs), pairs.outcomes().to_vec());
    assert_eq!(Statistics::Trinomial.games_per_sample(), 1.0);
}
