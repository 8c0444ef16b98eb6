//! `cargo xtask labels`: how a self-play set's two labels agree, the game result and the
//! search score.
//!
//! The trainer's target is `lambda * result + (1 - lambda) * sigmoid(score / SCALE)` from the
//! side to move's view. The two halves only mix well when `sigmoid(score / SCALE)` is about
//! the expected result of a position with that score; where it is not, a `lambda` above 0
//! pulls the network's output scale (its centipawns) away from the search scores that every
//! search margin was tuned on. This command reads the training positions of game files
//! ([`GameRecord::positions`]) and prints, by band of search score, the mean result next to
//! `sigmoid(score / SCALE)`, and the scale that fits the results best (least cross-entropy),
//! overall and by stage of the game.
//!
//! [`GameRecord::positions`]: cutoff_datagen::GameRecord::positions

use std::fmt::Write as _;
use std::fs;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use cutoff_datagen::format::GameReader;

use crate::util::Result;

#[derive(Debug, Args)]
pub struct LabelsArgs {
    /// Game files of `cutoff datagen` (either encoding). Repeatable.
    #[arg(long, value_name = "FILE", required = true)]
    pub data: Vec<PathBuf>,

    /// Stop after this many positions.
    #[arg(long)]
    pub limit: Option<usize>,
}

/// The trainer's scale: `sigmoid(score / SCALE)` is the score's half of the target.
const SCALE: f64 = cutoff_nnue::SCALE as f64;
/// The bands' width, cp.
const BAND: i32 = 100;
/// Scores at or beyond this (cp) fall in the outer bands.
const OUTER: i32 = 800;
/// The stages of the game by full-move number: their first move.
const STAGES: [(u16, &str); 3] = [(1, "moves 1-10"), (11, "moves 11-30"), (31, "moves 31 on")];

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The positions of one table: (score, result) pairs, both from the side to move's view.
#[derive(Default)]
struct Sample {
    pairs: Vec<(f32, f32)>,
}

impl Sample {
    /// Mean cross-entropy of the results against `sigmoid(score / scale)`.
    fn cross_entropy(&self, scale: f64) -> f64 {
        let sum: f64 = self
            .pairs
            .iter()
            .map(|&(s, r)| {
                let p = sigmoid(f64::from(s) / scale).clamp(1e-9, 1.0 - 1e-9);
                let r = f64::from(r);
                -(r * p.ln() + (1.0 - r) * (1.0 - p).ln())
            })
            .sum();
        sum / self.pairs.len().max(1) as f64
    }

    /// The scale with the least cross-entropy, by golden-section search over 20..=2000 cp.
    fn best_scale(&self) -> f64 {
        let (mut lo, mut hi) = (20.0f64, 2000.0f64);
        let g = (5f64.sqrt() - 1.0) / 2.0;
        for _ in 0..60 {
            let (a, b) = (hi - g * (hi - lo), lo + g * (hi - lo));
            if self.cross_entropy(a) < self.cross_entropy(b) {
                hi = b;
            } else {
                lo = a;
            }
        }
        (lo + hi) / 2.0
    }
}

/// Runs `cargo xtask labels`.
pub fn run(args: &LabelsArgs) -> Result<ExitCode> {
    let mut all = Sample::default();
    let mut stages: Vec<Sample> = STAGES.iter().map(|_| Sample::default()).collect();
    let (mut games, mut decisive) = (0u64, 0u64);
    'files: for file in &args.data {
        let reader = std::io::BufReader::new(fs::File::open(file).map_err(|e| format!("{}: {e}", file.display()))?);
        for game in GameReader::new(reader).map_err(|e| format!("{}: {e}", file.display()))? {
            let game = game.map_err(|e| format!("{}: {e}", file.display()))?;
            games += 1;
            let mut any_decisive = false;
            for p in game.positions() {
                let Some(score) = p.score else { continue };
                let ply = p.board.fullmove_number();
                any_decisive |= p.result != 0.5;
                let pair = (f32::from(score), p.result);
                all.pairs.push(pair);
                let stage = STAGES.iter().rposition(|&(first, _)| ply >= first).unwrap_or(0);
                stages[stage].pairs.push(pair);
                if args.limit.is_some_and(|l| all.pairs.len() >= l) {
                    break 'files;
                }
            }
            decisive += u64::from(any_decisive);
        }
    }
    if all.pairs.is_empty() {
        return Err("no scored training positions in the files".into());
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} scored training positions of {games} games ({:.1} % decisive)\n",
        all.pairs.len(),
        100.0 * decisive as f64 / games.max(1) as f64
    );
    let _ = writeln!(
        out,
        "| search score (cp, side to move) | positions | mean result | sigmoid(score / {SCALE}) | drawn games |"
    );
    let _ = writeln!(out, "| --- | ---: | ---: | ---: | ---: |");
    // (band, positions, sum of results, sum of sigmoids, drawn)
    let mut bands: Vec<(i32, u64, f64, f64, u64)> = Vec::new();
    for &(s, r) in &all.pairs {
        let s = s as i32;
        let band = if s <= -OUTER {
            -OUTER - BAND
        } else if s >= OUTER {
            OUTER
        } else {
            s.div_euclid(BAND) * BAND
        };
        match bands.iter_mut().find(|b| b.0 == band) {
            Some(b) => {
                b.1 += 1;
                b.2 += f64::from(r);
                b.3 += sigmoid(f64::from(s) / SCALE);
                b.4 += u64::from(r == 0.5);
            }
            None => bands.push((band, 1, f64::from(r), sigmoid(f64::from(s) / SCALE), u64::from(r == 0.5))),
        }
    }
    bands.sort_by_key(|b| b.0);
    for (band, n, r, p, drawn) in bands {
        let label = if band < -OUTER {
            format!("below {}", -OUTER)
        } else if band >= OUTER {
            format!("{OUTER} and above")
        } else {
            format!("{band} to {}", band + BAND - 1)
        };
        let _ = writeln!(
            out,
            "| {label} | {n} | {:.3} | {:.3} | {:.1} % |",
            r / n as f64,
            p / n as f64,
            100.0 * drawn as f64 / n as f64
        );
    }
    let _ = writeln!(out, "\n| positions | count | best-fitting scale (cp) | cross-entropy at it | at {SCALE} |");
    let _ = writeln!(out, "| --- | ---: | ---: | ---: | ---: |");
    for (name, sample) in std::iter::once(("all", &all)).chain(STAGES.iter().map(|s| s.1).zip(&stages)) {
        if sample.pairs.is_empty() {
            continue;
        }
        let best = sample.best_scale();
        let _ = writeln!(
            out,
            "| {name} | {} | {best:.0} | {:.4} | {:.4} |",
            sample.pairs.len(),
            sample.cross_entropy(best),
            sample.cross_entropy(SCALE)
        );
    }
    print!("{out}");
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_best_scale_is_found_on_labels_drawn_at_a_known_scale() {
        // Results drawn as the sigmoid of score / 300 says: the fit finds about 300.
        let mut rng = cutoff_board::SplitMix64::new(5);
        let mut sample = Sample::default();
        for i in 0..40_000 {
            let score = (i % 1601) as f32 - 800.0;
            let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            let result = if u < sigmoid(f64::from(score) / 300.0) { 1.0 } else { 0.0 };
            sample.pairs.push((score, result));
        }
        let best = sample.best_scale();
        assert!((270.0..330.0).contains(&best), "{best}");
        assert!(sample.cross_entropy(best) <= sample.cross_entropy(200.0));
    }
}
