//! Examples of the picker's methods, each on a small position.

use std::collections::HashSet;

use cutoff_board::{Board, CastlingMode, Move, MoveKind, Square};
use cutoff_ordering::{Histories, MovePicker, OrderingConfig, PieceTo, Stage};

#[test]
fn qsearch_tries_noisy_moves_or_every_evasion() {
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let board = Board::from_fen(kiwipete, CastlingMode::Standard).unwrap();
    let history = Histories::boxed();
    let quiet_tt = board.parse_uci("a2a3").ok(); // dropped: quiescence only tries noisy moves
    let mut picker = MovePicker::qsearch(&board, quiet_tt, OrderingConfig::FULL);
    let moves: Vec<_> = std::iter::from_fn(|| picker.next(&history)).collect();
    assert_eq!(moves.len(), 8);
    assert!(moves.iter().all(|mv| mv.is_noisy()));
    assert_eq!(board.san(moves[0]).as_str(), "Bxa6"); // the most valuable victim first
    // In check, every evasion: here Kxe2, Kd1 and Kf1.
    let check = Board::from_fen("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", CastlingMode::Standard).unwrap();
    let mut picker = MovePicker::qsearch(&check, None, OrderingConfig::FULL);
    assert_eq!(check.san(picker.next(&history).unwrap()).as_str(), "Kxe2");
    assert_eq!(std::iter::from_fn(|| picker.next(&history)).count(), 2);
}

#[test]
fn set_continuations_orders_by_continuation_history() {
    let mut board = Board::default();
    let e4 = board.parse_uci("e2e4").unwrap();
    let earlier = PieceTo::of(&board, e4);
    board.play(e4);
    let mut history = Histories::boxed();
    let a6 = board.parse_uci("a7a6").unwrap();
    history.continuation.update((earlier.unwrap(), PieceTo::of(&board, a6).unwrap()), 900);
    let mut picker = MovePicker::main(&board, None, [None; 3], None, OrderingConfig::FULL);
    picker.set_continuations([earlier, None, None]);
    assert_eq!(picker.next(&history), Some(a6)); // a quiet move that answered e4 well before
}

#[test]
fn set_threats_reads_the_threat_entries() {
    let board = Board::default();
    let threats = board.attacks_by(!board.side_to_move());
    let mut history = Histories::boxed();
    let a3 = board.parse_uci("a2a3").unwrap();
    history.butterfly.update((board.side_to_move(), a3, threats), 900);
    let mut picker = MovePicker::main(&board, None, [None; 3], None, OrderingConfig::FULL);
    picker.set_threats(threats);
    assert_eq!(picker.next(&history), Some(a3));
}

#[test]
fn skip_quiets_keeps_every_noisy_move() {
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let board = Board::from_fen(kiwipete, CastlingMode::Standard).unwrap();
    let history = Histories::boxed();
    let killer = board.parse_uci("a2a3").ok();
    let mut picker = MovePicker::main(&board, None, [killer, None, None], None, OrderingConfig::FULL);
    let first = picker.next(&history).unwrap();
    picker.skip_quiets();
    let rest: Vec<_> = std::iter::from_fn(|| picker.next(&history)).collect();
    assert!(first.is_noisy() && rest.iter().all(|mv| mv.is_noisy())); // not even the killer
    assert_eq!(1 + rest.len(), 8); // every noisy move, losing captures included
    assert!(!picker.quiets_generated());
}

#[test]
fn skip_quiets_but_checks_keeps_quiet_checks() {
    let board = Board::from_fen("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", CastlingMode::Standard).unwrap();
    let history = Histories::boxed();
    let mut picker = MovePicker::main(&board, None, [None; 3], None, OrderingConfig::FULL);
    picker.skip_quiets_but_checks();
    let rest: Vec<String> = std::iter::from_fn(|| picker.next(&history)).map(|mv| board.uci(mv).to_string()).collect();
    assert_eq!(rest, ["a1a8"]); // the only check; no capture here
}

#[test]
fn last_stage_names_where_a_move_came_from() {
    let board = Board::from_fen("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1", CastlingMode::Standard).unwrap();
    let history = Histories::boxed();
    let tt = board.parse_uci("e1f1").ok();
    let mut picker = MovePicker::main(&board, tt, [None; 3], None, OrderingConfig::FULL);
    picker.next(&history);
    assert_eq!(picker.last_stage(), Some(Stage::TtMove));
    assert_eq!(picker.next(&history).map(|mv| board.uci(mv).to_string()), Some("e4d5".to_string()));
    assert_eq!(picker.last_stage(), Some(Stage::GoodNoisy));
}

#[test]
fn bad_noisy_moves_are_the_losing_captures() {
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let board = Board::from_fen(kiwipete, CastlingMode::Standard).unwrap();
    let history = Histories::boxed();
    let tt = board.parse_san("O-O").ok();
    let killer = board.parse_uci("a2a3").ok();
    let mut picker = MovePicker::main(&board, tt, [killer, None, None], None, OrderingConfig::FULL);
    let mut losing = Vec::new();
    while let Some(mv) = picker.next(&history) {
        if picker.last_stage() == Some(Stage::BadNoisy) {
            assert!(!board.see_ge(mv, 0));
            losing.push(board.san(mv).to_string());
        }
    }
    losing.sort();
    // Each loses the capturing piece for less (the h8 rook guards h3 down the open file).
    assert_eq!(losing, ["Nxd7", "Nxf7", "Nxg6", "Qxf6", "Qxh3"]);
}

#[test]
fn noisy_generated_after_the_tt_move() {
    let board = Board::default();
    let history = Histories::boxed();
    let mut picker = MovePicker::main(&board, board.parse_uci("d2d4").ok(), [None; 3], None, OrderingConfig::FULL);
    assert!(!picker.noisy_generated());
    picker.next(&history); // the TT move, found without generating anything
    assert!(!picker.noisy_generated());
    picker.next(&history);
    assert!(picker.noisy_generated());
}

#[test]
fn quiets_generated_after_the_noisy_moves() {
    let board = Board::from_fen("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1", CastlingMode::Standard).unwrap();
    let history = Histories::boxed();
    let mut picker = MovePicker::main(&board, None, [None; 3], None, OrderingConfig::FULL);
    picker.next(&history); // exd5, a capture: a cutoff here saves generating the quiet moves
    assert!(picker.noisy_generated() && !picker.quiets_generated());
    picker.next(&history);
    assert!(picker.quiets_generated());
}

#[test]
fn next_returns_every_legal_move_once() {
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let board = Board::from_fen(kiwipete, CastlingMode::Standard).unwrap();
    let history = Histories::boxed();
    let tt = board.parse_uci("e2a6").ok();
    let killers = [board.parse_uci("a2a3").ok(), None, None];
    let mut picker = MovePicker::main(&board, tt, killers, None, OrderingConfig::FULL);
    let mut seen = HashSet::new();
    while let Some(mv) = picker.next(&history) {
        assert!(seen.insert(mv), "{mv} returned twice");
    }
    assert_eq!(seen, board.legal_moves().into_iter().collect());
    assert_eq!(picker.next(&history), None); // and it stays done
}

#[test]
fn main_tries_refutations_before_generating() {
    let board = Board::default();
    let history = Histories::boxed();
    let tt = board.parse_uci("e2e4").ok();
    let black_move = Move::new(Square::E7, Square::E5, MoveKind::DoublePush); // illegal for White
    let nf3 = board.parse_uci("g1f3").ok();
    let counter = board.parse_uci("c2c4").ok();
    let mut picker = MovePicker::main(&board, tt, [Some(black_move), nf3, None], counter, OrderingConfig::FULL);
    assert_eq!(picker.next(&history), tt);
    assert_eq!(picker.next(&history), nf3); // the start position has no captures: killers come next
    assert_eq!(picker.last_stage(), Some(Stage::Refutations));
    assert_eq!(picker.next(&history), counter);
    assert!(!picker.quiets_generated()); // three moves tried, nothing generated yet
    assert_eq!(std::iter::from_fn(|| picker.next(&history)).count(), 20 - 3);
}
