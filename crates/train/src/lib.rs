#![doc = include_str!("../README.md")]
#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod checkpoint;
mod config;
mod data;
mod epd;
mod error;
mod event;
mod gradient;
mod layout;
mod load;
mod loss;
mod model;
mod plot;
mod run;
#[cfg(test)]
mod test_data;
mod trainer;

pub use checkpoint::CheckpointError;
pub use config::TrainConfig;
pub use data::Position;
pub use epd::EpdError;
pub use error::TrainError;
pub use event::Event;
pub use layout::parse_king_buckets;
pub use load::Source;
pub use loss::{CsvError, EpochLoss, LossHistory};
pub use trainer::{Outcome, Reference, Trainer, write_network};

/// The board crate the positions are given in.
pub use cutoff_board;
/// The network crate the trained network is written for.
pub use cutoff_nnue;

/// Weights are kept in `[-CLIP, CLIP]` (quantised: `W1` and `b1` within 505).
const CLIP: f32 = 1.98;

/// Output weights are kept in `[-CLIP_OUTPUT, CLIP_OUTPUT]`: quantised within 256, which
/// `cutoff-nnue`'s output proof accepts for every hidden size (it promises ±258). Trained
/// output weights stay well inside it.
const CLIP_OUTPUT: f32 = 1.0;

/// Chunks per batch; their gradients are summed in this order (see the crate docs).
const CHUNKS: usize = 16;

/// The running sums of the output layer (see `Model::output`): two AVX2 registers' worth.
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
