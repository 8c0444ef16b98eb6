//! End-to-end tests of Cutoff's own UCI commands: `go perft`, `bench` (in the background,
//! where `isready`, `stop` and `quit` reach them: `isready` answered within 100 ms while they
//! run), `d` and `eval`.

mod common;

use std::thread;
use std::time::Duration;

use common::uci::*;
use common::{Engine, TIMEOUT};
use cutoff_board::{Board, CastlingMode, STARTPOS_FEN};

// ---------------------------------------------------------------------------------------
// perft through UCI.

/// Runs `go perft <depth>` and returns the divide lines (move, count) and the total.
fn go_perft(e: &mut Engine, board: &Board, depth: u32) -> (Vec<(String, u64)>, u64) {
    e.send(&format!("go perft {depth}"));
    let lines = e.read_until("Nodes searched", |l| l.starts_with("Nodes searched: "), TIMEOUT);
    let (last, body) = lines.split_last().expect("at least the total");
    let total: u64 = match last["Nodes searched: ".len()..].parse() {
        Ok(n) => n,
        Err(_) => e.fail(&format!("malformed total '{last}'")),
    };
    let mut divide = Vec::new();
    for line in body {
        if line.is_empty() {
            continue;
        }
        let parsed = line.split_once(": ").and_then(|(m, n)| Some((m.to_string(), n.parse::<u64>().ok()?)));
        let Some((mv, n)) = parsed else { e.fail(&format!("malformed divide line '{line}'")) };
        if let Err(err) = board.parse_uci(&mv) {
            e.fail(&format!("divide move {mv} is not legal in {}: {err}", board.fen()));
        }
        divide.push((mv, n));
    }
    if depth > 0 {
        let sum: u64 = divide.iter().map(|(_, n)| n).sum();
        e.ensure(sum == total, format!("divide lines sum to {sum}, total says {total}"));
        e.ensure(divide.len() == board.legal_moves().len(), "one divide line per legal move");
    } else {
        e.ensure(divide.is_empty(), "perft 0 has no divide lines");
    }
    (divide, total)
}

#[test]
fn go_perft_divides_standard_and_chess960() {
    let mut e = Engine::spawn();
    let start = Board::default();
    e.send("position startpos");
    let (divide, total) = go_perft(&mut e, &start, 3);
    e.ensure(divide.len() == 20, format!("20 root moves, got {}", divide.len()));
    e.ensure(total == 8902, format!("perft 3 = 8902, got {total}"));
    e.ensure(divide.iter().any(|(m, n)| m == "e2e4" && *n == 600), "e2e4: 600");
    e.ensure(divide.iter().any(|(m, n)| m == "g1f3" && *n == 440), "g1f3: 440");
    let (_, total) = go_perft(&mut e, &start, 0);
    e.ensure(total == 1, "perft 0 = 1");

    // Standard castling notation is king-two-squares.
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    e.send(&format!("position fen {fen}"));
    let (divide, _) = go_perft(&mut e, &board(fen), 1);
    let moves: Vec<&str> = divide.iter().map(|(m, _)| m.as_str()).collect();
    e.ensure(moves.contains(&"e1g1") && moves.contains(&"e1c1"), format!("standard castling: {moves:?}"));
    e.ensure(!moves.contains(&"e1h1") && !moves.contains(&"e1a1"), format!("standard castling: {moves:?}"));

    // Chess960: castling is king-takes-rook. Switching the option re-reads the position.
    e.send("setoption name UCI_Chess960 value true");
    let b960 = Board::from_fen(fen, CastlingMode::Chess960).expect("valid");
    let (divide, _) = go_perft(&mut e, &b960, 1);
    let moves: Vec<&str> = divide.iter().map(|(m, _)| m.as_str()).collect();
    e.ensure(moves.contains(&"e1h1") && moves.contains(&"e1a1"), format!("960 castling: {moves:?}"));
    e.ensure(!moves.contains(&"e1c1"), format!("960 castling: {moves:?}"));

    // Positions from the Chess960 perft suite (Shredder-FEN castling), with their depth-3 counts.
    for (fen, castle, d3) in [
        // The king on g1 castles with the rook on h1 and stays put: written g1h1.
        ("qnbnr1kr/ppp1b1pp/4p3/3p1p2/8/2NPP3/PPP1BPPP/QNB1R1KR w HEhe - 1 9", Some("g1h1"), 26578),
        ("qb1nrkbr/1pppp1p1/1n3p2/p1B4p/8/3P1P1P/PPP1P1P1/QBNNRK1R w HEhe - 0 9", Some("f1h1"), 25620),
        ("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", None, 12189),
    ] {
        let b = Board::from_fen(fen, CastlingMode::Chess960).expect("suite FEN");
        e.send(&format!("position fen {fen}"));
        let fen_back = engine_fen(&mut e);
        e.ensure(fen_back == fen, format!("d shows {fen_back} for {fen}"));
        let (divide, total) = go_perft(&mut e, &b, 3);
        e.ensure(total == d3, format!("{fen}: perft 3 = {d3}, got {total}"));
        if let Some(castle) = castle {
            let is_castle = b.parse_uci(castle).is_ok_and(|m| m.is_castle());
            e.ensure(is_castle, format!("{castle} should be castling in {fen}"));
            e.ensure(divide.iter().any(|(m, _)| m == castle), format!("{castle} missing from the divide"));
        }
        // A search in Chess960 mode writes its moves in Chess960 notation.
        let s = search(&mut e, &b, "go depth 3");
        e.ensure(s.strings.is_empty(), format!("unexpected complaints {:?}", s.strings));
    }
    e.quit();
}

// ---------------------------------------------------------------------------------------
// Long commands (go perft, bench) run where isready, stop and quit reach them.

/// The longest wait for `readyok` accepted while a perft or bench runs.
const MAX_ISREADY_LATENCY: Duration = Duration::from_millis(100);

/// Probes `isready` `probes` times while a long command runs and returns the latencies;
/// fails if one of `ends` (a line that only comes when the command is over) arrives first,
/// or if the median latency is over [`MAX_ISREADY_LATENCY`]. Each probe also has to be
/// answered within [`MAX_STOP_LATENCY`] (a single probe may be slowed by a loaded machine;
/// a blocked input thread fails every probe).
fn probe_isready(e: &mut Engine, what: &str, ends: impl Fn(&str) -> bool, probes: usize) -> Vec<Duration> {
    let mut latencies = Vec::new();
    for _ in 0..probes {
        let sent = e.send("isready");
        let (lines, at) = e.read_until_at("readyok", |l| l == "readyok", TIMEOUT);
        if let Some(end) = lines.iter().find(|l| ends(l)) {
            e.fail(&format!("{what} ended ('{end}') before being told to stop"));
        }
        let latency = at.saturating_duration_since(sent);
        e.ensure(latency < MAX_STOP_LATENCY, format!("isready during {what} answered after {latency:?}"));
        latencies.push(latency);
        thread::sleep(Duration::from_millis(20));
    }
    let mut sorted = latencies.clone();
    sorted.sort();
    let median = sorted[sorted.len() / 2];
    println!(
        "isready during {what}: median {:.2} ms, max {:.2} ms over {probes} probes",
        median.as_secs_f64() * 1000.0,
        sorted[sorted.len() - 1].as_secs_f64() * 1000.0
    );
    e.ensure(median < MAX_ISREADY_LATENCY, format!("isready during {what}: median latency {median:?}"));
    latencies
}

/// Commands that need the long command over are refused with one `info string` each, and the
/// position is left alone.
fn assert_refused_while_running(e: &mut Engine, what: &str, ends: impl Fn(&str) -> bool, fen: &str) {
    for cmd in ["position startpos moves g1f3", "go depth 3", "go perft 1", "bench 1", "setoption name Hash value 32"] {
        e.send(cmd);
        e.send("isready");
        let out = e.read_until("readyok", |l| l == "readyok", TIMEOUT);
        if let Some(end) = out.iter().find(|l| ends(l)) {
            e.fail(&format!("{what} ended ('{end}') before being told to stop"));
        }
        let complaints = out.iter().filter(|l| l.starts_with("info string") && l.contains(" running")).count();
        e.ensure(complaints == 1, format!("`{cmd}` during {what}: one refusal expected, got {out:?}"));
    }
    let back = engine_fen(e);
    e.ensure(back == fen, format!("the position changed during {what}: {back}"));
}

fn is_perft_end(l: &str) -> bool {
    l.starts_with("Nodes searched") || l.starts_with("info string perft")
}

fn is_bench_end(l: &str) -> bool {
    (l.ends_with(" nps") && !l.starts_with("info")) || l.starts_with("info string bench stopped")
}

#[test]
fn go_perft_runs_in_the_background_and_stops() {
    let mut e = Engine::spawn();
    // The case: isready right after a perft far too deep to finish.
    e.send("position startpos moves e2e4");
    e.send("go perft 20");
    probe_isready(&mut e, "go perft 20", is_perft_end, 3);
    e.send("stop");
    e.read_until("the end of perft 20", is_perft_end, TIMEOUT);

    let b = Board::default();
    e.send("position startpos");
    e.send("go perft 9");
    thread::sleep(Duration::from_millis(200));
    probe_isready(&mut e, "go perft 9", is_perft_end, 7);
    assert_refused_while_running(&mut e, "go perft 9", is_perft_end, STARTPOS_FEN);
    thread::sleep(Duration::from_millis(200));
    let sent = e.send("stop");
    let (lines, at) = e.read_until_at("the end of perft 9", is_perft_end, TIMEOUT);
    let latency = at.saturating_duration_since(sent);
    println!("stop latency (go perft 9): {:.2} ms", latency.as_secs_f64() * 1000.0);
    e.ensure(latency < MAX_STOP_LATENCY, format!("perft 9 ended {latency:?} after stop"));
    let last = lines.last().map_or("", String::as_str);
    e.ensure(
        last.starts_with("info string perft 9 stopped after ") && last.contains(" of 20 root moves"),
        format!("a stopped perft says so (and gives no total): '{last}'"),
    );
    // Whatever divide lines came are real root moves.
    for line in lines.iter().filter(|l| !l.is_empty() && !l.starts_with("info")) {
        let ok = line.split_once(": ").is_some_and(|(m, n)| b.parse_uci(m).is_ok() && n.parse::<u64>().is_ok());
        e.ensure(ok, format!("malformed divide line '{line}'"));
    }
    // Accepted at once after stop, with the right counts.
    let (_, total) = go_perft(&mut e, &b, 3);
    e.ensure(total == 8902, format!("perft 3 after a stopped perft: {total}"));
    e.send("position startpos moves e2e4");
    let s = search(&mut e, &startpos_after(&["e2e4"]), "go depth 3");
    e.ensure(s.strings.is_empty(), format!("go after a stopped perft: {:?}", s.strings));

    // quit ends a running perft at once.
    e.send("go perft 9");
    thread::sleep(Duration::from_millis(300));
    probe_isready(&mut e, "go perft 9", is_perft_end, 3);
    let took = e.quit();
    println!("quit during go perft 9: exited after {:.1} ms", took.as_secs_f64() * 1000.0);
    assert!(took < MAX_STOP_LATENCY, "the engine took {took:?} to exit after quit during perft 9");
}

#[test]
fn bench_runs_in_the_background_and_stops() {
    let mut e = Engine::spawn();
    e.send("position startpos moves d2d4");
    let fen = startpos_after(&["d2d4"]).fen().to_string();
    e.send("bench 20");
    thread::sleep(Duration::from_millis(200));
    probe_isready(&mut e, "bench 20", is_bench_end, 7);
    assert_refused_while_running(&mut e, "bench 20", is_bench_end, &fen);
    thread::sleep(Duration::from_millis(200));
    let sent = e.send("stop");
    let (lines, at) = e.read_until_at("the end of bench 20", is_bench_end, TIMEOUT);
    let latency = at.saturating_duration_since(sent);
    println!("stop latency (bench 20): {:.2} ms", latency.as_secs_f64() * 1000.0);
    e.ensure(latency < MAX_STOP_LATENCY, format!("bench 20 ended {latency:?} after stop"));
    let last = lines.last().map_or("", String::as_str);
    e.ensure(last.starts_with("info string bench stopped after "), format!("a stopped bench says so: '{last}'"));
    e.ensure(lines.iter().all(|l| l.starts_with("info string ")), "a stopped bench prints no total line");
    // The engine is at once ready for a game.
    let s = search(&mut e, &startpos_after(&["d2d4"]), "go depth 3");
    e.ensure(s.strings.is_empty(), format!("go after a stopped bench: {:?}", s.strings));

    e.send("bench 20");
    thread::sleep(Duration::from_millis(300));
    probe_isready(&mut e, "bench 20", is_bench_end, 3);
    let took = e.quit();
    println!("quit during bench 20: exited after {:.1} ms", took.as_secs_f64() * 1000.0);
    assert!(took < MAX_STOP_LATENCY, "the engine took {took:?} to exit after quit during bench 20");
}

// ---------------------------------------------------------------------------------------
// The UCI `bench` command agrees with the `bench` subcommand (see tests/cli.rs).

#[test]
fn uci_bench_prints_nodes_and_nps() {
    let mut e = Engine::spawn();
    e.send("bench 3");
    let lines = e.read_until("bench total", |l| l.ends_with(" nps") && !l.starts_with("info"), TIMEOUT);
    let total = lines.last().expect("the total line").clone();
    let parts: Vec<&str> = total.split(' ').collect();
    let ok = parts.len() == 4
        && parts[1] == "nodes"
        && parts[3] == "nps"
        && parts[0].parse::<u64>().is_ok_and(|n| n > 0)
        && parts[2].parse::<u64>().is_ok();
    e.ensure(ok, format!("bench total line '{total}'"));
    e.ensure(lines[..lines.len() - 1].iter().all(|l| l.starts_with("info string ")), "bench progress is info strings");
    expect_complaint(&mut e, "bench 0", "bench");
    expect_complaint(&mut e, "bench deep", "bench");
    // The same again: deterministic.
    e.send("bench 3");
    let again = e.read_until("bench total", |l| l.ends_with(" nps") && !l.starts_with("info"), TIMEOUT);
    let nodes = |l: &str| l.split(' ').next().map(str::to_string);
    let (a, b) = (nodes(&total), nodes(again.last().map_or("", String::as_str)));
    e.ensure(a == b, format!("bench node counts differ: {a:?} vs {b:?}"));
    e.quit();
}

// ---------------------------------------------------------------------------------------
// Diagnostics: d and eval.

/// The side-to-move evaluation printed by `eval`, in centipawns.
fn side_to_move_eval(e: &mut Engine) -> i32 {
    let lines = e.command("eval");
    e.ensure(lines.len() >= 10, format!("eval should print a table, got {lines:?}"));
    for term in ["Material", "Mobility", "Total"] {
        e.ensure(
            lines.iter().any(|l| l.trim_start().starts_with(term) && l.contains('|')),
            format!("eval table without a '{term}' row"),
        );
    }
    let value = lines.iter().find(|l| l.starts_with("Hand-crafted evaluation (side to move")).and_then(|l| {
        let number = l.rsplit_once(':')?.1.trim().strip_suffix("cp")?.trim();
        number.trim_start_matches('+').parse::<i32>().ok()
    });
    match value {
        Some(v) => v,
        None => e.fail("eval: no 'Hand-crafted evaluation (side to move ...): N cp' line"),
    }
}

#[test]
fn d_and_eval_describe_the_position() {
    let mut e = Engine::spawn();
    let lines = e.command("d");
    let ranks: Vec<&String> = lines.iter().filter(|l| l.trim_start().starts_with('|')).collect();
    e.ensure(ranks.len() == 8, format!("8 rank rows expected: {lines:?}"));
    e.ensure(ranks[0].contains("| r | n | b | q | k | b | n | r |") && ranks[0].trim_end().ends_with('8'), "rank 8");
    e.ensure(ranks[7].contains("| R | N | B | Q | K | B | N | R |") && ranks[7].trim_end().ends_with('1'), "rank 1");
    e.ensure(lines.iter().any(|l| l == &format!("Fen: {STARTPOS_FEN}")), "Fen line for the start position");
    e.ensure(lines.iter().any(|l| l == "Checkers: -"), "no checkers at the start");

    // A position with a check: the checker is listed and the FEN is the board crate's.
    e.send("position startpos moves e2e4 f7f6 d1h5");
    let b = startpos_after(&["e2e4", "f7f6", "d1h5"]);
    let lines = e.command("d");
    let fen_line = format!("Fen: {}", b.fen());
    e.ensure(lines.iter().any(|l| l == &fen_line), format!("expected '{fen_line}'"));
    e.ensure(lines.iter().any(|l| l == "Checkers: h5"), "Checkers: h5");

    // The evaluation is symmetric: a position and its colour-flipped mirror score the same
    // for the side to move.
    for fen in [STARTPOS_FEN, KIWIPETE, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"] {
        let b = board(fen);
        let mirror = b.mirrored().fen().to_string();
        e.send(&format!("position fen {fen}"));
        let v = side_to_move_eval(&mut e);
        e.send(&format!("position fen {mirror}"));
        let m = side_to_move_eval(&mut e);
        e.ensure(v == m, format!("eval {v} for {fen} but {m} for its mirror {mirror}"));
    }
    e.quit();
}

/// `eval` leads with the evaluation the search uses, labelled "in use", and labels the other
/// one "not in use". The network is the repository's committed one, loaded
/// with `EvalFile`, so the test does not depend on what the build embeds.
#[test]
fn eval_leads_with_the_evaluation_in_use() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/crates/uci/networks/default.nnue");
    let bytes = std::fs::read(path).unwrap_or_else(|err| panic!("{path}: {err}"));
    let net = cutoff_nnue::Network::from_bytes(&bytes).unwrap_or_else(|err| panic!("{path}: {err}"));
    // Black to move: both first lines give White's view.
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1";
    let network_cp = -net.evaluate(&board(fen));
    let mut e = Engine::spawn();
    let out = e.command(&format!("setoption name EvalFile value {path}"));
    e.ensure(out.len() == 1 && out[0].starts_with("info string network "), format!("EvalFile: {out:?}"));
    e.send(&format!("position fen {fen}"));
    // The hand-crafted figure of the first lines agrees with the table's total below them.
    let hand_crafted_total = |e: &mut Engine, lines: &[String]| -> i32 {
        let total = lines.iter().find_map(|l| l.strip_prefix("Hand-crafted evaluation (White's view): "));
        match total.and_then(|t| t.strip_suffix(" cp")).and_then(|t| t.trim_start_matches('+').parse().ok()) {
            Some(cp) => cp,
            None => e.fail(&format!("eval: no 'Hand-crafted evaluation (White's view): N cp' line in {lines:?}")),
        }
    };

    let lines = e.command("setoption name UseNNUE value true");
    e.ensure(lines.is_empty(), format!("UseNNUE true: {lines:?}"));
    let lines = e.command("eval");
    let hand_crafted = hand_crafted_total(&mut e, &lines);
    let first = [
        format!("NNUE evaluation: {network_cp} cp (White's view), in use"),
        format!("Hand-crafted evaluation: {hand_crafted} cp (White's view), not in use (UseNNUE is on); its terms:"),
    ];
    e.ensure(lines.len() > 2 && lines[..2] == first, format!("UseNNUE true: expected {first:?} first, got {lines:?}"));
    e.ensure(lines[2].trim_start().starts_with("Term"), format!("the term table follows: {lines:?}"));
    let in_use = lines.iter().filter(|l| l.contains(", in use")).count();
    e.ensure(in_use == 1, format!("UseNNUE true: one evaluation in use, got {lines:?}"));

    let lines = e.command("setoption name UseNNUE value false");
    e.ensure(lines.is_empty(), format!("UseNNUE false: {lines:?}"));
    let lines = e.command("eval");
    let hand_crafted = hand_crafted_total(&mut e, &lines);
    let first =
        format!("Hand-crafted evaluation: {hand_crafted} cp (White's view), in use (UseNNUE is off); its terms:");
    e.ensure(lines.len() > 2 && lines[0] == first, format!("UseNNUE false: expected {first:?} first, got {lines:?}"));
    e.ensure(lines[1].trim_start().starts_with("Term"), format!("the term table follows: {lines:?}"));
    let last = format!("NNUE evaluation: {network_cp} cp (White's view), not in use (UseNNUE is off)");
    e.ensure(lines.last() == Some(&last), format!("UseNNUE false: expected {last:?} last, got {lines:?}"));
    let in_use = lines.iter().filter(|l| l.contains(", in use")).count();
    e.ensure(in_use == 1, format!("UseNNUE false: one evaluation in use, got {lines:?}"));
    e.quit();
}
