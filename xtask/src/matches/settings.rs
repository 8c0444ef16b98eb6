//! The match settings given as strings on the command line: time controls (`--tc 10+0.1`),
//! `key=value` lists (`--sprt`, `--resign`, `--draw`) and UCI options (`--option Name=Value`).

use std::fmt;
use std::time::Duration;

use super::stats::{EloModel, Sprt, Statistics};
use crate::util::Result;

/// A clock time control: `[moves/]base[+increment]`, times in seconds (`base` may be `m:ss`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimeControl {
    /// Moves per period (the base time is added again after each period); `None`: sudden death.
    pub moves: Option<u32>,
    pub base: Duration,
    pub increment: Duration,
}

impl TimeControl {
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let bad =
            |why: &str| format!("invalid time control `{text}` ({why}); expected [moves/]base[+inc], e.g. 10+0.1");
        let (moves, rest) = match text.split_once('/') {
            Some((moves, rest)) => {
                let moves: u32 = moves.trim().parse().map_err(|_| bad("moves per period"))?;
                if moves == 0 {
                    return Err(bad("zero moves per period"));
                }
                (Some(moves), rest)
            }
            None => (None, text),
        };
        let (base, increment) = rest.split_once('+').unwrap_or((rest, "0"));
        let base = match base.split_once(':') {
            Some((m, s)) => seconds(m).map_err(|_| bad("base time"))? * 60.0 + seconds(s).map_err(|_| bad("base"))?,
            None => seconds(base).map_err(|_| bad("base time"))?,
        };
        let increment = seconds(increment).map_err(|_| bad("increment"))?;
        if base <= 0.0 && increment <= 0.0 {
            return Err(bad("no time at all"));
        }
        Ok(TimeControl { moves, base: Duration::from_secs_f64(base), increment: Duration::from_secs_f64(increment) })
    }
}

impl fmt::Display for TimeControl {
    /// The PGN `TimeControl` form: `40/60+0.5`, `10+0.1`, `60`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(moves) = self.moves {
            write!(f, "{moves}/")?;
        }
        write!(f, "{}", self.base.as_secs_f64())?;
        if !self.increment.is_zero() {
            write!(f, "+{}", self.increment.as_secs_f64())?;
        }
        Ok(())
    }
}

/// A non-negative, finite number of seconds.
fn seconds(text: &str) -> Result<f64, ()> {
    match text.trim().parse::<f64>() {
        Ok(s) if (0.0..1e9).contains(&s) => Ok(s),
        _ => Err(()),
    }
}

/// Parses `--st SECONDS` (fixed time per move, `go movetime`).
pub fn parse_movetime(text: &str) -> Result<Duration, String> {
    match seconds(text) {
        Ok(s) if s > 0.0 => Ok(Duration::from_secs_f64(s)),
        _ => Err(format!("invalid time per move `{text}`: expected a positive number of seconds")),
    }
}

/// What the engines are told to search, and how long the runner waits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    pub clock: Option<TimeControl>,
    pub movetime: Option<Duration>,
    pub nodes: Option<u64>,
    /// Clock mode: how far past zero a clock may run before the move is a time forfeit.
    pub time_margin: Duration,
    /// Non-clock modes: the wait for `bestmove` beyond the move time before the engine is
    /// declared stalled; also the limit for the handshake and `isready`.
    pub hang_timeout: Duration,
}

impl Limits {
    /// The PGN `TimeControl` tag: the clock, `0.5/move` (fixed time), or `-` (nodes only).
    pub fn pgn_time_control(&self) -> String {
        match (self.clock, self.movetime) {
            (Some(tc), _) => tc.to_string(),
            (None, Some(movetime)) => format!("{}/move", movetime.as_secs_f64()),
            (None, None) => "-".to_owned(),
        }
    }

    /// A human-readable summary: `tc 10+0.1`, `st 0.5 s`, `nodes 2000`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(tc) = self.clock {
            parts.push(format!("tc {tc}"));
        }
        if let Some(movetime) = self.movetime {
            parts.push(format!("st {} s", movetime.as_secs_f64()));
        }
        if let Some(nodes) = self.nodes {
            parts.push(format!("nodes {nodes}"));
        }
        parts.join(", ")
    }
}

/// Resign adjudication (cutechess `-resign`): a side loses when its engine's own score has been
/// at most `-score` cp for `moves` consecutive moves; `twosided`: when both engines agree for
/// `moves` moves each (the loser's score <= -score and the winner's >= +score).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResignRule {
    pub moves: u32,
    pub score: i32,
    pub twosided: bool,
}

impl ResignRule {
    pub fn parse(values: &[String]) -> Result<ResignRule> {
        let pairs = parse_pairs(values, &["moves", "movecount", "score", "twosided"])?;
        let moves = get(&pairs, &["moves", "movecount"])?.ok_or("--resign needs moves=N")?;
        let score = get(&pairs, &["score"])?.ok_or("--resign needs score=CP")?;
        let twosided = get(&pairs, &["twosided"])?.unwrap_or(false);
        if moves == 0 || score <= 0 {
            return Err("--resign needs moves >= 1 and score >= 1".into());
        }
        Ok(ResignRule { moves, score, twosided })
    }
}

/// Draw adjudication (cutechess `-draw`): from full move `movenumber` on, both engines' scores
/// within `score` cp of zero for `moves` consecutive moves each (2 x moves plies).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrawRule {
    pub movenumber: u32,
    pub moves: u32,
    pub score: i32,
}

impl DrawRule {
    pub fn parse(values: &[String]) -> Result<DrawRule> {
        let pairs = parse_pairs(values, &["movenumber", "moves", "movecount", "score"])?;
        let movenumber = get(&pairs, &["movenumber"])?.unwrap_or(0);
        let moves = get(&pairs, &["moves", "movecount"])?.ok_or("--draw needs moves=N")?;
        let score = get(&pairs, &["score"])?.ok_or("--draw needs score=CP")?;
        if moves == 0 || score < 0 {
            return Err("--draw needs moves >= 1 and score >= 0".into());
        }
        Ok(DrawRule { movenumber, moves, score })
    }
}

/// Parses `--sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized` (fastchess' syntax;
/// alpha and beta default to 0.05, the model to normalized Elo).
pub fn parse_sprt(values: &[String], statistics: Statistics) -> Result<Sprt> {
    let pairs = parse_pairs(values, &["elo0", "elo1", "alpha", "beta", "model"])?;
    let elo0: f64 = get(&pairs, &["elo0"])?.ok_or("--sprt needs elo0=X")?;
    let elo1: f64 = get(&pairs, &["elo1"])?.ok_or("--sprt needs elo1=Y")?;
    let alpha: f64 = get(&pairs, &["alpha"])?.unwrap_or(0.05);
    let beta: f64 = get(&pairs, &["beta"])?.unwrap_or(0.05);
    let model = match pairs.iter().find(|(key, _)| key == "model") {
        Some((_, value)) => value.parse::<EloModel>()?,
        None => EloModel::Normalized,
    };
    if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
        return Err("--sprt needs finite elo0 < elo1".into());
    }
    if !(alpha > 0.0 && beta > 0.0 && alpha + beta < 1.0) {
        return Err("--sprt needs alpha > 0, beta > 0 and alpha + beta < 1".into());
    }
    Ok(Sprt { elo0, elo1, alpha, beta, model, statistics })
}

/// `key=value` words (one argument each, or several in one argument separated by spaces or
/// commas), with keys checked against `known`.
pub fn parse_pairs(values: &[String], known: &[&str]) -> Result<Vec<(String, String)>> {
    let mut pairs: Vec<(String, String)> = Vec::new();
    for word in values.iter().flat_map(|v| v.split(|c: char| c.is_whitespace() || c == ',')).filter(|w| !w.is_empty()) {
        let (key, value) = word.split_once('=').ok_or_else(|| format!("expected key=value, found `{word}`"))?;
        let key = key.trim().to_ascii_lowercase();
        if !known.contains(&key.as_str()) {
            return Err(format!("unknown key `{key}` (expected {})", known.join(", ")).into());
        }
        if pairs.iter().any(|(k, _)| *k == key) {
            return Err(format!("`{key}` given twice").into());
        }
        pairs.push((key, value.trim().to_owned()));
    }
    Ok(pairs)
}

/// The value of the first of `keys` that is present, parsed.
fn get<T: std::str::FromStr>(pairs: &[(String, String)], keys: &[&str]) -> Result<Option<T>> {
    for (key, value) in pairs {
        if keys.contains(&key.as_str()) {
            return value.parse().map(Some).map_err(|_| format!("invalid value `{value}` for `{key}`").into());
        }
    }
    Ok(None)
}

/// Parses a UCI option `Name=Value` (the name may contain spaces; the value may be empty, for
/// buttons).
pub fn parse_uci_option(text: &str) -> Result<(String, String), String> {
    let (name, value) = text.split_once('=').ok_or_else(|| format!("expected Name=Value, found `{text}`"))?;
    let name = name.trim();
    if name.is_empty() {
        return Err(format!("empty option name in `{text}`"));
    }
    Ok((name.to_owned(), value.trim().to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split(' ').map(str::to_owned).collect()
    }

    #[test]
    fn time_controls() {
        let tc = TimeControl::parse("10+0.1").unwrap();
        assert_eq!(
            tc,
            TimeControl { moves: None, base: Duration::from_secs(10), increment: Duration::from_millis(100) }
        );
        assert_eq!(tc.to_string(), "10+0.1");
        let tc = TimeControl::parse("40/60+0.5").unwrap();
        assert_eq!(tc.moves, Some(40));
        assert_eq!(tc.to_string(), "40/60+0.5");
        assert_eq!(TimeControl::parse("1:30").unwrap().base, Duration::from_secs(90));
        assert_eq!(TimeControl::parse("60").unwrap().to_string(), "60");
        assert_eq!(TimeControl::parse("0+1").unwrap().increment, Duration::from_secs(1));
        assert_eq!(TimeControl::parse("1+0.01").unwrap().increment, Duration::from_millis(10));
        for bad in ["", "abc", "+1", "10+", "10+-1", "-5", "0/10", "0+0", "x/10+1", "inf", "NaN+1"] {
            assert!(TimeControl::parse(bad).is_err(), "{bad} accepted");
        }
        assert_eq!(parse_movetime("0.5").unwrap(), Duration::from_millis(500));
        assert!(parse_movetime("0").is_err());
        assert!(parse_movetime("-1").is_err());
    }

    #[test]
    fn sprt_strings() {
        let sprt = parse_sprt(&words("elo0=0 elo1=5 alpha=0.05 beta=0.1"), Statistics::Pentanomial).unwrap();
        assert_eq!((sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta), (0.0, 5.0, 0.05, 0.1));
        assert_eq!((sprt.model, sprt.statistics), (EloModel::Normalized, Statistics::Pentanomial));
        // One quoted argument, commas, defaults, the model.
        let sprt = parse_sprt(&["elo0=-5,elo1=0,model=logistic".to_owned()], Statistics::Trinomial).unwrap();
        assert_eq!((sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta), (-5.0, 0.0, 0.05, 0.05));
        assert_eq!((sprt.model, sprt.statistics), (EloModel::Logistic, Statistics::Trinomial));
        for bad in [
            "elo0=5 elo1=0",
            "elo1=5",
            "elo0=0",
            "elo0=0 elo1=5 alpha=0",
            "elo0=0 elo1=5 gamma=1",
            "elo0=0 elo1",
            "elo0=0 elo1=5 model=bayesian",
        ] {
            assert!(parse_sprt(&words(bad), Statistics::Pentanomial).is_err(), "{bad} accepted");
        }
        assert!(parse_sprt(&words("elo0=0 elo1=5 elo0=1"), Statistics::Pentanomial).is_err());
    }

    #[test]
    fn adjudication_strings() {
        let resign = ResignRule::parse(&words("moves=3 score=1000")).unwrap();
        assert_eq!(resign, ResignRule { moves: 3, score: 1000, twosided: false });
        // cutechess spelling.
        let resign = ResignRule::parse(&words("movecount=5 score=600 twosided=true")).unwrap();
        assert_eq!(resign, ResignRule { moves: 5, score: 600, twosided: true });
        assert!(ResignRule::parse(&words("moves=3")).is_err());
        assert!(ResignRule::parse(&words("moves=0 score=1000")).is_err());
        assert!(ResignRule::parse(&words("moves=3 score=big")).is_err());

        let draw = DrawRule::parse(&words("movenumber=40 moves=8 score=10")).unwrap();
        assert_eq!(draw, DrawRule { movenumber: 40, moves: 8, score: 10 });
        assert_eq!(DrawRule::parse(&["moves=8 score=0".to_owned()]).unwrap().movenumber, 0);
        assert!(DrawRule::parse(&words("movenumber=40 score=10")).is_err());
        assert!(DrawRule::parse(&words("movenumber=40 moves=8 score=10 resign=1")).is_err());
    }

    #[test]
    fn uci_options() {
        assert_eq!(parse_uci_option("Hash=16").unwrap(), ("Hash".to_owned(), "16".to_owned()));
        assert_eq!(parse_uci_option("Move Overhead=10").unwrap(), ("Move Overhead".to_owned(), "10".to_owned()));
        assert_eq!(parse_uci_option("Clear Hash=").unwrap(), ("Clear Hash".to_owned(), String::new()));
        assert_eq!(parse_uci_option("SyzygyPath=/a=b").unwrap().1, "/a=b");
        assert!(parse_uci_option("Hash").is_err());
        assert!(parse_uci_option("=16").is_err());
    }

    #[test]
    fn pgn_time_control_tags() {
        let mut limits = Limits {
            clock: Some(TimeControl::parse("1+0.01").unwrap()),
            movetime: None,
            nodes: None,
            time_margin: Duration::ZERO,
            hang_timeout: Duration::from_secs(10),
        };
        assert_eq!(limits.pgn_time_control(), "1+0.01");
        limits.clock = None;
        limits.movetime = Some(Duration::from_millis(500));
        assert_eq!(limits.pgn_time_control(), "0.5/move");
        limits.movetime = None;
        limits.nodes = Some(2000);
        assert_eq!(limits.pgn_time_control(), "-");
        assert_eq!(limits.describe(), "nodes 2000");
    }
}
