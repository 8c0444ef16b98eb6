//! Search behaviour on positions whose right answer is known.

use std::sync::Mutex;

use cutoff_board::{Board, CastlingMode, Game};
use cutoff_search::{Engine, Limits, Report, SearchControl, SearchOptions, SearchResult, UciScore};

fn search_with(fen: &str, history: &[u64], limits: &Limits, options: SearchOptions) -> (Board, SearchResult) {
    let board = Board::from_fen(fen, CastlingMode::Standard).unwrap();
    let mut engine = Engine::new(16, options).unwrap();
    let control = SearchControl::default();
    control.reset(false);
    let result = engine.search(&board, history, limits, &control, &|_| {});
    (board, result)
}

fn search(fen: &str, limits: &Limits) -> (Board, SearchResult) {
    search_with(fen, &[], limits, SearchOptions::default())
}

#[test]
fn mate_on_the_hundredth_ply_beats_the_fifty_move_draw() {
    let (board, r) = search("7k/8/6K1/8/8/8/8/R7 w - - 99 80", &Limits::depth(4));
    assert_eq!(board.uci(r.best_move.unwrap()).to_string(), "a1a8");
    assert_eq!(UciScore::from_score(r.score), UciScore::Mate(1));
}

#[test]
fn finds_a_forced_mate_with_two_rooks() {
    // The selective search (late-move, futility and SEE pruning) reports mate in 6 from
    // nominal depth 23, after 1.7M nodes; the full-width search of the seeds did at depth 11,
    // after 2.0M nodes. Depth 24 is about the same work as the old depth 12.
    let (_, r) = search("8/8/8/3k4/8/8/8/RR4K1 w - - 0 1", &Limits::depth(24));
    match UciScore::from_score(r.score) {
        UciScore::Mate(n) => assert!((1..=6).contains(&n), "mate in {n}"),
        other => panic!("expected a mate score, got {other:?}"),
    }
}

#[test]
fn getting_mated_is_reported_as_negative_mate() {
    // Black's only move, Kb8, allows Rh8#.
    let (_, r) = search("k7/8/1K6/8/8/8/8/7R b - - 0 1", &Limits::depth(6));
    assert_eq!(UciScore::from_score(r.score), UciScore::Mate(-1));
}

#[test]
fn threefold_repetition_scores_zero() {
    // After Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1, ...Ng8 repeats the start position a third time.
    let mut game = Game::default();
    for mv in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
        game.play_uci(mv).unwrap();
    }
    let fen = game.board().fen().to_string();
    let board = *game.board();
    let repeat = board.parse_uci("f6g8").unwrap();
    let limits = Limits { depth: Some(5), searchmoves: vec![repeat], ..Limits::default() };
    let (_, r) = search_with(&fen, game.history(), &limits, SearchOptions::default());
    assert_eq!(r.best_move, Some(repeat));
    assert_eq!(r.score, 0);
    // Without the history the same move is an ordinary move with a non-draw score path.
    let (_, r) = search(&fen, &limits);
    assert_eq!(r.best_move, Some(repeat));
}

#[test]
fn no_legal_move() {
    let (_, r) = search("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", &Limits::depth(5));
    assert_eq!((r.best_move, r.score), (None, 0), "stalemate");
    // Kxh7 is illegal (the king guards h7), g8 is covered by the pawn: stalemate too.
    let (_, r) = search("7k/7P/6K1/8/8/8/8/8 b - - 0 1", &Limits::depth(5));
    assert_eq!((r.best_move, r.score), (None, 0), "stalemate with a pawn");
    let (_, r) = search("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", &Limits::depth(5));
    assert_eq!(r.best_move, None, "checkmate");
    assert!(r.score <= -cutoff_tt::MATE_IN_MAX_PLY);
}

#[test]
fn node_limit_is_respected() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let (board, r) = search(fen, &Limits::nodes(20_000));
    assert!(r.nodes <= 20_000 + 64, "{} nodes", r.nodes);
    assert!(board.is_legal(r.best_move.unwrap()));
}

/// A soft node limit ends the search at the end of the first iteration that reaches it: the
/// search is the same as a depth-limited one to that depth, and the iteration before it had
/// not reached the limit. The hard limit still ends an iteration early.
#[test]
fn soft_node_limit_ends_on_a_completed_iteration() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let soft = 5_000;
    let (_, r) = search(fen, &Limits { soft_nodes: Some(soft), ..Limits::default() });
    assert!(r.nodes >= soft, "{} nodes", r.nodes);
    let (_, same) = search(fen, &Limits::depth(r.depth));
    assert_eq!((same.nodes, same.best_move, same.score), (r.nodes, r.best_move, r.score));
    let (_, shallower) = search(fen, &Limits::depth(r.depth - 1));
    assert!(shallower.nodes < soft, "depth {} already had {} nodes", r.depth - 1, shallower.nodes);
    // With a hard limit below the end of that iteration, the hard limit wins.
    let hard = (shallower.nodes + r.nodes) / 2;
    let (board, capped) = search(fen, &Limits { soft_nodes: Some(soft), nodes: Some(hard), ..Limits::default() });
    assert!(capped.nodes <= hard + 64, "{} nodes", capped.nodes);
    assert!(board.is_legal(capped.best_move.unwrap()));
}

#[test]
fn multipv_reports_distinct_moves() {
    let board = Board::default();
    let options = SearchOptions { multipv: 3, ..SearchOptions::default() };
    let mut engine = Engine::new(16, options).unwrap();
    let control = SearchControl::default();
    control.reset(false);
    let sets = Mutex::new(Vec::new());
    engine.search(&board, &[], &Limits::depth(6), &control, &|r| match r {
        Report::Lines(lines) => sets.lock().unwrap().push(lines),
        Report::Iteration(info) => panic!("with MultiPV only whole sets are reported: {info:?}"),
        Report::CurrMove { .. } => {}
    });
    let sets = sets.into_inner().unwrap();
    // One set per iteration, each with three lines numbered 1 to 3 and three different moves.
    assert_eq!(sets.iter().map(|s| s[0].depth).collect::<Vec<_>>(), [1, 2, 3, 4, 5, 6]);
    for set in &sets {
        assert_eq!(set.iter().map(|l| l.multipv).collect::<Vec<_>>(), [1, 2, 3]);
        let mut moves: Vec<_> = set.iter().map(|l| l.pv[0]).collect();
        moves.sort_by_key(|m| m.raw());
        moves.dedup();
        assert_eq!(moves.len(), 3, "{set:?}");
        assert!(set.iter().all(|l| l.bound.is_none() && l.depth == set[0].depth));
    }
}

#[test]
fn searchmoves_restricts_the_root() {
    let board = Board::default();
    let a3 = board.parse_uci("a2a3").unwrap();
    let limits = Limits { depth: Some(5), searchmoves: vec![a3], ..Limits::default() };
    let (_, r) = search(cutoff_board::STARTPOS_FEN, &limits);
    assert_eq!(r.best_move, Some(a3));
}

#[test]
fn two_threads_find_the_mate_too() {
    let options = SearchOptions { threads: 2, ..SearchOptions::default() };
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3";
    let (board, r) = search_with(fen, &[], &Limits::depth(6), options);
    assert_eq!(board.uci(r.best_move.unwrap()).to_string(), "f3f7");
    assert_eq!(UciScore::from_score(r.score), UciScore::Mate(1));
}

#[test]
fn stop_flag_ends_an_infinite_search() {
    let board = Board::default();
    let mut engine = Engine::new(16, SearchOptions::default()).unwrap();
    let control = SearchControl::default();
    control.reset(false);
    let limits = Limits { infinite: true, ..Limits::default() };
    std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(200));
            control.stop();
        });
        let r = engine.search(&board, &[], &limits, &control, &|_| {});
        assert!(board.is_legal(r.best_move.unwrap()));
        assert!(r.depth >= 1);
    });
}
