//! Most valuable victim, least valuable attacker.

use cutoff_board::{Board, Move, PieceType};

/// MVV-LVA scores indexed `[victim][attacker]` by [`PieceType`] index: any capture of a more
/// valuable victim sorts first, and among captures of one victim the cheaper attacker first.
/// The king row is never used (kings are not captured).
///
/// ```
/// use cutoff_board::PieceType::*;
/// use cutoff_ordering::MVV_LVA;
/// let s = |v: cutoff_board::PieceType, a: cutoff_board::PieceType| MVV_LVA[v as usize][a as usize];
/// assert!(s(Queen, Pawn) > s(Queen, Knight)); // least valuable attacker first
/// assert!(s(Rook, Queen) > s(Knight, Pawn)); // most valuable victim dominates
/// ```
pub const MVV_LVA: [[i32; 6]; 6] = {
    let mut table = [[0; 6]; 6];
    let mut victim = 0;
    while victim < 6 {
        let mut attacker = 0;
        while attacker < 6 {
            table[victim][attacker] = (victim as i32 + 1) * 10 - (attacker as i32 + 1);
            attacker += 1;
        }
        victim += 1;
    }
    table
};

/// The extra score of a queen promotion, as if it captured a piece worth a queen minus a pawn.
///
/// ```
/// use cutoff_board::{Board, CastlingMode, PieceType};
/// use cutoff_ordering::{MVV_LVA, QUEEN_PROMOTION_BONUS, mvv_lva};
/// let board = Board::from_fen("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", CastlingMode::Standard).unwrap();
/// let score = |uci: &str| mvv_lva(&board, board.parse_uci(uci).unwrap());
/// assert_eq!(score("a7a8q"), QUEEN_PROMOTION_BONUS);
/// let pawn_takes_rook = MVV_LVA[PieceType::Rook as usize][PieceType::Pawn as usize];
/// assert_eq!(score("a7b8q"), pawn_takes_rook + QUEEN_PROMOTION_BONUS);
/// assert_eq!(score("a7a8n"), 0); // under-promotions get no bonus
/// ```
pub const QUEEN_PROMOTION_BONUS: i32 = 40;

/// The MVV-LVA score of a noisy move in `board` (captures, en passant, queen promotions).
/// Quiet moves score 0.
///
/// ```
/// use cutoff_board::{Board, CastlingMode};
/// use cutoff_ordering::mvv_lva;
/// let b = Board::from_fen("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1", CastlingMode::Standard).unwrap();
/// assert_eq!(mvv_lva(&b, b.parse_uci("e4d5").unwrap()), 49); // pawn takes queen
/// ```
#[inline]
pub fn mvv_lva(board: &Board, mv: Move) -> i32 {
    let attacker = board.kind_on(mv.from()).unwrap_or(PieceType::Pawn);
    let mut score = if mv.is_en_passant() {
        MVV_LVA[PieceType::Pawn as usize][PieceType::Pawn as usize]
    } else {
        match board.kind_on(mv.to()) {
            Some(victim) if mv.is_capture() => MVV_LVA[victim as usize][attacker as usize],
            _ => 0,
        }
    };
    if mv.promotion() == Some(PieceType::Queen) {
        score += QUEEN_PROMOTION_BONUS;
    }
    score
}
