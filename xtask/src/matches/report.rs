//! Running totals of a match, the status shown by the progress display, and the final summary.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::time::Duration;

use super::game::{GameRecord, GameResult, Incident, Termination};
use super::stats::{self, EloEstimate, Hypothesis, Pentanomial, Sprt, Statistics, Wdl};

/// Incidents printed in full (with their UCI transcript) in the summary.
const INCIDENTS_SHOWN: usize = 6;

/// Per-engine counts.
#[derive(Debug, Clone, Copy, Default)]
pub struct EngineTally {
    pub time_losses: u32,
    pub crashes: u32,
    pub stalls: u32,
    pub illegal_moves: u32,
    pub restarts: u32,
    pub moves: u32,
    pub depth_sum: u64,
    pub depth_count: u32,
    pub think_time: Duration,
    /// The longest time one move took.
    pub max_move_time: Duration,
    /// With a clock: the least time this engine had left after a move (before the increment).
    pub min_clock_left: Option<Duration>,
}

impl EngineTally {
    /// Crashes, stalls and illegal moves: protocol failures that fail the run.
    pub fn failures(&self) -> u32 {
        self.crashes + self.stalls + self.illegal_moves
    }
}

/// An incident with the game it happened in.
#[derive(Debug, Clone)]
pub struct NumberedIncident {
    pub game: usize,
    pub incident: Incident,
}

/// Everything counted so far.
#[derive(Debug, Default)]
pub struct Tally {
    /// From engine1's point of view.
    pub wdl: Wdl,
    pub pairs: Pentanomial,
    /// engine1's half-points in the first finished game of each unfinished pair.
    open_pairs: HashMap<usize, usize>,
    pub terminations: BTreeMap<Termination, u32>,
    pub engines: [EngineTally; 2],
    pub white_wins: u32,
    pub black_wins: u32,
    pub plies: u64,
    pub incidents: Vec<NumberedIncident>,
    pub incident_count: usize,
}

impl Tally {
    /// Adds game `index` (0-based; games `2k` and `2k + 1` form a pair). Returns whether a pair
    /// was completed.
    pub fn add(&mut self, index: usize, record: &GameRecord) -> bool {
        match record.engine1_half_points() {
            2 => self.wdl.wins += 1,
            1 => self.wdl.draws += 1,
            _ => self.wdl.losses += 1,
        }
        match record.result {
            GameResult::WhiteWins => self.white_wins += 1,
            GameResult::BlackWins => self.black_wins += 1,
            GameResult::Draw => {}
        }
        *self.terminations.entry(record.termination).or_default() += 1;
        self.plies += record.moves.len() as u64;
        if let Some(slot) = record.offender {
            let engine = &mut self.engines[slot];
            match record.termination {
                Termination::TimeForfeit => engine.time_losses += 1,
                Termination::IllegalMove => engine.illegal_moves += 1,
                Termination::Crash => engine.crashes += 1,
                Termination::Stall => engine.stalls += 1,
                _ => {}
            }
        }
        // Moves alternate between the engines, starting with the side to move of the opening.
        let first_slot = if record.opening_fen.split_whitespace().nth(1) == Some("b") {
            1 - record.white_slot
        } else {
            record.white_slot
        };
        for (i, mv) in record.moves.iter().enumerate() {
            let engine = &mut self.engines[(first_slot + i) % 2];
            engine.moves += 1;
            engine.think_time += mv.time;
            engine.max_move_time = engine.max_move_time.max(mv.time);
            if let Some(left) = mv.clock_left {
                engine.min_clock_left = Some(engine.min_clock_left.map_or(left, |min| min.min(left)));
            }
            if let Some(depth) = mv.depth {
                engine.depth_sum += u64::from(depth);
                engine.depth_count += 1;
            }
        }
        for incident in &record.incidents {
            if incident.restarted {
                self.engines[incident.slot].restarts += 1;
            }
            self.incident_count += 1;
            if self.incidents.len() < INCIDENTS_SHOWN {
                self.incidents.push(NumberedIncident { game: index + 1, incident: incident.clone() });
            }
        }
        let points = record.engine1_half_points();
        match self.open_pairs.remove(&(index / 2)) {
            Some(first) => {
                self.pairs.add(first + points);
                true
            }
            None => {
                self.open_pairs.insert(index / 2, points);
                false
            }
        }
    }

    pub fn games(&self) -> u32 {
        self.wdl.games()
    }

    /// The outcomes counted under `statistics`: games, or complete pairs only.
    pub fn outcomes(&self, statistics: Statistics) -> Vec<(f64, f64)> {
        statistics.outcomes(self.wdl, self.pairs)
    }
}

/// The fewest samples (games or pairs) from which Elo, nElo and LOS are shown.
pub const MIN_SAMPLES: f64 = 2.0;

/// The Elo figures of a match so far, or why they are not shown yet.
///
/// With fewer than [`MIN_SAMPLES`] games (pairs), or when every game (pair) scored the same,
/// the sample has no measured spread: an estimate would come with an error bar of zero or an
/// infinite Elo. Those are shown as `n/a` with the reason instead.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Figures {
    /// Logistic Elo; `Err` also when its 95% interval reaches a score of 0 or 1 (an unbounded
    /// error bar).
    pub elo: Result<EloEstimate, &'static str>,
    pub nelo: Result<EloEstimate, &'static str>,
    pub los: Result<f64, &'static str>,
}

impl Figures {
    pub fn new(tally: &Tally, statistics: Statistics) -> Figures {
        let outcomes = tally.outcomes(statistics);
        let samples: f64 = outcomes.iter().map(|&(_, count)| count).sum();
        let alike = outcomes.iter().filter(|&&(_, count)| count > 0.0).count() <= 1;
        let missing = match statistics {
            Statistics::Trinomial if samples < MIN_SAMPLES => Some("needs 2 games"),
            Statistics::Pentanomial if samples < MIN_SAMPLES => Some("needs 2 complete pairs"),
            Statistics::Trinomial if alike => Some("every game had the same result"),
            Statistics::Pentanomial if alike => Some("every pair scored the same"),
            _ => None,
        };
        if let Some(reason) = missing {
            return Figures { elo: Err(reason), nelo: Err(reason), los: Err(reason) };
        }
        let unbounded = match statistics {
            Statistics::Trinomial => "error bar unbounded: needs more games",
            Statistics::Pentanomial => "error bar unbounded: needs more pairs",
        };
        let elo =
            stats::elo_estimate(&outcomes).filter(|e| e.lower.is_finite() && e.upper.is_finite()).ok_or(unbounded);
        let nelo = stats::nelo_estimate(&outcomes, statistics.games_per_sample()).ok_or(unbounded);
        let los = stats::los(&outcomes).ok_or(unbounded);
        Figures { elo, nelo, los }
    }
}

/// `+12.3`, `-inf`, `+inf`.
pub fn signed(value: f64) -> String {
    // -0.0 + 0.0 is +0.0: an even score shows as +0.0.
    let value = value + 0.0;
    if value.is_finite() {
        format!("{value:+.1}")
    } else if value > 0.0 {
        "+inf".to_owned()
    } else {
        "-inf".to_owned()
    }
}

/// `+12.3 ± 45.6`, or `n/a (why)`.
pub fn elo_text(estimate: Result<EloEstimate, &'static str>) -> String {
    match estimate {
        Ok(e) => format!("{} ± {:.1}", signed(e.elo), e.error()),
        Err(why) => format!("n/a ({why})"),
    }
}

/// `games` / `pairs`, singular for one.
fn samples_text(statistics: Statistics, tally: &Tally) -> String {
    let (n, unit) = match statistics {
        Statistics::Trinomial => (tally.games(), "game"),
        Statistics::Pentanomial => (tally.pairs.pairs(), "pair"),
    };
    format!("{n} {unit}{}", if n == 1 { "" } else { "s" })
}

/// The status of the match so far, for the progress display: W-D-L, score, Elo and nElo with
/// the games or pairs they count, LLR.
pub fn status(tally: &Tally, statistics: Statistics, sprt: Option<(&Sprt, f64)>) -> String {
    let wdl = tally.wdl;
    let figures = Figures::new(tally, statistics);
    let mut line = format!(
        "W-D-L {}-{}-{} ({:.1}%), {}: Elo {}",
        wdl.wins,
        wdl.draws,
        wdl.losses,
        100.0 * wdl.score().unwrap_or(0.5),
        samples_text(statistics, tally),
        elo_text(figures.elo),
    );
    if let Ok(nelo) = figures.nelo {
        let _ = write!(line, ", nElo {}", signed(nelo.elo));
    }
    if let Some((sprt, llr)) = sprt {
        let _ = write!(line, ", LLR {llr:.2} ({:.2}, {:.2})", sprt.lower_bound(), sprt.upper_bound());
    }
    line
}

/// How the SPRT ended, for the summary.
#[derive(Debug, Clone, Copy)]
pub struct SprtOutcome {
    pub sprt: Sprt,
    pub llr: f64,
    pub decision: Option<Hypothesis>,
}

/// `trinomial, 100 games` / `pentanomial, 50 pairs`.
fn sample_text(statistics: Statistics, tally: &Tally) -> String {
    format!("{statistics}, {}", samples_text(statistics, tally))
}

/// An SPRT's state in one line: its settings, the LLR between its bounds and the verdict.
pub fn sprt_text(outcome: &SprtOutcome) -> String {
    let s = outcome.sprt;
    let verdict = match outcome.decision {
        Some(Hypothesis::H1) => "H1 accepted",
        Some(Hypothesis::H0) => "H0 accepted",
        None => "no decision yet",
    };
    format!(
        "{}: LLR {:.2} in ({:.2}, {:.2}): {verdict}",
        sprt_settings(&s),
        outcome.llr,
        s.lower_bound(),
        s.upper_bound()
    )
}

/// An SPRT's settings: `elo0=X elo1=Y alpha=A beta=B model=M (statistics)`.
pub fn sprt_settings(s: &Sprt) -> String {
    format!("elo0={} elo1={} alpha={} beta={} model={} ({})", s.elo0, s.elo1, s.alpha, s.beta, s.model, s.statistics)
}

/// The final summary (stdout). `statistics`: how results are counted for Elo, nElo and LOS.
pub fn summary(
    names: &[String; 2],
    tally: &Tally,
    statistics: Statistics,
    sprt: Option<SprtOutcome>,
    elapsed: Duration,
) -> String {
    let mut out = String::new();
    let wdl = tally.wdl;
    let games = tally.games();
    let _ = writeln!(out, "\nResults of {} vs {} ({games} games, {:.1} s):", names[0], names[1], elapsed.as_secs_f64());
    let _ = writeln!(
        out,
        "  score         W-D-L {}-{}-{} from {}'s view: {:.1}/{games} ({:.1}%)",
        wdl.wins,
        wdl.draws,
        wdl.losses,
        names[0],
        f64::from(wdl.wins) + 0.5 * f64::from(wdl.draws),
        100.0 * wdl.score().unwrap_or(0.5),
    );
    let figures = Figures::new(tally, statistics);
    let sample = sample_text(statistics, tally);
    let _ = writeln!(out, "  Elo           {} (95%, {sample})", elo_text(figures.elo));
    if statistics == Statistics::Pentanomial {
        let games = Figures::new(tally, Statistics::Trinomial);
        let trinomial = sample_text(Statistics::Trinomial, tally);
        let _ = writeln!(out, "                {} (95%, {trinomial})", elo_text(games.elo));
    }
    let _ = writeln!(out, "  nElo          {} (95%, normalized Elo, {sample})", elo_text(figures.nelo));
    let los = match figures.los {
        Ok(los) => format!("{:.1}%", 100.0 * los),
        Err(why) => format!("n/a ({why})"),
    };
    let _ = writeln!(out, "  LOS           {los} ({sample})");
    let _ = writeln!(out, "  draw ratio    {:.1}%", 100.0 * wdl.draw_ratio().unwrap_or(0.0));
    if tally.pairs.pairs() > 0 {
        let c = tally.pairs.counts;
        let _ = writeln!(
            out,
            "  Ptnml(0-2)    [{}, {}, {}, {}, {}] (pairs LL, LD, WL+DD, WD, WW from {}'s view)",
            c[0], c[1], c[2], c[3], c[4], names[0]
        );
    }
    let draws = games - tally.white_wins - tally.black_wins;
    let _ = writeln!(
        out,
        "  colours       White wins {}, Black wins {}, draws {draws}; {:.1} plies per game",
        tally.white_wins,
        tally.black_wins,
        if games > 0 { tally.plies as f64 / f64::from(games) } else { 0.0 },
    );
    if let Some(outcome) = sprt {
        let _ = writeln!(out, "  SPRT          {}", sprt_text(&outcome));
    }

    let _ = writeln!(out, "\nTerminations:");
    for termination in Termination::ALL {
        if let Some(n) = tally.terminations.get(&termination) {
            let _ = writeln!(out, "  {:<24} {n:>6}", termination.to_string());
        }
    }

    let name_width = names.iter().map(|n| n.chars().count()).max().unwrap_or(6).max(6);
    let _ = writeln!(out, "\nEngines:");
    let _ = writeln!(
        out,
        "  {:<name_width$} {:>11} {:>8} {:>7} {:>14} {:>9} {:>10} {:>14} {:>14} {:>14}",
        "engine",
        "time losses",
        "crashes",
        "stalls",
        "illegal moves",
        "restarts",
        "avg depth",
        "avg time/move",
        "max time/move",
        "lowest clock"
    );
    for (name, e) in names.iter().zip(&tally.engines) {
        let depth = if e.depth_count > 0 { e.depth_sum as f64 / f64::from(e.depth_count) } else { 0.0 };
        let time = if e.moves > 0 { e.think_time.as_secs_f64() / f64::from(e.moves) } else { 0.0 };
        let lowest = e.min_clock_left.map_or_else(|| "-".to_owned(), |t| format!("{:.3} s", t.as_secs_f64()));
        let _ = writeln!(
            out,
            "  {name:<name_width$} {:>11} {:>8} {:>7} {:>14} {:>9} {depth:>10.1} {:>12.3} s {:>12.3} s {lowest:>14}",
            e.time_losses,
            e.crashes,
            e.stalls,
            e.illegal_moves,
            e.restarts,
            time,
            e.max_move_time.as_secs_f64(),
        );
    }

    if tally.incident_count > 0 {
        let _ = writeln!(
            out,
            "\nIncidents: {} (the first {} with the engine's last UCI lines, `>` sent, `<` received):",
            tally.incident_count,
            tally.incidents.len()
        );
        for NumberedIncident { game, incident } in &tally.incidents {
            let _ = writeln!(out, "  game {game}, {}: {}", names[incident.slot], incident.what);
            for line in &incident.transcript {
                let _ = writeln!(out, "      {line}");
            }
            if !incident.stderr.is_empty() {
                let _ = writeln!(out, "    stderr:");
                for line in &incident.stderr {
                    let _ = writeln!(out, "      {line}");
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::game::MoveRecord;
    use super::*;

    fn record(white_slot: usize, result: GameResult, termination: Termination, offender: Option<usize>) -> GameRecord {
        GameRecord {
            opening_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_owned(),
            chess960: false,
            white_slot,
            moves: vec![MoveRecord {
                san: "e4".to_owned(),
                uci: "e2e4".to_owned(),
                score: None,
                depth: Some(10),
                time: Duration::from_millis(20),
                clock_left: Some(Duration::from_millis(100 + 10 * white_slot as u64)),
            }],
            result,
            termination,
            reason: String::new(),
            offender,
            incidents: Vec::new(),
        }
    }

    #[test]
    fn tallies_games_and_pairs() {
        let mut tally = Tally::default();
        // Pair 0: engine1 wins with White, draws with Black.
        assert!(!tally.add(0, &record(0, GameResult::WhiteWins, Termination::Checkmate, None)));
        // Game 3 (pair 1) finishes before game 2: engine1 (Black) loses on time.
        assert!(!tally.add(3, &record(1, GameResult::WhiteWins, Termination::TimeForfeit, Some(0))));
        assert!(tally.add(1, &record(1, GameResult::Draw, Termination::Repetition, None)));
        // Game 2: engine2 (Black) makes an illegal move, engine1 wins: pair 1 is W + L.
        assert!(tally.add(2, &record(0, GameResult::WhiteWins, Termination::IllegalMove, Some(1))));
        assert_eq!(tally.wdl, Wdl { wins: 2, draws: 1, losses: 1 });
        assert_eq!(tally.pairs.counts, [0, 0, 1, 1, 0]);
        assert_eq!(tally.engines[0].time_losses, 1);
        assert_eq!(tally.engines[1].illegal_moves, 1);
        assert_eq!(tally.engines[1].failures(), 1);
        assert_eq!(tally.white_wins, 3);
        assert_eq!(tally.terminations[&Termination::Checkmate], 1);
        // Each game's single move was White's.
        assert_eq!(tally.engines[0].moves + tally.engines[1].moves, 4);
        assert_eq!(tally.engines[0].moves, 2);

        // Engine 0 had White (and so moved) in games 0 and 2, with 100 ms left each time.
        assert_eq!(tally.engines[0].min_clock_left, Some(Duration::from_millis(100)));
        assert_eq!(tally.engines[1].min_clock_left, Some(Duration::from_millis(110)));
        assert_eq!(tally.engines[1].max_move_time, Duration::from_millis(20));

        let line = status(&tally, Statistics::Pentanomial, None);
        assert!(line.starts_with("W-D-L 2-1-1 (62.5%), 2 pairs: Elo +88.7 ± "), "{line}");
        assert!(line.contains(", nElo +"), "{line}");
        let names = ["A".to_owned(), "B".to_owned()];
        let text = summary(&names, &tally, Statistics::Pentanomial, None, Duration::from_secs(3));
        assert!(text.contains("W-D-L 2-1-1 from A's view: 2.5/4 (62.5%)"), "{text}");
        assert!(text.contains("time forfeit"));
        assert!(text.contains("Ptnml(0-2)    [0, 0, 1, 1, 0] (pairs LL, LD, WL+DD, WD, WW from A's view)"), "{text}");
        // Pairs scoring 1/2 and 3/4 per game: mean 5/8, standard deviation 1/8 per pair, so
        // sqrt(2)/8 per game: nElo (1/8) / (sqrt(2)/8) * 800 / ln 10 = 245.7.
        // The 4 games (2 wins, a draw, a loss) are too few for a bounded logistic error bar:
        // the mean score 0.625 plus its 95% margin 0.406 is beyond a score of 1.
        assert!(
            text.contains(
                "(95%, pentanomial, 2 pairs)\n                n/a (error bar unbounded: needs more games) (95%, trinomial, 4 games)\n  nElo          +245.7 ± "
            ),
            "{text}"
        );
        assert!(text.contains("0.100 s\n"), "{text}");
        let text = summary(&names, &tally, Statistics::Trinomial, None, Duration::from_secs(3));
        assert!(
            text.contains(
                "Elo           n/a (error bar unbounded: needs more games) (95%, trinomial, 4 games)\n  nElo "
            ),
            "{text}"
        );
    }

    /// Adds games with engine1's `results` (`'W'`, `'D'`, `'L'`) in order, engine1 White in
    /// the first game of each pair.
    fn tally_of(results: &str) -> Tally {
        let mut tally = Tally::default();
        for (index, r) in results.chars().enumerate() {
            let white_slot = index % 2;
            let white_wins = (r == 'W') == (white_slot == 0);
            let result = match r {
                'D' => GameResult::Draw,
                _ if white_wins => GameResult::WhiteWins,
                _ => GameResult::BlackWins,
            };
            tally.add(index, &record(white_slot, result, Termination::Checkmate, None));
        }
        tally
    }

    #[test]
    fn no_figures_until_they_mean_something() {
        let names = ["A".to_owned(), "B".to_owned()];
        let pairs = |results: &str| status(&tally_of(results), Statistics::Pentanomial, None);
        let games = |results: &str| status(&tally_of(results), Statistics::Trinomial, None);
        assert_eq!(pairs("L"), "W-D-L 0-0-1 (0.0%), 0 pairs: Elo n/a (needs 2 complete pairs)");
        assert_eq!(games("L"), "W-D-L 0-0-1 (0.0%), 1 game: Elo n/a (needs 2 games)");
        assert_eq!(pairs("WW"), "W-D-L 2-0-0 (100.0%), 1 pair: Elo n/a (needs 2 complete pairs)");
        assert_eq!(games("WW"), "W-D-L 2-0-0 (100.0%), 2 games: Elo n/a (every game had the same result)");
        // The case of the issue: 2-0-1 after three games once read `Elo +0.0 ± 0.0`.
        assert_eq!(pairs("WLW"), "W-D-L 2-0-1 (66.7%), 1 pair: Elo n/a (needs 2 complete pairs)");
        assert_eq!(
            games("WLW"),
            "W-D-L 2-0-1 (66.7%), 3 games: Elo n/a (error bar unbounded: needs more games), nElo +122.8"
        );
        // Two pairs that each scored 1/2 (a win and a loss, two draws): no spread, no error bar.
        assert_eq!(pairs("WLWL"), "W-D-L 2-0-2 (50.0%), 2 pairs: Elo n/a (every pair scored the same)");
        assert_eq!(pairs("DDDD"), "W-D-L 0-4-0 (50.0%), 2 pairs: Elo n/a (every pair scored the same)");
        assert_eq!(pairs("WLDD"), "W-D-L 1-2-1 (50.0%), 2 pairs: Elo n/a (every pair scored the same)");
        // Pairs of 1/2 and 1 per game: nElo is bounded, logistic Elo is not yet.
        assert_eq!(
            pairs("WLWW"),
            "W-D-L 3-0-1 (75.0%), 2 pairs: Elo n/a (error bar unbounded: needs more pairs), nElo +245.7"
        );
        // Pairs of 1/2, 1/2 and 3/4 per game: mean 7/12 (+58.5 Elo), variance 1/72 per pair,
        // margin 1.96 * sqrt(1/72 / 3) = 0.133: scores 0.450 to 0.717, -34.9 to +161.2 Elo.
        // nElo: (7/12 - 1/2) / sqrt(2 / 72) * 800 / ln 10 = 173.7.
        let line = pairs("WLDDWD");
        assert_eq!(line, "W-D-L 2-3-1 (58.3%), 3 pairs: Elo +58.5 ± 98.1, nElo +173.7");
        let text = summary(&names, &tally_of("WLDDWD"), Statistics::Pentanomial, None, Duration::from_secs(1));
        assert!(text.contains("  Elo           +58.5 ± 98.1 (95%, pentanomial, 3 pairs)\n"), "{text}");
        // LOS: 1/2 (1 + erf((7/12 - 1/2) / sqrt(2 / 72 / 3))) = 1/2 (1 + erf(0.866)).
        assert!(text.contains("  LOS           89.0% (pentanomial, 3 pairs)\n"), "{text}");
        assert!(!text.contains("inf"), "{text}");
        // The summary of a match too short for figures says why, for each of them.
        let text = summary(&names, &tally_of("W"), Statistics::Pentanomial, None, Duration::from_secs(1));
        assert!(!text.contains("Ptnml"), "{text}");
        assert!(text.contains("  Elo           n/a (needs 2 complete pairs) (95%, pentanomial, 0 pairs)\n"), "{text}");
        assert!(text.contains("                n/a (needs 2 games) (95%, trinomial, 1 game)\n"), "{text}");
        assert!(text.contains("  nElo          n/a (needs 2 complete pairs) (95%, normalized Elo"), "{text}");
        assert!(text.contains("  LOS           n/a (needs 2 complete pairs) (pentanomial, 0 pairs)\n"), "{text}");
    }

    #[test]
    fn formats_elo() {
        assert_eq!(signed(3.04), "+3.0");
        assert_eq!(signed(-0.04), "-0.0");
        assert_eq!(signed(stats::score_to_elo(0.5)), "+0.0");
        assert_eq!(signed(f64::NEG_INFINITY), "-inf");
        assert_eq!(elo_text(Err("needs 2 games")), "n/a (needs 2 games)");
        let e = EloEstimate { elo: 10.0, lower: -5.0, upper: 25.0 };
        assert_eq!(elo_text(Ok(e)), "+10.0 ± 15.0");
    }
}
