//! Incremental updates equal a refresh, exactly: random games (with null moves and
//! take-backs) from the standard start position, Chess960 start positions and positions
//! rich in en passant, promotions and castling, checked after every push and every pop.

mod common;

use std::sync::Arc;

use common::TestRng;
use cutoff_board::{Board, CastlingSide, Color, Move, MoveKind, PieceType};
use cutoff_nnue::{AccumulatorStack, KingBuckets, Network};

/// How often each kind of update was checked.
#[derive(Debug, Default)]
struct Seen {
    quiet: usize,
    capture: usize,
    en_passant: usize,
    promotion: usize,
    capture_promotion: usize,
    castle: usize,
    /// Castlings where the king or the rook stays put or where they swap squares.
    castle_overlap: usize,
    null: usize,
    pop: usize,
    /// King moves (castling included) that change the mover's king bucket.
    king_bucket: usize,
    /// King moves that cross the mirror line (files d and e) of a mirroring layout.
    king_mirror: usize,
}

impl Seen {
    fn count_king(&mut self, layout: &KingBuckets, before: &Board, after: &Board) {
        let us = before.side_to_move();
        let (from, to) = (before.king(us), after.king(us));
        if layout.bucket(us, from) != layout.bucket(us, to) {
            self.king_bucket += 1;
        }
        if layout.flipped(us, from) != layout.flipped(us, to) {
            self.king_mirror += 1;
        }
    }

    fn count(&mut self, board: &Board, mv: Move) {
        match mv.kind() {
            MoveKind::Quiet | MoveKind::DoublePush => self.quiet += 1,
            MoveKind::Capture => self.capture += 1,
            MoveKind::EnPassant => self.en_passant += 1,
            MoveKind::Castle => {
                self.castle += 1;
                let us = board.side_to_move();
                let side = if mv.to().file() > mv.from().file() { CastlingSide::King } else { CastlingSide::Queen };
                let (king, rook) = (side.king_destination(us), side.rook_destination(us));
                if king == mv.from() || rook == mv.to() || king == mv.to() {
                    self.castle_overlap += 1;
                }
            }
            _ if mv.is_capture() => self.capture_promotion += 1,
            _ => self.promotion += 1,
        }
    }
}

/// Checks the stack's current accumulators against a refresh of `board`, element by element,
/// and its evaluation against a from-scratch one.
fn check(stack: &mut AccumulatorStack, fresh: &mut AccumulatorStack, board: &Board, what: &str) {
    // The evaluation first, which computes both perspectives together (the search's path);
    // `symmetry.rs` asks for one perspective at a time.
    let eval = stack.evaluate(board);
    assert_eq!(eval, stack.network().evaluate(board), "after {what} in {}", board.fen());
    fresh.reset(board);
    for perspective in Color::ALL {
        // The refresh cache's accumulator (of `fresh`) is the one computed from scratch.
        let scratch = stack.network().accumulator(board, perspective);
        assert_eq!(fresh.accumulator(board, perspective), scratch.as_slice(), "{what}: {}", board.fen());
        let hidden = stack.network().hidden();
        let (incremental, refreshed) = (stack.accumulator(board, perspective), fresh.accumulator(board, perspective));
        assert_eq!(incremental.len(), hidden);
        if let Some(i) = (0..incremental.len()).find(|&i| incremental[i] != refreshed[i]) {
            panic!(
                "after {what}: {perspective}'s accumulator differs at neuron {i} ({} != {}) in {}",
                incremental[i],
                refreshed[i],
                board.fen()
            );
        }
    }
}

/// Plays `games` random games of up to 120 plies with `network`, checking every step.
fn random_games(network: Network, seed: u64, games: usize, seen: &mut Seen) {
    let network = Arc::new(network);
    let mut rng = TestRng::new(seed);
    let mut stack = AccumulatorStack::new(Arc::clone(&network));
    let mut fresh = AccumulatorStack::new(Arc::clone(&network));
    let starts = common::all_starts();
    // The stack starts at the standard start position.
    check(&mut stack, &mut fresh, &Board::default(), "new");

    for game in 0..games {
        let root = starts[game % starts.len()];
        stack.reset(&root);
        check(&mut stack, &mut fresh, &root, "reset");
        // The boards along the path: path[ply] is the position at the stack's ply.
        let mut path = vec![root];
        for _ in 0..120 {
            let board = *path.last().unwrap();
            if board.is_fifty_move_draw() {
                break;
            }
            let null = if rng.one_in(12) { board.null_move() } else { None };
            let child = if let Some(child) = null {
                stack.push_null();
                seen.null += 1;
                check(&mut stack, &mut fresh, &child, "a null move");
                child
            } else {
                let Some(mv) = common::pick_move(&board, &mut rng) else { break };
                stack.push(&board, mv);
                let mut child = board;
                child.play_unchecked(mv);
                seen.count(&board, mv);
                seen.count_king(network.king_buckets(), &board, &child);
                check(&mut stack, &mut fresh, &child, &format!("{} ({:?})", board.uci(mv), mv.kind()));
                child
            };
            path.push(child);
            assert_eq!(stack.ply(), path.len() - 1);

            // Now and then, take back a few plies (and play on from there).
            if rng.one_in(10) {
                for _ in 0..rng.between(1, 3) {
                    if path.len() > 1 {
                        stack.pop();
                        path.pop();
                        seen.pop += 1;
                        check(&mut stack, &mut fresh, path.last().unwrap(), "a pop");
                    }
                }
            }
        }
        // Unwind the whole game, as a search returns to its root.
        while path.len() > 1 {
            stack.pop();
            path.pop();
            seen.pop += 1;
            check(&mut stack, &mut fresh, path.last().unwrap(), "a pop");
        }
        assert_eq!(stack.ply(), 0);
    }
}

#[test]
fn incremental_updates_equal_a_refresh() {
    let mut seen = Seen::default();
    random_games(common::realistic_network(1, 32), 11, 240, &mut seen);
    random_games(common::extreme_network(2, 16), 12, 120, &mut seen);
    random_games(common::realistic_network(3, 128), 13, 60, &mut seen);
    println!("{seen:?}");
    // Every kind of update was really exercised, many times.
    assert!(seen.quiet > 20_000, "{seen:?}");
    assert!(seen.capture > 2_000, "{seen:?}");
    assert!(seen.en_passant > 50, "{seen:?}");
    assert!(seen.promotion > 300, "{seen:?}");
    assert!(seen.capture_promotion > 60, "{seen:?}");
    assert!(seen.castle > 250, "{seen:?}");
    assert!(seen.castle_overlap > 100, "{seen:?}");
    assert!(seen.null > 2_000, "{seen:?}");
    assert!(seen.pop > 20_000, "{seen:?}");
}

#[test]
fn bucketed_incremental_updates_equal_a_refresh() {
    let mut seen = Seen::default();
    for (i, layout) in common::layouts().into_iter().enumerate() {
        let i = i as u64;
        random_games(common::bucketed_network(40 + i, 32, layout, 100), 50 + i, 60, &mut seen);
        random_games(common::bucketed_network(60 + i, 16, layout, 1_000), 70 + i, 30, &mut seen);
    }
    random_games(common::bucketed_network(80, 64, common::layouts()[0], 100), 81, 40, &mut seen);
    println!("{seen:?}");
    assert!(seen.king_bucket > 1_000, "{seen:?}");
    assert!(seen.king_mirror > 300, "{seen:?}");
    assert!(seen.castle > 100 && seen.castle_overlap > 30, "{seen:?}");
    assert!(seen.en_passant > 20 && seen.promotion > 100 && seen.capture_promotion > 20, "{seen:?}");
    assert!(seen.null > 500 && seen.pop > 5_000, "{seen:?}");
}

/// Sparse evaluations (as `sparse_evaluations_equal_a_refresh`) with king-bucketed networks: walks
/// that stop at a king move and refresh one perspective through the cache, the other walking on.
#[test]
fn bucketed_sparse_evaluations_equal_a_refresh() {
    for (i, layout) in common::layouts().into_iter().enumerate() {
        sparse_games(Arc::new(common::bucketed_network(90 + i as u64, 32, layout, 100)), 95 + i as u64, 60);
    }
}

#[test]
fn a_deep_path_grows_the_stack() {
    // Twice MAX_PLY plies of quiet knight moves (and null moves), past the preallocation.
    let network = Arc::new(common::realistic_network(4, 16));
    let mut stack = AccumulatorStack::new(Arc::clone(&network));
    let mut fresh = AccumulatorStack::new(Arc::clone(&network));
    let mut rng = TestRng::new(4);
    let mut board = Board::default();
    let mut path = vec![board];
    for i in 0..2 * cutoff_board::MAX_PLY {
        if let Some(child) = board.null_move().filter(|_| i % 5 == 4) {
            stack.push_null();
            board = child;
        } else {
            let moves = board.legal_moves();
            let knights: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|mv| mv.is_quiet() && board.kind_on(mv.from()) == Some(PieceType::Knight))
                .collect();
            let candidates = if knights.is_empty() { moves.to_vec() } else { knights };
            let mv = candidates[rng.below(candidates.len())];
            stack.push(&board, mv);
            board.play_unchecked(mv);
        }
        path.push(board);
        check(&mut stack, &mut fresh, &board, "a deep push");
    }
    assert_eq!(stack.ply(), 2 * cutoff_board::MAX_PLY);
    while path.len() > 1 {
        stack.pop();
        path.pop();
        check(&mut stack, &mut fresh, path.last().unwrap(), "a deep pop");
    }
}

#[test]
fn refresh_at_a_ply_keeps_the_plies_below() {
    let network = Arc::new(common::realistic_network(5, 48));
    let mut stack = AccumulatorStack::new(Arc::clone(&network));
    let mut fresh = AccumulatorStack::new(Arc::clone(&network));
    let root = common::standard("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    stack.reset(&root);
    let mv = root.parse_uci("e2a6").unwrap();
    let mut child = root;
    child.play_unchecked(mv);
    // A search may refresh instead of updating (for example after a king move, later).
    stack.push_null();
    stack.refresh(&child);
    assert_eq!(stack.ply(), 1);
    check(&mut stack, &mut fresh, &child, "a refresh at ply 1");
    stack.pop();
    check(&mut stack, &mut fresh, &root, "a pop after a refresh");
}

#[test]
#[should_panic(expected = "pop at ply 0")]
fn pop_at_the_root_panics() {
    let mut stack = AccumulatorStack::new(Arc::new(common::realistic_network(6, 16)));
    stack.pop();
}

/// Lazy updates: random paths of pushes, null moves and pops where only some positions are
/// evaluated (as in a search, where many pushed moves are never evaluated), so that an
/// evaluation walks back over several plies, some of which a sibling's evaluation computed
/// and some not, or refreshes when the walk is longer than a refresh.
#[test]
fn sparse_evaluations_equal_a_refresh() {
    for (network, seed) in [(common::realistic_network(7, 32), 31), (common::extreme_network(8, 16), 32)] {
        let (checked, longest) = sparse_games(Arc::new(network), seed, 150);
        assert!(checked > 3_000, "{checked}");
        assert!(longest >= 12, "{longest}");
    }
}

/// Plays `games` random paths, evaluating now and then; returns the number of checks and the
/// longest run of unevaluated plies.
fn sparse_games(network: Arc<Network>, seed: u64, games: usize) -> (usize, usize) {
    let mut rng = TestRng::new(seed);
    let mut stack = AccumulatorStack::new(Arc::clone(&network));
    let mut fresh = AccumulatorStack::new(Arc::clone(&network));
    let starts = common::all_starts();
    let (mut checked, mut longest) = (0, 0);
    for game in 0..games {
        let root = starts[game % starts.len()];
        stack.reset(&root);
        let mut path = vec![root];
        // Plies pushed since the last evaluation: the walk an evaluation may make.
        let mut unevaluated = 0;
        for _ in 0..150 {
            let board = *path.last().unwrap();
            if board.is_fifty_move_draw() {
                break;
            }
            if let Some(child) = board.null_move().filter(|_| rng.one_in(15)) {
                stack.push_null();
                path.push(child);
            } else {
                let Some(mv) = common::pick_move(&board, &mut rng) else { break };
                stack.push(&board, mv);
                let mut child = board;
                child.play_unchecked(mv);
                path.push(child);
            }
            unevaluated += 1;
            if rng.one_in(3) {
                for _ in 0..rng.between(1, 4) {
                    if path.len() > 1 {
                        stack.pop();
                        path.pop();
                        unevaluated = unevaluated.max(1) - 1;
                    }
                }
            }
            if rng.one_in(5) {
                longest = longest.max(unevaluated);
                unevaluated = 0;
                checked += 1;
                check(&mut stack, &mut fresh, path.last().unwrap(), "sparse evaluations");
            }
        }
    }
    (checked, longest)
}
