//! Static exchange evaluation.

use crate::attacks;
use crate::{Board, Move, PieceType};

/// Piece values used by static exchange evaluation, indexed by [`PieceType`] (king = 0: a
/// king capture ends the exchange by rule instead).
///
/// ```
/// use cutoff_board::{Board, PieceType, SEE_VALUES};
/// assert_eq!(SEE_VALUES[PieceType::Queen as usize], 900);
/// assert_eq!(SEE_VALUES[PieceType::King as usize], 0);
/// // Rxd5 cxd5 wins a pawn (100) and loses the rook (500): -400 in these units.
/// let board = Board::from_fen("4k3/8/2p5/3p4/8/8/3R4/4K3 w - - 0 1", false).unwrap();
/// let rxd5 = board.parse_uci("d2d5").unwrap();
/// let balance = SEE_VALUES[PieceType::Pawn as usize] - SEE_VALUES[PieceType::Rook as usize];
/// assert!(board.see_ge(rxd5, balance));
/// assert!(!board.see_ge(rxd5, balance + 1));
/// ```
pub const SEE_VALUES: [i32; 6] = [100, 300, 300, 500, 900, 0];

#[inline(always)]
fn value(kind: PieceType) -> i32 {
    SEE_VALUES[kind as usize]
}

impl Board {
    /// Static exchange evaluation: whether the material balance after `mv` and the best
    /// sequence of recaptures on its target square is at least `threshold` (in
    /// [`SEE_VALUES`] units) for the side to move.
    ///
    /// Handles x-rays (sliders behind the capturing pieces join in), promotions (the new piece
    /// counts), en passant, and the king (it only recaptures when the square is no longer
    /// defended). Castling has a balance of 0. `mv` should be legal.
    ///
    /// ```
    /// use cutoff_board::Board;
    /// // The e5 pawn is defended by d6: Nxe5 dxe5 loses a knight for a pawn.
    /// let b = Board::from_fen("1k1r4/1pp4p/p2p4/4p3/8/P5P1/1PP2N1P/1K1R4 w - - 0 1", false).unwrap();
    /// let m = b.parse_uci("f2e4").unwrap();
    /// assert!(b.see_ge(m, 0)); // quiet move to a safe square
    /// let b = Board::from_fen("1k1r4/1pp4p/p2p4/4p3/8/P2N2P1/1PP4P/1K1R4 w - - 0 1", false).unwrap();
    /// let m = b.parse_uci("d3e5").unwrap();
    /// assert!(b.see_ge(m, -200));
    /// assert!(!b.see_ge(m, 0));
    /// ```
    pub fn see_ge(&self, mv: Move, threshold: i32) -> bool {
        if mv.is_castle() {
            return threshold <= 0;
        }
        let from = mv.from();
        let to = mv.to();
        let Some(mover) = self.kind_on(from) else {
            return threshold <= 0;
        };
        let mut occupied = self.occupied();
        let mut gain = if mv.is_en_passant() {
            let captured = crate::Square::new(to.file(), from.rank());
            occupied -= captured;
            value(PieceType::Pawn)
        } else {
            self.kind_on(to).map_or(0, value)
        };
        let mut on_square = mover;
        if let Some(promo) = mv.promotion() {
            gain += value(promo) - value(PieceType::Pawn);
            on_square = promo;
        }

        // `swap` is the balance if the opponent stops now, minus the threshold.
        let mut swap = gain - threshold;
        if swap < 0 {
            return false;
        }
        swap = value(on_square) - swap;
        if swap <= 0 {
            return true;
        }

        occupied = (occupied - from) | to;
        let mut stm = self.side_to_move();
        let mut attackers = self.attackers_to(to, occupied) & occupied;
        let bishops = self.pieces(PieceType::Bishop) | self.pieces(PieceType::Queen);
        let rooks = self.pieces(PieceType::Rook) | self.pieces(PieceType::Queen);
        let mut result = true;

        loop {
            stm = !stm;
            attackers &= occupied;
            let ours = attackers & self.colored(stm);
            if ours.is_empty() {
                break;
            }
            result = !result;

            let mut next = None;
            for kind in PieceType::ALL {
                let bb = ours & self.pieces(kind);
                if let Some(sq) = bb.first() {
                    next = Some((kind, sq));
                    break;
                }
            }
            let Some((kind, sq)) = next else { break };
            if kind == PieceType::King {
                // The king may only take if the opponent has nothing left to recapture with.
                return if (attackers & self.colored(!stm)).is_nonempty() { !result } else { result };
            }
            swap = value(kind) - swap;
            if swap < result as i32 {
                break;
            }
            occupied -= sq;
            match kind {
                PieceType::Pawn | PieceType::Bishop => attackers |= attacks::bishop(to, occupied) & bishops,
                PieceType::Rook => attackers |= attacks::rook(to, occupied) & rooks,
                PieceType::Queen => {
                    attackers |= (attacks::bishop(to, occupied) & bishops) | (attacks::rook(to, occupied) & rooks)
                }
                _ => {}
            }
        }
        result
    }
}
