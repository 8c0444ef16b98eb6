//! Files that never end or are far too large, named by `EvalFile` and `BookFile`: a device
//! (`/dev/zero`), a FIFO with no writer, and a sparse file much larger than any valid one. Each
//! is refused with one `info string` at once (within 1 s: nothing is read but a header), the
//! engine answers `isready`, keeps its state (the network or book in use) and plays legal moves.
#![cfg(unix)]

mod common;

use std::time::Duration;

use common::{Engine, TempFile};
use cutoff_board::Board;

/// How long the refusal may take: it needs a `stat` and at most one header read, so a second
/// only catches an engine that reads the file.
const AT_ONCE: Duration = Duration::from_secs(1);

/// A FIFO that no process writes to: opening it for reading would block forever.
struct Fifo(TempFile);

impl Fifo {
    fn new(kind: &str) -> Fifo {
        let file = TempFile::new(kind, "fifo", "placeholder", b"");
        let path = std::path::Path::new(&file.path()).with_file_name("fifo");
        let status = std::process::Command::new("mkfifo").arg(&path).status().expect("mkfifo runs");
        assert!(status.success(), "mkfifo {}", path.display());
        Fifo(file)
    }

    fn path(&self) -> String {
        std::path::Path::new(&self.0.path()).with_file_name("fifo").display().to_string()
    }
}

/// A sparse file of `len` bytes starting with `head` (it takes no disk space, but reading it
/// whole would take minutes and all the memory).
fn sparse_file(kind: &str, head: &[u8], len: u64) -> TempFile {
    let file = TempFile::new(kind, "huge", "huge.bin", head);
    std::fs::OpenOptions::new().write(true).open(file.path()).unwrap().set_len(len).unwrap();
    file
}

/// Sends `setoption name <option> value <path>` and expects one `info string` starting with
/// `prefix` within [`AT_ONCE`], then `readyok`.
fn refused_at_once(e: &mut Engine, option: &str, path: &str, prefix: &str, then: &str) {
    e.sync();
    e.send(&format!("setoption name {option} value {path}"));
    let line = e.expect_line(&format!("the refusal of {path}"), |l| l.starts_with("info string"), AT_ONCE);
    let ok = line.starts_with(prefix) && line.ends_with(then);
    e.ensure(ok, format!("{option} {path}: expected '{prefix}...{then}', got '{line}'"));
    let rest = e.sync();
    e.ensure(rest.is_empty(), format!("{option} {path}: one info string, then also {rest:?}"));
}

fn play(e: &mut Engine, go: &str) -> (Vec<String>, String) {
    e.command("position startpos");
    let (lines, mv) = e.go(go);
    e.ensure(Board::default().parse_uci(&mv).is_ok(), format!("illegal move {mv}"));
    (lines, mv)
}

/// The score of the last `info ... score cp N` line.
fn final_score(lines: &[String]) -> Option<i32> {
    lines.iter().rev().find_map(|l| {
        let mut words = l.split_whitespace().skip_while(|w| *w != "score").skip(1);
        (words.next()? == "cp").then(|| words.next()?.parse().ok()).flatten()
    })
}

#[test]
fn eval_files_that_never_end_or_are_too_large_are_refused_at_once() {
    // The network in use: the committed default, whose depth-1 score of the start position
    // is read before and compared after each refusal.
    let committed = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/crates/uci/networks/default.nnue")).unwrap();
    let good = TempFile::new("files", "net", "net.nnue", &committed);
    let fifo = Fifo::new("files-net");
    // A valid header on a file of 64 GiB.
    let huge = sparse_file("files-net", &committed[..64], 64 << 30);
    let mut e = Engine::spawn();
    e.command(&format!("setoption name EvalFile value {}", good.path()));
    e.command("setoption name UseNNUE value true");
    let (lines, _) = play(&mut e, "go depth 1");
    let before = final_score(&lines);
    e.ensure(before.is_some(), format!("a score: {lines:?}"));
    for path in ["/dev/zero".to_string(), fifo.path(), huge.path()] {
        refused_at_once(&mut e, "EvalFile", &path, "info string EvalFile", "the current network stays in use");
        let (lines, _) = play(&mut e, "go depth 1");
        e.ensure(final_score(&lines) == before, format!("after {path}, the same network: {lines:?}"));
    }
    e.quit();
}

#[test]
fn book_files_that_never_end_or_are_too_large_are_refused_at_once() {
    // A one-entry book that plays 1. e4 (the same as tests/book.rs builds).
    let board = Board::default();
    let entry = cutoff_book::Entry::new(&board, board.parse_uci("e2e4").unwrap(), 1);
    let good = TempFile::new("files", "book", "book.bin", &entry.to_bytes());
    let fifo = Fifo::new("files-book");
    // 3 GiB: a whole number of entries, but more than a book is allowed to be.
    let huge = sparse_file("files-book", &entry.to_bytes(), 3 << 30);
    let mut e = Engine::spawn();
    e.command("setoption name OwnBook value true");
    e.command(&format!("setoption name BookFile value {}", good.path()));
    for path in ["/dev/zero".to_string(), fifo.path(), huge.path()] {
        refused_at_once(&mut e, "BookFile", &path, "info string book", "the current book stays in use");
        // The book loaded before is still the one in use.
        let (lines, mv) = play(&mut e, "go wtime 1000 btime 1000");
        let from_book = lines.iter().any(|l| l == "info string book move e2e4");
        e.ensure(from_book && mv == "e2e4", format!("after {path}, the book's move: {lines:?}"));
    }
    e.quit();
}
