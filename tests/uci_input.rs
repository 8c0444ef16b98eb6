//! End-to-end tests of bad input over UCI: each bad command is answered by one `info string`
//! and ignored, and the engine goes on.

mod common;

use std::thread;
use std::time::Duration;

use common::uci::*;
use common::{Engine, TIMEOUT};
use cutoff_board::Board;

// ---------------------------------------------------------------------------------------
// Bad input.

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
