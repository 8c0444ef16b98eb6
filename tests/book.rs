//! End-to-end tests of the opening book over UCI (`OwnBook`, `BookFile`): book moves come
//! from the book and are legal, the choice follows the book's weights, and a missing or
//! corrupt book is reported with `info string` while play goes on. Files that never end or
//! are far too large are in `tests/files.rs`.

mod common;

use std::time::Duration;

use common::check;
use common::{Engine, TempFile};
use cutoff_board::{Board, Game};
use cutoff_book::{Book, Entry};

/// A book with `moves` (UCI notation, weight) for the position after `line` from the start.
fn book_after(line: &[&str], moves: &[(&str, u16)]) -> Vec<u8> {
    let mut game = Game::default();
    for mv in line {
        game.play_uci(mv).unwrap();
    }
    let board = *game.board();
    let entries = moves.iter().map(|&(mv, weight)| Entry::new(&board, board.parse_uci(mv).unwrap(), weight));
    Book::from_entries(entries).as_bytes().to_vec()
}

#[test]
fn book_moves_come_from_the_book_and_follow_its_weights() {
    let book = TempFile::new("book", "weights", "book.bin", &book_after(&[], &[("e2e4", 3), ("d2d4", 1), ("g1f3", 0)]));
    let mut e = Engine::spawn();
    let out = e.command(&format!("setoption name BookFile value {}", book.path()));
    e.ensure(out.is_empty(), format!("loading a good book should be silent, got {out:?}"));
    e.command("setoption name OwnBook value true");
    let mut counts = std::collections::HashMap::new();
    for _ in 0..200 {
        e.command("position startpos");
        let (lines, mv) = e.go("go wtime 60000 btime 60000");
        e.ensure(lines.iter().any(|l| l.starts_with("info string book move")), format!("not a book move: {lines:?}"));
        *counts.entry(mv).or_insert(0) += 1;
    }
    let (e4, d4) = (counts.get("e2e4").copied().unwrap_or(0), counts.get("d2d4").copied().unwrap_or(0));
    e.ensure(e4 + d4 == 200, format!("only book moves with a weight may be played: {counts:?}"));
    // Weights 3:1: e2e4 about 150 of 200 times (binomial sd ~6).
    e.ensure((120..=180).contains(&e4), format!("e2e4 should come about 3 times in 4: {counts:?}"));

    // Out of the book (after 1.e4 the book has nothing) the engine searches as usual.
    e.command("position startpos moves e2e4");
    let (lines, mv) = e.go("go depth 3");
    let board = *{
        let mut g = Game::default();
        g.play_uci("e2e4").unwrap();
        g
    }
    .board();
    e.ensure(!lines.iter().any(|l| l.contains("book move")), "no book move outside the book");
    if let Err(msg) = check::check_search(&board, &lines) {
        e.fail(&format!("search after the book: {msg}"));
    }
    e.ensure(board.parse_uci(&mv).is_ok(), format!("illegal move {mv}"));

    // `go infinite` and OwnBook off always search.
    e.command("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(50));
    e.send("stop");
    let lines = e.read_search();
    e.ensure(!lines.iter().any(|l| l.contains("book move")), "go infinite must search");
    e.command("setoption name OwnBook value false");
    let (lines, _) = e.go("go depth 2");
    e.ensure(!lines.iter().any(|l| l.contains("book move")), "OwnBook false must search");
    e.quit();
}

#[test]
fn bad_books_are_reported_and_play_goes_on() {
    let good = book_after(&[], &[("e2e4", 1)]);
    let truncated = TempFile::new("book", "truncated", "book.bin", &good[..good.len() - 1]);
    // Two one-entry books written one after the other, the larger key first.
    let other = book_after(&["e2e4"], &[("e7e5", 1)]);
    let key = |b: &[u8]| u64::from_be_bytes(b[..8].try_into().unwrap());
    let (first, second) = if key(&good) > key(&other) { (&good, &other) } else { (&other, &good) };
    let unsorted = TempFile::new("book", "unsorted", "book.bin", &[first.as_slice(), second.as_slice()].concat());
    let missing = std::env::temp_dir().join("cutoff-no-such-dir/book.bin").display().to_string();

    let mut e = Engine::spawn();
    e.command("setoption name OwnBook value true");
    for (what, path) in [("missing", missing), ("truncated", truncated.path()), ("unsorted", unsorted.path())] {
        let out = e.command(&format!("setoption name BookFile value {path}"));
        e.ensure(
            out.len() == 1 && out[0].starts_with("info string book") && out[0].contains("without a book"),
            format!("a {what} book should give one info string, got {out:?}"),
        );
        // Play goes on: a legal searched move.
        e.command("position startpos");
        let (lines, mv) = e.go("go depth 2");
        e.ensure(!lines.iter().any(|l| l.contains("book move")), format!("no book move from a {what} book"));
        e.ensure(Board::default().parse_uci(&mv).is_ok(), format!("illegal move {mv}"));
    }
    // A good book after bad ones works.
    let book = TempFile::new("book", "good", "book.bin", &good);
    e.command(&format!("setoption name BookFile value {}", book.path()));
    e.command("position startpos");
    let (_, mv) = e.go("go wtime 1000 btime 1000");
    e.ensure(mv == "e2e4", format!("the book's only move, got {mv}"));
    e.quit();
}
