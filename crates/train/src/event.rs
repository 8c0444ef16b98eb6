//! What a run reports as it goes.

use std::fmt;
use std::path::Path;

use crate::config::TrainConfig;
use crate::loss::{EpochLoss, LossHistory};

/// What a run reports as it goes, in this order: [`Loaded`](Event::Loaded), then
/// [`ReferenceLoss`](Event::ReferenceLoss) when there is a reference evaluation,
/// [`Resumed`](Event::Resumed) or [`Initialised`](Event::Initialised) when the run starts from
/// a checkpoint or a network, [`Begin`](Event::Begin), a [`Step`](Event::Step) per optimiser
/// step with an [`Epoch`](Event::Epoch) at each epoch's end (and
/// [`Stopping`](Event::Stopping) once, when the stop flag is seen), and at the end of a run
/// that was not stopped [`Evaluations`](Event::Evaluations) and
/// [`Quantisation`](Event::Quantisation).
///
/// `Display` writes each as a line of `cargo xtask train`'s log (without its `train: `
/// prefix).
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum Event<'a> {
    /// The data is read and split.
    Loaded {
        /// Positions in the training set.
        training: usize,
        /// Where they came from.
        training_from: &'a str,
        /// Positions in the validation set.
        validation: usize,
        /// Where they came from (the share held out, or the validation sources).
        validation_from: &'a str,
        /// Seconds spent reading.
        seconds: f64,
        /// Training samples an epoch: the positions, and their mirrors with
        /// [`TrainConfig::mirror`].
        samples: usize,
        /// The run's configuration.
        config: &'a TrainConfig,
        /// The threads the run uses.
        threads: usize,
    },
    /// The reference evaluation's loss on the validation set, with the network's target.
    ReferenceLoss {
        /// The reference's name.
        name: &'a str,
        /// Its validation loss.
        validation: f64,
    },
    /// The run continues from a checkpoint.
    Resumed {
        /// The checkpoint.
        checkpoint: &'a Path,
        /// The steps it had done.
        step: u64,
        /// The steps of the whole run.
        total_steps: u64,
        /// The validation loss of its weights.
        validation: f64,
    },
    /// The run starts from a network file's weights.
    Initialised {
        /// The network file.
        network: &'a Path,
        /// The validation loss of its weights.
        validation: f64,
    },
    /// The training begins (after the data is read): a front shows its progress from here.
    Begin {
        /// The steps done before (on resuming).
        step: u64,
        /// The steps of the whole run.
        total_steps: u64,
    },
    /// An optimiser step is done.
    Step {
        /// Steps done, over the whole run.
        step: u64,
        /// The steps of the whole run.
        total_steps: u64,
    },
    /// The stop flag was seen: the run stops with a checkpoint.
    Stopping,
    /// An epoch ended.
    Epoch {
        /// Its losses.
        loss: &'a EpochLoss,
        /// Training samples a second in this epoch (of this process, on resuming).
        samples_per_second: f64,
        /// The losses of every epoch so far, this one included.
        history: &'a LossHistory,
    },
    /// The size of the evaluations at the end, on up to 10,000 validation positions (capped at
    /// 2000 cp): a diagnostic, as an engine's pruning margins are set on its evaluation's scale.
    Evaluations {
        /// The positions measured.
        positions: usize,
        /// The network's mean absolute evaluation.
        network: f64,
        /// The reference evaluation's name and mean absolute evaluation, if there is one.
        reference: Option<(&'a str, f64)>,
    },
    /// How much the quantisation changes the network's evaluation, on the same positions.
    Quantisation {
        /// The positions measured.
        positions: usize,
        /// The mean absolute change in centipawns.
        mean: f64,
        /// The largest change.
        worst: f32,
    },
}

impl fmt::Display for Event<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Event::Loaded {
                training,
                training_from,
                validation,
                validation_from,
                seconds,
                samples,
                config,
                threads,
            } => {
                write!(
                    f,
                    "{training} training positions from {training_from}, {validation} validation positions from \
                     {validation_from}, read in {seconds:.1} s; {samples} training samples{}; ({} x 768 -> {}) x 2 -> {}{}{}, \
                     {threads} threads",
                    if config.mirror { " (with the mirrored positions)" } else { "" },
                    config.king_buckets.count(),
                    config.hidden,
                    config.output_buckets,
                    if config.king_buckets.mirrored() { ", mirrored" } else { "" },
                    if config.factorise { ", factorised" } else { "" },
                )
            }
            Event::ReferenceLoss { name, validation } => {
                write!(f, "the {name} evaluation's loss with the same target: validation {validation:.6}")
            }
            Event::Resumed { checkpoint, step, total_steps, validation } => write!(
                f,
                "resuming {} at step {step} of {total_steps}: validation {validation:.6}",
                checkpoint.display()
            ),
            Event::Initialised { network, validation } => {
                write!(f, "starting from {}: validation {validation:.6}", network.display())
            }
            Event::Begin { step, total_steps } => write!(f, "training from step {step} of {total_steps}"),
            Event::Step { step, total_steps } => write!(f, "step {step} of {total_steps}"),
            Event::Stopping => f.write_str("stopping at a checkpoint"),
            Event::Epoch { loss, samples_per_second, .. } => write!(
                f,
                "epoch {:4}: training {:.6}, validation {:.6}, lr {:.6}, {samples_per_second:.0} positions/s",
                loss.epoch,
                loss.training.unwrap_or(f64::NAN),
                loss.validation.unwrap_or(0.0),
                loss.lr.unwrap_or(f32::NAN),
            ),
            Event::Evaluations { positions, network, reference } => {
                write!(
                    f,
                    "mean absolute evaluation (capped at 2000 cp) on {positions} validation positions: network {network:.0} cp"
                )?;
                match reference {
                    Some((name, cp)) => write!(f, ", {name} {cp:.0} cp"),
                    None => Ok(()),
                }
            }
            Event::Quantisation { positions, mean, worst } => write!(
                f,
                "quantisation changes the evaluation by {mean:.2} cp on average (at most {worst:.0}) on {positions} \
                 validation positions"
            ),
        }
    }
}
