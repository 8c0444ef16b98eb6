//! `cargo xtask tactics`: run an EPD test suite against a UCI engine.
//!
//! Each position is sent to the engine (`ucinewgame`, `position fen`, `go` with the chosen
//! limit) and its `bestmove` is checked against the `bm`/`am` operations; STS positions also
//! score the `c8` points of the move played. The default engine is this workspace's release
//! build. Progress goes to stderr, the summary to stdout.

mod engine;
mod epd;

use std::collections::HashMap;
use std::fmt::Write as _;
use std::num::{NonZeroU32, NonZeroUsize};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{ArgGroup, Args};

use crate::progress::{self, Progress};
use crate::util::{self, Result};
use engine::{Answer, Engine, Failure, HANDSHAKE_TIMEOUT, Info};
use epd::{Position, STS_THEMES};

/// Extra help of `cargo xtask tactics --help`.
const AFTER_LONG_HELP: &str = "\
Positions come from an EPD file: the first 4 fields are the position (clocks `0 1` unless
given), `bm` lists the best moves and `am` the moves to avoid (SAN), `id` names the
position. A position is solved if the engine's move is in bm (when present) and not in am.
Strategic Test Suite lines also carry `c8` points for the candidate moves in `c7` (SAN) /
`c9` (UCI); the played move scores its points (10 for the best, max 10 per position).

Suites (from the repository's data/ directory):
    bk          tactics/bratko-kopec.epd (24 positions)
    sts         tactics/STS1-STS15_LAN_v3.epd (1500 positions, 15 themes, per-theme table)
    sts1..sts15 one STS theme of the same file (100 positions)

Without --engine, the engine is built first (cargo build --release -p cutoff). Each position
starts with `ucinewgame`. An engine that does not answer `bestmove` within the timeout is
sent `stop`, then restarted if still silent; such positions count as misses and make the exit
status 1, as do illegal moves and crashes.

EXAMPLES:
    cargo xtask tactics                           Bratko-Kopec, 1 s per position
    cargo xtask tactics --suite sts --movetime 200
    cargo xtask tactics --suite sts --limit 10 --nodes 100000   10 positions per theme
    cargo xtask tactics --epd my.epd --depth 12 --engine /usr/games/stockfish";

/// Arguments of `cargo xtask tactics`.
#[derive(Debug, Args)]
#[command(after_long_help = AFTER_LONG_HELP)]
#[command(group(ArgGroup::new("limits").args(["movetime", "nodes", "depth"])))]
pub struct TacticsArgs {
    /// The EPD file to run.
    #[arg(long, value_name = "FILE", conflicts_with = "suite")]
    pub epd: Option<PathBuf>,

    /// A suite from the repository's data/: bk, sts (all 15 themes) or sts1 ... sts15 [default: bk].
    #[arg(long, value_name = "SUITE", value_parser = parse_suite)]
    pub suite: Option<Suite>,

    /// Time per position in milliseconds (`go movetime`) [default: 1000].
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: Option<u64>,

    /// Nodes per position (`go nodes`).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,

    /// Depth per position (`go depth`).
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=255))]
    pub depth: Option<u32>,

    /// The UCI engine to test [default: build and run target/release/cutoff].
    #[arg(long, value_name = "PATH")]
    pub engine: Option<PathBuf>,

    /// The engine's `Threads` option.
    #[arg(long, value_name = "N", default_value = "1")]
    pub threads: NonZeroU32,

    /// The engine's `Hash` option, in MB.
    #[arg(long, value_name = "MB", default_value = "16")]
    pub hash: NonZeroU32,

    /// Any other UCI option, e.g. `--option "Move Overhead=10"` (repeatable; sent after Threads
    /// and Hash).
    #[arg(long = "option", value_name = "NAME=VALUE", value_parser = crate::matches::parse_uci_option)]
    pub options: Vec<(String, String)>,

    /// Run only the first K positions (of each STS theme, for a file with several).
    #[arg(long, value_name = "K")]
    pub limit: Option<NonZeroUsize>,

    /// Seconds to wait for `bestmove` before the engine counts as hung
    /// [default: 5 + 2 x movetime; 300 with --nodes or --depth].
    #[arg(long, value_name = "SECS", value_parser = clap::value_parser!(u64).range(1..))]
    pub timeout: Option<u64>,

    /// Print every position's result on stderr.
    #[arg(long, short)]
    pub verbose: bool,

    /// Plain progress lines on stderr instead of a progress bar (automatic when stderr is not a
    /// terminal).
    #[arg(long)]
    pub plain: bool,
}

/// A `--suite` choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Suite {
    /// Bratko-Kopec.
    Bk,
    /// All 15 STS themes.
    Sts,
    /// One STS theme, 1-15.
    StsTheme(u8),
}

fn parse_suite(text: &str) -> Result<Suite, String> {
    let lower = text.to_ascii_lowercase();
    match lower.as_str() {
        "bk" | "bratko-kopec" => return Ok(Suite::Bk),
        "sts" => return Ok(Suite::Sts),
        _ => {}
    }
    lower
        .strip_prefix("sts")
        .and_then(|n| n.parse::<u8>().ok())
        .filter(|n| (1..=15).contains(n))
        .map(Suite::StsTheme)
        .ok_or_else(|| format!("unknown suite `{text}`: expected bk, sts, or sts1 ... sts15"))
}

impl Suite {
    /// The suite's EPD file in the repository's data directory (one STS theme is a slice of the
    /// combined STS file, taken by [`Suite::select`]).
    fn path(self, data: &Path) -> Result<PathBuf> {
        let tactics = data.join("tactics");
        let path = match self {
            Suite::Bk => tactics.join("bratko-kopec.epd"),
            Suite::Sts | Suite::StsTheme(_) => tactics.join("STS1-STS15_LAN_v3.epd"),
        };
        if path.is_file() { Ok(path) } else { Err(format!("suite file {} does not exist", path.display()).into()) }
    }

    /// Keeps the positions of this suite out of its file: one theme for `StsTheme`, all otherwise.
    fn select(self, positions: Vec<epd::Position>) -> Result<Vec<epd::Position>> {
        let Suite::StsTheme(n) = self else { return Ok(positions) };
        let kept: Vec<_> = positions.into_iter().filter(|p| p.theme == Some(n)).collect();
        if kept.is_empty() { Err(format!("no position of STS theme {n} in the STS file").into()) } else { Ok(kept) }
    }
}

/// The search limit per position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Limit {
    Movetime(u64),
    Nodes(u64),
    Depth(u32),
}

impl Limit {
    fn from_args(args: &TacticsArgs) -> Limit {
        match (args.movetime, args.nodes, args.depth) {
            (_, Some(nodes), _) => Limit::Nodes(nodes),
            (_, _, Some(depth)) => Limit::Depth(depth),
            (movetime, None, None) => Limit::Movetime(movetime.unwrap_or(1000)),
        }
    }

    fn go(self) -> String {
        match self {
            Limit::Movetime(ms) => format!("movetime {ms}"),
            Limit::Nodes(n) => format!("nodes {n}"),
            Limit::Depth(d) => format!("depth {d}"),
        }
    }

    fn describe(self) -> String {
        match self {
            Limit::Movetime(ms) => format!("movetime {ms} ms"),
            Limit::Nodes(n) => format!("{} nodes", util::thousands(n)),
            Limit::Depth(d) => format!("depth {d}"),
        }
    }

    /// How long to wait for `bestmove` before sending `stop`.
    fn timeout(self, explicit: Option<u64>) -> Duration {
        match (explicit, self) {
            (Some(secs), _) => Duration::from_secs(secs),
            (None, Limit::Movetime(ms)) => Duration::from_millis(ms.saturating_mul(2)) + Duration::from_secs(5),
            (None, _) => Duration::from_secs(300),
        }
    }
}

/// Engine failures in a row after which the run is abandoned.
const MAX_CONSECUTIVE_FAILURES: usize = 3;

/// The result of one position.
#[derive(Debug)]
struct Outcome<'a> {
    position: &'a Position,
    /// The move played, in SAN; or what the engine said if it was no legal move.
    played: String,
    solved: bool,
    points: u32,
    info: Info,
    /// Something went wrong with the engine (illegal move, hang, crash).
    problem: Option<String>,
}

/// Runs `cargo xtask tactics`.
pub fn run(args: &TacticsArgs) -> Result<ExitCode> {
    let (path, mut positions) = match &args.epd {
        Some(path) => (path.clone(), epd::load(path)?),
        None => {
            let suite = args.suite.unwrap_or(Suite::Bk);
            let path = suite.path(&util::data_dir()?)?;
            let positions = suite.select(epd::load(&path)?)?;
            (path, positions)
        }
    };
    if let Some(k) = args.limit {
        positions = first_per_theme(positions, k.get());
    }
    let limit = Limit::from_args(args);
    let timeout = limit.timeout(args.timeout);
    let engine_path = match &args.engine {
        Some(path) => path.clone(),
        None => crate::perft_bench::bench::build_engine(&util::workspace_root(), None)?,
    };
    let setup =
        Setup { path: engine_path, threads: args.threads.get(), hash: args.hash.get(), options: args.options.clone() };
    let mut engine = setup.start(true)?;

    let themes = theme_count(&positions);
    println!(
        "tactics: {} ({} position{}{}), {} per position",
        path.display(),
        positions.len(),
        if positions.len() == 1 { "" } else { "s" },
        if themes > 1 { format!(", {themes} STS themes") } else { String::new() },
        limit.describe()
    );
    println!(
        "engine:  {} ({}), {} thread{}, {} MB hash",
        engine.name,
        engine.path().display(),
        setup.threads,
        if setup.threads == 1 { "" } else { "s" },
        setup.hash
    );

    let start = Instant::now();
    let max_points: u32 = positions.iter().map(Position::max_points).sum();
    let mut progress = TacticsProgress::new(positions.len(), max_points > 0, args.verbose, args.plain);
    let mut outcomes = Vec::with_capacity(positions.len());
    let mut failures_in_a_row = 0;
    for position in &positions {
        let outcome = match play(&mut engine, position, limit, timeout) {
            Ok(outcome) => {
                failures_in_a_row = 0;
                outcome
            }
            Err(failure) => {
                failures_in_a_row += 1;
                progress.message(&format!("{}: {failure}", position.id));
                let outcome = Outcome {
                    position,
                    played: "(no move)".into(),
                    solved: false,
                    points: 0,
                    info: Info::default(),
                    problem: Some(failure.to_string()),
                };
                if failures_in_a_row >= MAX_CONSECUTIVE_FAILURES {
                    return Err(
                        format!("giving up: the engine failed on {failures_in_a_row} positions in a row").into()
                    );
                }
                progress.message("restarting the engine");
                drop(engine);
                engine = setup.start(false)?;
                outcome
            }
        };
        progress.record(&outcome);
        outcomes.push(outcome);
    }
    progress.finish();
    engine.quit();

    let seconds = start.elapsed().as_secs_f64();
    print_summary(&outcomes, seconds);
    let problems = outcomes.iter().filter(|o| o.problem.is_some()).count();
    Ok(if problems == 0 { ExitCode::SUCCESS } else { util::EXIT_FAILURE.into() })
}

/// How to start (and restart) the engine.
#[derive(Debug)]
struct Setup {
    path: PathBuf,
    threads: u32,
    hash: u32,
    /// `--option` values, in order.
    options: Vec<(String, String)>,
}

impl Setup {
    fn start(&self, first: bool) -> Result<Engine> {
        let mut engine = Engine::start(&self.path)?;
        let numbers = [("Threads", self.threads), ("Hash", self.hash)].map(|(n, v)| (n.to_owned(), v.to_string()));
        for (name, value) in numbers.iter().chain(&self.options) {
            if engine.has_option(name) {
                engine.send(&format!("setoption name {name} value {value}")).map_err(|e| e.to_string())?;
            } else if first {
                eprintln!("warning: the engine has no `{name}` option; not setting it to {value}");
            }
        }
        engine.sync(HANDSHAKE_TIMEOUT).map_err(|e| format!("{}: {e}", self.path.display()))?;
        Ok(engine)
    }
}

/// Plays one position.
fn play<'a>(
    engine: &mut Engine,
    position: &'a Position,
    limit: Limit,
    timeout: Duration,
) -> Result<Outcome<'a>, Failure> {
    engine.send("ucinewgame")?;
    engine.sync(HANDSHAKE_TIMEOUT)?;
    let Answer { bestmove, info, needed_stop } = engine.search(&position.fen, &limit.go(), timeout)?;
    let mut problem =
        needed_stop.then(|| format!("no bestmove within {:.1} s; answered after `stop`", timeout.as_secs_f64()));
    let board = &position.board;
    let (played, solved, points) = match board.parse_uci(&bestmove) {
        Ok(mv) => (board.san(mv).to_string(), position.solved_by(mv), position.points_for(mv)),
        Err(_) => {
            problem.get_or_insert_with(|| {
                if matches!(bestmove.as_str(), "(none)" | "0000") {
                    format!("no move (`bestmove {bestmove}`) in a position with legal moves")
                } else {
                    format!("illegal move `{bestmove}`")
                }
            });
            (bestmove, false, 0)
        }
    };
    Ok(Outcome { position, played, solved, points, info, problem })
}

/// The first `k` positions of each STS theme (the first `k` positions of a plain file).
fn first_per_theme(positions: Vec<Position>, k: usize) -> Vec<Position> {
    let mut counts: HashMap<Option<u8>, usize> = HashMap::new();
    positions
        .into_iter()
        .filter(|p| {
            let count = counts.entry(p.theme).or_default();
            *count += 1;
            *count <= k
        })
        .collect()
}

/// The number of distinct STS themes (non-STS positions count as one more).
fn theme_count(positions: &[Position]) -> usize {
    let mut themes: Vec<Option<u8>> = positions.iter().map(|p| p.theme).collect();
    themes.sort_unstable();
    themes.dedup();
    themes.len()
}

/// Totals over some outcomes.
#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    positions: usize,
    solved: usize,
    points: u32,
    max_points: u32,
}

impl Tally {
    fn add(&mut self, outcome: &Outcome<'_>) {
        self.positions += 1;
        self.solved += usize::from(outcome.solved);
        self.points += outcome.points;
        self.max_points += outcome.position.max_points();
    }

    fn of<'a, 'b: 'a>(outcomes: impl IntoIterator<Item = &'a Outcome<'b>>) -> Tally {
        let mut tally = Tally::default();
        for outcome in outcomes {
            tally.add(outcome);
        }
        tally
    }
}

fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 { 0.0 } else { part as f64 * 100.0 / whole as f64 }
}

fn print_summary(outcomes: &[Outcome<'_>], seconds: f64) {
    let total = Tally::of(outcomes);
    println!();
    println!(
        "solved   {}/{} ({:.1}%)",
        total.solved,
        total.positions,
        percent(total.solved as u64, total.positions as u64)
    );
    if total.max_points > 0 {
        println!(
            "points   {}/{} ({:.1}%, STS c8 points of the moves played)",
            total.points,
            total.max_points,
            percent(u64::from(total.points), u64::from(total.max_points))
        );
    }
    println!(
        "time     {seconds:.1} s ({:.2} s per position)",
        if total.positions == 0 { 0.0 } else { seconds / total.positions as f64 }
    );

    let mut themes: Vec<Option<u8>> = outcomes.iter().map(|o| o.position.theme).collect();
    themes.sort_unstable();
    themes.dedup();
    if themes.len() > 1 {
        println!();
        println!(
            "{:<3} {:<34} {:>9} {:>7} {:>6} {:>7} {:>6} {:>6}",
            "sts", "theme", "positions", "solved", "%", "points", "max", "%"
        );
        let row = |number: &str, name: &str, t: Tally| {
            println!(
                "{number:<3} {name:<34} {:>9} {:>7} {:>6.1} {:>7} {:>6} {:>6.1}",
                t.positions,
                t.solved,
                percent(t.solved as u64, t.positions as u64),
                t.points,
                t.max_points,
                percent(u64::from(t.points), u64::from(t.max_points)),
            );
        };
        for theme in &themes {
            let tally = Tally::of(outcomes.iter().filter(|o| o.position.theme == *theme));
            match theme {
                Some(n) => row(&n.to_string(), STS_THEMES[usize::from(*n) - 1], tally),
                None => row("-", "(not STS)", tally),
            }
        }
        row("", "total", total);
    }

    let problems: Vec<&Outcome<'_>> = outcomes.iter().filter(|o| o.problem.is_some()).collect();
    if !problems.is_empty() {
        println!();
        println!("engine problems ({}):", problems.len());
        for o in &problems {
            println!("  {}: {}", o.position.id, o.problem.as_deref().unwrap_or_default());
        }
    }

    let misses: Vec<&Outcome<'_>> = outcomes.iter().filter(|o| !o.solved).collect();
    println!();
    if misses.is_empty() {
        println!("misses: none");
        return;
    }
    println!("misses ({}):", misses.len());
    let id_width = misses.iter().map(|o| o.position.id.len()).max().unwrap_or(0);
    let played_width = misses.iter().map(|o| o.played.len()).max().unwrap_or(0).max(6);
    let expected_width = misses.iter().map(|o| o.position.expected().len()).max().unwrap_or(0).max(8);
    let sts = total.max_points > 0;
    for o in misses {
        let mut line = format!(
            "  {:<id_width$}  played {:<played_width$}  expected {:<expected_width$}",
            o.position.id,
            o.played,
            o.position.expected()
        );
        if sts {
            let _ = write!(line, "  {:>2}/{} points", o.points, o.position.max_points());
        }
        if let Some(depth) = o.info.depth {
            let _ = write!(line, "  (depth {depth}");
            if let Some(score) = &o.info.score {
                let _ = write!(line, ", {score}");
            }
            line.push(')');
        }
        println!("{}", line.trim_end());
    }
}

/// The progress display of a run ([`crate::progress`]): positions done, with the solved count
/// (and STS points) as its message; with `--verbose`, a line per position too.
#[derive(Debug)]
struct TacticsProgress {
    display: Progress,
    tally: Tally,
    show_points: bool,
    verbose: bool,
}

impl TacticsProgress {
    fn new(total: usize, show_points: bool, verbose: bool, plain: bool) -> TacticsProgress {
        let display = Progress::new("tactics", total as u64, progress::plain_wanted(plain));
        TacticsProgress { display, tally: Tally::default(), show_points, verbose }
    }

    /// The status message: `solved 12 (50.0%), 100/240 points`.
    fn status(&self) -> String {
        let t = &self.tally;
        let mut line = format!("solved {} ({:.1}%)", t.solved, percent(t.solved as u64, t.positions as u64));
        if self.show_points {
            let _ = write!(line, ", {}/{} points", t.points, t.max_points);
        }
        line
    }

    /// A message line (an engine problem, ...), printed above the progress bar.
    fn message(&mut self, text: &str) {
        self.display.println(text);
    }

    fn record(&mut self, outcome: &Outcome<'_>) {
        self.tally.add(outcome);
        if self.verbose {
            let mut line = format!(
                "{:<30} {:<4} played {:<8} expected {}",
                outcome.position.id,
                if outcome.solved { "ok" } else { "MISS" },
                outcome.played,
                outcome.position.expected()
            );
            if self.show_points {
                let _ = write!(line, "  {}/{} points", outcome.points, outcome.position.max_points());
            }
            self.message(&line);
        }
        self.display.set_message(self.status());
        self.display.inc(1);
    }

    fn finish(self) {
        self.display.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suite_names() {
        assert_eq!(parse_suite("bk"), Ok(Suite::Bk));
        assert_eq!(parse_suite("STS"), Ok(Suite::Sts));
        assert_eq!(parse_suite("sts1"), Ok(Suite::StsTheme(1)));
        assert_eq!(parse_suite("sts15"), Ok(Suite::StsTheme(15)));
        assert_eq!(parse_suite("sts07"), Ok(Suite::StsTheme(7)));
        assert!(parse_suite("sts0").is_err());
        assert!(parse_suite("sts16").is_err());
        assert!(parse_suite("wac").is_err());
    }

    #[test]
    fn command_line_options() {
        #[derive(Debug, clap::Parser)]
        struct Cli {
            #[command(flatten)]
            args: TacticsArgs,
        }
        let line = ["tactics", "--option", "Move Overhead=10", "--option", "Clear Hash=", "--plain"];
        let args = <Cli as clap::Parser>::try_parse_from(line).unwrap().args;
        assert_eq!(
            args.options,
            [("Move Overhead".to_owned(), "10".to_owned()), ("Clear Hash".to_owned(), String::new())]
        );
        assert!(args.plain && !args.verbose);
        assert!(<Cli as clap::Parser>::try_parse_from(["tactics", "--option", "Hash"]).is_err());
    }

    #[test]
    fn limits() {
        assert_eq!(Limit::Movetime(1000).go(), "movetime 1000");
        assert_eq!(Limit::Nodes(5).go(), "nodes 5");
        assert_eq!(Limit::Depth(7).go(), "depth 7");
        assert_eq!(Limit::Movetime(1000).timeout(None), Duration::from_secs(7));
        assert_eq!(Limit::Depth(7).timeout(Some(9)), Duration::from_secs(9));
    }

    #[test]
    fn limit_per_theme() {
        let line = |theme: u32, n: u32| format!("8/8/8/8/8/8/8/K6k w - - bm Ka2; id \"STS(v{theme}.0) Theme.{n:03}\";");
        let positions: Vec<Position> = [(1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (3, 1)]
            .iter()
            .enumerate()
            .map(|(i, &(theme, n))| Position::parse(i + 1, &line(theme, n)).unwrap())
            .collect();
        assert_eq!(theme_count(&positions), 3);
        let kept: Vec<String> = first_per_theme(positions, 2).into_iter().map(|p| p.id).collect();
        assert_eq!(
            kept,
            [
                "STS(v1.0) Theme.001",
                "STS(v1.0) Theme.002",
                "STS(v2.0) Theme.001",
                "STS(v2.0) Theme.002",
                "STS(v3.0) Theme.001"
            ]
        );
    }

    #[test]
    fn repository_suites_parse() {
        let data = util::data_dir().unwrap();
        for (suite, count) in
            [(Suite::Bk, 24), (Suite::Sts, 1500), (Suite::StsTheme(1), 100), (Suite::StsTheme(15), 100)]
        {
            let path = suite.path(&data).unwrap();
            let positions = suite.select(epd::load(&path).unwrap()).unwrap();
            assert_eq!(positions.len(), count, "{}", path.display());
            if suite != Suite::Bk {
                assert!(positions.iter().all(|p| p.max_points() == 10 && p.theme.is_some()));
            }
        }
    }
}
