//! `Board::reaches_key` (upcoming repetition detection) agrees with playing the moves, for
//! every legal move of every position one ply deep from each line of both perft suites.

mod common;

use cutoff_board::{Board, PieceType};

/// Whether a move's child differs from `board` by one piece moving to an empty square and
/// the side to move, nothing else (no capture, no pawn, no castling, no change of castling
/// rights or en passant square).
fn only_a_piece_moves(board: &Board, child: &Board, mv: cutoff_board::Move) -> bool {
    let piece = board.piece_on(mv.from()).unwrap();
    piece.kind() != PieceType::Pawn
        && !mv.is_capture()
        && !mv.is_castle()
        && board.en_passant().is_none()
        && board.castling_rights() == child.castling_rights()
}

fn check(board: &Board, counts: &mut [u64; 3]) {
    for mv in board.legal_moves() {
        let mut child = *board;
        child.play_unchecked(mv);
        let expected = only_a_piece_moves(board, &child, mv);
        assert_eq!(board.reaches_key(child.key()), expected, "{mv:?} in {}", board.fen());
        counts[usize::from(expected)] += 1;
        // The same move seen from the other side: after it, the opponent cannot move our
        // piece back (the key difference names a piece of the side that is not to move).
        if expected && let Some(passed) = child.null_move() {
            assert!(!passed.reaches_key(board.key()), "{mv:?} back by the wrong side in {}", board.fen());
            counts[2] += 1;
        }
    }
}

#[test]
fn reaches_key_agrees_with_playing_the_move() {
    let mut counts = [0u64; 3];
    for line in common::all_lines() {
        let board = line.board();
        check(&board, &mut counts);
        for mv in board.legal_moves() {
            let mut child = board;
            child.play_unchecked(mv);
            check(&child, &mut counts);
        }
    }
    eprintln!("{} reversible piece moves, {} other moves, {} wrong-side checks", counts[1], counts[0], counts[2]);
    assert!(counts[1] > 50_000 && counts[0] > 50_000 && counts[2] > 10_000, "{counts:?}");
}

#[test]
fn a_blocked_line_is_no_move() {
    // The rook on a1 could reach a8 only through the pawn on a4.
    let board: Board = "4k3/8/8/8/P7/8/8/R3K3 w - - 0 1".parse().unwrap();
    let there: Board = "R3k3/8/8/8/P7/8/8/4K3 b - - 0 1".parse().unwrap();
    assert!(!board.reaches_key(there.key()));
    let open: Board = "4k3/8/8/8/8/8/P7/R3K3 w - - 0 1".parse().unwrap();
    let moved: Board = "R3k3/8/8/8/8/8/P7/4K3 b - - 0 1".parse().unwrap();
    assert!(!open.reaches_key(moved.key())); // a2 still blocks
    let clear: Board = "4k3/8/8/8/8/8/7P/R3K3 w - - 0 1".parse().unwrap();
    let rook_up: Board = "R3k3/8/8/8/8/8/7P/4K3 b - - 0 1".parse().unwrap();
    assert!(clear.reaches_key(rook_up.key()));
}
