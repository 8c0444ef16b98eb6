//! The engine: the shared transposition table, the search threads, limits and reporting.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use cutoff_board::{Board, Move};
use cutoff_ordering::OrderingConfig;
use cutoff_syzygy::{Tablebases, Wdl, root_rank};
use cutoff_tt::{ResizeError, TranspositionTable};

use crate::limits::{Limits, TimeBudget};
use crate::worker::Worker;
use crate::{IterationInfo, Stats};

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
    /// How the Syzygy tablebases are used (when [`Engine::set_tablebases`] gave some).
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

/// Everything the threads of one search share.
pub(crate) struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub control: &'a SearchControl,
    /// Set when the main thread ends the search (limits reached); stops the helpers.
    pub abort: AtomicBool,
    pub limits: &'a Limits,
    pub budget: Option<TimeBudget>,
    pub options: SearchOptions,
    pub ordering: OrderingConfig,
    pub features: Features,
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

/// The search engine: a transposition table shared by all threads, and per-thread state
/// (history tables, killers) that persists between searches until [`Engine::clear`].
pub struct Engine {
    tt: TranspositionTable,
    workers: Vec<Worker>,
    options: SearchOptions,
    tablebases: Option<Arc<Tablebases>>,
    network: Option<Arc<cutoff_nnue::Network>>,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine").field("tt", &self.tt).field("options", &self.options).finish()
    }
}

/// Stack size of search threads: the recursion keeps a move picker per ply.
const STACK_SIZE: usize = 64 << 20;

impl Engine {
    /// An engine with a `hash_mib` MiB transposition table.
    pub fn new(hash_mib: usize, options: SearchOptions) -> Result<Engine, ResizeError> {
        let mut engine = Engine {
            tt: TranspositionTable::new(hash_mib)?,
            workers: Vec::new(),
            options,
            tablebases: None,
            network: None,
        };
        engine.set_threads(options.threads);
        Ok(engine)
    }

    /// The current options.
    pub fn options(&self) -> SearchOptions {
        self.options
    }

    /// Changes the options; the thread count takes effect at once.
    pub fn set_options(&mut self, options: SearchOptions) {
        self.options = options;
        self.set_threads(options.threads);
    }

    fn set_threads(&mut self, threads: usize) {
        let threads = threads.max(1);
        self.options.threads = threads;
        self.workers.truncate(threads);
        while self.workers.len() < threads {
            self.workers.push(Worker::new(self.workers.len()));
        }
    }

    /// The Syzygy tablebases to use from the next search on (`None`: none).
    pub fn set_tablebases(&mut self, tablebases: Option<Arc<Tablebases>>) {
        self.tablebases = tablebases;
    }

    /// The Syzygy tablebases in use, if any.
    pub fn tablebases(&self) -> Option<&Arc<Tablebases>> {
        self.tablebases.as_ref()
    }

    /// Evaluates with `network` from the next search on; `None` selects the hand-crafted
    /// evaluation (the default).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use cutoff_nnue::{INPUTS, Network};
    /// use cutoff_search::{Engine, SearchOptions};
    /// let mut engine = Engine::new(1, SearchOptions::default()).unwrap();
    /// assert!(engine.network().is_none());
    /// let n = 16;
    /// let net = Network::from_parts(n, vec![0; INPUTS * n], vec![0; n], vec![0; 2 * n], vec![0]).unwrap();
    /// engine.set_network(Some(Arc::new(net)));
    /// assert_eq!(engine.network().map(|n| n.hidden()), Some(16));
    /// ```
    pub fn set_network(&mut self, network: Option<Arc<cutoff_nnue::Network>>) {
        self.network = network;
    }

    /// The network the search evaluates with, if any (`None`: the hand-crafted evaluation).
    pub fn network(&self) -> Option<&Arc<cutoff_nnue::Network>> {
        self.network.as_ref()
    }

    /// Resizes (and clears) the transposition table.
    pub fn set_hash(&mut self, mib: usize) -> Result<(), ResizeError> {
        self.tt.resize(mib)
    }

    /// The transposition table.
    pub fn tt(&self) -> &TranspositionTable {
        &self.tt
    }

    /// Forgets everything learnt: the transposition table and every thread's tables (`ucinewgame`).
    pub fn clear(&mut self) {
        self.tt.clear_with_threads(self.options.threads);
        for w in &mut self.workers {
            w.clear();
        }
    }

    /// Clears only the transposition table (the `Clear Hash` option).
    pub fn clear_hash(&mut self) {
        self.tt.clear_with_threads(self.options.threads);
    }

    /// Searches `board` (reached through the positions whose keys are `history`, oldest
    /// first, for repetition detection) within `limits`, calling `report` from the main
    /// thread with progress. Returns when a limit is reached or `control` says stop.
    /// `control` must have been [`reset`](SearchControl::reset) by the caller.
    pub fn search(
        &mut self,
        board: &Board,
        history: &[u64],
        limits: &Limits,
        control: &SearchControl,
        report: &(dyn Fn(Report) + Sync),
    ) -> SearchResult {
        let start = Instant::now();
        let mut root_moves: Vec<Move> = board.legal_moves().to_vec();
        if !limits.searchmoves.is_empty() {
            let wanted: Vec<Move> = root_moves.iter().copied().filter(|m| limits.searchmoves.contains(m)).collect();
            if !wanted.is_empty() {
                root_moves = wanted;
            }
        }
        if root_moves.is_empty() {
            return SearchResult {
                best_move: None,
                ponder_move: None,
                score: if board.in_check() { -cutoff_tt::MATE } else { 0 },
                depth: 0,
                nodes: 0,
                stats: Stats::default(),
                time: start.elapsed(),
                tbhits: 0,
            };
        }
        // Syzygy: the pieces the search probes, and the root moves that keep the tablebase
        // value (with DTZ, also the fastest win or the longest defence).
        let tb = self.tablebases.as_deref().filter(|tb| tb.max_pieces() > 0);
        let sy = self.options.syzygy;
        let (mut tb_cardinality, mut tb_probe_depth) = (sy.probe_limit, sy.probe_depth);
        if let Some(tb) = tb
            && tb_cardinality > tb.max_pieces()
        {
            tb_cardinality = tb.max_pieces();
            tb_probe_depth = 0;
        }
        if tb.is_none() {
            tb_cardinality = 0;
        }
        let mut root_tb_hits = 0;
        let mut root_tb_score = None;
        if let Some(tb) = tb
            && board.occupied().len() as usize <= tb_cardinality
            && board.castling_rights().is_empty()
            && let Some((kept, used_dtz)) = tb_root_moves(tb, board, &root_moves, sy.rule50)
        {
            root_tb_hits = root_moves.len() as u64;
            root_moves = kept;
            root_tb_score = tb.probe_wdl(board).map(|wdl| crate::worker::tb_score(wdl, 0, sy.rule50).0);
            if used_dtz {
                // The DTZ ranking already keeps the win (or the longest defence); probes in the
                // search would only give every remaining move the same score (as Stockfish).
                tb_cardinality = 0;
            }
        }
        // Order the root moves once by the move picker (TT move, captures, ...).
        let tt_move = self.tt.probe(board.key(), 0).and_then(|e| e.mv);
        {
            let w = &self.workers[0];
            let mut picker =
                cutoff_ordering::MovePicker::main(board, tt_move, w.killers.get(0), None, self.options.ordering);
            let mut ordered = Vec::with_capacity(root_moves.len());
            while let Some(mv) = picker.next(&w.histories) {
                if root_moves.contains(&mv) {
                    ordered.push(mv);
                }
            }
            root_moves = ordered;
        }

        for worker in &mut self.workers {
            worker.set_network(self.network.as_ref());
        }
        self.tt.new_search();
        let shared = Shared {
            tt: &self.tt,
            control,
            abort: AtomicBool::new(false),
            limits,
            budget: TimeBudget::new(limits, board.side_to_move(), self.options.move_overhead),
            options: self.options,
            ordering: self.options.ordering,
            features: self.options.features,
            start,
            node_counts: (0..self.workers.len()).map(|_| AtomicU64::new(0)).collect(),
            report,
            tb,
            tb_cardinality,
            tb_probe_depth,
            tb_rule50: sy.rule50,
            tb_hits: AtomicU64::new(root_tb_hits),
            root_tb_score,
        };
        let (main, helpers) = self.workers.split_first_mut().expect("at least one worker");
        std::thread::scope(|scope| {
            let mut handles = Vec::new();
            for worker in helpers.iter_mut() {
                let (shared, root_moves) = (&shared, &root_moves);
                let spawned = std::thread::Builder::new()
                    .name(format!("search-{}", worker.id))
                    .stack_size(STACK_SIZE)
                    .spawn_scoped(scope, move || worker.iterative_deepening(shared, board, history, root_moves));
                match spawned {
                    Ok(h) => handles.push(h),
                    Err(e) => log::warn!("could not start a helper search thread: {e}"),
                }
            }
            main.iterative_deepening(&shared, board, history, &root_moves);
            shared.abort.store(true, Ordering::SeqCst);
            for h in handles {
                let _ = h.join();
            }
        });

        let best = &main.root_moves[0];
        let nodes = shared.total_nodes(0, main.nodes);
        let ponder_move = best.pv.get(1).copied().or_else(|| {
            let mut after = *board;
            after.play_unchecked(best.mv);
            self.tt.probe(after.key(), 0).and_then(|e| e.mv).filter(|&m| after.is_legal(m))
        });
        SearchResult {
            best_move: Some(best.mv),
            ponder_move,
            score: shared.shown_score(best.score),
            depth: main.completed_depth,
            nodes,
            stats: main.stats,
            time: start.elapsed(),
            tbhits: shared.tb_hits.load(Ordering::Relaxed),
        }
    }
}

/// The root moves (of `moves`, in their order) that keep the best tablebase outcome, and
/// whether DTZ ranked them (then among wins only the fastest to convert, among losses the
/// slowest, are kept). With WDL alone, the moves that keep the best WDL value. `None` when the
/// tables cannot rank the position.
fn tb_root_moves(tb: &Tablebases, board: &Board, moves: &[Move], rule50: bool) -> Option<(Vec<Move>, bool)> {
    let clock = board.halfmove_clock();
    let (ranks, used_dtz): (Vec<(Move, i32)>, bool) = match tb.rank_root_moves(board) {
        Some(ranked) => (ranked.into_iter().map(|(mv, dtz)| (mv, root_rank(dtz, clock, rule50).0)).collect(), true),
        None => {
            let mut ranks = Vec::with_capacity(moves.len());
            for &mv in moves {
                let mut after = *board;
                after.play_unchecked(mv);
                let mut wdl = tb.probe_wdl(&after)?.flip();
                if !rule50 {
                    wdl = match wdl {
                        Wdl::CursedWin => Wdl::Win,
                        Wdl::BlessedLoss => Wdl::Loss,
                        other => other,
                    };
                }
                ranks.push((mv, wdl.to_i32()));
            }
            (ranks, false)
        }
    };
    let rank_of = |mv: Move| ranks.iter().find(|(m, _)| *m == mv).map(|&(_, r)| r);
    let best = moves.iter().filter_map(|&mv| rank_of(mv)).max()?;
    let kept: Vec<Move> = moves.iter().copied().filter(|&mv| rank_of(mv) == Some(best)).collect();
    (!kept.is_empty()).then_some((kept, used_dtz))
}
