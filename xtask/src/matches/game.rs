//! One game between two engines: clocks, the rules (through `cutoff_board::Game`), and
//! adjudication of everything the engines may get wrong.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use cutoff_board::{Board, CastlingMode, Color, Game, Outcome, PieceType};

use super::engine::{Engine, Failure, GoError, GoReply, Score};
use super::settings::{DrawRule, Limits, ResignRule};

/// How the game ended. The order is the order of the summary table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Termination {
    Checkmate,
    Stalemate,
    Repetition,
    FiftyMoves,
    InsufficientMaterial,
    ResignAdjudication,
    DrawAdjudication,
    MaxPlies,
    TimeForfeit,
    IllegalMove,
    Crash,
    Stall,
}

impl Termination {
    pub const ALL: [Termination; 12] = [
        Termination::Checkmate,
        Termination::Stalemate,
        Termination::Repetition,
        Termination::FiftyMoves,
        Termination::InsufficientMaterial,
        Termination::ResignAdjudication,
        Termination::DrawAdjudication,
        Termination::MaxPlies,
        Termination::TimeForfeit,
        Termination::IllegalMove,
        Termination::Crash,
        Termination::Stall,
    ];

    /// The PGN `Termination` tag value.
    pub fn pgn_tag(self) -> &'static str {
        match self {
            Termination::Checkmate
            | Termination::Stalemate
            | Termination::Repetition
            | Termination::FiftyMoves
            | Termination::InsufficientMaterial => "normal",
            Termination::ResignAdjudication | Termination::DrawAdjudication | Termination::MaxPlies => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove => "rules infraction",
            Termination::Crash | Termination::Stall => "abandoned",
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::Repetition => "3-fold repetition",
            Termination::FiftyMoves => "50-move rule",
            Termination::InsufficientMaterial => "insufficient material",
            Termination::ResignAdjudication => "resign adjudication",
            Termination::DrawAdjudication => "draw adjudication",
            Termination::MaxPlies => "max plies",
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove => "illegal move",
            Termination::Crash => "crash/disconnect",
            Termination::Stall => "stall (no answer)",
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
}

impl GameResult {
    fn win_for(color: Color) -> GameResult {
        if color == Color::White { GameResult::WhiteWins } else { GameResult::BlackWins }
    }

    /// `1-0`, `0-1`, `1/2-1/2`.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// Points (0, 1 or 2 half-points) for `color`.
    pub fn half_points(self, color: Color) -> usize {
        match (self, color) {
            (GameResult::Draw, _) => 1,
            (GameResult::WhiteWins, Color::White) | (GameResult::BlackWins, Color::Black) => 2,
            _ => 0,
        }
    }
}

/// One move as played.
#[derive(Debug, Clone)]
pub struct MoveRecord {
    pub san: String,
    pub uci: String,
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub time: Duration,
    /// With a clock: the mover's time left after the move, before the increment.
    pub clock_left: Option<Duration>,
}

impl MoveRecord {
    /// The PGN comment, cutechess style: `+0.31/12 0.105s`, with fastchess' `, tl=9.895s` (time
    /// left) when there is a clock.
    pub fn comment(&self) -> String {
        let mut text = String::new();
        if let Some(score) = self.score {
            text.push_str(&score.to_string());
            if let Some(depth) = self.depth {
                text.push_str(&format!("/{depth}"));
            }
            text.push(' ');
        }
        text.push_str(&format!("{:.3}s", self.time.as_secs_f64()));
        if let Some(left) = self.clock_left {
            text.push_str(&format!(", tl={:.3}s", left.as_secs_f64()));
        }
        text
    }
}

/// Something an engine did wrong, with the UCI traffic around it.
#[derive(Debug, Clone)]
pub struct Incident {
    /// 0 for engine1, 1 for engine2.
    pub slot: usize,
    pub what: String,
    /// The engine was restarted (before a game) because of it.
    pub restarted: bool,
    pub transcript: Vec<String>,
    pub stderr: Vec<String>,
}

/// A finished game.
#[derive(Debug, Clone)]
pub struct GameRecord {
    pub opening_fen: String,
    pub chess960: bool,
    /// Which engine (0 or 1) had White.
    pub white_slot: usize,
    pub moves: Vec<MoveRecord>,
    pub result: GameResult,
    pub termination: Termination,
    /// The human-readable reason, cutechess style (`White mates`, `Black loses on time`, ...).
    pub reason: String,
    /// The engine at fault for a time forfeit, illegal move, crash or stall.
    pub offender: Option<usize>,
    /// Misbehaviour: the cause of a forfeit, and engines that had to be restarted.
    pub incidents: Vec<Incident>,
}

impl GameRecord {
    /// Half-points (0..=2) engine1 scored.
    pub fn engine1_half_points(&self) -> usize {
        let color = if self.white_slot == 0 { Color::White } else { Color::Black };
        self.result.half_points(color)
    }
}

/// Everything about a game except the engines.
#[derive(Debug, Clone)]
pub struct GameSetup<'a> {
    pub opening_fen: &'a str,
    pub chess960: bool,
    pub white_slot: usize,
    pub limits: &'a Limits,
    pub resign: Option<ResignRule>,
    pub draw: Option<DrawRule>,
    pub max_plies: Option<u32>,
    /// Start both engines afresh before the game (`--restart`).
    pub restart: bool,
}

fn color_name(color: Color) -> &'static str {
    if color == Color::White { "White" } else { "Black" }
}

/// Tracks the engines' scores for resign and draw adjudication.
#[derive(Debug, Clone)]
pub struct Adjudicator {
    resign: Option<ResignRule>,
    draw: Option<DrawRule>,
    /// One-sided resign: consecutive own moves with a score <= -threshold, per colour.
    own_losing: [u32; 2],
    /// Two-sided resign: consecutive plies on which the mover's score says this colour is lost.
    agreed_losing: [u32; 2],
    /// Consecutive plies with a centipawn score within the draw threshold.
    drawish: u32,
}

impl Adjudicator {
    pub fn new(resign: Option<ResignRule>, draw: Option<DrawRule>) -> Adjudicator {
        Adjudicator { resign, draw, own_losing: [0; 2], agreed_losing: [0; 2], drawish: 0 }
    }

    /// Takes the score (from `mover`'s point of view) reported with the move just played at full
    /// move number `move_number`; returns the adjudicated result, if any.
    pub fn update(&mut self, mover: Color, move_number: u32, score: Option<Score>) -> Option<(GameResult, String)> {
        let Some(score) = score else {
            // A move without a score (cutechess: "depth 0") resets every count.
            *self = Adjudicator::new(self.resign, self.draw);
            return None;
        };
        if let Some(rule) = self.draw {
            if matches!(score, Score::Cp(cp) if cp.abs() <= rule.score) {
                self.drawish += 1;
            } else {
                self.drawish = 0;
            }
            if move_number >= rule.movenumber && self.drawish >= 2 * rule.moves {
                let why =
                    format!("Draw by adjudication: both scores within {} cp for {} moves", rule.score, rule.moves);
                return Some((GameResult::Draw, why));
            }
        }
        if let Some(rule) = self.resign {
            let cp = score.as_cp();
            let threshold = i64::from(rule.score);
            let m = mover.index();
            let o = (!mover).index();
            self.own_losing[m] = if cp <= -threshold { self.own_losing[m] + 1 } else { 0 };
            self.agreed_losing[m] = if cp <= -threshold { self.agreed_losing[m] + 1 } else { 0 };
            self.agreed_losing[o] = if cp >= threshold { self.agreed_losing[o] + 1 } else { 0 };
            for loser in [mover, !mover] {
                let lost = if rule.twosided {
                    self.agreed_losing[loser.index()] >= 2 * rule.moves
                } else {
                    self.own_losing[loser.index()] >= rule.moves
                };
                if lost {
                    let why = if rule.twosided {
                        format!(
                            "{} wins by adjudication: both engines' scores decisive (>= {} cp) for {} moves",
                            color_name(!loser),
                            rule.score,
                            rule.moves
                        )
                    } else {
                        format!(
                            "{} wins by adjudication: {}'s score <= -{} cp for {} moves",
                            color_name(!loser),
                            color_name(loser),
                            rule.score,
                            rule.moves
                        )
                    };
                    return Some((GameResult::win_for(!loser), why));
                }
            }
        }
        None
    }
}

/// Whether `color` has only its king (so it cannot win, even if the other side flags).
fn bare_king(board: &Board, color: Color) -> bool {
    board.colored(color) == board.colored_pieces(color, PieceType::King)
}

/// The result when the side to move in `board` runs out of time: a loss, unless the opponent
/// has a bare king and so could never mate (then a draw).
fn time_forfeit(board: &Board, reason: String) -> (GameResult, String) {
    let mover = board.side_to_move();
    if bare_king(board, !mover) {
        (GameResult::Draw, format!("{reason}; {} has a bare king: draw", color_name(!mover)))
    } else {
        (GameResult::win_for(!mover), reason)
    }
}

/// A clock kept by the runner.
#[derive(Debug, Clone, Copy)]
struct Clock {
    remaining: Duration,
    /// Moves left in the current period (`moves/base` time controls).
    moves_to_go: Option<u32>,
}

/// Plays one game. `engines[0]` is engine1 and `engines[1]` engine2; `setup.white_slot` says
/// which of them has White. Returns `None` if `abort` was raised before the game finished.
pub fn play(engines: &mut [Engine; 2], setup: &GameSetup<'_>, abort: &AtomicBool) -> Option<GameRecord> {
    let board = Board::from_fen(setup.opening_fen, CastlingMode::from_chess960(setup.chess960))
        .expect("openings are validated when loaded");
    let slot_of = |color: Color| if color == Color::White { setup.white_slot } else { 1 - setup.white_slot };
    let mut record = GameRecord {
        opening_fen: board.fen().to_string(),
        chess960: setup.chess960,
        white_slot: setup.white_slot,
        moves: Vec::new(),
        result: GameResult::Draw,
        termination: Termination::Stall,
        reason: String::new(),
        offender: None,
        incidents: Vec::new(),
    };
    let finish = |mut record: GameRecord, result, termination, reason: String, offender: Option<usize>| {
        record.result = result;
        record.termination = termination;
        record.reason = reason;
        record.offender = offender;
        Some(record)
    };

    // New game for both engines (fresh processes with `restart`), restarting any that fails
    // (crashed or stalled earlier).
    for color in [Color::White, Color::Black] {
        let engine = &mut engines[slot_of(color)];
        let ready = if setup.restart { engine.restart().and_then(|()| engine.new_game()) } else { engine.new_game() };
        if let Err(first) = ready {
            let transcript = engine.transcript();
            let stderr = engine.stderr_tail();
            let failure = engine.restart().and_then(|()| engine.new_game()).err();
            let what = format!(
                "{}; engine restarted{}",
                first.message,
                failure.as_ref().map_or(String::new(), |e| format!(", but the restart failed: {}", e.message))
            );
            record.incidents.push(Incident { slot: slot_of(color), what, restarted: true, transcript, stderr });
            if let Some(err) = failure {
                let termination = if err.failure == Failure::Crash { Termination::Crash } else { Termination::Stall };
                let reason = format!("{} cannot start a game: {}", color_name(color), err.message);
                return finish(record, GameResult::win_for(!color), termination, reason, Some(slot_of(color)));
            }
        }
    }

    let limits = setup.limits;
    let mut game = Game::new(board);
    let mut clocks = limits.clock.map(|tc| [Clock { remaining: tc.base, moves_to_go: tc.moves }; 2]);
    let mut adjudicator = Adjudicator::new(setup.resign, setup.draw);

    loop {
        if let Some(outcome) = game.outcome() {
            let (result, termination, reason) = match outcome {
                Outcome::Checkmate { winner } => {
                    (GameResult::win_for(winner), Termination::Checkmate, format!("{} mates", color_name(winner)))
                }
                Outcome::Stalemate => (GameResult::Draw, Termination::Stalemate, "Draw by stalemate".to_owned()),
                Outcome::ThreefoldRepetition => {
                    (GameResult::Draw, Termination::Repetition, "Draw by 3-fold repetition".to_owned())
                }
                Outcome::FiftyMoves => {
                    (GameResult::Draw, Termination::FiftyMoves, "Draw by fifty moves rule".to_owned())
                }
                Outcome::InsufficientMaterial => (
                    GameResult::Draw,
                    Termination::InsufficientMaterial,
                    "Draw by insufficient mating material".to_owned(),
                ),
            };
            return finish(record, result, termination, reason, None);
        }
        if setup.max_plies.is_some_and(|max| record.moves.len() >= max as usize) {
            let reason = format!("Draw by adjudication: maximum of {} plies reached", record.moves.len());
            return finish(record, GameResult::Draw, Termination::MaxPlies, reason, None);
        }
        if abort.load(Ordering::Relaxed) {
            return None;
        }

        let board = *game.board();
        let mover = board.side_to_move();
        let slot = slot_of(mover);
        let engine = &mut engines[slot];
        let name = color_name(mover);

        let mut go = String::from("go");
        let limit = match &clocks {
            Some(clocks) => {
                let (white, black) = (clocks[0], clocks[1]);
                let tc = limits.clock.expect("clocks exist only with a time control");
                let inc = tc.increment.as_millis();
                go.push_str(&format!(
                    " wtime {} btime {} winc {inc} binc {inc}",
                    white.remaining.as_millis(),
                    black.remaining.as_millis()
                ));
                if let Some(n) = clocks[mover.index()].moves_to_go {
                    go.push_str(&format!(" movestogo {n}"));
                }
                clocks[mover.index()].remaining + limits.time_margin
            }
            None => limits.hang_timeout + limits.movetime.unwrap_or_default(),
        };
        if let Some(movetime) = limits.movetime {
            go.push_str(&format!(" movetime {}", movetime.as_millis()));
        }
        if let Some(nodes) = limits.nodes {
            go.push_str(&format!(" nodes {nodes}"));
        }
        let mut position = format!("position fen {}", record.opening_fen);
        if !record.moves.is_empty() {
            position.push_str(" moves");
            for mv in &record.moves {
                position.push(' ');
                position.push_str(&mv.uci);
            }
        }

        let incident = |engine: &Engine, what: String| Incident {
            slot,
            what,
            restarted: false,
            transcript: engine.transcript(),
            stderr: engine.stderr_tail(),
        };
        let reply: GoReply = match engine.go(&position, &go, limit) {
            Ok(reply) => reply,
            Err(GoError::Timeout(waited)) => {
                let (termination, reason) = if clocks.is_some() {
                    (
                        Termination::TimeForfeit,
                        format!("{name} loses on time (no move after {:.3} s)", waited.as_secs_f64()),
                    )
                } else {
                    (
                        Termination::Stall,
                        format!("{name}'s connection stalls (no bestmove after {:.1} s)", waited.as_secs_f64()),
                    )
                };
                record.incidents.push(incident(engine, reason.clone()));
                if termination == Termination::TimeForfeit {
                    let (result, reason) = time_forfeit(&board, reason);
                    return finish(record, result, termination, reason, Some(slot));
                }
                return finish(record, GameResult::win_for(!mover), termination, reason, Some(slot));
            }
            Err(GoError::Disconnected(why)) => {
                let reason = format!("{name} disconnects: {why}");
                record.incidents.push(incident(engine, reason.clone()));
                return finish(record, GameResult::win_for(!mover), Termination::Crash, reason, Some(slot));
            }
        };

        let mut clock_left = None;
        if let Some(clocks) = &mut clocks {
            let clock = &mut clocks[mover.index()];
            if reply.elapsed > clock.remaining + limits.time_margin {
                let reason = format!(
                    "{name} loses on time ({:.3} s used, {:.3} s left)",
                    reply.elapsed.as_secs_f64(),
                    clock.remaining.as_secs_f64()
                );
                record.incidents.push(incident(engine, reason.clone()));
                let (result, reason) = time_forfeit(&board, reason);
                return finish(record, result, Termination::TimeForfeit, reason, Some(slot));
            }
            let tc = limits.clock.expect("clocks exist only with a time control");
            clock_left = Some(clock.remaining.saturating_sub(reply.elapsed));
            clock.remaining = clock.remaining.saturating_sub(reply.elapsed) + tc.increment;
            if let Some(n) = &mut clock.moves_to_go {
                *n -= 1;
                if *n == 0 {
                    *n = tc.moves.unwrap_or(1);
                    clock.remaining += tc.base;
                }
            }
        }

        let text = reply.bestmove.as_str();
        let mv = match board.parse_uci(text) {
            Ok(mv) => mv,
            Err(err) => {
                let what = match text {
                    "" => "no move after bestmove".to_owned(),
                    "0000" | "(none)" => format!("null move `{text}` with legal moves available"),
                    _ => format!("illegal move `{text}` ({err:?})"),
                };
                let reason = format!("{name} makes an illegal move: {what}");
                record.incidents.push(incident(engine, reason.clone()));
                return finish(record, GameResult::win_for(!mover), Termination::IllegalMove, reason, Some(slot));
            }
        };
        record.moves.push(MoveRecord {
            san: board.san(mv).to_string(),
            uci: board.uci(mv).to_string(),
            score: reply.info.score(),
            depth: reply.info.depth,
            time: reply.elapsed,
            clock_left,
        });
        game.play(mv).expect("parse_uci returns legal moves");

        if game.outcome().is_none()
            && let Some((result, reason)) =
                adjudicator.update(mover, u32::from(board.fullmove_number()), reply.info.score())
        {
            let termination = if result == GameResult::Draw {
                Termination::DrawAdjudication
            } else {
                Termination::ResignAdjudication
            };
            return finish(record, result, termination, reason, None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_sided_resign_counts_the_losers_own_moves() {
        let rule = ResignRule { moves: 3, score: 500, twosided: false };
        let mut adj = Adjudicator::new(Some(rule), None);
        // White thinks it is lost; Black's opinion does not matter.
        assert_eq!(adj.update(Color::White, 20, Some(Score::Cp(-600))), None);
        assert_eq!(adj.update(Color::Black, 20, Some(Score::Cp(-50))), None);
        assert_eq!(adj.update(Color::White, 21, Some(Score::Cp(-700))), None);
        assert_eq!(adj.update(Color::Black, 21, Some(Score::Cp(0))), None);
        let (result, reason) = adj.update(Color::White, 22, Some(Score::Mate(-4))).unwrap();
        assert_eq!(result, GameResult::BlackWins);
        assert!(reason.starts_with("Black wins by adjudication"), "{reason}");
        // An interruption resets the count.
        let mut adj = Adjudicator::new(Some(rule), None);
        for score in [-600, -600, -400, -600, -600] {
            assert_eq!(adj.update(Color::Black, 30, Some(Score::Cp(score))), None);
        }
        assert_eq!(adj.update(Color::Black, 30, Some(Score::Cp(-600))).unwrap().0, GameResult::WhiteWins);
    }

    #[test]
    fn two_sided_resign_needs_both_engines() {
        let rule = ResignRule { moves: 2, score: 500, twosided: true };
        let mut adj = Adjudicator::new(Some(rule), None);
        // Black says it is lost, White disagrees: no adjudication.
        for _ in 0..4 {
            assert_eq!(adj.update(Color::White, 30, Some(Score::Cp(100))), None);
            assert_eq!(adj.update(Color::Black, 30, Some(Score::Cp(-900))), None);
        }
        // Black's last -900 started a streak; now White agrees: 4 plies (2 moves each) in a row.
        assert_eq!(adj.update(Color::White, 31, Some(Score::Cp(800))), None);
        assert_eq!(adj.update(Color::Black, 31, Some(Score::Cp(-900))), None);
        assert_eq!(adj.update(Color::White, 32, Some(Score::Mate(3))).unwrap().0, GameResult::WhiteWins);
        // White's view alone is not enough either.
        let mut adj = Adjudicator::new(Some(rule), None);
        for _ in 0..4 {
            assert_eq!(adj.update(Color::White, 30, Some(Score::Cp(900))), None);
            assert_eq!(adj.update(Color::Black, 30, Some(Score::Cp(0))), None);
        }
    }

    #[test]
    fn draw_adjudication_needs_both_engines_and_the_move_number() {
        let rule = DrawRule { movenumber: 40, moves: 2, score: 10 };
        let mut adj = Adjudicator::new(None, Some(rule));
        // Before move 40, nothing happens however long the scores are level.
        for n in 30..40 {
            assert_eq!(adj.update(Color::White, n, Some(Score::Cp(5))), None);
            assert_eq!(adj.update(Color::Black, n, Some(Score::Cp(-5))), None);
        }
        let (result, _) = adj.update(Color::White, 40, Some(Score::Cp(0))).unwrap();
        assert_eq!(result, GameResult::Draw);

        let mut adj = Adjudicator::new(None, Some(rule));
        assert_eq!(adj.update(Color::White, 50, Some(Score::Cp(0))), None);
        assert_eq!(adj.update(Color::Black, 50, Some(Score::Cp(0))), None);
        assert_eq!(adj.update(Color::White, 51, Some(Score::Cp(0))), None);
        // One engine disagrees (or reports a mate, or no score): start again.
        assert_eq!(adj.update(Color::Black, 51, Some(Score::Cp(45))), None);
        assert_eq!(adj.update(Color::White, 52, Some(Score::Cp(0))), None);
        assert_eq!(adj.update(Color::Black, 52, Some(Score::Mate(9))), None);
        assert_eq!(adj.update(Color::White, 53, None), None);
        assert_eq!(adj.update(Color::Black, 53, Some(Score::Cp(1))), None);
        assert_eq!(adj.update(Color::White, 54, Some(Score::Cp(1))), None);
        assert_eq!(adj.update(Color::Black, 54, Some(Score::Cp(1))), None);
        assert!(adj.update(Color::White, 55, Some(Score::Cp(-10))).is_some());
    }

    #[test]
    fn results_and_points() {
        assert_eq!(GameResult::WhiteWins.half_points(Color::White), 2);
        assert_eq!(GameResult::WhiteWins.half_points(Color::Black), 0);
        assert_eq!(GameResult::Draw.half_points(Color::Black), 1);
        assert_eq!(GameResult::BlackWins.pgn(), "0-1");
        assert_eq!(Termination::TimeForfeit.pgn_tag(), "time forfeit");
        assert_eq!(Termination::Repetition.pgn_tag(), "normal");
        let board = Board::from_fen("8/8/4k3/8/8/8/3QK3/8 w - - 0 1", CastlingMode::Standard).unwrap();
        assert!(bare_king(&board, Color::Black));
        assert!(!bare_king(&board, Color::White));
        // White to move flags against a bare king: draw; the other way round: Black wins.
        assert_eq!(time_forfeit(&board, "x".to_owned()).0, GameResult::Draw);
        let board = Board::from_fen("8/8/4k3/8/8/8/3QK3/8 b - - 0 1", CastlingMode::Standard).unwrap();
        assert_eq!(time_forfeit(&board, "x".to_owned()), (GameResult::WhiteWins, "x".to_owned()));
    }
}
