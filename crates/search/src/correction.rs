//! Correction history: how far the static evaluation was off in positions with the same pawn
//! structure, learned from the searches that finished there and added to later evaluations.
//!
//! Layout: `table[side to move][pawn key mod 16384]`, `i32` entries in 1/[`GRAIN`] centipawns.
//! An update moves the entry towards the latest error with a weight that grows with the
//! search depth (an exponential moving average), and entries stay within ±`CORRECTION_MAX` cp.

use cutoff_board::Board;

use crate::params::{CORRECTION_MAX, CORRECTION_WEIGHT_MAX};

/// Entries per side to move.
const SIZE: usize = 16_384;
/// Sub-centipawn resolution of the entries.
const GRAIN: i32 = 256;

/// The correction-history table of one search thread.
pub(crate) struct CorrectionHistory {
    table: Vec<i32>,
}

impl CorrectionHistory {
    pub(crate) fn new() -> CorrectionHistory {
        CorrectionHistory { table: vec![0; 2 * SIZE] }
    }

    pub(crate) fn clear(&mut self) {
        self.table.fill(0);
    }

    #[inline(always)]
    fn index(board: &Board) -> usize {
        board.side_to_move() as usize * SIZE + (board.pawn_key() as usize & (SIZE - 1))
    }

    /// `raw`, the static evaluation of `board`, corrected.
    #[inline(always)]
    pub(crate) fn correct(&self, board: &Board, raw: i32) -> i32 {
        raw + self.table[Self::index(board)] / GRAIN
    }

    /// Learns from a search of `board` to `depth` whose result was `error` centipawns above
    /// the corrected static evaluation.
    pub(crate) fn update(&mut self, board: &Board, depth: i32, error: i32) {
        let weight = (depth + 1).clamp(1, CORRECTION_WEIGHT_MAX.get());
        let limit = CORRECTION_MAX.get() * GRAIN;
        let entry = &mut self.table[Self::index(board)];
        let target = (*entry + error.clamp(-limit / GRAIN, limit / GRAIN) * GRAIN).clamp(-limit, limit);
        *entry = ((*entry * (256 - weight) + target * weight) / 256).clamp(-limit, limit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_move_towards_the_error_and_stay_bounded() {
        let board = Board::default();
        let mut h = CorrectionHistory::new();
        assert_eq!(h.correct(&board, 10), 10);
        for _ in 0..200 {
            h.update(&board, 10, 40);
        }
        let corrected = h.correct(&board, 10);
        assert!(corrected > 10 && corrected <= 10 + CORRECTION_MAX.get(), "{corrected}");
        for _ in 0..2000 {
            h.update(&board, 20, -10_000);
        }
        // The moving average approaches the bound from inside (integer steps stop one short).
        let floor = h.correct(&board, 0);
        assert!((-CORRECTION_MAX.get()..=-CORRECTION_MAX.get() + 1).contains(&floor), "{floor}");
        // A position with another pawn structure (and side to move) is unaffected.
        let black = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".parse::<Board>().unwrap();
        assert_eq!(h.correct(&black, 7), 7);
        h.clear();
        assert_eq!(h.correct(&board, 5), 5);
    }
}
