//! Helpers of the UCI end-to-end tests (`tests/uci*.rs`): positions, checked searches, and
//! waiting for a search's progress.

use std::time::Duration;

use cutoff_board::{Board, CastlingMode, Game};

use super::check::{self, Search};
use super::{Engine, TIMEOUT};

/// Kiwipete: a busy middlegame position with castling, pins and en passant tricks.
pub const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// The longest `stop` → `bestmove` delay accepted (the design target is 10 ms).
pub const MAX_STOP_LATENCY: Duration = Duration::from_millis(500);

pub fn board(fen: &str) -> Board {
    Board::from_fen(fen, CastlingMode::Standard).unwrap_or_else(|e| panic!("test FEN {fen}: {e}"))
}

/// The board after `moves` (UCI notation) from the start position.
pub fn startpos_after(moves: &[&str]) -> Board {
    let mut game = Game::default();
    for mv in moves {
        game.play_uci(mv).unwrap_or_else(|e| panic!("test move {mv}: {e}"));
    }
    *game.board()
}

/// Checks the lines of a search; fails the test (with the transcript) if they are wrong.
pub fn checked(e: &mut Engine, board: &Board, lines: &[String]) -> Search {
    match check::check_search(board, lines) {
        Ok(s) => s,
        Err(msg) => e.fail(&format!("search of {}: {msg}", board.fen())),
    }
}

/// Sends `go ...`, waits for `bestmove` and checks the whole output against `board`.
pub fn search(e: &mut Engine, board: &Board, go: &str) -> Search {
    e.send(go);
    let lines = e.read_search();
    checked(e, board, &lines)
}

/// The FEN the engine reports with `d`.
pub fn engine_fen(e: &mut Engine) -> String {
    let lines = e.command("d");
    let fens: Vec<&String> = lines.iter().filter(|l| l.starts_with("Fen: ")).collect();
    if fens.len() != 1 {
        e.fail(&format!("`d` printed {} Fen lines", fens.len()));
    }
    fens[0]["Fen: ".len()..].to_string()
}

/// Sends a bad command and checks that the only answer is a single `info string` line that
/// mentions `topic`.
pub fn expect_complaint(e: &mut Engine, command: &str, topic: &str) -> String {
    let lines = e.command(command);
    e.ensure(
        lines.len() == 1 && lines[0].starts_with("info string ") && lines[0].contains(topic),
        format!("`{}` should be answered by one info string line about {topic}, got {lines:?}", short(command)),
    );
    lines[0].clone()
}

pub fn short(text: &str) -> String {
    if text.chars().count() > 60 { format!("{}...", text.chars().take(60).collect::<String>()) } else { text.into() }
}

/// The depth of an `info depth N ...` line.
pub fn depth_of(line: &str) -> Option<u32> {
    line.strip_prefix("info depth ")?.split(' ').next()?.parse().ok()
}

/// Waits until the search has reported an iteration of at least `depth` (a `pv` line).
pub fn wait_for_depth(e: &mut Engine, depth: u32) -> Vec<String> {
    e.read_until(
        &format!("an iteration of depth {depth}"),
        |l| depth_of(l).is_some_and(|d| d >= depth) && l.contains(" pv "),
        TIMEOUT,
    )
}

/// Sends `isready` while a search should still be running and returns the lines received
/// before `readyok`; fails if `bestmove` is among them (the search ended by itself).
pub fn assert_still_searching(e: &mut Engine, why: &str) -> Vec<String> {
    let lines = e.sync();
    if let Some(b) = lines.iter().find(|l| l.starts_with("bestmove")) {
        e.fail(&format!("{why}, but the engine sent '{b}' before being told to stop"));
    }
    lines
}
