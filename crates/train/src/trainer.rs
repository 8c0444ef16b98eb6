//! The trainer: its data, its checkpoints, and how it is stopped; [`Trainer::run`] runs it.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use cutoff_board::Board;
use cutoff_nnue::Network;

use crate::config::TrainConfig;
use crate::error::TrainError;
use crate::event::Event;
use crate::load::Source;
use crate::loss::LossHistory;
use crate::run::Run;

/// An evaluation to compare the network with, on the validation set: its name (for the
/// messages) and the function, centipawns from the side to move's view.
pub type Reference = (&'static str, fn(&Board) -> i32);

/// A training run: the configuration, the data, where checkpoints go and what stops it.
/// Build it, then [`run`](Trainer::run) it.
///
/// The network depends on the configuration and the data alone: not on the thread count, and
/// not on whether the run was stopped and resumed from a checkpoint.
///
/// ```no_run
/// use cutoff_train::{Outcome, Source, TrainConfig, Trainer, write_network};
///
/// let mut config = TrainConfig::default();
/// config.hidden = 256;
/// config.epochs = 16;
/// let trainer = Trainer::new(config)
///     .data(Source::file("selfplay/games-0.bin"))
///     .data(Source::file("selfplay/games-1.bin"))
///     .validation_data(Source::file("validation/games-0.bin"))
///     .checkpoint("net.nnue.ckpt");
/// match trainer.run(|event| eprintln!("{event}"))? {
///     Outcome::Finished { network, .. } => write_network("net.nnue".as_ref(), &network)?,
///     Outcome::Stopped { step, .. } => eprintln!("stopped at step {step}: resume from net.nnue.ckpt"),
/// }
/// # Ok::<(), cutoff_train::TrainError>(())
/// ```
#[derive(Debug)]
pub struct Trainer {
    pub(crate) config: TrainConfig,
    pub(crate) data: Vec<Source>,
    pub(crate) validation_data: Vec<Source>,
    pub(crate) checkpoint: Option<PathBuf>,
    pub(crate) checkpoint_interval: Duration,
    pub(crate) resume: Option<PathBuf>,
    pub(crate) stop_after_steps: Option<u64>,
    pub(crate) stop: Option<Arc<AtomicBool>>,
    pub(crate) reference: Option<Reference>,
}

/// How a run ended.
#[derive(Debug)]
pub enum Outcome {
    /// The schedule is done.
    Finished {
        /// The trained network, quantised (`to_bytes` gives the file).
        network: Network,
        /// The losses of every epoch.
        history: LossHistory,
    },
    /// The run stopped before the end of its schedule, at a checkpoint (if it has a
    /// checkpoint file) that [`Trainer::resume`] continues.
    Stopped {
        /// The optimiser steps done.
        step: u64,
        /// The steps of the whole run.
        total_steps: u64,
        /// Whether the stop flag stopped it (else [`Trainer::stop_after_steps`]).
        flagged: bool,
    },
}

impl Trainer {
    /// A trainer with this configuration and no data yet.
    pub fn new(config: TrainConfig) -> Trainer {
        Trainer {
            config,
            data: Vec::new(),
            validation_data: Vec::new(),
            checkpoint: None,
            checkpoint_interval: Duration::from_secs(600),
            resume: None,
            stop_after_steps: None,
            stop: None,
            reference: None,
        }
    }

    /// Adds training data, read in the order given. Unless validation data is given, a share
    /// of its games is held out for validation ([`TrainConfig::validation`]).
    pub fn data(mut self, source: Source) -> Trainer {
        self.data.push(source);
        self
    }

    /// Adds validation data: then all of the training data is trained on.
    pub fn validation_data(mut self, source: Source) -> Trainer {
        self.validation_data.push(source);
        self
    }

    /// Writes checkpoints to `path`: at each epoch's end, every
    /// [`checkpoint_every`](Trainer::checkpoint_every) within an epoch, and when the run
    /// stops early. Each is written to `path` with `.tmp` added and renamed over the last, so
    /// an interruption leaves the last whole checkpoint. Without it the run writes none.
    pub fn checkpoint(mut self, path: impl Into<PathBuf>) -> Trainer {
        self.checkpoint = Some(path.into());
        self
    }

    /// The time between checkpoints within an epoch. Default 10 minutes.
    pub fn checkpoint_every(mut self, interval: Duration) -> Trainer {
        self.checkpoint_interval = interval;
        self
    }

    /// Continues the run of this checkpoint: with the same configuration and data (the
    /// sources' names, sizes and position counts; the files may have moved), it gives the
    /// network of a run that was never stopped, byte for byte. A checkpoint of another run is
    /// refused ([`CheckpointError::OtherRun`](crate::CheckpointError::OtherRun)), naming what
    /// differs; the configuration is compared before the data is read.
    pub fn resume(mut self, checkpoint: impl Into<PathBuf>) -> Trainer {
        self.resume = Some(checkpoint.into());
        self
    }

    /// Stops after this many optimiser steps of this run, with a checkpoint (to split a run on
    /// purpose).
    pub fn stop_after_steps(mut self, steps: u64) -> Trainer {
        self.stop_after_steps = Some(steps);
        self
    }

    /// Stops the run when `flag` is set: after the step under way, with a checkpoint, unless
    /// that step is the last one. The flag is read from the first step on, so a front can
    /// wait for [`Event::Begin`] to connect it to a signal (reading the data is then
    /// interrupted the usual way).
    pub fn stop_flag(mut self, flag: Arc<AtomicBool>) -> Trainer {
        self.stop = Some(flag);
        self
    }

    /// Compares the network with this evaluation on the validation set: its loss with the
    /// same target before the training ([`Event::ReferenceLoss`]), and the size of its
    /// evaluations at the end ([`Event::Evaluations`]). Cutoff's front passes its
    /// hand-crafted evaluation.
    pub fn reference(mut self, reference: Reference) -> Trainer {
        self.reference = Some(reference);
        self
    }

    /// Runs the training, calling `report` with each [`Event`]: reads the data, trains for
    /// the configured epochs (writing checkpoints where asked), and quantises the network.
    pub fn run(self, mut report: impl FnMut(&Event<'_>)) -> Result<Outcome, TrainError> {
        self.config.check()?;
        let mut run = Run::load(&self, &mut report)?;
        let mut state = run.start(&self, &mut report)?;
        match run.train(&self, &mut state, &mut report)? {
            Some(stopped) => Ok(stopped),
            None => run.finish(&self, state, &mut report),
        }
    }
}

/// Writes `network` to `path` in Cutoff's network format, through a temporary file (`path`
/// with `.tmp` added) renamed over it, so that an interruption leaves no cut-short network.
pub fn write_network(path: &Path, network: &Network) -> Result<(), TrainError> {
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".tmp");
    let temporary = PathBuf::from(temporary);
    let cannot = |error| TrainError::Write { path: path.to_owned(), error };
    fs::write(&temporary, network.to_bytes()).map_err(cannot)?;
    fs::rename(&temporary, path).map_err(cannot)
}

#[cfg(test)]
mod tests;
