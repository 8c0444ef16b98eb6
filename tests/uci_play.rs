//! End-to-end tests of play over UCI: whole games, `go infinite` and `stop`, pondering,
//! commands during a search, mates, MultiPV and searchmoves, win/draw/loss output and limited
//! strength. Every search's output is checked against the rules of chess with `cutoff-board`.
//!
//! Timeouts only detect hangs. The timing assertions are the `stop` latency (design target
//! 10 ms, asserted below 500 ms to leave room for a loaded machine) and `go movetime`
//! answering close to the time asked for.

mod common;

use std::thread;
use std::time::{Duration, Instant};

use common::check::{Info, Score, Search};
use common::uci::*;
use common::{Engine, TIMEOUT};
use cutoff_board::{Board, Color, Game, Outcome, STARTPOS_FEN};

// ---------------------------------------------------------------------------------------
// A whole game against itself.

/// Every `info` line of a search at MultiPV 1 has a depth, and iteration depths never drop
/// (except in the summary line sent just before `bestmove`, which repeats the last completed
/// iteration after an unfinished deeper one).
fn check_iterations(e: &mut Engine, s: &Search) {
    let mut last = 0;
    let summary = s.infos.len().saturating_sub(1);
    for (k, info) in s.infos.iter().enumerate() {
        let Some(d) = info.depth else { e.fail(&format!("info line without depth: {info:?}")) };
        if info.currmove.is_some() {
            continue;
        }
        e.ensure(info.score.is_some(), format!("iteration line without a score: {info:?}"));
        e.ensure(!info.pv.is_empty(), format!("iteration line without a pv: {info:?}"));
        e.ensure(info.multipv.unwrap_or(1) == 1, format!("multipv > 1 with MultiPV 1: {info:?}"));
        e.ensure(d >= last || k == summary, format!("depth went down from {last} to {d}"));
        last = d;
    }
}

#[test]
fn self_play_game_is_legal_to_the_end() {
    const MAX_PLIES: usize = 150;
    let inc = Duration::from_millis(20);
    let mut e = Engine::spawn();
    e.send("uci");
    e.expect_line("uciok", |l| l == "uciok", TIMEOUT);
    e.send("ucinewgame");
    e.sync();

    let mut game = Game::default();
    let mut moves: Vec<String> = Vec::new();
    // Clocks are tracked roughly (wall time of each search); they never drop below 300 ms so
    // that a slow, loaded machine cannot turn the test into a time scramble.
    let mut clocks = [Duration::from_millis(2000); 2];
    let mut last: Option<Search> = None;
    let outcome = loop {
        if let Some(o) = game.outcome() {
            break Some(o);
        }
        if moves.len() >= MAX_PLIES {
            break None;
        }
        if moves.is_empty() {
            e.send("position startpos");
        } else {
            e.send(&format!("position startpos moves {}", moves.join(" ")));
        }
        let go = format!(
            "go wtime {} btime {} winc {} binc {}",
            clocks[0].as_millis(),
            clocks[1].as_millis(),
            inc.as_millis(),
            inc.as_millis()
        );
        let sent = e.send(&go);
        let lines = e.read_search();
        let spent = sent.elapsed();
        let board = *game.board();
        let s = checked(&mut e, &board, &lines);
        e.ensure(s.strings.is_empty(), format!("unexpected info string lines: {:?}", s.strings));
        e.ensure(!s.infos.is_empty(), "a search without any info line");
        check_iterations(&mut e, &s);
        let side = usize::from(board.side_to_move() == Color::Black);
        clocks[side] = (clocks[side].saturating_sub(spent) + inc).max(Duration::from_millis(300));
        if let Err(err) = game.play_uci(&s.best) {
            e.fail(&format!("bestmove {} rejected by the board: {err}", s.best));
        }
        moves.push(s.best.clone());
        last = Some(s);
    };
    println!("self-play: {} plies, outcome {outcome:?}, moves: {}", moves.len(), moves.join(" "));
    e.ensure(moves.len() >= 10, "the game should last at least a few moves");
    if let (Some(Outcome::Checkmate { .. }), Some(s)) = (outcome, &last) {
        // The mating move was found by a search: it must have announced mate in one.
        let score = s.infos.iter().rev().find_map(|i| i.score);
        e.ensure(score == Some(Score::Mate(1)), format!("the mating search ended with score {score:?}"));
    }
    // The engine reads the whole game the way the board crate does.
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    let fen = engine_fen(&mut e);
    let expected = game.board().fen().to_string();
    e.ensure(fen == expected, format!("engine position {fen} differs from the game's {expected}"));
    e.quit();
}

// ---------------------------------------------------------------------------------------
// go infinite / stop, and pondering.

#[test]
fn go_infinite_waits_for_stop_and_stops_quickly() {
    let mut e = Engine::spawn();
    let mut latencies = Vec::new();
    let positions = [
        ("position startpos moves e2e4".to_string(), startpos_after(&["e2e4"])),
        (format!("position fen {KIWIPETE}"), board(KIWIPETE)),
        (
            "position fen 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1".to_string(),
            board("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
        ),
    ];
    for (position, b) in positions {
        e.send(&position);
        e.send("go infinite");
        let mut lines = wait_for_depth(&mut e, 5);
        // Let it get deep into the tree: stop must interrupt a search in full swing.
        thread::sleep(Duration::from_millis(300));
        lines.extend(assert_still_searching(&mut e, "go infinite"));
        let stop_sent = e.send("stop");
        let (rest, at) = e.read_search_at();
        let latency = at.saturating_duration_since(stop_sent);
        println!("stop latency ({position}): {:.2} ms", latency.as_secs_f64() * 1000.0);
        lines.extend(rest);
        let s = checked(&mut e, &b, &lines);
        e.ensure(s.strings.is_empty(), format!("unexpected info strings {:?}", s.strings));
        e.ensure(latency < MAX_STOP_LATENCY, format!("bestmove came {latency:?} after stop"));
        latencies.push(latency);
    }
    let max = latencies.iter().max().copied().unwrap_or_default();
    println!("stop latency: max {:.2} ms over {} searches", max.as_secs_f64() * 1000.0, latencies.len());
    // A stop with no search running is harmless.
    let out = e.command("stop");
    e.ensure(out.is_empty(), format!("stop without a search printed {out:?}"));
    e.quit();
}

#[test]
fn ponder_ends_with_ponderhit_or_stop() {
    let mut e = Engine::spawn();
    e.send("setoption name Ponder value true");
    let b = startpos_after(&["e2e4", "e7e5"]);

    // ponderhit: the search goes on on the engine's own clock and then sends bestmove. Before
    // that, no bestmove even though the 1 s clock budget would long have run out.
    e.send("position startpos moves e2e4 e7e5");
    e.send("go ponder wtime 1000 btime 1000 winc 10 binc 10");
    let mut lines = wait_for_depth(&mut e, 4);
    thread::sleep(Duration::from_millis(400));
    lines.extend(assert_still_searching(&mut e, "pondering"));
    e.send("ponderhit");
    lines.extend(e.read_search());
    checked(&mut e, &b, &lines);

    // stop while pondering.
    e.send("go ponder wtime 1000 btime 1000 winc 10 binc 10");
    let mut lines = wait_for_depth(&mut e, 3);
    e.send("stop");
    lines.extend(e.read_search());
    checked(&mut e, &b, &lines);

    // A ponder search that reaches its depth limit still waits for the GUI.
    e.send("go ponder depth 2");
    let mut lines = wait_for_depth(&mut e, 2);
    thread::sleep(Duration::from_millis(300));
    lines.extend(assert_still_searching(&mut e, "go ponder depth 2"));
    e.send("ponderhit");
    lines.extend(e.read_search());
    checked(&mut e, &b, &lines);
    e.quit();
}

// ---------------------------------------------------------------------------------------
// Commands during a search.

#[test]
fn commands_are_answered_during_a_search() {
    let mut e = Engine::spawn();
    let b = startpos_after(&["d2d4"]);
    e.send("position startpos moves d2d4");
    e.send("go infinite");
    let mut lines = e.read_until("the first info line", |l| l.starts_with("info depth"), TIMEOUT);
    // isready must be answered at once, not after the search.
    lines.extend(assert_still_searching(&mut e, "isready during go infinite"));
    // Commands that need the search stopped are refused with a message, not queued.
    for cmd in ["position startpos moves e2e4", "go depth 3", "setoption name Hash value 32"] {
        e.send(cmd);
        let out = assert_still_searching(&mut e, cmd);
        let complaints = out.iter().filter(|l| l.starts_with("info string")).count();
        e.ensure(complaints == 1, format!("`{cmd}` during a search: expected one info string, got {out:?}"));
        lines.extend(out);
    }
    e.send("stop");
    lines.extend(e.read_search());
    let s = checked(&mut e, &b, &lines);
    e.ensure(s.strings.len() == 3, format!("info strings: {:?}", s.strings));
    let fen = engine_fen(&mut e);
    e.ensure(fen == b.fen().to_string(), format!("the position changed during the search: {fen}"));
    // ucinewgame and quit both stop a running search.
    e.send("go infinite");
    e.read_until("the first info line", |l| l.starts_with("info depth"), TIMEOUT);
    e.send("ucinewgame");
    e.read_search();
    let fen = engine_fen(&mut e);
    e.ensure(fen == STARTPOS_FEN, "ucinewgame resets to the start position");
    e.send("go infinite");
    e.read_until("the first info line", |l| l.starts_with("info depth"), TIMEOUT);
    e.quit();
}

// ---------------------------------------------------------------------------------------
// go movetime answers close to the time asked for.

#[test]
fn go_movetime_uses_the_time_asked_for() {
    let mut e = Engine::spawn();
    e.send("position startpos moves e2e4 c7c5");
    let b = startpos_after(&["e2e4", "c7c5"]);
    // A warm-up search, so that the first timed one does not pay for starting up.
    search(&mut e, &b, "go depth 2");
    // With the default Move Overhead (30 ms) and with a large one: the reserve is at most
    // 5% of a fixed move time, so 100 ms asked is 95-100 ms used.
    for overhead in [None, Some(1000)] {
        if let Some(ms) = overhead {
            e.send(&format!("setoption name Move Overhead value {ms}"));
        }
        let mut times = Vec::new();
        for _ in 0..5 {
            // Taken before sending: the engine's clock cannot have started earlier, however
            // late this thread gets the CPU back after the write.
            let before = Instant::now();
            e.send("go movetime 100");
            let (lines, at) = e.read_search_at();
            checked(&mut e, &b, &lines);
            let took = at.saturating_duration_since(before);
            // The engine stops at 95 ms on its own millisecond clock: never before 94 ms.
            e.ensure(took >= Duration::from_millis(94), format!("go movetime 100 answered after {took:?}"));
            e.ensure(took < Duration::from_millis(100) + MAX_STOP_LATENCY, format!("go movetime 100 took {took:?}"));
            times.push(took);
        }
        times.sort();
        let (fastest, median) = (times[0], times[times.len() / 2]);
        println!(
            "go movetime 100 (Move Overhead {}): median {:.1} ms, {:?}",
            overhead.map_or("default".to_string(), |ms| ms.to_string()),
            median.as_secs_f64() * 1000.0,
            times.iter().map(|t| format!("{:.1}", t.as_secs_f64() * 1000.0)).collect::<Vec<_>>()
        );
        // "Close to 100 ms, never after 100 ms plus a few": on an idle machine every answer
        // comes at about 95-96 ms; a loaded one may delay some of them (by scheduling, not by
        // the engine's rule), so the rule is checked on the fastest of the five.
        e.ensure(fastest <= Duration::from_millis(101), format!("go movetime 100: even the fastest took {fastest:?}"));
    }
    e.quit();
}

/// A position where nearly every capture gives check: before quiescence was bounded, depth 1
/// alone took 5.9M nodes and ignored `stop` and the clock for seconds. Now `stop` and a fixed
/// move time are honoured at once.
#[test]
fn a_quiescence_explosion_still_answers_stop_and_the_clock() {
    const QUEENS: &str = "qqqqkqqq/qqqqqqqq/8/8/8/8/QQQQQQQQ/QQQQKQQQ w - - 0 1";
    let mut e = Engine::spawn();
    let b = board(QUEENS);
    e.send(&format!("position fen {QUEENS}"));
    let mut stops = Vec::new();
    for _ in 0..5 {
        e.send("go infinite");
        thread::sleep(Duration::from_millis(150));
        let sent = e.send("stop");
        let (lines, at) = e.read_search_at();
        checked(&mut e, &b, &lines);
        stops.push(at.saturating_duration_since(sent));
    }
    stops.sort();
    println!("stop in the queens position: {stops:?}");
    // The engine notices `stop` at its next node; what else delays an answer is the scheduler
    // (the other tests run engines in parallel), so the 20 ms rule is checked on the fastest
    // of the five and every answer must come within the general stop latency.
    e.ensure(stops[0] <= Duration::from_millis(20), format!("stop answered after {stops:?}"));
    e.ensure(stops[4] < MAX_STOP_LATENCY, format!("stop answered after {stops:?}"));
    let mut times = Vec::new();
    for _ in 0..3 {
        let before = Instant::now();
        e.send("go movetime 100");
        let (lines, at) = e.read_search_at();
        checked(&mut e, &b, &lines);
        times.push(at.saturating_duration_since(before));
    }
    times.sort();
    println!("go movetime 100 in the queens position: {times:?}");
    e.ensure(times[0] <= Duration::from_millis(150), format!("go movetime 100 took {times:?}"));
    e.ensure(times[2] < Duration::from_millis(100) + MAX_STOP_LATENCY, format!("go movetime 100 took {times:?}"));
    // A depth-1 search ends on its own, quickly.
    let before = Instant::now();
    search(&mut e, &b, "go depth 1");
    let took = before.elapsed();
    e.ensure(took <= Duration::from_secs(1), format!("go depth 1 took {took:?}"));
    e.quit();
}

// ---------------------------------------------------------------------------------------
// Mates and stalemates.

fn last_score(s: &Search) -> Option<Score> {
    s.infos.iter().rev().find_map(|i: &Info| i.score)
}

#[test]
fn mate_in_one_checkmate_and_stalemate() {
    let mut e = Engine::spawn();
    for (fen, mate) in
        [("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", "a1a8"), ("r5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1", "a8a1")]
    {
        let b = board(fen);
        e.send(&format!("position fen {fen}"));
        let s = search(&mut e, &b, "go depth 5");
        e.ensure(s.best == mate, format!("{fen}: expected the mate {mate}, got {}", s.best));
        e.ensure(last_score(&s) == Some(Score::Mate(1)), format!("{fen}: score {:?}", last_score(&s)));
        e.ensure(s.ponder.is_none(), "no ponder move after a mating move");
    }
    // Fool's mate: White is checkmated.
    let mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    e.send(&format!("position fen {mated}"));
    let s = search(&mut e, &board(mated), "go depth 5");
    e.ensure(s.best == "0000", "a mated side has no best move");
    let score = last_score(&s);
    e.ensure(matches!(score, None | Some(Score::Mate(0))), format!("mated: score {score:?}"));
    // Stalemate.
    let stalemate = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
    e.send(&format!("position fen {stalemate}"));
    let s = search(&mut e, &board(stalemate), "go wtime 1000 btime 1000");
    e.ensure(s.best == "0000", "a stalemated side has no best move");
    let score = last_score(&s);
    e.ensure(matches!(score, None | Some(Score::Cp(0))), format!("stalemate: score {score:?}"));
    // Even with nothing to search, go infinite waits for stop.
    e.send("go infinite");
    thread::sleep(Duration::from_millis(200));
    let mut lines = assert_still_searching(&mut e, "go infinite in a stalemate");
    e.send("stop");
    lines.extend(e.read_search());
    let s = checked(&mut e, &board(stalemate), &lines);
    e.ensure(s.best == "0000", "stalemate after stop");
    // The game goes on from a reachable mate: the mating move, then bestmove 0000.
    e.send("position startpos moves f2f3 e7e5 g2g4");
    let b = startpos_after(&["f2f3", "e7e5", "g2g4"]);
    let s = search(&mut e, &b, "go depth 4");
    e.ensure(s.best == "d8h4", format!("fool's mate expected, got {}", s.best));
    e.send("position startpos moves f2f3 e7e5 g2g4 d8h4");
    let s = search(&mut e, &startpos_after(&["f2f3", "e7e5", "g2g4", "d8h4"]), "go depth 4");
    e.ensure(s.best == "0000", "checkmated after fool's mate");
    e.quit();
}

// ---------------------------------------------------------------------------------------
// MultiPV and searchmoves.

#[test]
fn multipv_and_searchmoves() {
    let mut e = Engine::spawn();
    e.send("setoption name MultiPV value 3");
    e.send("position startpos");
    let start = Board::default();
    let s = search(&mut e, &start, "go depth 5");
    let mut lines: Vec<Option<&Info>> = vec![None; 3];
    for info in &s.infos {
        let k = info.multipv.unwrap_or(1) as usize;
        e.ensure((1..=3).contains(&k), format!("multipv {k} with MultiPV 3"));
        if info.depth == Some(5) && info.bound.is_none() && !info.pv.is_empty() {
            lines[k - 1] = Some(info);
        }
    }
    let lines: Vec<&Info> = lines.into_iter().flatten().collect();
    e.ensure(lines.len() == 3, format!("multipv 1..3 lines at depth 5 expected, got {lines:?}"));
    let firsts: Vec<&str> = lines.iter().map(|i| i.pv[0].as_str()).collect();
    e.ensure(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2], format!("{firsts:?}"));
    let ranks: Vec<i64> = lines.iter().map(|i| i.score.map_or(i64::MIN, Score::rank)).collect();
    e.ensure(ranks[0] >= ranks[1] && ranks[1] >= ranks[2], format!("multipv lines out of order: {lines:?}"));
    e.ensure(s.best == firsts[0], format!("bestmove {} is not multipv 1 ({})", s.best, firsts[0]));

    // searchmoves restricts the root moves, with one or several PVs.
    let allowed = ["a2a3", "h2h3"];
    for (multipv, go) in [(1, "go depth 5 searchmoves a2a3 h2h3"), (3, "go searchmoves a2a3 h2h3 depth 4")] {
        e.send(&format!("setoption name MultiPV value {multipv}"));
        let s = search(&mut e, &start, go);
        e.ensure(allowed.contains(&s.best.as_str()), format!("`{go}`: bestmove {} not allowed", s.best));
        for info in s.infos.iter().filter(|i| !i.pv.is_empty()) {
            e.ensure(allowed.contains(&info.pv[0].as_str()), format!("`{go}`: pv outside searchmoves: {info:?}"));
            e.ensure(info.multipv.unwrap_or(1) <= 2, format!("only two moves to show: {info:?}"));
        }
    }
    // A single search move is played even when it is bad.
    e.send("setoption name MultiPV value 1");
    e.send("position startpos moves e2e4 d7d5");
    let b = startpos_after(&["e2e4", "d7d5"]);
    let s = search(&mut e, &b, "go depth 4 searchmoves e1e2");
    e.ensure(s.best == "e1e2", format!("searchmoves e1e2: bestmove {}", s.best));
    e.quit();
}

// ---------------------------------------------------------------------------------------
// Regression tests for bugs these end-to-end tests found (all fixed): commands right after
// `stop`/`bestmove` refused as "searching", a bad `go` parameter swallowing the next limit,
// and MultiPV lines left unsorted.

/// Reads up to `bestmove` without [`common::WORK_AROUND_BESTMOVE_RACE`]'s wait.
fn read_bestmove_raw(e: &mut Engine) -> Vec<String> {
    e.read_until("bestmove", |l| l.starts_with("bestmove"), TIMEOUT)
}

#[test]
fn commands_right_after_bestmove_are_accepted() {
    let mut e = Engine::spawn();
    // stop, then at once a new position and search (no waiting for bestmove in between, which
    // UCI does not require): two bestmoves, the second for the new position.
    e.send("position startpos");
    e.send("go infinite");
    wait_for_depth(&mut e, 3);
    e.send("stop");
    e.send("position startpos moves g1f3");
    e.send("go depth 2");
    let first = read_bestmove_raw(&mut e);
    let s = checked(&mut e, &Board::default(), &first);
    e.ensure(s.strings.is_empty(), format!("position/go right after stop were refused: {:?}", s.strings));
    let second = read_bestmove_raw(&mut e);
    checked(&mut e, &startpos_after(&["g1f3"]), &second);

    // Like a GUI in a fast game: the next position and go follow bestmove at once.
    let positions: [(&str, &[&str]); 2] = [("position startpos moves e2e4", &["e2e4"]), ("position startpos", &[])];
    for round in 0..300 {
        let (cmd, moves) = positions[round % 2];
        let b = startpos_after(moves);
        e.send(cmd);
        e.send("go depth 1");
        let lines = e.read_until("bestmove", |l| l.starts_with("bestmove") || l.starts_with("info string"), TIMEOUT);
        if let Some(refusal) = lines.iter().find(|l| l.starts_with("info string")) {
            e.fail(&format!("round {round}: `{cmd}` + `go depth 1` right after bestmove: '{refusal}'"));
        }
        checked(&mut e, &b, &lines);
    }
    e.quit();
}

#[test]
fn go_with_a_bad_parameter_keeps_the_other_limits() {
    let mut e = Engine::spawn();
    e.send("position startpos");
    let start = Board::default();
    for go in ["go infinte depth 3", "go depth movetime 200", "go foo depth 2", "go nodes x depth 2"] {
        e.send(go);
        // The remaining limit ends the search on its own, with no stop.
        let lines = e.read_until(go, |l| l.starts_with("bestmove"), Duration::from_secs(10));
        let s = checked(&mut e, &start, &lines);
        e.ensure(s.strings.len() == 1, format!("`{go}`: one complaint expected: {:?}", s.strings));
        e.wait_idle();
    }
    e.quit();
}

#[test]
fn multipv_lines_are_sorted_and_bestmove_is_the_best() {
    let mut e = Engine::spawn();
    e.send("position startpos");
    search(&mut e, &Board::default(), "go depth 5");
    e.send("setoption name MultiPV value 2");
    let s = search(&mut e, &Board::default(), "go depth 3 searchmoves a2a3 h2h3");
    // At each depth, the lines as last reported must be in descending score order.
    for depth in 1..=3 {
        let mut last: [Option<&Info>; 2] = [None; 2];
        for info in s.infos.iter().filter(|i| i.depth == Some(depth) && i.bound.is_none() && !i.pv.is_empty()) {
            let k = info.multipv.unwrap_or(1) as usize;
            last[k - 1] = Some(info);
        }
        if let [Some(a), Some(b)] = last {
            let (ra, rb) = (a.score.map_or(i64::MIN, Score::rank), b.score.map_or(i64::MIN, Score::rank));
            e.ensure(ra >= rb, format!("depth {depth}: multipv 1 {:?} scores below multipv 2 {:?}", a, b));
        }
    }
    e.quit();
}

// ---------------------------------------------------------------------------------------
// Win/draw/loss output.

/// The `wdl` of the last scored `info` line of a search (which must all carry one).
fn last_wdl(e: &mut Engine, board: &Board, go: &str) -> (Score, [u32; 3]) {
    let s = search(e, board, go);
    let mut last = None;
    for info in &s.infos {
        if let Some(score) = info.score {
            match info.wdl {
                Some(wdl) => last = Some((score, wdl)),
                None => e.fail(&format!("an info line with a score but no wdl: {info:?}")),
            }
        }
    }
    last.unwrap_or_else(|| e.fail("no scored info line"))
}

#[test]
fn show_wdl_adds_win_draw_loss_that_follow_the_score() {
    let mut e = Engine::spawn();
    // Off by default: no wdl.
    let s = search(&mut e, &Board::default(), "go depth 3");
    e.ensure(s.infos.iter().all(|i| i.wdl.is_none()), "wdl without UCI_ShowWDL");
    e.command("setoption name UCI_ShowWDL value true");
    let mut results = Vec::new();
    for fen in [
        "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", // a queen up
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", // level
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1", // a queen down
    ] {
        e.command(&format!("position fen {fen}"));
        results.push(last_wdl(&mut e, &board(fen), "go depth 4"));
    }
    let [(s_up, up), (_, level), (s_down, down)] = [results[0], results[1], results[2]];
    e.ensure(s_up.rank() > s_down.rank(), "the scores order the positions");
    e.ensure(up[0] > level[0] && level[0] > down[0], format!("win share must fall with the score: {results:?}"));
    e.ensure(up[2] < level[2] && level[2] < down[2], format!("loss share must rise as the score falls: {results:?}"));
    e.ensure(up[0] > 900 && down[2] > 900, format!("a queen is nearly decisive: {results:?}"));
    // A forced mate is certain.
    let mate = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3";
    e.command(&format!("position fen {mate}"));
    let (score, wdl) = last_wdl(&mut e, &board(mate), "go depth 4");
    e.ensure(matches!(score, Score::Mate(1)) && wdl == [1000, 0, 0], format!("mate in one: {score:?} {wdl:?}"));
    e.quit();
}

// ---------------------------------------------------------------------------------------
// Limited strength.

#[test]
fn upper_levels_search_one_line_within_their_budget_and_the_top_is_the_full_search() {
    use cutoff_uci::strength::{Level, MAX_ELO};
    let mut e = Engine::spawn();
    let b = Board::default();
    e.command("setoption name UCI_LimitStrength value true");
    e.command("position startpos");
    // 2600: one line, and `go nodes` above the level's budget is cut to it.
    e.command("setoption name UCI_Elo value 2600");
    let budget = Level::new(2600).nodes();
    let s = search(&mut e, &b, &format!("go nodes {}", budget * 2));
    let nodes = s.infos.iter().filter_map(|i| i.nodes).max().unwrap_or(0);
    e.ensure(s.infos.iter().all(|i| i.multipv.unwrap_or(1) == 1), format!("2600 searches one line: {:?}", s.infos));
    e.ensure(nodes <= budget + 1_000, format!("2600's budget is {budget} nodes, it searched {nodes}"));
    // The top is the full search: no budget cuts `go nodes`.
    e.command(&format!("setoption name UCI_Elo value {MAX_ELO}"));
    let s = search(&mut e, &b, &format!("go nodes {}", budget * 2));
    let nodes = s.infos.iter().filter_map(|i| i.nodes).max().unwrap_or(0);
    e.ensure(nodes > budget + 1_000, format!("{MAX_ELO} is the full search, yet it stopped at {nodes} nodes"));
    e.quit();
}

#[test]
fn limited_strength_plays_other_legal_moves_and_keeps_the_queen_at_2000() {
    let mut e = Engine::spawn();
    // An Elo outside the range is clamped, with a message.
    let out = e.command("setoption name UCI_Elo value 900");
    e.ensure(
        out.len() == 1 && out[0].starts_with("info string") && out[0].contains("1320"),
        format!("UCI_Elo 900 should be clamped to 1320 with an info string, got {out:?}"),
    );
    // Full strength first, then the lowest level, on the same positions.
    let fens: Vec<&str> = cutoff_uci::BENCH_FENS.lines().map(str::trim).filter(|l| !l.is_empty()).take(16).collect();
    let mut full = Vec::new();
    for fen in &fens {
        e.command(&format!("position fen {fen}"));
        full.push(search(&mut e, &board(fen), "go depth 6").best);
    }
    e.command("setoption name UCI_LimitStrength value true");
    e.command("setoption name UCI_Elo value 1320");
    let mut differ = 0;
    for (fen, strong) in fens.iter().zip(&full) {
        e.command(&format!("position fen {fen}"));
        let s = search(&mut e, &board(fen), "go wtime 60000 btime 60000");
        // The lowest level's budget is a few thousand nodes at most (the search may finish its
        // first iteration).
        let nodes = s.infos.iter().filter_map(|i| i.nodes).max().unwrap_or(0);
        e.ensure(nodes < 5_000, format!("the lowest level searched {nodes} nodes in {fen}"));
        differ += usize::from(&s.best != strong);
    }
    e.ensure(differ >= 4, format!("the lowest level chose the full-strength move in {} of 16 positions", 16 - differ));

    // At 2000 a queen attacked by a pawn is never left hanging.
    e.command("setoption name UCI_Elo value 2000");
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/3Q4/8/PPP1PPPP/RNB1KBNR w KQkq - 0 3";
    let b = board(fen);
    for _ in 0..20 {
        e.command(&format!("position fen {fen}"));
        let s = search(&mut e, &b, "go wtime 60000 btime 60000");
        let mv = b.parse_uci(&s.best).unwrap_or_else(|err| e.fail(&format!("illegal {}: {err}", s.best)));
        e.ensure(mv.from() == cutoff_board::Square::D4, format!("2000 left the queen en prise with {}", s.best));
    }
    // Off again: full strength, same move as before.
    e.command("setoption name UCI_LimitStrength value false");
    // (A fresh game, as for the first search: the hash and histories steer the search too.)
    e.command("ucinewgame");
    e.command(&format!("position fen {}", fens[0]));
    let again = search(&mut e, &board(fens[0]), "go depth 6").best;
    e.ensure(again == full[0], "UCI_LimitStrength false restores full strength");
    e.quit();
}
