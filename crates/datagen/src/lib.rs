#![doc = include_str!("../README.md")]
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod epd;
/// The game record format, from `cutoff-games` (the crate a trainer reads the games with).
pub use cutoff_games as format;
mod rng;
pub mod selfplay;

pub use format::{
    Encoding, FileStats, FormatError, GameReader, GameRecord, GameResult, GameWriter, Ply, RecordedPosition,
    TrainingPosition, file_stats, is_training_position,
};
pub use selfplay::{Adjudication, DatagenError, GamePlayer, Progress, SelfPlayConfig};
