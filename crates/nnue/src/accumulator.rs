//! The per-thread stack of accumulators, updated lazily along a search path.
//!
//! # Lazy updates
//!
//! A search pushes every move it makes, but many of the positions it reaches are never
//! evaluated (a transposition-table cutoff, a repetition, a pruned or cut-off child). So
//! [`AccumulatorStack::push`] only records the move's [`Change`] (the features that appear
//! and disappear) in the new ply and marks that ply's accumulators not computed; the
//! arithmetic happens when [`AccumulatorStack::evaluate`] needs the current ply's
//! accumulators:
//!
//! * **Per perspective.** Each ply has a `computed` flag per perspective (White's, Black's),
//!   and each perspective is brought up to date on its own (`update`). Both are always needed
//!   by an evaluation today; the flags are separate so that a change that invalidates one
//!   perspective only (below) costs that perspective only. The common case, both last
//!   computed at the same ply and no refresh on the way, takes one walk for both
//!   (`update_both`, 1.3 % fewer instructions in `cutoff bench 6` than two walks).
//! * **Walk back, apply forward.** `update` walks back from the current ply to the last ply
//!   whose accumulator of that perspective is computed (ply 0 always is: `reset` refreshes
//!   it), adding up what applying the recorded changes would cost in weight rows read, then
//!   applies them forward, one ply at a time, keeping each intermediate result and marking it
//!   computed: the siblings of the current position share those plies, and after a `pop` the
//!   parent is found computed.
//! * **Or refresh.** If the walk would read more rows than a refresh (one row per piece,
//!   plus the biases), or crosses a change that `Change::needs_refresh` for that
//!   perspective, the current ply's accumulator is recomputed from the board given to
//!   `evaluate` instead (`refresh_perspective`), and the plies in between stay not computed.
//!
//! Both ways give the same values (the arithmetic wraps exactly, see the `kernels` module),
//! so laziness never changes an evaluation.
//!
//! # King buckets and the refresh cache
//!
//! With king-bucketed inputs ([`KingBuckets`](crate::KingBuckets)), a perspective's features
//! depend on its own king's bucket and on whether its board is mirrored: its refresh class
//! ([`InputSet::refresh_class`]). A king move that changes the class changes every feature of
//! the mover's perspective and none of the other's:
//!
//! * `Change::needs_refresh(perspective, inputs)` is true for the mover's perspective when its
//!   king's refresh class changes, so a walk stops there and refreshes that perspective only;
//!   the other is still updated incrementally through the same ply. Along a walk that needs no
//!   refresh, a perspective's class is that of the current board's king, so
//!   the feature indices of every walked change come from the current board.
//! * `refresh_perspective` goes through a per-stack cache ("Finny table") with one entry per
//!   perspective and refresh class (king bucket, mirrored): an accumulator and the 12 piece bitboards it was
//!   computed for. A refresh adds the rows of the pieces on the board but not in the entry,
//!   subtracts those of the pieces in the entry but gone, stores the pieces and the result in
//!   the entry, and copies it to the ply. When the difference has more pieces than the board,
//!   the entry starts again from the biases (a plain refresh). Entries start empty: biases, no
//!   pieces.
//! * The walk's budget is that refresh's cost: the number of pieces that differ (at most the
//!   number on the board), plus a small overhead (`REFRESH_OVERHEAD`: the bitboard
//!   comparison, the copies, and the intermediate plies a walk leaves for the siblings). It is
//!   computed only for walks longer than one ply.
//! * Without king buckets or mirroring (one entry per perspective) there is no cache: a
//!   refresh starts from the biases and the walk's budget is the piece count. With the cache, `net5` ran 4.0 % more instructions in
//!   `cutoff bench 7` (callgrind), because the cheap estimate sends short walks to refreshes
//!   from an entry that a distant branch of the tree left behind.

use alloc::sync::Arc;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use cutoff_board::{Bitboard, Board, CastlingSide, Color, MAX_PLY, Move, PieceType, Square};

use crate::{InputSet, Inputs, Network, kernels};

/// How a perspective indexes features with its king on one square.
type View = <Inputs as InputSet>::View;

/// The plies a new stack holds: [`MAX_PLY`] and a margin (quiescence search may look a few
/// plies past the main search's limit). A deeper push grows the stack.
const PLIES: usize = MAX_PLY + 16;

/// A piece on a square: one input feature in each perspective.
#[derive(Clone, Copy, Debug)]
struct Placed {
    color: Color,
    kind: PieceType,
    sq: Square,
}

impl Placed {
    #[inline(always)]
    fn index(self, view: View) -> usize {
        Inputs::index(view, self.color, self.kind, self.sq)
    }
}

/// What a move changes in the feature set: which pieces appear and disappear.
#[derive(Clone, Copy, Debug)]
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
    /// The number of weight rows applying the change reads (per perspective).
    #[inline]
    fn rows(self) -> usize {
        match self {
            Change::Nothing => 0,
            Change::Move { .. } => 2,
            Change::Capture { .. } => 3,
            Change::Castle { .. } => 4,
        }
    }

    /// Whether `perspective`'s accumulator after the change must be refreshed rather than
    /// updated: a move of `perspective`'s king (castling included) to another refresh class
    /// of `inputs` (with king buckets: another bucket, or the mirroring flips) changes every
    /// feature of that perspective (and only of that one).
    #[inline]
    fn needs_refresh(self, perspective: Color, inputs: &Inputs) -> bool {
        let (from, to) = match self {
            Change::Move { add, sub } | Change::Capture { add, sub, .. } if sub.kind == PieceType::King => (sub, add),
            Change::Castle { adds, subs } => (subs[0], adds[0]),
            _ => return false,
        };
        from.color == perspective && inputs.needs_refresh(perspective, from.sq, to.sq)
    }

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
/// Black's) per ply, updated lazily: [`push`](Self::push) only records the move's changed
/// features, and [`evaluate`](Self::evaluate) computes the accumulators it needs from the
/// last computed ones (see the crate documentation, "Accumulators"); [`pop`](Self::pop) goes
/// back at no cost.
///
/// Each search thread owns one; they share the [`Network`] through an [`Arc`]. Memory:
/// `2 × N × 2` bytes per ply, preallocated for [`MAX_PLY`] + 16 plies (about 590 KB at
/// N = 1024), and the refresh cache of `4 × K` accumulators and their pieces (`K` king
/// buckets; about 8 KB at N = 1024 without king buckets, 256 KB with 32); a deeper push grows
/// the plies.
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
    /// `2 × N` values per ply: White's perspective, then Black's. A perspective's values are
    /// meaningful only where its [`Ply::computed`] flag is set.
    data: Vec<i16>,
    /// One per ply, as long as `data` has plies.
    plies: Vec<Ply>,
    ply: usize,
    /// The network's input set.
    inputs: Inputs,
    /// Whether refreshes go through the cache: only with more than one refresh class (king
    /// buckets or mirroring). With one (one entry per perspective) the cache measured slower than refreshing from the
    /// biases (`net5`, callgrind `bench 7`: +4.0 % instructions), because its cost estimate
    /// sends short walks to refreshes from an entry left by a distant branch of the tree.
    cached: bool,
    /// Without the cache (one refresh class), each perspective's view, the same for every
    /// king square: worked out once here rather than at each update.
    fixed_views: [View; 2],
    /// The refresh cache's accumulators, `N` values per entry (see [`entry`](Self::entry)).
    cache: Vec<i16>,
    /// The pieces each cache entry's accumulator was computed for, by colour then piece type.
    cache_pieces: Vec<[Bitboard; 12]>,
}

/// What the stack knows of one ply besides its accumulators.
#[derive(Clone, Copy)]
struct Ply {
    /// The change from the previous ply to this one (ply 0: [`Change::Nothing`], unused).
    change: Change,
    /// Whether each perspective's accumulator (White's, Black's) holds this ply's values.
    /// Ply 0's are always set.
    computed: [bool; 2],
}

impl Ply {
    const FRESH: Ply = Ply { change: Change::Nothing, computed: [true; 2] };
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
        let n = network.hidden();
        let inputs = *network.inputs();
        let entries = 2 * inputs.refresh_classes();
        let cache = network.feature_bias().repeat(entries);
        let mut stack = AccumulatorStack {
            network,
            data: vec![0; PLIES * 2 * n],
            plies: vec![Ply::FRESH; PLIES],
            ply: 0,
            inputs,
            cached: inputs.refresh_classes() > 1,
            fixed_views: Color::ALL.map(|p| inputs.view(p, Square::E1)),
            cache,
            cache_pieces: vec![[Bitboard::EMPTY; 12]; entries],
        };
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
        for perspective in Color::ALL {
            self.refresh_perspective(board, perspective);
        }
    }

    /// Records the move `mv`, played on `before`, as the next ply: the current ply's
    /// position must be `before`, and `mv` must be legal in it (as for
    /// [`Board::play_unchecked`]); call this before playing it.
    ///
    /// No arithmetic: the new ply's accumulators are computed when an evaluation needs them.
    /// Handles every kind of move of the board's encoding: quiet moves, captures, en passant,
    /// promotions with or without capture, and castling (standard and Chess960).
    #[inline]
    pub fn push(&mut self, before: &Board, mv: Move) {
        self.advance(Change::of(before, mv));
    }

    /// Records a null move as the next ply: the same pieces, so the same accumulators (only
    /// the side to move, given to [`evaluate`](Self::evaluate), changes).
    #[inline]
    pub fn push_null(&mut self) {
        self.advance(Change::Nothing);
    }

    /// Goes back one ply, to the position before the last [`push`](Self::push) or
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

    /// The current ply's accumulator of `perspective` (`N` values, in `QA` units), computed
    /// first if it is not yet. `board` must be the position the stack has followed to this
    /// ply, as for [`evaluate`](Self::evaluate).
    #[inline]
    pub fn accumulator(&mut self, board: &Board, perspective: Color) -> &[i16] {
        self.update(board, perspective);
        let n = self.network.hidden();
        let start = (2 * self.ply + perspective.index()) * n;
        &self.data[start..start + n]
    }

    /// The evaluation of the current ply's position `board`, in centipawns from its side to
    /// move's point of view: the same formula and result as [`Network::evaluate`] on that
    /// position. `board` must be the position the stack has followed to this ply (the
    /// accumulators are computed from the recorded moves, or from `board` when that is
    /// cheaper; either way the result is the same).
    #[inline]
    pub fn evaluate(&mut self, board: &Board) -> i32 {
        if !self.update_both(board) {
            for perspective in Color::ALL {
                self.update(board, perspective);
            }
        }
        let n = self.network.hidden();
        let (white, black) = self.data[2 * self.ply * n..(2 * self.ply + 2) * n].split_at(n);
        let pieces = board.occupied().len();
        match board.side_to_move() {
            Color::White => self.network.output(white, black, pieces),
            Color::Black => self.network.output(black, white, pieces),
        }
    }

    /// Moves to the next ply, reached by `change`, whose accumulators are not computed yet.
    #[inline]
    fn advance(&mut self, change: Change) {
        self.ply += 1;
        if self.plies.len() <= self.ply {
            self.plies.resize(self.ply + 1, Ply::FRESH);
            self.data.resize(self.plies.len() * 2 * self.network.hidden(), 0);
        }
        self.plies[self.ply] = Ply { change, computed: [false; 2] };
    }

    /// Computes both of the current ply's accumulators by walking forward, in the common case
    /// where the two perspectives were last computed at the same ply and the walk is cheaper
    /// than refreshes and needs none: one walk, each change decoded once for both. Returns
    /// whether it did (or had nothing to do); otherwise it changes nothing, and
    /// [`update`](Self::update) handles each perspective on its own.
    #[inline]
    fn update_both(&mut self, board: &Board) -> bool {
        let budget = board.occupied().len() as usize + 1;
        let mut cost = 0;
        let mut base = self.ply;
        loop {
            let ply = self.plies[base];
            match ply.computed {
                [true, true] => break,
                [false, false] => {}
                _ => return false,
            }
            cost += ply.change.rows() + 1;
            if cost > budget
                || (self.cached && Color::ALL.into_iter().any(|p| ply.change.needs_refresh(p, &self.inputs)))
            {
                return false;
            }
            base -= 1; // ply 0 is always computed: `base` stays above it here
        }
        if self.cached && cost > ONE_PLY && Color::ALL.into_iter().any(|p| cost > self.refresh_cost(board, p)) {
            return false;
        }
        let network = &*self.network;
        let n = network.hidden();
        let views = Color::ALL.map(|p| self.view(board, p));
        for ply in base + 1..=self.ply {
            let (done, next) = self.data.split_at_mut(2 * ply * n);
            let prev = &done[2 * (ply - 1) * n..];
            let change = self.plies[ply].change;
            for (&view, (prev, next)) in views.iter().zip(prev.chunks_exact(n).zip(next[..2 * n].chunks_exact_mut(n))) {
                apply(network, view, change, prev, next);
            }
            self.plies[ply].computed = [true; 2];
        }
        true
    }

    /// Computes the current ply's accumulator of `perspective` if it is not yet: from the
    /// last computed ply below it, applying each recorded change forward (and keeping each
    /// ply's result, which the next sibling's evaluation will find computed), or with
    /// [`refresh_perspective`](Self::refresh_perspective) when the walk would read more
    /// weight rows than a refresh from the cache ([`refresh_cost`](Self::refresh_cost)) or
    /// crosses a change that needs a refresh.
    #[inline]
    fn update(&mut self, board: &Board, perspective: Color) {
        let side = perspective.index();
        if self.plies[self.ply].computed[side] {
            return;
        }
        let budget = board.occupied().len() as usize + 1;
        let mut cost = 0;
        let mut base = self.ply;
        while !self.plies[base].computed[side] {
            let change = self.plies[base].change;
            cost += change.rows() + 1;
            if cost > budget || (self.cached && change.needs_refresh(perspective, &self.inputs)) {
                self.refresh_perspective(board, perspective);
                return;
            }
            base -= 1; // ply 0 is always computed: `base` stays above it here
        }
        if self.cached && cost > ONE_PLY && cost > self.refresh_cost(board, perspective) {
            self.refresh_perspective(board, perspective);
            return;
        }
        let network = &*self.network;
        let n = network.hidden();
        let view = self.view(board, perspective);
        for ply in base + 1..=self.ply {
            let (done, next) = self.data.split_at_mut((2 * ply + side) * n);
            let prev = &done[(2 * (ply - 1) + side) * n..][..n];
            apply(network, view, self.plies[ply].change, prev, &mut next[..n]);
            self.plies[ply].computed[side] = true;
        }
    }

    /// How `perspective` sees `board`'s pieces (with king buckets: its king's bucket and
    /// mirroring; with one refresh class, the same view for every king).
    #[inline(always)]
    fn view(&self, board: &Board, perspective: Color) -> View {
        if self.cached {
            self.inputs.view(perspective, board.king(perspective))
        } else {
            self.fixed_views[perspective.index()]
        }
    }

    /// The index of the refresh cache's entry for `perspective` with its king on `king`:
    /// `perspective × classes + class`.
    #[inline]
    fn entry(&self, perspective: Color, king: Square) -> usize {
        perspective.index() * self.inputs.refresh_classes() + self.inputs.refresh_class(perspective, king)
    }

    /// The pieces of `board`, by colour then piece type, as the cache stores them.
    #[inline]
    fn pieces(board: &Board) -> [Bitboard; 12] {
        core::array::from_fn(|i| board.colored_pieces(Color::ALL[i / 6], PieceType::ALL[i % 6]))
    }

    /// The cost, in the walk's units (weight rows read, plus one per accumulator written), of
    /// [`refresh_perspective`](Self::refresh_perspective) for `board`: the pieces that differ
    /// between the cache entry and `board` (at most the pieces on `board`, from the biases),
    /// plus [`REFRESH_OVERHEAD`].
    #[inline]
    fn refresh_cost(&self, board: &Board, perspective: Color) -> usize {
        let cached = &self.cache_pieces[self.entry(perspective, board.king(perspective))];
        let now = Self::pieces(board);
        let differ: u32 = cached.iter().zip(&now).map(|(&a, &b)| (a ^ b).len()).sum();
        differ.min(board.occupied().len()) as usize + REFRESH_OVERHEAD
    }

    /// Computes the current ply's accumulator of `perspective` for `board` from the refresh
    /// cache: the entry of `perspective`'s king bucket and mirroring is brought to `board`'s
    /// pieces (the rows of the pieces added since added, of those gone subtracted; or from the
    /// biases when that is fewer rows), stored back, and copied to the ply.
    fn refresh_perspective(&mut self, board: &Board, perspective: Color) {
        let network = &*self.network;
        let n = network.hidden();
        if !self.cached {
            let start = (2 * self.ply + perspective.index()) * n;
            network.refresh(board, perspective, &mut self.data[start..start + n]);
            self.plies[self.ply].computed[perspective.index()] = true;
            return;
        }
        let king = board.king(perspective);
        let entry = self.entry(perspective, king);
        let view = self.inputs.view(perspective, king);
        let now = Self::pieces(board);
        let cached = &mut self.cache_pieces[entry];
        let acc = &mut self.cache[entry * n..(entry + 1) * n];
        let differ: u32 = cached.iter().zip(&now).map(|(&a, &b)| (a ^ b).len()).sum();
        if differ > board.occupied().len() {
            acc.copy_from_slice(network.feature_bias());
            *cached = [Bitboard::EMPTY; 12];
        }
        for (i, (old, new)) in cached.iter().zip(&now).enumerate() {
            let (color, kind) = (Color::ALL[i / 6], PieceType::ALL[i % 6]);
            let (mut added, mut removed) = ((*new - *old).into_iter(), (*old - *new).into_iter());
            loop {
                match (added.next(), removed.next()) {
                    (Some(a), Some(r)) => kernels::add_sub_assign(
                        acc,
                        network.row(Inputs::index(view, color, kind, a)),
                        network.row(Inputs::index(view, color, kind, r)),
                    ),
                    (Some(a), None) => kernels::add(acc, network.row(Inputs::index(view, color, kind, a))),
                    (None, Some(r)) => kernels::sub(acc, network.row(Inputs::index(view, color, kind, r))),
                    (None, None) => break,
                }
            }
        }
        *cached = now;
        let start = (2 * self.ply + perspective.index()) * n;
        self.data[start..start + n].copy_from_slice(acc);
        self.plies[self.ply].computed[perspective.index()] = true;
    }
}

/// A refresh's cost beyond its rows: comparing the 12 bitboards, writing the entry back and
/// copying it to the ply. It also stands for what a walk gives and a refresh does not: the
/// intermediate plies, which the siblings' evaluations find computed. With it, a walk of three
/// quiet moves from a position the cache holds costs as much as the refresh (9), and is
/// preferred.
const REFRESH_OVERHEAD: usize = 3;

/// The walk's cost of one ply of the most rows: walks up to this long are applied without
/// comparing with the refresh cache, whose cheapest refresh (a quiet move's two pieces, plus
/// the copy) costs about as much.
const ONE_PLY: usize = 5;

/// Writes into `next` the accumulator seen through `view` after `change`, from `prev`'s.
#[inline]
fn apply(network: &Network, view: View, change: Change, prev: &[i16], next: &mut [i16]) {
    let row = |placed: Placed| network.row(placed.index(view));
    match change {
        Change::Nothing => next.copy_from_slice(prev),
        Change::Move { add, sub } => kernels::add_sub(next, prev, row(add), row(sub)),
        Change::Capture { add, sub, captured } => kernels::add_sub_sub(next, prev, row(add), row(sub), row(captured)),
        Change::Castle { adds, subs } => kernels::add_add_sub_sub(next, prev, adds.map(row), subs.map(row)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{INPUTS, KingBuckets};

    fn network() -> Arc<Network> {
        let n = 32;
        let weights = (0..INPUTS * n).map(|i| (i * 37 % 101) as i16 - 50).collect();
        let output = (0..2 * n).map(|i| (i * 13 % 61) as i16 - 30).collect();
        Arc::new(Network::from_parts(n, weights, vec![20; n], output, vec![1_000]).unwrap())
    }

    /// Plays `moves` from the start position, pushing each, and returns the final position.
    fn play(stack: &mut AccumulatorStack, moves: &[&str]) -> Board {
        let mut board = Board::default();
        stack.reset(&board);
        for uci in moves {
            let mv = board.parse_uci(uci).unwrap();
            stack.push(&board, mv);
            board.play_unchecked(mv);
        }
        board
    }

    fn computed(stack: &AccumulatorStack) -> Vec<[bool; 2]> {
        stack.plies[..=stack.ply].iter().map(|p| p.computed).collect()
    }

    #[test]
    fn a_push_computes_nothing_and_an_evaluation_walks_forward() {
        let net = network();
        let mut stack = AccumulatorStack::new(Arc::clone(&net));
        let board = play(&mut stack, &["e2e4", "e7e5", "g1f3"]);
        assert_eq!(computed(&stack), [[true; 2], [false; 2], [false; 2], [false; 2]]);
        // A walk of three quiet moves (3 × 3 rows) is cheaper than a refresh (33 rows).
        assert_eq!(stack.evaluate(&board), net.evaluate(&board));
        assert_eq!(computed(&stack), [[true; 2]; 4]);
        // One perspective alone, for a position reached by a null move and a capture.
        stack.push_null();
        let mut board = board.null_move().unwrap();
        for uci in ["f3g5", "d8g5"] {
            let mv = board.parse_uci(uci).unwrap();
            stack.push(&board, mv);
            board.play_unchecked(mv);
        }
        let mut fresh = AccumulatorStack::new(Arc::clone(&net));
        fresh.reset(&board);
        assert_eq!(stack.accumulator(&board, Color::Black), fresh.accumulator(&board, Color::Black));
        assert_eq!(computed(&stack)[4..], [[false, true]; 3]);
        // Popping keeps what was computed: the parent's evaluation needs no work.
        stack.pop();
        assert_eq!(computed(&stack)[5], [false, true]);
    }

    /// Twelve quiet moves from the start, evaluated only at the end: 36 rows, more than a
    /// refresh's 33 (or, from a cache, 0 + 3), so the last ply is refreshed and none between.
    fn twelve_knight_moves(net: &Arc<Network>) -> (AccumulatorStack, [&'static str; 12]) {
        let mut stack = AccumulatorStack::new(Arc::clone(net));
        let moves = ["g1f3", "g8f6", "f3g1", "f6g8", "b1c3", "b8c6", "c3b1", "c6b8", "g1f3", "g8f6", "f3g1", "f6g8"];
        let board = play(&mut stack, &moves);
        assert_eq!(stack.evaluate(&board), net.evaluate(&board));
        let mut expected = vec![[false; 2]; 13];
        expected[0] = [true; 2];
        expected[12] = [true; 2];
        assert_eq!(computed(&stack), expected);
        (stack, moves)
    }

    #[test]
    fn a_walk_longer_than_a_refresh_refreshes() {
        let net = network();
        let (mut stack, moves) = twelve_knight_moves(&net);
        // Eleven are walked: without king buckets or mirroring there is no cache to refresh
        // from, and the walk (33) costs no more than a refresh.
        let board = play(&mut stack, &moves[..11]);
        assert_eq!(stack.evaluate(&board), net.evaluate(&board));
        assert_eq!(computed(&stack), [[true; 2]; 12]);
    }

    #[test]
    fn with_a_cache_a_walk_is_compared_with_the_cached_refresh() {
        // One bucket, mirrored: refreshes go through the cache.
        let layout = KingBuckets::new(true, [0; 32]).unwrap();
        let n = 32;
        let weights = (0..layout.inputs() * n).map(|i| (i * 37 % 101) as i16 - 50).collect();
        let output = (0..2 * n).map(|i| (i * 13 % 61) as i16 - 30).collect();
        let net = Arc::new(Network::from_bucketed_parts(layout, n, weights, vec![20; n], output, vec![1_000]).unwrap());
        let (mut stack, moves) = twelve_knight_moves(&net);
        // The cache holds the start position, which differs from the one after eleven moves by
        // two pieces: a refresh (2 + 3) is cheaper than the walk (33).
        let board = play(&mut stack, &moves[..11]);
        assert_eq!(stack.evaluate(&board), net.evaluate(&board));
        let mut expected = vec![[false; 2]; 12];
        expected[0] = [true; 2];
        expected[11] = [true; 2];
        assert_eq!(computed(&stack), expected);
        // Three developing moves: a walk of 9 against a refresh of 6 + 3; walked.
        let board = play(&mut stack, &["g1f3", "g8f6", "b1c3"]);
        assert_eq!(stack.evaluate(&board), net.evaluate(&board));
        assert_eq!(computed(&stack), [[true; 2]; 4]);
        // Four: 12 against 8 + 3; refreshed.
        let board = play(&mut stack, &["g1f3", "g8f6", "b1c3", "b8c6"]);
        assert_eq!(stack.evaluate(&board), net.evaluate(&board));
        assert_eq!(computed(&stack), [[true; 2], [false; 2], [false; 2], [false; 2], [true; 2]]);
    }

    #[test]
    fn a_king_move_into_another_bucket_refreshes_the_movers_perspective_only() {
        // One bucket per rank, mirrored.
        let layout = KingBuckets::new(true, core::array::from_fn(|sq| (sq / 4) as u8)).unwrap();
        let n = 32;
        let weights = (0..layout.inputs() * n).map(|i| (i * 37 % 101) as i16 - 50).collect();
        let output = (0..2 * n).map(|i| (i * 13 % 61) as i16 - 30).collect();
        let net = Arc::new(Network::from_bucketed_parts(layout, n, weights, vec![20; n], output, vec![1_000]).unwrap());
        let mut stack = AccumulatorStack::new(Arc::clone(&net));
        let board = play(&mut stack, &["e2e4", "e7e5"]);
        assert_eq!(stack.evaluate(&board), net.evaluate(&board));
        // Ke2 changes White's bucket; Black's d7d6 does not change Black's.
        let mut board = board;
        for uci in ["e1e2", "d7d6"] {
            let mv = board.parse_uci(uci).unwrap();
            stack.push(&board, mv);
            board.play_unchecked(mv);
        }
        assert_eq!(stack.evaluate(&board), net.evaluate(&board));
        // White refreshed at ply 4 (the walk stops at the king move); Black walked two plies.
        assert_eq!(computed(&stack), [[true; 2], [true; 2], [true; 2], [false, true], [true; 2]]);
        for perspective in Color::ALL {
            let entry = stack.entry(perspective, board.king(perspective));
            let cached = &stack.cache[entry * n..(entry + 1) * n];
            let scratch = net.accumulator(&board, perspective);
            // White's entry holds this position; Black's the root's (refreshed by `reset` only).
            if perspective == Color::White {
                assert_eq!(cached, scratch.as_slice());
                assert_eq!(stack.cache_pieces[entry], AccumulatorStack::pieces(&board));
            } else {
                assert_eq!(cached, net.accumulator(&Board::default(), perspective).as_slice());
            }
            assert_eq!(stack.accumulator(&board, perspective), scratch.as_slice());
        }
        // Back to e1: the bucket of the root, whose entry is found and updated by difference.
        let mv = board.parse_uci("e2e1").unwrap();
        stack.push(&board, mv);
        let mut child = board;
        child.play_unchecked(mv);
        assert_eq!(stack.evaluate(&child), net.evaluate(&child));
        let entry = stack.entry(Color::White, Square::E1);
        assert_eq!(&stack.cache[entry * n..(entry + 1) * n], net.accumulator(&child, Color::White).as_slice());
    }
}
