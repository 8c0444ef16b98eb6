//! A run's steps, in order: [`Run::load`] reads the data (and checks a checkpoint to resume
//! against the configuration), [`Run::start`] makes the model, [`Run::train`] runs the
//! epochs, and [`Run::finish`] quantises the network.

use std::fs;
use std::io::Read;
use std::path::Path;
use std::sync::atomic::Ordering;
use std::time::Instant;

use cutoff_nnue::Network;

use crate::Rng;
use crate::checkpoint::{Checkpoint, CheckpointError, Identity};
use crate::data::{Dataset, MIRRORED};
use crate::error::TrainError;
use crate::event::Event;
use crate::gradient::{Adam, ChunkGradient, batch_gradient};
use crate::load::{SourceInfo, describe_sources, held_out, load};
use crate::loss::{EpochLoss, LossHistory, learning_rate, loss, reference_loss};
use crate::model::{Model, Scratch};
use crate::trainer::{Outcome, Trainer};

/// The data of a run and what is fixed once it is read.
pub(crate) struct Run {
    /// The positions trained on.
    data: Dataset,
    /// The validation positions (with the reference evaluation, if there is one).
    validation_set: Dataset,
    /// The training order: indices of `data`, marked [`MIRRORED`] for mirrored positions.
    training: Vec<u32>,
    /// The indices of `validation_set`.
    validation: Vec<u32>,
    /// The configuration and the data, as checkpoints record them.
    identity: Identity,
    /// The checkpoint to resume, read before the data and taken by [`Run::start`].
    resumed: Option<Checkpoint>,
    threads: usize,
    validation_lambda: f32,
    /// Optimiser steps an epoch.
    batches: usize,
}

/// The state of the training: what a checkpoint holds.
pub(crate) struct State {
    model: Model,
    adam: Adam,
    rng: Rng,
    /// Optimiser steps done, over the whole schedule.
    step: usize,
    /// The summed training error of the resumed epoch's batches done before the checkpoint.
    resumed_error: f64,
    history: LossHistory,
}

impl Run {
    /// Reads the data into the training and validation sets. A checkpoint to resume is read
    /// and its configuration compared first, before the reading that takes the longest, and
    /// its data after.
    pub(crate) fn load(trainer: &Trainer, report: &mut impl FnMut(&Event<'_>)) -> Result<Run, TrainError> {
        let config = &trainer.config;
        let mut identity = config.identity();
        let resumed = match &trainer.resume {
            Some(path) => {
                let saved = Checkpoint::read(path)?;
                // Every argument is compared now, those only the checkpoint names included;
                // the data's entries are known only once it is read.
                let differences = identity.differences(&saved.identity.arguments(), true);
                if !differences.is_empty() {
                    return Err(CheckpointError::OtherRun(path.clone(), differences).into());
                }
                Some(saved)
            }
            None => None,
        };
        let started = Instant::now();
        let layout = config.king_buckets;
        let mut data = Dataset::new(layout);
        let mut validation_set = match trainer.reference {
            Some((_, evaluate)) => Dataset::with_reference(layout, evaluate),
            None => Dataset::new(layout),
        };
        let (infos, validation_infos) = if trainer.validation_data.is_empty() {
            let held = |group| held_out(group, config.seed, config.validation);
            (load(&trainer.data, config.limit, held, &mut data, &mut validation_set)?, Vec::new())
        } else {
            let infos = load(&trainer.data, config.limit, |_| false, &mut data, &mut validation_set)?;
            let validation_infos = load(&trainer.validation_data, None, |_| true, &mut data, &mut validation_set)?;
            (infos, validation_infos)
        };
        // Positions may all be held out for validation (`validation` 1, or a few games).
        if infos.iter().map(|f| f.positions).sum::<usize>() == 0 || data.len() == 0 {
            return Err(TrainError::NoTrainingPositions);
        }
        if validation_set.len() == 0 && !trainer.validation_data.is_empty() {
            return Err(TrainError::NoValidationPositions);
        }
        let mut training: Vec<u32> = (0..data.len() as u32).collect();
        if config.mirror {
            let mirrored: Vec<u32> =
                training.iter().filter(|&&i| data.positions[i as usize].mirrorable()).map(|&i| i | MIRRORED).collect();
            training.extend(mirrored);
        }
        let validation: Vec<u32> = (0..validation_set.len() as u32).collect();
        data_identity(&mut identity, &infos, &validation_infos, (training.len(), validation.len()));
        if let (Some(path), Some(saved)) = (&trainer.resume, &resumed) {
            let differences = identity.differences(&saved.identity, true);
            if !differences.is_empty() {
                return Err(CheckpointError::OtherRun(path.clone(), differences).into());
            }
        }
        let threads = config.threads();
        let validation_from = if trainer.validation_data.is_empty() {
            format!("{:.1} % of the games", config.validation * 100.0)
        } else {
            describe_sources(&trainer.validation_data)
        };
        report(&Event::Loaded {
            training: data.len(),
            training_from: &describe_sources(&trainer.data),
            validation: validation_set.len(),
            validation_from: &validation_from,
            seconds: started.elapsed().as_secs_f64(),
            samples: training.len(),
            config,
            threads,
        });
        let batches = training.len().div_ceil(config.batch);
        let validation_lambda = config.validation_lambda();
        Ok(Run { data, validation_set, training, validation, identity, resumed, threads, validation_lambda, batches })
    }

    /// Optimiser steps of the whole schedule.
    fn total_steps(&self, trainer: &Trainer) -> usize {
        self.batches * trainer.config.epochs
    }

    /// The validation loss of `model`.
    fn validation_loss(&self, model: &Model) -> f64 {
        loss(model, &self.validation_set, &self.validation, self.validation_lambda, self.threads)
    }

    /// The model to train: random weights, then those of the checkpoint to resume or of the
    /// network to start from. The random weights are drawn in every case, so that the
    /// shuffles, drawn after them, are the same.
    pub(crate) fn start(
        &mut self,
        trainer: &Trainer,
        report: &mut impl FnMut(&Event<'_>),
    ) -> Result<State, TrainError> {
        let config = &trainer.config;
        let mut rng = Rng::new(config.seed);
        if let Some((name, _)) = trainer.reference {
            let validation = reference_loss(&self.validation_set, self.validation_lambda);
            report(&Event::ReferenceLoss { name, validation });
        }
        let mut model =
            Model::new(config.king_buckets, config.hidden, config.output_buckets, config.factorise, &mut rng);
        let mut adam = Adam::new(model.params.len());
        let total_steps = self.total_steps(trainer);
        let (mut step, mut resumed_error, mut history) = (0, 0.0, LossHistory::default());
        if let (Some(path), Some(saved)) = (&trainer.resume, self.resumed.take()) {
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
            history = saved.history;
            let validation = self.validation_loss(&model);
            report(&Event::Resumed {
                checkpoint: path,
                step: step as u64,
                total_steps: total_steps as u64,
                validation,
            });
        } else if let Some(path) = &config.init {
            let net = read_network(path)?;
            model = Model::from_network(&net, config.king_buckets, config.hidden, config.output_buckets)
                .map_err(|why| TrainError::Init { path: path.clone(), why })?;
            report(&Event::Initialised { network: path, validation: self.validation_loss(&model) });
        }
        Ok(State { model, adam, rng, step, resumed_error, history })
    }

    /// Writes a checkpoint of `state`, if the trainer has a checkpoint file.
    fn save(&self, trainer: &Trainer, state: &State, train_error: f64) -> Result<(), TrainError> {
        let Some(path) = &trainer.checkpoint else {
            return Ok(());
        };
        let checkpoint = Checkpoint {
            identity: self.identity.clone(),
            step: state.step as u64,
            train_error,
            adam_t: state.adam.t,
            params: state.model.params.clone(),
            m: state.adam.m.clone(),
            v: state.adam.v.clone(),
            history: state.history.clone(),
        };
        checkpoint.write(path)?;
        Ok(())
    }

    /// Runs the epochs from the state's step to the end of the schedule, or until the run is
    /// stopped: then the outcome of the stop.
    pub(crate) fn train(
        &mut self,
        trainer: &Trainer,
        state: &mut State,
        report: &mut impl FnMut(&Event<'_>),
    ) -> Result<Option<Outcome>, TrainError> {
        let config = &trainer.config;
        let (batches, total_steps) = (self.batches, self.total_steps(trainer));
        let mut grads = ChunkGradient::for_model(&state.model);
        // Each epoch's shuffle continues the last one's order, so a resumed run replays the
        // shuffles of the epochs before its own.
        let first_epoch = state.step / batches.max(1) + 1;
        for _ in 1..first_epoch.min(config.epochs + 1) {
            state.rng.shuffle(&mut self.training);
        }
        report(&Event::Begin { step: state.step as u64, total_steps: total_steps as u64 });
        let mut last_checkpoint = Instant::now();
        let mut steps_here = 0u64;
        let mut flagged = false;
        for epoch in first_epoch..=config.epochs {
            state.rng.shuffle(&mut self.training);
            let done = state.step - (epoch - 1) * batches;
            let mut train_error = if done > 0 { state.resumed_error } else { 0.0 };
            let epoch_started = Instant::now();
            let mut seen = 0usize;
            let mut stopping = false;
            let lambda = if epoch >= config.lambda_from_epoch { config.lambda } else { 0.0 };
            for batch in self.training.chunks(config.batch).skip(done) {
                let lr = learning_rate(config.lr, config.final_lr, state.step, total_steps);
                let (grad, error) = batch_gradient(&state.model, &self.data, batch, lambda, self.threads, &mut grads);
                state.adam.step(&mut state.model.params, &grad, lr, config.weight_decay, self.threads);
                state.model.after_step();
                train_error += error;
                state.step += 1;
                steps_here += 1;
                seen += batch.len();
                report(&Event::Step { step: state.step as u64, total_steps: total_steps as u64 });
                let flag = trainer.stop.as_ref().is_some_and(|f| f.load(Ordering::SeqCst));
                if !flagged && flag && state.step < total_steps {
                    flagged = true;
                    report(&Event::Stopping);
                }
                stopping = flagged || trainer.stop_after_steps.is_some_and(|n| steps_here >= n);
                let epoch_end = state.step == epoch * batches;
                if !epoch_end && (stopping || last_checkpoint.elapsed() >= trainer.checkpoint_interval) {
                    self.save(trainer, state, train_error)?;
                    last_checkpoint = Instant::now();
                }
                if stopping {
                    break;
                }
            }
            if state.step == epoch * batches {
                let seconds = epoch_started.elapsed().as_secs_f64();
                let loss = EpochLoss {
                    epoch,
                    training: Some(train_error / self.training.len() as f64),
                    validation: (!self.validation.is_empty()).then(|| self.validation_loss(&state.model)),
                    lr: Some(learning_rate(config.lr, config.final_lr, state.step, total_steps)),
                };
                state.history.push(loss);
                let samples_per_second = seen as f64 / seconds.max(1e-9);
                report(&Event::Epoch { loss: &loss, samples_per_second, history: &state.history });
                self.save(trainer, state, 0.0)?;
                last_checkpoint = Instant::now();
            }
            if stopping && state.step < total_steps {
                let (step, total_steps) = (state.step as u64, total_steps as u64);
                return Ok(Some(Outcome::Stopped { step, total_steps, flagged }));
            }
        }
        Ok(None)
    }

    /// Quantises the trained model, reporting how far the quantisation moves its evaluations
    /// on up to 10,000 validation positions.
    pub(crate) fn finish(
        &self,
        trainer: &Trainer,
        state: State,
        report: &mut impl FnMut(&Event<'_>),
    ) -> Result<Outcome, TrainError> {
        let model = &state.model;
        let quantised = model.quantise();
        let mut scratch = Scratch::new(model.hidden);
        let (mut diff, mut worst) = (0.0f64, 0.0f32);
        let (mut size, mut reference_size) = (0.0f64, 0.0f64);
        let mut buffer = [[0u16; 2]; 32];
        let reference = self.validation_set.reference();
        for i in 0..self.validation_set.len().min(10_000) {
            let f = self.validation_set.features(i, &mut buffer);
            let eval = model.eval_cp(f, &mut scratch);
            let d = (eval - quantised.eval_cp(f) as f32).abs();
            diff += f64::from(d);
            worst = worst.max(d);
            size += f64::from(eval.abs().min(2000.0));
            if let Some(cp) = reference.get(i) {
                reference_size += f64::from(cp.abs().min(2000.0));
            }
        }
        let positions = self.validation.len().clamp(1, 10_000);
        let n = positions as f64;
        let reference = trainer.reference.map(|(name, _)| (name, reference_size / n));
        report(&Event::Evaluations { positions, network: size / n, reference });
        report(&Event::Quantisation { positions, mean: diff / n, worst });
        let network = quantised.into_network()?;
        Ok(Outcome::Finished { network, history: state.history })
    }
}

/// Adds the data sources and the sizes of the split to a run's identity.
fn data_identity(id: &mut Identity, infos: &[SourceInfo], validation_infos: &[SourceInfo], sizes: (usize, usize)) {
    for (kind, infos) in [("data", infos), ("validation-data", validation_infos)] {
        for (n, f) in infos.iter().enumerate() {
            id.push(format!("{kind} {n}"), f.describe());
        }
    }
    id.push("training positions", sizes.0);
    id.push("validation positions", sizes.1);
}

/// Reads a network file, looking before opening (opening a FIFO would block until a writer
/// comes) and reading no more than the largest network takes.
fn read_network(path: &Path) -> Result<Network, TrainError> {
    let bad = |why: String| TrainError::Init { path: path.to_owned(), why };
    let cannot = |error| TrainError::Read { path: path.to_owned(), error };
    if !fs::metadata(path).map_err(cannot)?.is_file() {
        return Err(bad("not a regular file".into()));
    }
    let mut bytes = Vec::new();
    fs::File::open(path)
        .map_err(cannot)?
        .take(Network::MAX_FILE_LEN as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    Network::from_bytes(&bytes).map_err(|e| bad(format!("not a valid network: {e}")))
}
