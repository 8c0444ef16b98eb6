//! `cargo xtask train`: the command-line front of `cutoff-train` (`crates/train`), which
//! trains Cutoff's network from labelled positions and writes the quantised network file.
//! Its crate docs describe the model, the target, the optimiser and the checkpoints; this
//! file holds the flags, maps them onto a `TrainConfig` and a `Trainer`, shows the run's
//! progress, stops it at a checkpoint on Ctrl-C or SIGTERM, and writes the network and its
//! losses (`OUT.loss.csv`, `OUT.loss.svg`).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use clap::Args;
use clap::builder::RangedU64ValueParser;
use cutoff_nnue::KingBuckets;
use cutoff_train::{Event, LossHistory, Outcome, Source, TrainConfig, Trainer, write_network};

use crate::eval_tune;
use crate::progress::{self, Progress};
use crate::util::Result;

/// Arguments of `cargo xtask train`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Labelled positions: game files of `cutoff datagen`, or EPD lines with `c9 "1-0"`
    /// (result) and optionally `ce N` (search score), as the tuner reads them. Repeatable.
    /// [default: the tuner's data]
    #[arg(long, value_name = "FILE")]
    pub data: Vec<PathBuf>,

    /// Hidden neurons per perspective (a multiple of 16, at most 1024).
    #[arg(long, default_value_t = 128, value_parser = parse_hidden, value_name = "N")]
    pub hidden: usize,

    /// Output buckets by piece count (1 to 8; see `cutoff_nnue::output_bucket`): each bucket
    /// has its own output weights and bias.
    #[arg(long, default_value_t = 1, value_name = "B",
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=cutoff_nnue::MAX_OUTPUT_BUCKETS as u64))]
    pub output_buckets: usize,

    /// The input layout (king buckets, see `cutoff_nnue::KingBuckets`): `none` (768 inputs, the
    /// networks before king buckets), `mirror` (1 bucket, the board mirrored so that the king
    /// is on files a-d), `4` (mirrored, by pairs of ranks), `8` (mirrored: ranks 1 and 2 each
    /// split in files a-b and c-d, ranks 3 and 4 one bucket each, ranks 5-6 and 7-8), `16`
    /// (mirrored, a bucket per rank and pair of files), or 32 comma-separated buckets of the
    /// half-board squares a1, b1, c1, d1, a2, ..., d8 (mirrored). Ranks are the king's side's.
    #[arg(long, default_value = "none", value_parser = parse_king_buckets, value_name = "SPEC")]
    pub king_buckets: KingBuckets,

    /// With king buckets, also train one shared set of the 768 piece-square weights (a
    /// factoriser) that every bucket's weights are added to: a bucket's own weights then learn
    /// only how it differs from the others, and what a position teaches about a piece on a
    /// square reaches every bucket. The file holds the sums, so the engine sees the usual
    /// layout. Needs a layout of 2 buckets or more.
    #[arg(long)]
    pub factorise: bool,

    /// Start from the weights of this network file instead of random ones (fine-tuning): its
    /// layout, hidden size and output buckets must be the ones asked for (not with
    /// --factorise). The quantised weights are read back as floats (`W1` and `b1` over `QA`,
    /// `W2` over `QB`, `b2` over `QA * QB`), so the model starts as the file evaluates.
    #[arg(long, value_name = "FILE", conflicts_with = "factorise")]
    pub init: Option<PathBuf>,

    /// Passes over the training positions.
    #[arg(long, default_value_t = 30)]
    pub epochs: usize,

    /// Positions per Adam step.
    #[arg(long, default_value_t = 16384, value_parser = RangedU64ValueParser::<usize>::new().range(1..))]
    pub batch: usize,

    /// Adam learning rate at the start.
    #[arg(long, default_value_t = 0.001)]
    pub lr: f32,

    /// The learning rate at the end, as a share of `--lr` (cosine schedule).
    #[arg(long, default_value_t = 0.05)]
    pub final_lr: f32,

    /// Weight of the game result in the target (0 to 1); the rest is the search score.
    #[arg(long, default_value_t = 0.5, value_parser = parse_share::<f32>)]
    pub lambda: f32,

    /// The first epoch (from 1) whose target takes `--lambda` of the game result; the epochs
    /// before it learn the search score alone. The results are noisy labels (most games are
    /// decided by one side's mistake long after the position), so a late start lets the network
    /// learn the scores first and the results only as a correction at the end.
    #[arg(long, default_value_t = 1, value_name = "EPOCH",
          value_parser = RangedU64ValueParser::<usize>::new().range(1..))]
    pub lambda_from_epoch: usize,

    /// Decoupled weight decay (AdamW): each step shrinks every weight by `lr * DECAY` of
    /// itself besides Adam's update. 0 is plain Adam.
    #[arg(long, default_value_t = 0.0, value_name = "DECAY", value_parser = parse_share::<f32>)]
    pub weight_decay: f32,

    /// The weight of the result in the validation target [default: `--lambda`]. A fixed value
    /// (1: how well the evaluation predicts results) compares networks trained with different
    /// `--lambda`.
    #[arg(long, value_name = "LAMBDA", value_parser = parse_share::<f32>)]
    pub validation_lambda: Option<f32>,

    /// Share of the games held out for validation (a whole game goes to one side, so that
    /// the validation loss measures positions the network has not seen the game of; EPD has
    /// no games, so each line counts as one). Ignored with `--validation-data`.
    #[arg(long, default_value_t = 0.05, value_parser = parse_share::<f64>)]
    pub validation: f64,

    /// Validate on the positions of these files instead of a share of `--data`, which is
    /// then all used for training. Repeatable.
    #[arg(long, value_name = "FILE")]
    pub validation_data: Vec<PathBuf>,

    /// Seed of the split, the initial weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Also train on each training position mirrored left to right (files a-h swapped), where
    /// no castling right makes the mirror a different position: chess is symmetric under it, so
    /// this doubles the data for the price of twice the training time. Only with `--king-buckets
    /// none`: the other layouts mirror the board themselves, so a mirrored position has the
    /// same features.
    #[arg(long)]
    pub mirror: bool,

    /// Use at most this many positions (the first ones of the files).
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,

    /// Worker threads (the result does not depend on it). [default: all hardware threads]
    #[arg(long, value_parser = RangedU64ValueParser::<usize>::new().range(1..))]
    pub threads: Option<usize>,

    /// Where to write the quantised network. The losses of each epoch go beside it, as CSV
    /// (`OUT.loss.csv`) and as a picture of the training and validation curves
    /// (`OUT.loss.svg`), rewritten at each epoch's end.
    #[arg(long, default_value = "cutoff.nnue")]
    pub out: PathBuf,

    /// Plain progress lines instead of a bar.
    #[arg(long)]
    pub plain: bool,

    /// Continue the run of this checkpoint (see `--checkpoint`): run with the same arguments,
    /// it writes the same network, byte for byte, as a run that was never stopped. The
    /// arguments that shape the training and the data (file names, sizes and position counts)
    /// must be those of the checkpoint's run; another run's checkpoint is refused, naming what
    /// differs.
    #[arg(long, value_name = "CHECKPOINT")]
    pub resume: Option<PathBuf>,

    /// Where to write checkpoints: the weights, Adam's state and the place in the schedule,
    /// at each epoch's end and every `--checkpoint-minutes` within one. [default: the output
    /// file with `.ckpt` added]
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,

    /// Minutes between checkpoints within an epoch.
    #[arg(long, default_value_t = 10, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub checkpoint_minutes: u64,

    /// Stop after this many optimiser steps of this invocation, writing a checkpoint (to split
    /// a run on purpose; `--resume` continues it).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub stop_after_steps: Option<u64>,

    /// Train nothing: draw the losses of this CSV file (as a run writes them beside its
    /// network, `OUT.loss.csv`: `epoch,training,validation,lr`, a value left empty where it
    /// is not known) as an SVG picture beside it, the `.csv` replaced by `.svg`.
    #[arg(long, value_name = "CSV")]
    pub plot: Option<PathBuf>,
}

/// Parses `--hidden`: a multiple of 16 from 16 to 1024.
fn parse_hidden(s: &str) -> std::result::Result<usize, String> {
    let n: usize = s.parse().map_err(|e| format!("{e}"))?;
    if n == 0 || !n.is_multiple_of(16) || n > 1024 {
        return Err(format!("{n} is not a multiple of 16 from 16 to 1024"));
    }
    Ok(n)
}

/// Parses a share from 0 to 1 (`--lambda`, `--validation`).
fn parse_share<T: std::str::FromStr + PartialOrd + From<u8>>(s: &str) -> std::result::Result<T, String> {
    let x: T = s.parse().map_err(|_| format!("{s:?} is not a number"))?;
    if !(T::from(0)..=T::from(1)).contains(&x) {
        return Err(format!("{s} is not between 0 and 1"));
    }
    Ok(x)
}

/// Parses `--king-buckets` (see [`TrainArgs::king_buckets`]).
fn parse_king_buckets(spec: &str) -> std::result::Result<KingBuckets, String> {
    cutoff_train::parse_king_buckets(spec).map_err(|e| e.to_string())
}

/// The run the flags ask for.
fn config(args: &TrainArgs) -> TrainConfig {
    let mut config = TrainConfig::default();
    config.hidden = args.hidden;
    config.output_buckets = args.output_buckets;
    config.king_buckets = args.king_buckets;
    config.factorise = args.factorise;
    config.init.clone_from(&args.init);
    config.epochs = args.epochs;
    config.batch = args.batch;
    config.lr = args.lr;
    config.final_lr = args.final_lr;
    config.lambda = args.lambda;
    config.lambda_from_epoch = args.lambda_from_epoch;
    config.weight_decay = args.weight_decay;
    config.validation_lambda = args.validation_lambda;
    config.validation = args.validation;
    config.seed = args.seed;
    config.mirror = args.mirror;
    config.limit = args.limit;
    config.threads = args.threads;
    config
}

/// `path` with `suffix` added to its name.
fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// The exit status of a run that a signal stopped at a checkpoint: 128 + SIGINT's number, as
/// shells report a Ctrl-C.
const INTERRUPTED_STATUS: u8 = 130;

/// Runs `cargo xtask train`. Once the training has begun, Ctrl-C (SIGINT) or SIGTERM stops it
/// after the step under way with a checkpoint and exit status 130, instead of losing what it
/// did since the last one; a second signal quits at once (the last checkpoint stays whole:
/// checkpoints, like the network, are renamed into place). A signal during the last step or
/// after it lets the run finish; one while the data loads ends the process as usual. SIGHUP
/// keeps its usual effect, so that `nohup` still protects a run.
pub fn run(args: &TrainArgs) -> Result<ExitCode> {
    run_until(args, stop_on_signals)
}

/// Makes SIGINT and SIGTERM set `interrupted`, and end the process with
/// [`INTERRUPTED_STATUS`] when it is already set.
fn stop_on_signals(interrupted: &Arc<AtomicBool>) {
    for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        // The shutdown is registered first, so that it sees the flag as the last signal left it.
        let installed = signal_hook::flag::register_conditional_shutdown(
            signal,
            i32::from(INTERRUPTED_STATUS),
            Arc::clone(interrupted),
        )
        .and_then(|_| signal_hook::flag::register(signal, Arc::clone(interrupted)));
        if let Err(e) = installed {
            eprintln!("train: a signal will end the run without a checkpoint: {e}");
        }
    }
}

/// [`run`], with `watch` called as the training begins with the flag that stops it: the run
/// ends with a checkpoint after the first step, but the last, that finds the flag set.
fn run_until(args: &TrainArgs, watch: impl FnOnce(&Arc<AtomicBool>)) -> Result<ExitCode> {
    if let Some(csv) = &args.plot {
        return plot(csv);
    }
    let data = if args.data.is_empty() { vec![eval_tune::default_data()?] } else { args.data.clone() };
    let checkpoint = args.checkpoint.clone().unwrap_or_else(|| with_suffix(&args.out, ".ckpt"));
    let interrupted = Arc::new(AtomicBool::new(false));
    let mut trainer = Trainer::new(config(args))
        .checkpoint(&checkpoint)
        .checkpoint_every(Duration::from_secs(args.checkpoint_minutes.saturating_mul(60)))
        .stop_flag(Arc::clone(&interrupted))
        .reference(("hand-crafted", cutoff_eval::evaluate));
    for file in data {
        trainer = trainer.data(Source::file(file));
    }
    for file in &args.validation_data {
        trainer = trainer.validation_data(Source::file(file));
    }
    if let Some(path) = &args.resume {
        trainer = trainer.resume(path);
    }
    if let Some(steps) = args.stop_after_steps {
        trainer = trainer.stop_after_steps(steps);
    }
    let started = Instant::now();
    let losses = Losses::beside(&args.out);
    let mut progress: Option<Progress> = None;
    let mut watch = Some(watch);
    let outcome = trainer.run(|event| match event {
        Event::Begin { step, total_steps } => {
            let mut bar = Progress::new("train", *total_steps, progress::plain_wanted(args.plain));
            bar.skip(*step);
            progress = Some(bar);
            if let Some(watch) = watch.take() {
                watch(&interrupted);
            }
        }
        Event::Step { .. } => progress.iter_mut().for_each(|bar| bar.inc(1)),
        Event::Stopping => say(&progress, "train: stopping at a checkpoint (a second signal quits at once)"),
        Event::Epoch { loss, history, .. } => {
            say(&progress, &event.to_string());
            if let Some(bar) = &mut progress {
                bar.set_message(format!("validation {:.6}", loss.validation.unwrap_or(0.0)));
            }
            if let Err(e) = losses.write(history) {
                say(&progress, &format!("train: {e}"));
            }
        }
        // The lines after the training follow the bar's last state.
        _ => {
            if let Some(bar) = progress.take() {
                bar.finish();
            }
            eprintln!("train: {event}");
        }
    })?;
    if let Some(bar) = progress.take() {
        bar.finish();
    }
    match outcome {
        Outcome::Stopped { step, total_steps, flagged } => {
            eprintln!(
                "train: stopped after step {step} of {total_steps}; wrote {} (continue with --resume)",
                checkpoint.display()
            );
            Ok(if flagged { ExitCode::from(INTERRUPTED_STATUS) } else { ExitCode::SUCCESS })
        }
        Outcome::Finished { network, history } => {
            write_network(&args.out, &network)?;
            losses.write(&history)?;
            eprintln!(
                "train: wrote {} (losses: {}, {}) in {:.0} s",
                args.out.display(),
                losses.csv.display(),
                losses.svg.display(),
                started.elapsed().as_secs_f64()
            );
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Prints a line above the progress bar, or plainly when there is none.
fn say(progress: &Option<Progress>, text: &str) {
    match progress {
        Some(bar) => bar.println(text),
        None => eprintln!("{text}"),
    }
}

/// Where a run's losses go: beside the network, as CSV and as a picture titled with the
/// network's file name.
struct Losses {
    csv: PathBuf,
    svg: PathBuf,
    title: String,
}

impl Losses {
    fn beside(out: &Path) -> Losses {
        let title = out.file_name().map_or_else(|| out.display().to_string(), |n| n.to_string_lossy().into_owned());
        Losses { csv: with_suffix(out, ".loss.csv"), svg: with_suffix(out, ".loss.svg"), title }
    }

    fn write(&self, history: &LossHistory) -> Result<()> {
        let cannot = |path: &Path, e: std::io::Error| format!("cannot write {}: {e}", path.display());
        fs::write(&self.csv, history.to_csv()).map_err(|e| cannot(&self.csv, e))?;
        fs::write(&self.svg, history.to_svg(&self.title)).map_err(|e| cannot(&self.svg, e))?;
        Ok(())
    }
}

/// `--plot CSV`: draws the losses of a CSV file beside it, titled with its name less `.csv`
/// and `.loss`.
fn plot(csv: &Path) -> Result<ExitCode> {
    let text = fs::read_to_string(csv).map_err(|e| format!("cannot read {}: {e}", csv.display()))?;
    let history = LossHistory::from_csv(&text).map_err(|e| format!("{}: {e}", csv.display()))?;
    let name = csv.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let title = name.strip_suffix(".csv").unwrap_or(&name);
    let title = title.strip_suffix(".loss").unwrap_or(title);
    let svg = csv.with_extension("svg");
    fs::write(&svg, history.to_svg(title)).map_err(|e| format!("cannot write {}: {e}", svg.display()))?;
    eprintln!("train: drew {} ({} epochs) into {}", csv.display(), history.epochs().len(), svg.display());
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::Ordering;

    use super::*;

    /// A few labelled positions, as EPD.
    const EPD: &str = "\
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - c9 \"1/2-1/2\"; ce 20;
r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - c9 \"1-0\"; ce 35;
8/8/4k3/8/2R5/8/4K3/8 w - - c9 \"1-0\"; ce 700;
8/5k2/8/3q4/8/8/4K3/8 b - - c9 \"0-1\"; ce 900;
r3k2r/ppp2ppp/2n5/3qp3/8/2N2N2/PPP2PPP/R2QK2R w KQkq - c9 \"0-1\"; ce -150;
4k3/8/8/8/8/8/4P3/4K3 w - - c9 \"1/2-1/2\";
";

    /// A scratch directory holding the test positions as `data.epd`, and that file's path.
    fn scratch_with_data(name: &str) -> (PathBuf, String) {
        let dir = std::env::temp_dir().join(format!("cutoff-xtask-train-{}-{name}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let data = dir.join("data.epd");
        fs::write(&data, EPD).unwrap();
        let data = data.display().to_string();
        (dir, data)
    }

    fn joined<'a>(a: &[&'a str], b: &[&'a str]) -> Vec<&'a str> {
        a.iter().chain(b).copied().collect()
    }

    /// The arguments of a small run on `data` (trained and validated on it, N 16, batches of 2).
    fn small_run<'a>(data: &'a str, epochs: &'a str) -> Vec<&'a str> {
        vec![
            "--data",
            data,
            "--validation-data",
            data,
            "--hidden",
            "16",
            "--epochs",
            epochs,
            "--batch",
            "2",
            "--lr",
            "0.01",
            "--threads",
            "2",
            "--plain",
        ]
    }

    /// The arguments of `cargo xtask train` with these words.
    fn parse(args: &[&str]) -> Result<TrainArgs> {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            args: TrainArgs,
        }
        let cli = <Cli as clap::Parser>::try_parse_from(std::iter::once("train").chain(args.iter().copied()))?;
        Ok(cli.args)
    }

    /// Runs `cargo xtask train` with these arguments, leaving the test process's signals alone.
    fn train(args: &[&str]) -> Result<ExitCode> {
        run_until(&parse(args)?, |_| {})
    }

    #[test]
    fn a_signalled_run_stops_with_a_checkpoint_that_resumes_to_the_same_network() {
        let (dir, data) = scratch_with_data("signal");
        let path = |name: &str| dir.join(name).display().to_string();
        let common = joined(&small_run(&data, "2"), &["--mirror"]);
        let (full, split) = (path("full.nnue"), path("split.nnue"));
        train(&joined(&common, &["--out", &full])).unwrap();
        let split_args = joined(&common, &["--out", &split]);
        let checkpoint = format!("{split}.ckpt");
        let resumed = joined(&split_args, &["--resume", &checkpoint]);
        // A signal in every step: each run ends after its first step with the status a shell
        // gives a Ctrl-C, a checkpoint and no network; the one that reaches the last step (10:
        // 9 entries with --mirror, batches of 2, 2 epochs), where a signal no longer stops it,
        // finishes, so nine stopped runs and a tenth that finishes show one step a run (the
        // crate's test reads each checkpoint's step). Step 5 ends the first epoch.
        let signal = |flag: &Arc<AtomicBool>| flag.store(true, Ordering::SeqCst);
        for step in 1..10 {
            let args = if step == 1 { &split_args } else { &resumed };
            let status = run_until(&parse(args).unwrap(), signal).unwrap();
            assert_eq!(status, ExitCode::from(INTERRUPTED_STATUS), "step {step}");
            assert!(!Path::new(&split).exists(), "a signalled run writes no network");
            assert!(Path::new(&checkpoint).exists());
        }
        let status = run_until(&parse(&resumed).unwrap(), signal).unwrap();
        assert_eq!(status, ExitCode::SUCCESS);
        assert!(fs::read(&full).unwrap() == fs::read(&split).unwrap(), "the resumed runs wrote another network");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_run_writes_its_losses_beside_the_network_and_plot_draws_them_again() {
        let (dir, data) = scratch_with_data("losses");
        let out = dir.join("net.nnue");
        train(&joined(&small_run(&data, "3"), &["--out", &out.display().to_string()])).unwrap();
        let network = fs::read(&out).unwrap();
        assert!(cutoff_nnue::Network::from_bytes(&network).is_ok());
        let csv = fs::read_to_string(dir.join("net.nnue.loss.csv")).unwrap();
        let history = LossHistory::from_csv(&csv).unwrap();
        assert_eq!(history.to_csv(), csv);
        let epochs: Vec<usize> = history.epochs().iter().map(|e| e.epoch).collect();
        assert_eq!(epochs, [1, 2, 3]);
        assert!(history.epochs().iter().all(|e| e.training.is_some() && e.validation.is_some() && e.lr.is_some()));
        let svg = fs::read_to_string(dir.join("net.nnue.loss.svg")).unwrap();
        assert_eq!(svg, history.to_svg("net.nnue"));
        // `--plot` draws the same picture from the CSV, titled by the CSV's name.
        let copy = dir.join("copy.loss.csv");
        fs::write(&copy, &csv).unwrap();
        train(&["--plot", &copy.display().to_string()]).unwrap();
        assert_eq!(fs::read_to_string(dir.join("copy.loss.svg")).unwrap(), history.to_svg("copy"));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn clap_checks_the_ranges_and_conflicts() {
        assert_eq!(parse(&["--hidden", "512"]).unwrap().hidden, 512);
        for bad in [
            &["--hidden", "0"][..],
            &["--hidden", "24"],
            &["--hidden", "1040"],
            &["--output-buckets", "0"],
            &["--output-buckets", "9"],
            &["--lambda", "1.5"],
            &["--validation-lambda", "-0.1"],
            &["--validation", "2"],
            &["--batch", "0"],
            &["--threads", "0"],
            &["--checkpoint-minutes", "0"],
            &["--stop-after-steps", "0"],
            &["--init", "net.nnue", "--king-buckets", "4", "--factorise"],
            &["--king-buckets", "3"],
        ] {
            assert!(parse(bad).is_err(), "{bad:?} is accepted");
        }
        assert_eq!(parse(&["--output-buckets", "8", "--lambda", "1"]).unwrap().output_buckets, 8);
        // Every value clap accepts, the crate's check accepts.
        let args =
            parse(&["--hidden", "1024", "--output-buckets", "8", "--king-buckets", "16", "--factorise"]).unwrap();
        assert!(config(&args).check().is_ok());
    }
}
