#![doc = include_str!("../README.md")]
#![no_std]
#![warn(missing_docs)]

extern crate alloc;

mod config;
mod history;
mod killers;
mod mvv_lva;
mod param;
mod picker;
#[cfg(feature = "study")]
mod study;
mod switches;

pub use config::OrderingConfig;
pub use history::{
    ButterflyHistory, ButterflyIndex, CONTINUATION_PLIES, CaptureHistory, CaptureIndex, ContinuationHistory,
    ContinuationIndex, Continuations, CounterMoves, Histories, History, HistoryIndex, MAX_HISTORY, PieceTo, gravity,
};
pub use killers::{Killers, MAX_KILLERS};
pub use mvv_lva::{MVV_LVA, QUEEN_PROMOTION_BONUS, mvv_lva};
pub use param::{CAPTURE_HISTORY_DIVISOR, MVV_LVA_SCALE, Param, params};
pub use picker::{MovePicker, PickerIter, Stage};
#[cfg(feature = "study")]
pub use study::StudyPicker;
