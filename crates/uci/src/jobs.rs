//! The long commands, which run on a background thread, one at a time: a search (`go`), a
//! perft (`go perft`) and a bench (`bench`). [`Jobs`] starts them and holds their signals;
//! the rest of this module is what each thread does.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use cutoff_board::Board;
use cutoff_search::{Engine, Limits, SearchControl};

use crate::lines::{self, Recorder};
use crate::{Output, bench, run_bench_until, strength, truncate};

/// The long commands that run on the background thread, one at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Job {
    /// `go`: a search, ended by `bestmove`.
    Search,
    /// `go perft N`: ended by `Nodes searched: N` (or a line saying it was stopped).
    Perft,
    /// `bench [depth]`: ended by `N nodes M nps` (or a line saying it was stopped).
    Bench,
}

impl Job {
    pub(crate) fn noun(self) -> &'static str {
        match self {
            Job::Search => "search",
            Job::Perft => "perft",
            Job::Bench => "bench",
        }
    }
}

/// Set from the start of a job until just before its last line (`bestmove`, the perft or
/// bench total) is written, so a command sent in reply to that line is never refused as
/// "searching" while the thread winds down.
#[derive(Clone, Debug, Default)]
pub(crate) struct Busy(Arc<AtomicBool>);

impl Busy {
    fn is_set(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }

    fn set(&self, busy: bool) {
        self.0.store(busy, Ordering::SeqCst);
    }

    /// The job is about to write its last line.
    pub(crate) fn clear(&self) {
        self.set(false);
    }
}

/// The background thread and the signals shared with it.
#[derive(Debug)]
pub(crate) struct Jobs {
    /// The stop (and ponder) signal of the running job.
    control: Arc<SearchControl>,
    /// The thread of the last job, until joined.
    thread: Option<JoinHandle<()>>,
    /// What the last job started was.
    job: Job,
    busy: Busy,
}

impl Jobs {
    pub(crate) fn new() -> Jobs {
        Jobs { control: Arc::new(SearchControl::default()), thread: None, job: Job::Search, busy: Busy::default() }
    }

    /// What the last job started was.
    pub(crate) fn job(&self) -> Job {
        self.job
    }

    /// Whether a job runs and has not yet begun its last line (see [`Busy`]).
    pub(crate) fn running(&self) -> bool {
        self.busy.is_set()
    }

    /// What runs, for refusals: "searching", "running perft", "running bench".
    pub(crate) fn doing(&self) -> String {
        match self.job {
            Job::Search => "searching".to_string(),
            job => format!("running {}", job.noun()),
        }
    }

    /// Whether a job runs that will not end by itself soon. A job that was told to stop is
    /// waited for (that takes milliseconds), so `stop` followed at once by `position` and
    /// `go` works as a GUI expects.
    pub(crate) fn in_the_way(&mut self) -> bool {
        if !self.running() {
            return false;
        }
        if self.control.stop_requested() {
            self.wait();
            return false;
        }
        true
    }

    /// `stop`: asks the running job to end (it ends by itself).
    pub(crate) fn stop(&self) {
        self.control.stop();
    }

    /// `ponderhit`.
    pub(crate) fn ponderhit(&self) {
        self.control.ponderhit();
    }

    /// Stops the running job and waits for its thread to end.
    pub(crate) fn stop_and_wait(&mut self) {
        self.control.stop();
        self.wait();
    }

    /// Waits for the thread of the last job to end.
    pub(crate) fn wait(&mut self) {
        if let Some(h) = self.thread.take() {
            let _ = h.join();
        }
    }

    /// Starts `work` on the background thread as the running `job` (after the last one ended;
    /// pondering if `ponder`). `work` clears the [`Busy`] flag just before its last line.
    pub(crate) fn spawn(
        &mut self,
        job: Job,
        ponder: bool,
        work: impl FnOnce(&SearchControl, &Busy) + Send + 'static,
    ) -> std::io::Result<()> {
        self.wait();
        // Reset before the thread starts, so a `stop` read right after is never lost.
        self.control.reset(ponder);
        self.job = job;
        self.busy.set(true);
        let control = Arc::clone(&self.control);
        let busy = self.busy.clone();
        let spawned = std::thread::Builder::new()
            .name(job.noun().into())
            .stack_size(cutoff_search::STACK_SIZE)
            .spawn(move || work(&control, &busy));
        match spawned {
            Ok(h) => {
                self.thread = Some(h);
                Ok(())
            }
            Err(e) => {
                self.busy.clear();
                Err(e)
            }
        }
    }
}

/// What a search prints besides the standard `info` fields.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Verbosity {
    /// `debug on`: search statistics before `bestmove`.
    pub(crate) debug: bool,
    /// `UCI_ShowWDL`: `wdl W D L` after the score.
    pub(crate) show_wdl: bool,
}

/// A search as `go` asked for it: everything its thread owns.
pub(crate) struct SearchJob {
    pub(crate) engine: Arc<Mutex<Engine>>,
    pub(crate) out: Output,
    pub(crate) board: Board,
    /// Keys of the positions before `board`, oldest first.
    pub(crate) history: Vec<u64>,
    pub(crate) limits: Limits,
    pub(crate) verbosity: Verbosity,
    /// At limited strength: the level and the generator of its move choice.
    pub(crate) weakened: Option<(strength::Level, Arc<Mutex<strength::Rng>>)>,
}

impl SearchJob {
    /// Searches, prints the `info` lines as they come, then the final lines and `bestmove`.
    pub(crate) fn run(self, control: &SearchControl, busy: &Busy) {
        let SearchJob { engine, out, board, history, limits, verbosity, weakened } = self;
        let mut guard = match engine.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        let options = guard.options();
        let lines = weakened.as_ref().map(|(level, _)| level.lines());
        let recorder = Recorder::new(&board, verbosity.show_wdl, options.multipv, lines);
        if let Some(lines) = lines {
            // Limited strength may choose among more lines than MultiPV shows.
            guard.set_options(cutoff_search::SearchOptions { multipv: options.multipv.max(lines), ..options });
        }
        let result = guard.search(&board, &history, &limits, control, &|r| recorder.report(r, &out));
        guard.set_options(options);
        // Tables found broken when first read during this search: say so (they are left out).
        for problem in guard.tablebases().map(|tb| tb.take_new_problems()).unwrap_or_default() {
            out.line(&format!("info string syzygy: {}", truncate(&problem.to_string())));
        }
        drop(guard);
        // In `go infinite` and while pondering, bestmove waits for `stop` (or `ponderhit`).
        control.wait_for_release(limits.infinite);
        let chosen = weakened.as_ref().and_then(|(level, rng)| recorder.choose(level, rng));
        let Some(best) = chosen.or(result.best_move) else {
            // No legal move: checkmated (mate 0) or stalemated (a draw).
            out.line(if board.in_check() { "info depth 0 score mate 0" } else { "info depth 0 score cp 0" });
            busy.clear();
            out.line("bestmove 0000");
            return;
        };
        out.lines(&recorder.final_lines(best, &result));
        if verbosity.debug {
            out.line(&lines::stats_line(&result.stats));
        }
        let line = lines::bestmove_line(&board, best, &result);
        busy.clear();
        out.line(&line);
    }
}

/// Below this many plies `go perft` calls the board crate's perft in one piece; above, it
/// walks the tree itself and checks the stop flag at every node, which bounds the time
/// `stop` and `quit` wait. Over the 28,484 slices of `data/perft` (each suite position and
/// each of its children), a perft of 3 plies took at most 0.16 ms in a release build and
/// 0.21 ms in the test build (median 0.05 ms); a slice of 4 plies would be about 40 times
/// longer. Walking the top of the tree here costs about 1% of perft speed.
const PERFT_SLICE: u32 = 3;

/// The leaf count `depth` plies below `board`, or `None` if `stopped()` became true first.
pub fn perft_until(board: &Board, depth: u32, stopped: &impl Fn() -> bool) -> Option<u64> {
    if stopped() {
        return None;
    }
    if depth <= PERFT_SLICE {
        return Some(board.perft(depth));
    }
    let mut nodes = 0;
    for mv in board.legal_moves() {
        let mut child = *board;
        child.play_unchecked(mv);
        nodes += perft_until(&child, depth - 1, stopped)?;
    }
    Some(nodes)
}

/// `go perft N`: the divide line of each root move as soon as it is counted, then the
/// total. `stop` ends it within a few milliseconds (see [`perft_until`]).
pub(crate) fn perft(board: &Board, depth: u32, control: &SearchControl, out: &Output, busy: &Busy) {
    let start = std::time::Instant::now();
    let stopped = || control.stop_requested();
    let moves = board.legal_moves();
    let (mut total, mut counted) = (0, 0);
    let mut complete = true;
    if depth == 0 {
        total = 1;
    } else {
        // The same order and lines as `Board::divide`, each printed as soon as it is known.
        for &mv in &moves {
            let mut child = *board;
            child.play_unchecked(mv);
            let Some(n) = perft_until(&child, depth - 1, &stopped) else {
                complete = false;
                break;
            };
            out.line(&format!("{}: {n}", board.uci(mv)));
            total += n;
            counted += 1;
        }
    }
    log::info!("perft {depth}: {total} nodes in {:?} (complete: {complete})", start.elapsed());
    busy.clear();
    out.line("");
    if complete {
        out.line(&format!("Nodes searched: {total}"));
    } else {
        out.line(&format!(
            "info string perft {depth} stopped after {counted} of {} root moves: {total} nodes counted so far, no total",
            moves.len()
        ));
    }
}

/// `bench [depth]` with the network in use (`None`: the hand-crafted evaluation); `stop`
/// ends it within milliseconds.
pub(crate) fn bench(
    depth: u32,
    network: Option<Arc<cutoff_nnue::Network>>,
    control: &SearchControl,
    out: &Output,
    busy: &Busy,
) {
    let r = run_bench_until(depth, Default::default(), network, control, |l| out.line(&format!("info string {l}")));
    busy.clear();
    if r.stopped {
        out.line(&format!(
            "info string bench stopped after {} of {} positions: {} nodes {} nps so far, no total",
            r.positions,
            bench::bench_positions(),
            r.nodes,
            r.nps()
        ));
    } else {
        // OpenBench reads this line: keep its format.
        out.line(&format!("{} nodes {} nps", r.nodes, r.nps()));
    }
}

#[cfg(test)]
mod tests {
    use cutoff_board::{CastlingMode, STARTPOS_FEN};

    use super::*;

    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

    #[test]
    fn perft_until_counts_like_perft_and_stops() {
        for (fen, depth) in [(STARTPOS_FEN, 5), (KIWIPETE, 4), ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5)] {
            let board = Board::from_fen(fen, CastlingMode::Standard).unwrap();
            for d in 0..=depth {
                assert_eq!(perft_until(&board, d, &|| false), Some(board.perft(d)), "{fen} depth {d}");
            }
        }
        let board = Board::default();
        assert_eq!(perft_until(&board, 9, &|| true), None);
        // A stop that comes while it runs is seen between slices.
        let calls = std::cell::Cell::new(0);
        let stop_after_ten = || {
            calls.set(calls.get() + 1);
            calls.get() > 10
        };
        assert_eq!(perft_until(&board, 9, &stop_after_ten), None);
        assert_eq!(calls.get(), 11);
    }

    #[test]
    fn a_stopped_bench_says_so() {
        let control = SearchControl::default();
        control.reset(false);
        control.stop();
        let r = run_bench_until(20, Default::default(), None, &control, |_| {});
        assert!(r.stopped);
        assert_eq!((r.positions, r.nodes), (0, 0));
    }

    #[test]
    fn a_job_runs_on_its_thread_until_stopped() {
        let mut jobs = Jobs::new();
        let (tx, rx) = std::sync::mpsc::channel();
        let work = move |control: &SearchControl, busy: &Busy| {
            control.wait_for_release(true);
            busy.clear();
            let _ = tx.send(());
        };
        jobs.spawn(Job::Perft, false, work).unwrap();
        assert!(jobs.running() && jobs.in_the_way());
        assert_eq!(jobs.doing(), "running perft");
        jobs.stop();
        // A stopped job is not in the way of the next one.
        assert!(!jobs.in_the_way());
        jobs.wait();
        assert!(rx.try_recv().is_ok());
        assert!(!jobs.running());
    }
}
