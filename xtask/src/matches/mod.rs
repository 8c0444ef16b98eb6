//! `cargo xtask match`: an engine-vs-engine match runner for regression testing.
//!
//! Two UCI engines play pairs of games from the same opening with colours swapped, `K` games at
//! a time (one thread per game, each with its own two engine processes). The runner keeps the
//! clocks and applies the rules with `cutoff-board`, so nothing the engines claim is trusted:
//! illegal or null moves, time forfeits, crashes and stalls lose the game. Results go to a PGN
//! file, a progress display (W-D-L, Elo, nElo, LLR) follows the games, and an optional SPRT
//! stops the match as soon as it is decided. With `--runner fastchess` or `--runner cutechess`
//! the same match is handed to that tool instead ([`external`]).
//!
//! Modules: [`engine`] (the UCI process client), [`game`] (one game), [`openings`], [`pgn`],
//! [`settings`] (command-line strings), [`stats`] (Elo, nElo, LOS, SPRT), [`report`] and
//! [`external`] (the hand-off to fastchess or cutechess-cli).

mod engine;
mod external;
mod game;
mod openings;
mod pgn;
mod report;
pub mod score;
mod settings;
pub mod spsa;
mod stats;
pub mod uci_elo;

use std::fs::File;
use std::io::{BufWriter, Write as _};
use std::num::{NonZeroU32, NonZeroU64, NonZeroUsize};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use clap::Args;

use self::engine::{Engine, EngineConfig, UciLog};
use self::external::Runner;
use self::game::{GameRecord, GameSetup};
use self::report::{SprtOutcome, Tally};
/// `Name=Value` UCI options on the command line (also used by `tactics --option`).
pub use self::settings::parse_uci_option;
use self::settings::{DrawRule, Limits, ResignRule, TimeControl};
use self::stats::{Hypothesis, Sprt, Statistics};
use crate::git::{Worktree, commit_of};
use crate::progress::{self, Progress};
use crate::util::{self, Result};

/// The default opening file, relative to the repository's `data/` directory.
const DEFAULT_OPENINGS: &str = "openings/8moves_v3_sample3000.epd";

const AFTER_HELP: &str = "\
Each opening is played twice with colours swapped (games 2k and 2k+1), so --games is rounded up
to an even number; openings are used in file order, or shuffled by --seed, and reused from the
start when there are fewer than games/2.

The runner keeps the clocks (--tc): a move that arrives after the mover's remaining time plus
--timemargin-ms loses on time (a draw if the opponent has a bare king). With --st/--nodes there
is no clock; an engine that sends no bestmove within --hang-timeout (plus the move time) loses
as stalled. Illegal moves, `bestmove 0000`/`(none)` with legal moves on the board, and crashes
lose too; a crashed or stalled engine is restarted before its next game (--restart: before
every game). Checkmate, stalemate, threefold repetition, the 50-move rule and insufficient
material end games by the rules (cutoff-board).

--resign moves=N score=CP [twosided=true]: a side loses once its engine's own score has been
<= -CP for N consecutive moves (twosided: both engines agree, the winner's score >= +CP).
--draw movenumber=M moves=N score=CP: a draw once both engines' scores have stayed within CP
of zero for N consecutive moves each, from full move M on. (cutechess semantics.)

Statistics: Elo (logistic) and nElo (normalized Elo) with 95% error bars, LOS, and the SPRT
count game pairs (pentanomial, Ptnml(0-2) = pairs scoring 0, 1/2, 1, 3/2, 2 points) or, with
--statistics trinomial, single games, as fastchess and OpenBench do. They read `n/a (why)`
until they mean something: at least 2 complete pairs (games) that did not all score the same,
and for Elo a 95% interval of the score inside (0, 1), without which its error bar is
unbounded. The W-D-L beside them counts every game played.
--sprt elo0=X elo1=Y [alpha=0.05 beta=0.05 model=normalized|logistic]: the generalised SPRT of
fishtest/OpenBench/fastchess, bounds in normalized Elo (default) or logistic Elo. The LLR is
updated after each pair (game) and the match stops when it leaves
(ln(beta/(1-alpha)), ln((1-beta)/alpha)).
--continue-from FILE (repeatable): the PGNs of earlier parts of the same match (their --pgn,
engine1 under the same name) are counted before the first game, so that an SPRT too long for
one sitting goes on where it stopped: the LLR and the match's stop count them, and the summary
ends with every part together. `cargo xtask score --pgn ... --sprt ...` counts finished parts.

--runner fastchess|cutechess hands the same match (engines, options, openings and their
order, time control, concurrency, games as rounds of 2 with colours swapped, adjudication,
--max-plies as -maxmoves, SPRT, PGN, --restart) to `fastchess` or `cutechess-cli` found on
PATH, and streams its output; the command line is printed first. cutechess-cli's SPRT counts
games in BayesElo, whatever the model. --uci-log and --hang-timeout are the in-tree runner's
only.

Progress goes to stderr: a bar on a terminal, a plain line every tenth of the games or 10
seconds otherwise (--plain, or stderr not a terminal). Results go to stdout.

EXAMPLES:
    cargo xtask match --engine1 target/release/cutoff --engine2 /tmp/cutoff-old \\
        --games 10 --nodes 2000 --pgn /tmp/match.pgn
    cargo xtask match --vs HEAD~1 --tc 10+0.1 --games 2000 --concurrency 2 \\
        --option Hash=16 --option Threads=1 --seed 7 --sprt elo0=0 elo1=5
    cargo xtask match --engine2 ./other --st 0.2 --resign moves=3 score=1000 \\
        --draw movenumber=40 moves=8 score=10
    cargo xtask match --vs HEAD~1 --tc 10+0.1 --games 20000 --concurrency 8 \\
        --sprt elo0=0 elo1=2 --runner fastchess

EXIT STATUS:
    0  the match was played
    1  an engine crashed, stalled or made an illegal move, the SPRT accepted H0, or the
       external runner failed
    2  usage or environment error (engine does not start, build failure, bad openings file,
       runner not on PATH)";

/// Arguments of `cargo xtask match` (boxed, so that the subcommand enum in `main.rs` stays
/// small; the fields are reached through `Deref`).
#[derive(Debug, Args)]
pub struct MatchArgs {
    #[command(flatten)]
    inner: Box<MatchOptions>,
}

impl std::ops::Deref for MatchArgs {
    type Target = MatchOptions;

    fn deref(&self) -> &MatchOptions {
        &self.inner
    }
}

/// The options of `cargo xtask match`.
#[derive(Debug, Args)]
#[command(after_long_help = AFTER_HELP)]
#[command(group = clap::ArgGroup::new("limit").required(true).multiple(true).args(["tc", "st", "nodes"]))]
pub struct MatchOptions {
    /// First engine [default: the current build, `cargo build --release -p cutoff`].
    #[arg(long, value_name = "PATH", help_heading = "Engines")]
    pub engine1: Option<PathBuf>,

    /// Second engine.
    #[arg(long, value_name = "PATH", required_unless_present = "vs", help_heading = "Engines")]
    pub engine2: Option<PathBuf>,

    /// Use git revision REV as engine2, built with `cargo build --release -p cutoff` in a
    /// temporary worktree (removed afterwards) with its own target dir (target/xtask-match-vs)
    /// and this tree's cargo configuration (.cargo/config.toml), so both engines get the same
    /// CPU flags.
    #[arg(long, value_name = "REV", conflicts_with = "engine2", help_heading = "Engines")]
    pub vs: Option<String>,

    /// Name of engine1 [default: its `id name`; with --runner, the file name].
    #[arg(long, value_name = "NAME", help_heading = "Engines")]
    pub name1: Option<String>,

    /// Name of engine2 [default: its `id name`; with --vs, `id name [REV]`].
    #[arg(long, value_name = "NAME", help_heading = "Engines")]
    pub name2: Option<String>,

    /// UCI option for both engines, e.g. `--option Hash=16` (repeatable; sent before the
    /// per-engine ones).
    #[arg(long = "option", value_name = "NAME=VALUE", value_parser = settings::parse_uci_option, help_heading = "Engines")]
    pub options: Vec<(String, String)>,

    /// UCI option for engine1 (repeatable).
    #[arg(long = "option1", value_name = "NAME=VALUE", value_parser = settings::parse_uci_option, help_heading = "Engines")]
    pub options1: Vec<(String, String)>,

    /// UCI option for engine2 (repeatable).
    #[arg(long = "option2", value_name = "NAME=VALUE", value_parser = settings::parse_uci_option, help_heading = "Engines")]
    pub options2: Vec<(String, String)>,

    /// Start fresh engine processes for every game (default: one pair of processes per
    /// concurrent game, `ucinewgame` between games).
    #[arg(long, help_heading = "Engines")]
    pub restart: bool,

    /// Opening positions, one FEN or EPD per line (default: `<data>/openings/8moves_v3_sample3000.epd`,
    /// or `<data>/openings/chess960.epd` with --chess960;
    /// with --runner, a .pgn file works too).
    #[arg(long, value_name = "FILE", help_heading = "Openings")]
    pub openings: Option<PathBuf>,

    /// Shuffle the openings with this seed (deterministic) instead of using them in file order.
    #[arg(long, value_name = "N", help_heading = "Openings")]
    pub seed: Option<u64>,

    /// Chess960 (Shredder-FEN castling; sets UCI_Chess960). Without --openings, the games start
    /// from the 960 start positions (`data/openings/chess960.epd`).
    #[arg(long, help_heading = "Openings")]
    pub chess960: bool,

    /// Number of games (rounded up to even; with --sprt, the maximum).
    #[arg(long, value_name = "N", default_value = "10", help_heading = "Games")]
    pub games: NonZeroU32,

    /// Games played at the same time.
    #[arg(long, value_name = "K", default_value = "1", help_heading = "Games")]
    pub concurrency: NonZeroUsize,

    /// Who plays the games: this crate (`internal`), or `fastchess` / `cutechess-cli` from PATH.
    #[arg(long, value_enum, default_value_t = Runner::Internal, help_heading = "Games")]
    pub runner: Runner,

    /// Time control `[moves/]base[+inc]` in seconds, e.g. 10+0.1 or 40/60.
    #[arg(long, value_name = "TC", value_parser = TimeControl::parse, conflicts_with = "st", help_heading = "Limits")]
    pub tc: Option<TimeControl>,

    /// Fixed time per move in seconds (`go movetime`).
    #[arg(long, value_name = "SECONDS", value_parser = settings::parse_movetime, help_heading = "Limits")]
    pub st: Option<Duration>,

    /// Nodes per move (`go nodes N`).
    #[arg(long, value_name = "N", help_heading = "Limits")]
    pub nodes: Option<NonZeroU64>,

    /// Clock tolerance: a move is a time forfeit only this far past the remaining time.
    #[arg(long, value_name = "MS", default_value = "0", help_heading = "Limits")]
    pub timemargin_ms: u64,

    /// Seconds to wait for an answer (bestmove beyond the move time with --st/--nodes; the UCI
    /// handshake, readyok, and bestmove after stop in all modes) before an engine is stalled.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = settings::parse_movetime, help_heading = "Limits")]
    pub hang_timeout: Duration,

    /// Resign adjudication: `moves=N score=CP [twosided=true]`.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1.., help_heading = "Adjudication")]
    pub resign: Option<Vec<String>>,

    /// Draw adjudication: `movenumber=M moves=N score=CP`.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1.., help_heading = "Adjudication")]
    pub draw: Option<Vec<String>>,

    /// Adjudicate a draw after this many plies (from the opening position).
    #[arg(long, value_name = "N", help_heading = "Adjudication")]
    pub max_plies: Option<NonZeroU32>,

    /// Write the games to this PGN file (overwritten), as they finish.
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    pub pgn: Option<PathBuf>,

    /// The PGN Event tag.
    #[arg(long, value_name = "NAME", default_value = "Cutoff match", help_heading = "Output")]
    pub event: String,

    /// Log all UCI traffic (and engine stderr) to this file, with timestamps.
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    pub uci_log: Option<PathBuf>,

    /// Plain progress lines on stderr instead of a progress bar (automatic when stderr is not a
    /// terminal).
    #[arg(long, help_heading = "Output")]
    pub plain: bool,

    /// Sequential probability ratio test: `elo0=X elo1=Y [alpha=0.05 beta=0.05
    /// model=normalized|logistic]`.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1.., help_heading = "Statistics")]
    pub sprt: Option<Vec<String>>,

    /// How results are counted for Elo, nElo, LOS and the SPRT: game pairs (pentanomial) or
    /// single games (trinomial).
    #[arg(long, value_enum, default_value_t = Statistics::Pentanomial, help_heading = "Statistics")]
    pub statistics: Statistics,

    /// A PGN of an earlier part of this match (its `--pgn`; engine1 under the same name),
    /// counted before the first game: the SPRT and the summary's last section go on from it.
    /// Repeatable. In-tree runner only.
    #[arg(long, value_name = "FILE", help_heading = "Statistics")]
    pub continue_from: Vec<PathBuf>,
}

/// What `run` makes of the command line before any engine is built.
#[derive(Debug)]
struct Settings {
    resign: Option<ResignRule>,
    draw: Option<DrawRule>,
    sprt: Option<Sprt>,
    limits: Limits,
    openings: PathBuf,
    /// `--games` rounded up to even.
    games: usize,
}

impl Settings {
    fn from_args(args: &MatchOptions) -> Result<Settings> {
        let openings = match &args.openings {
            Some(path) => path.clone(),
            None if args.chess960 => util::data_dir()?.join(openings::CHESS960_OPENINGS),
            None => util::data_dir()?.join(DEFAULT_OPENINGS),
        };
        Ok(Settings {
            resign: args.resign.as_deref().map(ResignRule::parse).transpose()?,
            draw: args.draw.as_deref().map(DrawRule::parse).transpose()?,
            sprt: args.sprt.as_deref().map(|v| settings::parse_sprt(v, args.statistics)).transpose()?,
            limits: Limits {
                clock: args.tc,
                movetime: args.st,
                nodes: args.nodes.map(NonZeroU64::get),
                time_margin: Duration::from_millis(args.timemargin_ms),
                hang_timeout: args.hang_timeout,
            },
            openings,
            games: args.games.get().div_ceil(2) as usize * 2,
        })
    }
}

/// Runs `cargo xtask match`.
pub fn run(args: &MatchArgs) -> Result<ExitCode> {
    let settings = Settings::from_args(args)?;
    match args.runner {
        Runner::Internal => run_internal(args, &settings),
        runner => run_external(runner, args, &settings),
    }
}

/// The engines' paths, building the current tree (no `--engine1`) and `--vs REV` as needed.
/// The revision build owns engine2's binary, which is deleted when it is dropped.
fn engine_paths(args: &MatchOptions) -> Result<([PathBuf; 2], Option<RevisionBuild>)> {
    // The other revision first: it checks REV before any build.
    let revision = args.vs.as_deref().map(RevisionBuild::new).transpose()?;
    let engine1 = match &args.engine1 {
        Some(path) => path.clone(),
        None => crate::perft_bench::bench::build_engine(&util::workspace_root(), None)?,
    };
    let engine2 = match (&args.engine2, &revision) {
        (Some(path), _) => path.clone(),
        (None, Some(build)) => build.binary.clone(),
        (None, None) => return Err("give --engine2 PATH or --vs REV".into()),
    };
    Ok(([engine1, engine2], revision))
}

/// Hands the match to fastchess or cutechess-cli.
fn run_external(runner: Runner, args: &MatchOptions, settings: &Settings) -> Result<ExitCode> {
    // Cheap checks first, before any build.
    let tool = external::find_tool(runner)?;
    if args.uci_log.is_some() {
        return Err(format!("--uci-log works with the in-tree runner only, not with --runner {runner}").into());
    }
    if !args.continue_from.is_empty() {
        return Err(format!("--continue-from works with the in-tree runner only, not with --runner {runner}").into());
    }
    if !settings.openings.is_file() {
        return Err(format!("cannot read openings {}: no such file", settings.openings.display()).into());
    }
    let (paths, revision) = engine_paths(args)?;
    let stems = paths.clone().map(|p| p.file_stem().map_or_else(String::new, |s| s.to_string_lossy().into_owned()));
    // A --vs binary is a temporary copy with a long name; it is Cutoff.
    let ids = [stems[0].clone(), if revision.is_some() { "cutoff".to_owned() } else { stems[1].clone() }];
    let names = display_names(args, ids);
    let code = external::run(&tool, runner, args, settings, &paths, &names);
    drop(revision);
    code
}

/// Plays the match in this process.
fn run_internal(args: &MatchOptions, settings: &Settings) -> Result<ExitCode> {
    let started = Instant::now();
    let limits = settings.limits;
    // Cheap checks first, before any build.
    let book = openings::load(&settings.openings, args.chess960)?;
    let order = openings::order(book.openings.len(), args.seed);
    let games = settings.games;
    let earlier_files = score::read_files(&args.continue_from)?;
    let mut pgn_out = match &args.pgn {
        Some(path) => {
            Some(BufWriter::new(File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))?))
        }
        None => None,
    };
    let log = match &args.uci_log {
        Some(path) => {
            let file = File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
            Some(UciLog::new(file, started))
        }
        None => None,
    };

    let (paths, revision) = engine_paths(args)?;
    let config = |path: &Path, own: &[(String, String)]| EngineConfig {
        path: path.to_path_buf(),
        args: Vec::new(),
        options: args.options.iter().chain(own).cloned().collect(),
        chess960: args.chess960,
    };
    let configs = [config(&paths[0], &args.options1), config(&paths[1], &args.options2)];
    let workers = args.concurrency.get().min(games);
    let mut pairs: Vec<[Engine; 2]> = Vec::with_capacity(workers);
    for worker in 0..workers {
        let start = |slot: usize| {
            Engine::start(&configs[slot], format!("engine{}#w{worker}", slot + 1), limits.hang_timeout, log.clone())
                .map_err(|e| format!("engine{} ({}): {e}", slot + 1, configs[slot].path.display()))
        };
        pairs.push([start(0)?, start(1)?]);
    }
    let names = display_names(args, [pairs[0][0].id_name.clone(), pairs[0][1].id_name.clone()]);
    for (slot, name) in names.iter().enumerate() {
        for option in pairs[0][slot].unknown_options() {
            eprintln!("warning: {name} does not declare the UCI option `{option}` (sent anyway)");
        }
    }

    // The earlier parts, from engine1's view: its name must be a player of every game.
    let earlier = if earlier_files.is_empty() {
        None
    } else {
        let (count, _) = score::count(&earlier_files, Some(&names[0]))?;
        if let Some(sprt) = settings.sprt {
            let outcome = score::sprt_outcome(sprt, &count);
            if outcome.decision.is_some() {
                return Err(format!(
                    "the earlier parts have decided the SPRT already: {}",
                    report::sprt_text(&outcome)
                )
                .into());
            }
        }
        Some(count)
    };

    print_header(args, settings, &names, &configs, &book, workers);
    if let Some(count) = &earlier {
        let wdl = count.tally.wdl;
        println!(
            "  continued     from {} games ({} pairs) of {}: W-D-L {}-{}-{}, counted by the SPRT and the last summary",
            wdl.games(),
            count.tally.pairs.pairs(),
            earlier_files.iter().map(|(name, _)| name.as_str()).collect::<Vec<_>>().join(", "),
            wdl.wins,
            wdl.draws,
            wdl.losses,
        );
    }
    if let Some(build) = &revision {
        println!("  engine2       built from {} ({})", build.revision, build.sha);
    }
    let _ = std::io::stdout().flush();

    let pgn_context = pgn::PgnContext {
        event: args.event.clone(),
        site: "?".to_owned(),
        date: pgn::today(),
        names: names.clone(),
        time_control: limits.pgn_time_control(),
    };
    let match_start = Instant::now();
    let mut tally = Tally::default();
    let mut progress = Progress::new("match", games as u64, progress::plain_wanted(args.plain));
    let mut sprt_state: Option<SprtOutcome> = settings.sprt.map(|sprt| SprtOutcome { sprt, llr: 0.0, decision: None });
    let mut write_error: Option<String> = None;
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let setup_for = |index: usize| GameSetup {
        opening_fen: &book.openings[order[(index / 2) % order.len()]].fen,
        chess960: args.chess960,
        white_slot: index % 2,
        limits: &limits,
        resign: settings.resign,
        draw: settings.draw,
        max_plies: args.max_plies.map(NonZeroU32::get),
        restart: args.restart,
    };

    thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<(usize, GameRecord)>();
        for mut engines in pairs {
            let (tx, next, stop, setup_for) = (tx.clone(), &next, &stop, &setup_for);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= games {
                        break;
                    }
                    let Some(record) = game::play(&mut engines, &setup_for(index), stop) else { break };
                    if tx.send((index, record)).is_err() {
                        break;
                    }
                }
                // The engines quit here, in this thread, while the others keep playing.
                drop(engines);
            });
        }
        drop(tx);
        for (index, record) in rx {
            if stop.load(Ordering::Relaxed) {
                // The SPRT has decided: games still finishing are not counted.
                continue;
            }
            let pair_done = tally.add(index, &record);
            for incident in &record.incidents {
                progress.println(&format!("warning: game {}: {}: {}", index + 1, names[incident.slot], incident.what));
            }
            if let Some(out) = &mut pgn_out
                && write_error.is_none()
            {
                let text = pgn::format_game(&pgn_context, index + 1, &record);
                if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                    write_error = Some(format!("cannot write the PGN file: {e}"));
                    stop.store(true, Ordering::Relaxed);
                }
            }
            if let Some(state) = &mut sprt_state {
                if pair_done || state.sprt.statistics == Statistics::Trinomial {
                    state.llr = match &earlier {
                        Some(count) => state.sprt.llr(tally.wdl + count.tally.wdl, tally.pairs + count.tally.pairs),
                        None => state.sprt.llr(tally.wdl, tally.pairs),
                    };
                    state.decision = state.sprt.decision(state.llr);
                }
                if state.decision.is_some() {
                    stop.store(true, Ordering::Relaxed);
                }
            }
            let sprt_view = sprt_state.as_ref().map(|s| (&s.sprt, s.llr));
            progress.set_message(report::status(&tally, args.statistics, sprt_view));
            progress.inc(1);
        }
    });
    progress.finish();
    if let Some(err) = write_error {
        return Err(err.into());
    }

    print!("{}", report::summary(&names, &tally, args.statistics, sprt_state, match_start.elapsed()));
    if let Some(mut all) = earlier {
        all.tally.wdl = all.tally.wdl + tally.wdl;
        all.tally.pairs = all.tally.pairs + tally.pairs;
        println!("\nWith the earlier parts (the SPRT's LLR above counts them too):");
        print!("{}", score::report(&all, &names[0], earlier_files.len() + 1, args.statistics));
    }
    if let Some(path) = &args.pgn {
        println!("\nPGN: {} ({} games)", path.display(), tally.games());
    }
    drop(revision);

    let failures: u32 = tally.engines.iter().map(report::EngineTally::failures).sum();
    let h0 = sprt_state.is_some_and(|s| s.decision == Some(Hypothesis::H0));
    if failures > 0 {
        println!("FAIL: {failures} game(s) lost by a crash, stall or illegal move");
    }
    if h0 {
        println!("FAIL: the SPRT accepted H0");
    }
    Ok(if failures > 0 || h0 { util::EXIT_FAILURE.into() } else { ExitCode::SUCCESS })
}

/// Display names from the engines' own names `ids` (`id name`, or file names): `--name1` and
/// `--name2` win; with --vs, engine2 gets `[REV]`; when the two play with different networks
/// (`EvalFile`), each name gets its network's file stem (`[net10]`, or `[embedded]` for the
/// one in the binary), so that a PGN of a network-against-network match says which is which;
/// names still equal get ` [1]` and ` [2]`.
fn display_names(args: &MatchOptions, ids: [String; 2]) -> [String; 2] {
    let [id1, id2] = ids;
    let networks = [eval_file(args, &args.options1), eval_file(args, &args.options2)];
    let network = |slot: usize| match &networks[slot] {
        Some(file) => Path::new(file).file_stem().map_or_else(|| file.clone(), |s| s.to_string_lossy().into_owned()),
        None => "embedded".to_owned(),
    };
    let (id1, id2) = if networks[0] != networks[1] {
        (format!("{id1} [{}]", network(0)), format!("{id2} [{}]", network(1)))
    } else {
        (id1, id2)
    };
    let name1 = args.name1.clone().unwrap_or(id1);
    let name2 = match (&args.name2, &args.vs) {
        (Some(name), _) => name.clone(),
        (None, Some(rev)) => format!("{id2} [{rev}]"),
        (None, None) => id2,
    };
    if name1 == name2 { [format!("{name1} [1]"), format!("{name2} [2]")] } else { [name1, name2] }
}

/// The `EvalFile` an engine is given (its own `--optionN` over `--option`), `None` for none or
/// `<empty>` (the network in the binary).
fn eval_file(args: &MatchOptions, own: &[(String, String)]) -> Option<String> {
    let set = args.options.iter().chain(own).rev().find(|(name, _)| name.eq_ignore_ascii_case("EvalFile"));
    set.map(|(_, value)| value.trim().to_owned()).filter(|v| !v.is_empty() && v != "<empty>")
}

fn print_header(
    args: &MatchOptions,
    settings: &Settings,
    names: &[String; 2],
    configs: &[EngineConfig; 2],
    book: &openings::OpeningBook,
    workers: usize,
) {
    println!("match: {} vs {}", names[0], names[1]);
    for (i, (name, config)) in names.iter().zip(configs).enumerate() {
        let options: Vec<String> = config.options.iter().map(|(n, v)| format!("{n}={v}")).collect();
        let options = if options.is_empty() { String::new() } else { format!(", options {}", options.join(" ")) };
        println!("  engine{}       {name}: {}{options}", i + 1, config.path.display());
    }
    let order = match args.seed {
        Some(seed) => format!("shuffled with seed {seed}"),
        None => "in file order".to_owned(),
    };
    let skipped = if book.skipped_finished > 0 {
        format!(", {} finished positions skipped", book.skipped_finished)
    } else {
        String::new()
    };
    println!("  openings      {} from {} ({order}{skipped})", book.openings.len(), settings.openings.display());
    let games = settings.games;
    let rounded = if games as u32 != args.games.get() { " (rounded up to even)" } else { "" };
    let restart = if args.restart { ", fresh engine processes for every game" } else { "" };
    println!("  games         {games}{rounded}, {workers} at a time, each opening twice with colours swapped{restart}");
    let limits = &settings.limits;
    let wait = if limits.clock.is_some() {
        format!("time margin {} ms", limits.time_margin.as_millis())
    } else {
        format!("hang timeout {} s", limits.hang_timeout.as_secs_f64())
    };
    println!("  limits        {} ({wait})", limits.describe());
    let mut adjudication = Vec::new();
    if let Some(values) = &args.resign {
        adjudication.push(format!("resign {}", values.join(" ")));
    }
    if let Some(values) = &args.draw {
        adjudication.push(format!("draw {}", values.join(" ")));
    }
    if let Some(max) = args.max_plies {
        adjudication.push(format!("draw after {max} plies"));
    }
    if !adjudication.is_empty() {
        println!("  adjudication  {}", adjudication.join(", "));
    }
    if let Some(s) = &settings.sprt {
        println!(
            "  SPRT          {}, LLR bounds ({:.2}, {:.2})",
            report::sprt_settings(s),
            s.lower_bound(),
            s.upper_bound()
        );
    }
}

/// The cargo target directory of the workspace (a relative `$CARGO_TARGET_DIR` is taken from
/// the workspace root, as `bench` does).
fn target_dir() -> PathBuf {
    let root = util::workspace_root();
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), |dir| root.join(dir))
}

/// The engine built from another revision (`--vs`): a temporary worktree, removed as soon as
/// the binary is built and copied out; the copy is deleted when this is dropped.
#[derive(Debug)]
struct RevisionBuild {
    revision: String,
    sha: String,
    binary: PathBuf,
}

impl RevisionBuild {
    /// Checks out `revision` in a temporary worktree and builds it with the current tree's
    /// cargo configuration ([`crate::perft_bench::bench::build_config`]), like `bench --vs`.
    fn new(revision: &str) -> Result<RevisionBuild> {
        let root = util::workspace_root();
        let sha = commit_of(&root, revision)
            .map_err(|_| format!("--vs: `{revision}` is not a commit in {}", root.display()))?;
        let short = &sha[..sha.len().min(10)];
        let tag = format!("cutoff-match-{}-{short}", std::process::id());
        let dir = std::env::temp_dir().join(&tag);
        if dir.exists() {
            std::fs::remove_dir_all(&dir).map_err(|e| format!("cannot remove {}: {e}", dir.display()))?;
        }
        eprintln!("match: building engine2 from {revision} ({short}) in a worktree at {} ...", dir.display());
        let worktree = Worktree::add(&root, &dir, &sha)?;
        let config = crate::perft_bench::bench::build_config(&root);
        let built = crate::perft_bench::bench::build_engine_with(
            &dir,
            Some(&target_dir().join("xtask-match-vs")),
            config.as_deref(),
        )
        .map_err(|e| format!("building {revision}: {e}"))?;
        let binary = std::env::temp_dir().join(format!("{tag}-cutoff{}", std::env::consts::EXE_SUFFIX));
        std::fs::copy(&built, &binary)
            .map_err(|e| format!("cannot copy {} to {}: {e}", built.display(), binary.display()))?;
        drop(worktree);
        Ok(RevisionBuild { revision: revision.to_owned(), sha, binary })
    }
}

impl Drop for RevisionBuild {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.binary);
    }
}

#[cfg(test)]
mod tests;
