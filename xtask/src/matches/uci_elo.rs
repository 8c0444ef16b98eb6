//! `cargo xtask uci-elo`: the `UCI_Elo` calibration table played again.
//!
//! Each level of the table (`cutoff_uci::strength::ANCHORS`, from 1400 up: Stockfish 15.1's
//! scale starts at 1350) plays Stockfish with `UCI_LimitStrength` on and the same `UCI_Elo`,
//! as `docs/strength.md` describes: 1 thread, Hash 16, 5+0.05 with a 100 ms clock margin, the
//! level as the seed of the openings' order. A level's measured Elo is its label plus the
//! match's Elo. For a level off its label, the table names the node budget that would bring it
//! there, from the table's own Elo per doubling of nodes around it: move the anchor to that
//! budget and play the level again.
//!
//! The table's "budget now" and its proposals come from the anchors this `xtask` was built
//! with, not from the engine it plays: a trial engine with other anchors is measured right,
//! but its budgets are printed right only by an `xtask` built from the same tree.
//!
//! One PGN per level (`DIR/uci-elo-<level>.pgn`). A level whose PGN already exists is counted
//! and not played again, so a table can be replayed a few levels at a time, or one level
//! again after deleting its file.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser};
use cutoff_uci::strength::{ANCHORS, Anchor, Level, MAX_ELO};

use super::report::{Figures, elo_text};
use super::score;
use super::stats::Statistics;
use crate::util::{self, Result};

/// How far from its label a level may measure.
const TOLERANCE: f64 = 75.0;
/// Stockfish 15.1's lowest `UCI_Elo`.
const STOCKFISH_MIN_ELO: i64 = 1350;

#[derive(Debug, Args)]
pub struct UciEloArgs {
    /// The Cutoff binary [default: the current build, `cargo build --release -p cutoff`]. The
    /// budgets the table prints are this xtask's anchors, so build both from the same tree.
    #[arg(long, value_name = "PATH")]
    pub engine: Option<PathBuf>,

    /// Stockfish 15.1, the scale's owner (Debian's `stockfish` package).
    #[arg(long, value_name = "PATH", default_value = "/usr/games/stockfish")]
    pub stockfish: PathBuf,

    /// The levels to play, comma-separated [default: every anchor of the table from 1400 up].
    #[arg(long, value_name = "ELO,...", value_delimiter = ',')]
    pub levels: Vec<i64>,

    /// Games per level.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(2..))]
    pub games: u32,

    /// Games played at a time.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..))]
    pub concurrency: u32,

    /// The time control of every game.
    #[arg(long, default_value = "5+0.05")]
    pub tc: String,

    /// The directory of the levels' PGNs.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
}

/// The arguments of one level's `cargo xtask match`.
fn match_line(args: &UciEloArgs, engine: &Path, level: i64, pgn: &Path) -> Vec<String> {
    let elo = format!("UCI_Elo={level}");
    let mut line: Vec<String> = vec!["match".into(), "--engine1".into(), engine.display().to_string()];
    line.extend(["--engine2".into(), args.stockfish.display().to_string()]);
    for option in ["--option", "Hash=16", "--option", "Threads=1"] {
        line.push(option.into());
    }
    for side in ["--option1", "--option2"] {
        line.extend([side.into(), "UCI_LimitStrength=true".into(), side.into(), elo.clone()]);
    }
    line.extend(["--games".into(), args.games.to_string(), "--concurrency".into(), args.concurrency.to_string()]);
    line.extend(["--tc".into(), args.tc.clone(), "--timemargin-ms".into(), "100".into()]);
    line.extend(["--seed".into(), level.to_string(), "--pgn".into(), pgn.display().to_string(), "--plain".into()]);
    line
}

#[derive(Debug, Parser)]
struct MatchCli {
    #[command(flatten)]
    args: super::MatchArgs,
}

/// Elo per doubling of the node budget around `anchor`: from its neighbour above with as many
/// lines (the segment it shares its search with), else the one below.
fn elo_per_doubling(anchor: &Anchor) -> Option<f64> {
    let i = ANCHORS.iter().position(|a| a.elo == anchor.elo)?;
    let slope = |a: &Anchor, b: &Anchor| {
        (a.lines == b.lines && a.nodes != b.nodes && b.elo < MAX_ELO)
            .then(|| (b.elo - a.elo) as f64 / (b.nodes as f64 / a.nodes as f64).log2())
    };
    let above = ANCHORS.get(i + 1).and_then(|b| slope(anchor, b));
    let below = i.checked_sub(1).and_then(|j| slope(&ANCHORS[j], anchor));
    above.or(below).filter(|s| s.is_finite() && *s > 0.0)
}

/// Runs `cargo xtask uci-elo`.
pub fn run(args: &UciEloArgs) -> Result<ExitCode> {
    if !args.stockfish.is_file() {
        return Err(format!(
            "no Stockfish at {} (Debian: `apt install stockfish`, 15.1 in bookworm), or give --stockfish PATH",
            args.stockfish.display()
        )
        .into());
    }
    let levels: Vec<i64> = if args.levels.is_empty() {
        ANCHORS.iter().map(|a| a.elo).filter(|&e| e >= 1400).collect()
    } else {
        args.levels.clone()
    };
    if let Some(&bad) = levels.iter().find(|&&e| !(STOCKFISH_MIN_ELO..=MAX_ELO).contains(&e)) {
        return Err(
            format!("level {bad} is outside {STOCKFISH_MIN_ELO}..={MAX_ELO}, where both engines have it").into()
        );
    }
    std::fs::create_dir_all(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    let engine = match &args.engine {
        Some(path) => path.clone(),
        None => crate::perft_bench::bench::build_engine(&util::workspace_root(), None)?,
    };
    let mut table = String::from(
        "| requested | games | Cutoff's score (W-D-L) | Elo vs Stockfish at the same setting | measured | off by | budget now | budget to match |\n\
         | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |\n",
    );
    let mut all_within = true;
    for &level in &levels {
        let pgn = args.out.join(format!("uci-elo-{level}.pgn"));
        if pgn.exists() {
            eprintln!("uci-elo: {level}: {} exists, counted and not played again", pgn.display());
        } else {
            let line = match_line(args, &engine, level, &pgn);
            eprintln!("uci-elo: {level}: cargo xtask {}", line.join(" "));
            let cli = MatchCli::try_parse_from(&line).map_err(|e| e.to_string())?;
            let code = super::run(&cli.args)?;
            if code != ExitCode::SUCCESS {
                return Err(format!("level {level}: the match failed").into());
            }
        }
        let files = score::read_files(std::slice::from_ref(&pgn))?;
        let (count, _) = score::count(&files, None)?;
        let wdl = count.tally.wdl;
        let figures = Figures::new(&count.tally, Statistics::Pentanomial);
        let level_now = Level::new(level);
        let anchor = ANCHORS.iter().find(|a| a.elo == level);
        let (measured, off, suggestion) = match &figures.elo {
            Ok(e) => {
                let off = e.elo;
                all_within &= off.abs() <= TOLERANCE;
                let suggestion = match anchor.filter(|_| level < MAX_ELO).and_then(elo_per_doubling) {
                    Some(slope) => {
                        format!("{:.0}", level_now.nodes() as f64 * 2f64.powf(-off / slope))
                    }
                    None if level >= MAX_ELO => "(full search)".into(),
                    None => "n/a (no slope)".into(),
                };
                (format!("{:.0}", level as f64 + off), format!("{off:+.0}"), suggestion)
            }
            Err(_) => {
                all_within = false;
                ("n/a".into(), "n/a".into(), "n/a".into())
            }
        };
        let budget = if level >= MAX_ELO { "none".to_string() } else { level_now.nodes().to_string() };
        let _ = writeln!(
            table,
            "| {level} | {} | {}-{}-{} | {} | {measured} | {off} | {budget} | {suggestion} |",
            wdl.games(),
            wdl.wins,
            wdl.draws,
            wdl.losses,
            elo_text(figures.elo),
        );
    }
    print!("{table}");
    println!(
        "{}",
        if all_within {
            format!("every level within ±{TOLERANCE:.0} Elo of its label")
        } else {
            format!(
                "a level is more than {TOLERANCE:.0} Elo from its label (or has no estimate): move its budget and play it again"
            )
        }
    );
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_level_from_1400_has_a_slope_or_is_the_top() {
        for a in ANCHORS.iter().filter(|a| a.elo >= 1400) {
            assert!(a.elo == MAX_ELO || elo_per_doubling(a).is_some(), "{a:?}");
        }
    }

    #[test]
    fn the_match_line_parses_as_the_documented_command() {
        let args = UciEloArgs {
            engine: None,
            stockfish: "/usr/games/stockfish".into(),
            levels: vec![],
            games: 100,
            concurrency: 2,
            tc: "5+0.05".into(),
            out: "/tmp".into(),
        };
        let line = match_line(&args, Path::new("cutoff"), 2000, Path::new("/tmp/uci-elo-2000.pgn"));
        let cli = MatchCli::try_parse_from(&line).expect("a valid match command line");
        assert_eq!(cli.args.games.get(), 100);
        assert_eq!(
            line[1..].join(" "),
            "--engine1 cutoff --engine2 /usr/games/stockfish --option Hash=16 --option Threads=1 \
             --option1 UCI_LimitStrength=true --option1 UCI_Elo=2000 --option2 UCI_LimitStrength=true \
             --option2 UCI_Elo=2000 --games 100 --concurrency 2 --tc 5+0.05 --timemargin-ms 100 --seed 2000 \
             --pgn /tmp/uci-elo-2000.pgn --plain"
        );
    }
}
