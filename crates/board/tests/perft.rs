//! Every perft count of the shared suites up to a node budget that keeps `cargo test` fast.
//! `cargo xtask perft` runs the full depths in release.

mod common;

use cutoff_board::{Board, CastlingMode};

fn run(name: &str, max_nodes: u64) {
    let mut checked = 0;
    for line in common::suite(name) {
        let board = Board::from_fen(&line.fen, CastlingMode::from_chess960(line.chess960))
            .unwrap_or_else(|e| panic!("{}: {e}", line.fen));
        for &(depth, expected) in &line.counts {
            if expected > max_nodes {
                continue;
            }
            assert_eq!(board.perft(depth), expected, "{} depth {depth}", line.fen);
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} counts checked");
}

#[test]
fn standard_suite_shallow() {
    run("standard.epd", 2_000_000);
}

#[test]
fn chess960_suite_shallow() {
    run("chess960.epd", 200_000);
}
