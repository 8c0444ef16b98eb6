//! A position from a fixed list (first byte), then 16-bit values (two bytes each, little
//! endian). A value that `Move::from_raw` accepts is checked with `is_legal`, which must agree
//! with membership in the generated list; legal ones are played. A value it rejects (unused
//! flag or from == to) plays the legal move at index `value % len`, so the walk reaches new
//! positions. After every move the keys, move generation and FEN are checked.
#![no_main]

use cutoff_board::Move;
use cutoff_board_fuzz::{check_board, play_and_check, position};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let mut board = position(selector);
    let mut moves = check_board(&board);
    for chunk in rest.chunks_exact(2) {
        let raw = u16::from_le_bytes([chunk[0], chunk[1]]);
        let mv = match Move::from_raw(raw) {
            Some(mv) => {
                let legal = moves.contains(&mv);
                assert_eq!(board.is_legal(mv), legal, "is_legal({mv:?}) (raw {raw:#06x}) in {}", board.fen());
                let mut tried = board;
                assert_eq!(tried.try_play(mv).is_ok(), legal);
                if !legal {
                    assert_eq!(tried, board, "a failed try_play changed the board");
                    continue;
                }
                mv
            }
            None if moves.is_empty() => return,
            None => moves[raw as usize % moves.len()],
        };
        board = play_and_check(&board, mv);
        moves = check_board(&board);
    }
});
