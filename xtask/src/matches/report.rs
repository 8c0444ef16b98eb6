//! Running totals of a match, the progress line after each game, and the final summary.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::io::{IsTerminal, Write as _};
use std::time::Duration;

use super::game::{GameRecord, GameResult, Incident, Termination};
use super::stats::{self, EloEstimate, Hypothesis, Pentanomial, Sprt, Wdl};

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

    pub fn elo(&self) -> Option<EloEstimate> {
        stats::elo_estimate(&self.wdl.outcomes())
    }

    pub fn pair_elo(&self) -> Option<EloEstimate> {
        stats::elo_estimate(&self.pairs.outcomes())
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

/// `+12.3 ± 45.6`.
pub fn elo_text(estimate: Option<EloEstimate>) -> String {
    match estimate {
        Some(e) if e.error().is_finite() => format!("{} ± {:.1}", signed(e.elo), e.error()),
        Some(e) => format!("{} ± inf", signed(e.elo)),
        None => "-".to_owned(),
    }
}

/// The progress line on stderr: rewritten in place on a terminal, one line per game otherwise.
#[derive(Debug)]
pub struct Progress {
    tty: bool,
    showing: bool,
}

impl Progress {
    pub fn new() -> Progress {
        Progress { tty: std::io::stderr().is_terminal(), showing: false }
    }

    pub fn line(tally: &Tally, total: usize, sprt: Option<(&Sprt, f64)>) -> String {
        let wdl = tally.wdl;
        let width = total.to_string().len();
        let mut line = format!(
            "[{:>width$}/{total}] W-D-L {}-{}-{} ({:.1}%), Elo {}",
            tally.games(),
            wdl.wins,
            wdl.draws,
            wdl.losses,
            100.0 * wdl.score().unwrap_or(0.5),
            elo_text(tally.elo()),
        );
        if let Some((sprt, llr)) = sprt {
            let _ = write!(line, ", LLR {llr:.2} ({:.2}, {:.2})", sprt.lower_bound(), sprt.upper_bound());
        }
        line
    }

    /// Shows the line (best effort: a closed stderr must not stop the match).
    pub fn show(&mut self, line: &str) {
        let mut stderr = std::io::stderr().lock();
        let _ = if self.tty {
            self.showing = true;
            write!(stderr, "\r{line}\x1b[K").and_then(|()| stderr.flush())
        } else {
            writeln!(stderr, "{line}")
        };
    }

    /// Prints a message on its own line (above the progress line on a terminal).
    pub fn message(&mut self, text: &str) {
        let mut stderr = std::io::stderr().lock();
        if self.showing {
            let _ = write!(stderr, "\r\x1b[K");
            self.showing = false;
        }
        let _ = writeln!(stderr, "{text}");
    }

    pub fn finish(&mut self) {
        if self.showing {
            eprintln!();
            self.showing = false;
        }
    }
}

/// How the SPRT ended, for the summary.
#[derive(Debug, Clone, Copy)]
pub struct SprtOutcome {
    pub sprt: Sprt,
    pub llr: f64,
    pub decision: Option<Hypothesis>,
}

/// The final summary (stdout).
pub fn summary(names: &[String; 2], tally: &Tally, sprt: Option<SprtOutcome>, elapsed: Duration) -> String {
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
    let _ = writeln!(out, "  Elo           {} (95%, trinomial)", elo_text(tally.elo()));
    if tally.pairs.pairs() > 0 {
        let _ = writeln!(
            out,
            "                {} (95%, pentanomial, {} pair{})",
            elo_text(tally.pair_elo()),
            tally.pairs.pairs(),
            if tally.pairs.pairs() == 1 { "" } else { "s" }
        );
    }
    let _ = writeln!(out, "  LOS           {:.1}%", 100.0 * stats::los(wdl.wins, wdl.losses));
    let _ = writeln!(out, "  draw ratio    {:.1}%", 100.0 * wdl.draw_ratio().unwrap_or(0.0));
    let c = tally.pairs.counts;
    let _ = writeln!(
        out,
        "  pairs         LL {} LD {} WL+DD {} WD {} WW {} (pentanomial, {}'s points 0 .. 2)",
        c[0], c[1], c[2], c[3], c[4], names[0]
    );
    let draws = games - tally.white_wins - tally.black_wins;
    let _ = writeln!(
        out,
        "  colours       White wins {}, Black wins {}, draws {draws}; {:.1} plies per game",
        tally.white_wins,
        tally.black_wins,
        if games > 0 { tally.plies as f64 / f64::from(games) } else { 0.0 },
    );
    if let Some(outcome) = sprt {
        let s = outcome.sprt;
        let verdict = match outcome.decision {
            Some(Hypothesis::H1) => "H1 accepted",
            Some(Hypothesis::H0) => "H0 accepted",
            None => "no decision yet",
        };
        let _ = writeln!(
            out,
            "  SPRT          elo0={} elo1={} alpha={} beta={} ({:?}): LLR {:.2} in ({:.2}, {:.2}): {verdict}",
            s.elo0,
            s.elo1,
            s.alpha,
            s.beta,
            s.model,
            outcome.llr,
            s.lower_bound(),
            s.upper_bound(),
        );
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
        "  {:<name_width$} {:>11} {:>8} {:>7} {:>14} {:>9} {:>10} {:>14}",
        "engine", "time losses", "crashes", "stalls", "illegal moves", "restarts", "avg depth", "avg time/move"
    );
    for (name, e) in names.iter().zip(&tally.engines) {
        let depth = if e.depth_count > 0 { e.depth_sum as f64 / f64::from(e.depth_count) } else { 0.0 };
        let time = if e.moves > 0 { e.think_time.as_secs_f64() / f64::from(e.moves) } else { 0.0 };
        let _ = writeln!(
            out,
            "  {name:<name_width$} {:>11} {:>8} {:>7} {:>14} {:>9} {depth:>10.1} {:>12.3} s",
            e.time_losses, e.crashes, e.stalls, e.illegal_moves, e.restarts, time,
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

        let line = Progress::line(&tally, 10, None);
        assert!(line.starts_with("[ 4/10] W-D-L 2-1-1 (62.5%), Elo +88.7 ± "), "{line}");
        let names = ["A".to_owned(), "B".to_owned()];
        let text = summary(&names, &tally, None, Duration::from_secs(3));
        assert!(text.contains("W-D-L 2-1-1 from A's view: 2.5/4 (62.5%)"), "{text}");
        assert!(text.contains("time forfeit"));
        assert!(text.contains("LL 0 LD 0 WL+DD 1 WD 1 WW 0"));
    }

    #[test]
    fn formats_elo() {
        assert_eq!(signed(3.04), "+3.0");
        assert_eq!(signed(-0.04), "-0.0");
        assert_eq!(signed(stats::score_to_elo(0.5)), "+0.0");
        assert_eq!(signed(f64::NEG_INFINITY), "-inf");
        assert_eq!(elo_text(None), "-");
        let e = EloEstimate { elo: 10.0, lower: -5.0, upper: 25.0 };
        assert_eq!(elo_text(Some(e)), "+10.0 ± 15.0");
    }
}
