//! Copy-make versus make/unmake in perft, alternating runs in one process.
//!
//! `cargo run --release -p cutoff-board --example make_vs_copy`

use std::time::Instant;

use cutoff_board::{Board, CastlingMode, GenKind, MoveList};

fn perft_copy(board: &Board, depth: u32) -> u64 {
    if depth == 1 {
        return board.count_moves();
    }
    let mut moves = MoveList::new();
    board.generate(GenKind::All, &mut moves);
    moves
        .iter()
        .map(|&mv| {
            let mut child = *board;
            child.play_unchecked(mv);
            perft_copy(&child, depth - 1)
        })
        .sum()
}

fn perft_unmake(board: &mut Board, depth: u32) -> u64 {
    if depth == 1 {
        return board.count_moves();
    }
    let mut moves = MoveList::new();
    board.generate(GenKind::All, &mut moves);
    let mut nodes = 0;
    for mv in moves {
        let undo = board.make_move(mv);
        nodes += perft_unmake(board, depth - 1);
        board.unmake_move(mv, undo);
    }
    nodes
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let cases = [
        ("startpos", cutoff_board::STARTPOS_FEN, 6),
        ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5),
    ];
    for (name, fen, depth) in cases {
        let board = Board::from_fen(fen, CastlingMode::Standard).expect("valid FEN");
        let (mut copy, mut unmake) = (Vec::new(), Vec::new());
        for _ in 0..7 {
            let t = Instant::now();
            let a = perft_copy(&board, depth);
            copy.push(t.elapsed().as_secs_f64());
            let mut b = board;
            let t = Instant::now();
            let c = perft_unmake(&mut b, depth);
            unmake.push(t.elapsed().as_secs_f64());
            assert_eq!((a, b), (c, board));
        }
        let (c, u) = (median(&mut copy), median(&mut unmake));
        println!("{name} perft {depth}: copy-make {c:.3} s, make/unmake {u:.3} s (median of 7), ratio {:.3}", u / c);
    }
}
