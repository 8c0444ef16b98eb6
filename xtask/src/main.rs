//! Developer tasks for Cutoff: `cargo xtask <command>` (the alias lives in `.cargo/config.toml`).
//!
//! One binary, one folder per part: `perft_bench` (perft suites and speed, `bench`), `matches`
//! (matches, SPSA, `score`, `uci-elo`), `tactics`, `network` (`wdl`, `labels`, `eval-bias`,
//! `widen`), `dist`, with `train`, `ordering` and `eval_tune` beside them. A subcommand that needs optimised code (perft,
//! benchmarks) calls [`util::rerun_in_release`] first, which re-executes this binary through
//! `cargo run --release` when it was built in the dev profile.

mod dist;
mod eval_tune;
mod git;
mod matches;
mod network;
mod ordering;
mod perft_bench;
mod progress;
mod tactics;
mod train;
mod util;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Developer tasks for the Cutoff chess engine.
#[derive(Debug, Parser)]
#[command(
    name = "cargo xtask",
    bin_name = "cargo xtask",
    version,
    after_long_help = "\
EXAMPLES:
    cargo xtask perft --quick                   perft suites, entries <= 10M nodes (CI)
    cargo xtask perft                           full perft suites (tens of minutes)
    cargo xtask perft --suite standard --max-depth 5 -j 2
    cargo xtask perft --bench --runs 3          perft speed, cutoff-board vs cozy-chess
    cargo xtask bench --check                   bench node count == last `Bench:` commit line (CI)
    cargo xtask bench --vs HEAD~1               nps against another revision, side by side
    cargo xtask match --vs HEAD~1 --tc 10+0.1 --games 200 --concurrency 2
    cargo xtask match --vs HEAD~1 --tc 10+0.1 --sprt elo0=0 elo1=5
    cargo xtask match --vs HEAD~1 --tc 10+0.1 --sprt elo0=0 elo1=5 --runner fastchess   (played by fastchess)
    cargo xtask tactics --suite bk --movetime 1000
    cargo xtask tactics --suite sts --movetime 200
    cargo xtask ordering --write                the move-ordering study -> docs/ordering.md
    cargo xtask tune                            fit the evaluation weights -> crates/eval/src/weights.rs
    cargo xtask tune --check                    the committed weights are reproduced from the data
    cargo xtask spsa --engine target/tune/release/cutoff --pairs 2000 --nodes 8000 --concurrency 2 --state spsa.state
    cargo xtask score --pgn half1.pgn --pgn half2.pgn   a match played in parts, counted as one
    cargo xtask dist                            release archives, x86-64 to x86-64-v4 -> dist/
    cargo xtask help perft                      all perft options

ENVIRONMENT:
    CUTOFF_DATA            Directory holding the large data sets (tuning/), default ../shared/data.
    CUTOFF_XTASK_RELEASE   Set by xtask itself when it re-runs in release mode (loop guard).

EXIT STATUS:
    0  success
    1  a check failed (e.g. a perft count did not match)
    2  usage or environment error (missing data file, unparsable line, cargo failure, ...)"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Check move generation against the perft suites, or benchmark perft speed (`--bench`).
    #[command(long_about = perft_bench::perft::LONG_ABOUT)]
    Perft(perft_bench::perft::PerftArgs),
    /// Run `cutoff bench`: nodes and nps; `--check` against the last `Bench:` commit line;
    /// `--vs REV` compares speed with another revision.
    Bench(perft_bench::bench::BenchArgs),
    /// Play an engine-vs-engine match (openings, time controls, adjudication, PGN, Elo, nElo,
    /// SPRT), in-tree or handed to fastchess / cutechess-cli (`--runner`).
    Match(matches::MatchArgs),
    /// Run an EPD test suite (bm/am, STS points) at a time or node limit per position.
    Tactics(tactics::TacticsArgs),
    /// The move-ordering study: what each ordering heuristic is worth, as a Markdown table.
    Ordering(ordering::OrderingArgs),
    /// Fit every weight of the hand-crafted evaluation to labelled positions (Texel tuning
    /// with Adam) and write crates/eval/src/weights.rs. (The search parameters are tuned by
    /// `spsa`.)
    #[command(visible_alias = "eval-tune")]
    Tune(eval_tune::EvalTuneArgs),
    /// Tune the search parameters of a `tune` build by SPSA, playing the game pairs itself
    /// (OpenBench's schedule and configuration format).
    Spsa(matches::spsa::SpsaArgs),
    /// Count the results of match PGNs together (a match played in parts): W-D-L, pentanomial,
    /// Elo, nElo and LOS.
    Score(matches::score::ScoreArgs),
    /// Fit the win/draw/loss model (`UCI_ShowWDL`) to game results; prints the coefficients
    /// of `cutoff_search::wdl`.
    Wdl(network::wdl::WdlArgs),
    /// Play the `UCI_Elo` calibration table again against Stockfish 15.1: each level's
    /// measured Elo, and the node budget that would bring a level off its label back to it.
    UciElo(matches::uci_elo::UciEloArgs),
    /// Train the evaluation network (NNUE) from labelled positions and write the quantised
    /// network file.
    Train(train::TrainArgs),
    /// How a self-play set's result labels agree with its score labels: the mean result by
    /// band of search score, and the scale that fits them.
    Labels(network::labels::LabelsArgs),
    /// Compare networks' static evaluations with the search scores of self-play data, by
    /// stage of the game (and the start position's evaluation).
    EvalBias(network::evalbias::EvalBiasArgs),
    /// Build the release archives for Linux x86-64 (x86-64, x86-64-v2, x86-64-v3,
    /// x86-64-v4: binary, README, licences, SHA-256 list) and bench each level.
    Dist(dist::DistArgs),
    /// Write a network with a wider hidden layer whose new neurons are zero: the same
    /// evaluation, so `cutoff bench --evalfile` measures what the width alone costs.
    Widen(network::widen::WidenArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(args) if args.bench => release(perft_bench::perft_speed::run, &args),
        // Check for the data before the (slow) release build.
        Command::Perft(args) => util::data_dir().and_then(|_| release(perft_bench::perft::run, &args)),
        Command::Bench(args) => perft_bench::bench::run(&args),
        Command::Match(args) => matches::run(&args),
        Command::Tactics(args) => tactics::run(&args),
        Command::Ordering(args) => release(ordering::run, &args),
        Command::Tune(args) => release(eval_tune::run, &args),
        Command::Spsa(args) => release(matches::spsa::run, &args),
        Command::Score(args) => matches::score::run(&args),
        Command::Wdl(args) => release(network::wdl::run, &args),
        Command::UciElo(args) => matches::uci_elo::run(&args),
        // Drawing a CSV needs no optimised build.
        Command::Train(args) if args.plot.is_some() => train::run(&args),
        Command::Train(args) => release(train::run, &args),
        Command::EvalBias(args) => release(network::evalbias::run, &args),
        Command::Labels(args) => release(network::labels::run, &args),
        Command::Dist(args) => dist::run(&args),
        Command::Widen(args) => network::widen::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err}");
            util::EXIT_ERROR.into()
        }
    }
}

/// Runs `task` in a release build: in-process if this is one, else through
/// [`util::rerun_in_release`], whose exit status is passed on.
fn release<A>(task: fn(&A) -> util::Result<ExitCode>, args: &A) -> util::Result<ExitCode> {
    match util::rerun_in_release() {
        Some(code) => Ok(code),
        None => task(args),
    }
}
