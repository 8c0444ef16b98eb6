//! A position from a fixed list (first byte) and arbitrary move text (the rest) for
//! `parse_san`. Whatever is accepted must be legal and its SAN must read back to it; the
//! exact SAN of a legal move (with or without its check mark) must be accepted as that move.
#![no_main]

use cutoff_board::ParseSanError;
use cutoff_board_fuzz::{check_board, play_and_check, position};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let board = position(selector);
    let text = String::from_utf8_lossy(rest);
    let moves = check_board(&board);

    let got = board.parse_san(&text);
    for &mv in &moves {
        let san = board.san(mv);
        if san.as_str() == text || san.as_str().trim_end_matches(['+', '#']) == text {
            assert_eq!(got, Ok(mv), "{text:?} in {}", board.fen());
        }
    }
    match got {
        Ok(mv) => {
            assert!(moves.contains(&mv), "{text:?} gave {mv:?}, not a legal move, in {}", board.fen());
            assert_eq!(board.parse_san(board.san(mv).as_str()), Ok(mv));
            let child = play_and_check(&board, mv);
            check_board(&child);
        }
        // Non-ASCII, empty or overlong text can only be a syntax error.
        Err(e) => {
            if !text.is_ascii() || text.trim_end_matches(['+', '#', '!', '?']).is_empty() {
                assert_eq!(e, ParseSanError::Syntax, "{text:?}");
            }
        }
    }
});
