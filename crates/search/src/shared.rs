//! What the threads of a search share: the stop and ponder signals from the protocol thread,
//! and the per-search state (table, limits, options, node counts, reporting).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use cutoff_syzygy::Tablebases;
use cutoff_tt::TranspositionTable;

use crate::limits::{Limits, TimeBudget};
use crate::options::SearchOptions;
use crate::report::Report;

/// Stop and ponder signals, shared between the protocol thread and the search.
///
/// The protocol thread calls [`SearchControl::reset`] before starting a search (so a `stop`
/// that arrives right after `go` is never lost), [`SearchControl::stop`] on `stop`, and
/// [`SearchControl::ponderhit`] on `ponderhit`.
#[derive(Debug)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    epoch: Instant,
    /// Milliseconds since `epoch` at which our clock started (`u64::MAX`: not yet, pondering).
    clock_start: AtomicU64,
}

impl Default for SearchControl {
    fn default() -> SearchControl {
        SearchControl {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            epoch: Instant::now(),
            clock_start: AtomicU64::new(0),
        }
    }
}

impl SearchControl {
    /// Prepares for a new search: clears the stop flag and starts the clock now, or (when
    /// `ponder`) only at `ponderhit`.
    pub fn reset(&self, ponder: bool) {
        self.stop.store(false, Ordering::SeqCst);
        self.pondering.store(ponder, Ordering::SeqCst);
        let start = if ponder { u64::MAX } else { self.now_ms() };
        self.clock_start.store(start, Ordering::SeqCst);
    }

    /// Asks the search to stop as soon as possible.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Whether a stop was requested.
    pub fn stop_requested(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The opponent played the expected move: keep searching, now on our own clock.
    pub fn ponderhit(&self) {
        self.clock_start.store(self.now_ms(), Ordering::SeqCst);
        self.pondering.store(false, Ordering::SeqCst);
    }

    /// Whether the search is pondering (no `ponderhit` yet).
    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    fn now_ms(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    /// Time used on our clock so far, or `None` while pondering.
    fn clock_elapsed(&self) -> Option<Duration> {
        let start = self.clock_start.load(Ordering::Relaxed);
        (start != u64::MAX).then(|| Duration::from_millis(self.now_ms().saturating_sub(start)))
    }
}

/// Everything the threads of one search share.
pub(crate) struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub control: &'a SearchControl,
    /// Set when the main thread ends the search (limits reached); stops the helpers.
    pub abort: AtomicBool,
    pub limits: &'a Limits,
    pub budget: Option<TimeBudget>,
    /// The options of this search; `options.features` and `options.ordering` are read at
    /// every node (constants without the `study` feature).
    pub options: SearchOptions,
    pub start: Instant,
    pub node_counts: Vec<AtomicU64>,
    pub report: &'a (dyn Fn(Report) + Sync),
    /// The tablebases to probe in the search, if any, with the piece limit (0: none) and
    /// the depth limit of the probes.
    pub tb: Option<&'a Tablebases>,
    pub tb_cardinality: usize,
    pub tb_probe_depth: i32,
    pub tb_rule50: bool,
    pub tb_hits: AtomicU64,
    /// The tablebase value of the root (from the mover's side) when its moves were ranked
    /// by the tables: reported instead of the search's score unless the search finds a mate.
    pub root_tb_score: Option<i32>,
}

impl Shared<'_> {
    /// The score to report for a root move whose search score is `score`.
    pub fn shown_score(&self, score: i32) -> i32 {
        match self.root_tb_score {
            Some(tb) if score.abs() < cutoff_tt::MATE_IN_MAX_PLY => tb,
            _ => score,
        }
    }
}

impl Shared<'_> {
    pub fn publish_nodes(&self, id: usize, nodes: u64) {
        self.node_counts[id].store(nodes, Ordering::Relaxed);
    }

    pub fn total_nodes(&self, id: usize, own: u64) -> u64 {
        self.node_counts.iter().enumerate().map(|(i, n)| if i == id { own } else { n.load(Ordering::Relaxed) }).sum()
    }

    pub fn elapsed_since_start(&self) -> Option<Duration> {
        Some(self.start.elapsed())
    }

    pub fn clock_elapsed(&self) -> Option<Duration> {
        self.control.clock_elapsed()
    }

    /// Hard time limit or node limit reached (checked by the main thread).
    pub fn out_of_time_or_nodes(&self) -> bool {
        if let Some(limit) = self.limits.nodes
            && self.total_nodes(usize::MAX, 0) >= limit
        {
            return true;
        }
        match (self.budget, self.clock_elapsed()) {
            (Some(budget), Some(elapsed)) => elapsed >= budget.hard,
            _ => false,
        }
    }
}
