//! Probes a Polyglot book for positions read from standard input, one FEN a line, and prints
//! for each: the Polyglot key in hex, then the book moves as `uci:weight`, sorted by move text.
//! The output format matches `scripts/compare_polyglot.py`, which checks it against python-chess.
//!
//! ```text
//! echo "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" | cargo run -p cutoff-book --example book_probe -- book.bin
//! ```

use std::io::{BufRead, Write};
use std::process::ExitCode;

use cutoff_board::Board;
use cutoff_book::{Book, polyglot_key};

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: probe <book.bin> < fens.txt");
        return ExitCode::FAILURE;
    };
    let book = match Book::open(&path) {
        Ok(book) => book,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    eprintln!("{path}: {} entries", book.len());
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("stdin");
        let fen = line.trim();
        if fen.is_empty() {
            continue;
        }
        let board = match Board::from_fen(fen, cutoff_board::CastlingMode::Standard) {
            Ok(board) => board,
            Err(e) => {
                eprintln!("{fen}: {e}");
                return ExitCode::FAILURE;
            }
        };
        let mut moves: Vec<String> =
            book.entries(&board).iter().map(|m| format!("{}:{}", board.uci(m.mv), m.weight)).collect();
        moves.sort();
        writeln!(out, "{:016x} {}", polyglot_key(&board), moves.join(" ")).expect("stdout");
    }
    ExitCode::SUCCESS
}
