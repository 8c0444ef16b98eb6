//! Shared helpers for the integration tests: the position files of the repository's `data/`.
#![allow(dead_code)]

use std::path::PathBuf;

use cutoff_board::{Board, CastlingMode};

/// The repository's data folder, `<repo>/data`.
pub fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data")
}

fn read(relative: &str) -> String {
    let path = data_dir().join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn parse(fen: &str, chess960: bool) -> Board {
    Board::from_fen(fen, CastlingMode::from_chess960(chess960)).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The positions of a perft suite (`FEN ;D1 n ;...` lines).
pub fn perft_suite(name: &str) -> Vec<Board> {
    read(&format!("perft/{name}"))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| parse(l.split(';').next().unwrap().trim(), name.contains("960")))
        .collect()
}

/// The positions of `bench.epd` (one FEN a line).
pub fn bench() -> Vec<Board> {
    read("bench.epd").lines().filter(|l| !l.trim().is_empty()).map(|l| parse(l.trim(), false)).collect()
}

/// Both perft suites and the bench positions.
pub fn all_roots() -> Vec<Board> {
    let mut v = perft_suite("standard.epd");
    v.extend(perft_suite("chess960.epd"));
    v.extend(bench());
    v
}

/// Every root position and every position one legal move away from it.
pub fn roots_and_children() -> Vec<Board> {
    let mut out = Vec::new();
    for root in all_roots() {
        for mv in root.legal_moves() {
            let mut child = root;
            child.play_unchecked(mv);
            out.push(child);
        }
        out.push(root);
    }
    out
}

/// A board from a standard FEN.
pub fn board(fen: &str) -> Board {
    parse(fen, false)
}
