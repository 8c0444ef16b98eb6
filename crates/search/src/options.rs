//! What a search can be asked to do besides its limits: threads, lines, the move overhead,
//! the tablebase probes, and (with the `study` feature) which features are switched off.

use std::time::Duration;

use cutoff_ordering::OrderingConfig;

cutoff_ordering::study_switches! {
    /// Search features that a study switches off, to measure them or to search with plain
    /// alpha-beta (so that only move ordering changes the tree): fields with the `study`
    /// feature; in normal builds [`Features::FULL`] is the only value and every switch folds to
    /// a constant.
    ///
    /// ```
    /// use cutoff_search::Features;
    /// assert!(Features::FULL.pruning() && Features::FULL.lmr());
    /// assert_eq!(Features::default(), Features::FULL);
    /// ```
    pub struct Features {
        /// Cut off on transposition-table bounds at non-PV nodes.
        tt_cutoffs: bool = true,
        /// Null-move pruning.
        null_move: bool = true,
        /// Reverse futility pruning.
        reverse_futility: bool = true,
        /// Late-move reductions.
        lmr: bool = true,
        /// The selective search: razoring, internal iterative reduction, singular extensions,
        /// late-move, futility and SEE pruning, and the history and improving terms of LMR.
        pruning: bool = true,
        /// Aspiration windows at the root.
        aspiration: bool = true,
        /// Principal variation search (null windows after the first move).
        pvs: bool = true,
        /// Extend by one ply when in check.
        check_extension: bool = true,
        /// Skip captures with negative SEE in quiescence search.
        qsearch_see: bool = true,
        /// Delta pruning in quiescence search: skip captures that cannot lift the score to
        /// alpha even with a margin, and only winning captures when far below alpha.
        qsearch_delta: bool = true,
        /// In quiescence search, after two captures only recaptures, promotions and checks
        /// (this one depends on the order in which captures come).
        qsearch_late_moves: bool = true,
    }
}

#[cfg(feature = "study")]
impl Features {
    /// Plain alpha-beta with quiescence search and check extension: no search pruning, so
    /// ordering alone decides the size of the tree. Quiescence keeps its static capture
    /// filters (SEE < 0 and delta pruning judge each capture on its own); without them a
    /// search with no move ordering does not finish even at depth 3.
    pub const PLAIN: Features = Features {
        tt_cutoffs: false,
        null_move: false,
        reverse_futility: false,
        lmr: false,
        pruning: false,
        aspiration: false,
        pvs: false,
        check_extension: true,
        qsearch_see: true,
        qsearch_delta: true,
        qsearch_late_moves: false,
    };
}

/// Engine options (the UCI options that concern the search).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Number of search threads (lazy SMP).
    pub threads: usize,
    /// Number of principal variations to report.
    pub multipv: usize,
    /// Time to keep in reserve per move for GUI and operating-system delays.
    pub move_overhead: Duration,
    /// Move-ordering heuristics.
    pub ordering: OrderingConfig,
    /// Search features.
    pub features: Features,
    /// How the Syzygy tablebases are used (when [`Engine::set_tablebases`](crate::Engine::set_tablebases) gave some).
    pub syzygy: SyzygyOptions,
}

/// How the search uses Syzygy tablebases: the UCI options `SyzygyProbeDepth`,
/// `SyzygyProbeLimit` and `Syzygy50MoveRule`, with Stockfish's meanings and defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SyzygyOptions {
    /// Probe the WDL tables in the search only at this remaining depth or more (positions with
    /// fewer pieces than the largest tables are probed at any depth).
    pub probe_depth: i32,
    /// Probe only positions with at most this many pieces (kings included; 0: never).
    pub probe_limit: usize,
    /// Count wins and losses that the fifty-move rule turns into draws as draws.
    pub rule50: bool,
}

impl Default for SyzygyOptions {
    fn default() -> SyzygyOptions {
        SyzygyOptions { probe_depth: 1, probe_limit: 7, rule50: true }
    }
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions {
            threads: 1,
            multipv: 1,
            move_overhead: Duration::from_millis(30),
            ordering: OrderingConfig::FULL,
            features: Features::FULL,
            syzygy: SyzygyOptions::default(),
        }
    }
}
