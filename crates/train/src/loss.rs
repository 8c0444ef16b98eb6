//! The loss of a set, the learning rate of a step, and the losses of a run epoch by epoch
//! (read and written as CSV).

use std::fmt;

use crate::data::Dataset;
use crate::model::{Model, Scratch, sigmoid, target};
use crate::spec;

/// Mean loss of the reference evaluation on `data` (a set that keeps it; 0 for one that does
/// not), with the network's target and scale.
pub(crate) fn reference_loss(data: &Dataset, lambda: f32) -> f64 {
    let sum: f64 = data
        .positions
        .iter()
        .zip(data.reference())
        .map(|(p, &cp)| {
            let e = sigmoid(cp / spec::SCALE) - target(p, lambda);
            f64::from(e * e)
        })
        .sum();
    sum / data.reference().len().max(1) as f64
}

/// Mean loss of `set` (float model), over `threads`.
pub(crate) fn loss(model: &Model, data: &Dataset, set: &[u32], lambda: f32, threads: usize) -> f64 {
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
pub(crate) fn learning_rate(lr: f32, final_share: f32, step: usize, total: usize) -> f32 {
    let progress = step as f32 / total.max(1) as f32;
    let cosine = 0.5 * (1.0 + (std::f32::consts::PI * progress).cos());
    lr * (final_share + (1.0 - final_share) * cosine)
}

/// The losses at the end of one epoch. A run knows them all; a history read from a record
/// may lack some (`None`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochLoss {
    /// The epoch, from 1.
    pub epoch: usize,
    /// The mean loss of the epoch's training batches, on the epoch's target.
    pub training: Option<f64>,
    /// The loss of the validation set after the epoch; `None` without validation positions.
    pub validation: Option<f64>,
    /// The learning rate at the epoch's end.
    pub lr: Option<f32>,
}

/// The losses of a run, epoch by epoch: what [`Trainer::run`](crate::Trainer::run) reports
/// after each epoch and returns at the end, kept in its checkpoints so that a resumed run has
/// its whole course. It reads and writes CSV ([`LossHistory::to_csv`]) and draws itself as an
/// SVG picture ([`LossHistory::to_svg`]).
///
/// ```
/// use cutoff_train::{EpochLoss, LossHistory};
///
/// let mut history = LossHistory::default();
/// history.push(EpochLoss { epoch: 1, training: Some(0.0061), validation: Some(0.0064), lr: Some(0.001) });
/// history.push(EpochLoss { epoch: 2, training: Some(0.0055), validation: None, lr: None });
/// let csv = history.to_csv();
/// assert_eq!(csv, "epoch,training,validation,lr\n1,0.0061,0.0064,0.001\n2,0.0055,,\n");
/// assert_eq!(LossHistory::from_csv(&csv).unwrap(), history);
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LossHistory {
    epochs: Vec<EpochLoss>,
}

/// Why a CSV text is not a loss history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CsvError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong there.
    pub why: String,
}

impl fmt::Display for CsvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.why)
    }
}

impl std::error::Error for CsvError {}

/// The CSV columns, in the order written.
const COLUMNS: [&str; 4] = ["epoch", "training", "validation", "lr"];

impl LossHistory {
    /// The epochs recorded, in order.
    pub fn epochs(&self) -> &[EpochLoss] {
        &self.epochs
    }

    /// Adds an epoch's losses, replacing those of the same epoch and any after it (a run
    /// resumed from before them).
    pub fn push(&mut self, loss: EpochLoss) {
        self.epochs.retain(|e| e.epoch < loss.epoch);
        self.epochs.push(loss);
    }

    /// The history as CSV: a header line `epoch,training,validation,lr`, then a line an
    /// epoch; a value that is not known is left empty. The numbers are written in full
    /// (Rust's shortest form that reads back to the same value), so the text depends only on
    /// the values.
    pub fn to_csv(&self) -> String {
        let cell = |x: Option<String>| x.unwrap_or_default();
        let mut out = COLUMNS.join(",");
        out.push('\n');
        for e in &self.epochs {
            let cells = [
                e.epoch.to_string(),
                cell(e.training.map(|x| x.to_string())),
                cell(e.validation.map(|x| x.to_string())),
                cell(e.lr.map(|x| x.to_string())),
            ];
            out.push_str(&cells.join(","));
            out.push('\n');
        }
        out
    }

    /// Reads a history from CSV: a header line naming the columns (`epoch` and at least one
    /// of `training`, `validation` and `lr`, in any order; other columns are ignored), then a
    /// line an epoch, in increasing order; an empty cell is a value not known.
    ///
    /// ```
    /// use cutoff_train::LossHistory;
    ///
    /// let history = LossHistory::from_csv("epoch,validation\n1,0.005401\n2,0.005204\n").unwrap();
    /// assert_eq!(history.epochs()[1].validation, Some(0.005204));
    /// assert_eq!(history.epochs()[1].training, None);
    /// assert!(LossHistory::from_csv("epoch,validation\n2,0.0052\n1,0.0054\n").is_err());
    /// ```
    pub fn from_csv(text: &str) -> Result<LossHistory, CsvError> {
        let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
        let Some((_, header)) = lines.next() else {
            return Err(CsvError { line: 1, why: "no header line".into() });
        };
        let names: Vec<&str> = header.split(',').map(str::trim).collect();
        let column = |name: &str| names.iter().position(|&n| n == name);
        let epoch_at = column("epoch").ok_or(CsvError { line: 1, why: "no epoch column".into() })?;
        let [training_at, validation_at, lr_at] = [column("training"), column("validation"), column("lr")];
        if training_at.is_none() && validation_at.is_none() && lr_at.is_none() {
            return Err(CsvError { line: 1, why: "no training, validation or lr column".into() });
        }
        let mut history = LossHistory::default();
        for (n, line) in lines {
            let bad = |why: String| CsvError { line: n + 1, why };
            let cells: Vec<&str> = line.split(',').map(str::trim).collect();
            if cells.len() != names.len() {
                return Err(bad(format!("{} cells, the header has {}", cells.len(), names.len())));
            }
            // Each type parses its own text, so that a value reads back exactly as written.
            fn value<T: std::str::FromStr>(cells: &[&str], at: Option<usize>) -> Result<Option<T>, String> {
                match at.map(|i| cells[i]).filter(|c| !c.is_empty()) {
                    None => Ok(None),
                    Some(c) => c.parse::<T>().map(Some).map_err(|_| format!("{c:?} is not a number")),
                }
            }
            let epoch: usize =
                cells[epoch_at].parse().map_err(|_| bad(format!("{:?} is not an epoch", cells[epoch_at])))?;
            if history.epochs.last().is_some_and(|last| last.epoch >= epoch) {
                return Err(bad(format!(
                    "epoch {epoch} after epoch {}",
                    history.epochs[history.epochs.len() - 1].epoch
                )));
            }
            let training = value(&cells, training_at).map_err(bad)?;
            let validation = value(&cells, validation_at).map_err(bad)?;
            let lr = value(&cells, lr_at).map_err(bad)?;
            history.epochs.push(EpochLoss { epoch, training, validation, lr });
        }
        Ok(history)
    }
}
