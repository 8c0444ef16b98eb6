#![doc = include_str!("../README.md")]
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod epd;
pub mod format;
mod rng;
pub mod selfplay;

pub use format::{
    Encoding, FileStats, FormatError, GameReader, GameRecord, GameResult, GameWriter, Ply, RecordedPosition,
    TrainingPosition, file_stats, is_training_position,
};
pub use selfplay::{Adjudication, DatagenError, GamePlayer, Progress, SelfPlayConfig};
