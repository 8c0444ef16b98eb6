//! Cutoff's search: iterative deepening with aspiration windows over a principal variation
//! search (PVS) and a quiescence search, run by several threads at once (lazy SMP) that share
//! one transposition table.
//!
//! At each node, in order:
//! * draws by repetition and the 50-move rule, mate distance pruning, and a cutoff from the
//!   transposition table;
//! * a Syzygy tablebase probe (`SyzygyOptions`), whose result can end the node;
//! * the static evaluation, by the network or the hand-crafted evaluation (`Evaluator`),
//!   corrected by the correction histories (by pawn structure, each side's other pieces, and
//!   the kings and minor pieces), and whether it is improving on the side's last one;
//! * pruning before any move: razoring, reverse futility pruning, null-move pruning and
//!   ProbCut; an internal iterative reduction when no hash move is known;
//! * the moves in the order of `cutoff-ordering`'s staged picker, each with its own pruning
//!   (late-move pruning, futility pruning, history pruning, SEE pruning), extensions (check,
//!   singular extensions with double extensions and multi-cut) and late-move reductions;
//! * the history tables updated in one place after a beta cutoff.
//!
//! The quiescence search tries captures and promotions (every move when in check), with
//! delta and SEE pruning. Time management keeps soft and hard limits (`TimeBudget`); the margins and
//! reductions are named, tunable parameters (`params`). `wdl` turns a score into win, draw and
//! loss chances for `UCI_ShowWDL`.
//!
//! ```
//! use cutoff_board::{Board, CastlingMode};
//! use cutoff_search::{Engine, Limits, SearchControl, SearchOptions};
//! let mut engine = Engine::new(16, SearchOptions::default()).unwrap();
//! let control = SearchControl::default();
//! control.reset(false);
//! // Mate in one: Qxf7#.
//! let board = Board::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3", CastlingMode::Standard).unwrap();
//! let result = engine.search(&board, &[], &Limits::depth(4), &control, &|_| {});
//! assert_eq!(board.uci(result.best_move.unwrap()).to_string(), "f3f7");
//! ```
#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod correction;
mod engine;
mod evaluator;
mod limits;
mod options;
mod params;
mod report;
mod shared;
pub mod wdl;
mod worker;

pub use engine::Engine;
pub use evaluator::{Evaluator, HandCrafted, Network};
pub use limits::{Limits, TimeBudget, max_share};
pub use options::{Features, SearchOptions, SyzygyOptions};
pub use params::{Param, ParamError, params, set_param, spsa_config};
pub use report::{Report, SearchResult};
pub use shared::SearchControl;

use std::time::Duration;

use cutoff_board::Move;
use cutoff_tt::{Bound, MATE, MATE_IN_MAX_PLY};

/// The deepest ply the search reaches: the one ply limit shared with `cutoff-tt` (mate
/// distances) and `cutoff-ordering` (killers), defined in `cutoff-board`.
pub use cutoff_board::MAX_PLY;

/// The stack a thread that calls the search needs: the recursion keeps a move picker per ply,
/// deeper than the default stack of a spawned thread allows. The engine's own helper threads
/// use it, and so must a caller that runs [`Engine::search`] on a thread of its own.
///
/// ```
/// assert_eq!(cutoff_search::STACK_SIZE, 64 << 20);
/// ```
pub const STACK_SIZE: usize = 64 << 20;

/// Counters kept by each search thread (cheap: plain integer increments).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Nodes visited (main search and quiescence).
    pub nodes: u64,
    /// Quiescence nodes.
    pub qnodes: u64,
    /// Beta cutoffs in the main search.
    pub cutoffs: u64,
    /// Beta cutoffs by the first move tried.
    pub first_move_cutoffs: u64,
    /// Sum of the 1-based indices of the cutoff moves (for the average).
    pub cutoff_index_sum: u64,
    /// Cutoffs that came before the noisy moves were generated (by the TT move).
    pub cutoffs_before_noisy_gen: u64,
    /// Cutoffs that came before the quiet moves were generated.
    pub cutoffs_before_quiet_gen: u64,
    /// Transposition-table hits.
    pub tt_hits: u64,
}

impl Stats {
    fn record_cutoff(&mut self, index: usize, noisy_generated: bool, quiets_generated: bool) {
        self.cutoffs += 1;
        self.cutoff_index_sum += index as u64;
        if index == 1 {
            self.first_move_cutoffs += 1;
        }
        if !noisy_generated {
            self.cutoffs_before_noisy_gen += 1;
        }
        if !quiets_generated {
            self.cutoffs_before_quiet_gen += 1;
        }
    }

    /// The share of cutoffs made by the first move, 0 to 1.
    pub fn first_move_cutoff_rate(&self) -> f64 {
        self.first_move_cutoffs as f64 / self.cutoffs.max(1) as f64
    }

    /// The average 1-based index of the move that cut off.
    pub fn average_cutoff_index(&self) -> f64 {
        self.cutoff_index_sum as f64 / self.cutoffs.max(1) as f64
    }

    /// Adds another thread's or search's counters.
    pub fn add(&mut self, other: &Stats) {
        self.nodes += other.nodes;
        self.qnodes += other.qnodes;
        self.cutoffs += other.cutoffs;
        self.first_move_cutoffs += other.first_move_cutoffs;
        self.cutoff_index_sum += other.cutoff_index_sum;
        self.cutoffs_before_noisy_gen += other.cutoffs_before_noisy_gen;
        self.cutoffs_before_quiet_gen += other.cutoffs_before_quiet_gen;
        self.tt_hits += other.tt_hits;
    }
}

/// A score as UCI prints it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UciScore {
    /// Centipawns from the side to move's point of view.
    Cp(i32),
    /// Mate in this many moves (negative: getting mated).
    Mate(i32),
}

impl UciScore {
    /// Converts a search score.
    ///
    /// ```
    /// use cutoff_search::UciScore;
    /// assert_eq!(UciScore::from_score(cutoff_tt::MATE - 1), UciScore::Mate(1));
    /// assert_eq!(UciScore::from_score(-cutoff_tt::MATE + 2), UciScore::Mate(-1));
    /// assert_eq!(UciScore::from_score(35), UciScore::Cp(35));
    /// ```
    pub fn from_score(score: i32) -> UciScore {
        if score >= MATE_IN_MAX_PLY {
            UciScore::Mate((MATE - score + 1) / 2)
        } else if score <= -MATE_IN_MAX_PLY {
            UciScore::Mate(-(MATE + score) / 2)
        } else {
            UciScore::Cp(score)
        }
    }
}

impl std::fmt::Display for UciScore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UciScore::Cp(cp) => write!(f, "cp {cp}"),
            UciScore::Mate(m) => write!(f, "mate {m}"),
        }
    }
}

/// One line of search progress (a UCI `info` line).
#[derive(Clone, Debug)]
pub struct IterationInfo {
    /// Iteration depth.
    pub depth: u32,
    /// Selective depth (deepest PV ply reached).
    pub seldepth: u32,
    /// 1-based principal variation number.
    pub multipv: usize,
    /// Score of this line.
    pub score: i32,
    /// Set when the score is only a bound (aspiration failure): `Lower` = at least,
    /// `Upper` = at most.
    pub bound: Option<Bound>,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Transposition-table fill, per mille.
    pub hashfull: u16,
    /// Time since the search started.
    pub time: Duration,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// The main thread's statistics so far.
    pub stats: Stats,
    /// Tablebase hits of all threads (WDL probes in the search that found the position).
    pub tbhits: u64,
}
