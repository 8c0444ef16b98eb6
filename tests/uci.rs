//! End-to-end tests of the UCI protocol: the `cutoff` binary is run as a child process and
//! driven over stdin/stdout like a GUI would; its answers are checked against the rules of
//! chess with `cutoff-board`.
//!
//! Timeouts only detect hangs. The timing assertions are the `stop` latency (design target
//! 10 ms, asserted below 500 ms to leave room for a loaded machine), `isready` answered
//! within 100 ms while `go perft` and `bench` run, and `go movetime` answering close to the
//! time asked for.

mod common;

use std::thread;
use std::time::{Duration, Instant};

use common::check::{self, Info, Score, Search};
use common::{Engine, TIMEOUT};
use cutoff_board::{Board, CastlingMode, Color, Game, Outcome, STARTPOS_FEN};

/// Kiwipete: a busy middlegame position with castling, pins and en passant tricks.
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// The longest `stop` → `bestmove` delay accepted (the design target is 10 ms).
const MAX_STOP_LATENCY: Duration = Duration::from_millis(500);

fn board(fen: &str) -> Board {
    Board::from_fen(fen, CastlingMode::Standard).unwrap_or_else(|e| panic!("test FEN {fen}: {e}"))
}

/// The board after `moves` (UCI notation) from the start position.
fn startpos_after(moves: &[&str]) -> Board {
    let mut game = Game::default();
    for mv in moves {
        game.play_uci(mv).unwrap_or_else(|e| panic!("test move {mv}: {e}"));
    }
    *game.board()
}

/// Checks the lines of a search; fails the test (with the transcript) if they are wrong.
fn checked(e: &mut Engine, board: &Board, lines: &[String]) -> Search {
    match check::check_search(board, lines) {
        Ok(s) => s,
        Err(msg) => e.fail(&format!("search of {}: {msg}", board.fen())),
    }
}

/// Sends `go ...`, waits for `bestmove` and checks the whole output against `board`.
fn search(e: &mut Engine, board: &Board, go: &str) -> Search {
    e.send(go);
    let lines = e.read_search();
    checked(e, board, &lines)
}

/// The FEN the engine reports with `d`.
fn engine_fen(e: &mut Engine) -> String {
    let lines = e.command("d");
    let fens: Vec<&String> = lines.iter().filter(|l| l.starts_with("Fen: ")).collect();
    if fens.len() != 1 {
        e.fail(&format!("`d` printed {} Fen lines", fens.len()));
    }
    fens[0]["Fen: ".len()..].to_string()
}

/// Sends a bad command and checks that the only answer is a single `info string` line that
/// mentions `topic`.
fn expect_complaint(e: &mut Engine, command: &str, topic: &str) -> String {
    let lines = e.command(command);
    e.ensure(
        lines.len() == 1 && lines[0].starts_with("info string ") && lines[0].contains(topic),
        format!("`{}` should be answered by one info string line about {topic}, got {lines:?}", short(command)),
    );
    lines[0].clone()
}

fn short(text: &str) -> String {
    if text.chars().count() > 60 { format!("{}...", text.chars().take(60).collect::<String>()) } else { text.into() }
}

/// The depth of an `info depth N ...` line.
fn depth_of(line: &str) -> Option<u32> {
    line.strip_prefix("info depth ")?.split(' ').next()?.parse().ok()
}

/// Waits until the search has reported an iteration of at least `depth` (a `pv` line).
fn wait_for_depth(e: &mut Engine, depth: u32) -> Vec<String> {
    e.read_until(
        &format!("an iteration of depth {depth}"),
        |l| depth_of(l).is_some_and(|d| d >= depth) && l.contains(" pv "),
        TIMEOUT,
    )
}

/// Sends `isready` while a search should still be running and returns the lines received
/// before `readyok`; fails if `bestmove` is among them (the search ended by itself).
fn assert_still_searching(e: &mut Engine, why: &str) -> Vec<String> {
    let lines = e.sync();
    if let Some(b) = lines.iter().find(|l| l.starts_with("bestmove")) {
        e.fail(&format!("{why}, but the engine sent '{b}' before being told to stop"));
    }
    lines
}

// ---------------------------------------------------------------------------------------
// 1. Handshake.

#[derive(Debug)]
struct UciOption {
    name: String,
    kind: String,
    default: Option<String>,
    min: Option<i64>,
    max: Option<i64>,
}

fn parse_option(line: &str) -> Option<UciOption> {
    let rest = line.strip_prefix("option name ")?;
    let (name, rest) = rest.split_once(" type ")?;
    let mut tokens = rest.split(' ');
    let kind = tokens.next()?.to_string();
    let mut opt = UciOption { name: name.to_string(), kind, default: None, min: None, max: None };
    while let Some(key) = tokens.next() {
        let value = tokens.next();
        match key {
            "default" => opt.default = value.map(str::to_string),
            "min" => opt.min = Some(value?.parse().ok()?),
            "max" => opt.max = Some(value?.parse().ok()?),
            _ => return None,
        }
    }
    Some(opt)
}

#[test]
fn handshake_reports_id_options_and_uciok() {
    let mut e = Engine::spawn();
    e.send("uci");
    let lines = e.read_until("uciok", |l| l == "uciok", TIMEOUT);
    let name = lines.iter().find_map(|l| l.strip_prefix("id name ")).map(str::to_string);
    let author = lines.iter().find_map(|l| l.strip_prefix("id author ")).map(str::to_string);
    e.ensure(name.as_deref().is_some_and(|n| n.starts_with("Cutoff")), format!("id name: {name:?}"));
    e.ensure(author.as_deref().is_some_and(|a| !a.trim().is_empty()), format!("id author: {author:?}"));
    let first_option = lines.iter().position(|l| l.starts_with("option ")).unwrap_or(lines.len());
    let ids = lines.iter().position(|l| l.starts_with("id author ")).unwrap_or(usize::MAX);
    e.ensure(ids < first_option, "the id lines must come before the options");

    let mut options = Vec::new();
    for line in &lines[..lines.len() - 1] {
        // `info string`: what the binary says about its build (tests/build_info.rs checks it).
        if line.starts_with("id ") || line.starts_with("info string ") {
            continue;
        }
        match parse_option(line) {
            Some(o) => options.push(o),
            None => e.fail(&format!("unexpected or malformed line during the handshake: '{line}'")),
        }
    }
    // The engine's options are the entries of its `OPTIONS` table: the handshake lists exactly
    // those, in their order, and no list is kept here.
    let declared: Vec<String> = cutoff_uci::option_lines().collect();
    let listed: Vec<&String> = lines.iter().filter(|l| l.starts_with("option ")).collect();
    e.ensure(listed == declared.iter().collect::<Vec<_>>(), format!("expected the declared options {declared:?}"));
    for (i, o) in options.iter().enumerate() {
        let name = &o.name;
        let ok = match o.kind.as_str() {
            "spin" => match (o.default.as_deref().map(str::parse::<i64>), o.min, o.max) {
                (Some(Ok(d)), Some(min), Some(max)) => min <= d && d <= max,
                _ => false,
            },
            "check" => matches!(o.default.as_deref(), Some("true" | "false")) && o.min.is_none(),
            // UCI writes an empty string default as `<empty>`.
            "string" => o.default.as_deref() == Some("<empty>") && o.min.is_none() && o.max.is_none(),
            "button" => o.default.is_none() && o.min.is_none() && o.max.is_none(),
            _ => false,
        };
        e.ensure(ok, format!("option '{name}' should be a well-formed spin, check, string or button: {o:?}"));
        let twice = options[i + 1..].iter().any(|b| b.name.eq_ignore_ascii_case(name));
        e.ensure(!twice, format!("option '{name}' declared twice"));
    }
    // The README's "Options:" paragraph names only options the engine declares: each name in
    // backticks whose words all start with a capital letter and are longer than a letter
    // (`Hash`, `Move Overhead`; not `UseNNUE false`, `info string` or `go movetime T`'s `T`)
    // is one of them. (It need not name them all: an option
    // is one entry of `OPTIONS`, and `uci` lists them.)
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let start = readme.find("Options: ").expect("README.md has an \"Options: \" paragraph");
    let paragraph = &readme[start..];
    let paragraph = &paragraph[..paragraph.find("\n\n").unwrap_or(paragraph.len())];
    let named: Vec<&str> = paragraph
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|name| name.split(' ').all(|word| word.len() > 1 && word.starts_with(|c: char| c.is_ascii_uppercase())))
        .collect();
    e.ensure(named.len() >= 10, format!("README.md's options paragraph names too few options: {named:?}"));
    for name in named {
        e.ensure(options.iter().any(|o| o.name == name), format!("README.md names `{name}`, which is not an option"));
    }
    // Names and defaults that GUIs rely on.
    let find = |name: &str| options.iter().find(|o| o.name == name);
    let default = |name: &str| find(name).and_then(|o| o.default.clone()).unwrap_or_default();
    e.ensure(default("UCI_Chess960") == "false", "UCI_Chess960 must default to false");
    e.ensure(default("Ponder") == "false", "Ponder should default to false");
    e.ensure(default("UCI_ShowWDL") == "false", "UCI_ShowWDL must default to false");
    e.ensure(default("UCI_LimitStrength") == "false", "UCI_LimitStrength must default to false");
    e.ensure(default("OwnBook") == "false", "OwnBook must default to false (match tools bring their own openings)");
    e.ensure(default("Threads") == "1" && find("Threads").and_then(|o| o.min) == Some(1), "Threads: default 1, min 1");
    e.ensure(default("MultiPV") == "1" && find("MultiPV").and_then(|o| o.min) == Some(1), "MultiPV: default 1, min 1");
    e.ensure(find("Hash").and_then(|o| o.min).is_some_and(|m| m >= 1), "Hash min must be at least 1 MiB");
    e.ensure(find("Move Overhead").and_then(|o| o.min) == Some(0), "Move Overhead min 0");

    e.send("isready");
    e.expect_line("readyok", |l| l == "readyok", TIMEOUT);
    // Setting every spin, check and button to a valid value is accepted silently: each to its
    // default (each spin also to its minimum), then a few values that differ from the
    // defaults. (A string option names a file or folder, and setting it reports what it loaded:
    // tests/files.rs, nnue.rs, book.rs and syzygy.rs.)
    let mut commands = Vec::new();
    for o in &options {
        let name = &o.name;
        match (o.kind.as_str(), &o.default) {
            ("button", _) => commands.push(format!("setoption name {name}")),
            ("spin" | "check", Some(default)) => commands.push(format!("setoption name {name} value {default}")),
            _ => {}
        }
        if let Some(min) = o.min {
            commands.push(format!("setoption name {name} value {min}"));
        }
    }
    commands.extend(
        [
            "setoption name Hash value 8",
            "setoption name Ponder value true",
            "setoption name Move Overhead value 10",
            "setoption name UCI_Elo value 2000",
            "setoption name BookFile value <empty>",
            "setoption name hash value 16", // option names are case-insensitive
        ]
        .map(String::from),
    );
    for cmd in &commands {
        let out = e.command(cmd);
        e.ensure(out.is_empty(), format!("`{cmd}` should be accepted silently, got {out:?}"));
    }
    e.quit();
}

// ---------------------------------------------------------------------------------------
// 2. A whole game against itself.

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
// 3. go infinite / stop, and pondering.

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
// 4. Commands during a search.

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
// 5. Bad input.

#[test]
fn bad_input_is_reported_and_ignored() {
    let mut e = Engine::spawn();
    let start = Board::default();

    // go before any position: searches the start position (with a note).
    let s = search(&mut e, &start, "go depth 3");
    e.ensure(s.strings.len() == 1, format!("go before position: expected one info string, got {:?}", s.strings));

    e.send("position startpos moves d2d4");
    let good = startpos_after(&["d2d4"]).fen().to_string();
    let fen = engine_fen(&mut e);
    e.ensure(fen == good, "position startpos moves d2d4");

    let msg = expect_complaint(&mut e, "foo bar baz", "foo");
    e.ensure(msg.contains("foo"), format!("the complaint should name the command: {msg}"));
    expect_complaint(&mut e, "debug maybe", "debug");

    // Bad positions leave the previous one in place.
    let long_moves = format!("position startpos moves {}", ["e2e4"; 5000].join(" "));
    for cmd in [
        "position fen rnbqkbnr/ppppXppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position fen 4k3/8/8/8/8/8/4R3/4K3 w - - 0 1",
        "position fen pppppppp/8/8/8/8/8/8/4K2k w - - 0 1",
        "position fen 4k3/8/8/8/8/8/8/4K3 w KQ - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
        "position fen",
        "position fen moves e2e4",
        "position",
        "position startpos e2e4",
        "position startpos moves e2e4 e7e5 e1e3",
        "position startpos moves e7e5",
        "position startpos moves e2e4 zzzz",
        "position startpos moves e2e4 e7e5 e1g1",
        &long_moves,
    ] {
        let msg = expect_complaint(&mut e, cmd, "position");
        e.ensure(msg.len() < 600, format!("overlong complaint ({} chars) for `{}`", msg.len(), short(cmd)));
        let fen = engine_fen(&mut e);
        e.ensure(fen == good, format!("after `{}` the position is {fen}, expected {good}", short(cmd)));
    }

    // Garbage.
    e.send_bytes(b"\xff\xfe garbage \x80\x81\n");
    let out = e.sync();
    e.ensure(
        out.len() == 1 && out[0].starts_with("info string "),
        format!("invalid UTF-8 should give one info string, got {out:?}"),
    );
    expect_complaint(&mut e, "\u{1}\u{2}\u{7f} \u{1b}[31m", "unknown");
    expect_complaint(&mut e, "\u{e9}\u{e8}\u{1F600}", "unknown");
    let huge = "x".repeat(200_000);
    let msg = expect_complaint(&mut e, &huge, "unknown");
    e.ensure(msg.len() < 600, format!("a huge line should be echoed shortened, got {} chars", msg.len()));
    let out = e.command("   \t  ");
    e.ensure(out.is_empty(), format!("a blank line should be ignored, got {out:?}"));
    let out = e.command("");
    e.ensure(out.is_empty(), format!("an empty line should be ignored, got {out:?}"));
    e.send("  isready \r");
    e.expect_line("readyok (isready with spaces and CR)", |l| l == "readyok", TIMEOUT);

    // Bad options. (Numbers out of range are clamped, not refused: see
    // `spin_options_are_clamped_to_their_range`.)
    for cmd in [
        "setoption name Hash value abc",
        "setoption name Hash value 16.5",
        "setoption name Threads",
        "setoption name NoSuchOption value 3",
        "setoption Hash 16",
        "setoption",
        "setoption name UCI_Chess960 value maybe",
        "setoption name MultiPV value many",
    ] {
        expect_complaint(&mut e, cmd, "setoption");
    }
    // ... and the options are unchanged: standard castling notation, one PV.
    e.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    e.send("go perft 1");
    let perft = e.read_until("perft total", |l| l.starts_with("Nodes searched"), TIMEOUT);
    e.ensure(
        perft.iter().any(|l| l == "e1g1: 1") && !perft.iter().any(|l| l.starts_with("e1h1")),
        format!("UCI_Chess960 must still be off: {perft:?}"),
    );
    e.send("position startpos moves d2d4");
    let b = startpos_after(&["d2d4"]);
    let s = search(&mut e, &b, "go depth 3");
    e.ensure(s.infos.iter().all(|i| i.multipv.unwrap_or(1) == 1), "MultiPV must still be 1");

    // Bad go commands.
    expect_complaint(&mut e, "go perft", "perft");
    expect_complaint(&mut e, "go perft abc", "perft");
    expect_complaint(&mut e, "go perft -1", "perft");
    // A bad searchmoves list is dropped; the depth limit still applies.
    let s = search(&mut e, &b, "go depth 2 searchmoves zzzz");
    e.ensure(s.strings.len() == 1, format!("expected one complaint, got {:?}", s.strings));
    e.ensure(s.infos.iter().all(|i| i.depth.unwrap_or(0) <= 2), "the depth limit must be kept");
    // A limit that cannot be read, with nothing else to end the search: the engine says so
    // and answers on its own (a depth-1 search), never waiting for a stop that a GUI which
    // sent a limit will not send. Black is to move here.
    for go in [
        "go depth abc",
        "go depth 1.5",
        "go depth -",
        "go nodes abc",
        "go nodes 1e6",
        "go movetime abc",
        "go mate x",
        "go btime abc wtime 1000 winc 100",
        "go infinte",
        "go searchmoves zzzz",
        "go ponder depth abc",
    ] {
        e.send(go);
        if go.contains("ponder") {
            // A ponder search waits for ponderhit or stop, whatever its limits; after
            // ponderhit it must end by itself.
            thread::sleep(Duration::from_millis(100));
            e.send("ponderhit");
        }
        let lines = e.read_until(go, |l| l.starts_with("bestmove"), Duration::from_secs(10));
        let s = checked(&mut e, &b, &lines);
        e.ensure(s.strings.len() == 1, format!("`{go}`: expected one complaint, got {:?}", s.strings));
        e.ensure(s.best != "0000", format!("`{go}`: a legal move expected, got {}", s.best));
        e.ensure(s.infos.iter().all(|i| i.depth.unwrap_or(0) <= 1), format!("`{go}`: a depth-1 search expected"));
    }
    // An explicit `infinite` is kept: that search waits for stop.
    e.send("go depth abc infinite");
    let mut lines = wait_for_depth(&mut e, 2);
    lines.extend(assert_still_searching(&mut e, "go depth abc infinite"));
    e.send("stop");
    lines.extend(e.read_search());
    let s = checked(&mut e, &b, &lines);
    e.ensure(s.strings.len() == 1, format!("expected one complaint, got {:?}", s.strings));
    // The complaint names the limit a person would use, not a 64-bit maximum.
    e.send("go depth abc");
    let lines = e.read_search();
    let s = checked(&mut e, &b, &lines);
    let expected = "go: 'depth' needs a whole number of plies, 1 to 124 (larger ones count as 124); \
                    no other limit ends the search, so searching to depth 1 only";
    e.ensure(s.strings == [expected], format!("go depth abc: expected [{expected:?}], got {:?}", s.strings));
    e.send("go movetime x depth 1");
    let lines = e.read_search();
    let s = checked(&mut e, &b, &lines);
    let expected = "go: 'movetime' needs a whole number of milliseconds, 0 to 10000000000 \
                    (larger ones count as 10000000000); searching with the other limits";
    e.ensure(s.strings == [expected], format!("go movetime x: expected [{expected:?}], got {:?}", s.strings));
    // A huge but readable depth or node count is clamped, not refused, even beyond 64 bits.
    for go in ["go depth 9999999", "go depth 99999999999999999999", "go nodes 18446744073709551616"] {
        e.send(go);
        let mut lines = wait_for_depth(&mut e, 2);
        e.send("stop");
        lines.extend(e.read_search());
        let s = checked(&mut e, &b, &lines);
        e.ensure(s.strings.is_empty(), format!("{go}: no complaint expected, got {:?}", s.strings));
    }

    // Still alive and well.
    e.send("isready");
    e.expect_line("readyok", |l| l == "readyok", TIMEOUT);
    let fen = engine_fen(&mut e);
    e.ensure(fen == good, "the position survived");
    e.send("position startpos moves e2e4 c7c5");
    let b = startpos_after(&["e2e4", "c7c5"]);
    let s = search(&mut e, &b, "go depth 5");
    e.ensure(s.strings.is_empty(), format!("no complaints expected: {:?}", s.strings));
    e.ensure(s.infos.iter().any(|i| i.depth == Some(5) && !i.pv.is_empty()), "depth 5 reached");
    e.quit();
}

// ---------------------------------------------------------------------------------------
// 6. perft through UCI.

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
// 6b. Long commands (go perft, bench) run where isready, stop and quit reach them.

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
    // The issue's case: isready right after a perft far too deep to finish.
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
// 6c. go movetime answers close to the time asked for.

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
// 7. Mates and stalemates.

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
// 8. MultiPV and searchmoves.

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
// 10. Diagnostics: d and eval.

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

/// One rule for every spin option: a number outside the declared range is
/// clamped to it, with an `info string` naming the range and the value used; a value that is
/// not a whole number is refused with an `info string` and the option keeps its value.
#[test]
fn spin_options_are_clamped_to_their_range() {
    let mut e = Engine::spawn();
    // Every spin option the engine declares, one beyond each end (above first, so that each
    // ends at its minimum: MultiPV 3 first, so that MultiPV 0, clamped to 1, is seen to change
    // it). No Hash or Threads above their maximum: 64 GiB of hash or 256 search threads are
    // too much for a test machine; the unit test of `options.rs` covers every option's ends.
    e.command("setoption name MultiPV value 3");
    let spins: Vec<UciOption> =
        cutoff_uci::option_lines().filter_map(|l| parse_option(&l)).filter(|o| o.kind == "spin").collect();
    e.ensure(spins.iter().any(|o| o.name == "MultiPV"), format!("no MultiPV among {spins:?}"));
    for o in &spins {
        let (name, min, max) = (&o.name, o.min.unwrap(), o.max.unwrap());
        let range = format!("{min} to {max}");
        let mut tries = vec![(format!("{}", min - 1), min), ("-99999999999999999999".to_string(), min)];
        if name != "Hash" && name != "Threads" {
            tries.insert(0, (format!("{}", max + 1), max));
            tries.insert(1, ("99999999999999999999".to_string(), max));
        }
        for (given, used) in tries {
            let out = e.command(&format!("setoption name {name} value {given}"));
            let expected =
                format!("info string setoption: '{name}' {given} is outside its range {range}; using {used}");
            e.ensure(out == [expected.clone()], format!("{name} {given}: expected [{expected:?}], got {out:?}"));
        }
    }
    // The clamped values are in use: MultiPV 0 gave one line, MultiPV 300 gives every move.
    e.send("position startpos");
    let b = Board::default();
    let s = search(&mut e, &b, "go depth 2");
    e.ensure(s.infos.iter().all(|i| i.multipv.unwrap_or(1) == 1), format!("MultiPV 0 -> 1 expected: {:?}", s.infos));
    let out = e.command("setoption name MultiPV value 300");
    e.ensure(
        out == ["info string setoption: 'MultiPV' 300 is outside its range 1 to 256; using 256"],
        format!("MultiPV 300: {out:?}"),
    );
    // The distinct `multipv` indices of the depth-2 lines.
    let lines = |s: &Search| {
        let set: std::collections::BTreeSet<u32> =
            s.infos.iter().filter(|i| i.depth == Some(2) && !i.pv.is_empty()).filter_map(|i| i.multipv).collect();
        set.into_iter().collect::<Vec<u32>>()
    };
    let s = search(&mut e, &b, "go depth 2");
    let shown = lines(&s);
    e.ensure(shown == (1..=20).collect::<Vec<u32>>(), format!("MultiPV 256: lines 1 to 20 expected, got {shown:?}"));
    // A value that is not a number is refused, and the option keeps its value.
    e.command("setoption name MultiPV value 3");
    for bad in ["three", "3.5", "0x3", "3 lines"] {
        let out = e.command(&format!("setoption name MultiPV value {bad}"));
        let expected = format!(
            "info string setoption: 'MultiPV' needs a whole number from 1 to 256, got '{bad}'; 'MultiPV' unchanged"
        );
        e.ensure(out == [expected.clone()], format!("MultiPV {bad}: expected [{expected:?}], got {out:?}"));
    }
    let s = search(&mut e, &b, "go depth 2");
    let shown = lines(&s);
    e.ensure(shown == [1, 2, 3], format!("MultiPV must still be 3: lines {shown:?} at depth 2"));
    // In range: no message.
    for value in ["Hash value 1", "Threads value 1", "UCI_Elo value 2200", "Move Overhead value 0", "MultiPV value 1"] {
        let out = e.command(&format!("setoption name {value}"));
        e.ensure(out.is_empty(), format!("setoption name {value}: no message expected, got {out:?}"));
    }
    e.quit();
}

/// `spsa` prints the search parameters in OpenBench's SPSA format; a normal build has no UCI
/// options for them (only a `tune` build does), and says so instead of failing silently.
#[test]
fn search_parameters_are_listed_for_spsa_and_fixed_in_normal_builds() {
    let mut e = Engine::spawn();
    let lines = e.command("spsa");
    e.ensure(lines.len() >= 20, format!("expected the parameter list, got {lines:?}"));
    for line in &lines {
        let fields: Vec<&str> = line.split(", ").collect();
        e.ensure(fields.len() == 7 && fields[1] == "int", format!("malformed SPSA line '{line}'"));
        let numbers: Vec<f64> = fields[2..].iter().filter_map(|f| f.parse().ok()).collect();
        e.ensure(numbers.len() == 5, format!("non-numeric field in '{line}'"));
        e.ensure(numbers[1] <= numbers[0] && numbers[0] <= numbers[2], format!("default outside its range: '{line}'"));
    }
    e.ensure(lines.iter().any(|l| l.starts_with("RFP_MARGIN, int, ")), "RFP_MARGIN missing");
    let answer = e.command("setoption name RFP_MARGIN value 90");
    e.ensure(
        answer.iter().any(|l| l.starts_with("info string") && l.contains("unknown option")),
        format!("a normal build should refuse search parameters, got {answer:?}"),
    );
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
