//! Probes positions read from standard input, one FEN a line, and prints `FEN;wdl;dtz` for
//! each (`-` where the probe fails). Used by `scripts/syzygy_check.py` to compare this crate
//! with python-chess's prober.
//!
//! ```text
//! cargo run --release -p cutoff-syzygy --example probe -- data/syzygy < fens.txt
//! ```

use std::io::{BufRead, Write};

use cutoff_board::{Board, CastlingMode};
use cutoff_syzygy::Tablebases;

fn main() {
    let path = std::env::args().nth(1).unwrap_or_else(|| "data/syzygy".to_owned());
    let tb = Tablebases::open_path(&path);
    for problem in tb.problems() {
        eprintln!("{problem}");
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let fen = line.trim();
        if fen.is_empty() {
            continue;
        }
        let show = |v: Option<i32>| v.map_or_else(|| "-".to_owned(), |v| v.to_string());
        let (wdl, dtz) = match Board::from_fen(fen, CastlingMode::Standard) {
            Ok(board) => (tb.probe_wdl(&board).map(|w| w.to_i32()), tb.probe_dtz(&board)),
            Err(_) => {
                let _ = writeln!(out, "{fen};invalid;invalid");
                continue;
            }
        };
        let _ = writeln!(out, "{fen};{};{}", show(wdl), show(dtz));
    }
    for problem in tb.take_new_problems() {
        eprintln!("{problem}");
    }
}
