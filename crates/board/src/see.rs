//! Static exchange evaluation.

use crate::attacks;
use crate::{Board, Move, PieceType};

/// Piece values used by static exchange evaluation, indexed by [`PieceType::index`] (king =
/// 0: a king capture ends the exchange by rule instead). [`PieceType::see_value`] reads
/// one without indexing.
///
/// ```
/// use cutoff_board::{Board, CastlingMode, PieceType, SEE_VALUES};
/// assert_eq!(SEE_VALUES[PieceType::Queen.index()], 900);
/// assert_eq!(PieceType::Queen.see_value(), 900);
/// assert_eq!(PieceType::King.see_value(), 0);
/// // Rxd5 cxd5 wins a pawn (100) and loses the rook (500): -400 in these units.
/// let board = Board::from_fen("4k3/8/2p5/3p4/8/8/3R4/4K3 w - - 0 1", CastlingMode::Standard).unwrap();
/// let rxd5 = board.parse_uci("d2d5").unwrap();
/// let balance = PieceType::Pawn.see_value() - PieceType::Rook.see_value();
/// assert!(board.see_ge(rxd5, balance));
/// assert!(!board.see_ge(rxd5, balance + 1));
/// ```
pub const SEE_VALUES: [i32; 6] = [100, 300, 300, 500, 900, 0];

#[inline(always)]
fn value(kind: PieceType) -> i32 {
    kind.see_value()
}

impl PieceType {
    /// The value of this piece type in static exchange evaluation ([`SEE_VALUES`]):
    /// 100, 300, 300, 500, 900, and 0 for the king.
    ///
    /// ```
    /// use cutoff_board::PieceType;
    /// assert_eq!(PieceType::Knight.see_value(), PieceType::Bishop.see_value());
    /// let total: i32 = PieceType::ALL.iter().map(|kind| kind.see_value()).sum();
    /// assert_eq!(total, 2100);
    /// ```
    #[inline(always)]
    pub const fn see_value(self) -> i32 {
        SEE_VALUES[self.index()]
    }
}

impl Board {
    /// The static exchange value of `mv`: the material balance, for the side to move, after
    /// `mv` and the best sequence of recaptures on its target square (either side may stop
    /// capturing when that is better for it), in [`SEE_VALUES`] units.
    ///
    /// `see(mv) >= t` exactly when [`see_ge(mv, t)`](Board::see_ge) for every threshold
    /// `t`; `see_ge` is faster when only the comparison is needed (it stops as soon as the
    /// answer is known). `mv` must be legal (debug builds check that a piece of the side to
    /// move stands on its `from` square); see [`Board::try_see`].
    ///
    /// ```
    /// use cutoff_board::Board;
    /// // Rxd5 cxd5: the rook (500) for a pawn (100).
    /// let board: Board = "4k3/8/2p5/3p4/8/8/3R4/4K3 w - - 0 1".parse().unwrap();
    /// assert_eq!(board.see(board.parse_uci("d2d5").unwrap()), -400);
    /// // An undefended pawn: +100.
    /// let board: Board = "4k3/8/8/3p4/8/8/3R4/4K3 w - - 0 1".parse().unwrap();
    /// assert_eq!(board.see(board.parse_uci("d2d5").unwrap()), 100);
    /// // A quiet move to a square the opponent does not attack.
    /// assert_eq!(board.see(board.parse_uci("d2d3").unwrap()), 0);
    /// ```
    pub fn see(&self, mv: Move) -> i32 {
        self.debug_assert_mover(mv);
        if mv.is_castle() {
            return 0;
        }
        let from = mv.from();
        let to = mv.to();
        let Some(mover) = self.kind_on(from) else {
            return 0;
        };
        let mut occupied = self.occupied();
        // gains[d]: the balance for the side that makes capture d, if the exchange stops
        // right after it.
        let mut gains = [0i32; 33];
        gains[0] = if mv.is_en_passant() {
            occupied -= crate::Square::new(to.file(), from.rank());
            value(PieceType::Pawn)
        } else {
            self.kind_on(to).map_or(0, value)
        };
        let mut on_square = mover;
        if let Some(promo) = mv.promotion() {
            gains[0] += value(promo) - value(PieceType::Pawn);
            on_square = promo;
        }

        occupied = (occupied - from) | to;
        let mut stm = self.side_to_move();
        let mut attackers = self.attackers_to(to, occupied) & occupied;
        let bishops = self.pieces(PieceType::Bishop) | self.pieces(PieceType::Queen);
        let rooks = self.pieces(PieceType::Rook) | self.pieces(PieceType::Queen);
        let mut depth = 0;
        loop {
            stm = !stm;
            attackers &= occupied;
            let ours = attackers & self.colored(stm);
            let Some((kind, sq)) =
                PieceType::ALL.into_iter().find_map(|kind| (ours & self.pieces(kind)).first().map(|sq| (kind, sq)))
            else {
                break;
            };
            // The king may only take when the other side has nothing left to recapture with.
            if kind == PieceType::King && (attackers & self.colored(!stm)).is_nonempty() {
                break;
            }
            depth += 1;
            gains[depth] = value(on_square) - gains[depth - 1];
            on_square = kind;
            occupied -= sq;
            match kind {
                PieceType::Pawn | PieceType::Bishop => attackers |= attacks::bishop(to, occupied) & bishops,
                PieceType::Rook => attackers |= attacks::rook(to, occupied) & rooks,
                PieceType::Queen => {
                    attackers |= (attacks::bishop(to, occupied) & bishops) | (attacks::rook(to, occupied) & rooks)
                }
                _ => {}
            }
            if kind == PieceType::King || depth == gains.len() - 1 {
                break;
            }
        }
        // Each side captures only when that is better than stopping.
        while depth > 0 {
            gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
            depth -= 1;
        }
        gains[0]
    }

    /// [`Board::see`] if `mv` is legal here, else an error.
    ///
    /// ```
    /// use cutoff_board::{Board, IllegalMoveError, Move, MoveKind, Square};
    /// let board = Board::default();
    /// assert_eq!(board.try_see(board.parse_uci("e2e4").unwrap()), Ok(0));
    /// let king_takes_king = Move::new(Square::E1, Square::E8, MoveKind::Capture);
    /// assert_eq!(board.try_see(king_takes_king), Err(IllegalMoveError { mv: king_takes_king }));
    /// ```
    pub fn try_see(&self, mv: Move) -> Result<i32, crate::IllegalMoveError> {
        if self.is_legal(mv) { Ok(self.see(mv)) } else { Err(crate::IllegalMoveError { mv }) }
    }

    /// [`Board::see_ge`] if `mv` is legal here, else an error.
    ///
    /// ```
    /// use cutoff_board::{Board, IllegalMoveError, Move, MoveKind, Square};
    /// let board = Board::default();
    /// assert_eq!(board.try_see_ge(board.parse_uci("e2e4").unwrap(), 0), Ok(true));
    /// let king_takes_king = Move::new(Square::E1, Square::E8, MoveKind::Capture);
    /// assert_eq!(board.try_see_ge(king_takes_king, 0), Err(IllegalMoveError { mv: king_takes_king }));
    /// ```
    pub fn try_see_ge(&self, mv: Move, threshold: i32) -> Result<bool, crate::IllegalMoveError> {
        if self.is_legal(mv) { Ok(self.see_ge(mv, threshold)) } else { Err(crate::IllegalMoveError { mv }) }
    }

    /// Static exchange evaluation: whether the material balance after `mv` and the best
    /// sequence of recaptures on its target square is at least `threshold` (in
    /// [`SEE_VALUES`] units) for the side to move.
    ///
    /// Handles x-rays (sliders behind the capturing pieces join in), promotions (the new piece
    /// counts), en passant, and the king (it only recaptures when the square is no longer
    /// defended). Castling has a balance of 0. [`Board::see`] gives the balance itself.
    ///
    /// `mv` must be legal: the answer for an illegal move means nothing (debug builds check
    /// that a piece of the side to move stands on its `from` square); see
    /// [`Board::try_see_ge`].
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode};
    /// // The e5 pawn is defended by d6: Nxe5 dxe5 loses a knight for a pawn.
    /// let b = Board::from_fen("1k1r4/1pp4p/p2p4/4p3/8/P5P1/1PP2N1P/1K1R4 w - - 0 1", CastlingMode::Standard).unwrap();
    /// let m = b.parse_uci("f2e4").unwrap();
    /// assert!(b.see_ge(m, 0)); // quiet move to a safe square
    /// let b = Board::from_fen("1k1r4/1pp4p/p2p4/4p3/8/P2N2P1/1PP4P/1K1R4 w - - 0 1", CastlingMode::Standard).unwrap();
    /// let m = b.parse_uci("d3e5").unwrap();
    /// assert!(b.see_ge(m, -200));
    /// assert!(!b.see_ge(m, 0));
    /// ```
    pub fn see_ge(&self, mv: Move, threshold: i32) -> bool {
        self.debug_assert_mover(mv);
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
