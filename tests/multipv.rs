//! MultiPV as a GUI sees it: a client that keeps the newest `info` line of each `multipv`
//! index must never show two indices starting with the same move: not in the middle of an
//! iteration, not after an aspiration failure, not when `stop` (or a node or depth limit) ends
//! the search at any moment. The engine writes the lines of an iteration together (`multipv`
//! 1, 2, 3 in one write) once all are known, and a consistent set on a stop, so the test looks
//! at every moment a set is complete: before each `multipv 1` line (which starts a new set)
//! and at `bestmove`. (Inside a set, lines are replaced one by one and two moves that swap
//! places briefly appear twice, which no client sees, as the set arrives in one write.)

mod common;

use std::thread;
use std::time::Duration;

use common::Engine;
use common::check::{bestmove, parse_info};
use cutoff_board::Board;

/// Positions with many good moves (the first from a python-chess report: lines 1 and 2 both
/// started with `a2a3`), quiet and tactical, and one with only two legal moves (fewer than
/// MultiPV).
const POSITIONS: [&str; 5] = [
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "2r3k1/1q1nbppp/r3p3/3pP3/pPpP4/P1Q2N2/2RN1PPP/2R4K b - - 0 23",
    "7k/8/8/8/8/8/r7/K7 w - - 0 1",
];

/// Reads one search up to `bestmove`, checking after every `info` line that the newest lines
/// of the indices start with different moves, and at the end that `bestmove` is the first
/// move of the newest `multipv 1` line. Returns how many lines of each index were seen.
fn check_search(e: &mut Engine, board: &Board, what: &str) -> Vec<usize> {
    let lines = e.read_search();
    let mut newest: Vec<Option<String>> = vec![None; 3];
    let mut seen = vec![0; 3];
    let mut last_index = 0;
    let check = |e: &mut Engine, newest: &[Option<String>], before: &str| {
        for i in 0..3 {
            for j in i + 1..3 {
                if newest[i].is_some() && newest[i] == newest[j] {
                    let mv = newest[i].as_deref().unwrap_or_default();
                    e.fail(&format!("{what}: before '{before}', multipv {} and {} both start with {mv}", i + 1, j + 1));
                }
            }
        }
    };
    for line in &lines {
        if line.starts_with("bestmove") {
            check(e, &newest, line);
        }
        if !line.starts_with("info") || line.starts_with("info string") || line.contains(" currmove ") {
            continue;
        }
        let info = match parse_info(board, line) {
            Ok(info) => info,
            Err(err) => e.fail(&format!("{what}: {err}: {line}")),
        };
        let Some(first) = info.pv.first() else { continue };
        let index = info.multipv.unwrap_or(1) as usize;
        e.ensure((1..=3).contains(&index), format!("{what}: multipv {index} with MultiPV 3: {line}"));
        // A set is numbered 1, 2, ... without gaps; a new one starts at 1.
        e.ensure(index == 1 || index == last_index + 1, format!("{what}: multipv {index} after {last_index}"));
        if index == 1 {
            check(e, &newest, line);
        }
        last_index = index;
        newest[index - 1] = Some(first.clone());
        seen[index - 1] += 1;
    }
    let Some((best, _)) = lines.last().and_then(|l| bestmove(l)) else {
        e.fail(&format!("{what}: no bestmove: {lines:?}"));
    };
    e.ensure(
        newest[0].as_deref() == Some(best.as_str()),
        format!("{what}: bestmove {best} is not the newest multipv 1 line's move ({:?})", newest[0]),
    );
    seen
}

#[test]
fn the_newest_lines_of_the_indices_never_share_a_first_move() {
    let mut e = Engine::spawn();
    e.command("setoption name MultiPV value 3");
    let mut searches = 0;
    let mut full_sets = 0;
    for fen in POSITIONS {
        let board = Board::from_fen(fen, Default::default()).unwrap();
        let position = format!("position fen {fen}");
        // Stops at many moments: inside the first iterations, inside deeper ones.
        for ms in [0, 1, 2, 5, 10, 20, 35, 60, 100, 150, 250] {
            e.command("ucinewgame");
            e.command(&position);
            e.send("go infinite");
            thread::sleep(Duration::from_millis(ms));
            e.send("stop");
            check_search(&mut e, &board, &format!("{fen}, stop after {ms} ms"));
            searches += 1;
        }
        // Node limits end the search at deterministic places inside an iteration.
        for nodes in [1, 50, 400, 1_500, 5_000, 12_000, 30_000, 70_000] {
            e.command("ucinewgame");
            e.command(&position);
            e.send(&format!("go nodes {nodes}"));
            check_search(&mut e, &board, &format!("{fen}, go nodes {nodes}"));
            searches += 1;
        }
        // Whole iterations, with the histories and table of the searches before.
        for depth in 1..=9 {
            e.send(&format!("go depth {depth}"));
            let seen = check_search(&mut e, &board, &format!("{fen}, go depth {depth}"));
            let shown = board.legal_moves().len().min(3);
            full_sets +=
                usize::from(seen[..shown].iter().all(|&n| n >= depth as usize) && seen[shown..] == [0; 3][shown..]);
            searches += 1;
        }
    }
    // The depth-limited searches reported every index at every depth.
    e.ensure(full_sets == 5 * 9, format!("complete sets in {full_sets} of 45 depth-limited searches"));
    e.ensure(searches == 5 * 28, "every search was checked");
    e.quit();
}

#[test]
fn limited_strength_keeps_the_lines_consistent() {
    // At a low UCI_Elo the move played is often not the best line's: the final lines must
    // still start with different moves, the played one first.
    let mut e = Engine::spawn();
    e.command("setoption name MultiPV value 3");
    e.command("setoption name UCI_LimitStrength value true");
    e.command("setoption name UCI_Elo value 1320");
    for fen in POSITIONS {
        let board = Board::from_fen(fen, Default::default()).unwrap();
        e.command(&format!("position fen {fen}"));
        for _ in 0..4 {
            e.send("go movetime 100");
            check_search(&mut e, &board, &format!("{fen}, UCI_Elo 1320"));
        }
    }
    e.quit();
}
