//! `bench`: a fixed-depth search of fixed positions, for a deterministic node count.

use std::sync::Arc;
use std::time::{Duration, Instant};

use cutoff_board::{Board, CastlingMode};
use cutoff_search::{Engine, Limits, SearchControl, SearchOptions, Stats};

/// The bench positions (Stockfish's bench list, standard chess), embedded in the binary.
pub const BENCH_FENS: &str = include_str!("bench.epd");

/// Endgame positions for measuring the cost of tablebase probes (`cutoff bench --endgames`):
/// 24 five-piece positions whose captures and pawn moves lead into the 3-4 piece tables, and
/// 4 four-piece positions (the root ranking). Random legal positions, White to move, not in
/// check; generated once (`scripts/syzygy_check.py`'s position generator, seed 2026).
pub const ENDGAME_BENCH_FENS: &str = include_str!("bench_endgames.epd");

/// The default bench depth.
pub const DEFAULT_BENCH_DEPTH: u32 = 9;

/// The bench hash size in MiB.
pub const BENCH_HASH_MIB: usize = 16;

/// The outcome of a bench run.
#[derive(Clone, Debug)]
pub struct BenchResult {
    /// Total nodes over all positions.
    pub nodes: u64,
    /// Total search time.
    pub time: Duration,
    /// Statistics summed over all positions.
    pub stats: Stats,
    /// Number of positions searched.
    pub positions: usize,
    /// Whether a stop cut the bench short (see [`run_bench_until`]): the figures are then
    /// those of the positions searched to the end before it.
    pub stopped: bool,
    /// Tablebase hits (0 without tables).
    pub tbhits: u64,
}

impl BenchResult {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.time.as_secs_f64().max(1e-9)) as u64
    }
}

/// The number of bench positions.
pub(crate) fn bench_positions() -> usize {
    bench_lines().count()
}

fn bench_lines() -> impl Iterator<Item = &'static str> {
    fen_lines(BENCH_FENS)
}

fn fen_lines(fens: &str) -> impl Iterator<Item = &str> {
    fens.lines().map(str::trim).filter(|l| !l.is_empty())
}

/// Searches every bench position to `depth` with a fresh single-threaded engine and a
/// 16 MiB table, evaluating as a new engine does ([`default_network`](crate::default_network)):
/// the node count depends only on the build. `options` may switch ordering or search
/// features (threads are forced to 1). `progress` gets each position's line.
pub fn run_bench(depth: u32, options: SearchOptions, progress: impl FnMut(&str)) -> BenchResult {
    let control = SearchControl::default();
    control.reset(false);
    run_bench_until(depth, options, crate::default_network(), &control, progress)
}

/// [`run_bench`] that [`SearchControl::stop`] on `control` ends within milliseconds (the
/// search in progress stops, and no further position is searched; the result then says
/// `stopped`). `control` must have been [`reset`](SearchControl::reset) by the caller; it
/// is not reset between positions, so a stop is never lost.
/// The search evaluates with `network` (`None`: the hand-crafted evaluation).
pub fn run_bench_until(
    depth: u32,
    options: SearchOptions,
    network: Option<Arc<cutoff_nnue::Network>>,
    control: &SearchControl,
    progress: impl FnMut(&str),
) -> BenchResult {
    run_bench_on(BENCH_FENS, depth, options, None, network, control, progress)
}

/// [`run_bench`] on other positions (one FEN a line, such as [`ENDGAME_BENCH_FENS`]), with
/// Syzygy tablebases if given (`cutoff bench --endgames [--syzygy DIR]` compares the speed of
/// the search with and without probes) and the evaluation network if given (`None`: the
/// hand-crafted evaluation).
///
/// ```
/// use cutoff_search::SearchOptions;
/// use cutoff_uci::{ENDGAME_BENCH_FENS, run_bench_on};
/// let control = cutoff_search::SearchControl::default();
/// control.reset(false);
/// let r = run_bench_on(ENDGAME_BENCH_FENS, 2, SearchOptions::default(), None, None, &control, |_| {});
/// assert_eq!((r.positions, r.tbhits), (28, 0));
/// ```
pub fn run_bench_on(
    fens: &str,
    depth: u32,
    options: SearchOptions,
    tablebases: Option<Arc<cutoff_syzygy::Tablebases>>,
    network: Option<Arc<cutoff_nnue::Network>>,
    control: &SearchControl,
    mut progress: impl FnMut(&str),
) -> BenchResult {
    let options = SearchOptions { threads: 1, multipv: 1, ..options };
    let mut engine = match Engine::new(BENCH_HASH_MIB, options) {
        Ok(e) => e,
        Err(e) => unreachable!("16 MiB is a valid hash size: {e}"),
    };
    engine.set_tablebases(tablebases);
    engine.set_network(network);
    let mut result = BenchResult {
        nodes: 0,
        time: Duration::ZERO,
        stats: Stats::default(),
        positions: 0,
        stopped: false,
        tbhits: 0,
    };
    for (i, fen) in fen_lines(fens).enumerate() {
        if control.stop_requested() {
            result.stopped = true;
            break;
        }
        let Ok(board) = Board::from_fen(fen, CastlingMode::Standard) else {
            progress(&format!("position {}: invalid FEN {fen}", i + 1));
            continue;
        };
        let start = Instant::now();
        let r = engine.search(&board, &[], &Limits::depth(depth), control, &|_| {});
        let time = start.elapsed();
        if control.stop_requested() {
            // Cut short (or finished just as the stop came): not a full count, left out.
            result.stopped = true;
            break;
        }
        result.nodes += r.nodes;
        result.time += time;
        result.stats.add(&r.stats);
        result.tbhits += r.tbhits;
        result.positions += 1;
        let best = r.best_move.map_or_else(|| "(none)".to_string(), |m| board.uci(m).to_string());
        progress(&format!("position {:2}: {:>10} nodes  bestmove {best:6} {fen}", i + 1, r.nodes));
    }
    result
}
