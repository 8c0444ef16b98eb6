//! Cutoff's UCI front-end.
//!
//! [`Uci::run`] reads commands line by line and never blocks on a long command: `go`, `go
//! perft` and `bench` run on their own thread (one at a time), and `isready`, `stop`,
//! `ponderhit` and `quit` are answered at once while it runs. `stop` ends a perft or a bench
//! within milliseconds, printing what was counted so far. Every output line is written whole
//! and flushed. Bad input gets one `info string` line saying what was wrong, and the
//! previous valid state is kept; a `go` whose parameters cannot all be read never turns into
//! a search without an end (see [`Uci::handle`]).
#![warn(missing_docs)]

mod bench;
mod lines;
mod network;
mod options;
mod strength;

pub use bench::{
    BENCH_FENS, BENCH_HASH_MIB, BenchResult, DEFAULT_BENCH_DEPTH, ENDGAME_BENCH_FENS, run_bench, run_bench_on,
    run_bench_until,
};
pub use network::{LoadError, USE_NNUE_DEFAULT, default_network, embedded_network, embeds_network, load_network};

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use cutoff_board::{Board, CastlingMode, Move, STARTPOS_FEN};
use cutoff_search::{Engine, IterationInfo, Limits, SearchControl, UciScore};
use cutoff_tt::Bound;

use lines::Recorder;
use options::{EngineOption, OPTIONS, OptionValue};

/// The engine name and version sent in `id name`.
pub const ENGINE_NAME: &str = concat!("Cutoff ", env!("CARGO_PKG_VERSION"));

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

/// The long commands that run on the background thread, one at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Job {
    /// `go`: a search, ended by `bestmove`.
    Search,
    /// `go perft N`: ended by `Nodes searched: N` (or a line saying it was stopped).
    Perft,
    /// `bench [depth]`: ended by `N nodes M nps` (or a line saying it was stopped).
    Bench,
}

impl Job {
    fn noun(self) -> &'static str {
        match self {
            Job::Search => "search",
            Job::Perft => "perft",
            Job::Bench => "bench",
        }
    }
}

/// The protocol state: the current position, options, the engine and the running job (a
/// search, perft or bench).
pub struct Uci {
    out: Output,
    engine: Arc<Mutex<Engine>>,
    /// The stop (and ponder) signal of the running job.
    control: Arc<SearchControl>,
    /// The background thread of the last job, until joined.
    search: Option<JoinHandle<()>>,
    /// What the last job started was.
    job: Job,
    /// True from the start of a job until just before its last line (`bestmove`, the perft
    /// or bench total) is written, so a command sent in reply to that line is never refused
    /// as "searching" while the thread winds down.
    busy: Arc<AtomicBool>,
    board: Board,
    /// Keys of the positions before `board`, oldest first.
    history: Vec<u64>,
    position_set: bool,
    chess960: bool,
    ponder_option: bool,
    debug: bool,
    /// `UCI_ShowWDL`: `wdl` in the `info` lines.
    show_wdl: bool,
    /// `UCI_LimitStrength`.
    limit_strength: bool,
    /// `UCI_Elo` (used when `limit_strength` is on).
    elo: i64,
    /// The seeded generator of the limited-strength move choice (one per process).
    strength_rng: Arc<Mutex<strength::Rng>>,
    /// `OwnBook`: play from the book when it has a move.
    own_book: bool,
    /// The book loaded from `BookFile`, if any.
    book: Option<cutoff_book::Book>,
    /// The book's move choice, seeded once per process (so a run is reproducible, and
    /// successive games of one process still vary).
    book_rng: cutoff_book::BookRng,
    /// `UseNNUE`: evaluate with `network` (when there is one).
    use_nnue: bool,
    /// The network `EvalFile` selected: the embedded one by default, if the build has one.
    network: Option<Arc<cutoff_nnue::Network>>,
    /// The built-in network (the binary's embedded one, if any), which `EvalFile <empty>`
    /// selects.
    embedded: Option<Arc<cutoff_nnue::Network>>,
}

impl std::fmt::Debug for Uci {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Uci").field("board", &self.board).finish_non_exhaustive()
    }
}

/// The seed of the book's move choice.
const BOOK_SEED: u64 = 0x00C0_FFEE;

/// The seed of the limited-strength move choice.
const STRENGTH_SEED: u64 = 0x5EED_1320;

/// Stack size of the search thread (the recursion keeps a move picker per ply).
const SEARCH_STACK: usize = 64 << 20;

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
        engine.set_network(if USE_NNUE_DEFAULT { embedded.clone() } else { None });
        Uci {
            out,
            engine: Arc::new(Mutex::new(engine)),
            control: Arc::new(SearchControl::default()),
            search: None,
            job: Job::Search,
            busy: Arc::new(AtomicBool::new(false)),
            board: Board::default(),
            history: Vec::new(),
            position_set: false,
            chess960: false,
            ponder_option: false,
            debug: false,
            show_wdl: false,
            limit_strength: false,
            elo: strength::DEFAULT_ELO,
            strength_rng: Arc::new(Mutex::new(strength::Rng::new(STRENGTH_SEED))),
            own_book: false,
            book: None,
            book_rng: cutoff_book::BookRng::new(BOOK_SEED),
            use_nnue: USE_NNUE_DEFAULT,
            network: embedded.clone(),
            embedded,
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
        if !quit
            && self.job != Job::Search
            && let Some(h) = self.search.take()
        {
            let _ = h.join();
        }
        self.stop_search();
    }

    fn searching(&self) -> bool {
        self.busy.load(Ordering::SeqCst)
    }

    /// What runs, for refusals: "searching", "running perft", "running bench".
    fn running(&self) -> String {
        match self.job {
            Job::Search => "searching".to_string(),
            job => format!("running {}", job.noun()),
        }
    }

    /// Whether a job (search, perft, bench) is running that will not end by itself soon. A
    /// job that was told to stop is waited for (that takes milliseconds), so `stop` followed
    /// at once by `position` and `go` works as a GUI expects.
    fn busy_searching(&mut self) -> bool {
        if !self.searching() {
            return false;
        }
        if self.control.stop_requested() {
            if let Some(h) = self.search.take() {
                let _ = h.join();
            }
            return false;
        }
        true
    }

    fn stop_search(&mut self) {
        self.control.stop();
        if let Some(h) = self.search.take() {
            let _ = h.join();
        }
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
                for opt in OPTIONS {
                    self.out.line(&opt.uci_line());
                }
                if cfg!(feature = "tune") {
                    for p in cutoff_search::params() {
                        let (name, default, min, max) = (p.name, p.default, p.min, p.max);
                        self.out.line(&format!("option name {name} type spin default {default} min {min} max {max}"));
                    }
                }
                self.out.line("uciok");
            }
            "isready" => self.out.line("readyok"),
            "ucinewgame" => {
                self.stop_search();
                self.with_engine(|e| e.clear());
                self.board =
                    Board::from_fen(STARTPOS_FEN, CastlingMode::from_chess960(self.chess960)).unwrap_or_default();
                self.history.clear();
            }
            "position" => self.position(&rest),
            "go" => self.go(&rest),
            "stop" => self.control.stop(),
            "ponderhit" => self.control.ponderhit(),
            "quit" => return false,
            "setoption" => self.setoption(&rest),
            "debug" => match rest.first() {
                Some(&"on") => self.debug = true,
                Some(&"off") => self.debug = false,
                _ => self.info("debug takes 'on' or 'off'"),
            },
            "d" => {
                for l in self.board.to_string().lines() {
                    self.out.line(l);
                }
                self.out.line(&format!("Key: {:016X}", self.board.key()));
                self.out.line(&format!("Checkers: {}", squares(self.board.checkers())));
            }
            "spsa" => {
                for l in cutoff_search::spsa_config().lines() {
                    self.out.line(l);
                }
            }
            "eval" => {
                // The evaluation the search uses comes first, labelled "in use"; the other one
                // follows, labelled "not in use" (the hand-crafted one with its terms).
                let white = |cp: i32| if self.board.side_to_move() == cutoff_board::Color::White { cp } else { -cp };
                let trace = cutoff_eval::trace(&self.board);
                let in_use = self.with_engine(|e| e.network().cloned());
                let hand_crafted = white(trace.eval());
                match &in_use {
                    Some(net) => {
                        let cp = white(net.evaluate(&self.board));
                        self.out.line(&format!("NNUE evaluation: {cp} cp (White's view), in use"));
                        self.out.line(&format!(
                            "Hand-crafted evaluation: {hand_crafted} cp (White's view), not in use (UseNNUE is on); its terms:"
                        ));
                    }
                    None => {
                        let why =
                            if !self.use_nnue { "UseNNUE is off" } else { "UseNNUE is on but no network is loaded" };
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
                    && let Some(net) = &self.network
                {
                    let cp = white(net.evaluate(&self.board));
                    self.out.line(&format!("NNUE evaluation: {cp} cp (White's view), not in use (UseNNUE is off)"));
                }
            }
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

    fn position(&mut self, args: &[&str]) {
        if self.busy_searching() {
            self.info(&format!("position ignored: a {} is running (send stop first)", self.job.noun()));
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
        let mut board = match Board::from_fen(&fen, CastlingMode::from_chess960(self.chess960)) {
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
        self.board = board;
        self.history = history;
        self.position_set = true;
    }

    /// Starts `work` on the background thread as the running `job`; `false` if the thread
    /// could not be started (the caller answers for it).
    fn spawn_job(&mut self, job: Job, ponder: bool, work: impl FnOnce(&SearchControl) + Send + 'static) -> bool {
        if let Some(h) = self.search.take() {
            let _ = h.join();
        }
        // Reset before the thread starts, so a `stop` read right after is never lost.
        self.control.reset(ponder);
        self.job = job;
        self.busy.store(true, Ordering::SeqCst);
        let control = Arc::clone(&self.control);
        let spawned =
            std::thread::Builder::new().name(job.noun().into()).stack_size(SEARCH_STACK).spawn(move || work(&control));
        match spawned {
            Ok(h) => {
                self.search = Some(h);
                true
            }
            Err(e) => {
                self.busy.store(false, Ordering::SeqCst);
                self.info(&format!("could not start the {} thread: {e}", job.noun()));
                false
            }
        }
    }

    fn go(&mut self, args: &[&str]) {
        if self.busy_searching() {
            self.info(&format!("go ignored: a {} is already running", self.job.noun()));
            return;
        }
        if args.first() == Some(&"perft") {
            match args.get(1).map(|d| d.parse::<u32>()) {
                Some(Ok(depth)) if depth <= 20 => self.perft(depth),
                _ => self.info("go perft takes a depth from 0 to 20"),
            }
            return;
        }
        let limits = match parse_go(args, &self.board) {
            Ok(l) => l,
            Err(e) => {
                let mut limits = parse_go_lenient(args, &self.board);
                if limits.infinite || ends_by_itself(&limits, &self.board) {
                    self.info(&format!("go: {e}; searching with the other limits"));
                } else {
                    // Searching without any limit would need a `stop` that a GUI which sent
                    // a limit never sends: answer at once with a legal move instead.
                    self.info(&format!("go: {e}; no other limit ends the search, so searching to depth 1 only"));
                    limits.depth = Some(1);
                }
                limits
            }
        };
        if !self.position_set {
            self.info("go before position: searching the start position");
        }
        if let Some(mv) = self.book_move(&limits) {
            self.info(&format!("book move {}", self.board.uci(mv)));
            self.out.line(&format!("bestmove {}", self.board.uci(mv)));
            return;
        }
        if limits.ponder && !self.ponder_option {
            log::debug!("go ponder without the Ponder option set");
        }
        let busy = Arc::clone(&self.busy);
        let engine = Arc::clone(&self.engine);
        let out = self.out.clone();
        let board = self.board;
        let history = self.history.clone();
        let verbosity = Verbosity { debug: self.debug, show_wdl: self.show_wdl };
        let mut limits = limits;
        let level = strength::Level::new(self.elo);
        let weakened = (self.limit_strength && !level.is_full_strength()).then(|| {
            limits.nodes = Some(limits.nodes.map_or(level.nodes(), |n| n.min(level.nodes())));
            (level, Arc::clone(&self.strength_rng))
        });
        let ponder = limits.ponder;
        let work = move |control: &SearchControl| {
            search_thread(engine, control, out, board, history, limits, verbosity, weakened, busy)
        };
        if !self.spawn_job(Job::Search, ponder, work) {
            self.out.line("bestmove 0000");
        }
    }

    /// A move from the book for `go` with `limits`: only with `OwnBook` on and a book loaded,
    /// and never for `go infinite`, `go ponder` or `searchmoves` (which ask for a search).
    fn book_move(&mut self, limits: &Limits) -> Option<Move> {
        if !self.own_book || limits.infinite || limits.ponder || !limits.searchmoves.is_empty() {
            return None;
        }
        let book = self.book.as_ref()?;
        book.choose(&self.board, &mut self.book_rng)
    }

    /// `setoption name BookFile`: loads the book at once, so a bad file is reported when it
    /// is named; on failure the previous book is dropped and play goes on without one.
    fn load_book(&mut self, path: Option<String>) {
        let Some(path) = path else {
            self.book = None;
            return;
        };
        match cutoff_book::Book::open(&path) {
            Ok(book) if book.is_empty() => {
                self.book = None;
                self.info(&format!("book {}: no entries; playing without a book", truncate(&path)))
            }
            Ok(book) => {
                if self.debug {
                    self.info(&format!("book {}: {} entries", truncate(&path), book.len()));
                }
                self.book = Some(book);
            }
            // A file that cannot be used leaves the engine as it was.
            Err(e) => {
                let then = if self.book.is_some() { "the current book stays in use" } else { "playing without a book" };
                self.info(&format!("book {}: {e}; {then}", truncate(&path)));
            }
        }
    }

    /// Gives the engine the network in use: `network` with `UseNNUE` on, else none.
    fn apply_network(&mut self) {
        let network = if self.use_nnue { self.network.clone() } else { None };
        self.with_engine(|e| e.set_network(network));
    }

    /// `setoption name UseNNUE`.
    fn set_use_nnue(&mut self, on: bool) {
        self.use_nnue = on;
        if on && self.network.is_none() {
            self.info("UseNNUE: no network is loaded (this build embeds none; set EvalFile); using the hand-crafted evaluation");
        }
        self.apply_network();
    }

    /// `setoption name EvalFile`: loads the network at once, so a bad file is reported when it
    /// is named; on failure the current network stays in use. `<empty>` selects the embedded
    /// network.
    fn load_eval_file(&mut self, path: Option<String>) {
        match path {
            None => {
                self.network = self.embedded.clone();
                match &self.network {
                    Some(net) => self.info(&format!("network: the embedded one, {}", network::describe(net))),
                    None => self.info("network: this build embeds none"),
                }
            }
            Some(path) => match load_network(&path) {
                Ok(net) => {
                    self.info(&format!("network {}: {}", truncate(&path), network::describe(&net)));
                    self.network = Some(Arc::new(net));
                }
                Err(e) => {
                    self.info(&format!("EvalFile {}: {e}; the current network stays in use", truncate(&path)));
                    return;
                }
            },
        }
        self.apply_network();
    }

    /// `setoption name SyzygyPath`: opens the tables at once and says with `info string` how
    /// many were found, and what was wrong (a missing directory, a truncated or corrupt file:
    /// left out). `<empty>` unloads them.
    fn load_tablebases(&mut self, path: Option<String>) {
        self.with_engine(|e| e.set_tablebases(None));
        let Some(path) = path else { return };
        let tb = cutoff_syzygy::Tablebases::open_path(&path);
        for problem in tb.problems() {
            self.info(&format!("syzygy: {}", truncate(&problem.to_string())));
        }
        if tb.num_wdl() == 0 {
            self.info(&format!("syzygy: no tablebase files found in {}; playing without tablebases", truncate(&path)));
            return;
        }
        self.info(&format!(
            "syzygy: found {} WDL and {} DTZ tables, up to {} pieces",
            tb.num_wdl(),
            tb.num_dtz(),
            tb.max_pieces()
        ));
        self.with_engine(|e| e.set_tablebases(Some(Arc::new(tb))));
    }

    /// `go perft N` on the background thread: the divide line of each root move as soon as
    /// it is counted, then the total. `stop` ends it within a few milliseconds (see
    /// [`perft_until`]).
    fn perft(&mut self, depth: u32) {
        let out = self.out.clone();
        let busy = Arc::clone(&self.busy);
        let board = self.board;
        let work = move |control: &SearchControl| perft_thread(&board, depth, control, &out, &busy);
        self.spawn_job(Job::Perft, false, work);
    }

    /// `bench [depth]` on the background thread; `stop` ends it within milliseconds.
    fn bench(&mut self, args: &[&str]) {
        if self.busy_searching() {
            self.info(&format!("bench ignored: a {} is running", self.job.noun()));
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
        let busy = Arc::clone(&self.busy);
        let network = self.with_engine(|e| e.network().cloned());
        let work = move |control: &SearchControl| {
            let r =
                run_bench_until(depth, Default::default(), network, control, |l| out.line(&format!("info string {l}")));
            busy.store(false, Ordering::SeqCst);
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
        };
        self.spawn_job(Job::Bench, false, work);
    }

    /// `setoption` for a search parameter (a `tune` build).
    fn set_search_param(&mut self, name: &str, value: Option<&str>) {
        if self.searching() {
            self.info(&format!("setoption: cannot change '{}' while {}", truncate(name), self.running()));
            return;
        }
        let Some(value) = value.map(str::trim).filter(|v| !v.is_empty()) else {
            self.info(&format!("setoption: '{}' needs a value", truncate(name)));
            return;
        };
        // SPSA tuners may send fractional values: round them.
        let parsed = value
            .parse::<i64>()
            .ok()
            .or_else(|| value.parse::<f64>().ok().filter(|v| v.is_finite()).map(|v| v.round() as i64));
        match parsed {
            None => self.info(&format!("setoption: '{}' needs a number, got '{}'", truncate(name), truncate(value))),
            Some(v) => {
                if let Err(e) = cutoff_search::set_param(name, v) {
                    self.info(&format!("setoption: {e}; unchanged"));
                }
            }
        }
    }

    fn setoption(&mut self, args: &[&str]) {
        if args.first() != Some(&"name") {
            self.info("setoption: expected 'setoption name <name> [value <value>]'");
            return;
        }
        let value_at = args.iter().position(|&t| t.eq_ignore_ascii_case("value"));
        let name = args[1..value_at.unwrap_or(args.len())].join(" ");
        let value = value_at.map(|i| args[i + 1..].join(" "));
        let Some(opt) = OPTIONS.iter().find(|o| o.name().eq_ignore_ascii_case(&name)) else {
            if cfg!(feature = "tune") && cutoff_search::params().iter().any(|p| p.name.eq_ignore_ascii_case(&name)) {
                self.set_search_param(&name, value.as_deref());
            } else {
                self.info(&format!("setoption: unknown option '{}'", truncate(&name)));
            }
            return;
        };
        if self.searching() {
            self.info(&format!("setoption: cannot change '{}' while {}", opt.name(), self.running()));
            return;
        }
        // One rule for every spin option: a value outside the range is clamped to it, with an
        // `info string`; a value that cannot be read leaves the option unchanged.
        let parsed = match opt.parse(value.as_deref()) {
            Ok((v, clamped)) => {
                if let Some(clamped) = clamped {
                    self.info(&format!("setoption: {clamped}"));
                }
                v
            }
            Err(e) => {
                self.info(&format!("setoption: {e}; '{}' unchanged", opt.name()));
                return;
            }
        };
        self.apply_option(opt, parsed);
    }

    /// Changes the search options that `change` changes.
    fn update_options(&mut self, change: impl FnOnce(&mut cutoff_search::SearchOptions)) {
        self.with_engine(|e| {
            let mut options = e.options();
            change(&mut options);
            e.set_options(options)
        })
    }

    /// Applies an option's value, read and brought into range by `setoption`.
    fn apply_option(&mut self, opt: &EngineOption, value: OptionValue) {
        match (opt, value) {
            (EngineOption::Hash, OptionValue::Spin(mib)) => {
                if let Err(e) = self.with_engine(|e| e.set_hash(mib as usize)) {
                    let kept = self.with_engine(|e| e.tt().size_mib());
                    self.info(&format!("setoption: {e}; the hash stays at {kept} MiB (cleared)"));
                }
            }
            (EngineOption::Threads, OptionValue::Spin(n)) => self.update_options(|o| o.threads = n as usize),
            (EngineOption::MultiPv, OptionValue::Spin(n)) => self.update_options(|o| o.multipv = n as usize),
            (EngineOption::MoveOverhead, OptionValue::Spin(ms)) => {
                self.update_options(|o| o.move_overhead = Duration::from_millis(ms as u64))
            }
            (EngineOption::Ponder, OptionValue::Check(b)) => self.ponder_option = b,
            (EngineOption::Chess960, OptionValue::Check(b)) => {
                self.chess960 = b;
                // Re-read the current position under the new castling rules.
                let fen = self.board.fen().to_string();
                if let Ok(board) = Board::from_fen(&fen, CastlingMode::from_chess960(b)) {
                    self.board = board;
                }
            }
            (EngineOption::ClearHash, OptionValue::Button) => self.with_engine(|e| e.clear_hash()),
            (EngineOption::ShowWdl, OptionValue::Check(b)) => self.show_wdl = b,
            (EngineOption::LimitStrength, OptionValue::Check(b)) => self.limit_strength = b,
            (EngineOption::Elo, OptionValue::Spin(elo)) => self.elo = elo,
            (EngineOption::OwnBook, OptionValue::Check(b)) => {
                self.own_book = b;
                if b && self.book.is_none() {
                    self.info("OwnBook is on but no book is loaded (set BookFile)");
                }
            }
            (EngineOption::BookFile, OptionValue::String(path)) => self.load_book(path),
            (EngineOption::SyzygyPath, OptionValue::String(path)) => self.load_tablebases(path),
            (EngineOption::UseNnue, OptionValue::Check(b)) => self.set_use_nnue(b),
            (EngineOption::EvalFile, OptionValue::String(path)) => self.load_eval_file(path),
            (EngineOption::SyzygyProbeDepth, OptionValue::Spin(d)) => {
                self.update_options(|o| o.syzygy.probe_depth = d as i32)
            }
            (EngineOption::SyzygyProbeLimit, OptionValue::Spin(n)) => {
                self.update_options(|o| o.syzygy.probe_limit = n as usize)
            }
            (EngineOption::Syzygy50MoveRule, OptionValue::Check(b)) => self.update_options(|o| o.syzygy.rule50 = b),
            // `EngineOption::parse` gives each option its own kind of value.
            _ => {}
        }
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

/// Whether the search ends without `stop`: a depth, node, time or mate limit, or a clock for
/// the side to move (`infinite` and `ponder` wait for the GUI).
fn ends_by_itself(limits: &Limits, board: &Board) -> bool {
    limits.depth.is_some()
        || limits.nodes.is_some()
        || limits.movetime.is_some()
        || limits.mate.is_some()
        || limits.has_clock(board.side_to_move())
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

fn perft_thread(board: &Board, depth: u32, control: &SearchControl, out: &Output, busy: &AtomicBool) {
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
    busy.store(false, Ordering::SeqCst);
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

/// What a search prints besides the standard `info` fields.
#[derive(Clone, Copy, Debug, Default)]
struct Verbosity {
    /// `debug on`: search statistics before `bestmove`.
    debug: bool,
    /// `UCI_ShowWDL`: `wdl W D L` after the score.
    show_wdl: bool,
}

#[allow(clippy::too_many_arguments, reason = "everything the search thread owns")]
fn search_thread(
    engine: Arc<Mutex<Engine>>,
    control: &SearchControl,
    out: Output,
    board: Board,
    history: Vec<u64>,
    limits: Limits,
    verbosity: Verbosity,
    weakened: Option<(strength::Level, Arc<Mutex<strength::Rng>>)>,
    busy: Arc<AtomicBool>,
) {
    let mut guard = match engine.lock() {
        Ok(g) => g,
        Err(poisoned) => poisoned.into_inner(),
    };
    let options = guard.options();
    let recorder = Recorder::new(&board, verbosity.show_wdl, options.multipv, weakened.is_some());
    if weakened.is_some() {
        // Limited strength chooses among more lines than MultiPV shows.
        guard.set_options(cutoff_search::SearchOptions { multipv: options.multipv.max(strength::LINES), ..options });
    }
    let result = guard.search(&board, &history, &limits, control, &|r| recorder.report(r, &out));
    guard.set_options(options);
    // Tables found broken when first read during this search: say so (they are left out).
    for problem in guard.tablebases().map(|tb| tb.take_new_problems()).unwrap_or_default() {
        out.line(&format!("info string syzygy: {}", truncate(&problem.to_string())));
    }
    drop(guard);
    // In `go infinite` and while pondering, bestmove waits for `stop` (or `ponderhit`).
    while !control.stop_requested() && (limits.infinite || control.is_pondering()) {
        std::thread::sleep(Duration::from_millis(1));
    }
    let chosen = weakened.as_ref().and_then(|(level, rng)| recorder.choose(level, rng));
    let Some(best) = chosen.or(result.best_move) else {
        // No legal move: checkmated (mate 0) or stalemated (a draw).
        out.line(if board.in_check() { "info depth 0 score mate 0" } else { "info depth 0 score cp 0" });
        busy.store(false, Ordering::SeqCst);
        out.line("bestmove 0000");
        return;
    };
    out.lines(&recorder.final_lines(best, &result));
    if verbosity.debug {
        out.line(&lines::stats_line(&result.stats));
    }
    let line = lines::bestmove_line(&board, best, &result);
    busy.store(false, Ordering::SeqCst);
    out.line(&line);
}

/// Formats an `info` line, writing the PV in the notation of the position's mode; with
/// `show_wdl`, the score is followed by `wdl W D L` (per mille, from
/// [`cutoff_search::wdl`]).
pub fn info_line(board: &Board, info: &IterationInfo, show_wdl: bool) -> String {
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {}",
        info.depth,
        info.seldepth,
        info.multipv,
        UciScore::from_score(info.score)
    );
    match info.bound {
        Some(Bound::Lower) => s.push_str(" lowerbound"),
        Some(Bound::Upper) => s.push_str(" upperbound"),
        _ => {}
    }
    if show_wdl {
        let w = cutoff_search::wdl::wdl(info.score, board);
        s.push_str(&format!(" wdl {} {} {}", w.win, w.draw, w.loss));
    }
    s.push_str(&format!(" nodes {} nps {} hashfull {}", info.nodes, info.nps, info.hashfull));
    if info.tbhits > 0 {
        s.push_str(&format!(" tbhits {}", info.tbhits));
    }
    s.push_str(&format!(" time {} pv", info.time.as_millis()));
    let mut b = *board;
    for &mv in &info.pv {
        if !b.is_legal(mv) {
            break;
        }
        s.push(' ');
        s.push_str(&b.uci(mv).to_string());
        b.play_unchecked(mv);
    }
    s
}

/// Why a `go` command could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoError {
    /// A parameter that `go` does not know.
    UnknownParameter(String),
    /// A parameter without its number, or with something else than a whole number.
    BadValue(String),
    /// A `searchmoves` move that is not legal here.
    BadSearchMove(String),
}

impl std::fmt::Display for GoError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GoError::UnknownParameter(p) => write!(f, "unknown parameter '{}'", truncate(p)),
            GoError::BadValue(p) => {
                let (unit, min, max) = go_range(p);
                write!(f, "'{p}' needs a whole number of {unit}, {min} to {max} (larger ones count as {max})")
            }
            GoError::BadSearchMove(m) => write!(f, "searchmoves: '{}' is not a legal move here", truncate(m)),
        }
    }
}

impl std::error::Error for GoError {}

const GO_KEYWORDS: [&str; 12] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
];

/// The deepest `go depth`: the last iteration Cutoff's search starts (`MAX_PLY - 4`; the
/// search clamps its depth there, in `cutoff-search`'s `worker.rs`).
const MAX_GO_DEPTH: u64 = cutoff_board::MAX_PLY as u64 - 4;

/// The longest `go mate`, in moves: every mate score the search reports is within `MAX_PLY`
/// plies.
const MAX_GO_MATE: u64 = cutoff_board::MAX_PLY as u64 / 2;

/// The largest `go nodes`: 10^15, about ten years of one thread at 3 Mnps.
const MAX_GO_NODES: u64 = 1_000_000_000_000_000;

/// The largest time of `go` (`wtime`, `btime`, `winc`, `binc`, `movetime`), in milliseconds:
/// 10^10, about 116 days.
const MAX_GO_MS: u64 = 10_000_000_000;

/// The largest `go movestogo`.
const MAX_GO_MOVESTOGO: u64 = 1000;

/// The unit and range of the number of `go` parameter `key`. A number outside the range is
/// brought into it (negative clock times, which some GUIs send when a clock runs out, count as
/// zero; `go depth 9999` searches as deep as the search goes).
fn go_range(key: &str) -> (&'static str, u64, u64) {
    match key {
        "depth" => ("plies", 1, MAX_GO_DEPTH),
        "mate" => ("moves", 1, MAX_GO_MATE),
        "nodes" => ("nodes", 1, MAX_GO_NODES),
        "movestogo" => ("moves", 0, MAX_GO_MOVESTOGO),
        _ => ("milliseconds", 0, MAX_GO_MS),
    }
}

/// Parses the parameters of `go` (everything after `go`). A number outside its parameter's
/// range (see [`GoError::BadValue`]'s message) is brought into it.
pub fn parse_go(args: &[&str], board: &Board) -> Result<Limits, GoError> {
    let mut limits = Limits::default();
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        i += 1;
        let number = |i: &mut usize| -> Result<u64, GoError> {
            let v = args.get(*i).ok_or_else(|| GoError::BadValue(key.into()))?;
            *i += 1;
            let n = options::parse_whole(v).ok_or_else(|| GoError::BadValue(key.into()))?;
            let (_, min, max) = go_range(key);
            Ok(n.max(0).unsigned_abs().clamp(min, max))
        };
        let ms = |i: &mut usize| number(i).map(Duration::from_millis);
        match key {
            "infinite" => limits.infinite = true,
            "ponder" => limits.ponder = true,
            "wtime" => limits.wtime = Some(ms(&mut i)?),
            "btime" => limits.btime = Some(ms(&mut i)?),
            "winc" => limits.winc = Some(ms(&mut i)?),
            "binc" => limits.binc = Some(ms(&mut i)?),
            "movestogo" => limits.movestogo = Some(number(&mut i)? as u32),
            "depth" => limits.depth = Some(number(&mut i)? as u32),
            "nodes" => limits.nodes = Some(number(&mut i)?),
            "mate" => limits.mate = Some(number(&mut i)? as u32),
            "movetime" => limits.movetime = Some(ms(&mut i)?),
            "searchmoves" => {
                while i < args.len() && !GO_KEYWORDS.contains(&args[i]) {
                    let mv: Move = board.parse_uci(args[i]).map_err(|_| GoError::BadSearchMove(args[i].into()))?;
                    limits.searchmoves.push(mv);
                    i += 1;
                }
            }
            other => return Err(GoError::UnknownParameter(other.into())),
        }
    }
    Ok(limits)
}

/// Like [`parse_go`], but skips what it cannot read instead of failing: an unknown word,
/// or a parameter whose value is missing or malformed (without swallowing the next word).
fn parse_go_lenient(args: &[&str], board: &Board) -> Limits {
    let mut limits = Limits::default();
    let mut i = 0;
    while i < args.len() {
        let take = match args[i] {
            "infinite" | "ponder" => 1,
            "searchmoves" => {
                let mut j = i + 1;
                while j < args.len() && !GO_KEYWORDS.contains(&args[j]) {
                    if let Ok(mv) = board.parse_uci(args[j]) {
                        limits.searchmoves.push(mv);
                    }
                    j += 1;
                }
                i = j;
                continue;
            }
            key if GO_KEYWORDS.contains(&key) && args.get(i + 1).is_some_and(|v| options::parse_whole(v).is_some()) => {
                2
            }
            _ => 1,
        };
        if let Ok(part) = parse_go(&args[i..i + take], board) {
            merge(&mut limits, part);
        }
        i += take;
    }
    limits
}

fn merge(into: &mut Limits, from: Limits) {
    into.depth = into.depth.or(from.depth);
    into.nodes = into.nodes.or(from.nodes);
    into.movetime = into.movetime.or(from.movetime);
    into.mate = into.mate.or(from.mate);
    into.infinite |= from.infinite;
    into.ponder |= from.ponder;
    into.wtime = into.wtime.or(from.wtime);
    into.btime = into.btime.or(from.btime);
    into.winc = into.winc.or(from.winc);
    into.binc = into.binc.or(from.binc);
    into.movestogo = into.movestogo.or(from.movestogo);
    into.searchmoves.extend(from.searchmoves);
}

#[cfg(test)]
mod tests {
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
    fn a_go_that_cannot_be_read_never_searches_forever() {
        let board = Board::default();
        let bounded = |args: &[&str]| {
            let limits = parse_go_lenient(args, &board);
            limits.infinite || ends_by_itself(&limits, &board)
        };
        for args in [
            &["depth", "abc"][..],
            &["depth", "1.5"],
            &["nodes", "x"],
            &["infinte"],
            &["btime", "1000", "wtime", "abc"],
        ] {
            assert!(parse_go(args, &board).is_err(), "{args:?}");
            assert!(!bounded(args), "{args:?}");
        }
        for args in [
            &["depth", "abc", "movetime", "100"][..],
            &["foo", "depth", "2"],
            &["wtime", "100", "nodes", "x"],
            &["infinite", "depth", "x"],
        ] {
            assert!(parse_go(args, &board).is_err(), "{args:?}");
            assert!(bounded(args), "{args:?}");
        }
    }

    #[test]
    fn go_numbers_are_brought_into_range_and_the_limits_are_named() {
        let board = Board::default();
        let go = |args: &[&str]| parse_go(args, &board).unwrap();
        assert_eq!(go(&["depth", "99999999999999999999"]).depth, Some(124));
        assert_eq!(go(&["depth", "125"]).depth, Some(124));
        assert_eq!(go(&["depth", "124"]).depth, Some(124));
        assert_eq!(go(&["depth", "0"]).depth, Some(1));
        assert_eq!(go(&["depth", "-3"]).depth, Some(1));
        assert_eq!(go(&["mate", "1000"]).mate, Some(64));
        assert_eq!(go(&["nodes", "18446744073709551616"]).nodes, Some(MAX_GO_NODES));
        assert_eq!(go(&["nodes", "0"]).nodes, Some(1));
        assert_eq!(go(&["wtime", "-100"]).wtime, Some(Duration::ZERO));
        assert_eq!(go(&["movetime", "99999999999"]).movetime, Some(Duration::from_millis(MAX_GO_MS)));
        assert_eq!(go(&["movestogo", "40"]).movestogo, Some(40));
        let message = |args: &[&str]| parse_go(args, &board).unwrap_err().to_string();
        assert_eq!(
            message(&["depth", "abc"]),
            "'depth' needs a whole number of plies, 1 to 124 (larger ones count as 124)"
        );
        assert_eq!(message(&["mate"]), "'mate' needs a whole number of moves, 1 to 64 (larger ones count as 64)");
        assert_eq!(
            message(&["nodes", "1e6"]),
            "'nodes' needs a whole number of nodes, 1 to 1000000000000000 (larger ones count as 1000000000000000)"
        );
        assert_eq!(
            message(&["movetime", "1.5"]),
            "'movetime' needs a whole number of milliseconds, 0 to 10000000000 (larger ones count as 10000000000)"
        );
        assert_eq!(
            message(&["movestogo", "x"]),
            "'movestogo' needs a whole number of moves, 0 to 1000 (larger ones count as 1000)"
        );
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
}
