//! The per-thread stack of accumulators, updated incrementally along a search path.

use alloc::sync::Arc;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use cutoff_board::{Board, CastlingSide, Color, MAX_PLY, Move, PieceType, Square};

use crate::{Network, feature_index, kernels};

/// The plies a new stack holds: [`MAX_PLY`] and a margin (quiescence search may look a few
/// plies past the main search's limit). A deeper push grows the stack.
const PLIES: usize = MAX_PLY + 16;

/// A piece on a square: one input feature in each perspective.
#[derive(Clone, Copy)]
struct Placed {
    color: Color,
    kind: PieceType,
    sq: Square,
}

impl Placed {
    #[inline(always)]
    fn index(self, perspective: Color) -> usize {
        feature_index(perspective, self.color, self.kind, self.sq)
    }
}

/// What a move changes in the feature set: which pieces appear and disappear.
#[derive(Clone, Copy)]
enum Change {
    /// Nothing (a null move, or a move with no piece on its `from` square, which
    /// `Board::play_unchecked` ignores too).
    Nothing,
    /// A quiet move or a promotion without capture: one piece disappears, one appears.
    Move { add: Placed, sub: Placed },
    /// A capture (en passant and capturing promotions included): the captured piece also goes.
    Capture { add: Placed, sub: Placed, captured: Placed },
    /// Castling: king and rook both move. With Chess960 the king or the rook may stay where it
    /// is, or they may swap squares; the features are cancelled or exchanged correctly by the
    /// same four updates.
    Castle { adds: [Placed; 2], subs: [Placed; 2] },
}

impl Change {
    /// The change made by `mv`, which must be legal in `before` (as for
    /// `Board::play_unchecked`), following the board's own move encoding: castling is
    /// "king takes own rook", en passant captures beside the target square.
    fn of(before: &Board, mv: Move) -> Change {
        let (from, to) = (mv.from(), mv.to());
        let Some(piece) = before.piece_on(from) else {
            debug_assert!(false, "no piece on the from square of {mv:?} in {}", before.fen());
            return Change::Nothing;
        };
        let us = piece.color();
        let at = |kind, sq| Placed { color: us, kind, sq };
        if mv.is_castle() {
            let side = if to.file() > from.file() { CastlingSide::King } else { CastlingSide::Queen };
            return Change::Castle {
                subs: [at(PieceType::King, from), at(PieceType::Rook, to)],
                adds: [at(PieceType::King, side.king_destination(us)), at(PieceType::Rook, side.rook_destination(us))],
            };
        }
        let sub = at(piece.kind(), from);
        let add = at(mv.promotion().unwrap_or(piece.kind()), to);
        let target = if mv.is_en_passant() { Square::new(to.file(), from.rank()) } else { to };
        match before.piece_on(target) {
            Some(victim) if mv.is_capture() => Change::Capture {
                add,
                sub,
                captured: Placed { color: victim.color(), kind: victim.kind(), sq: target },
            },
            _ => Change::Move { add, sub },
        }
    }
}

/// The accumulators of the positions along a search path, one pair (White's perspective,
/// Black's) per ply, updated incrementally: [`push`](Self::push) computes the next ply's pair
/// from the current one and the move's few changed features, [`pop`](Self::pop) goes back
/// (no work: the previous pair is still there).
///
/// Each search thread owns one; they share the [`Network`] through an [`Arc`]. Memory:
/// `2 × N × 2` bytes per ply, preallocated for [`MAX_PLY`] + 16 plies (about 590 KB at
/// N = 1024); a deeper push grows it.
///
/// ```
/// use std::sync::Arc;
/// use cutoff_board::Board;
/// use cutoff_nnue::{AccumulatorStack, INPUTS, Network};
///
/// let n = 16;
/// let weights = (0..INPUTS * n).map(|i| (i % 7) as i16 - 3).collect();
/// let net = Arc::new(Network::from_parts(n, weights, vec![10; n], vec![4; 2 * n], vec![0]).unwrap());
/// let mut stack = AccumulatorStack::new(Arc::clone(&net));
///
/// let mut board = Board::default();
/// stack.reset(&board); // ply 0: the root
/// for uci in ["e2e4", "d7d5", "e4d5"] {
///     let mv = board.parse_uci(uci).unwrap();
///     stack.push(&board, mv); // before the move is played on `board`
///     board.play_unchecked(mv);
///     assert_eq!(stack.evaluate(&board), net.evaluate(&board));
/// }
/// assert_eq!(stack.ply(), 3);
/// stack.pop();
/// assert_eq!(stack.ply(), 2);
/// ```
pub struct AccumulatorStack {
    network: Arc<Network>,
    /// `2 × N` values per ply: White's perspective, then Black's.
    data: Vec<i16>,
    ply: usize,
}

impl fmt::Debug for AccumulatorStack {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AccumulatorStack").field("network", &self.network).field("ply", &self.ply).finish()
    }
}

impl AccumulatorStack {
    /// A stack for `network`, at ply 0 with the accumulators of the standard start position
    /// (call [`reset`](Self::reset) with the root of each search).
    pub fn new(network: Arc<Network>) -> AccumulatorStack {
        let width = 2 * network.hidden();
        let mut stack = AccumulatorStack { network, data: vec![0; PLIES * width], ply: 0 };
        stack.refresh(&Board::default());
        stack
    }

    /// The network this stack evaluates with.
    #[inline]
    pub fn network(&self) -> &Arc<Network> {
        &self.network
    }

    /// The current ply: the number of pushes not yet popped since the last
    /// [`reset`](Self::reset).
    #[inline]
    pub fn ply(&self) -> usize {
        self.ply
    }

    /// Goes back to ply 0 and computes the accumulators of `board` there (a search's root).
    pub fn reset(&mut self, board: &Board) {
        self.ply = 0;
        self.refresh(board);
    }

    /// Recomputes the current ply's accumulators from scratch for `board` (the ply is
    /// unchanged).
    pub fn refresh(&mut self, board: &Board) {
        let n = self.network.hidden();
        let start = 2 * self.ply * n;
        let (white, black) = self.data[start..start + 2 * n].split_at_mut(n);
        self.network.refresh(board, Color::White, white);
        self.network.refresh(board, Color::Black, black);
    }

    /// Pushes the accumulators of the position after `mv` is played on `before`, computed
    /// from the current ply's, which must be those of `before`. `mv` must be legal in
    /// `before` (as for [`Board::play_unchecked`]); call this before playing it.
    ///
    /// Handles every kind of move of the board's encoding: quiet moves, captures, en passant,
    /// promotions with or without capture, and castling (standard and Chess960).
    #[inline]
    pub fn push(&mut self, before: &Board, mv: Move) {
        let change = Change::of(before, mv);
        let network = &*self.network;
        let n = network.hidden();
        let (prev, next) = advance(&mut self.data, &mut self.ply, 2 * n);
        for (perspective, (prev, next)) in
            Color::ALL.into_iter().zip(prev.chunks_exact(n).zip(next.chunks_exact_mut(n)))
        {
            let row = |placed: Placed| network.row(placed.index(perspective));
            match change {
                Change::Nothing => next.copy_from_slice(prev),
                Change::Move { add, sub } => kernels::add_sub(next, prev, row(add), row(sub)),
                Change::Capture { add, sub, captured } => {
                    kernels::add_sub_sub(next, prev, row(add), row(sub), row(captured));
                }
                Change::Castle { adds, subs } => {
                    kernels::add_add_sub_sub(next, prev, adds.map(row), subs.map(row));
                }
            }
        }
    }

    /// Pushes the accumulators of the position after a null move: the same pieces, so the
    /// same accumulators (only the side to move, given to [`evaluate`](Self::evaluate),
    /// changes).
    #[inline]
    pub fn push_null(&mut self) {
        let (prev, next) = advance(&mut self.data, &mut self.ply, 2 * self.network.hidden());
        next.copy_from_slice(prev);
    }

    /// Goes back one ply, to the accumulators before the last [`push`](Self::push) or
    /// [`push_null`](Self::push_null).
    ///
    /// # Panics
    ///
    /// At ply 0 (a pop without a push).
    #[inline]
    pub fn pop(&mut self) {
        assert!(self.ply > 0, "AccumulatorStack::pop at ply 0");
        self.ply -= 1;
    }

    /// The current ply's accumulator of `perspective` (`N` values, in `QA` units).
    #[inline]
    pub fn accumulator(&self, perspective: Color) -> &[i16] {
        let n = self.network.hidden();
        let start = (2 * self.ply + perspective.index()) * n;
        &self.data[start..start + n]
    }

    /// The evaluation of the current ply's position `board`, in centipawns from its side to
    /// move's point of view: the same formula and result as [`Network::evaluate`] on that
    /// position. `board` must be the position the stack has followed to this ply (only its
    /// side to move and its piece count are read).
    #[inline]
    pub fn evaluate(&self, board: &Board) -> i32 {
        let stm = board.side_to_move();
        self.network.output(self.accumulator(stm), self.accumulator(!stm), board.occupied().len())
    }
}

/// Moves `ply` to the next ply (growing `data` if needed) and returns the previous ply's pair
/// of accumulators and the new ply's, to be filled; `width` is `2 × N`.
#[inline]
fn advance<'a>(data: &'a mut Vec<i16>, ply: &mut usize, width: usize) -> (&'a [i16], &'a mut [i16]) {
    let start = *ply * width;
    if data.len() < start + 2 * width {
        data.resize(start + 2 * width, 0);
    }
    *ply += 1;
    let (done, next) = data.split_at_mut(start + width);
    (&done[start..], &mut next[..width])
}
