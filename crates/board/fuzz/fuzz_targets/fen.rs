//! Arbitrary bytes as a FEN, in both modes. Whatever parses must round-trip to an equal
//! board and support move generation, perft(2), SAN and UCI for every legal move.
#![no_main]

use cutoff_board::{CastlingMode, Board};
use cutoff_board_fuzz::check_board;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for chess960 in [false, true] {
        let Ok(board) = Board::from_fen(&text, CastlingMode::from_chess960(chess960)) else {
            continue;
        };
        let fen = board.fen().to_string();
        assert_eq!(Board::from_fen(&fen, CastlingMode::from_chess960(chess960)), Ok(board), "round trip of {text:?} via {fen}");
        let moves = check_board(&board);
        let divide = board.divide(2);
        assert_eq!(divide.len(), moves.len());
        assert_eq!(board.perft(2), divide.iter().map(|&(_, n)| n).sum::<u64>(), "{fen}");
        for &mv in &moves {
            assert_eq!(board.parse_san(board.san(mv).as_str()), Ok(mv), "SAN of {mv:?} in {fen}");
            assert_eq!(board.parse_uci(&board.uci(mv).to_string()), Ok(mv), "UCI of {mv:?} in {fen}");
            let _ = board.see_ge(mv, 0);
        }
    }
});
