//! `cargo xtask wdl`: fits the win/draw/loss model of `cutoff_search::wdl` to game results.
//!
//! Each labelled position gives a search score `s` (side to move), the material count `m` and
//! the game's outcome for the side to move. The model's `a(m)` and `b(m)` (cubic polynomials
//! in `m / 58`) are fitted by maximum likelihood: Adam on the mean negative log-likelihood of
//! the observed outcomes, with exact gradients. Deterministic: no sampling, sums in order.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use cutoff_board::Color;
use cutoff_search::wdl::material;

use crate::tune::{default_data, parse_line};
use crate::util::Result;

#[derive(Debug, Args)]
pub struct WdlArgs {
    /// Positions with `ce` (score, side to move) and `c9` (result, White's view).
    /// [default: the tuner's default data]
    #[arg(long, value_name = "FILE")]
    pub data: Option<PathBuf>,

    /// Adam steps.
    #[arg(long, default_value_t = 3000)]
    pub steps: usize,

    /// Adam learning rate (the coefficients are in centipawns); it decays to a tenth.
    #[arg(long, default_value_t = 5.0)]
    pub lr: f64,

    /// Positions whose score is beyond this (centipawns) are left out: adjudicated games
    /// and mates say little about the shape of the curve.
    #[arg(long, default_value_t = 2000)]
    pub max_score: i32,
}

/// One sample: score (side to move), `x = material / 58`, outcome for the side to move
/// (0 win, 1 draw, 2 loss).
struct Sample {
    score: f64,
    x: f64,
    outcome: u8,
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Mean negative log-likelihood and its gradient with respect to the 8 coefficients
/// (`a` then `b`, highest power first).
fn nll(samples: &[Sample], p: &[f64; 8]) -> (f64, [f64; 8]) {
    let mut total = 0.0;
    let mut grad = [0.0; 8];
    for s in samples {
        let powers = [s.x * s.x * s.x, s.x * s.x, s.x, 1.0];
        let a: f64 = (0..4).map(|i| p[i] * powers[i]).sum();
        let b: f64 = (0..4).map(|i| p[4 + i] * powers[i]).sum::<f64>().max(1.0);
        let zw = (s.score - a) / b;
        let zl = (-s.score - a) / b;
        let (w, l) = (sigmoid(zw), sigmoid(zl));
        let d = (1.0 - w - l).max(1e-9);
        // d(prob)/d(a) and d(prob)/d(b) for each outcome.
        let (dw_dz, dl_dz) = (w * (1.0 - w), l * (1.0 - l));
        let (dzw_da, dzw_db) = (-1.0 / b, -zw / b);
        let (dzl_da, dzl_db) = (-1.0 / b, -zl / b);
        let (prob, dp_da, dp_db) = match s.outcome {
            0 => (w, dw_dz * dzw_da, dw_dz * dzw_db),
            2 => (l, dl_dz * dzl_da, dl_dz * dzl_db),
            _ => (d, -(dw_dz * dzw_da + dl_dz * dzl_da), -(dw_dz * dzw_db + dl_dz * dzl_db)),
        };
        let prob = prob.max(1e-9);
        total -= prob.ln();
        for i in 0..4 {
            grad[i] -= dp_da * powers[i] / prob;
            grad[4 + i] -= dp_db * powers[i] / prob;
        }
    }
    let n = samples.len().max(1) as f64;
    (total / n, grad.map(|g| g / n))
}

pub fn run(args: &WdlArgs) -> Result<ExitCode> {
    let file = match &args.data {
        Some(f) => f.clone(),
        None => default_data()?,
    };
    let text = std::fs::read_to_string(&file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let mut samples = Vec::new();
    let mut skipped = 0usize;
    for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let (board, result, score) = parse_line(line).map_err(|e| format!("line {}: {e}", n + 1))?;
        let Some(white_score) = score else {
            skipped += 1;
            continue;
        };
        let stm = board.side_to_move();
        let score = if stm == Color::White { white_score } else { -white_score };
        if score.abs() > args.max_score as f32 {
            skipped += 1;
            continue;
        }
        let stm_result = if stm == Color::White { result } else { 1.0 - result };
        let outcome = if stm_result > 0.75 {
            0
        } else if stm_result < 0.25 {
            2
        } else {
            1
        };
        samples.push(Sample { score: f64::from(score), x: f64::from(material(&board)) / 58.0, outcome });
    }
    eprintln!(
        "wdl: {} positions from {} ({} left out: no score or |score| > {})",
        samples.len(),
        file.display(),
        skipped,
        args.max_score
    );

    // Start: a = 150, b = 100 at every material count.
    let mut p = [0.0, 0.0, 0.0, 150.0, 0.0, 0.0, 0.0, 100.0];
    let (mut m, mut v) = ([0.0; 8], [0.0; 8]);
    let (beta1, beta2, eps, lr): (f64, f64, f64, f64) = (0.9, 0.999, 1e-8, args.lr);
    let (start, _) = nll(&samples, &p);
    let mut last = start;
    for step in 1..=args.steps {
        let (loss, g) = nll(&samples, &p);
        last = loss;
        let rate = lr * 0.1f64.powf((step - 1) as f64 / args.steps as f64);
        for i in 0..8 {
            m[i] = beta1 * m[i] + (1.0 - beta1) * g[i];
            v[i] = beta2 * v[i] + (1.0 - beta2) * g[i] * g[i];
            let mh = m[i] / (1.0 - beta1.powi(step as i32));
            let vh = v[i] / (1.0 - beta2.powi(step as i32));
            p[i] -= rate * mh / (vh.sqrt() + eps);
        }
        if step % 500 == 0 {
            eprintln!("wdl: step {step}: negative log-likelihood {loss:.6}");
        }
    }
    eprintln!("wdl: negative log-likelihood {start:.6} -> {last:.6}");
    println!("pub const A: [f64; 4] = [{:.3}, {:.3}, {:.3}, {:.3}];", p[0], p[1], p[2], p[3]);
    println!("pub const B: [f64; 4] = [{:.3}, {:.3}, {:.3}, {:.3}];", p[4], p[5], p[6], p[7]);
    for mat in [17u32, 30, 45, 58, 78] {
        let x = f64::from(mat) / 58.0;
        let poly = |c: &[f64]| ((c[0] * x + c[1]) * x + c[2]) * x + c[3];
        println!("material {mat:>2}: a = {:6.1} cp, b = {:6.1} cp", poly(&p[..4]), poly(&p[4..]));
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gradient_matches_finite_differences() {
        let samples: Vec<Sample> = [(120.0, 0.8, 0), (-40.0, 0.5, 1), (300.0, 1.1, 2), (0.0, 0.4, 1), (-500.0, 0.9, 2)]
            .into_iter()
            .map(|(score, x, outcome)| Sample { score, x, outcome })
            .collect();
        let p = [10.0, -20.0, 30.0, 150.0, 5.0, -7.0, 9.0, 90.0];
        let (base, grad) = nll(&samples, &p);
        for i in 0..8 {
            let mut q = p;
            q[i] += 1e-5;
            let numeric = (nll(&samples, &q).0 - base) / 1e-5;
            assert!((numeric - grad[i]).abs() < 1e-5 + 1e-3 * numeric.abs(), "{i}: {numeric} vs {}", grad[i]);
        }
    }
}
