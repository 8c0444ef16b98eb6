//! The bytes of one game in each encoding: version 1 (plain) and version 2 (compact: move
//! indices and varint scores).

use super::*;

/// Appends the bytes of `game` in `encoding` to `out`.
pub fn encode_game_as(game: &GameRecord, encoding: Encoding, out: &mut Vec<u8>) {
    match encoding {
        Encoding::Plain => encode_game(game, out),
        Encoding::Compact => encode_game_compact(game, out),
    }
}

/// The legal moves of `board` in the compact encoding's order: sorted by [`Move::raw`].
pub(super) fn sorted_legal_moves(board: &Board) -> cutoff_board::MoveList {
    let mut moves = board.legal_moves();
    moves.sort_unstable_by_key(|mv| mv.raw());
    moves
}

/// Appends `value` as a varint.
fn put_varint(mut value: u32, out: &mut Vec<u8>) {
    while value >= 0x80 {
        out.push((value & 0x7F) as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// The varint of a compact score given the previous position's score.
fn score_code(score: Option<i16>, previous: Option<i16>) -> u32 {
    let Some(score) = score else { return 0 };
    let delta = i32::from(score) + previous.map_or(0, i32::from);
    ((delta << 1) ^ (delta >> 31)) as u32 + 1
}

/// The score of a compact code given the previous position's score (`None` for code 0). Any
/// `u32` code decodes without overflow; a score beyond ±[`SCORE_MAX`] is the caller's to
/// reject.
pub(super) fn score_from_code(code: u32, previous: Option<i16>) -> Option<i64> {
    let zigzag = i64::from(code.checked_sub(1)?);
    let delta = (zigzag >> 1) ^ -(zigzag & 1);
    Some(delta - previous.map_or(0, i64::from))
}

/// The compact encoding of `game` (see the module documentation).
fn encode_game_compact(game: &GameRecord, out: &mut Vec<u8>) {
    pack_position(&game.start, out);
    out.push(game.result.to_byte());
    put_varint(u32::try_from(game.plies.len()).expect("fewer than 2^32 moves"), out);
    let mut board = game.start;
    for ply in &game.plies {
        let moves = sorted_legal_moves(&board);
        // A record holds only legal moves (`push` checks them), and a position has at most 218.
        let index = moves.binary_search_by_key(&ply.mv.raw(), |mv| mv.raw()).expect("a recorded move is legal");
        out.push(u8::try_from(index).expect("a move list holds at most 256 moves"));
        board.play_unchecked(ply.mv);
    }
    let mut previous = None;
    for score in game.plies.iter().map(|ply| ply.score).chain([game.final_score]) {
        put_varint(score_code(score, previous), out);
        previous = score;
    }
}

/// Appends the bytes of `game` in [`Encoding::Plain`] to `out`: the packed start position, the
/// result, the plies and the terminator.
pub fn encode_game(game: &GameRecord, out: &mut Vec<u8>) {
    pack_position(&game.start, out);
    out.push(game.result.to_byte());
    for ply in &game.plies {
        out.extend_from_slice(&ply.mv.raw().to_le_bytes());
        out.extend_from_slice(&ply.score.unwrap_or(NO_SCORE).to_le_bytes());
    }
    out.extend_from_slice(&0u16.to_le_bytes());
    out.extend_from_slice(&game.final_score.unwrap_or(NO_SCORE).to_le_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_score_round_trips_through_its_compact_code() {
        let scores = (-SCORE_MAX..=SCORE_MAX).map(Some).chain([None]);
        for previous in [None, Some(0), Some(1), Some(-700), Some(SCORE_MAX), Some(-SCORE_MAX)] {
            for score in scores.clone() {
                let code = score_code(score, previous);
                assert_eq!(code == 0, score.is_none());
                // At most 3 varint bytes.
                assert!(code < 1 << 21, "{score:?} after {previous:?}");
                assert_eq!(score_from_code(code, previous), score.map(i64::from), "{score:?} after {previous:?}");
            }
        }
        // A score near the prediction takes one byte.
        assert!(score_code(Some(-27), Some(30)) < 0x80);
        // Every code decodes without overflow, whatever the previous score.
        for code in [u32::MAX, u32::MAX - 1, 1 << 31, (1 << 31) + 1] {
            for previous in [Some(SCORE_MAX), Some(-SCORE_MAX), None] {
                assert!(score_from_code(code, previous).unwrap().unsigned_abs() > 1 << 29);
            }
        }
    }
}
