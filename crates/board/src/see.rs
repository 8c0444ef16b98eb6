//! Static exchange evaluation.

use crate::attacks;
use crate::{Bitboard, Board, Color, Move, PieceType, Square};

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
        let Some(first) = self.first_capture(mv) else {
            return 0;
        };
        // gains[d]: the balance for the side that makes capture d, if the exchange stops
        // right after it.
        let mut gains = [0i32; 33];
        gains[0] = first.gain;
        let mut on_square = first.on_square;
        let mut exchange = Exchange::new(self, mv.to(), first.occupied);
        let mut stm = self.side_to_move();
        let mut depth = 0;
        loop {
            stm = !stm;
            let Some((kind, sq)) = exchange.least_valuable(stm) else {
                break;
            };
            // The king may only take when the other side has nothing left to recapture with.
            if kind == PieceType::King && exchange.has_attacker(!stm) {
                break;
            }
            depth += 1;
            gains[depth] = value(on_square) - gains[depth - 1];
            on_square = kind;
            exchange.remove(kind, sq);
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
        let Some(first) = self.first_capture(mv) else {
            return threshold <= 0;
        };
        // `swap` is the balance if the opponent stops now, minus the threshold.
        let mut swap = first.gain - threshold;
        if swap < 0 {
            return false;
        }
        swap = value(first.on_square) - swap;
        if swap <= 0 {
            return true;
        }

        let mut exchange = Exchange::new(self, mv.to(), first.occupied);
        let mut stm = self.side_to_move();
        let mut result = true;
        loop {
            stm = !stm;
            let Some((kind, sq)) = exchange.least_valuable(stm) else {
                break;
            };
            result = !result;
            if kind == PieceType::King {
                // The king may only take if the opponent has nothing left to recapture with.
                return if exchange.has_attacker(!stm) { !result } else { result };
            }
            swap = value(kind) - swap;
            if swap < result as i32 {
                break;
            }
            exchange.remove(kind, sq);
        }
        result
    }

    /// The first capture of `mv` (`None` for castling, or without a piece on `from`): what it
    /// wins, with a promotion's gain, and the occupancy after it.
    #[inline(always)]
    fn first_capture(&self, mv: Move) -> Option<FirstCapture> {
        if mv.is_castle() {
            return None;
        }
        let (from, to) = (mv.from(), mv.to());
        let mover = self.kind_on(from)?;
        let mut occupied = self.occupied();
        let mut gain = if mv.is_en_passant() {
            occupied -= Square::new(to.file(), from.rank());
            value(PieceType::Pawn)
        } else {
            self.kind_on(to).map_or(0, value)
        };
        let mut on_square = mover;
        if let Some(promo) = mv.promotion() {
            gain += value(promo) - value(PieceType::Pawn);
            on_square = promo;
        }
        Some(FirstCapture { gain, on_square, occupied: (occupied - from) | to })
    }
}

/// What [`Board::first_capture`] finds.
struct FirstCapture {
    /// The material the move wins.
    gain: i32,
    /// The piece it leaves on the target square, for the next capture to win.
    on_square: PieceType,
    /// The occupied squares after it.
    occupied: Bitboard,
}

/// The pieces that can still capture on one square as an exchange goes on: a capture takes its
/// piece off the board and uncovers the sliders behind it (x-rays).
struct Exchange<'a> {
    board: &'a Board,
    to: Square,
    occupied: Bitboard,
    /// Every piece that attacks `to` through `occupied` (stale bits are masked with it).
    attackers: Bitboard,
    /// The diagonal and the straight sliders, which an uncovered line can bring in.
    bishops: Bitboard,
    rooks: Bitboard,
}

impl<'a> Exchange<'a> {
    #[inline(always)]
    fn new(board: &'a Board, to: Square, occupied: Bitboard) -> Exchange<'a> {
        Exchange {
            board,
            to,
            occupied,
            attackers: board.attackers_to(to, occupied) & occupied,
            bishops: board.pieces(PieceType::Bishop) | board.pieces(PieceType::Queen),
            rooks: board.pieces(PieceType::Rook) | board.pieces(PieceType::Queen),
        }
    }

    /// The least valuable piece of `side` that can capture next, and its square.
    #[inline(always)]
    fn least_valuable(&mut self, side: Color) -> Option<(PieceType, Square)> {
        self.attackers &= self.occupied;
        let ours = self.attackers & self.board.colored(side);
        PieceType::ALL.into_iter().find_map(|kind| (ours & self.board.pieces(kind)).first().map(|sq| (kind, sq)))
    }

    /// Whether `side` still has a piece that attacks the square.
    #[inline(always)]
    fn has_attacker(&self, side: Color) -> bool {
        (self.attackers & self.board.colored(side)).is_nonempty()
    }

    /// Takes the capturing `kind` on `sq` off the board and adds the sliders it uncovers.
    #[inline(always)]
    fn remove(&mut self, kind: PieceType, sq: Square) {
        let (to, occupied) = (self.to, self.occupied - sq);
        self.occupied = occupied;
        match kind {
            PieceType::Pawn | PieceType::Bishop => self.attackers |= attacks::bishop(to, occupied) & self.bishops,
            PieceType::Rook => self.attackers |= attacks::rook(to, occupied) & self.rooks,
            PieceType::Queen => {
                self.attackers |=
                    (attacks::bishop(to, occupied) & self.bishops) | (attacks::rook(to, occupied) & self.rooks)
            }
            PieceType::Knight | PieceType::King => {}
        }
    }
}
