//! `--runner fastchess|cutechess`: hands the match to fastchess or cutechess-cli.
//!
//! The tool is looked up on PATH before anything is built. Its command line says what the
//! in-tree runner would do: the same engines, names and UCI options (common ones first, then
//! each engine's own), openings file and order, time control (or move time, or nodes), time
//! margin, concurrency, games as rounds of two with colours swapped, adjudication, SPRT and PGN
//! file. The tool's own output is streamed (inherited stdout and stderr); xtask prints the
//! command line first, so the run can be repeated by hand.

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

use super::settings::Limits;
use super::stats::Statistics;
use super::{MatchOptions, Settings};
use crate::util::{self, Result};

/// Who plays the games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Runner {
    /// The in-tree runner of `cargo xtask match` (needs nothing installed).
    Internal,
    /// fastchess (github.com/Disservin/fastchess), `fastchess` on PATH.
    Fastchess,
    /// cutechess-cli (github.com/cutechess/cutechess), `cutechess-cli` on PATH.
    Cutechess,
}

impl Runner {
    /// The program looked up on PATH; none for the in-tree runner.
    pub fn program(self) -> Option<&'static str> {
        match self {
            Runner::Internal => None,
            Runner::Fastchess => Some("fastchess"),
            Runner::Cutechess => Some("cutechess-cli"),
        }
    }
}

impl fmt::Display for Runner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Runner::Internal => "internal",
            Runner::Fastchess => "fastchess",
            Runner::Cutechess => "cutechess",
        })
    }
}

/// The first executable file named `program` in the directories of `path_var` (a PATH value).
pub fn find_in_path(path_var: &OsStr, program: &str) -> Option<PathBuf> {
    let name = format!("{program}{}", std::env::consts::EXE_SUFFIX);
    std::env::split_paths(path_var).map(|dir| dir.join(&name)).find(|candidate| is_executable(candidate))
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata().is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    path.is_file()
}

/// The runner's program on PATH, or an error that says how to get it.
pub fn find_tool(runner: Runner) -> Result<PathBuf> {
    find_tool_in(runner, &std::env::var_os("PATH").unwrap_or_default())
}

/// [`find_tool`] with the PATH value `path_var`.
pub fn find_tool_in(runner: Runner, path_var: &OsStr) -> Result<PathBuf> {
    let Some(program) = runner.program() else {
        return Err("the in-tree runner needs no program".into());
    };
    find_in_path(path_var, program).ok_or_else(|| {
        let home = match runner {
            Runner::Cutechess => "https://github.com/cutechess/cutechess",
            _ => "https://github.com/Disservin/fastchess",
        };
        format!(
            "--runner {runner}: `{program}` is not on PATH (install it from {home}, or leave out --runner to use \
             the in-tree runner)"
        )
        .into()
    })
}

/// `option.Name=Value` words for the options of engine `slot` (0 or 1): the common ones, then
/// the engine's own, a later value of the same option replacing an earlier one.
fn option_words(args: &MatchOptions, slot: usize) -> Vec<String> {
    let own = if slot == 0 { &args.options1 } else { &args.options2 };
    let mut merged: Vec<(String, String)> = Vec::new();
    for (name, value) in args.options.iter().chain(own) {
        match merged.iter_mut().find(|(n, _)| n.eq_ignore_ascii_case(name)) {
            Some(entry) => entry.1.clone_from(value),
            None => merged.push((name.clone(), value.clone())),
        }
    }
    merged.into_iter().map(|(name, value)| format!("option.{name}={value}")).collect()
}

/// The `-each` words: protocol, limits, time margin, restarts.
fn each_words(runner: Runner, limits: &Limits, restart: bool) -> Vec<String> {
    let mut words = vec!["proto=uci".to_owned()];
    match (limits.clock, limits.movetime) {
        (Some(tc), _) => words.push(format!("tc={tc}")),
        (None, Some(movetime)) => words.push(format!("st={}", movetime.as_secs_f64())),
        // cutechess-cli wants a time control even when nodes limit the search.
        (None, None) if runner == Runner::Cutechess => words.push("tc=inf".to_owned()),
        (None, None) => {}
    }
    if let Some(nodes) = limits.nodes {
        words.push(format!("nodes={nodes}"));
    }
    if limits.clock.is_some() && !limits.time_margin.is_zero() {
        words.push(format!("timemargin={}", limits.time_margin.as_millis()));
    }
    if restart {
        words.push("restart=on".to_owned());
    }
    words
}

/// A command line under construction.
#[derive(Debug, Default)]
struct Words(Vec<OsString>);

impl Words {
    fn push(&mut self, words: &[&str]) {
        self.0.extend(words.iter().map(OsString::from));
    }

    /// `key=PATH`, the path kept as it is (it need not be UTF-8).
    fn push_path(&mut self, key: &str, path: &Path) {
        let mut word = OsString::from(key);
        word.push(path);
        self.0.push(word);
    }
}

/// The tool's arguments for the match that `args` and `settings` describe, between the engines
/// at `paths` named `names`.
pub fn arguments(
    runner: Runner,
    args: &MatchOptions,
    settings: &Settings,
    paths: &[PathBuf; 2],
    names: &[String; 2],
) -> Vec<OsString> {
    let mut out = Words::default();
    for slot in 0..2 {
        out.push(&["-engine"]);
        out.push_path("cmd=", &paths[slot]);
        out.push(&[&format!("name={}", names[slot])]);
        for word in option_words(args, slot) {
            out.push(&[&word]);
        }
    }
    out.push(&["-each"]);
    for word in each_words(runner, &settings.limits, args.restart) {
        out.push(&[&word]);
    }
    openings_words(&mut out, args, settings);
    let rounds = (settings.games / 2).to_string();
    match runner {
        Runner::Cutechess => out.push(&["-games", "2", "-rounds", &rounds, "-repeat"]),
        _ => out.push(&["-rounds", &rounds, "-games", "2"]),
    }
    out.push(&["-concurrency", &args.concurrency.to_string()]);
    adjudication_words(&mut out, args, settings);
    if let Some(sprt) = settings.sprt {
        let mut words = vec![
            format!("elo0={}", sprt.elo0),
            format!("elo1={}", sprt.elo1),
            format!("alpha={}", sprt.alpha),
            format!("beta={}", sprt.beta),
        ];
        if runner == Runner::Fastchess {
            words.push(format!("model={}", sprt.model));
        }
        out.push(&["-sprt"]);
        out.0.extend(words.into_iter().map(OsString::from));
    }
    if runner == Runner::Fastchess && args.statistics == Statistics::Trinomial {
        out.push(&["-report", "penta=false"]);
    }
    if let Some(path) = &args.pgn {
        out.push(&["-pgnout"]);
        match runner {
            Runner::Cutechess => out.push_path("", path),
            _ => out.push_path("file=", path),
        }
    }
    out.push(&["-event", &args.event, "-recover"]);
    out.0
}

/// `-openings file=F format=epd|pgn order=sequential|random [-srand N] [-variant fischerandom]`.
fn openings_words(out: &mut Words, args: &MatchOptions, settings: &Settings) {
    let format = match settings.openings.extension().and_then(OsStr::to_str) {
        Some(ext) if ext.eq_ignore_ascii_case("pgn") => "pgn",
        _ => "epd",
    };
    let order = if args.seed.is_some() { "random" } else { "sequential" };
    out.push(&["-openings"]);
    out.push_path("file=", &settings.openings);
    out.push(&[&format!("format={format}"), &format!("order={order}")]);
    if let Some(seed) = args.seed {
        out.push(&["-srand", &seed.to_string()]);
    }
    if args.chess960 {
        out.push(&["-variant", "fischerandom"]);
    }
}

/// `-resign`, `-draw` and `-maxmoves` (both tools count full moves: plies rounded up).
fn adjudication_words(out: &mut Words, args: &MatchOptions, settings: &Settings) {
    if let Some(rule) = settings.resign {
        let words = [
            "-resign".to_owned(),
            format!("movecount={}", rule.moves),
            format!("score={}", rule.score),
            format!("twosided={}", rule.twosided),
        ];
        out.0.extend(words.into_iter().map(OsString::from));
    }
    if let Some(rule) = settings.draw {
        let words = [
            "-draw".to_owned(),
            format!("movenumber={}", rule.movenumber),
            format!("movecount={}", rule.moves),
            format!("score={}", rule.score),
        ];
        out.0.extend(words.into_iter().map(OsString::from));
    }
    if let Some(plies) = args.max_plies {
        out.push(&["-maxmoves", &plies.get().div_ceil(2).to_string()]);
    }
}

/// Warnings about what the tool does differently (stderr).
fn caveats(runner: Runner, args: &MatchOptions, settings: &Settings) -> Vec<String> {
    let mut notes = Vec::new();
    if runner == Runner::Cutechess && settings.sprt.is_some() {
        notes.push("cutechess-cli's SPRT takes elo0/elo1 as BayesElo on single games, whatever the model".to_owned());
    }
    if runner == Runner::Cutechess && args.statistics == Statistics::Pentanomial {
        notes.push("cutechess-cli reports statistics of single games (no pentanomial)".to_owned());
    }
    if args.max_plies.is_some_and(|p| p.get() % 2 == 1) {
        notes.push("--max-plies is odd; the tool adjudicates after whole moves (rounded up)".to_owned());
    }
    notes
}

/// `word` quoted for a POSIX shell if it needs it (for the echoed command line).
fn shell_quote(word: &str) -> String {
    let plain = !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || "-_=./:+,@%".contains(c));
    if plain { word.to_owned() } else { format!("'{}'", word.replace('\'', r"'\''")) }
}

/// Runs `tool` with [`arguments`], streaming its output, and maps its exit status.
pub fn run(
    tool: &Path,
    runner: Runner,
    args: &MatchOptions,
    settings: &Settings,
    paths: &[PathBuf; 2],
    names: &[String; 2],
) -> Result<ExitCode> {
    let arguments = arguments(runner, args, settings, paths, names);
    if let Some(path) = &args.pgn {
        // The PGN file is overwritten, as with the in-tree runner (both tools append).
        File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
    }
    for note in caveats(runner, args, settings) {
        eprintln!("warning: {note}");
    }
    let line: Vec<String> = std::iter::once(tool.as_os_str())
        .chain(arguments.iter().map(OsString::as_os_str))
        .map(|w| shell_quote(&w.to_string_lossy()))
        .collect();
    eprintln!("match: handing the games to {runner}:\n  {}", line.join(" "));
    let status = Command::new(tool)
        .args(&arguments)
        .stdin(Stdio::null())
        .status()
        .map_err(|e| format!("cannot run {}: {e}", tool.display()))?;
    if status.success() {
        Ok(ExitCode::SUCCESS)
    } else {
        println!("FAIL: {} exited with {status}", tool.display());
        Ok(util::EXIT_FAILURE.into())
    }
}
