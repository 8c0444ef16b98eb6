//! `cargo xtask spsa`: tunes the search parameters of a `tune` build by SPSA (simultaneous
//! perturbation stochastic approximation), playing the games itself.
//!
//! The schedule is OpenBench's, so a run here and a run on an OpenBench instance with the same
//! configuration lines move the parameters alike. For a run of `N` iterations and a parameter
//! with `c_end` and `r_end` (the last two fields of its configuration line):
//!
//! - `c = c_end · N^γ`, `a = r_end · c_end² · (A + N)^α`, with `A = N / 10`, `α = 0.602`,
//!   `γ = 0.101`;
//! - iteration `k` (from 0) perturbs by `c_k = c / (k + 1)^γ` in a random direction `Δ = ±1`
//!   per parameter, and plays one game pair (the same opening, colours swapped) between the
//!   engine with `θ + c_k·Δ` and the engine with `θ − c_k·Δ`;
//! - with `r` the first engine's wins minus losses in the pair (−2 to 2), every parameter moves
//!   by `a_k / c_k · r · Δ`, where `a_k = a / (A + k + 1)^α`, and stays within its range.
//!
//! Iterations run `--concurrency` at a time, each reading the parameters when it starts and
//! adding its step when it ends (as OpenBench's workers do). The state (iteration count and
//! the unrounded values) is written to `--state` after every pair; a run given an existing
//! state file goes on from it.

use std::fmt::Write as _;
use std::fs;
use std::io::Write as _;
use std::num::{NonZeroU32, NonZeroU64, NonZeroUsize};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use clap::Args;

use super::engine::{Engine, EngineConfig};
use super::game::{self, GameSetup};
use super::openings::{self, SplitMix64};
use super::settings::{Limits, TimeControl};
use crate::progress::{self, Progress};
use crate::util::{self, Result};

/// OpenBench's SPSA constants.
const ALPHA: f64 = 0.602;
const GAMMA: f64 = 0.101;
/// `A` as a fraction of the iteration count.
const A_RATIO: f64 = 0.1;

/// Arguments of `cargo xtask spsa`.
#[derive(Debug, Args)]
pub struct SpsaArgs {
    /// A `tune` build of Cutoff (`cargo build --release --features tune`): its search
    /// parameters are UCI options.
    #[arg(long, value_name = "PATH")]
    pub engine: PathBuf,

    /// The parameters in OpenBench's SPSA format, one a line: `NAME, int, value, min, max,
    /// c_end, r_end` [default: the engine's own, from its `spsa` command].
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,

    /// Tune only these parameters (comma-separated names; the others keep their values).
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    pub params: Vec<String>,

    /// Iterations: one game pair each.
    #[arg(long, value_name = "N")]
    pub pairs: NonZeroU32,

    /// Nodes per move (`go nodes N`).
    #[arg(long, value_name = "N", required_unless_present = "tc")]
    pub nodes: Option<NonZeroU64>,

    /// Time control `[moves/]base[+inc]` in seconds.
    #[arg(long, value_name = "TC", value_parser = TimeControl::parse)]
    pub tc: Option<TimeControl>,

    /// Game pairs played at the same time.
    #[arg(long, value_name = "K", default_value = "1")]
    pub concurrency: NonZeroUsize,

    /// Seed of the perturbations and of the opening order.
    #[arg(long, value_name = "N", default_value = "1")]
    pub seed: u64,

    /// Opening positions [default: `data/openings/8moves_v3_sample3000.epd`].
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,

    /// The run's state, written after every pair (and read first, if it exists, to go on).
    #[arg(long, value_name = "FILE")]
    pub state: PathBuf,

    /// Plain progress lines on stderr instead of a progress bar.
    #[arg(long)]
    pub plain: bool,
}

/// One parameter: its configuration line and its current (unrounded) value.
#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    pub name: String,
    pub value: f64,
    pub min: f64,
    pub max: f64,
    pub c_end: f64,
    pub r_end: f64,
    /// Tuned in this run (otherwise it is sent at its value and never moves).
    pub tuned: bool,
}

impl Param {
    /// The value the engine gets: rounded, within the range.
    fn rounded(&self, value: f64) -> i64 {
        value.clamp(self.min, self.max).round() as i64
    }
}

/// Parses OpenBench SPSA lines (`NAME, int, value, min, max, c_end, r_end`; blank lines and
/// `#` comments skipped).
pub fn parse_config(text: &str) -> Result<Vec<Param>> {
    let mut params = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let bad = |why: &str| format!("SPSA configuration line {}: {why}: `{line}`", number + 1);
        if fields.len() != 7 {
            return Err(bad("expected 7 comma-separated fields").into());
        }
        if fields[1] != "int" && fields[1] != "float" {
            return Err(bad("the type must be int or float").into());
        }
        let number = |i: usize| fields[i].parse::<f64>().map_err(|_| bad(&format!("field {} is not a number", i + 1)));
        let param = Param {
            name: fields[0].to_owned(),
            value: number(2)?,
            min: number(3)?,
            max: number(4)?,
            c_end: number(5)?,
            r_end: number(6)?,
            tuned: true,
        };
        if !(param.min <= param.value && param.value <= param.max) || param.c_end <= 0.0 || param.r_end <= 0.0 {
            return Err(bad("needs min <= value <= max and positive c_end, r_end").into());
        }
        params.push(param);
    }
    if params.is_empty() {
        return Err("the SPSA configuration has no parameters".into());
    }
    Ok(params)
}

/// The parameters in OpenBench's format, values rounded (the tuned result).
pub fn format_config(params: &[Param]) -> String {
    let mut out = String::new();
    for p in params {
        let _ =
            writeln!(out, "{}, int, {}, {}, {}, {}, {}", p.name, p.rounded(p.value), p.min, p.max, p.c_end, p.r_end);
    }
    out
}

/// The schedule of one parameter in a run of `iterations`.
#[derive(Debug, Clone, Copy)]
pub struct Schedule {
    c: f64,
    a: f64,
    big_a: f64,
}

impl Schedule {
    pub fn new(param: &Param, iterations: u32) -> Schedule {
        let n = f64::from(iterations);
        let big_a = A_RATIO * n;
        Schedule {
            c: param.c_end * n.powf(GAMMA),
            a: param.r_end * param.c_end * param.c_end * (big_a + n).powf(ALPHA),
            big_a,
        }
    }

    /// The perturbation `c_k` of iteration `k`.
    pub fn c_k(&self, k: u32) -> f64 {
        self.c / f64::from(k + 1).powf(GAMMA)
    }

    /// The step size `a_k` of iteration `k`.
    pub fn a_k(&self, k: u32) -> f64 {
        self.a / (self.big_a + f64::from(k) + 1.0).powf(ALPHA)
    }
}

/// The direction of iteration `k`: ±1 per parameter, from the run's seed.
pub fn directions(seed: u64, k: u32, count: usize) -> Vec<f64> {
    let mut rng = SplitMix64::new(seed ^ (u64::from(k) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    (0..count).map(|_| if rng.next_u64() & 1 == 0 { 1.0 } else { -1.0 }).collect()
}

/// The run's progress, as saved in the state file.
///
/// The file is a few `key=value` lines and one `value NAME X tuned|fixed` line per parameter,
/// read by hand rather than through serde: a person can read and edit it between runs, each
/// mismatch with the run being resumed (pairs, seed, the set of parameters) gets its own
/// message, and a format crate would add several build dependencies to xtask for four kinds
/// of line. Values keep six decimals, far finer than any parameter's perturbation (`c_end`,
/// 0.5 or more).
#[derive(Debug, Clone, PartialEq)]
struct State {
    /// Iterations whose pair has finished and been applied.
    done: u32,
    /// Iterations handed out (the next one to start); equals `done` between runs.
    started: u32,
    params: Vec<Param>,
    /// Pairs lost to a crash, stall or illegal move (their step is not applied).
    failed: u32,
    /// Sum of `r` over the applied pairs (the + engine's wins minus losses).
    balance: i64,
}

impl State {
    fn to_text(&self, iterations: u32, seed: u64) -> String {
        let mut out = format!(
            "# cargo xtask spsa state: {} of {iterations} pairs done, seed {seed}, {} failed\n",
            self.done, self.failed
        );
        let _ = writeln!(
            out,
            "done={}\niterations={iterations}\nseed={seed}\nfailed={}\nbalance={}",
            self.done, self.failed, self.balance
        );
        for p in &self.params {
            let _ = writeln!(out, "value {} {:.6} {}", p.name, p.value, if p.tuned { "tuned" } else { "fixed" });
        }
        out
    }

    /// Reads a state file into `params` (which give the ranges and schedules); checks that it
    /// belongs to a run with the same iterations, seed and parameters.
    fn from_text(text: &str, mut params: Vec<Param>, iterations: u32, seed: u64) -> Result<State> {
        let mut state = State { done: 0, started: 0, params: Vec::new(), failed: 0, balance: 0 };
        let mut seen = 0;
        for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
            let bad = || format!("the SPSA state file has an unreadable line: `{line}`");
            if let Some((key, value)) = line.split_once('=') {
                let number = value.trim().parse::<i64>().map_err(|_| bad())?;
                match key.trim() {
                    "done" => state.done = u32::try_from(number).map_err(|_| bad())?,
                    "iterations" if number != i64::from(iterations) => {
                        return Err(format!("the state file is of a run of {number} pairs, not {iterations}").into());
                    }
                    "seed" if number != seed as i64 => {
                        return Err(format!("the state file is of a run with seed {number}, not {seed}").into());
                    }
                    "failed" => state.failed = u32::try_from(number).map_err(|_| bad())?,
                    "balance" => state.balance = number,
                    "iterations" | "seed" => {}
                    _ => return Err(bad().into()),
                }
            } else {
                let fields: Vec<&str> = line.split_whitespace().collect();
                let ["value", name, value, kind] = fields[..] else { return Err(bad().into()) };
                let param = params
                    .iter_mut()
                    .find(|p| p.name == name)
                    .ok_or_else(|| format!("the state file names `{name}`, which the configuration does not"))?;
                if param.tuned != (kind == "tuned") {
                    return Err(format!("the state file tunes a different set of parameters (`{name}`)").into());
                }
                param.value = value.parse::<f64>().map_err(|_| bad())?.clamp(param.min, param.max);
                seen += 1;
            }
        }
        if seen != params.len() {
            return Err("the state file does not hold every parameter of the configuration".into());
        }
        state.params = params;
        state.started = state.done;
        Ok(state)
    }
}

/// The engine's own configuration (`spsa`), checking that it is a `tune` build.
fn engine_config(engine: &Path) -> Result<String> {
    let output = Command::new(engine)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .and_then(|mut child| {
            if let Some(stdin) = child.stdin.as_mut() {
                stdin.write_all(b"spsa\nquit\n")?;
            }
            child.wait_with_output()
        })
        .map_err(|e| format!("cannot run {}: {e}", engine.display()))?;
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// Runs `cargo xtask spsa`.
pub fn run(args: &SpsaArgs) -> Result<ExitCode> {
    let iterations = args.pairs.get();
    let config_text = match &args.config {
        Some(path) => fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?,
        None => engine_config(&args.engine)?,
    };
    let mut params = parse_config(&config_text)?;
    if !args.params.is_empty() {
        for name in &args.params {
            if !params.iter().any(|p| p.name.eq_ignore_ascii_case(name)) {
                return Err(format!("no parameter named `{name}` in the configuration").into());
            }
        }
        for p in &mut params {
            p.tuned = args.params.iter().any(|n| n.eq_ignore_ascii_case(&p.name));
        }
    }
    let start_values: Vec<f64> = params.iter().map(|p| p.value).collect();
    let schedules: Vec<Schedule> = params.iter().map(|p| Schedule::new(p, iterations)).collect();
    let state = if args.state.is_file() {
        let text = fs::read_to_string(&args.state).map_err(|e| format!("cannot read {}: {e}", args.state.display()))?;
        State::from_text(&text, params, iterations, args.seed)?
    } else {
        State { done: 0, started: 0, params, failed: 0, balance: 0 }
    };
    let openings_path = match &args.openings {
        Some(path) => path.clone(),
        None => util::data_dir()?.join(super::DEFAULT_OPENINGS),
    };
    let book = openings::load(&openings_path, false)?;
    let order = openings::order(book.openings.len(), Some(args.seed));
    let limits = Limits {
        clock: args.tc,
        movetime: None,
        nodes: args.nodes.map(NonZeroU64::get),
        time_margin: Duration::from_millis(0),
        hang_timeout: Duration::from_secs(10),
    };

    // The engine must declare every parameter as an option (a `tune` build).
    let probe = Engine::start(
        &EngineConfig { path: args.engine.clone(), args: Vec::new(), options: Vec::new(), chess960: false },
        "spsa#probe".to_owned(),
        limits.hang_timeout,
        None,
    )
    .map_err(|e| format!("{}: {e}", args.engine.display()))?;
    if let Some(missing) =
        state.params.iter().find(|p| !probe.declared_options.iter().any(|o| o.eq_ignore_ascii_case(&p.name)))
    {
        return Err(format!(
            "{} has no UCI option `{}`: build it with `cargo build --release --features tune`",
            args.engine.display(),
            missing.name
        )
        .into());
    }
    drop(probe);

    let tuned = state.params.iter().filter(|p| p.tuned).count();
    let limit = match (args.tc, args.nodes) {
        (Some(tc), _) => format!("tc {tc}"),
        (None, Some(n)) => format!("{n} nodes a move"),
        (None, None) => unreachable!("clap requires --nodes or --tc"),
    };
    println!(
        "spsa: {} of {} parameters of {}, {iterations} pairs at {limit}, {} at a time, seed {}, from pair {}",
        tuned,
        state.params.len(),
        args.engine.display(),
        args.concurrency,
        args.seed,
        state.done
    );
    let _ = std::io::stdout().flush();

    let first = state.done;
    let state = Mutex::new(state);
    let next = AtomicUsize::new(first as usize);
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let mut progress = Progress::new("spsa", u64::from(iterations), progress::plain_wanted(args.plain));
    progress.skip(u64::from(first));
    let mut write_error = None;

    thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<Option<i32>>();
        for worker in 0..args.concurrency.get() {
            let (tx, next, stop, state, schedules, book, order, limits) =
                (tx.clone(), &next, &stop, &state, &schedules, &book, &order, &limits);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let k = next.fetch_add(1, Ordering::Relaxed) as u32;
                    if k >= iterations {
                        break;
                    }
                    let params = state.lock().map(|s| s.params.clone()).unwrap_or_default();
                    let delta = directions(args.seed, k, params.len());
                    let options = |sign: f64| -> Vec<(String, String)> {
                        params
                            .iter()
                            .zip(&delta)
                            .zip(schedules)
                            .map(|((p, d), s)| {
                                let shift = if p.tuned { sign * s.c_k(k) * d } else { 0.0 };
                                (p.name.clone(), p.rounded(p.value + shift).to_string())
                            })
                            .collect()
                    };
                    let fen = &book.openings[order[k as usize % order.len()]].fen;
                    let result = play_pair(args, worker, [options(1.0), options(-1.0)], fen, limits, stop);
                    let Some(result) = result else { break };
                    if let Ok(mut s) = state.lock() {
                        match result {
                            Some(r) => {
                                for ((p, d), sched) in s.params.iter_mut().zip(&delta).zip(schedules) {
                                    if p.tuned {
                                        p.value = (p.value + sched.a_k(k) / sched.c_k(k) * f64::from(r) * d)
                                            .clamp(p.min, p.max);
                                    }
                                }
                                s.balance += i64::from(r);
                            }
                            None => s.failed += 1,
                        }
                        s.done += 1;
                    }
                    if tx.send(result).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for result in rx {
            let (text, summary) = match state.lock() {
                Ok(s) => (s.to_text(iterations, args.seed), format!("balance {:+}, {} failed", s.balance, s.failed)),
                Err(_) => break,
            };
            if let Err(e) = fs::write(&args.state, text) {
                write_error = Some(format!("cannot write {}: {e}", args.state.display()));
                stop.store(true, Ordering::Relaxed);
            }
            if result.is_none() {
                progress.println(
                    "warning: a game of the pair ended by a crash, stall or illegal move; its step is skipped",
                );
            }
            progress.set_message(summary);
            progress.inc(1);
        }
    });
    progress.finish();
    if let Some(e) = write_error {
        return Err(e.into());
    }
    let state = state.into_inner().map_err(|_| "a worker thread panicked")?;
    println!(
        "spsa: {} pairs in {:.0} s, balance {:+}, {} failed",
        state.done - first,
        started.elapsed().as_secs_f64(),
        state.balance,
        state.failed
    );
    println!("{:<28} {:>8} {:>10} {:>8}", "parameter", "start", "now", "rounded");
    for (p, start) in state.params.iter().zip(&start_values) {
        if p.tuned {
            println!("{:<28} {:>8} {:>10.2} {:>8}", p.name, start, p.value, p.rounded(p.value));
        }
    }
    println!("\n{}", format_config(&state.params));
    Ok(if state.failed > 0 { util::EXIT_FAILURE.into() } else { ExitCode::SUCCESS })
}

/// Plays the pair of iteration `k`: the engine with `options[0]` (θ + c·Δ) against the one with
/// `options[1]`, from `fen` with each colour once. Returns `None` when stopped, `Some(None)`
/// when a game was lost to a failure, and `Some(Some(r))` with the first engine's wins minus
/// losses.
fn play_pair(
    args: &SpsaArgs,
    worker: usize,
    options: [Vec<(String, String)>; 2],
    fen: &str,
    limits: &Limits,
    stop: &AtomicBool,
) -> Option<Option<i32>> {
    let start = |slot: usize, options: Vec<(String, String)>| {
        let config = EngineConfig { path: args.engine.clone(), args: Vec::new(), options, chess960: false };
        Engine::start(&config, format!("spsa{}#w{worker}", slot + 1), limits.hang_timeout, None)
    };
    let [plus, minus] = options;
    let (Ok(plus), Ok(minus)) = (start(0, plus), start(1, minus)) else { return Some(None) };
    let mut engines = [plus, minus];
    let mut half_points = 0;
    for white_slot in 0..2 {
        let setup = GameSetup {
            opening_fen: fen,
            chess960: false,
            white_slot,
            limits,
            resign: None,
            draw: None,
            max_plies: None,
            restart: false,
        };
        let record = game::play(&mut engines, &setup, stop)?;
        if record.offender.is_some() {
            return Some(None);
        }
        half_points += record.engine1_half_points() as i32;
    }
    // Two games: 0 to 4 half points; wins minus losses is half_points - 2.
    Some(Some(half_points - 2))
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINES: &str =
        "LMR_BASE, int, 75, 0, 200, 10, 0.002\n# a comment\n\nRFP_MARGIN, int, 80, 40, 150, 6.0, 0.002\n";

    #[test]
    fn configuration_lines_round_trip() {
        let params = parse_config(LINES).unwrap();
        assert_eq!(params.len(), 2);
        assert_eq!((params[1].name.as_str(), params[1].value, params[1].c_end), ("RFP_MARGIN", 80.0, 6.0));
        assert_eq!(parse_config(&format_config(&params)).unwrap(), params);
        assert!(parse_config("X, int, 5, 10, 20, 1, 0.002").is_err(), "value below min");
        assert!(parse_config("X, int, 5, 0, 20, 1").is_err(), "six fields");
        assert!(parse_config("").is_err());
    }

    #[test]
    fn the_schedule_ends_at_c_end_and_r_end() {
        // OpenBench's definitions: at the last iteration c_k = c_end and a_k / c_k² = r_end.
        let p = &parse_config(LINES).unwrap()[0];
        let s = Schedule::new(p, 1000);
        let last = 999;
        assert!((s.c_k(last) - 10.0).abs() < 1e-9, "{}", s.c_k(last));
        assert!((s.a_k(last) / (s.c_k(last) * s.c_k(last)) - 0.002).abs() < 1e-9);
        assert!(s.c_k(0) > s.c_k(last) && s.a_k(0) > s.a_k(last));
    }

    #[test]
    fn directions_are_reproducible_and_balanced() {
        assert_eq!(directions(7, 3, 40), directions(7, 3, 40));
        assert_ne!(directions(7, 3, 40), directions(7, 4, 40));
        let plus = (0..1000).flat_map(|k| directions(1, k, 10)).filter(|&d| d > 0.0).count();
        assert!((4700..5300).contains(&plus), "{plus} of 10000");
    }

    #[test]
    fn state_files_round_trip_and_refuse_another_run() {
        let mut params = parse_config(LINES).unwrap();
        params[1].tuned = false;
        let state = State { done: 12, started: 12, params: params.clone(), failed: 1, balance: -3 };
        let mut moved = state.clone();
        moved.params[0].value = 81.25;
        let text = moved.to_text(100, 5);
        let back = State::from_text(&text, params.clone(), 100, 5).unwrap();
        assert_eq!(back, moved);
        assert!(State::from_text(&text, params.clone(), 200, 5).is_err());
        assert!(State::from_text(&text, params.clone(), 100, 6).is_err());
        let mut all_tuned = params;
        all_tuned[1].tuned = true;
        assert!(State::from_text(&text, all_tuned, 100, 5).is_err());
    }
}
