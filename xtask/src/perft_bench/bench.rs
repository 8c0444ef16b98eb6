//! `cargo xtask bench`: build the release engine, run `cutoff bench`, report nodes and speed.
//!
//! * `--check` compares the node count (default depth) with the `Bench: N` line of the newest
//!   commit that has one, as CI does.
//! * `--vs REV` builds REV in a temporary git worktree (its own target directory, kept between
//!   runs) and runs both binaries' bench alternately to compare their speed.
//!
//! Progress goes to stderr, the summary to stdout.

use std::collections::hash_map::DefaultHasher;
use std::env;
use std::fs;
use std::hash::{Hash, Hasher};
use std::num::NonZeroU32;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

use clap::Args;

use crate::git::{Worktree, commit_of, git};
use crate::util::{self, Result};

/// Extra help of `cargo xtask bench --help`.
const AFTER_LONG_HELP: &str = "\
Builds the engine (cargo build --release -p cutoff), runs `cutoff bench [depth]` and prints
its node count and speed. The node count at the default depth is the build's signature:
commits that change it say so with a line `Bench: <nodes>` in their message.

--check finds the newest commit whose message has a `Bench: <nodes>` line and exits with
status 1 if the node count differs (CI runs `cargo xtask bench --check`).

--vs REV checks out REV in a temporary git worktree under the system temp directory,
builds it with its own target directory (<tmp>/cutoff-xtask-bench/target, reused between
invocations; the built binary is cached per commit and RUSTFLAGS), removes the worktree,
then runs the two benches alternately --runs times and compares their median nps, and the
median of the paired ratios (each run against the other binary's run next to it in time,
which cancels some of the machine's drift). The machine should be otherwise idle for
meaningful speed numbers.

--eval hce|nnue is passed on to `cutoff bench --eval` (both binaries with --vs): the
hand-crafted evaluation or the embedded network (the default). --evalfile FILE is passed on
to `cutoff bench --evalfile` (both binaries with --vs): a network file, so that two builds
that embed different networks can be compared on the same one. Neither goes with --check,
whose node count is the default evaluation's.

EXAMPLES:
    cargo xtask bench                     nodes and nps at the default depth
    cargo xtask bench --check             compare with the last `Bench:` commit line
    cargo xtask bench --vs HEAD~1         speed against the previous commit (5 runs each)
    cargo xtask bench --vs main --runs 9 --depth 11
    cargo xtask bench --vs c7aab50 --runs 15 --eval hce
    cargo xtask bench --vs c7aab50 --runs 15 --evalfile net5.nnue";

/// Arguments of `cargo xtask bench`.
#[derive(Debug, Args)]
#[command(after_long_help = AFTER_LONG_HELP)]
pub struct BenchArgs {
    /// Search depth [default: the engine's bench depth].
    #[arg(long, value_name = "N", conflicts_with = "check", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,

    /// Compare the node count (at the default depth) with the newest `Bench: N` commit line;
    /// exit with status 1 if it differs.
    #[arg(long, conflicts_with = "vs")]
    pub check: bool,

    /// Also build revision REV (anything `git rev-parse` accepts) in a temporary worktree and
    /// compare the two binaries' speed.
    #[arg(long, value_name = "REV")]
    pub vs: Option<String>,

    /// Bench runs per binary [default: 1; with --vs: 5].
    #[arg(long, value_name = "N")]
    pub runs: Option<NonZeroU32>,

    /// The evaluation, passed to `cutoff bench --eval` [default: the engine's, the network].
    #[arg(long, value_name = "EVAL", conflicts_with = "check", value_parser = ["hce", "nnue"])]
    pub eval: Option<String>,

    /// A network file, passed to `cutoff bench --evalfile` [default: the embedded network].
    #[arg(long, value_name = "FILE", conflicts_with_all = ["check", "eval"])]
    pub evalfile: Option<PathBuf>,
}

/// Runs `cargo xtask bench`.
pub fn run(args: &BenchArgs) -> Result<ExitCode> {
    let root = util::workspace_root();
    if args.check {
        return check(&root);
    }
    // An absolute path, so that it names the same file whichever directory a binary runs in.
    let evalfile = match &args.evalfile {
        Some(path) => Some(fs::canonicalize(path).map_err(|e| format!("--evalfile {}: {e}", path.display()))?),
        None => None,
    };
    let setup = Setup { depth: args.depth, eval: args.eval.as_deref(), evalfile: evalfile.as_deref() };
    match &args.vs {
        Some(rev) => versus(&root, rev, setup, args.runs.map_or(5, NonZeroU32::get)),
        None => plain(&root, setup, args.runs.map_or(1, NonZeroU32::get)),
    }
}

/// What each `cutoff bench` run is given: the depth and the evaluation (`None`: the engine's),
/// or a network file.
#[derive(Debug, Clone, Copy)]
struct Setup<'a> {
    depth: Option<u32>,
    eval: Option<&'a str>,
    evalfile: Option<&'a Path>,
}

impl Setup<'_> {
    /// The arguments after `bench`.
    fn args(&self) -> Vec<String> {
        let mut args = Vec::new();
        if let Some(eval) = self.eval {
            args.extend(["--eval".to_owned(), eval.to_owned()]);
        }
        if let Some(file) = self.evalfile {
            args.extend(["--evalfile".to_owned(), file.display().to_string()]);
        }
        args.extend(self.depth.map(|d| d.to_string()));
        args
    }

    /// "depth N" (or "depth default"), and the evaluation when one is given.
    fn describe(&self) -> String {
        match (self.eval, self.evalfile) {
            (Some(eval), _) => format!("depth {}, --eval {eval}", depth_name(self.depth)),
            (None, Some(file)) => format!("depth {}, --evalfile {}", depth_name(self.depth), file.display()),
            (None, None) => format!("depth {}", depth_name(self.depth)),
        }
    }
}

/// `cargo xtask bench [--depth N] [--runs N] [--eval EVAL]`.
fn plain(root: &Path, setup: Setup, runs: u32) -> Result<ExitCode> {
    let binary = build_engine(root, None)?;
    let mut results = Vec::new();
    for run in 1..=runs {
        eprint!("bench: run {run}/{runs}: {} bench {} ... ", binary.display(), setup.args().join(" "));
        let result = run_bench(&binary, setup)?;
        eprintln!("{} nodes, {} nps", util::thousands(result.nodes), util::thousands(result.nps));
        results.push(result);
    }
    let nodes = results[0].nodes;
    if let Some(other) = results.iter().find(|r| r.nodes != nodes) {
        return Err(format!(
            "the node count is not deterministic: {} then {} nodes",
            util::thousands(nodes),
            util::thousands(other.nodes)
        )
        .into());
    }
    let nps: Vec<u64> = results.iter().map(|r| r.nps).collect();
    println!("cutoff bench, {}", setup.describe());
    println!("nodes  {}", util::thousands(nodes));
    if runs == 1 {
        println!("nps    {}", util::thousands(nps[0]));
    } else {
        let (min, max) = (nps.iter().min().copied().unwrap_or(0), nps.iter().max().copied().unwrap_or(0));
        println!(
            "nps    {} median of {runs} runs (min {}, max {}, spread {:.1}%)",
            util::thousands(median(&nps)),
            util::thousands(min),
            util::thousands(max),
            spread_percent(&nps),
        );
    }
    if setup.depth.is_none() && setup.eval.is_none() && setup.evalfile.is_none() {
        println!("Bench: {nodes}");
    }
    Ok(ExitCode::SUCCESS)
}

/// `cargo xtask bench --check`.
fn check(root: &Path) -> Result<ExitCode> {
    // Read the history first: a missing `Bench:` line fails before the (slow) build.
    let log = git(root, &["log", "--format=%x1e%H%n%B"])?;
    let Some(expected) = find_bench_line(&log) else {
        let shallow = git(root, &["rev-parse", "--is-shallow-repository"]).is_ok_and(|s| s.trim() == "true");
        return Err(format!(
            "no commit in the history of HEAD has a `Bench: <nodes>` line in its message{}",
            if shallow { " (this is a shallow clone: fetch more history, e.g. `git fetch --unshallow`)" } else { "" }
        )
        .into());
    };
    eprintln!(
        "bench: expecting {} nodes (`Bench:` line of commit {} \"{}\")",
        util::thousands(expected.nodes),
        short(&expected.commit),
        expected.subject
    );
    let binary = build_engine(root, None)?;
    eprintln!("bench: running {} bench ...", binary.display());
    let result = run_bench(&binary, Setup { depth: None, eval: None, evalfile: None })?;
    let source = format!("commit {} \"{}\"", short(&expected.commit), expected.subject);
    if result.nodes == expected.nodes {
        println!(
            "bench --check: OK: {} nodes, as `Bench: {}` in {source} ({} nps)",
            util::thousands(result.nodes),
            expected.nodes,
            util::thousands(result.nps)
        );
        Ok(ExitCode::SUCCESS)
    } else {
        println!(
            "bench --check: FAIL: the bench is {} nodes, but the newest `Bench:` line says {} ({source}); \
             a difference of {:+}",
            util::thousands(result.nodes),
            util::thousands(expected.nodes),
            i128::from(result.nodes) - i128::from(expected.nodes),
        );
        println!("If the change is intended, the commit message should have the line `Bench: {}`.", result.nodes);
        Ok(util::EXIT_FAILURE.into())
    }
}

/// `cargo xtask bench --vs REV`.
fn versus(root: &Path, rev: &str, setup: Setup, runs: u32) -> Result<ExitCode> {
    let commit = commit_of(root, rev)
        .map_err(|_| format!("`{rev}` is not a commit of this repository (git rev-parse failed)"))?;
    let label = short(&commit).to_owned();
    let current = build_engine(root, None)?;
    let other = build_revision(root, &commit)?;

    eprintln!(
        "bench: {runs} run{} each, {}, alternating current and {label} ({rev})",
        if runs == 1 { "" } else { "s" },
        setup.describe()
    );
    let mut mine = Vec::new();
    let mut theirs = Vec::new();
    for run in 1..=runs {
        // Alternate which goes first, so that neither always runs on a warmer machine.
        let order: [bool; 2] = if run % 2 == 1 { [true, false] } else { [false, true] };
        for is_current in order {
            let (name, binary) = if is_current { ("current", &current) } else { (label.as_str(), &other) };
            eprint!("bench: run {run}/{runs} {name:<10} ... ");
            let result = run_bench(binary, setup)?;
            eprintln!("{:>11} nps, {} nodes", util::thousands(result.nps), util::thousands(result.nodes));
            if is_current { mine.push(result) } else { theirs.push(result) }
        }
    }

    let mine_nps: Vec<u64> = mine.iter().map(|r| r.nps).collect();
    let their_nps: Vec<u64> = theirs.iter().map(|r| r.nps).collect();
    let (mine_median, their_median) = (median(&mine_nps), median(&their_nps));
    let other_head = format!("{label} ({rev})");
    let width = other_head.len().max(15);
    println!();
    println!(
        "bench --vs {rev}: {}, {runs} run{} each, alternating{}",
        setup.describe(),
        if runs == 1 { "" } else { "s" },
        util::load_average().map(|l| format!(", load average {l}")).unwrap_or_default()
    );
    let row = |name: &str, a: String, b: String| println!("{name:<8} {a:>15} {b:>width$}");
    row("nps", "current".into(), other_head.clone());
    for (i, (a, b)) in mine_nps.iter().zip(&their_nps).enumerate() {
        row(&format!("run {}", i + 1), util::thousands(*a), util::thousands(*b));
    }
    row("median", util::thousands(mine_median), util::thousands(their_median));
    let range = |v: &[u64]| {
        let (min, max) = (v.iter().min().copied().unwrap_or(0), v.iter().max().copied().unwrap_or(0));
        format!("{:.3}–{:.3}M", min as f64 / 1e6, max as f64 / 1e6)
    };
    row("min–max", range(&mine_nps), range(&their_nps));
    let percent = |v: &[u64]| format!("{:.1}%", spread_percent(v));
    row("spread", percent(&mine_nps), percent(&their_nps));
    let ratio = if their_median > 0 { mine_median as f64 / their_median as f64 } else { 0.0 };
    println!("nps ratio current/{label} (medians): {ratio:.3} ({:+.1}%)", (ratio - 1.0) * 100.0);
    let paired = paired_ratios(&mine_nps, &their_nps);
    if let (Some(min), Some(max)) = (paired.first(), paired.last()) {
        println!(
            "paired ratios (each run against its neighbour): median {:.3}, range {min:.3}–{max:.3}",
            median_f64(&paired)
        );
    }
    let (mine_nodes, their_nodes) = (mine[0].nodes, theirs[0].nodes);
    if mine_nodes == their_nodes {
        println!("nodes: {} for both (same search)", util::thousands(mine_nodes));
    } else {
        println!(
            "nodes: current {}, {label} {} (they DIFFER: the searches are not the same, {:+})",
            util::thousands(mine_nodes),
            util::thousands(their_nodes),
            i128::from(mine_nodes) - i128::from(their_nodes)
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// One `cutoff bench` run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct BenchResult {
    nodes: u64,
    nps: u64,
}

/// Runs `binary bench [--eval EVAL] [depth]` and reads its `<nodes> nodes <nps> nps` line.
fn run_bench(binary: &Path, setup: Setup) -> Result<BenchResult> {
    let mut cmd = Command::new(binary);
    cmd.arg("bench").args(setup.args());
    let output = cmd.stdin(Stdio::null()).output().map_err(|e| format!("cannot run {}: {e}", binary.display()))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let tail: Vec<&str> = stderr.lines().rev().take(10).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        return Err(format!("{} bench failed ({}):\n{}", binary.display(), output.status, tail.join("\n")).into());
    }
    parse_bench_output(&stdout).ok_or_else(|| {
        format!("{} bench printed no `<nodes> nodes <nps> nps` line; its output was:\n{stdout}", binary.display())
            .into()
    })
}

/// The last `<nodes> nodes <nps> nps` line of `cutoff bench`'s stdout.
fn parse_bench_output(stdout: &str) -> Option<BenchResult> {
    stdout.lines().rev().find_map(|line| {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [nodes, "nodes", nps, "nps"] => Some(BenchResult { nodes: nodes.parse().ok()?, nps: nps.parse().ok()? }),
            _ => None,
        }
    })
}

/// The newest commit with a `Bench:` line.
#[derive(Debug, Clone, PartialEq, Eq)]
struct BenchLine {
    commit: String,
    subject: String,
    nodes: u64,
}

/// Finds the first (newest) commit with a line `Bench: <nodes>` in `git log --format=%x1e%H%n%B`
/// output: records separated by U+001E, each the full hash on its first line and then the
/// message. (The separator keeps a message line that happens to look like a hash from being
/// read as the start of a commit.) If a message has several such lines, the last one counts.
fn find_bench_line(log: &str) -> Option<BenchLine> {
    log.split('\u{1e}').find_map(|record| {
        let mut lines = record.lines();
        let commit = lines.next()?.trim().to_owned();
        let message: Vec<&str> = lines.collect();
        let nodes = message.iter().rev().find_map(|line| parse_bench_commit_line(line))?;
        let subject = message.iter().map(|l| l.trim()).find(|l| !l.is_empty()).unwrap_or_default();
        let subject = match subject.char_indices().nth(60) {
            Some((end, _)) => format!("{}...", &subject[..end]),
            None => subject.to_owned(),
        };
        Some(BenchLine { commit, subject, nodes })
    })
}

/// `"Bench: 18406820"` -> `Some(18406820)` (surrounding spaces allowed, nothing else).
fn parse_bench_commit_line(line: &str) -> Option<u64> {
    let value = line.trim().strip_prefix("Bench:")?.trim();
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    value.parse().ok()
}

/// Builds the engine with `cargo build --release -p cutoff` in `workspace` and returns the
/// binary's path. `target_dir` overrides the target directory (else `$CARGO_TARGET_DIR` or
/// `<workspace>/target`). Cargo's own output goes to stderr.
pub(crate) fn build_engine(workspace: &Path, target_dir: Option<&Path>) -> Result<PathBuf> {
    build_engine_with(workspace, target_dir, None)
}

/// [`build_engine`], with an extra cargo configuration file (`cargo --config PATH`) that takes
/// precedence over the one of `workspace`.
pub(crate) fn build_engine_with(workspace: &Path, target_dir: Option<&Path>, config: Option<&Path>) -> Result<PathBuf> {
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.args(["build", "--release", "--package", "cutoff"]).current_dir(workspace).stdin(Stdio::null());
    if let Some(config) = config {
        cmd.arg("--config").arg(config);
    }
    if let Some(dir) = target_dir {
        cmd.env("CARGO_TARGET_DIR", dir);
    }
    eprintln!("xtask: building the engine in {} (cargo build --release -p cutoff) ...", workspace.display());
    let start = Instant::now();
    let status = cmd.status().map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err(format!("cargo build --release -p cutoff failed in {} ({status})", workspace.display()).into());
    }
    let target = match target_dir {
        Some(dir) => dir.to_path_buf(),
        // Cargo resolves a relative $CARGO_TARGET_DIR against its working directory.
        None => env::var_os("CARGO_TARGET_DIR").map_or_else(|| workspace.join("target"), |d| workspace.join(d)),
    };
    let binary = target.join("release").join(format!("cutoff{}", env::consts::EXE_SUFFIX));
    if !binary.is_file() {
        return Err(format!("cargo build succeeded but {} does not exist", binary.display()).into());
    }
    eprintln!("xtask: built {} in {:.1} s", binary.display(), start.elapsed().as_secs_f64());
    Ok(binary)
}

/// Builds `commit` in a temporary worktree (removed afterwards) and returns a cached copy of its
/// binary, reusing the copy if this commit was built before with the same flags.
fn build_revision(root: &Path, commit: &str) -> Result<PathBuf> {
    let base = env::temp_dir().join("cutoff-xtask-bench");
    let cache = base.join("bin");
    fs::create_dir_all(&cache).map_err(|e| format!("cannot create {}: {e}", cache.display()))?;
    let cached = cache.join(format!("cutoff-{}-{:016x}{}", short(commit), build_flags_hash(), env::consts::EXE_SUFFIX));
    if cached.is_file() {
        eprintln!("xtask: using the cached build of {} ({})", short(commit), cached.display());
        return Ok(cached);
    }
    let path = base.join(format!("worktree-{}-{}", short(commit), std::process::id()));
    eprintln!("xtask: checking out {} in the temporary worktree {} ...", short(commit), path.display());
    let worktree = Worktree::add(root, &path, commit)?;
    let binary = build_engine_with(&worktree.path, Some(&base.join("target")), build_config(root).as_deref())?;
    // Copy under a private name, then rename: another xtask may be reading the cache.
    let partial = cache.join(format!(".partial-{}", std::process::id()));
    fs::copy(&binary, &partial).map_err(|e| format!("cannot copy {}: {e}", binary.display()))?;
    fs::rename(&partial, &cached).map_err(|e| format!("cannot rename to {}: {e}", cached.display()))?;
    drop(worktree);
    Ok(cached)
}

/// The current tree's cargo configuration (`.cargo/config.toml`: the native-CPU flags). Builds
/// of other revisions use it too, so both binaries of a comparison are built alike even when
/// the other revision predates it or changed it.
pub(crate) fn build_config(root: &Path) -> Option<PathBuf> {
    Some(root.join(".cargo").join("config.toml")).filter(|p| p.is_file())
}

/// A hash of what besides the commit changes the binary: compiler flags, the cargo
/// configuration and the toolchain.
fn build_flags_hash() -> u64 {
    let mut hasher = DefaultHasher::new();
    for var in ["RUSTFLAGS", "CARGO_ENCODED_RUSTFLAGS", "RUSTUP_TOOLCHAIN", "RUSTC"] {
        env::var_os(var).unwrap_or_default().hash(&mut hasher);
    }
    if let Some(config) = build_config(&util::workspace_root()) {
        fs::read(config).unwrap_or_default().hash(&mut hasher);
    }
    hasher.finish()
}

/// The first 10 characters of a commit hash.
fn short(commit: &str) -> &str {
    commit.get(..10).unwrap_or(commit)
}

fn depth_name(depth: Option<u32>) -> String {
    depth.map_or_else(|| format!("{} (default)", cutoff_uci::DEFAULT_BENCH_DEPTH), |d| d.to_string())
}

/// The median (the mean of the middle two for an even count); 0 for no values.
fn median(values: &[u64]) -> u64 {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    match sorted.len() {
        0 => 0,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2,
    }
}

/// The ratios `a / b` of the runs paired by index (pairs with `b = 0` left out), sorted.
fn paired_ratios(a: &[u64], b: &[u64]) -> Vec<f64> {
    let mut ratios: Vec<f64> = a.iter().zip(b).filter(|&(_, &b)| b > 0).map(|(&a, &b)| a as f64 / b as f64).collect();
    ratios.sort_by(f64::total_cmp);
    ratios
}

/// The median of sorted values (the mean of the middle two for an even count); 0 for none.
fn median_f64(sorted: &[f64]) -> f64 {
    match sorted.len() {
        0 => 0.0,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

/// (max - min) / median, in percent.
fn spread_percent(values: &[u64]) -> f64 {
    let (min, max) = (values.iter().min().copied().unwrap_or(0), values.iter().max().copied().unwrap_or(0));
    let median = median(values);
    if median == 0 { 0.0 } else { (max - min) as f64 / median as f64 * 100.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "31384ed61577151e2daca537c50c99929f06bb25";
    const B: &str = "3266a91b9421b4ce9f31df9befed036528cbd247";
    const C: &str = "e1e367f4adce2dcaee8727b35960f7f0a7276de2";

    fn log(commits: &[(&str, &str)]) -> String {
        commits.iter().map(|(hash, message)| format!("\u{1e}{hash}\n{message}\n")).collect()
    }

    #[test]
    fn paired_ratios_and_their_median() {
        let ratios = paired_ratios(&[300, 100, 200, 50], &[100, 100, 100, 0]);
        assert_eq!(ratios, [1.0, 2.0, 3.0]); // sorted; the pair with a zero left out
        assert_eq!(median_f64(&ratios), 2.0);
        assert_eq!(median_f64(&[1.0, 2.0]), 1.5);
        assert_eq!(median_f64(&[]), 0.0);
    }

    #[test]
    fn bench_arguments() {
        let plain = Setup { depth: None, eval: None, evalfile: None };
        assert!(plain.args().is_empty());
        let both = Setup { depth: Some(11), eval: Some("hce"), evalfile: None };
        assert_eq!(both.args(), ["--eval", "hce", "11"]);
        assert!(both.describe().ends_with("--eval hce"));
        let file = Setup { depth: Some(7), eval: None, evalfile: Some(Path::new("/n/net5.nnue")) };
        assert_eq!(file.args(), ["--evalfile", "/n/net5.nnue", "7"]);
        assert_eq!(file.describe(), "depth 7, --evalfile /n/net5.nnue");
    }

    #[test]
    fn bench_commit_lines() {
        assert_eq!(parse_bench_commit_line("Bench: 18406820"), Some(18_406_820));
        assert_eq!(parse_bench_commit_line("  Bench:18406820  "), Some(18_406_820));
        assert_eq!(parse_bench_commit_line("Bench: 0"), Some(0));
        assert_eq!(parse_bench_commit_line("Bench:"), None);
        assert_eq!(parse_bench_commit_line("Bench: 18,406,820"), None);
        assert_eq!(parse_bench_commit_line("Bench: 123 nodes"), None);
        assert_eq!(parse_bench_commit_line("Bench: -5"), None);
        assert_eq!(parse_bench_commit_line("bench: 123"), None);
        assert_eq!(parse_bench_commit_line("New Bench: 123"), None);
        assert_eq!(parse_bench_commit_line("Bench: 99999999999999999999999"), None);
    }

    #[test]
    fn newest_bench_line_wins() {
        let text = log(&[
            (A, "board: pext feature builds\n\nno bench change here"),
            (B, "uci: never refuse commands\nboard: property tests\n\nBench: 18406820"),
            (C, "search: older\n\nBench: 17000000"),
        ]);
        let found = find_bench_line(&text).unwrap();
        assert_eq!(found.commit, B);
        assert_eq!(found.subject, "uci: never refuse commands");
        assert_eq!(found.nodes, 18_406_820);
    }

    #[test]
    fn bench_line_edge_cases() {
        // None at all, or only malformed lines.
        assert_eq!(find_bench_line(""), None);
        assert_eq!(find_bench_line(&log(&[(A, "x\n\nBench: soon"), (B, "y\n\nbench: 5")])), None);
        // The last `Bench:` line of a message counts; a message line that looks like a hash
        // does not start a new commit.
        let text = log(&[(A, &format!("revert\n\nThis reverts\n{C}\n\nBench: 1\nBench: 2")), (C, "old\n\nBench: 3")]);
        assert_eq!(find_bench_line(&text).map(|b| (b.commit, b.nodes)), Some((A.to_owned(), 2)));
        // An empty message.
        let text = log(&[(A, ""), (B, "s\n\n   Bench: 42   ")]);
        assert_eq!(find_bench_line(&text).map(|b| (b.commit, b.subject, b.nodes)), Some((B.into(), "s".into(), 42)));
    }

    #[test]
    fn bench_output() {
        let out = "some text\n18406820 nodes 4282325 nps\n";
        assert_eq!(parse_bench_output(out), Some(BenchResult { nodes: 18_406_820, nps: 4_282_325 }));
        assert_eq!(parse_bench_output("1 nodes x nps\n"), None);
        assert_eq!(parse_bench_output(""), None);
    }

    #[test]
    fn medians_and_spread() {
        assert_eq!(median(&[]), 0);
        assert_eq!(median(&[3, 1, 2]), 2);
        assert_eq!(median(&[4, 1, 3, 2]), 2);
        assert!((spread_percent(&[90, 100, 110]) - 20.0).abs() < 1e-9);
    }
}
