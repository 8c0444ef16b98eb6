//! `cargo xtask tune` (also `eval-tune`): Texel-style fitting of every weight of the
//! hand-crafted evaluation to labelled positions. Not the search parameters: those are tuned by
//! SPSA (`cargo xtask spsa`, `matches/spsa.rs`) in a build with the `tune` feature.
//!
//! The evaluation is linear in its weights before the phase blend (see `cutoff_eval::tune`),
//! so each position is read once into its feature counts, and every epoch is one exact
//! gradient step (Adam, full batch) on the mean squared error between `sigmoid(K * eval)` and
//! the target: the game result, the recorded search score (through the same sigmoid), or a
//! blend (`--lambda`). `K` is fitted first, to the results, with the weights as compiled in.
//!
//! Deterministic for a seed: the validation split is a seeded shuffle, and the gradient is
//! summed over a fixed number of chunks in a fixed order whatever the number of threads.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use cutoff_board::{Board, Color};
use cutoff_eval::params::{NUM_WEIGHTS, Table, compiled_weights};
use cutoff_eval::{MAX_PHASE, S, Score, tune};

use crate::progress::{Progress, plain_wanted};
use crate::util::{self, EXIT_FAILURE, Result};

/// The default data set, under `$CUTOFF_DATA` or `../shared/data` beside the repository.
const DEFAULT_DATA: &str = "tuning/cutoff-selfplay-scored.epd";

/// `K` fitted to the results of `cutoff-selfplay-scored.epd` with the PeSTO-based weights of
/// commit 54cdd1c (`cargo xtask tune --init compiled --fit-k` at that commit: 0.005223).
const DEFAULT_K: f64 = 0.005223;

/// Where the tuner's weights start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Init {
    /// Material only, everything else zero.
    Material,
    /// The weights compiled into this build.
    Compiled,
}

/// The gradient is summed over this many chunks of the training set (fixed, so the sum is
/// the same for any number of threads).
const CHUNKS: usize = 256;

#[derive(Debug, Args)]
pub struct EvalTuneArgs {
    /// Labelled positions: EPD lines with `c9 "1-0"` (result, White's view) and optionally
    /// `ce N` (search score, side to move's view). Repeatable. [default:
    /// `$CUTOFF_DATA/tuning/cutoff-selfplay-scored.epd`, else `../shared/data/tuning/...`
    /// beside the repository]
    #[arg(long = "data", value_name = "FILE")]
    pub data: Vec<PathBuf>,

    /// Weight of the game result in the target; the rest is the search score (1 = result
    /// only, 0 = score only). Positions without a score use the result alone.
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f64,

    /// Number of epochs (full-batch Adam steps). 0 writes the compiled weights back.
    #[arg(long, default_value_t = 1500)]
    pub epochs: usize,

    /// Adam learning rate in centipawns at the start; it decays to a tenth by the end.
    #[arg(long, default_value_t = 2.0)]
    pub lr: f64,

    /// The sigmoid's scale `K` (`sigmoid(K * eval_cp)`). The default was fitted once to the
    /// results of the default data with the hand-set (PeSTO) weights (`--fit-k` prints such a
    /// fit): it keeps the tuned evaluation on the scale the search's margins were set for.
    #[arg(long, default_value_t = DEFAULT_K)]
    pub k: f64,

    /// Fit `K` to the results with the weights as compiled in, print it and use it.
    #[arg(long)]
    pub fit_k: bool,

    /// Where the weights start: `material` (piece values 100/300/320/500/900, every other
    /// weight zero: the result depends only on the data and the options) or `compiled` (the
    /// weights as compiled in, to fine-tune them; not reproducible from scratch).
    #[arg(long, value_enum, default_value_t = Init::Material)]
    pub init: Init,

    /// L2 regularisation: adds `l2 * Σ w²` over every weight but the material values, which
    /// keeps rarely seen weights (a queen attacking 25 squares) near zero instead of letting
    /// them drift.
    #[arg(long, default_value_t = 1e-10)]
    pub l2: f64,

    /// Share of the positions held out for the validation loss.
    #[arg(long, default_value_t = 0.1)]
    pub validation: f64,

    /// Seed of the training/validation split.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Use only the first N positions of the data (after reading all files in order).
    #[arg(long)]
    pub limit: Option<usize>,

    /// Worker threads (the result does not depend on it). [default: all hardware threads]
    #[arg(long)]
    pub threads: Option<usize>,

    /// Where to write the weights. [default: crates/eval/src/weights.rs]
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,

    /// Do not write anything: compare the result with the file `--out` names and fail if they
    /// differ (the committed weights are reproducible).
    #[arg(long)]
    pub check: bool,

    /// Print the loss every N epochs.
    #[arg(long, default_value_t = 50)]
    pub report_every: usize,

    /// Weights that occur in fewer training positions than this stay where they start: too
    /// rare to be fitted (a queen attacking 26 squares), they would only fit noise.
    #[arg(long, default_value_t = 200)]
    pub min_positions: usize,

    /// Keep these tables at their compiled values (names as in weights.rs, e.g.
    /// `--freeze THREAT_BY_PAWN,HANGING`), e.g. to measure what a term adds to the fit.
    #[arg(long, value_delimiter = ',', value_name = "TABLE")]
    pub freeze: Vec<String>,

    /// Plain progress lines instead of a bar.
    #[arg(long)]
    pub plain: bool,
}

/// One labelled position: its feature counts (a slice of the shared arrays) and labels.
struct Position {
    start: u32,
    len: u16,
    phase: u8,
    /// Game result from White's view: 1, 0.5 or 0.
    result: f32,
    /// Search score in centipawns from White's view, if the line had one.
    score: Option<f32>,
}

/// Every position's counts, stored flat.
struct Dataset {
    positions: Vec<Position>,
    index: Vec<u16>,
    count: Vec<f32>,
}

impl Dataset {
    fn features(&self, p: &Position) -> impl Iterator<Item = (usize, f64)> + '_ {
        let range = p.start as usize..p.start as usize + p.len as usize;
        self.index[range.clone()].iter().zip(&self.count[range]).map(|(&i, &c)| (i as usize, f64::from(c)))
    }

    /// The linear evaluation (White's view, centipawns) of `p` with weights `w` (`[mg, eg]`).
    fn eval(&self, p: &Position, w: &[[f64; 2]]) -> f64 {
        let (mut mg, mut eg) = (0.0, 0.0);
        for (i, c) in self.features(p) {
            mg += c * w[i][0];
            eg += c * w[i][1];
        }
        let phase = f64::from(p.phase);
        (mg * phase + eg * (f64::from(MAX_PHASE) - phase)) / f64::from(MAX_PHASE)
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Locates the default data file.
pub(crate) fn default_data() -> Result<PathBuf> {
    let mut tried = Vec::new();
    if let Some(dir) = std::env::var_os("CUTOFF_DATA") {
        tried.push(PathBuf::from(dir).join(DEFAULT_DATA));
    }
    tried.push(util::workspace_root().join("../shared/data").join(DEFAULT_DATA));
    for path in &tried {
        if path.is_file() {
            return Ok(path.clone());
        }
    }
    let list: Vec<String> = tried.iter().map(|p| p.display().to_string()).collect();
    Err(format!(
        "no tuning data: looked for {}. The tuning sets are too large for the repository; see \
         data/README.md (\"Large sets\") for where they come from, then set CUTOFF_DATA to the \
         directory that holds tuning/, or pass --data FILE",
        list.join(" and ")
    )
    .into())
}

/// Reads one EPD line: the board, the result (White's view) and the score (White's view).
/// The line's form is the trainer's ([`cutoff_train::Position::from_epd`]), whose labels are
/// the side to move's.
pub(crate) fn parse_line(line: &str) -> Result<(Board, f32, Option<f32>)> {
    let p = cutoff_train::Position::from_epd(line)?;
    let white = p.board.side_to_move() == Color::White;
    let result = if white { p.result } else { 1.0 - p.result };
    Ok((p.board, result, p.score.map(|cp| if white { cp } else { -cp })))
}

/// Reads every file into a dataset, `threads` at a time.
fn load(files: &[PathBuf], limit: Option<usize>, threads: usize) -> Result<Dataset> {
    let mut lines: Vec<(usize, String)> = Vec::new();
    for file in files {
        let text = fs::read_to_string(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        for (n, line) in text.lines().enumerate() {
            if !line.trim().is_empty() && !line.starts_with('#') {
                lines.push((n + 1, line.to_owned()));
            }
            if limit.is_some_and(|l| lines.len() >= l) {
                break;
            }
        }
        if limit.is_some_and(|l| lines.len() >= l) {
            break;
        }
    }
    type Parsed = Result<Vec<(tune::Features, f32, Option<f32>)>, String>;
    let per = lines.len().div_ceil(threads.max(1)).max(1);
    let parsed: Vec<Parsed> = std::thread::scope(|s| {
        let handles: Vec<_> = lines
            .chunks(per)
            .map(|chunk| {
                s.spawn(move || {
                    chunk
                        .iter()
                        .map(|(n, line)| {
                            let (board, result, score) = parse_line(line).map_err(|e| format!("line {n}: {e}"))?;
                            Ok((tune::features(&board), result, score))
                        })
                        .collect()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err("a loader thread panicked".into()))).collect()
    });
    let mut data = Dataset { positions: Vec::with_capacity(lines.len()), index: Vec::new(), count: Vec::new() };
    for chunk in parsed {
        for (f, result, score) in chunk? {
            let start = u32::try_from(data.index.len()).map_err(|_| "too many features for u32 offsets")?;
            for &(i, c) in &f.counts {
                data.index.push(i);
                data.count.push(c);
            }
            data.positions.push(Position { start, len: f.counts.len() as u16, phase: f.phase as u8, result, score });
        }
    }
    Ok(data)
}

/// A small deterministic generator for the split (SplitMix64).
struct SplitMix(cutoff_board::SplitMix64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
}

/// Positions `[0, n)` shuffled with `seed`; the first `validation` share is held out.
fn split(n: usize, validation: f64, seed: u64) -> (Vec<u32>, Vec<u32>) {
    let mut order: Vec<u32> = (0..n as u32).collect();
    let mut rng = SplitMix(cutoff_board::SplitMix64::new(seed));
    for i in (1..n).rev() {
        let j = (rng.next() % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    let held = ((n as f64) * validation).round() as usize;
    let train = order.split_off(held.min(n));
    (train, order)
}

/// Target of each position for `k` and `lambda`.
fn targets(data: &Dataset, k: f64, lambda: f64) -> Vec<f64> {
    data.positions
        .iter()
        .map(|p| match p.score {
            Some(cp) => lambda * f64::from(p.result) + (1.0 - lambda) * sigmoid(k * f64::from(cp)),
            None => f64::from(p.result),
        })
        .collect()
}

/// Mean squared error over `set` and, if `grad` is given, its gradient with respect to each
/// `[mg, eg]` weight (summed in a fixed chunk order, over `threads` threads).
fn loss(
    data: &Dataset,
    set: &[u32],
    target: &[f64],
    w: &[[f64; 2]],
    k: f64,
    threads: usize,
    grad: Option<&mut Vec<[f64; 2]>>,
) -> f64 {
    let want_grad = grad.is_some();
    let chunk = set.len().div_ceil(CHUNKS).max(1);
    let chunks: Vec<&[u32]> = set.chunks(chunk).collect();
    let work = |c: &[u32]| {
        let mut g = if want_grad { vec![[0.0; 2]; NUM_WEIGHTS] } else { Vec::new() };
        let mut sum = 0.0;
        for &i in c {
            let p = &data.positions[i as usize];
            let s = sigmoid(k * data.eval(p, w));
            let err = s - target[i as usize];
            sum += err * err;
            if want_grad {
                let d = 2.0 * err * s * (1.0 - s) * k;
                let phase = f64::from(p.phase) / f64::from(MAX_PHASE);
                let (dm, de) = (d * phase, d * (1.0 - phase));
                for (j, c) in data.features(p) {
                    g[j][0] += dm * c;
                    g[j][1] += de * c;
                }
            }
        }
        (sum, g)
    };
    let threads = threads.clamp(1, chunks.len().max(1));
    let mut results: Vec<Option<(f64, Vec<[f64; 2]>)>> = vec![None; chunks.len()];
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let chunks = &chunks;
                let work = &work;
                s.spawn(move || (t..chunks.len()).step_by(threads).map(|ci| (ci, work(chunks[ci]))).collect::<Vec<_>>())
            })
            .collect();
        for h in handles {
            for (ci, r) in h.join().expect("a tuner thread panicked") {
                results[ci] = Some(r);
            }
        }
    });
    let n = set.len().max(1) as f64;
    let mut total = 0.0;
    if let Some(grad) = grad {
        grad.iter_mut().for_each(|g| *g = [0.0; 2]);
        for (sum, g) in results.into_iter().flatten() {
            total += sum;
            for (a, b) in grad.iter_mut().zip(&g) {
                a[0] += b[0] / n;
                a[1] += b[1] / n;
            }
        }
    } else {
        total = results.into_iter().flatten().map(|(s, _)| s).sum();
    }
    total / n
}

/// Fits `K` to the results with the weights `w` (golden-section search on the loss).
fn fit_k(data: &Dataset, set: &[u32], w: &[[f64; 2]], threads: usize) -> f64 {
    let results: Vec<f64> = data.positions.iter().map(|p| f64::from(p.result)).collect();
    let f = |k: f64| loss(data, set, &results, w, k, threads, None);
    let (mut a, mut b) = (0.0005, 0.02);
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    let (mut c, mut d) = (b - phi * (b - a), a + phi * (b - a));
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..40 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - phi * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + phi * (b - a);
            fd = f(d);
        }
    }
    (a + b) / 2.0
}

fn to_scores(w: &[[f64; 2]]) -> Vec<Score> {
    w.iter().map(|&[mg, eg]| S(mg.round() as i32, eg.round() as i32)).collect()
}

pub fn run(args: &EvalTuneArgs) -> Result<ExitCode> {
    let threads = args.threads.unwrap_or_else(util::hardware_threads).max(1);
    let files = if args.data.is_empty() { vec![default_data()?] } else { args.data.clone() };
    if !(0.0..=1.0).contains(&args.lambda) || !(0.0..1.0).contains(&args.validation) {
        return Err("--lambda must be in [0, 1] and --validation in [0, 1)".into());
    }
    let out = args.out.clone().unwrap_or_else(|| util::workspace_root().join("crates/eval/src/weights.rs"));

    let start = Instant::now();
    let data = load(&files, args.limit, threads)?;
    let n = data.positions.len();
    if n == 0 {
        return Err("the data holds no positions".into());
    }
    let (train, valid) = split(n, args.validation, args.seed);
    let scored = data.positions.iter().filter(|p| p.score.is_some()).count();
    eprintln!(
        "tune: {} positions ({} with a score, {} features each on average) from {} in {:.1} s; {} training, {} validation",
        util::thousands(n as u64),
        util::thousands(scored as u64),
        data.index.len() / n,
        files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(", "),
        start.elapsed().as_secs_f64(),
        util::thousands(train.len() as u64),
        util::thousands(valid.len() as u64),
    );

    let mut frozen = vec![false; NUM_WEIGHTS];
    for name in &args.freeze {
        let table = Table::ALL
            .iter()
            .find(|t| t.name().eq_ignore_ascii_case(name))
            .ok_or_else(|| format!("--freeze: no table {name:?} (the names are those of weights.rs)"))?;
        frozen[table.offset()..table.offset() + table.len()].fill(true);
    }
    let mut seen = vec![0usize; NUM_WEIGHTS];
    for &i in &train {
        for (j, _) in data.features(&data.positions[i as usize]) {
            seen[j] += 1;
        }
    }
    let rare: Vec<usize> = (0..NUM_WEIGHTS).filter(|&j| seen[j] < args.min_positions).collect();
    for &j in &rare {
        frozen[j] = true;
    }
    eprintln!(
        "tune: {} of {NUM_WEIGHTS} weights occur in fewer than {} training positions and stay where they start",
        rare.len(),
        args.min_positions
    );
    let compiled = compiled_weights();
    let w0: Vec<[f64; 2]> = compiled.iter().map(|s| [f64::from(s.mg()), f64::from(s.eg())]).collect();
    let mut w = match args.init {
        Init::Compiled => w0.clone(),
        Init::Material => {
            let mut w = vec![[0.0; 2]; NUM_WEIGHTS];
            for (kind, value) in [100.0, 300.0, 320.0, 500.0, 900.0].into_iter().enumerate() {
                w[Table::Material.offset() + kind] = [value, value];
            }
            w
        }
    };
    let k = if args.fit_k {
        let k = fit_k(&data, &train, &w0, threads);
        eprintln!("tune: K fitted to the results with the compiled weights: {k:.6}");
        k
    } else {
        args.k
    };
    // L2 applies to every weight but the material values.
    let mut l2 = vec![args.l2; NUM_WEIGHTS];
    l2[Table::Material.offset()..Table::Material.offset() + Table::Material.len()].fill(0.0);
    let target = targets(&data, k, args.lambda);
    let start_train = loss(&data, &train, &target, &w0, k, threads, None);
    let start_valid = loss(&data, &valid, &target, &w0, k, threads, None);
    eprintln!(
        "tune: K = {k:.6}; loss with the compiled weights: training {start_train:.6}, validation {start_valid:.6}"
    );

    // Adam.
    let (beta1, beta2, eps): (f64, f64, f64) = (0.9, 0.999, 1e-8);
    let mut m = vec![[0.0; 2]; NUM_WEIGHTS];
    let mut v = vec![[0.0; 2]; NUM_WEIGHTS];
    let mut grad = vec![[0.0; 2]; NUM_WEIGHTS];
    let mut progress = Progress::new("tune", args.epochs as u64, plain_wanted(args.plain));
    let mut log = String::new();
    for epoch in 1..=args.epochs {
        let train_loss = loss(&data, &train, &target, &w, k, threads, Some(&mut grad));
        let lr = args.lr * 0.1f64.powf((epoch - 1) as f64 / args.epochs.max(1) as f64);
        let (c1, c2) = (1.0 - beta1.powi(epoch as i32), 1.0 - beta2.powi(epoch as i32));
        for i in 0..NUM_WEIGHTS {
            if frozen[i] {
                continue;
            }
            let (wi, mi, vi) = (&mut w[i], &mut m[i], &mut v[i]);
            for h in 0..2 {
                let gi = grad[i][h] + 2.0 * l2[i] * wi[h];
                mi[h] = beta1 * mi[h] + (1.0 - beta1) * gi;
                vi[h] = beta2 * vi[h] + (1.0 - beta2) * gi * gi;
                wi[h] -= lr * (mi[h] / c1) / ((vi[h] / c2).sqrt() + eps);
            }
        }
        if epoch % args.report_every.max(1) == 0 || epoch == args.epochs {
            let valid_loss = loss(&data, &valid, &target, &w, k, threads, None);
            let line = format!("epoch {epoch:>5}: training {train_loss:.6}, validation {valid_loss:.6}, lr {lr:.3}");
            progress.println(&line);
            let _ = writeln!(log, "{line}");
            progress.set_message(format!("validation {valid_loss:.6}"));
        }
        progress.inc(1);
    }
    progress.finish();

    let weights = to_scores(&w);
    let rounded: Vec<[f64; 2]> = weights.iter().map(|s| [f64::from(s.mg()), f64::from(s.eg())]).collect();
    let end_train = loss(&data, &train, &target, &rounded, k, threads, None);
    let end_valid = loss(&data, &valid, &target, &rounded, k, threads, None);
    eprintln!(
        "tune: rounded weights: training {end_train:.6} (was {start_train:.6}), validation {end_valid:.6} (was {start_valid:.6}); {:.0} s",
        start.elapsed().as_secs_f64()
    );
    // The same validation positions against the game results alone: comparable across --lambda.
    let results = targets(&data, k, 1.0);
    let result_before = loss(&data, &valid, &results, &w0, k, threads, None);
    let result_after = loss(&data, &valid, &results, &rounded, k, threads, None);
    eprintln!("tune: validation loss against the results alone: {result_before:.6} -> {result_after:.6}");

    let names: Vec<String> = files
        .iter()
        .map(|f| f.file_name().map_or_else(|| f.display().to_string(), |s| s.to_string_lossy().into_owned()))
        .collect();
    let mut command = format!(
        "cargo xtask tune --lambda {} --epochs {} --lr {} --l2 {:e} --validation {} --seed {} --init {}",
        args.lambda,
        args.epochs,
        args.lr,
        args.l2,
        args.validation,
        args.seed,
        match args.init {
            Init::Material => "material",
            Init::Compiled => "compiled",
        }
    );
    if args.fit_k {
        command.push_str(" --fit-k");
    } else if args.k != DEFAULT_K {
        let _ = write!(command, " --k {}", args.k);
    }
    if let Some(l) = args.limit {
        let _ = write!(command, " --limit {l}");
    }
    if !args.freeze.is_empty() {
        let _ = write!(command, " --freeze {}", args.freeze.join(","));
    }
    let _ = write!(command, " --min-positions {}", args.min_positions);
    let header = format!(
        "Made by `{command}`\non {} ({} positions, {} of them for validation), K = {k:.6}.\n\
         Loss (mean squared error of sigmoid(K * eval) against the target) with the weights compiled\n\
         into the tuner's build -> with these:\n\
         training {start_train:.6} -> {end_train:.6}, validation {start_valid:.6} -> {end_valid:.6};\n\
         validation against the game results alone {result_before:.6} -> {result_after:.6}.",
        names.join(", "),
        n,
        valid.len()
    );
    let source = tune::render_weights(&weights, &header);
    if args.check {
        let committed = fs::read_to_string(&out).map_err(|e| format!("cannot read {}: {e}", out.display()))?;
        // The header's "before" losses depend on the build that runs the check; the weights don't.
        let body = |s: &str| s.lines().filter(|l| !l.starts_with("//!")).collect::<Vec<_>>().join("\n");
        if body(&committed) == body(&source) {
            println!("tune: {} is reproduced exactly", out.display());
            return Ok(ExitCode::SUCCESS);
        }
        let differing = Table::ALL
            .iter()
            .filter(|t| {
                let r = t.offset()..t.offset() + t.len();
                weights[r.clone()] != compiled[r]
            })
            .map(|t| t.name())
            .collect::<Vec<_>>();
        println!("tune: the result differs from {}; tables: {}", out.display(), differing.join(", "));
        return Ok(EXIT_FAILURE.into());
    }
    write_atomically(&out, &source)?;
    println!("tune: wrote {} ({} weights)", out.display(), NUM_WEIGHTS);
    Ok(ExitCode::SUCCESS)
}

fn write_atomically(path: &Path, text: &str) -> Result<()> {
    let tmp = path.with_extension("rs.tmp");
    fs::write(&tmp, text).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    fs::rename(&tmp, path).map_err(|e| format!("cannot move {} to {}: {e}", tmp.display(), path.display()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_scored_and_result_only_lines() {
        let (b, r, s) = parse_line(r#"2r5/p5kp/4p1p1/p2b4/P2R4/6P1/2r2PP1/3R2K1 w - - ce -448; c9 "0-1";"#).unwrap();
        assert_eq!((r, s), (0.0, Some(-448.0)));
        assert_eq!(b.side_to_move(), Color::White);
        // Black to move: the score turns to White's view.
        let (_, r, s) = parse_line(r#"8/4k3/7R/8/8/4KP2/P7/8 b - - ce -854; c9 "1-0";"#).unwrap();
        assert_eq!((r, s), (1.0, Some(854.0)));
        let (_, r, s) = parse_line(r#"5r2/7k/2p5/4n2p/4r1p1/8/P1N3PP/2RR2K1 b - - c9 "1/2-1/2";"#).unwrap();
        assert_eq!((r, s), (0.5, None));
        assert!(parse_line("8/8/8 w - -").is_err());
        assert!(parse_line(r#"8/4k3/7R/8/8/4KP2/P7/8 b - - c9 "2-0";"#).is_err());
        assert!(parse_line("8/4k3/7R/8/8/4KP2/P7/8 b - - ce 3;").is_err());
    }

    #[test]
    fn split_is_seeded_and_complete() {
        let (t1, v1) = split(1000, 0.1, 7);
        let (t2, v2) = split(1000, 0.1, 7);
        assert_eq!((&t1, &v1), (&t2, &v2));
        assert_eq!(v1.len(), 100);
        let mut all: Vec<u32> = t1.iter().chain(&v1).copied().collect();
        all.sort_unstable();
        assert_eq!(all, (0..1000).collect::<Vec<_>>());
        assert_ne!(split(1000, 0.1, 8).1, v1);
    }

    #[test]
    fn gradient_matches_finite_differences() {
        let lines = [
            r#"2r5/p5kp/4p1p1/p2b4/P2R4/6P1/2r2PP1/3R2K1 w - - ce -448; c9 "0-1";"#,
            r#"8/4k3/7R/8/8/4KP2/P7/8 b - - ce -854; c9 "1-0";"#,
            r#"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - c9 "1/2-1/2";"#,
        ];
        let dir = std::env::temp_dir().join(format!("cutoff-tune-test-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let file = dir.join("t.epd");
        fs::write(&file, lines.join("\n")).unwrap();
        let data = load(&[file], None, 2).unwrap();
        fs::remove_dir_all(&dir).unwrap();
        let set: Vec<u32> = (0..3).collect();
        let w: Vec<[f64; 2]> = compiled_weights().iter().map(|s| [f64::from(s.mg()), f64::from(s.eg())]).collect();
        let k = 0.006;
        let target = targets(&data, k, 0.5);
        let mut grad = vec![[0.0; 2]; NUM_WEIGHTS];
        let base = loss(&data, &set, &target, &w, k, 1, Some(&mut grad));
        // Same loss and gradient with more threads.
        let mut grad2 = vec![[0.0; 2]; NUM_WEIGHTS];
        assert_eq!(loss(&data, &set, &target, &w, k, 3, Some(&mut grad2)), base);
        assert_eq!(grad, grad2);
        for i in [Table::Material.offset() + 3, Table::PawnPassed.offset() + 5, Table::Tempo.offset()] {
            for h in 0..2 {
                let mut w2 = w.clone();
                w2[i][h] += 0.01;
                let numeric = (loss(&data, &set, &target, &w2, k, 1, None) - base) / 0.01;
                assert!(
                    (numeric - grad[i][h]).abs() < 1e-6 + 1e-3 * numeric.abs(),
                    "{i}/{h}: {numeric} vs {}",
                    grad[i][h]
                );
            }
        }
    }
}
