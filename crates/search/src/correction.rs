//! Correction histories: how far the static evaluation was off in positions that share a
//! feature, learned from the searches that finished there and added to later evaluations.
//!
//! Four tables, each indexed by the side to move and a key modulo 16384: the pawn structure,
//! White's pieces other than pawns, Black's (Zobrist keys kept by the board), and the
//! placement of the kings and minor pieces ([`minor_key`]). The correction is the sum of the
//! four entries (`i32`, in 1/[`GRAIN`] centipawns). An update moves every entry towards its
//! value plus the latest error with a weight that grows with the search depth (an exponential
//! moving average of a linear model: the error is measured against the summed correction), and
//! each entry stays within ±`CORRECTION_MAX` cp.

use cutoff_board::{Board, Color, PieceType};
use cutoff_tt::prefetch;

use crate::params::{CORRECTION_MAX, CORRECTION_WEIGHT_MAX};

/// Entries per side to move in each table.
const SIZE: usize = 16_384;
/// Sub-centipawn resolution of the entries.
const GRAIN: i32 = 256;

/// The correction-history tables of one search thread.
pub(crate) struct CorrectionHistory {
    /// `[side to move][pawn key]`.
    pawn: Vec<i32>,
    /// `[side to move][colour][that colour's non-pawn key]`.
    non_pawn: Vec<i32>,
    /// `[side to move][minor key]`.
    minor: Vec<i32>,
}

/// A hash of where the kings, knights and bishops of each colour stand: the four minor-piece
/// bitboards and the two king squares mixed by multiplication, so that minor-piece placements
/// (outposts, bad bishops, knights near a king) share a correction entry whatever the rest of
/// the board holds.
#[inline(always)]
fn minor_key(board: &Board) -> u64 {
    const MIX: [u64; 5] = [
        0x9E37_79B9_7F4A_7C15,
        0xC2B2_AE3D_27D4_EB4F,
        0x1656_67B1_9E37_79F9,
        0x85EB_CA77_C2B2_AE63,
        0xD6E8_FEB8_6659_FD93,
    ];
    let kings = board.king(Color::White).index() as u64 | (board.king(Color::Black).index() as u64) << 6;
    let parts = [
        board.colored_pieces(Color::White, PieceType::Knight).0,
        board.colored_pieces(Color::White, PieceType::Bishop).0,
        board.colored_pieces(Color::Black, PieceType::Knight).0,
        board.colored_pieces(Color::Black, PieceType::Bishop).0,
        kings,
    ];
    parts.iter().zip(MIX).fold(0, |h, (&bits, mix)| (h ^ bits).wrapping_mul(mix).rotate_left(29))
}

impl CorrectionHistory {
    pub(crate) fn new() -> CorrectionHistory {
        CorrectionHistory { pawn: vec![0; 2 * SIZE], non_pawn: vec![0; 2 * 2 * SIZE], minor: vec![0; 2 * SIZE] }
    }

    pub(crate) fn clear(&mut self) {
        self.pawn.fill(0);
        self.non_pawn.fill(0);
        self.minor.fill(0);
    }

    /// Where `board`'s four entries are.
    #[inline(always)]
    pub(crate) fn slots(board: &Board) -> Slots {
        let stm = board.side_to_move() as usize;
        let slot = |key: u64| key as usize & (SIZE - 1);
        let non_pawn = |color: Color| (stm * 2 + color as usize) * SIZE + slot(board.non_pawn_key(color));
        // The top bits of the hash, which the multiplications mix best.
        let minor = stm * SIZE + (minor_key(board) >> (64 - SIZE.trailing_zeros())) as usize;
        Slots {
            pawn: stm * SIZE + slot(board.pawn_key()),
            non_pawn: [non_pawn(Color::White), non_pawn(Color::Black)],
            minor,
        }
    }

    /// Asks the CPU to start loading the entries at `slots`, so that a
    /// [`correct`](Self::correct) soon after does not wait for them: the four tables (512 KB)
    /// do not stay in a core's cache, and each entry is a random line of its table. The search
    /// calls it as a node starts, so that the loads overlap with the transposition table's.
    /// Changes nothing.
    #[inline(always)]
    pub(crate) fn prefetch(&self, slots: Slots) {
        prefetch(&self.pawn[slots.pawn]);
        prefetch(&self.non_pawn[slots.non_pawn[0]]);
        prefetch(&self.non_pawn[slots.non_pawn[1]]);
        prefetch(&self.minor[slots.minor]);
    }

    /// `raw`, the static evaluation of the position of `slots`, corrected.
    #[inline(always)]
    pub(crate) fn correct(&self, slots: Slots, raw: i32) -> i32 {
        let Slots { pawn, non_pawn: [white, black], minor } = slots;
        raw + (self.pawn[pawn] + self.non_pawn[white] + self.non_pawn[black] + self.minor[minor]) / GRAIN
    }

    /// Learns from a search of the position of `slots` to `depth` whose result was `error`
    /// centipawns above the corrected static evaluation.
    pub(crate) fn update(&mut self, slots: Slots, depth: i32, error: i32) {
        let weight = (depth + 1).clamp(1, CORRECTION_WEIGHT_MAX.get());
        let limit = CORRECTION_MAX.get() * GRAIN;
        let error = error.clamp(-limit / GRAIN, limit / GRAIN) * GRAIN;
        let learn = |entry: &mut i32| {
            let target = (*entry + error).clamp(-limit, limit);
            *entry = ((*entry * (256 - weight) + target * weight) / 256).clamp(-limit, limit);
        };
        let Slots { pawn, non_pawn: [white, black], minor } = slots;
        learn(&mut self.pawn[pawn]);
        learn(&mut self.non_pawn[white]);
        learn(&mut self.non_pawn[black]);
        learn(&mut self.minor[minor]);
    }
}

/// The indices of one position's entries in the four tables: in `pawn`, White's and Black's
/// in `non_pawn`, and in `minor`. Computed once a node ([`CorrectionHistory::slots`]) for the
/// prefetch, the correction and the update.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Slots {
    pawn: usize,
    non_pawn: [usize; 2],
    minor: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_move_towards_the_error_and_stay_bounded() {
        let board = Board::default();
        let mut h = CorrectionHistory::new();
        assert_eq!(h.correct(CorrectionHistory::slots(&board), 10), 10);
        for _ in 0..200 {
            h.update(CorrectionHistory::slots(&board), 10, 40);
        }
        // Four tables learn, each bounded by CORRECTION_MAX.
        let corrected = h.correct(CorrectionHistory::slots(&board), 10);
        assert!(corrected > 10 && corrected <= 10 + 4 * CORRECTION_MAX.get(), "{corrected}");
        for _ in 0..2000 {
            h.update(CorrectionHistory::slots(&board), 20, -10_000);
        }
        // The moving average approaches the bound from inside (integer steps stop one short).
        let floor = h.correct(CorrectionHistory::slots(&board), 0);
        let max = CORRECTION_MAX.get();
        assert!((-4 * max..=-4 * max + 4).contains(&floor), "{floor}");
        // A position with another pawn structure (and side to move) is unaffected.
        let black = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".parse::<Board>().unwrap();
        assert_eq!(h.correct(CorrectionHistory::slots(&black), 7), 7);
        h.clear();
        assert_eq!(h.correct(CorrectionHistory::slots(&board), 5), 5);
    }

    #[test]
    fn the_minor_key_follows_kings_knights_and_bishops_only() {
        let key = |fen: &str| minor_key(&fen.parse::<Board>().unwrap());
        let start = key("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        // Pawns, queens and rooks do not count.
        assert_eq!(key("rnb1kbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBN1 w Qkq - 0 3"), start);
        // A knight, a bishop or a king that moves does, and so do the colours.
        assert_ne!(key("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1"), start);
        assert_ne!(key("rnbqkbnr/pppppppp/8/8/8/4B3/PPPPPPPP/RNBQK1NR b KQkq - 1 1"), start);
        assert_ne!(key("rnbqkbnr/pppppppp/8/8/8/8/PPPPKPPP/RNBQ1BNR w kq - 0 1"), start);
        assert_ne!(key("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1"), key("4k3/8/8/8/8/8/8/1n2K3 w - - 0 1"));
    }

    #[test]
    fn the_summed_correction_converges_to_the_error() {
        // The search measures the error against the corrected evaluation, so the four
        // tables together learn it once, not three times.
        let board = Board::default();
        let mut h = CorrectionHistory::new();
        for _ in 0..500 {
            let error = 30 - (h.correct(CorrectionHistory::slots(&board), 0));
            h.update(CorrectionHistory::slots(&board), 12, error);
        }
        assert!(
            (28..=30).contains(&h.correct(CorrectionHistory::slots(&board), 0)),
            "{}",
            h.correct(CorrectionHistory::slots(&board), 0)
        );
        // Same pawns, another set of pieces: only the pawn table (and Black's pieces) apply.
        let knight_out = "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 1 1".parse::<Board>().unwrap();
        let partial = h.correct(CorrectionHistory::slots(&knight_out), 0);
        assert!(partial > 0 && partial < h.correct(CorrectionHistory::slots(&board), 0), "{partial}");
    }
}
