//! What a search tells its caller: the lines while it runs, and its outcome.

use std::time::Duration;

use cutoff_board::Move;

use crate::{IterationInfo, Stats};

/// What the search reports while it runs (the main thread only).
#[derive(Clone, Debug)]
pub enum Report {
    /// One line alone: an aspiration-window failure (`bound` set), reported only when a
    /// single line is searched (MultiPV 1).
    Iteration(IterationInfo),
    /// The lines of a finished iteration, `multipv` 1, 2, ... in order, whose first moves are
    /// all different; or, when a stop ends an iteration, the set that leads with the move
    /// played. Show them together: each replaces the line of its `multipv` index, and a set
    /// shown line by line could pass through a moment where two indices start with the same
    /// move.
    Lines(Vec<IterationInfo>),
    /// The root move being searched (sent only after 3 seconds).
    CurrMove {
        /// The iteration depth.
        depth: u32,
        /// The move.
        mv: Move,
        /// Its 1-based number in the root move list.
        number: usize,
    },
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The best move, or `None` when the position has no legal move.
    pub best_move: Option<Move>,
    /// The expected reply, for pondering.
    pub ponder_move: Option<Move>,
    /// The score of the best move, in centipawns or mate scores (see `cutoff_tt::MATE`).
    pub score: i32,
    /// The last completed depth.
    pub depth: u32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Statistics of the main thread.
    pub stats: Stats,
    /// Wall time of the search.
    pub time: Duration,
    /// Tablebase hits of all threads.
    pub tbhits: u64,
}
