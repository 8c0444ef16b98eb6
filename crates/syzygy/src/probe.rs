//! Probing (`docs/syzygy-format.md`, sections 6 to 8): the captures-resolution search over
//! `cutoff-board` legal moves that turns stored values into true ones, DTZ with its one-ply
//! search, and the values of the root moves.

use cutoff_board::{Board, Move, PieceType};

use crate::Tablebases;
use crate::tablefile::Stored;

/// Why a probe gives no value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fail {
    /// A table the probe needs is not there, or the position cannot be in a table.
    Missing,
    /// A table is broken (already reported).
    Broken,
}

/// A position's value once its zeroing moves are accounted for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Resolved {
    /// -2..2 for the side to move.
    pub(crate) wdl: i32,
    /// A zeroing move (capture, or pawn move when they are searched) achieves the value, so
    /// the DTZ table may not hold it: the DTZ is that of a zeroing move now.
    pub(crate) zeroing: bool,
}

fn is_zeroing(board: &Board, mv: Move) -> bool {
    mv.is_capture() || board.kind_on(mv.from()) == Some(PieceType::Pawn)
}

fn after(board: &Board, mv: Move) -> Board {
    let mut next = *board;
    next.play_unchecked(mv);
    next
}

/// The DTZ of a position whose best move zeroes now, by its outcome.
pub(crate) fn zeroing_dtz(wdl: i32) -> i32 {
    match wdl {
        2 => 1,
        1 => 101,
        -1 => -101,
        -2 => -1,
        _ => 0,
    }
}

/// Moves a DTZ one ply further from zero (the value one move earlier).
fn one_ply_earlier(dtz: i32) -> i32 {
    dtz + dtz.signum()
}

fn is_mate(board: &Board) -> bool {
    board.in_check() && !board.has_legal_moves()
}

/// The true WDL value: the best of the zeroing moves (captures, en passant included, and pawn
/// moves when `pawn_moves`) and the stored value, which is not read when every legal move
/// zeroes (section 6). A winning zeroing move ends the search at once; captures are tried
/// before pawn moves (they lead to smaller tables, and a winning one is found sooner).
pub(crate) fn resolve(tb: &Tablebases, board: &Board, pawn_moves: bool) -> Result<Resolved, Fail> {
    let moves = board.legal_moves();
    let captures = moves.iter().filter(|mv| mv.is_capture());
    let pushes = moves.iter().filter(|&&mv| pawn_moves && !mv.is_capture() && is_zeroing(board, mv));
    let mut best = -3;
    let mut searched = 0;
    for &mv in captures.chain(pushes) {
        searched += 1;
        let v = -resolve(tb, &after(board, mv), false)?.wdl;
        if v > best {
            best = v;
            if v == 2 {
                return Ok(Resolved { wdl: 2, zeroing: true });
            }
        }
    }
    let only_zeroing = searched > 0 && searched == moves.len();
    let stored = if only_zeroing { best } else { tb.stored_wdl(board)? };
    Ok(if best >= stored {
        Resolved { wdl: best, zeroing: best > 0 || only_zeroing }
    } else {
        Resolved { wdl: stored, zeroing: false }
    })
}

/// The DTZ of a position (section 7).
pub(crate) fn dtz(tb: &Tablebases, board: &Board) -> Result<i32, Fail> {
    let r = resolve(tb, board, true)?;
    if r.wdl == 0 {
        return Ok(0);
    }
    if r.zeroing {
        return Ok(zeroing_dtz(r.wdl));
    }
    match tb.stored_dtz(board, r.wdl)? {
        Stored::Plies(p) => {
            let cursed = if r.wdl.abs() == 1 { 100 } else { 0 };
            Ok((p + cursed) * r.wdl.signum())
        }
        Stored::OtherSide => {
            // One ply: the best move with the outcome's sign.
            let mut best: Option<i32> = None;
            for mv in board.legal_moves() {
                let v = move_dtz(tb, board, mv)?;
                if v.signum() == r.wdl.signum() && best.is_none_or(|b| v < b) {
                    best = Some(v);
                }
            }
            Ok(best.unwrap_or(-1))
        }
    }
}

/// The DTZ of `mv` counted from `board` (section 8): a zeroing move's by the outcome after
/// it, another move's one ply more than the DTZ after it; a mate is 1.
pub(crate) fn move_dtz(tb: &Tablebases, board: &Board, mv: Move) -> Result<i32, Fail> {
    let next = after(board, mv);
    if is_zeroing(board, mv) {
        return Ok(zeroing_dtz(-resolve(tb, &next, false)?.wdl));
    }
    if is_mate(&next) {
        return Ok(1);
    }
    Ok(one_ply_earlier(-dtz(tb, &next)?))
}

/// Every legal move with its DTZ counted from the position.
pub(crate) fn root_values(tb: &Tablebases, board: &Board) -> Result<Vec<(Move, i32)>, Fail> {
    board.legal_moves().iter().map(|&mv| Ok((mv, move_dtz(tb, board, mv)?))).collect()
}
