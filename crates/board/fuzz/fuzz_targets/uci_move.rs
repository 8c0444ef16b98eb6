//! A position from a fixed list (first byte) and arbitrary move text (the rest) for
//! `parse_uci`, checked against an independent oracle: the text is well formed exactly when
//! it is `<square><square>[qrbnQRBN]` with two different squares, and it is accepted exactly
//! when it (promotion letter lower-cased) is the UCI text of a legal move — or, in standard
//! chess, the king-takes-rook form of a legal castling move.
#![no_main]

use cutoff_board::{Move, ParseUciMoveError, Square};
use cutoff_board_fuzz::{check_board, play_and_check, position};
use libfuzzer_sys::fuzz_target;

fn well_formed(text: &str) -> bool {
    let b = text.as_bytes();
    if !(4..=5).contains(&b.len()) || !text.is_ascii() {
        return false;
    }
    let (Ok(from), Ok(to)) = (text[0..2].parse::<Square>(), text[2..4].parse::<Square>()) else {
        return false;
    };
    from != to && b.get(4).is_none_or(|c| b"qrbnQRBN".contains(c))
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let board = position(selector);
    let text = String::from_utf8_lossy(rest);
    let moves = check_board(&board);

    // `parse_uci` accepts an upper-case promotion letter (the fifth character) only.
    let normalized: String =
        text.char_indices().map(|(i, c)| if i == 4 { c.to_ascii_lowercase() } else { c }).collect();
    let expected: Option<Move> = moves.iter().copied().find(|&mv| {
        board.uci(mv).to_string() == normalized
            || (mv.is_castle() && !board.is_chess960() && mv.to_string() == normalized)
    });
    let got = board.parse_uci(&text);
    match expected {
        Some(mv) => assert_eq!(got, Ok(mv), "{text:?} in {}", board.fen()),
        None if well_formed(&text) => assert_eq!(got, Err(ParseUciMoveError::Illegal), "{text:?} in {}", board.fen()),
        None => assert_eq!(got, Err(ParseUciMoveError::Syntax), "{text:?} in {}", board.fen()),
    }
    if let Ok(mv) = got {
        assert!(board.is_legal(mv));
        let child = play_and_check(&board, mv);
        check_board(&child);
    }
});
