//! `cargo xtask perft`: check `cutoff-board` move generation against the shared perft suites.
//!
//! Every line of `perft/standard.epd` and `perft/chess960.epd` (format `FEN ;D1 n ;D2 n ...`)
//! is checked at every listed depth, in parallel over positions, with a progress display on
//! stderr ([`crate::progress`]) and a pass/fail table on stdout. `--bench` switches to
//! [`super::perft_speed`].

use std::collections::BTreeMap;
use std::num::{NonZeroU32, NonZeroUsize};
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};
use cutoff_board::{Board, CastlingMode};

use crate::progress::{self, Progress};
use crate::util::{self, Result};

/// Per-entry node budget of `--quick`.
pub const QUICK_BUDGET: u64 = 10_000_000;

/// Long help of the `perft` subcommand.
pub const LONG_ABOUT: &str = "\
Check move generation against the perft suites, or benchmark perft speed (--bench).

Suite mode (default) runs every line of <data>/perft/standard.epd and
<data>/perft/chess960.epd (Chess960 castling rules, Shredder-FEN) at every listed depth
with cutoff-board's bulk-counting Board::perft, in parallel over positions. Progress goes
to stderr; a pass/fail table per suite (lines, depth entries checked, passed, failed,
skipped, nodes, seconds, Mnps) and every mismatch (suite, line, FEN, depth, expected, got)
go to stdout. The exit status is 1 if any entry does not match. The full suites are about
5e11 nodes (tens of minutes on two cores); --quick keeps only entries of at most
10,000,000 expected nodes (about 2.4e9 nodes in all), for CI.

Bench mode (--bench) measures single-threaded perft speed of cutoff-board against
cozy-chess in the same process: startpos perft 7 (3,195,901,860 nodes) and Kiwipete
perft 6 (8,031,647,685 nodes), both with bulk counting, alternating engines run by run.
It prints each run, the median time per engine and position, Mnps, and the ratio
cutoff/cozy (lower is better; the goal is <= 0.80), and verifies the node counts.

Both modes need optimised code: when xtask was built in the dev profile (as the
`cargo xtask` alias does), it re-runs itself with `cargo run --release`. Extra build
flags go through RUSTFLAGS as usual, e.g.
    RUSTFLAGS='-C target-cpu=native' cargo xtask perft --bench";

/// Arguments of `cargo xtask perft`.
#[derive(Debug, Args)]
pub struct PerftArgs {
    /// CI mode: skip depth entries whose expected count exceeds 10,000,000 nodes
    /// (see --max-nodes); the skipped entries are listed in the summary.
    #[arg(long, conflicts_with = "bench", help_heading = "Suite mode")]
    pub quick: bool,

    /// Which suite to run.
    #[arg(long, value_enum, default_value_t = SuiteChoice::All, conflicts_with = "bench", help_heading = "Suite mode")]
    pub suite: SuiteChoice,

    /// Worker threads, each checking whole positions [default: available parallelism].
    #[arg(long, short = 'j', value_name = "N", conflicts_with = "bench", help_heading = "Suite mode")]
    pub threads: Option<NonZeroUsize>,

    /// Skip depth entries deeper than D.
    #[arg(long, value_name = "D", conflicts_with = "bench", help_heading = "Suite mode")]
    pub max_depth: Option<u32>,

    /// Skip depth entries whose expected count exceeds NODES [--quick: 10000000].
    #[arg(long, value_name = "NODES", conflicts_with = "bench", help_heading = "Suite mode")]
    pub max_nodes: Option<u64>,

    /// Plain progress lines on stderr instead of a progress bar (automatic when stderr is not a
    /// terminal).
    #[arg(long, conflicts_with = "bench", help_heading = "Suite mode")]
    pub plain: bool,

    /// Benchmark single-threaded perft speed, cutoff-board vs cozy-chess, instead of
    /// checking the suites.
    #[arg(long, help_heading = "Bench mode")]
    pub bench: bool,

    /// Measured runs per engine and position.
    #[arg(long, value_name = "N", default_value = "5", requires = "bench", help_heading = "Bench mode")]
    pub runs: NonZeroU32,
}

/// The `--suite` choices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SuiteChoice {
    /// perft/standard.epd: standard chess.
    Standard,
    /// perft/chess960.epd: Chess960, Shredder-FEN castling.
    Chess960,
    /// Both, standard first.
    All,
}

/// Which depth entries to run.
#[derive(Debug, Clone, Copy)]
struct Filter {
    max_depth: Option<u32>,
    max_nodes: Option<u64>,
}

impl Filter {
    fn keeps(self, entry: Entry) -> bool {
        self.max_depth.is_none_or(|d| entry.depth <= d) && self.max_nodes.is_none_or(|n| entry.expected <= n)
    }

    fn describe(self) -> String {
        let mut parts = Vec::new();
        if let Some(d) = self.max_depth {
            parts.push(format!("depth > {d}"));
        }
        if let Some(n) = self.max_nodes {
            parts.push(format!("expected > {} nodes", util::thousands(n)));
        }
        parts.join(" or ")
    }
}

#[derive(Debug, Clone, Copy)]
struct Entry {
    depth: u32,
    expected: u64,
}

#[derive(Debug)]
struct Line {
    /// 1-based line number in the file.
    number: usize,
    fen: String,
    entries: Vec<Entry>,
}

#[derive(Debug)]
struct Suite {
    name: &'static str,
    chess960: bool,
    lines: Vec<Line>,
}

impl Suite {
    fn load(data: &Path, name: &'static str, chess960: bool) -> Result<Suite> {
        let path = data.join("perft").join(format!("{name}.epd"));
        let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let mut lines = Vec::new();
        for (index, raw) in text.lines().enumerate() {
            let number = index + 1;
            let raw = raw.trim();
            if raw.is_empty() || raw.starts_with('#') {
                continue;
            }
            let line = parse_line(number, raw).map_err(|e| format!("{}:{number}: {e}", path.display()))?;
            lines.push(line);
        }
        if lines.is_empty() {
            return Err(format!("{} has no positions", path.display()).into());
        }
        Ok(Suite { name, chess960, lines })
    }
}

fn parse_line(number: usize, raw: &str) -> Result<Line> {
    let mut fields = raw.split(';');
    let fen = fields.next().unwrap_or_default().trim().to_owned();
    if fen.is_empty() {
        return Err("empty FEN".into());
    }
    let mut entries = Vec::new();
    for field in fields.map(str::trim).filter(|f| !f.is_empty()) {
        let mut parts = field.split_whitespace();
        let (Some(tag), Some(count), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(format!("expected `Dk count`, found `{field}`").into());
        };
        let depth = tag.strip_prefix('D').and_then(|d| d.parse().ok());
        let (Some(depth), Ok(expected)) = (depth, count.parse()) else {
            return Err(format!("expected `Dk count`, found `{field}`").into());
        };
        entries.push(Entry { depth, expected });
    }
    if entries.is_empty() {
        return Err("no depth entries".into());
    }
    Ok(Line { number, fen, entries })
}

/// One position to check, with the entries the filter kept.
#[derive(Debug)]
struct Job<'a> {
    line: &'a Line,
    entries: Vec<Entry>,
}

#[derive(Debug)]
enum Problem {
    Mismatch { depth: u32, expected: u64, got: u64 },
    BadFen(String),
}

#[derive(Debug)]
struct Failure {
    line: usize,
    fen: String,
    problem: Problem,
}

#[derive(Debug, Default)]
struct JobResult {
    passed: usize,
    failed: usize,
    nodes: u64,
    failures: Vec<Failure>,
}

fn check(job: &Job<'_>, chess960: bool, node_counter: &AtomicU64) -> JobResult {
    let mut result = JobResult::default();
    let board = match Board::from_fen(&job.line.fen, CastlingMode::from_chess960(chess960)) {
        Ok(board) => board,
        Err(err) => {
            result.failed = job.entries.len();
            result.failures.push(Failure {
                line: job.line.number,
                fen: job.line.fen.clone(),
                problem: Problem::BadFen(err.to_string()),
            });
            return result;
        }
    };
    for entry in &job.entries {
        let got = board.perft(entry.depth);
        node_counter.fetch_add(got, Ordering::Relaxed);
        result.nodes += got;
        if got == entry.expected {
            result.passed += 1;
        } else {
            result.failed += 1;
            result.failures.push(Failure {
                line: job.line.number,
                fen: job.line.fen.clone(),
                problem: Problem::Mismatch { depth: entry.depth, expected: entry.expected, got },
            });
        }
    }
    result
}

/// Everything the summary needs about one suite.
#[derive(Debug)]
struct SuiteReport {
    name: &'static str,
    lines: usize,
    checked: usize,
    passed: usize,
    failed: usize,
    /// Skipped entry count per depth.
    skipped: BTreeMap<u32, usize>,
    skipped_nodes: u64,
    nodes: u64,
    seconds: f64,
    failures: Vec<Failure>,
}

impl SuiteReport {
    fn skipped_total(&self) -> usize {
        self.skipped.values().sum()
    }
}

/// Runs `cargo xtask perft` (suite mode).
pub fn run(args: &PerftArgs) -> Result<ExitCode> {
    let data = util::data_dir()?;
    let wanted: &[(&'static str, bool)] = match args.suite {
        SuiteChoice::Standard => &[("standard", false)],
        SuiteChoice::Chess960 => &[("chess960", true)],
        SuiteChoice::All => &[("standard", false), ("chess960", true)],
    };
    // Load everything first, so that a missing or malformed file fails before any work.
    let suites =
        wanted.iter().map(|&(name, chess960)| Suite::load(&data, name, chess960)).collect::<Result<Vec<_>>>()?;
    let filter = Filter { max_depth: args.max_depth, max_nodes: args.max_nodes.or(args.quick.then_some(QUICK_BUDGET)) };
    let threads = args.threads.map_or_else(util::hardware_threads, NonZeroUsize::get);

    let plans: Vec<(Vec<Job<'_>>, SuiteReport)> = suites.iter().map(|suite| plan(suite, filter)).collect();
    // The progress counts the positions of the summary table, those whose every entry the
    // filter skips included (they count as done when their suite starts).
    let total_lines: usize = plans.iter().map(|(_, report)| report.lines).sum();

    let names: Vec<&str> = suites.iter().map(|s| s.name).collect();
    println!(
        "perft: suite{} {} from {}, {threads} thread{}{}",
        if names.len() == 1 { "" } else { "s" },
        names.join(" + "),
        data.join("perft").display(),
        if threads == 1 { "" } else { "s" },
        if filter.max_depth.is_some() || filter.max_nodes.is_some() {
            format!(", skipping entries with {}", filter.describe())
        } else {
            String::new()
        },
    );

    let node_counter = AtomicU64::new(0);
    let mut progress = SuiteProgress {
        display: Progress::new("perft", total_lines as u64, progress::plain_wanted(args.plain)),
        start: Instant::now(),
        failed: 0,
    };
    let mut reports = Vec::new();
    for (suite, (jobs, mut report)) in suites.iter().zip(plans) {
        run_suite(suite, &jobs, threads, &node_counter, &mut progress, &mut report);
        reports.push(report);
    }
    progress.display.finish();

    let failed: usize = reports.iter().map(|r| r.failed).sum();
    print_summary(&reports, filter);
    Ok(if failed == 0 { ExitCode::SUCCESS } else { util::EXIT_FAILURE.into() })
}

/// Splits a suite into jobs (filtered entries) and an empty report with the skip counts.
fn plan(suite: &Suite, filter: Filter) -> (Vec<Job<'_>>, SuiteReport) {
    let mut report = SuiteReport {
        name: suite.name,
        lines: suite.lines.len(),
        checked: 0,
        passed: 0,
        failed: 0,
        skipped: BTreeMap::new(),
        skipped_nodes: 0,
        nodes: 0,
        seconds: 0.0,
        failures: Vec::new(),
    };
    let mut jobs = Vec::new();
    for line in &suite.lines {
        let (kept, skipped): (Vec<Entry>, Vec<Entry>) = line.entries.iter().partition(|&&e| filter.keeps(e));
        for entry in skipped {
            *report.skipped.entry(entry.depth).or_default() += 1;
            report.skipped_nodes += entry.expected;
        }
        report.checked += kept.len();
        if !kept.is_empty() {
            jobs.push(Job { line, entries: kept });
        }
    }
    // Longest jobs first, so that the threads finish at about the same time.
    jobs.sort_by_key(|job| std::cmp::Reverse(job.entries.iter().map(|e| e.expected).sum::<u64>()));
    (jobs, report)
}

fn run_suite(
    suite: &Suite,
    jobs: &[Job<'_>],
    threads: usize,
    node_counter: &AtomicU64,
    progress: &mut SuiteProgress,
    report: &mut SuiteReport,
) {
    let start = Instant::now();
    let nodes_before = node_counter.load(Ordering::Relaxed);
    // Positions with nothing left to check are done at once.
    progress.display.skip((report.lines - jobs.len()) as u64);
    let next = AtomicUsize::new(0);
    thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<JobResult>();
        for _ in 0..threads.min(jobs.len()) {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || {
                while let Some(job) = jobs.get(next.fetch_add(1, Ordering::Relaxed)) {
                    if tx.send(check(job, suite.chess960, node_counter)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        loop {
            match rx.recv_timeout(SuiteProgress::POLL) {
                Ok(result) => {
                    progress.failed += result.failed;
                    progress.update(suite.name, node_counter.load(Ordering::Relaxed));
                    progress.display.inc(1);
                    report.passed += result.passed;
                    report.failed += result.failed;
                    report.failures.extend(result.failures);
                }
                Err(RecvTimeoutError::Timeout) => {
                    progress.update(suite.name, node_counter.load(Ordering::Relaxed));
                    progress.display.tick();
                }
                Err(RecvTimeoutError::Disconnected) => break,
            }
        }
    });
    report.seconds = start.elapsed().as_secs_f64();
    report.nodes = node_counter.load(Ordering::Relaxed) - nodes_before;
    report.failures.sort_by_key(|f| f.line);
}

/// The progress display of the suites: positions done, with the suite, nodes, speed and
/// failures so far as its message.
#[derive(Debug)]
struct SuiteProgress {
    display: Progress,
    start: Instant,
    failed: usize,
}

impl SuiteProgress {
    /// How often the node count is refreshed while positions run.
    const POLL: Duration = Duration::from_millis(200);

    fn update(&mut self, suite: &str, nodes: u64) {
        let seconds = self.start.elapsed().as_secs_f64();
        let mut message = format!("{suite}, {:.1e} nodes, {:.0} Mnps", nodes as f64, util::mnps(nodes, seconds));
        if self.failed > 0 {
            message.push_str(&format!(", {} FAILED", self.failed));
        }
        self.display.set_message(message);
    }
}

fn print_summary(reports: &[SuiteReport], filter: Filter) {
    println!();
    println!(
        "{:<10} {:>6} {:>8} {:>8} {:>7} {:>8} {:>17} {:>9} {:>8}",
        "suite", "lines", "entries", "passed", "failed", "skipped", "nodes", "seconds", "Mnps"
    );
    let row = |name: &str, lines: usize, checked, passed, failed, skipped, nodes: u64, seconds: f64| {
        println!(
            "{name:<10} {lines:>6} {checked:>8} {passed:>8} {failed:>7} {skipped:>8} {:>17} {seconds:>9.2} {:>8.1}",
            util::thousands(nodes),
            util::mnps(nodes, seconds),
        );
    };
    for r in reports {
        row(r.name, r.lines, r.checked, r.passed, r.failed, r.skipped_total(), r.nodes, r.seconds);
    }
    if reports.len() > 1 {
        let sum = |f: fn(&SuiteReport) -> usize| reports.iter().map(f).sum::<usize>();
        row(
            "total",
            sum(|r| r.lines),
            sum(|r| r.checked),
            sum(|r| r.passed),
            sum(|r| r.failed),
            sum(SuiteReport::skipped_total),
            reports.iter().map(|r| r.nodes).sum(),
            reports.iter().map(|r| r.seconds).sum(),
        );
    }

    if reports.iter().any(|r| r.skipped_total() > 0) {
        println!();
        println!("skipped (entries with {}):", filter.describe());
        for r in reports.iter().filter(|r| r.skipped_total() > 0) {
            let by_depth: Vec<String> = r.skipped.iter().map(|(d, n)| format!("D{d}: {n}")).collect();
            println!(
                "  {:<10} {} entries ({}), {} expected nodes not run",
                r.name,
                r.skipped_total(),
                by_depth.join(", "),
                util::thousands(r.skipped_nodes),
            );
        }
    }

    let failures: Vec<(&str, &Failure)> =
        reports.iter().flat_map(|r| r.failures.iter().map(move |f| (r.name, f))).collect();
    println!();
    if failures.is_empty() {
        let checked: usize = reports.iter().map(|r| r.checked).sum();
        println!("PASS: all {checked} depth entries match");
        return;
    }
    let failed: usize = reports.iter().map(|r| r.failed).sum();
    println!("FAIL: {failed} depth entries do not match:");
    for (suite, f) in failures {
        match &f.problem {
            Problem::Mismatch { depth, expected, got } => println!(
                "  {suite} line {}: D{depth} expected {} got {} ({:+})  FEN {}",
                f.line,
                util::thousands(*expected),
                util::thousands(*got),
                i128::from(*got) - i128::from(*expected),
                f.fen,
            ),
            Problem::BadFen(err) => println!("  {suite} line {}: FEN rejected ({err})  FEN {}", f.line, f.fen),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_suite_lines() {
        let line = parse_line(7, "8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3 ;D2 9 ").unwrap();
        assert_eq!(line.number, 7);
        assert_eq!(line.fen, "8/8/8/8/8/8/8/K6k w - - 0 1");
        let entries: Vec<(u32, u64)> = line.entries.iter().map(|e| (e.depth, e.expected)).collect();
        assert_eq!(entries, [(1, 3), (2, 9)]);
        assert!(parse_line(1, "8/8/8/8/8/8/8/K6k w - - 0 1").is_err());
        assert!(parse_line(1, "8/8/8/8/8/8/8/K6k w - - 0 1 ;X1 3").is_err());
        assert!(parse_line(1, "8/8/8/8/8/8/8/K6k w - - 0 1 ;D1").is_err());
    }

    #[test]
    fn progress_counts_every_line_of_the_table() {
        // Line 3's only entry is over the budget: no job, but it is a line of the table.
        let suite = Suite {
            name: "test",
            chess960: false,
            lines: vec![
                parse_line(1, "8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3 ;D2 9").unwrap(),
                parse_line(2, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1 5").unwrap(),
                parse_line(3, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D2 25").unwrap(),
            ],
        };
        let filter = Filter { max_depth: None, max_nodes: Some(10) };
        let (jobs, mut report) = plan(&suite, filter);
        assert_eq!((jobs.len(), report.lines), (2, 3));
        let mut progress = SuiteProgress {
            display: Progress::new("perft", report.lines as u64, true),
            start: Instant::now(),
            failed: 0,
        };
        run_suite(&suite, &jobs, 2, &AtomicU64::new(0), &mut progress, &mut report);
        assert_eq!((progress.display.done(), progress.display.total()), (3, 3));
        assert_eq!((report.passed, report.failed, report.skipped_total()), (3, 0, 1));
    }

    #[test]
    fn filter_keeps_by_depth_and_budget() {
        let filter = Filter { max_depth: Some(5), max_nodes: Some(QUICK_BUDGET) };
        assert!(filter.keeps(Entry { depth: 5, expected: QUICK_BUDGET }));
        assert!(!filter.keeps(Entry { depth: 6, expected: 1 }));
        assert!(!filter.keeps(Entry { depth: 1, expected: QUICK_BUDGET + 1 }));
    }
}
