//! Probes positions read from standard input, one FEN a line, and prints `FEN;wdl;dtz` for
//! each (`-` where the probe fails). Used by `scripts/syzygy_check.py` to compare this crate
//! with python-chess's prober.
//!
//! With `--memory` it also prints, on standard error at the end, the process's resident
//! memory (`VmRSS`, its peak `VmHWM`, and its anonymous and file-backed parts from
//! `/proc/self/status`, Linux), how much of the mapped table files is resident (from
//! `/proc/self/smaps`) and the total size of the table files, to show that mapped tables cost only the pages the probes touched.
//!
//! ```text
//! cargo run --release -p cutoff-syzygy --example probe -- data/syzygy < fens.txt
//! cargo run --release -p cutoff-syzygy --example probe -- data/syzygy --memory < fens.txt
//! ```

use std::io::{BufRead, Write};

use cutoff_board::{Board, CastlingMode};
use cutoff_syzygy::Tablebases;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let memory = args.iter().any(|a| a == "--memory");
    let path = args.iter().find(|a| *a != "--memory").cloned().unwrap_or_else(|| "data/syzygy".to_owned());
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
    if memory {
        drop(out);
        report_memory(&path);
    }
}

/// Prints `VmRSS`, `VmHWM` and the split of the resident memory into anonymous memory (the
/// process's own) and file pages (the mapped tables), and the bytes of the table files under
/// `path`.
fn report_memory(path: &str) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let wanted = ["VmRSS", "VmHWM", "RssAnon", "RssFile"];
    for line in status.lines().filter(|l| wanted.iter().any(|w| l.starts_with(w))) {
        eprintln!("{}", line.split_whitespace().collect::<Vec<_>>().join(" "));
    }
    // Per mapping, /proc/self/smaps gives its size and its resident part: sum them over the
    // mapped table files.
    let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap_or_default();
    let (mut mapped, mut mapped_kb, mut resident_kb, mut in_table) = (0, 0u64, 0u64, false);
    for line in smaps.lines() {
        let mut words = line.split_whitespace();
        let first = words.next().unwrap_or("");
        if first.contains('-') && !first.ends_with(':') {
            in_table = line.ends_with(".rtbw") || line.ends_with(".rtbz");
            mapped += usize::from(in_table);
        } else if in_table {
            let kb = words.next().and_then(|w| w.parse::<u64>().ok()).unwrap_or(0);
            match first {
                "Size:" => mapped_kb += kb,
                "Rss:" => resident_kb += kb,
                _ => {}
            }
        }
    }
    eprintln!("tables mapped: {mapped} files, {mapped_kb} kB, of which resident {resident_kb} kB");
    let mut total = 0u64;
    let mut files = 0;
    for dir in std::env::split_paths(path) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let p = entry.path();
            if p.extension().is_some_and(|x| x == "rtbw" || x == "rtbz") {
                total += entry.metadata().map(|m| m.len()).unwrap_or(0);
                files += 1;
            }
        }
    }
    eprintln!("table files: {files}, {total} bytes ({} kB)", total / 1024);
}
