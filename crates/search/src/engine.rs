//! The engine: the shared transposition table, the search threads, limits and reporting.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use cutoff_board::{Board, Move};
use cutoff_syzygy::{Tablebases, Wdl, root_rank};
use cutoff_tt::{ResizeError, TranspositionTable};

use crate::limits::{Limits, TimeBudget};
use crate::options::SearchOptions;
use crate::options::SyzygyOptions;
use crate::report::{Report, SearchResult};
use crate::shared::{SearchControl, Shared, TbProbes};
use crate::worker::{Picker, Worker};
use crate::{STACK_SIZE, Stats};

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
        let mut root_moves = root_moves(board, limits);
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
        let tablebases = self.tablebases.as_deref().filter(|tb| tb.max_pieces() > 0);
        let tb = tb_probes(tablebases, self.options.syzygy, board, &mut root_moves);
        let root_moves = self.order_root_moves(board, &root_moves);

        for worker in &mut self.workers {
            worker.set_network(self.network.as_ref());
        }
        self.tt.new_search();
        let shared = Shared {
            tt: &self.tt,
            control,
            abort: AtomicBool::new(false),
            limits,
            budget: TimeBudget::new(limits, board.side_to_move(), self.options.move_overhead, board.fullmove_number()),
            options: self.options,
            start,
            node_counts: (0..self.workers.len()).map(|_| AtomicU64::new(0)).collect(),
            report,
            tb,
        };
        let (main, helpers) = self.workers.split_first_mut().expect("at least one worker");
        run_threads(&shared, main, helpers, board, history, &root_moves);

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
            tbhits: shared.tb.hits.load(Ordering::Relaxed),
        }
    }

    /// `moves` in the move picker's order (TT move, captures, killers, quiets by history),
    /// which the first iteration starts from.
    fn order_root_moves(&self, board: &Board, moves: &[Move]) -> Vec<Move> {
        let tt_move = self.tt.probe(board.key(), 0).and_then(|e| e.mv);
        let w = &self.workers[0];
        let mut picker = Picker::main(board, tt_move, w.killers.get(0), None, self.options.ordering);
        let mut ordered = Vec::with_capacity(moves.len());
        while let Some(mv) = picker.next(&w.histories) {
            if moves.contains(&mv) {
                ordered.push(mv);
            }
        }
        ordered
    }
}

/// The legal moves of `board`, restricted to `limits.searchmoves` when any of them is legal.
fn root_moves(board: &Board, limits: &Limits) -> Vec<Move> {
    let legal = board.legal_moves();
    let wanted: Vec<Move> = legal.iter().copied().filter(|m| limits.searchmoves.contains(m)).collect();
    if wanted.is_empty() { legal.to_vec() } else { wanted }
}

/// How the search uses the tablebases: the pieces and depth of the probes in its nodes, and, in
/// a root position the tables cover, the root moves cut down to those that keep the best
/// outcome (with DTZ, also the fastest win or the longest defence).
fn tb_probes<'a>(
    tables: Option<&'a Tablebases>,
    sy: SyzygyOptions,
    board: &Board,
    root_moves: &mut Vec<Move>,
) -> TbProbes<'a> {
    let Some(tables) = tables else { return TbProbes::none() };
    let (mut cardinality, mut probe_depth) = (sy.probe_limit, sy.probe_depth);
    if cardinality > tables.max_pieces() {
        cardinality = tables.max_pieces();
        probe_depth = 0;
    }
    let mut tb = TbProbes {
        tables: Some(tables),
        cardinality,
        probe_depth,
        rule50: sy.rule50,
        hits: AtomicU64::new(0),
        root_score: None,
    };
    if board.occupied().len() as usize <= cardinality
        && board.castling_rights().is_empty()
        && let Some((kept, used_dtz)) = tb_root_moves(tables, board, root_moves, sy.rule50)
    {
        tb.hits = AtomicU64::new(root_moves.len() as u64);
        *root_moves = kept;
        tb.root_score = tables.probe_wdl(board).map(|wdl| crate::worker::tb_score(wdl, 0, sy.rule50).0);
        if used_dtz {
            // The DTZ ranking already keeps the win (or the longest defence); probes in the
            // search would only give every remaining move the same score.
            tb.cardinality = 0;
        }
    }
    tb
}

/// Runs the search: `main` on this thread, each helper on its own, until the main thread ends
/// the search (a limit, or `stop`); then the helpers are stopped and joined.
fn run_threads(
    shared: &Shared,
    main: &mut Worker,
    helpers: &mut [Worker],
    board: &Board,
    history: &[u64],
    root_moves: &[Move],
) {
    std::thread::scope(|scope| {
        let mut handles = Vec::new();
        for worker in helpers.iter_mut() {
            let spawned = std::thread::Builder::new()
                .name(format!("search-{}", worker.id))
                .stack_size(STACK_SIZE)
                .spawn_scoped(scope, move || worker.iterative_deepening(shared, board, history, root_moves));
            match spawned {
                Ok(h) => handles.push(h),
                Err(e) => log::warn!("could not start a helper search thread: {e}"),
            }
        }
        main.iterative_deepening(shared, board, history, root_moves);
        shared.abort.store(true, Ordering::SeqCst);
        for h in handles {
            let _ = h.join();
        }
    });
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
