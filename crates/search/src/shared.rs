//! What the threads of a search share: the stop and ponder signals from the protocol thread,
//! and the per-search state (table, limits, options, node counts, reporting).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};
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
/// [`SearchControl::ponderhit`] on `ponderhit`. A search that is done before either comes
/// waits for it with [`SearchControl::wait_for_release`].
#[derive(Debug)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    epoch: Instant,
    /// Milliseconds since `epoch` at which our clock started (`u64::MAX`: not yet, pondering).
    clock_start: AtomicU64,
    /// Held by [`SearchControl::wait_for_release`] while it checks the flags, and taken by a
    /// stop or a ponderhit after setting theirs, so a change made just as the wait begins is
    /// never missed.
    signal: Mutex<()>,
    /// Notified after a stop or a ponderhit.
    released: Condvar,
}

impl Default for SearchControl {
    fn default() -> SearchControl {
        SearchControl {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            epoch: Instant::now(),
            clock_start: AtomicU64::new(0),
            signal: Mutex::new(()),
            released: Condvar::new(),
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
        self.notify();
    }

    /// Whether a stop was requested.
    pub fn stop_requested(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The opponent played the expected move: keep searching, now on our own clock.
    pub fn ponderhit(&self) {
        self.clock_start.store(self.now_ms(), Ordering::SeqCst);
        self.pondering.store(false, Ordering::SeqCst);
        self.notify();
    }

    /// Whether the search is pondering (no `ponderhit` yet).
    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    /// Blocks until the result of a finished search may be played: at once, unless the search
    /// was `infinite` (then until a stop) or is still pondering (then until a stop or a
    /// ponderhit). It sleeps meanwhile; [`SearchControl::stop`] and
    /// [`SearchControl::ponderhit`] wake it.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use cutoff_search::SearchControl;
    ///
    /// let control = Arc::new(SearchControl::default());
    /// control.reset(true);
    /// let waiter = Arc::clone(&control);
    /// let thread = std::thread::spawn(move || waiter.wait_for_release(false));
    /// control.ponderhit();
    /// thread.join().unwrap();
    /// ```
    pub fn wait_for_release(&self, infinite: bool) {
        let mut guard = self.signal.lock().unwrap_or_else(PoisonError::into_inner);
        while !self.stop_requested() && (infinite || self.is_pondering()) {
            guard = self.released.wait(guard).unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Wakes [`SearchControl::wait_for_release`] to check again. Taking the lock orders the
    /// flag just stored before the waiter's next check.
    fn notify(&self) {
        let _guard = self.signal.lock().unwrap_or_else(PoisonError::into_inner);
        self.released.notify_all();
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
    pub tb: TbProbes<'a>,
}

/// The Syzygy tablebases as one search uses them: which positions its nodes probe, and what
/// the ranking of the root's moves found.
pub(crate) struct TbProbes<'a> {
    /// The tables the nodes probe; `None` when they probe none.
    pub tables: Option<&'a Tablebases>,
    /// The most pieces a probed position has.
    pub cardinality: usize,
    /// A position with exactly `cardinality` pieces is probed only from this depth on.
    pub probe_depth: i32,
    /// Whether the 50-move rule counts (a cursed win is then a draw).
    pub rule50: bool,
    /// Positions whose value the tables gave, the root's moves included.
    pub hits: AtomicU64,
    /// The root's value (the mover's side) when the tables ranked its moves: reported instead
    /// of the search's score unless the search finds a mate.
    pub root_score: Option<i32>,
}

impl TbProbes<'_> {
    /// No tablebases: the nodes probe nothing.
    pub fn none() -> TbProbes<'static> {
        TbProbes {
            tables: None,
            cardinality: 0,
            probe_depth: 0,
            rule50: true,
            hits: AtomicU64::new(0),
            root_score: None,
        }
    }
}

impl Shared<'_> {
    /// The score to report for a root move whose search score is `score`.
    pub fn shown_score(&self, score: i32) -> i32 {
        match self.tb.root_score {
            Some(tb) if score.abs() < cutoff_tt::MATE_IN_MAX_PLY => tb,
            _ => score,
        }
    }
}

impl Shared<'_> {
    pub fn publish_nodes(&self, id: usize, nodes: u64) {
        self.node_counts[id].store(nodes, Ordering::Relaxed);
    }

    /// The nodes of all threads: `own` (exact) for thread `id`, the last published count
    /// for the others.
    pub fn total_nodes(&self, id: usize, own: u64) -> u64 {
        self.node_counts.iter().enumerate().map(|(i, n)| if i == id { own } else { n.load(Ordering::Relaxed) }).sum()
    }

    /// The nodes of all threads as last published.
    pub fn published_nodes(&self) -> u64 {
        self.node_counts.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    /// Time since the search started (pondering included).
    pub fn elapsed_since_start(&self) -> Duration {
        self.start.elapsed()
    }

    pub fn clock_elapsed(&self) -> Option<Duration> {
        self.control.clock_elapsed()
    }

    /// Hard time limit or node limit reached (checked by the main thread).
    pub fn out_of_time_or_nodes(&self) -> bool {
        if let Some(limit) = self.limits.nodes
            && self.published_nodes() >= limit
        {
            return true;
        }
        match (self.budget, self.clock_elapsed()) {
            (Some(budget), Some(elapsed)) => elapsed >= budget.hard,
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::mpsc;

    use super::*;

    /// Waits on another thread; the receiver gets a message when the wait ends.
    fn waiting(control: &Arc<SearchControl>, infinite: bool) -> (mpsc::Receiver<()>, std::thread::JoinHandle<()>) {
        let (tx, rx) = mpsc::channel();
        let control = Arc::clone(control);
        let thread = std::thread::spawn(move || {
            control.wait_for_release(infinite);
            let _ = tx.send(());
        });
        (rx, thread)
    }

    #[test]
    fn a_finished_search_waits_for_stop_or_ponderhit() {
        let control = Arc::new(SearchControl::default());
        // Neither infinite nor pondering: no wait.
        control.reset(false);
        control.wait_for_release(false);
        // Infinite: a ponderhit does not release it, a stop does.
        control.reset(true);
        let (done, thread) = waiting(&control, true);
        control.ponderhit();
        assert!(done.recv_timeout(Duration::from_millis(50)).is_err());
        control.stop();
        assert!(done.recv_timeout(Duration::from_secs(10)).is_ok());
        thread.join().unwrap();
        // Pondering: a stop releases it as well as a ponderhit.
        control.reset(true);
        let (done, thread) = waiting(&control, false);
        assert!(done.recv_timeout(Duration::from_millis(50)).is_err());
        control.stop();
        assert!(done.recv_timeout(Duration::from_secs(10)).is_ok());
        thread.join().unwrap();
        // A stop sent before the wait begins is not lost.
        control.reset(true);
        control.stop();
        control.wait_for_release(true);
    }
}
