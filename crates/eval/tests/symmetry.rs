//! Colour symmetry and consistency of the evaluation over many real positions: both perft
//! suites (standard and Chess960), every position one legal move from them, and the bench
//! positions.

mod common;

use cutoff_board::Color;
use cutoff_eval::{MAX_EVAL, PawnCache, Term, evaluate, evaluate_cached, phase, trace};

#[test]
fn mirrored_positions_evaluate_the_same() {
    let positions = common::roots_and_children();
    assert!(positions.len() > 25_000, "only {} positions", positions.len());
    for b in &positions {
        let m = b.mirrored();
        assert_eq!(evaluate(b), evaluate(&m), "{}\nmirrored: {}", b.fen(), m.fen());
        assert_eq!(phase(b), phase(&m), "{}", b.fen());
    }
}

#[test]
fn mirrored_terms_swap_colours() {
    for b in &common::roots_and_children() {
        let (t, m) = (trace(b), trace(&b.mirrored()));
        for term in Term::ALL {
            assert_eq!(t.get(term, Color::White), m.get(term, Color::Black), "{term} {}", b.fen());
            assert_eq!(t.get(term, Color::Black), m.get(term, Color::White), "{term} {}", b.fen());
        }
    }
}

#[test]
fn trace_cache_and_plain_evaluation_agree() {
    // A tiny cache, so entries are constantly replaced and collisions of slots are exercised.
    let mut small = PawnCache::new(16);
    let mut normal = PawnCache::default();
    for b in &common::roots_and_children() {
        let e = evaluate(b);
        assert_eq!(trace(b).eval(), e, "{}", b.fen());
        assert_eq!(evaluate_cached(b, &mut small), e, "{}", b.fen());
        assert_eq!(evaluate_cached(b, &mut normal), e, "{}", b.fen());
        assert!(e.abs() <= MAX_EVAL);
        let p = phase(b);
        assert!((0..=24).contains(&p));
    }
}
