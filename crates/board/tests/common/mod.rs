//! Shared helpers for the integration tests: the perft suites of the repository's `data/perft/`.
#![allow(dead_code)]

use std::path::PathBuf;

/// The repository's data folder, `<repo>/data`.
pub fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data")
}

pub struct PerftLine {
    pub fen: String,
    pub counts: Vec<(u32, u64)>,
    pub chess960: bool,
}

impl PerftLine {
    /// The line's position, read in the castling mode of its suite.
    pub fn board(&self) -> cutoff_board::Board {
        let mode =
            if self.chess960 { cutoff_board::CastlingMode::Chess960 } else { cutoff_board::CastlingMode::Standard };
        cutoff_board::Board::from_fen(&self.fen, mode).unwrap()
    }
}

pub fn suite(name: &str) -> Vec<PerftLine> {
    let path = data_dir().join("perft").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap().trim().to_string();
            let counts = parts
                .map(|p| {
                    let mut it = p.split_whitespace();
                    let d = it.next().unwrap().trim_start_matches('D').parse().unwrap();
                    let n = it.next().unwrap().parse().unwrap();
                    (d, n)
                })
                .collect();
            PerftLine { fen, counts, chess960: name.contains("960") }
        })
        .collect()
}

/// Both suites.
pub fn all_lines() -> Vec<PerftLine> {
    let mut v = suite("standard.epd");
    v.extend(suite("chess960.epd"));
    v
}

/// The crate's seeded generator ([`cutoff_board::SplitMix64`]) with a bounded draw, so every
/// run of the property tests checks the same values.
pub struct TestRng(cutoff_board::SplitMix64);

impl TestRng {
    pub fn new(seed: u64) -> TestRng {
        TestRng(cutoff_board::SplitMix64::new(seed))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A value in `0..n` (`n > 0`; the slight modulo bias does not matter here).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}
