//! The tuner's view of the evaluation (feature counts times weights) agrees with the
//! evaluation itself on many real positions, so weights fitted to the counts mean what the
//! tuner thinks they mean.

mod common;

use cutoff_board::Color;
use cutoff_eval::params::{NUM_WEIGHTS, Table, compiled_weights};
use cutoff_eval::{MAX_EVAL, S, evaluate, phase, tune};

/// The linear evaluation differs from `evaluate` only by rounding: the phase blend truncates
/// (< 1 cp) and each side's scaled king danger truncates its mg and eg halves (< 1 cp each).
const ROUNDING: f64 = 3.0;

#[test]
fn linear_evaluation_matches_evaluate() {
    let weights = compiled_weights();
    let positions = common::roots_and_children();
    assert!(positions.len() > 25_000);
    let mut exact = 0;
    for b in &positions {
        let e = evaluate(b);
        if e.abs() == MAX_EVAL {
            continue;
        }
        let white = if b.side_to_move() == Color::White { e } else { -e };
        let f = tune::features(b);
        assert_eq!(f.phase, phase(b));
        let linear = f.white_eval(&weights);
        assert!((linear - f64::from(white)).abs() < ROUNDING, "{}: linear {linear}, evaluate {white}", b.fen());
        exact += usize::from((linear.trunc() - f64::from(white)).abs() < 1.0);
    }
    // Most positions have no king danger to round: the blend's truncation is then the only
    // difference.
    assert!(exact * 2 > positions.len(), "{exact} of {}", positions.len());
}

#[test]
fn every_weight_changes_the_linear_evaluation_where_it_counts() {
    // Moving one weight moves the linear evaluation by its count, phase-blended.
    let b = cutoff_board::Board::from_fen(
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        cutoff_board::CastlingMode::Standard,
    )
    .unwrap();
    let f = tune::features(&b);
    let base = compiled_weights();
    for &(i, count) in &f.counts {
        let mut w = base.clone();
        w[i as usize] += S(24, 0);
        let delta = f.white_eval(&w) - f.white_eval(&base);
        assert!((delta - f64::from(count) * f64::from(f.phase)).abs() < 1e-9, "weight {i}");
    }
    assert!(f.counts.iter().all(|&(i, _)| (i as usize) < NUM_WEIGHTS));
    // The tempo belongs to the side to move.
    let tempo = Table::Tempo.offset() as u16;
    assert_eq!(f.counts.iter().find(|&&(i, _)| i == tempo).map(|&(_, c)| c), Some(1.0));
}

#[test]
fn rendered_weights_round_trip() {
    // The generated file of the compiled weights is the committed one, header aside.
    let source = tune::render_weights(&compiled_weights(), "header");
    let committed = include_str!("../src/weights.rs");
    let body = |s: &str| s.lines().skip_while(|l| l.starts_with("//!")).collect::<Vec<_>>().join("\n");
    assert_eq!(body(&source), body(committed));
}
