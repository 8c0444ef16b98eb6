//! The evaluation is colour-symmetric, and is the documented formula: positions from random
//! games evaluate the same as their colour-flipped mirrors (incrementally and from scratch),
//! and the same as a plain reference implementation written from the crate documentation.

mod common;

use std::collections::HashSet;
use std::sync::Arc;

use common::TestRng;
use cutoff_board::{Board, Color, Move, Square};
use cutoff_nnue::{AccumulatorStack, INPUTS, Network};

/// Positions from random games from every test start position.
fn random_positions(seed: u64, games: usize) -> Vec<Board> {
    let mut rng = TestRng::new(seed);
    let starts = common::all_starts();
    let mut positions = Vec::new();
    for game in 0..games {
        let mut board = starts[game % starts.len()];
        for _ in 0..100 {
            positions.push(board);
            let Some(mv) = common::pick_move(&board, &mut rng) else { break };
            board.play_unchecked(mv);
        }
    }
    positions
}

/// The move of the mirrored game: both squares flipped vertically, the same kind.
fn mirror_move(mv: Move) -> Move {
    Move::new(mv.from().flip_rank(), mv.to().flip_rank(), mv.kind())
}

#[test]
fn mirrored_positions_evaluate_the_same() {
    let network = common::realistic_network(21, 32);
    let positions = random_positions(22, 60);
    assert!(positions.len() > 4_000, "{}", positions.len());
    let mut evaluations = HashSet::new();
    for board in &positions {
        let mirrored = board.mirrored();
        assert_ne!(board.side_to_move(), mirrored.side_to_move());
        let eval = network.evaluate(board);
        assert_eq!(eval, network.evaluate(&mirrored), "{}\nmirrored: {}", board.fen(), mirrored.fen());
        evaluations.insert(eval);
    }
    // Not a trivial symmetry: the positions get many different evaluations.
    assert!(evaluations.len() > 500, "only {} different evaluations", evaluations.len());
}

#[test]
fn mirrored_games_have_swapped_accumulators() {
    // Play each game and its mirror image on two stacks: White's accumulator of one is
    // Black's of the other at every ply, and the evaluations agree.
    let network = Arc::new(common::extreme_network(23, 16));
    let mut stack = AccumulatorStack::new(Arc::clone(&network));
    let mut mirror = AccumulatorStack::new(Arc::clone(&network));
    let mut rng = TestRng::new(24);
    let starts = common::all_starts();
    let mut plies = 0;
    for game in 0..40 {
        let mut board = starts[game % starts.len()];
        let mut mirrored = board.mirrored();
        stack.reset(&board);
        mirror.reset(&mirrored);
        for _ in 0..100 {
            assert_eq!(
                stack.accumulator(&board, Color::White),
                mirror.accumulator(&mirrored, Color::Black),
                "{}",
                board.fen()
            );
            assert_eq!(
                stack.accumulator(&board, Color::Black),
                mirror.accumulator(&mirrored, Color::White),
                "{}",
                board.fen()
            );
            assert_eq!(stack.evaluate(&board), mirror.evaluate(&mirrored));
            let Some(mv) = common::pick_move(&board, &mut rng) else { break };
            let mirrored_mv = mirror_move(mv);
            assert!(mirrored.is_legal(mirrored_mv), "{} in {}", mirrored.uci(mirrored_mv), mirrored.fen());
            stack.push(&board, mv);
            mirror.push(&mirrored, mirrored_mv);
            board.play_unchecked(mv);
            mirrored.play_unchecked(mirrored_mv);
            assert_eq!(board.mirrored().key(), mirrored.key()); // (the move counters may differ)
            plies += 1;
        }
    }
    assert!(plies > 2_000, "{plies}");
}

/// The network evaluation written directly from the documentation, in `i64`, with the
/// feature index computed from the pieces' names (not with `feature_index`).
fn reference_eval(network: &Network, board: &Board) -> i64 {
    let n = network.hidden();
    let accumulator = |perspective: Color| -> Vec<i64> {
        let mut acc: Vec<i64> = network.feature_bias().iter().map(|&b| i64::from(b)).collect();
        for sq in Square::ALL {
            let Some(piece) = board.piece_on(sq) else { continue };
            let piece_type = "pnbrqk".find(piece.kind().to_char()).unwrap();
            let rank = sq.index() / 8;
            let file = sq.index() % 8;
            let relative_rank = if perspective == Color::White { rank } else { 7 - rank };
            let theirs = usize::from(piece.color() != perspective);
            let feature = (theirs * 6 + piece_type) * 64 + relative_rank * 8 + file;
            assert!(feature < INPUTS);
            for (a, &w) in acc.iter_mut().zip(&network.feature_weights()[feature * n..(feature + 1) * n]) {
                *a += i64::from(w);
            }
        }
        acc
    };
    let stm = board.side_to_move();
    let (ours, theirs) = (accumulator(stm), accumulator(!stm));
    let screlu = |x: i64| x.clamp(0, 255) * x.clamp(0, 255);
    // The output bucket: (pieces - 2) × B / 32, at most B - 1.
    let buckets = network.output_bias().len();
    let pieces = Square::ALL.into_iter().filter(|&sq| board.piece_on(sq).is_some()).count();
    let bucket = ((pieces - 2) * buckets / 32).min(buckets - 1);
    let w = &network.output_weights()[bucket * 2 * n..(bucket + 1) * 2 * n];
    let mut sum = 0i64;
    for i in 0..n {
        sum += screlu(ours[i]) * i64::from(w[i]) + screlu(theirs[i]) * i64::from(w[n + i]);
    }
    (sum / 255 + i64::from(network.output_bias()[bucket])) * 200 / (255 * 256)
}

#[test]
fn evaluation_is_the_documented_formula() {
    for (network, seed) in [
        (common::realistic_network(31, 16), 32),
        (common::realistic_network(33, 256), 34),
        (common::extreme_network(35, 1024), 36),
    ] {
        let positions = random_positions(seed, 12);
        for board in &positions {
            let expected = reference_eval(&network, board);
            assert_eq!(i64::from(network.evaluate(board)), expected, "N = {}, {}", network.hidden(), board.fen());
        }
    }
}
