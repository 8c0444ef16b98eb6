//! The packed positions' tests: their features, in the engine's order, and the mirrored
//! entries.

use cutoff_board::{Board, CastlingMode, Color, PieceType};
use cutoff_nnue::KingBuckets;

use super::*;
use crate::layout::parse_king_buckets;

#[test]
fn a_mirrored_entry_has_the_features_of_the_mirrored_position() {
    let board = |fen| Board::from_fen(fen, cutoff_board::CastlingMode::Standard).unwrap();
    let mut data = Dataset::new(KingBuckets::NONE);
    data.push(&board("r4rk1/pp3ppp/2n1b3/q2p4/3P4/2PB1N2/P4PPP/R2Q1RK1 b - - 3 14"), 0.5, None).unwrap();
    data.push(&board("1kr4r/ppp3pp/3b1n2/4p2q/4P3/2N1BP2/PPP4P/1KR1Q2R b - - 3 14"), 0.5, None).unwrap();
    data.push(&board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"), 0.5, None).unwrap();
    assert!(data.positions[0].mirrorable() && !data.positions[2].mirrorable());
    let (mut a, mut b) = ([[0u16; 2]; 32], [[0u16; 2]; 32]);
    let mut mirrored = data.entry(MIRRORED, &mut a).1.to_vec();
    let mut other = data.entry(1, &mut b).1.to_vec();
    mirrored.sort_unstable();
    other.sort_unstable();
    assert_eq!(mirrored, other);
    assert_eq!(data.entry(0, &mut a).1, data.features(0, &mut b));
}

#[test]
fn packed_positions_give_the_features_in_colour_piece_and_square_order() {
    let fens = [
        "r4rk1/pp3ppp/2n1b3/q2p4/3P4/2PB1N2/P4PPP/R2Q1RK1 b - - 3 14",
        "1kr4r/ppp3pp/3b1n2/4p2q/4P3/2N1BP2/PPP4P/1KR1Q2R w - - 3 14",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "8/8/4k3/8/2R5/8/4K3/8 b - - 0 1",
    ];
    for spec in ["none", "mirror", "8", "16"] {
        let layout = parse_king_buckets(spec).unwrap();
        let mut data = Dataset::with_reference(layout, cutoff_eval::evaluate);
        for (n, fen) in fens.iter().enumerate() {
            let board = Board::from_fen(fen, CastlingMode::Standard).unwrap();
            data.push(&board, [0.0, 0.5, 1.0, 0.5][n], [Some(-35.0), None, Some(12.5), Some(700.0)][n]).unwrap();
            // The order of the sums the accumulators are taken in.
            let stm = board.side_to_move();
            let mut expected = Vec::new();
            for color in Color::ALL {
                for kind in PieceType::ALL {
                    for sq in board.colored_pieces(color, kind) {
                        let own = layout.feature(stm, board.king(stm), color, kind, sq) as u16;
                        let other = layout.feature(!stm, board.king(!stm), color, kind, sq) as u16;
                        expected.push([own, other]);
                    }
                }
            }
            assert_eq!(data.features(n, &mut [[0u16; 2]; 32]), &expected[..], "{spec}: {fen}");
            let p = &data.positions[n];
            assert_eq!(p.result(), [0.0, 0.5, 1.0, 0.5][n]);
            assert_eq!(p.mirrorable(), board.castling_rights().is_empty());
            assert_eq!(data.reference()[n], cutoff_eval::evaluate(&board) as f32);
        }
    }
    assert_eq!(std::mem::size_of::<Packed>(), 32);
    // A set without a reference evaluation keeps none.
    let mut plain = Dataset::new(KingBuckets::NONE);
    plain.push(&Board::from_fen(fens[0], CastlingMode::Standard).unwrap(), 0.5, None).unwrap();
    assert!(plain.reference.is_none());
    let board = Board::from_fen(fens[0], CastlingMode::Standard).unwrap();
    assert!(Dataset::new(KingBuckets::NONE).push(&board, 0.25, None).is_err(), "a result of 0.25");
}
