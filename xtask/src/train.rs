//! `cargo xtask train`: trains Cutoff's network (see `crates/nnue`) from labelled positions
//! and writes the quantised network file.
//!
//! The trainer is plain Rust on the CPU, in `f32`, because the network is small: `(K x 768 ->
//! N) x 2 -> B` (K king buckets, `--king-buckets`, 1 by default; B output buckets by piece
//! count, usually 1 or 8) with a sparse input (about 30 of K x 768 features are set in a
//! position, all in the perspective's king bucket, so a position costs the same for any K). A forward
//! and backward pass costs about `4 * 30 * N` multiply-adds per position, a few hundred
//! thousand positions a second on one core for N = 128, so a first network trains on the
//! 2-core development machine in minutes and no GPU, Python or extra dependency is needed.
//!
//! * **Model.** For each perspective the accumulator is `b1 + sum of the rows of W1` of the set
//!   features (the same `W1` for both perspectives, as the engine uses it; `K x 768` rows, the
//!   features of `cutoff_nnue::KingBuckets::feature`), the activation is
//!   SCReLU `clamp(x, 0, 1)^2`, and the output is `b2[b] + W2[b] . [act(stm) ; act(other)]`
//!   for the position's output bucket `b` (`cutoff_nnue::output_bucket` of its piece count).
//!   The evaluation in centipawns is `out * SCALE` (200).
//! * **Factoriser** (`--factorise`, king buckets only). The model also holds 768 shared rows
//!   `F`; the network computes with `W1[b * 768 + i] + F[i]` (clipped to `[-CLIP, CLIP]`), so
//!   `F`'s gradient is the sum of the gradients of the rows of its piece and square in every
//!   bucket. The written file holds those sums: the engine's layout is unchanged.
//! * **Target.** `lambda * result + (1 - lambda) * sigmoid(score / SCALE)`, from the side to
//!   move's view; positions without a score use the result alone. The loss is the mean
//!   squared error of `sigmoid(out)` against the target.
//! * **Optimiser.** Adam over mini-batches, the learning rate following a cosine from `--lr` down
//!   to `--lr * --final-lr`; weights are clipped to `[-CLIP, CLIP]` after each step so that the
//!   quantised network cannot overflow its `i16` accumulators, and the output weights to
//!   `[-CLIP_OUTPUT, CLIP_OUTPUT]` so that its output sum cannot overflow `i32`.
//! * **Determinism.** Each batch is cut into a fixed number of chunks whose gradients are
//!   summed in order, so the result depends on the seed and the data, not on the thread count.
//! * **Quantisation.** `W1` and `b1` times `QA` (255) to `i16`, `W2` times `QB` (256) to `i16`,
//!   `b2` times `QA * QB` to `i32`, exactly as `cutoff-nnue` reads them.
//!
//! This file holds the arguments and the run (load, epochs, validation, output); `data` the
//! positions and their split, `model` the float network and its quantisation, `gradient` a
//! batch's gradient and Adam's step, `checkpoint` the file a run is resumed from.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use clap::Args;
use clap::builder::RangedU64ValueParser;
use cutoff_nnue::KingBuckets;

mod checkpoint;
mod data;
mod gradient;
mod model;

use crate::eval_tune;
use crate::progress::{self, Progress};
use crate::util::Result;
use checkpoint::{Checkpoint, CheckpointError, Identity};
use data::{Dataset, FileInfo, MIRRORED, describe_files, held_out, load};
use gradient::{Adam, ChunkGradient, batch_gradient};
use model::{Model, Quantised, Scratch, sigmoid, target};

/// Weights are kept in `[-CLIP, CLIP]` (quantised: `W1` and `b1` within 505).
const CLIP: f32 = 1.98;

/// Output weights are kept in `[-CLIP_OUTPUT, CLIP_OUTPUT]`: quantised within 256, which
/// `cutoff-nnue`'s output proof accepts for every hidden size (it promises ±258). The networks
/// so far stayed well inside (`net3`: at most 0.78).
const CLIP_OUTPUT: f32 = 1.0;

/// Chunks per batch; their gradients are summed in this order (see the module docs).
const CHUNKS: usize = 16;

/// The running sums of the output layer (see [`Model::output`]): two AVX2 registers' worth.
const LANES: usize = 16;

/// The network's constants, as `cutoff-nnue` defines them, in `f32`.
mod spec {
    /// Feature-weight and accumulator scale.
    pub const QA: f32 = cutoff_nnue::QA as f32;
    /// Output-weight scale.
    pub const QB: f32 = cutoff_nnue::QB as f32;
    /// Centipawns per unit of the output.
    pub const SCALE: f32 = cutoff_nnue::SCALE as f32;
}

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

    /// Where to write the quantised network.
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

/// SplitMix64, for the split, the initial weights and the shuffles.
struct Rng(cutoff_board::SplitMix64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(cutoff_board::SplitMix64::new(seed))
    }

    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in `[-a, a)`.
    fn uniform(&mut self, a: f32) -> f32 {
        ((self.next() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * a
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = (self.next() % (i as u64 + 1)) as usize;
            items.swap(i, j);
        }
    }
}

/// Mean loss of the hand-crafted evaluation on `data` (a set that keeps it; 0 for one that
/// does not), with the network's target and scale.
fn hce_loss(data: &Dataset, lambda: f32) -> f64 {
    let sum: f64 = data
        .positions
        .iter()
        .zip(data.hce())
        .map(|(p, &hce)| {
            let e = sigmoid(hce / spec::SCALE) - target(p, lambda);
            f64::from(e * e)
        })
        .sum();
    sum / data.hce().len().max(1) as f64
}

/// Mean loss of `set` (float model), over `threads`.
fn loss(model: &Model, data: &Dataset, set: &[u32], lambda: f32, threads: usize) -> f64 {
    if set.is_empty() {
        return 0.0;
    }
    let per = set.len().div_ceil(threads.max(1)).max(1);
    let sums: Vec<f64> = std::thread::scope(|s| {
        let handles: Vec<_> = set
            .chunks(per)
            .map(|chunk| {
                s.spawn(move || {
                    let mut scratch = Scratch::new(model.hidden);
                    let mut buffer = [[0u16; 2]; 32];
                    chunk
                        .iter()
                        .map(|&i| {
                            let (p, features) = data.entry(i, &mut buffer);
                            let e = sigmoid(model.eval_cp(features, &mut scratch) / spec::SCALE) - target(p, lambda);
                            f64::from(e * e)
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or(f64::NAN)).collect()
    });
    sums.iter().sum::<f64>() / set.len() as f64
}

/// The learning rate of step `step` of `total` (cosine from `lr` to `lr * final_share`).
fn learning_rate(lr: f32, final_share: f32, step: usize, total: usize) -> f32 {
    let progress = step as f32 / total.max(1) as f32;
    let cosine = 0.5 * (1.0 + (std::f32::consts::PI * progress).cos());
    lr * (final_share + (1.0 - final_share) * cosine)
}

/// The arguments that shape the training, as a checkpoint records them (see [`checkpoint`]).
fn run_identity(args: &TrainArgs, validation_lambda: f32) -> Identity {
    let mut id = Identity::default();
    id.push("hidden", args.hidden);
    id.push("output-buckets", args.output_buckets);
    id.push("king-buckets", format!("{:?}", args.king_buckets));
    id.push("factorise", args.factorise);
    id.push("init", args.init.as_ref().map_or_else(|| "none".to_owned(), |p| p.display().to_string()));
    id.push("epochs", args.epochs);
    id.push("batch", args.batch);
    id.push("lr", args.lr);
    id.push("final-lr", args.final_lr);
    id.push("lambda", args.lambda);
    // Named only when set, so that the checkpoints of runs from before these options resume.
    if args.lambda_from_epoch != 1 {
        id.push("lambda-from-epoch", args.lambda_from_epoch);
    }
    if args.weight_decay != 0.0 {
        id.push("weight-decay", args.weight_decay);
    }
    id.push("validation-lambda", validation_lambda);
    id.push("validation", args.validation);
    id.push("seed", args.seed);
    id.push("mirror", args.mirror);
    id.push("limit", args.limit.map_or_else(|| "none".to_owned(), |l| l.to_string()));
    id
}

/// Adds the data files and the sizes of the split to a run's identity.
fn data_identity(id: &mut Identity, files: &[FileInfo], validation_files: &[FileInfo], sizes: (usize, usize)) {
    for (kind, infos) in [("data", files), ("validation-data", validation_files)] {
        for (n, f) in infos.iter().enumerate() {
            id.push(format!("{kind} {n}"), format!("{} ({} bytes, {} positions)", f.name, f.bytes, f.positions));
        }
    }
    id.push("training positions", sizes.0);
    id.push("validation positions", sizes.1);
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

/// Makes SIGINT and SIGTERM set the flag it returns, and end the process with
/// [`INTERRUPTED_STATUS`] when the flag is already set.
fn stop_on_signals() -> Arc<AtomicBool> {
    let interrupted = Arc::new(AtomicBool::new(false));
    for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        // The shutdown is registered first, so that it sees the flag as the last signal left it.
        let installed = signal_hook::flag::register_conditional_shutdown(
            signal,
            i32::from(INTERRUPTED_STATUS),
            Arc::clone(&interrupted),
        )
        .and_then(|_| signal_hook::flag::register(signal, Arc::clone(&interrupted)));
        if let Err(e) = installed {
            eprintln!("train: a signal will end the run without a checkpoint: {e}");
        }
    }
    interrupted
}

/// [`run`], with `watch` called as the training begins for the flag it stops at: the run ends
/// with a checkpoint after the first step, but the last, that finds the flag set.
fn run_until(args: &TrainArgs, watch: impl FnOnce() -> Arc<AtomicBool>) -> Result<ExitCode> {
    if args.factorise && args.king_buckets.count() < 2 {
        return Err("--factorise needs a layout of 2 king buckets or more (4, 8, 16 or a map)".into());
    }
    if args.mirror && args.king_buckets != KingBuckets::NONE {
        return Err(
            "--mirror works with --king-buckets none only: the other layouts mirror the board themselves".into()
        );
    }
    let validation_lambda = args.validation_lambda.unwrap_or(args.lambda);
    let threads = args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let files = if args.data.is_empty() { vec![eval_tune::default_data()?] } else { args.data.clone() };
    let checkpoint_path = args.checkpoint.clone().unwrap_or_else(|| {
        let mut name = args.out.as_os_str().to_owned();
        name.push(".ckpt");
        PathBuf::from(name)
    });
    let mut identity = run_identity(args, validation_lambda);
    // A checkpoint is read and its arguments compared before the data is loaded, which takes
    // the longest.
    let resumed = match &args.resume {
        Some(path) => {
            let saved = Checkpoint::read(path)?;
            let differences = identity.differences(&saved.identity, false);
            if !differences.is_empty() {
                return Err(CheckpointError::OtherRun(path.clone(), differences).into());
            }
            Some(saved)
        }
        None => None,
    };
    let started = Instant::now();
    let mut data = Dataset::new(args.king_buckets);
    let mut validation_set = Dataset::with_hce(args.king_buckets);
    let (file_infos, validation_infos) = if args.validation_data.is_empty() {
        let held = |group| held_out(group, args.seed, args.validation);
        (load(&files, args.limit, held, &mut data, &mut validation_set)?, Vec::new())
    } else {
        let infos = load(&files, args.limit, |_| false, &mut data, &mut validation_set)?;
        if validation_set.len() != 0 {
            return Err("the training data went to the validation set".into());
        }
        (infos, load(&args.validation_data, None, |_| true, &mut data, &mut validation_set)?)
    };
    if file_infos.iter().map(|f| f.positions).sum::<usize>() == 0 {
        return Err("no training positions".into());
    }
    if validation_set.len() == 0 && !args.validation_data.is_empty() {
        return Err("--validation-data: no positions in those files".into());
    }
    let mut training: Vec<u32> = (0..data.len() as u32).collect();
    if args.mirror {
        let mirrored: Vec<u32> =
            training.iter().filter(|&&i| data.positions[i as usize].mirrorable()).map(|&i| i | MIRRORED).collect();
        training.extend(mirrored);
    }
    let validation: Vec<u32> = (0..validation_set.len() as u32).collect();
    let validation = validation.as_slice();
    data_identity(&mut identity, &file_infos, &validation_infos, (training.len(), validation.len()));
    if let (Some(path), Some(saved)) = (&args.resume, &resumed) {
        let differences = identity.differences(&saved.identity, true);
        if !differences.is_empty() {
            return Err(CheckpointError::OtherRun(path.clone(), differences).into());
        }
    }

    let mut rng = Rng::new(args.seed);
    eprintln!(
        "train: {} training positions from {}, {} validation positions from {}, read in {:.1} s; {} training samples{}; ({} x 768 -> {}) x 2 -> {}{}{}, {} threads",
        data.len(),
        describe_files(&files),
        validation_set.len(),
        if args.validation_data.is_empty() {
            format!("{:.1} % of the games", args.validation * 100.0)
        } else {
            describe_files(&args.validation_data)
        },
        started.elapsed().as_secs_f64(),
        training.len(),
        if args.mirror { " (with the mirrored positions)" } else { "" },
        args.king_buckets.count(),
        args.hidden,
        args.output_buckets,
        if args.king_buckets.mirrored() { ", mirrored" } else { "" },
        if args.factorise { ", factorised" } else { "" },
        threads
    );

    eprintln!(
        "train: the hand-crafted evaluation's loss with the same target: validation {:.6}",
        hce_loss(&validation_set, validation_lambda)
    );
    // The random weights are drawn with --init and --resume too, so that the shuffles are the
    // same.
    let mut model = Model::new(args.king_buckets, args.hidden, args.output_buckets, args.factorise, &mut rng);
    let mut adam = Adam::new(model.params.len());
    let batches = training.len().div_ceil(args.batch);
    let total_steps = batches * args.epochs;
    let mut step = 0;
    let mut resumed_error = 0.0;
    if let (Some(path), Some(saved)) = (&args.resume, resumed) {
        if saved.params.len() != model.params.len() {
            return Err(CheckpointError::Damaged(path.clone(), "its weights are not of the model's size").into());
        }
        step = usize::try_from(saved.step).unwrap_or(usize::MAX);
        if step > total_steps {
            return Err(CheckpointError::Damaged(path.clone(), "it is past the end of the schedule").into());
        }
        model.params = saved.params;
        model.after_step();
        adam = Adam { m: saved.m, v: saved.v, t: saved.adam_t };
        resumed_error = saved.train_error;
        eprintln!(
            "train: resuming {} at step {step} of {total_steps}: validation {:.6}",
            path.display(),
            loss(&model, &validation_set, validation, validation_lambda, threads)
        );
    } else if let Some(path) = &args.init {
        let net = cutoff_uci::load_network(path).map_err(|e| format!("--init {}: {e}", path.display()))?;
        model = Model::from_network(&net, args.king_buckets, args.hidden, args.output_buckets)?;
        eprintln!(
            "train: starting from {}: validation {:.6}",
            path.display(),
            loss(&model, &validation_set, validation, validation_lambda, threads)
        );
    }
    let mut grads = ChunkGradient::for_model(&model);
    let save = |model: &Model, adam: &Adam, step: usize, train_error: f64| -> Result<()> {
        let checkpoint = Checkpoint {
            identity: identity.clone(),
            step: step as u64,
            train_error,
            adam_t: adam.t,
            params: model.params.clone(),
            m: adam.m.clone(),
            v: adam.v.clone(),
        };
        checkpoint.write(&checkpoint_path)?;
        Ok(())
    };
    // Each epoch's shuffle continues the last one's order, so a resumed run replays the
    // shuffles of the epochs before its own.
    let first_epoch = step / batches.max(1) + 1;
    for _ in 1..first_epoch.min(args.epochs + 1) {
        rng.shuffle(&mut training);
    }
    let mut progress = Progress::new("train", total_steps as u64, progress::plain_wanted(args.plain));
    progress.skip(step as u64);
    let interval = std::time::Duration::from_secs(args.checkpoint_minutes.saturating_mul(60));
    let mut last_checkpoint = Instant::now();
    let mut steps_here = 0u64;
    let mut signalled = false;
    let interrupted = watch();
    for epoch in first_epoch..=args.epochs {
        rng.shuffle(&mut training);
        let done = step - (epoch - 1) * batches;
        let mut train_error = if done > 0 { resumed_error } else { 0.0 };
        let epoch_started = Instant::now();
        let mut seen = 0usize;
        let mut stopping = false;
        let lambda = if epoch >= args.lambda_from_epoch { args.lambda } else { 0.0 };
        for batch in training.chunks(args.batch).skip(done) {
            let lr = learning_rate(args.lr, args.final_lr, step, total_steps);
            let (grad, error) = batch_gradient(&model, &data, batch, lambda, threads, &mut grads);
            adam.step(&mut model.params, &grad, lr, args.weight_decay, threads);
            model.after_step();
            train_error += error;
            step += 1;
            steps_here += 1;
            seen += batch.len();
            progress.inc(1);
            if !signalled && interrupted.load(Ordering::SeqCst) && step < total_steps {
                signalled = true;
                progress.println("train: stopping at a checkpoint (a second signal quits at once)");
            }
            stopping = signalled || args.stop_after_steps.is_some_and(|n| steps_here >= n);
            let epoch_end = step == epoch * batches;
            if !epoch_end && (stopping || last_checkpoint.elapsed() >= interval) {
                save(&model, &adam, step, train_error)?;
                last_checkpoint = Instant::now();
            }
            if stopping {
                break;
            }
        }
        if step == epoch * batches {
            let seconds = epoch_started.elapsed().as_secs_f64();
            let val = loss(&model, &validation_set, validation, validation_lambda, threads);
            progress.println(&format!(
                "epoch {epoch:4}: training {:.6}, validation {val:.6}, lr {:.6}, {:.0} positions/s",
                train_error / training.len() as f64,
                learning_rate(args.lr, args.final_lr, step, total_steps),
                seen as f64 / seconds.max(1e-9)
            ));
            progress.set_message(format!("validation {val:.6}"));
            save(&model, &adam, step, 0.0)?;
            last_checkpoint = Instant::now();
        }
        if stopping && step < total_steps {
            progress.finish();
            eprintln!(
                "train: stopped after step {step} of {total_steps}; wrote {} (continue with --resume)",
                checkpoint_path.display()
            );
            return Ok(if signalled { ExitCode::from(INTERRUPTED_STATUS) } else { ExitCode::SUCCESS });
        }
    }
    progress.finish();

    let quantised = model.quantise();
    let mut scratch = Scratch::new(model.hidden);
    let (mut diff, mut worst) = (0.0f64, 0.0f32);
    let (mut size, mut hce_size) = (0.0f64, 0.0f64);
    let mut buffer = [[0u16; 2]; 32];
    for (i, &hce_cp) in validation_set.hce().iter().enumerate().take(10_000) {
        let f = validation_set.features(i, &mut buffer);
        let eval = model.eval_cp(f, &mut scratch);
        let d = (eval - quantised.eval_cp(f) as f32).abs();
        diff += f64::from(d);
        worst = worst.max(d);
        size += f64::from(eval.abs().min(2000.0));
        hce_size += f64::from(hce_cp.abs().min(2000.0));
    }
    let checked = validation.len().clamp(1, 10_000);
    // A diagnostic: the search's pruning margins are set on the hand-crafted scale.
    eprintln!(
        "train: mean absolute evaluation (capped at 2000 cp) on {checked} validation positions: network {:.0} cp, hand-crafted {:.0} cp",
        size / checked as f64,
        hce_size / checked as f64
    );
    eprintln!(
        "train: quantisation changes the evaluation by {:.2} cp on average (at most {worst:.0}) on {checked} validation positions",
        diff / checked as f64
    );
    write_network(&args.out, quantised)?;
    eprintln!("train: wrote {} in {:.0} s", args.out.display(), started.elapsed().as_secs_f64());
    Ok(ExitCode::SUCCESS)
}

/// The 32-entry bucket maps of the named layouts of `--king-buckets` (half-board square
/// `rank * 4 + file`, files a-d).
fn named_map(name: &str) -> Option<[u8; 32]> {
    let map: fn(usize) -> u8 = match name {
        "mirror" => |_| 0,
        "4" => |sq| (sq / 8) as u8,
        "8" => |sq| match sq / 4 {
            0 | 1 => (sq / 4 * 2 + sq % 4 / 2) as u8,
            2 | 3 => (sq / 4 + 2) as u8,
            rank => (rank / 2 + 4) as u8,
        },
        "16" => |sq| (sq / 2) as u8,
        _ => return None,
    };
    Some(std::array::from_fn(map))
}

/// Parses `--king-buckets` (see [`TrainArgs::king_buckets`]).
fn parse_king_buckets(spec: &str) -> std::result::Result<KingBuckets, String> {
    if spec == "none" {
        return Ok(KingBuckets::NONE);
    }
    let map = match named_map(spec) {
        Some(map) => map,
        None => {
            let entries: Vec<u8> = spec
                .split(',')
                .map(|e| e.trim().parse::<u8>())
                .collect::<std::result::Result<_, _>>()
                .map_err(|_| format!("{spec:?}: expected none, mirror, 4, 8, 16 or 32 comma-separated buckets"))?;
            entries.try_into().map_err(|e: Vec<u8>| format!("a bucket map has 32 entries, not {}", e.len()))?
        }
    };
    KingBuckets::new(true, map).map_err(|e| e.to_string())
}

/// Writes the network file (format of `cutoff-nnue`). Building the [`cutoff_nnue::Network`]
/// runs the crate's overflow proofs, so a written file always loads.
/// Writes the network to `path` through a temporary file renamed over it, so that an
/// interruption leaves no cut-short network.
fn write_network(path: &Path, q: Quantised) -> Result<()> {
    let network = q.into_network()?;
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".tmp");
    let temporary = PathBuf::from(temporary);
    let cannot = |e: std::io::Error| format!("cannot write {}: {e}", path.display());
    fs::write(&temporary, network.to_bytes()).map_err(cannot)?;
    fs::rename(&temporary, path).map_err(cannot)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::data::Packed;
    use super::gradient::GroupGradient;
    use super::*;
    use cutoff_board::{Board, CastlingMode, Color, PieceType};
    use cutoff_nnue::INPUTS;

    /// A few positions of the kinds the trainer sees, labelled as EPD.
    const EPD: &str = "\
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - c9 \"1/2-1/2\"; ce 20;
r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - c9 \"1-0\"; ce 35;
8/8/4k3/8/2R5/8/4K3/8 w - - c9 \"1-0\"; ce 700;
8/5k2/8/3q4/8/8/4K3/8 b - - c9 \"0-1\"; ce 900;
r3k2r/ppp2ppp/2n5/3qp3/8/2N2N2/PPP2PPP/R2QK2R w KQkq - c9 \"0-1\"; ce -150;
4k3/8/8/8/8/8/4P3/4K3 w - - c9 \"1/2-1/2\";
";

    #[test]
    fn the_first_line_names_few_files_and_summarises_many() {
        let paths = |n: usize| (0..n).map(|i| PathBuf::from(format!("set-{i}/games-0.bin"))).collect::<Vec<_>>();
        assert_eq!(describe_files(&[]), "no files");
        assert_eq!(describe_files(&paths(1)), "set-0/games-0.bin");
        assert_eq!(describe_files(&paths(2)), "2 files (set-0/games-0.bin, set-1/games-0.bin)");
        assert_eq!(
            describe_files(&paths(4)),
            "4 files (set-0/games-0.bin, set-1/games-0.bin, set-2/games-0.bin, set-3/games-0.bin)"
        );
        assert_eq!(describe_files(&paths(113)), "113 files (set-0/games-0.bin, ..., set-112/games-0.bin)");
    }

    fn dataset() -> Dataset {
        dataset_of(KingBuckets::NONE)
    }

    fn dataset_of(layout: KingBuckets) -> Dataset {
        let mut data = Dataset::new(layout);
        for line in EPD.lines() {
            let (board, result, score) = eval_tune::parse_line(line).unwrap();
            let white = board.side_to_move() == Color::White;
            let result = if white { result } else { 1.0 - result };
            data.push(&board, result, score.map(|s| if white { s } else { -s })).unwrap();
        }
        data
    }

    #[test]
    fn training_lowers_the_loss_and_the_file_evaluates_as_the_float_model() {
        for buckets in [1, 8] {
            train_and_check(KingBuckets::NONE, buckets, false);
        }
    }

    #[test]
    fn king_bucketed_training_lowers_the_loss_and_the_file_evaluates_as_the_float_model() {
        for (spec, buckets) in [("mirror", 1), ("4", 8), ("8", 1), ("16", 8)] {
            train_and_check(parse_king_buckets(spec).unwrap(), buckets, false);
        }
    }

    #[test]
    fn factorised_training_lowers_the_loss_and_the_file_evaluates_as_the_float_model() {
        for (spec, buckets) in [("4", 8), ("16", 1)] {
            train_and_check(parse_king_buckets(spec).unwrap(), buckets, true);
        }
    }

    #[test]
    fn a_factorised_model_computes_with_the_sums_and_starts_as_the_plain_one() {
        let layout = parse_king_buckets("4").unwrap();
        let plain = Model::new(layout, 16, 8, false, &mut Rng::new(4));
        let mut model = Model::new(layout, 16, 8, true, &mut Rng::new(4));
        // The factoriser starts at zero and draws no random numbers.
        assert_eq!(model.w1(), plain.w1());
        assert_eq!(model.params[..plain.params.len()], plain.params[..]);
        assert_eq!(model.params.len(), plain.params.len() + INPUTS * 16);
        // A factoriser row is added to the same piece and square of every bucket.
        let f = model.factor_start();
        model.params[f + 5 * 16 + 2] = 0.25;
        model.after_step();
        for bucket in 0..4 {
            let at = (bucket * INPUTS + 5) * 16 + 2;
            assert_eq!(model.w1()[at], plain.w1()[at] + 0.25);
            assert_eq!(model.w1()[at + 16], plain.w1()[at + 16], "the next square is not changed");
        }
        // The sums stay within the clip, so the quantised network passes the overflow proofs.
        model.params[f] = 1.9;
        model.params[0] = 1.9;
        model.after_step();
        assert_eq!(model.w1()[0], CLIP);
        assert!(model.quantise().into_network().is_ok());
    }

    #[test]
    fn a_model_started_from_a_file_evaluates_as_the_file_and_quantises_back_to_it() {
        for spec in ["none", "4"] {
            let layout = parse_king_buckets(spec).unwrap();
            let data = dataset_of(layout);
            let mut model = Model::new(layout, 16, 8, false, &mut Rng::new(9));
            // Some training, so that the weights are not the initial ones.
            let set: Vec<u32> = (0..data.len() as u32).collect();
            let mut adam = Adam::new(model.params.len());
            let mut grads = ChunkGradient::for_model(&model);
            for _ in 0..20 {
                let (grad, _) = batch_gradient(&model, &data, &set, 0.5, 1, &mut grads);
                adam.step(&mut model.params, &grad, 0.01, 0.0, 1);
                model.after_step();
            }
            let network = model.quantise().into_network().unwrap();
            let started = Model::from_network(&network, layout, 16, 8).unwrap();
            // Quantising the started model gives the very file back.
            assert_eq!(started.quantise().into_network().unwrap(), network);
            // Its float evaluation is the file's, up to the integer rounding of the engine.
            let mut scratch = Scratch::new(16);
            let mut buffer = [[0u16; 2]; 32];
            for i in 0..data.len() {
                let features = data.features(i, &mut buffer);
                let board_eval = started.quantise().eval_cp(features);
                let float_eval = started.eval_cp(features, &mut scratch);
                assert!((float_eval - board_eval as f32).abs() <= 1.0, "{float_eval} vs {board_eval}");
            }
            // Another shape is refused.
            assert!(Model::from_network(&network, layout, 32, 8).is_err());
            assert!(Model::from_network(&network, layout, 16, 1).is_err());
            let other = if spec == "none" { parse_king_buckets("mirror").unwrap() } else { KingBuckets::NONE };
            assert!(Model::from_network(&network, other, 16, 8).is_err());
        }
    }

    fn train_and_check(layout: KingBuckets, buckets: usize, factorised: bool) {
        let data = dataset_of(layout);
        let set: Vec<u32> = (0..data.len() as u32).collect();
        let mut rng = Rng::new(7);
        let mut model = Model::new(layout, 16, buckets, factorised, &mut rng);
        let mut adam = Adam::new(model.params.len());
        let mut grads = ChunkGradient::for_model(&model);
        let before = loss(&model, &data, &set, 0.5, 1);
        for _ in 0..200 {
            let (grad, _) = batch_gradient(&model, &data, &set, 0.5, 2, &mut grads);
            adam.step(&mut model.params, &grad, 0.01, 0.0, 1);
            model.after_step();
        }
        let after = loss(&model, &data, &set, 0.5, 1);
        assert!(after < before / 2.0, "{buckets} buckets: loss {before} -> {after}");

        // The engine's inference computes exactly the trainer's quantised evaluation, and the
        // quantised evaluation stays within a few centipawns of the float one.
        let network = model.quantise().into_network().unwrap();
        let reread = cutoff_nnue::Network::from_bytes(&network.to_bytes()).unwrap();
        assert_eq!(reread.king_buckets(), &layout);
        let quantised = model.quantise();
        let mut scratch = Scratch::new(16);
        let mut buffer = [[0u16; 2]; 32];
        for (i, line) in EPD.lines().enumerate() {
            let fen: Vec<&str> = line.split_whitespace().take(4).collect();
            let board = Board::from_fen(&format!("{} 0 1", fen.join(" ")), CastlingMode::Standard).unwrap();
            let features = data.features(i, &mut buffer);
            assert_eq!(reread.evaluate(&board), quantised.eval_cp(features), "{buckets} buckets: {line}");
            let float = model.eval_cp(features, &mut scratch);
            assert!((float - quantised.eval_cp(features) as f32).abs() <= 5.0, "{line}: {float}");
        }
    }

    #[test]
    fn king_bucket_layouts_parse() {
        let count = |spec: &str| parse_king_buckets(spec).map(|l| (l.count(), l.mirrored()));
        assert_eq!(count("none"), Ok((1, false)));
        assert_eq!(count("mirror"), Ok((1, true)));
        assert_eq!(count("4"), Ok((4, true)));
        assert_eq!(count("8"), Ok((8, true)));
        assert_eq!(count("16"), Ok((16, true)));
        // The 8-bucket map, rank by rank (a1-d1 first).
        let eight = parse_king_buckets("8").unwrap();
        assert_eq!(
            eight.map(),
            &[0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7]
        );
        let explicit: Vec<String> = (0..32).map(|sq| (sq / 16).to_string()).collect();
        assert_eq!(count(&explicit.join(",")), Ok((2, true)));
        assert!(parse_king_buckets("3").is_err());
        assert!(parse_king_buckets("0,1,2").unwrap_err().contains("32 entries"));
        let gap: Vec<String> = (0..32).map(|sq| (2 * (sq / 16)).to_string()).collect();
        assert!(parse_king_buckets(&gap.join(",")).unwrap_err().contains("never uses bucket 1"));
    }

    #[test]
    fn the_validation_split_holds_out_whole_groups_at_the_share_asked() {
        let held = (0..20_000).filter(|&g| held_out(g, 7, 0.05)).count();
        assert!((800..1200).contains(&held), "{held} of 20000 groups held out at 5 %");
        assert!((0..1000).all(|g| held_out(g, 7, 0.05) == held_out(g, 7, 0.05)));
        assert!((0..1000).any(|g| held_out(g, 7, 0.05) != held_out(g, 8, 0.05)), "the seed changes the split");
        assert!(!(0..1000).any(|g| held_out(g, 7, 0.0)), "a share of 0 holds out nothing");
        assert!((0..1000).all(|g| held_out(g, 7, 1.0)), "a share of 1 holds out everything");
    }

    #[test]
    fn a_mirrored_entry_has_the_features_of_the_mirrored_position() {
        let board = |fen| Board::from_fen(fen, cutoff_board::CastlingMode::Standard).unwrap();
        let mut data = Dataset::new(KingBuckets::NONE);
        data.push(&board("r4rk1/pp3ppp/2n1b3/q2p4/3P4/2PB1N2/P4PPP/R2Q1RK1 b - - 3 14"), 0.5, None).unwrap();
        data.push(&board("1kr4r/ppp3pp/3b1n2/4p2q/4P3/2N1BP2/PPP4P/1KR1Q2R b - - 3 14"), 0.5, None).unwrap();
        data.push(&board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"), 0.5, None).unwrap();
        assert!(data.positions[0].mirrorable() && !data.positions[2].mirrorable());
        let (mut a, mut b) = ([[0u16; 2]; 32], [[0u16; 2]; 32]);
        let mut mirrored = data.entry(MIRRORED, &mut a).1.to_vec();
        let mut other = data.entry(1, &mut b).1.to_vec();
        mirrored.sort_unstable();
        other.sort_unstable();
        assert_eq!(mirrored, other);
        assert_eq!(data.entry(0, &mut a).1, data.features(0, &mut b));
    }

    #[test]
    fn packed_positions_give_the_features_in_colour_piece_and_square_order() {
        let fens = [
            "r4rk1/pp3ppp/2n1b3/q2p4/3P4/2PB1N2/P4PPP/R2Q1RK1 b - - 3 14",
            "1kr4r/ppp3pp/3b1n2/4p2q/4P3/2N1BP2/PPP4P/1KR1Q2R w - - 3 14",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "8/8/4k3/8/2R5/8/4K3/8 b - - 0 1",
        ];
        for spec in ["none", "mirror", "8", "16"] {
            let layout = parse_king_buckets(spec).unwrap();
            let mut data = Dataset::with_hce(layout);
            for (n, fen) in fens.iter().enumerate() {
                let board = Board::from_fen(fen, CastlingMode::Standard).unwrap();
                data.push(&board, [0.0, 0.5, 1.0, 0.5][n], [Some(-35.0), None, Some(12.5), Some(700.0)][n]).unwrap();
                // The order of the sums the accumulators are taken in.
                let stm = board.side_to_move();
                let mut expected = Vec::new();
                for color in Color::ALL {
                    for kind in PieceType::ALL {
                        for sq in board.colored_pieces(color, kind) {
                            let own = layout.feature(stm, board.king(stm), color, kind, sq) as u16;
                            let other = layout.feature(!stm, board.king(!stm), color, kind, sq) as u16;
                            expected.push([own, other]);
                        }
                    }
                }
                assert_eq!(data.features(n, &mut [[0u16; 2]; 32]), &expected[..], "{spec}: {fen}");
                let p = &data.positions[n];
                assert_eq!(p.result(), [0.0, 0.5, 1.0, 0.5][n]);
                assert_eq!(p.mirrorable(), board.castling_rights().is_empty());
                assert_eq!(data.hce()[n], cutoff_eval::evaluate(&board) as f32);
            }
        }
        assert_eq!(std::mem::size_of::<Packed>(), 32);
        // A set without the hand-crafted evaluation keeps none.
        let mut plain = Dataset::new(KingBuckets::NONE);
        plain.push(&Board::from_fen(fens[0], CastlingMode::Standard).unwrap(), 0.5, None).unwrap();
        assert!(plain.hce.is_none());
        let board = Board::from_fen(fens[0], CastlingMode::Standard).unwrap();
        assert!(Dataset::new(KingBuckets::NONE).push(&board, 0.25, None).is_err(), "a result of 0.25");
    }

    /// A unique scratch folder for a test.
    fn scratch_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("cutoff-train-{}-{name}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// A scratch directory holding the test positions as `data.epd`, and that file's path.
    fn scratch_with_data(name: &str) -> (PathBuf, String) {
        let dir = scratch_dir(name);
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
        run_until(&parse(args)?, || Arc::new(AtomicBool::new(false)))
    }

    #[test]
    fn a_run_stopped_and_resumed_writes_the_same_network_as_one_never_stopped() {
        let (dir, data) = scratch_with_data("resume");
        let path = |name: &str| dir.join(name).display().to_string();
        for (name, shape) in [
            ("plain", &["--output-buckets", "8", "--mirror"][..]),
            ("factorised", &["--king-buckets", "4", "--factorise", "--output-buckets", "2"][..]),
        ] {
            let common = joined(&small_run(&data, "3"), shape);
            let (full, split) = (path(&format!("{name}-full.nnue")), path(&format!("{name}-split.nnue")));
            let checkpoint = format!("{split}.ckpt");
            train(&joined(&common, &["--out", &full])).unwrap();
            // Stopped within the first epoch, then after step 5: the end of the first epoch with
            // --mirror (9 entries, 5 batches an epoch), within the second without (3 batches).
            train(&joined(&common, &["--out", &split, "--stop-after-steps", "2"])).unwrap();
            assert!(!Path::new(&split).exists(), "{name}: a stopped run writes no network");
            let first = Checkpoint::read(Path::new(&checkpoint)).unwrap();
            assert_eq!(first.step, 2);
            train(&joined(&common, &["--out", &split, "--resume", &checkpoint, "--stop-after-steps", "3"])).unwrap();
            assert_eq!(Checkpoint::read(Path::new(&checkpoint)).unwrap().step, 5);
            assert!(!Path::new(&split).exists());
            train(&joined(&common, &["--out", &split, "--resume", &checkpoint])).unwrap();
            let (a, b) = (fs::read(&full).unwrap(), fs::read(&split).unwrap());
            assert!(a == b, "{name}: the resumed run wrote another network");
            // A different network would have shown: the runs train the weights away from the start.
            let start = Checkpoint::read(Path::new(&format!("{full}.ckpt"))).unwrap();
            assert!(start.params != first.params && start.adam_t > first.adam_t);
        }
        fs::remove_dir_all(&dir).unwrap();
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
        // finishes. Step 5 ends the first epoch.
        for step in 1..10 {
            let args = if step == 1 { &split_args } else { &resumed };
            let status = run_until(&parse(args).unwrap(), || Arc::new(AtomicBool::new(true))).unwrap();
            assert_eq!(status, ExitCode::from(INTERRUPTED_STATUS), "step {step}");
            assert!(!Path::new(&split).exists(), "a signalled run writes no network");
            assert_eq!(Checkpoint::read(Path::new(&checkpoint)).unwrap().step, step);
        }
        let status = run_until(&parse(&resumed).unwrap(), || Arc::new(AtomicBool::new(true))).unwrap();
        assert_eq!(status, ExitCode::SUCCESS);
        assert!(fs::read(&full).unwrap() == fs::read(&split).unwrap(), "the resumed runs wrote another network");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_result_enters_the_target_from_the_epoch_asked() {
        let (dir, data) = scratch_with_data("late-lambda");
        let common = joined(&small_run(&data, "2"), &["--validation-lambda", "0"]);
        let out = |name: &str| dir.join(name).display().to_string();
        let net = |name: &str, extra: &[&str]| {
            train(&joined(&joined(&common, extra), &["--out", &out(name)])).unwrap();
            fs::read(out(name)).unwrap()
        };
        let scores = net("scores.nnue", &["--lambda", "0"]);
        // From an epoch past the last one, the results never enter: the scores' network.
        assert!(net("never.nnue", &["--lambda", "1", "--lambda-from-epoch", "3"]) == scores);
        // From the second epoch, the first is the scores' and the second differs.
        let late = net("late.nnue", &["--lambda", "1", "--lambda-from-epoch", "2"]);
        assert!(late != scores);
        assert!(late != net("always.nnue", &["--lambda", "1"]));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn weight_decay_shrinks_each_weight_by_its_share_of_the_learning_rate() {
        let mut params = vec![1.0f32, -0.5, 0.25];
        let mut adam = Adam::new(params.len());
        // A zero gradient moves nothing but the decay: each weight keeps 1 - 0.1 * 0.5 of itself.
        adam.step(&mut params, &[0.0; 3], 0.1, 0.5, 2);
        assert_eq!(params, [0.95, -0.475, 0.2375]);
        let mut plain = vec![1.0f32, -0.5, 0.25];
        Adam::new(3).step(&mut plain, &[0.0; 3], 0.1, 0.0, 1);
        assert_eq!(plain, [1.0, -0.5, 0.25]);
    }

    #[test]
    fn a_checkpoint_of_another_run_or_a_damaged_one_is_refused() {
        let dir = scratch_dir("refuse");
        let data = dir.join("data.epd");
        fs::write(&data, EPD).unwrap();
        let other = dir.join("other.epd");
        fs::write(&other, &EPD[..EPD.len() - EPD.lines().last().unwrap().len() - 1]).unwrap();
        let (data, other) = (data.display().to_string(), other.display().to_string());
        let out = dir.join("net.nnue").display().to_string();
        let checkpoint = format!("{out}.ckpt");
        let common =
            ["--data", &data, "--validation", "0", "--hidden", "16", "--epochs", "2", "--batch", "2", "--plain"];
        train(&joined(&common, &["--out", &out, "--stop-after-steps", "1"])).unwrap();
        let refused = |args: &[&str]| -> String {
            let error = train(args).unwrap_err();
            let typed =
                error.downcast_ref::<CheckpointError>().unwrap_or_else(|| panic!("not a checkpoint error: {error}"));
            typed.to_string()
        };
        // Another argument, named with both values.
        let message = refused(&joined(&common, &["--out", &out, "--resume", &checkpoint, "--seed", "3"]));
        assert!(message.contains("another run") && message.contains("seed: 3 here, 1 in the checkpoint"), "{message}");
        // Other data: the file of the same name with a line less.
        let renamed = dir.join("sub");
        fs::create_dir_all(&renamed).unwrap();
        let moved = renamed.join("data.epd");
        fs::copy(&other, &moved).unwrap();
        let moved = moved.display().to_string();
        let args =
            ["--data", &moved, "--validation", "0", "--hidden", "16", "--epochs", "2", "--batch", "2", "--plain"];
        let mut args = args.to_vec();
        args.extend(["--out", &out, "--resume", &checkpoint]);
        let message = refused(&args);
        assert!(message.contains("data 0: data.epd (") && message.contains("5 positions) here"), "{message}");
        // A damaged file.
        let mut bytes = fs::read(&checkpoint).unwrap();
        let middle = bytes.len() / 2;
        bytes[middle] ^= 1;
        let damaged = dir.join("damaged.ckpt");
        fs::write(&damaged, &bytes).unwrap();
        let message = refused(&joined(&common, &["--out", &out, "--resume", &damaged.display().to_string()]));
        assert!(message.contains("damaged") && message.contains("checksum"), "{message}");
        fs::write(&damaged, &bytes[..middle]).unwrap();
        assert!(
            refused(&joined(&common, &["--out", &out, "--resume", &damaged.display().to_string()])).contains("damaged")
        );
        fs::write(&damaged, b"not a checkpoint").unwrap();
        assert!(
            refused(&joined(&common, &["--out", &out, "--resume", &damaged.display().to_string()]))
                .contains("not a training checkpoint")
        );
        // The same run's checkpoint is taken.
        train(&joined(&common, &["--out", &out, "--resume", &checkpoint])).unwrap();
        assert!(Path::new(&out).exists());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn clap_checks_the_ranges_and_conflicts() {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            args: TrainArgs,
        }
        let parse = |args: &[&str]| {
            <Cli as clap::Parser>::try_parse_from(std::iter::once("train").chain(args.iter().copied())).map(|c| c.args)
        };
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
        ] {
            assert!(parse(bad).is_err(), "{bad:?} is accepted");
        }
        assert_eq!(parse(&["--output-buckets", "8", "--lambda", "1"]).unwrap().output_buckets, 8);
    }

    #[test]
    fn gradients_do_not_depend_on_the_thread_count() {
        let data = dataset();
        let set: Vec<u32> = (0..data.len() as u32).collect();
        let model = Model::new(KingBuckets::NONE, 32, 8, false, &mut Rng::new(3));
        let mut grads = ChunkGradient::for_model(&model);
        let (one, e1) = batch_gradient(&model, &data, &set, 0.5, 1, &mut grads);
        let (three, e3) = batch_gradient(&model, &data, &set, 0.5, 3, &mut grads);
        assert_eq!(one, three);
        assert_eq!(e1, e3);
        // Nor do Adam's steps (AdamW here, to cover the decay too).
        let steps = |threads| {
            let (mut params, mut adam) = (model.params.clone(), Adam::new(model.params.len()));
            for _ in 0..2 {
                adam.step(&mut params, &one, 0.01, 0.1, threads);
            }
            params
        };
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&steps(1)), bits(&steps(3)));
        assert_ne!(bits(&steps(1)), bits(&model.params));
    }

    #[test]
    fn sparse_chunk_gradients_equal_the_dense_sum_bit_for_bit() {
        // The chunks' buffers are reused: a second batch must see nothing of the first.
        // Hidden 32 sums `W1`'s rows 16 neurons at a time, 64 a `ROW_SLICE` at a time.
        let data = dataset_of(parse_king_buckets("8").unwrap());
        let all: Vec<u32> = (0..data.len() as u32).collect();
        let (first, second) = all.split_at(all.len() / 2);
        for hidden in [32, 64] {
            let model = Model::new(data.layout, hidden, 8, false, &mut Rng::new(9));
            let mut grads = ChunkGradient::for_model(&model);
            for batch in [first, second, &all[..]] {
                let (sparse, _) = batch_gradient(&model, &data, batch, 0.5, 2, &mut grads);
                // The reference: every chunk into a whole zeroed buffer, summed in chunk order.
                let mut dense = vec![0.0f32; model.params.len()];
                let mut scratch = Scratch::new(model.hidden);
                let mut buffer = [[0u16; 2]; 32];
                for chunk in batch.chunks(batch.len().div_ceil(CHUNKS)) {
                    let mut grad = vec![0.0f32; model.params.len()];
                    for &i in chunk {
                        let (p, features) = data.entry(i, &mut buffer);
                        model.backward(features, target(p, 0.5), &mut scratch, &mut grad);
                    }
                    for (t, x) in dense.iter_mut().zip(&grad) {
                        *t += x;
                    }
                }
                let scale = 1.0 / batch.len() as f32;
                dense.iter_mut().for_each(|t| *t *= scale);
                assert!(dense.iter().any(|&g| g != 0.0));
                let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&sparse), bits(&dense));
            }
        }
    }

    #[test]
    fn a_group_adds_to_each_row_in_the_order_of_the_positions() {
        // Groups of 3 positions over 7 positions, rows shared between positions and between
        // the two sides of one position: every row must come out as the additions one by one
        // in `Model::backward`'s order, bit for bit, and a group must leave nothing behind.
        let mut rng = Rng::new(5);
        let model = Model::new(KingBuckets::NONE, 64, 1, false, &mut rng);
        let mut group = GroupGradient::new(&model);
        group.capacity = 3;
        let n = model.hidden;
        let positions: Vec<Vec<[u16; 2]>> =
            (0..7u16).map(|p| (0..5u16).map(|k| [(p * 7 + k * 3) % 20, (k * 5 + p) % 20]).collect()).collect();
        let gradients: Vec<Vec<f32>> = (0..7).map(|_| (0..2 * n).map(|_| rng.uniform(1.0)).collect()).collect();
        let mut grouped = vec![0.5f32; INPUTS * n];
        let mut reference = grouped.clone();
        for (p, features) in positions.iter().enumerate() {
            let (own, other) = gradients[p].split_at(n);
            for &[f, g] in features {
                for (w, d) in reference[usize::from(f) * n..][..n].iter_mut().zip(own) {
                    *w += d;
                }
                for (w, d) in reference[usize::from(g) * n..][..n].iter_mut().zip(other) {
                    *w += d;
                }
            }
        }
        for (first, chunk) in positions.chunks(group.capacity).enumerate() {
            for (slot, features) in chunk.iter().enumerate() {
                let (own, other) = group.record(slot, features);
                let p = first * 3 + slot;
                own.copy_from_slice(&gradients[p][..n]);
                other.copy_from_slice(&gradients[p][n..]);
            }
            group.add_to(&mut grouped);
            assert!(group.adds.is_empty() && group.rows.is_empty() && group.count.iter().all(|&c| c == 0));
        }
        assert!(reference.iter().any(|&w| w != 0.5));
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&grouped), bits(&reference));
    }

    #[test]
    fn gradients_match_finite_differences() {
        finite_differences(KingBuckets::NONE, false);
    }

    #[test]
    fn king_bucketed_gradients_match_finite_differences() {
        finite_differences(parse_king_buckets("8").unwrap(), false);
    }

    #[test]
    fn factorised_gradients_match_finite_differences() {
        finite_differences(parse_king_buckets("8").unwrap(), true);
    }

    fn finite_differences(layout: KingBuckets, factorised: bool) {
        // Positions of 3, 24 and 32 pieces: buckets 0, 5 and 7 of 8.
        let data = dataset_of(layout);
        let set: Vec<u32> = (0..data.len() as u32).collect();
        let mut model = Model::new(layout, 16, 8, factorised, &mut Rng::new(5));
        // Biases that put most neurons inside SCReLU's curved part, where gradients flow.
        let n = model.hidden;
        let (b1, w2) = (model.b1_start(), model.w2_start());
        for b in &mut model.params[b1..w2] {
            *b = 0.3;
        }
        let mut grads = ChunkGradient::for_model(&model);
        let (grad, _) = batch_gradient(&model, &data, &set, 0.5, 1, &mut grads);
        // The summed squared error over the set, in f64 for a clean difference quotient.
        let error = |m: &Model| -> f64 {
            let mut scratch = Scratch::new(m.hidden);
            let mut buffer = [[0u16; 2]; 32];
            set.iter()
                .map(|&i| {
                    let (p, features) = data.entry(i, &mut buffer);
                    let e =
                        f64::from(sigmoid(m.eval_cp(features, &mut scratch) / spec::SCALE)) - f64::from(target(p, 0.5));
                    e * e
                })
                .sum::<f64>()
                / set.len() as f64
        };
        let feature = data.features(2, &mut [[0u16; 2]; 32])[0][0] as usize; // a piece of a 3-piece position
        let (w2, b2) = (model.w2_start(), model.b2_start());
        let mut checked = vec![
            feature * n + 3,        // a feature weight
            b1 + 5,                 // a feature bias
            w2 + 7,                 // bucket 0, side to move
            w2 + 7 * 2 * n + n + 2, // bucket 7, other side
            b2,                     // bucket 0's bias
            b2 + 7,                 // bucket 7's bias
        ];
        if factorised {
            // The factoriser's row of that feature's piece and square, in every bucket's sum.
            checked.push(model.factor_start() + (feature % INPUTS) * n + 3);
        }
        for index in checked {
            let h = 1e-2;
            let (mut plus, mut minus) = (model.clone(), model.clone());
            plus.params[index] += h;
            minus.params[index] -= h;
            plus.after_step();
            minus.after_step();
            let numeric = (error(&plus) - error(&minus)) / (2.0 * f64::from(h));
            let analytic = f64::from(grad[index]);
            assert!(
                (numeric - analytic).abs() <= 1e-3 * numeric.abs().max(analytic.abs()) + 1e-6,
                "parameter {index}: analytic {analytic}, numeric {numeric}"
            );
            assert!(analytic.abs() > 1e-7, "parameter {index} has no gradient to check");
        }
        // Buckets no position uses get no gradient.
        assert!(grad[w2 + 3 * 2 * n..w2 + 4 * 2 * n].iter().all(|&g| g == 0.0));
        assert_eq!(grad[b2 + 3], 0.0);
    }
}
