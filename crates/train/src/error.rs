//! Why a run cannot go on.

use std::fmt;
use std::io;
use std::path::PathBuf;

use crate::checkpoint::CheckpointError;

/// Why a run (or a file it reads or writes) failed. Bad input, from the configuration to a
/// damaged data file or checkpoint, is one of these, never a panic.
#[derive(Debug)]
#[non_exhaustive]
pub enum TrainError {
    /// The configuration is not one a run can take: what is wrong, naming the field.
    Config(String),
    /// A file cannot be read.
    Read {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: io::Error,
    },
    /// A file cannot be written.
    Write {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: io::Error,
    },
    /// A data file or in-memory source holds something that is not a training position.
    Data {
        /// Where: the file (with the line number for text) or the source's name.
        at: String,
        /// What is wrong there.
        why: String,
    },
    /// The data holds no training positions.
    NoTrainingPositions,
    /// The validation data holds no positions.
    NoValidationPositions,
    /// The network to start from ([`TrainConfig::init`](crate::TrainConfig::init)) cannot be
    /// read, or is not of the shape asked for.
    Init {
        /// The network file.
        path: PathBuf,
        /// What is wrong with it.
        why: String,
    },
    /// A checkpoint cannot be read, written or resumed.
    Checkpoint(CheckpointError),
    /// The trained network fails `cutoff-nnue`'s checks (its overflow proofs): the clipping
    /// of the weights is meant to make this impossible.
    Network(cutoff_nnue::NetworkError),
}

impl fmt::Display for TrainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrainError::Config(why) => f.write_str(why),
            TrainError::Read { path, error } => write!(f, "cannot read {}: {error}", path.display()),
            TrainError::Write { path, error } => write!(f, "cannot write {}: {error}", path.display()),
            TrainError::Data { at, why } => write!(f, "{at}: {why}"),
            TrainError::NoTrainingPositions => f.write_str("no training positions"),
            TrainError::NoValidationPositions => f.write_str("the validation data holds no positions"),
            TrainError::Init { path, why } => write!(f, "the network to start from, {}: {why}", path.display()),
            TrainError::Checkpoint(e) => e.fmt(f),
            TrainError::Network(e) => write!(f, "the trained network is not valid: {e}"),
        }
    }
}

impl std::error::Error for TrainError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TrainError::Read { error, .. } | TrainError::Write { error, .. } => Some(error),
            TrainError::Checkpoint(e) => Some(e),
            TrainError::Network(e) => Some(e),
            _ => None,
        }
    }
}

impl From<CheckpointError> for TrainError {
    fn from(e: CheckpointError) -> TrainError {
        TrainError::Checkpoint(e)
    }
}
