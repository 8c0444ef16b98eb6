//! Cutoff's UCI front-end.
//!
//! [`Uci::run`] reads commands line by line and never blocks on a long command: `go`, `go
//! perft` and `bench` run on their own thread (one at a time), and `isready`, `stop`,
//! `ponderhit` and `quit` are answered at once while it runs. `stop` ends a perft or a bench
//! within milliseconds, printing what was counted so far. Every output line is written whole
//! and flushed. Bad input gets one `info string` line saying what was wrong, and the
//! previous valid state is kept; a `go` whose parameters cannot all be read never turns into
//! a search without an end (see [`Uci::handle`]).
//!
//! This file holds the command loop and the state it keeps; the private modules hold the
//! rest: `options` (every UCI option, one table entry each), `go` (reading `go` into
//! search limits), `jobs` (the background thread and what a search, a perft and a bench do
//! on it), `lines` (what a search prints), `bench`, `network` (`UseNNUE`, `EvalFile`) and
//! `strength` (`UCI_LimitStrength`).
#![warn(missing_docs)]

mod bench;
mod go;
mod jobs;
mod lines;
mod network;
mod options;
pub mod strength;

pub use bench::{
    BENCH_FENS, BENCH_HASH_MIB, BenchResult, DEFAULT_BENCH_DEPTH, ENDGAME_BENCH_FENS, run_bench, run_bench_on,
    run_bench_until,
};
pub use go::{GoError, parse_go};
pub use jobs::perft_until;
pub use lines::info_line;
pub use network::{LoadError, USE_NNUE_DEFAULT, default_network, embedded_network, embeds_network, load_network};
pub use options::option_lines;

use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

use cutoff_board::{Board, CastlingMode, STARTPOS_FEN};
use cutoff_search::{Engine, SearchControl};

use jobs::{Busy, Job, Jobs};
use network::Networks;
use strength::Strength;

/// The engine name and version sent in `id name`.
pub const ENGINE_NAME: &str = concat!("Cutoff ", env!("CARGO_PKG_VERSION"));

/// What the binary says about its build (version, commit, instruction level, network), sent as
/// `info string` after `id author`; see [`set_build_info`].
static BUILD_INFO: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Sets the line that the `uci` handshake sends as `info string <info>` after `id author`, so
/// that a GUI's log says exactly which build ran. The first call wins; without one, no line.
///
/// ```
/// cutoff_uci::set_build_info("0.1.0 (commit 0123456789ab, x86-64-v3, network none)");
/// ```
pub fn set_build_info(info: impl Into<String>) {
    let _ = BUILD_INFO.set(info.into());
}

/// Where UCI output goes: whole lines, flushed one by one.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    /// Output to `writer` (stdout for the engine, a buffer in tests).
    pub fn new(writer: impl Write + Send + 'static) -> Output {
        Output(Arc::new(Mutex::new(Box::new(writer))))
    }

    /// Writes one line and flushes it. Write errors (a closed pipe) are ignored: the GUI is gone.
    pub fn line(&self, text: &str) {
        self.lines(&[text]);
    }

    /// Writes lines that belong together (the lines of a MultiPV set) in one write, then
    /// flushes them: no other output comes between them, and a reader gets them at once.
    pub fn lines(&self, lines: &[impl AsRef<str>]) {
        let mut text = String::new();
        for line in lines {
            text.push_str(line.as_ref());
            text.push('\n');
        }
        let mut w = match self.0.lock() {
            Ok(w) => w,
            Err(poisoned) => poisoned.into_inner(),
        };
        let _ = w.write_all(text.as_bytes());
        let _ = w.flush();
    }
}

impl std::fmt::Debug for Output {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Output")
    }
}

/// The protocol state: the current position, options, the engine and the running job (a
/// search, perft or bench).
pub struct Uci {
    out: Output,
    /// The engine; the running search holds its lock.
    engine: Arc<Mutex<Engine>>,
    /// The background thread of the long commands, and its signals.
    jobs: Jobs,
    position: Position,
    settings: Settings,
    strength: Strength,
    book: OwnBook,
    networks: Networks,
}

/// The position `position` set.
struct Position {
    board: Board,
    /// Keys of the positions before `board`, oldest first.
    history: Vec<u64>,
    /// Whether `position` was ever accepted (a `go` before it searches the start position).
    set: bool,
}

/// The options and switches that the front-end reads itself (the engine's own are in its
/// `SearchOptions`).
#[derive(Default)]
struct Settings {
    /// `UCI_Chess960`: how FENs and moves are read and written.
    chess960: bool,
    /// `Ponder` (the GUI's business; only logged).
    ponder: bool,
    /// `debug on`.
    debug: bool,
    /// `UCI_ShowWDL`: `wdl` in the `info` lines.
    show_wdl: bool,
}

/// `OwnBook` and the book `BookFile` loaded.
struct OwnBook {
    /// `OwnBook`: play from the book when it has a move.
    on: bool,
    book: Option<cutoff_book::Book>,
    /// The book's move choice, seeded once per process (so a run is reproducible, and
    /// successive games of one process still vary).
    rng: cutoff_book::BookRng,
}

impl std::fmt::Debug for Uci {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Uci").field("board", &self.position.board).finish_non_exhaustive()
    }
}

/// The seed of the book's move choice.
const BOOK_SEED: u64 = 0x00C0_FFEE;

impl Uci {
    /// A new front-end writing to `out`, with default options (16 MiB hash, 1 thread) and the
    /// network embedded in the binary, if any ([`embedded_network`]).
    pub fn new(out: Output) -> Uci {
        Uci::with_embedded_network(out, embedded_network())
    }

    /// A new front-end as [`Uci::new`], whose built-in network is `embedded` instead of the
    /// binary's: the one a new engine evaluates with (when [`USE_NNUE_DEFAULT`]) and the one
    /// `setoption name EvalFile value <empty>` selects. `None` behaves as a build that embeds
    /// no network.
    ///
    /// ```
    /// use std::sync::{Arc, Mutex};
    /// use cutoff_uci::{Output, Uci};
    ///
    /// #[derive(Clone, Default)]
    /// struct Lines(Arc<Mutex<Vec<u8>>>);
    /// impl std::io::Write for Lines {
    ///     fn write(&mut self, b: &[u8]) -> std::io::Result<usize> { self.0.lock().unwrap().write(b) }
    ///     fn flush(&mut self) -> std::io::Result<()> { Ok(()) }
    /// }
    /// let lines = Lines::default();
    /// let mut uci = Uci::with_embedded_network(Output::new(lines.clone()), None);
    /// uci.handle("setoption name EvalFile value <empty>");
    /// let out = String::from_utf8(lines.0.lock().unwrap().clone()).unwrap();
    /// assert_eq!(out, "info string network: this build embeds none\n");
    /// ```
    pub fn with_embedded_network(out: Output, embedded: Option<Arc<cutoff_nnue::Network>>) -> Uci {
        let mut engine = match Engine::new(options::DEFAULT_HASH, Default::default()) {
            Ok(e) => e,
            Err(e) => unreachable!("the default hash size is valid: {e}"),
        };
        let networks = Networks::new(embedded);
        engine.set_network(networks.in_use());
        Uci {
            out,
            engine: Arc::new(Mutex::new(engine)),
            jobs: Jobs::new(),
            position: Position { board: Board::default(), history: Vec::new(), set: false },
            settings: Settings::default(),
            strength: Strength::new(),
            book: OwnBook { on: false, book: None, rng: cutoff_book::BookRng::new(BOOK_SEED) },
            networks,
        }
    }

    fn info(&self, text: &str) {
        self.out.line(&format!("info string {text}"));
    }

    /// Reads and handles commands until `quit` or the end of the input.
    ///
    /// `quit` stops whatever runs. At the end of the input a search is stopped too (nobody is
    /// left to send `stop` to a `go infinite`), but a perft or a bench, which end by
    /// themselves, are finished first: `echo "go perft 6" | cutoff` prints the whole count.
    pub fn run(&mut self, input: impl BufRead) {
        let mut quit = false;
        for line in input.lines() {
            let Ok(line) = line else {
                self.info("input is not valid UTF-8; line ignored");
                continue;
            };
            if !self.handle(&line) {
                quit = true;
                break;
            }
        }
        if !quit && self.jobs.job() != Job::Search {
            self.jobs.wait();
        }
        self.jobs.stop_and_wait();
    }

    /// Handles one command line; returns `false` on `quit`.
    ///
    /// While a job runs (a search, `go perft`, `bench`), `isready`, `stop`, `ponderhit`,
    /// `quit`, `ucinewgame` (which stops it), `d`, `eval` and `spsa` are answered at once;
    /// `position`, `go`, `bench` and `setoption` are refused with an `info string` (after
    /// `stop` they are accepted at once).
    ///
    /// A number outside the range of its `go` parameter (`go depth 9999`, `go wtime -5`) is
    /// brought into the range. A `go` with a parameter that cannot be read (`go depth abc`,
    /// an unknown word) is answered with one `info string` and searched with the
    /// parameters that could be read, if they still end the search by themselves (a depth,
    /// node, time, mate or clock limit, or an explicit `infinite`). If they do not, it is
    /// searched to depth 1 only (milliseconds), so that a legal `bestmove` comes at once
    /// and a GUI that never sends `stop` is not left waiting.
    pub fn handle(&mut self, line: &str) -> bool {
        log::debug!("<< {line}");
        let line = line.trim();
        let mut tokens = line.split_whitespace();
        let Some(command) = tokens.next() else { return true };
        let rest: Vec<&str> = tokens.collect();
        match command {
            "uci" => {
                self.out.line(&format!("id name {ENGINE_NAME}"));
                self.out.line("id author The Cutoff developers");
                if let Some(info) = BUILD_INFO.get() {
                    self.out.line(&format!("info string {info}"));
                }
                for line in options::option_lines() {
                    self.out.line(&line);
                }
                self.out.line("uciok");
            }
            "isready" => self.out.line("readyok"),
            "ucinewgame" => {
                self.jobs.stop_and_wait();
                self.with_engine(|e| e.clear());
                self.position.board =
                    Board::from_fen(STARTPOS_FEN, CastlingMode::from_chess960(self.settings.chess960))
                        .unwrap_or_default();
                self.position.history.clear();
            }
            "position" => self.position(&rest),
            "go" => self.go(&rest),
            "stop" => self.jobs.stop(),
            "ponderhit" => self.jobs.ponderhit(),
            "quit" => return false,
            "setoption" => self.setoption(&rest),
            "debug" => match rest.first() {
                Some(&"on") => self.settings.debug = true,
                Some(&"off") => self.settings.debug = false,
                _ => self.info("debug takes 'on' or 'off'"),
            },
            "d" => {
                let board = &self.position.board;
                for l in board.to_string().lines() {
                    self.out.line(l);
                }
                self.out.line(&format!("Key: {:016X}", board.key()));
                self.out.line(&format!("Checkers: {}", squares(board.checkers())));
            }
            "spsa" => {
                for l in cutoff_search::spsa_config().lines() {
                    self.out.line(l);
                }
            }
            "eval" => self.eval(),
            "bench" => self.bench(&rest),
            _ => self.info(&format!("unknown command: {}", truncate(line))),
        }
        true
    }

    fn with_engine<T>(&self, f: impl FnOnce(&mut Engine) -> T) -> T {
        let mut guard = match self.engine.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        f(&mut guard)
    }

    /// Starts `work` on the background thread as the running `job`; `false` if the thread
    /// could not be started (the caller answers for it).
    fn start(&mut self, job: Job, ponder: bool, work: impl FnOnce(&SearchControl, &Busy) + Send + 'static) -> bool {
        match self.jobs.spawn(job, ponder, work) {
            Ok(()) => true,
            Err(e) => {
                self.info(&format!("could not start the {} thread: {e}", job.noun()));
                false
            }
        }
    }

    fn position(&mut self, args: &[&str]) {
        if self.jobs.in_the_way() {
            self.info(&format!("position ignored: a {} is running (send stop first)", self.jobs.job().noun()));
            return;
        }
        let (fen, moves): (String, &[&str]) = match args.first() {
            Some(&"startpos") => {
                let moves = match args.get(1) {
                    None => &[][..],
                    Some(&"moves") => &args[2..],
                    Some(other) => {
                        self.info(&format!("position: expected 'moves' after 'startpos', found '{}'", truncate(other)));
                        return;
                    }
                };
                (STARTPOS_FEN.to_string(), moves)
            }
            Some(&"fen") => {
                let end = args.iter().position(|&t| t == "moves").unwrap_or(args.len());
                let moves = if end < args.len() { &args[end + 1..] } else { &[][..] };
                (args[1..end].join(" "), moves)
            }
            _ => {
                self.info("position: expected 'startpos' or 'fen <FEN>'");
                return;
            }
        };
        let mut board = match Board::from_fen(&fen, CastlingMode::from_chess960(self.settings.chess960)) {
            Ok(b) => b,
            Err(e) => {
                self.info(&format!("position: bad FEN '{}': {e}; position unchanged", truncate(&fen)));
                return;
            }
        };
        let mut history = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            match board.parse_uci(text) {
                Ok(mv) => {
                    history.push(board.key());
                    board.play_unchecked(mv);
                }
                Err(e) => {
                    self.info(&format!(
                        "position: move {} '{}' rejected ({e}) in {}; position unchanged",
                        i + 1,
                        truncate(text),
                        board.fen()
                    ));
                    return;
                }
            }
        }
        // Only positions since the last irreversible move matter for repetitions.
        let keep = (board.halfmove_clock() as usize).min(history.len());
        history.drain(..history.len() - keep);
        self.position = Position { board, history, set: true };
    }

    /// `eval`: the evaluation the search uses comes first, labelled "in use"; the other one
    /// follows, labelled "not in use" (the hand-crafted one with its terms).
    fn eval(&self) {
        let board = &self.position.board;
        let white = |cp: i32| if board.side_to_move() == cutoff_board::Color::White { cp } else { -cp };
        let trace = cutoff_eval::trace(board);
        let in_use = self.with_engine(|e| e.network().cloned());
        let hand_crafted = white(trace.eval());
        match &in_use {
            Some(net) => {
                let cp = white(net.evaluate(board));
                self.out.line(&format!("NNUE evaluation: {cp} cp (White's view), in use"));
                self.out.line(&format!(
                    "Hand-crafted evaluation: {hand_crafted} cp (White's view), not in use (UseNNUE is on); its terms:"
                ));
            }
            None => {
                let why =
                    if !self.networks.use_nnue { "UseNNUE is off" } else { "UseNNUE is on but no network is loaded" };
                self.out.line(&format!(
                    "Hand-crafted evaluation: {hand_crafted} cp (White's view), in use ({why}); its terms:"
                ));
            }
        }
        for l in trace.to_string().lines() {
            match l.strip_prefix("Evaluation ") {
                Some(rest) => self.out.line(&format!("Hand-crafted evaluation {rest}")),
                None => self.out.line(l),
            }
        }
        if in_use.is_none()
            && let Some(net) = &self.networks.selected
        {
            let cp = white(net.evaluate(board));
            self.out.line(&format!("NNUE evaluation: {cp} cp (White's view), not in use (UseNNUE is off)"));
        }
    }

    /// `bench [depth]` on the background thread; `stop` ends it within milliseconds.
    fn bench(&mut self, args: &[&str]) {
        if self.jobs.in_the_way() {
            self.info(&format!("bench ignored: a {} is running", self.jobs.job().noun()));
            return;
        }
        let depth = match args.first().map(|d| d.parse::<u32>()) {
            None => DEFAULT_BENCH_DEPTH,
            Some(Ok(d)) if (1..=64).contains(&d) => d,
            Some(_) => {
                self.info("bench takes a depth from 1 to 64");
                return;
            }
        };
        let out = self.out.clone();
        let network = self.with_engine(|e| e.network().cloned());
        self.start(Job::Bench, false, move |control, busy| jobs::bench(depth, network, control, &out, busy));
    }
}

fn squares(bb: cutoff_board::Bitboard) -> String {
    let v: Vec<String> = bb.into_iter().map(|s| s.to_string()).collect();
    if v.is_empty() { "-".into() } else { v.join(" ") }
}

/// Shortens user input echoed in error messages.
fn truncate(text: &str) -> String {
    if text.chars().count() > 80 { format!("{}...", text.chars().take(80).collect::<String>()) } else { text.into() }
}
