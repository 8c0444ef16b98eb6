//! What a run trains and how: the network's shape, the schedule, the target and the split.

use std::path::PathBuf;

use cutoff_nnue::{HIDDEN_STEP, KingBuckets, MAX_HIDDEN, MAX_OUTPUT_BUCKETS, MIN_HIDDEN};

use crate::checkpoint::Identity;
use crate::error::TrainError;

/// The most epochs a run may have: far beyond any use, and the schedule's step count stays
/// far from overflowing.
const MAX_EPOCHS: usize = 100_000;

/// The most worker threads: each step starts its threads anew, so a mistyped count must not
/// start millions.
const MAX_THREADS: usize = 1024;

/// What to train and how. [`TrainConfig::default`] holds the defaults of `cargo xtask train`;
/// change the fields a run needs.
///
/// A checkpoint records every field but `threads`, and
/// [`Trainer::resume`](crate::Trainer::resume) refuses a checkpoint of a run that had other
/// values. All of them shape the network but `validation_lambda`, which changes only the loss
/// reported, and `validation` when validation data is given.
///
/// ```
/// use cutoff_train::TrainConfig;
///
/// let mut config = TrainConfig::default();
/// config.hidden = 256;
/// config.output_buckets = 8;
/// config.lambda = 0.0; // learn the search scores alone
/// assert_eq!((config.epochs, config.batch, config.seed), (30, 16384, 1));
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct TrainConfig {
    /// Hidden neurons per perspective: a multiple of 16 from 16 to 1024. Default 128.
    pub hidden: usize,
    /// Output buckets by piece count, 1 to 8 (see `cutoff_nnue::output_bucket`): each bucket
    /// has its own output weights and bias. Default 1.
    pub output_buckets: usize,
    /// The input layout (see [`parse_king_buckets`](crate::parse_king_buckets) for the named
    /// ones). Default [`KingBuckets::NONE`]: 768 inputs.
    pub king_buckets: KingBuckets,
    /// With king buckets, also train one shared set of the 768 piece-square weights (a
    /// factoriser) that every bucket's weights are added to: a bucket's own weights then learn
    /// only how it differs from the others. The network holds the sums, so the engine sees the
    /// usual layout. Needs a layout of 2 buckets or more, and no [`init`](TrainConfig::init).
    pub factorise: bool,
    /// Start from the weights of this network file instead of random ones (fine-tuning): its
    /// layout, hidden size and output buckets must be the ones asked for. The quantised
    /// weights are read back as floats, so the model starts as the file evaluates. The random
    /// weights are still drawn, so that the shuffles are those of a run without it.
    pub init: Option<PathBuf>,
    /// Passes over the training positions. Default 30.
    pub epochs: usize,
    /// Positions per Adam step, at least 1. Default 16384.
    pub batch: usize,
    /// Adam's learning rate at the start. Default 0.001.
    pub lr: f32,
    /// The learning rate at the end, as a share of [`lr`](TrainConfig::lr) (a cosine
    /// schedule). Default 0.05.
    pub final_lr: f32,
    /// Weight of the game result in the target, 0 to 1; the rest is the search score.
    /// Default 0.5.
    pub lambda: f32,
    /// The first epoch (from 1) whose target takes [`lambda`](TrainConfig::lambda) of the
    /// result; the epochs before it learn the search score alone. Default 1.
    pub lambda_from_epoch: usize,
    /// Decoupled weight decay (AdamW), 0 to 1: each step shrinks every weight by `lr * decay`
    /// of itself besides Adam's update. Default 0: plain Adam.
    pub weight_decay: f32,
    /// The weight of the result in the validation target, 0 to 1. Default `None`: `lambda`.
    pub validation_lambda: Option<f32>,
    /// Share of the games held out for validation, 0 to 1: a whole game goes to one side, and
    /// each EPD line or in-memory position counts as a game. Not used when the trainer is
    /// given validation data of its own. Default 0.05.
    pub validation: f64,
    /// Seed of the split, the initial weights and the shuffles. Default 1.
    pub seed: u64,
    /// Also train on each position mirrored left to right where no castling right makes the
    /// mirror a different position (twice the data for twice the time). Only with
    /// [`KingBuckets::NONE`]: the other layouts mirror the board themselves. Default false.
    pub mirror: bool,
    /// Use at most this many positions, the first ones of the data. Default `None`.
    pub limit: Option<usize>,
    /// Worker threads; the network does not depend on them. Default `None`: all hardware
    /// threads.
    pub threads: Option<usize>,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            hidden: 128,
            output_buckets: 1,
            king_buckets: KingBuckets::NONE,
            factorise: false,
            init: None,
            epochs: 30,
            batch: 16384,
            lr: 0.001,
            final_lr: 0.05,
            lambda: 0.5,
            lambda_from_epoch: 1,
            weight_decay: 0.0,
            validation_lambda: None,
            validation: 0.05,
            seed: 1,
            mirror: false,
            limit: None,
            threads: None,
        }
    }
}

impl TrainConfig {
    /// Checks the values a run cannot take, naming the field.
    ///
    /// ```
    /// use cutoff_train::TrainConfig;
    ///
    /// let mut config = TrainConfig::default();
    /// assert!(config.check().is_ok());
    /// config.hidden = 24;
    /// assert!(config.check().unwrap_err().to_string().contains("hidden"));
    /// ```
    pub fn check(&self) -> Result<(), TrainError> {
        let bad = |why: String| Err(TrainError::Config(why));
        if !(MIN_HIDDEN..=MAX_HIDDEN).contains(&self.hidden) || !self.hidden.is_multiple_of(HIDDEN_STEP) {
            return bad(format!("hidden: {} is not a multiple of 16 from 16 to 1024", self.hidden));
        }
        if !(1..=MAX_OUTPUT_BUCKETS).contains(&self.output_buckets) {
            return bad(format!("output buckets: {} is not from 1 to {MAX_OUTPUT_BUCKETS}", self.output_buckets));
        }
        if self.batch == 0 {
            return bad("batch: a batch needs a position".into());
        }
        if self.lambda_from_epoch == 0 {
            return bad("lambda from epoch: epochs count from 1".into());
        }
        if !(1..=MAX_EPOCHS).contains(&self.epochs) {
            return bad(format!("epochs: {} is not from 1 to {MAX_EPOCHS}", self.epochs));
        }
        if !(self.lr.is_finite() && self.lr > 0.0) {
            return bad(format!("lr: {} is not a positive number", self.lr));
        }
        if !(self.final_lr.is_finite() && self.final_lr >= 0.0) {
            return bad(format!("final lr: {} is not a share of lr (0 or more)", self.final_lr));
        }
        if self.threads.is_some_and(|t| !(1..=MAX_THREADS).contains(&t)) {
            return bad(format!("threads: {} is not from 1 to {MAX_THREADS}", self.threads.unwrap_or(0)));
        }
        let shares = [
            ("lambda", Some(f64::from(self.lambda))),
            ("weight decay", Some(f64::from(self.weight_decay))),
            ("validation lambda", self.validation_lambda.map(f64::from)),
            ("validation", Some(self.validation)),
        ];
        for (name, value) in shares {
            if let Some(x) = value.filter(|x| !(0.0..=1.0).contains(x)) {
                return bad(format!("{name}: {x} is not between 0 and 1"));
            }
        }
        if self.factorise && self.king_buckets.count() < 2 {
            return bad("factorise needs a layout of 2 king buckets or more (4, 8, 16 or a map)".into());
        }
        if self.factorise && self.init.is_some() {
            return bad("factorise and init do not go together: a network file holds no factoriser".into());
        }
        if self.mirror && self.king_buckets != KingBuckets::NONE {
            return bad("mirror works with the layout none only: the other layouts mirror the board themselves".into());
        }
        Ok(())
    }

    /// The weight of the result in the validation target.
    pub(crate) fn validation_lambda(&self) -> f32 {
        self.validation_lambda.unwrap_or(self.lambda)
    }

    /// The threads a run uses.
    pub(crate) fn threads(&self) -> usize {
        self.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()).min(MAX_THREADS))
    }

    /// The values that shape the training, as a checkpoint records them. The keys are the
    /// names of `cargo xtask train`'s flags, which every checkpoint holds them under.
    pub(crate) fn identity(&self) -> Identity {
        let mut id = Identity::default();
        id.push("hidden", self.hidden);
        id.push("output-buckets", self.output_buckets);
        id.push("king-buckets", format!("{:?}", self.king_buckets));
        id.push("factorise", self.factorise);
        id.push("init", self.init.as_ref().map_or_else(|| "none".to_owned(), |p| p.display().to_string()));
        id.push("epochs", self.epochs);
        id.push("batch", self.batch);
        id.push("lr", self.lr);
        id.push("final-lr", self.final_lr);
        id.push("lambda", self.lambda);
        // Named only when set: a checkpoint without them had the defaults, and resumes.
        if self.lambda_from_epoch != 1 {
            id.push("lambda-from-epoch", self.lambda_from_epoch);
        }
        if self.weight_decay != 0.0 {
            id.push("weight-decay", self.weight_decay);
        }
        id.push("validation-lambda", self.validation_lambda());
        id.push("validation", self.validation);
        id.push("seed", self.seed);
        id.push("mirror", self.mirror);
        id.push("limit", self.limit.map_or_else(|| "none".to_owned(), |l| l.to_string()));
        id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_that_would_train_nothing_or_overflow_are_refused_by_name() {
        let refused = |change: fn(&mut TrainConfig)| {
            let mut config = TrainConfig::default();
            change(&mut config);
            config.check().unwrap_err().to_string()
        };
        assert!(refused(|c| c.epochs = 0).contains("epochs"));
        assert!(refused(|c| c.epochs = usize::MAX).contains("epochs"));
        assert!(refused(|c| c.lr = f32::NAN).contains("lr"));
        assert!(refused(|c| c.lr = -0.001).contains("lr"));
        assert!(refused(|c| c.final_lr = f32::INFINITY).contains("final lr"));
        assert!(refused(|c| c.threads = Some(0)).contains("threads"));
        assert!(refused(|c| c.threads = Some(1_000_000)).contains("threads"));
        let mut fine = TrainConfig::default();
        (fine.epochs, fine.final_lr, fine.threads) = (MAX_EPOCHS, 0.0, Some(MAX_THREADS));
        assert!(fine.check().is_ok());
    }
}
