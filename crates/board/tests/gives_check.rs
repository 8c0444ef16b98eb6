//! `Board::gives_check` agrees with playing the move and asking `in_check`, for every legal
//! move of every position two plies deep from each line of both perft suites (standard and
//! Chess960): direct checks, discovered checks, promotions, en passant and castling included.

mod common;

use cutoff_board::Board;

fn walk(board: &Board, depth: u32, counts: &mut [u64; 2]) {
    let checks = board.check_squares();
    for mv in board.legal_moves() {
        let mut child = *board;
        child.play_unchecked(mv);
        assert_eq!(board.gives_check(mv), child.in_check(), "{mv:?} in {}", board.fen());
        assert_eq!(
            board.gives_check_with(&checks, mv),
            child.in_check(),
            "{mv:?} with check squares in {}",
            board.fen()
        );
        counts[usize::from(child.in_check())] += 1;
        if depth > 1 {
            walk(&child, depth - 1, counts);
        }
    }
}

#[test]
fn gives_check_agrees_with_playing_the_move() {
    let mut counts = [0u64; 2];
    for line in common::all_lines() {
        let board = line.board();
        walk(&board, 2, &mut counts);
    }
    eprintln!("{} moves, {} of them checks", counts[0] + counts[1], counts[1]);
    // Enough checks of every kind to mean something (the suites are rich in them).
    assert!(counts[1] > 10_000, "only {} checking moves among {} moves", counts[1], counts[0] + counts[1]);
}
