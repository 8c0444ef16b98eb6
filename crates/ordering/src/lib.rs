#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

mod history;
mod killers;
mod mvv_lva;
mod picker;

pub use history::{
    ButterflyHistory, CaptureHistory, ContinuationHistory, CounterMoves, Histories, MAX_HISTORY, PieceTo, gravity,
};
pub use killers::{KILLER_PLIES, Killers, MAX_KILLERS};
pub use mvv_lva::{MVV_LVA, QUEEN_PROMOTION_BONUS, mvv_lva};
pub use picker::{MovePicker, OrderingConfig, Stage};
