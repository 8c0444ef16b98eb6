//! Times the evaluation over the bench positions.
//!
//! ```text
//! cargo run --release -p cutoff-eval --example eval_speed            # timing
//! cargo run --release -p cutoff-eval --example eval_speed -- "<FEN>"  # print one trace
//! ```
//!
//! The positions come from the repository's `data/bench.epd`.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

use cutoff_board::{Board, CastlingMode};
use cutoff_eval::{PawnCache, evaluate, evaluate_cached, trace};

fn main() {
    if let Some(fen) = std::env::args().nth(1) {
        let board = Board::from_fen(&fen, CastlingMode::Standard).unwrap_or_else(|e| panic!("{fen}: {e}"));
        println!("{board}\n{}", trace(&board));
        return;
    }

    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/bench.epd");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let boards: Vec<Board> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| Board::from_fen(l.trim(), CastlingMode::Standard).unwrap())
        .collect();

    const ROUNDS: usize = 40_000;
    let n = (ROUNDS * boards.len()) as f64;

    let start = Instant::now();
    let mut sum = 0i64;
    for _ in 0..ROUNDS {
        for b in &boards {
            sum += evaluate(black_box(b)) as i64;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "evaluate:        {n:.0} evals in {secs:.3} s = {:.2} M evals/s ({:.1} ns each)",
        n / secs / 1e6,
        secs / n * 1e9
    );

    let mut cache = PawnCache::default();
    let start = Instant::now();
    let mut sum_cached = 0i64;
    for _ in 0..ROUNDS {
        for b in &boards {
            sum_cached += evaluate_cached(black_box(b), &mut cache) as i64;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "evaluate_cached: {n:.0} evals in {secs:.3} s = {:.2} M evals/s ({:.1} ns each)",
        n / secs / 1e6,
        secs / n * 1e9
    );
    assert_eq!(sum, sum_cached);
    println!("({} positions, checksum {sum})", boards.len());
}
