//! The evaluation as a linear function of its weights, for tuners.
//!
//! Before blending, the evaluation is a sum of weights times counts: `Σ count_i * weight_i`
//! for White minus the same for Black, once for the middle game and once for the end game.
//! [`features`] returns those counts for a position, made by the same code as
//! [`evaluate`](crate::evaluate) (see the crate's `Sink`), so a tuner can fit every weight in
//! [`params`](crate::params) by gradient descent with exact gradients, and
//! [`render_weights`] writes the result as the source of the generated `weights.rs`.
//!
//! ```
//! use cutoff_board::Board;
//! use cutoff_eval::params::compiled_weights;
//! use cutoff_eval::{evaluate, tune};
//!
//! let board = Board::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", cutoff_board::CastlingMode::Standard).unwrap();
//! let f = tune::features(&board);
//! let linear = f.white_eval(&compiled_weights());
//! assert!((linear - evaluate(&board) as f64).abs() <= 1.0);
//! ```

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

use cutoff_board::Board;

use crate::eval::{self, Counts};
use crate::params::{NUM_WEIGHTS, Shape, Table};
use crate::pawns;
use crate::score::Score;

/// The counts of one position: for each weight used, White's count minus Black's.
#[derive(Clone, Debug, PartialEq)]
pub struct Features {
    /// The game phase (see [`phase`](crate::phase)): the blend is
    /// `(mg * phase + eg * (24 - phase)) / 24`.
    pub phase: i32,
    /// `(weight index, count)` for every weight whose count is not zero, in index order.
    /// Weight indices are those of [`Table::offset`].
    pub counts: Vec<(u16, f32)>,
}

impl Features {
    /// The evaluation from White's point of view with `weights` (flat, as in
    /// [`compiled_weights`](crate::params::compiled_weights)), before rounding and clamping.
    pub fn white_eval(&self, weights: &[Score]) -> f64 {
        let (mut mg, mut eg) = (0.0, 0.0);
        for &(i, c) in &self.counts {
            mg += f64::from(c) * f64::from(weights[i as usize].mg());
            eg += f64::from(c) * f64::from(weights[i as usize].eg());
        }
        let phase = f64::from(self.phase);
        (mg * phase + eg * (f64::from(crate::MAX_PHASE) - phase)) / f64::from(crate::MAX_PHASE)
    }
}

/// The counts of every weight in `board`, White's minus Black's.
pub fn features(board: &Board) -> Features {
    let mut counts = Counts::new();
    let passed = pawns::structure(board, &mut counts);
    eval::features(board, passed, &mut counts);
    let [white, black] = &counts.0;
    let counts = (0..NUM_WEIGHTS)
        .filter_map(|i| {
            let c = white[i] - black[i];
            (c != 0.0).then_some((i as u16, c))
        })
        .collect();
    Features { phase: eval::phase(board), counts }
}

/// The Rust source of `weights.rs` for `weights` (flat, as in
/// [`compiled_weights`](crate::params::compiled_weights)), with `header` (one or more lines)
/// as the module documentation after the "generated" notice.
///
/// # Panics
///
/// If `weights.len()` is not [`NUM_WEIGHTS`].
pub fn render_weights(weights: &[Score], header: &str) -> String {
    assert_eq!(weights.len(), NUM_WEIGHTS, "one score per weight");
    let mut out = String::new();
    out.push_str("//! The tuned weights of the evaluation. GENERATED FILE: do not edit by hand; it is written by\n");
    out.push_str("//! `cargo xtask tune` (see `docs/tuning.md`), and its layout comes from `params.rs`.\n//!\n");
    for line in header.lines() {
        if line.is_empty() {
            out.push_str("//!\n");
        } else {
            let _ = writeln!(out, "//! {line}");
        }
    }
    out.push_str("\nuse crate::score::{S, Score};\n");
    let s = |w: Score| format!("S({:4}, {:4})", w.mg(), w.eg());
    for &table in Table::ALL {
        out.push('\n');
        for line in table.doc().lines() {
            let _ = writeln!(out, "///{}", line.trim_end());
        }
        let values = &weights[table.offset()..table.offset() + table.len()];
        match table.shape() {
            Shape::Scalar => {
                let _ = writeln!(out, "pub const {}: Score = S({}, {});", table.name(), values[0].mg(), values[0].eg());
            }
            Shape::Array | Shape::Board => {
                let _ = writeln!(out, "#[rustfmt::skip]\npub const {}: [Score; {}] = [", table.name(), table.len());
                for row in values.chunks(8) {
                    let cells: Vec<String> = row.iter().map(|&w| s(w) + ",").collect();
                    let _ = writeln!(out, "    {}", cells.join(" "));
                }
                out.push_str("];\n");
            }
        }
    }
    out
}
