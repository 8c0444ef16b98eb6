//! The static evaluation as the search sees it: an [`Evaluator`] follows the moves of the
//! search path (reset at the root, push on each move, pop on each take-back) and evaluates the
//! position at the end of it.
//!
//! Two evaluators implement it: [`HandCrafted`] (`cutoff-eval`, which needs no state along the
//! path beyond its pawn cache) and [`Network`] (`cutoff-nnue`, whose accumulators are updated
//! incrementally on each move). Each search thread owns one; the engine picks the kind with
//! [`Engine::set_network`](crate::Engine::set_network).

use std::sync::Arc;

use cutoff_board::{Board, Move};
use cutoff_eval::PawnCache;
use cutoff_nnue::AccumulatorStack;

/// A static evaluation that follows the search path.
///
/// The search calls [`reset`](Evaluator::reset) with the root, then for every move it makes
/// [`push`](Evaluator::push) (or [`push_null`](Evaluator::push_null)) before the move and
/// [`pop`](Evaluator::pop) after taking it back, so that [`evaluate`](Evaluator::evaluate) is
/// always called with the position at the end of the pushed path.
///
/// ```
/// use cutoff_board::Board;
/// use cutoff_search::{Evaluator, HandCrafted};
/// let mut eval = HandCrafted::new();
/// let mut board = Board::default();
/// eval.reset(&board);
/// let e4 = board.parse_uci("e2e4").unwrap();
/// eval.push(&board, e4);
/// board.play_unchecked(e4);
/// assert_eq!(eval.evaluate(&board), cutoff_eval::evaluate(&board));
/// eval.pop();
/// ```
pub trait Evaluator {
    /// Starts a new path at `root`.
    fn reset(&mut self, root: &Board);
    /// `mv`, legal in `before` (the end of the current path), is about to be played.
    fn push(&mut self, before: &Board, mv: Move);
    /// A null move is about to be played.
    fn push_null(&mut self);
    /// The last push is taken back.
    fn pop(&mut self);
    /// The evaluation of `board`, the position at the end of the path, in centipawns from the
    /// side to move's point of view.
    fn evaluate(&mut self, board: &Board) -> i32;
    /// Forgets what was learnt between searches (caches), as for a new game.
    fn clear(&mut self);
}

/// The hand-crafted evaluation of `cutoff-eval`, with a per-thread pawn cache.
#[derive(Debug)]
pub struct HandCrafted {
    pawns: PawnCache,
}

impl HandCrafted {
    /// Pawn-cache entries per thread.
    const PAWN_ENTRIES: usize = 1 << 14;

    /// A hand-crafted evaluator with an empty pawn cache.
    pub fn new() -> HandCrafted {
        HandCrafted { pawns: PawnCache::new(Self::PAWN_ENTRIES) }
    }
}

impl Default for HandCrafted {
    fn default() -> Self {
        Self::new()
    }
}

impl Evaluator for HandCrafted {
    #[inline]
    fn reset(&mut self, _root: &Board) {}
    #[inline(always)]
    fn push(&mut self, _before: &Board, _mv: Move) {}
    #[inline(always)]
    fn push_null(&mut self) {}
    #[inline(always)]
    fn pop(&mut self) {}
    #[inline]
    fn evaluate(&mut self, board: &Board) -> i32 {
        cutoff_eval::evaluate_cached(board, &mut self.pawns)
    }
    fn clear(&mut self) {
        self.pawns.clear();
    }
}

/// The network evaluation of `cutoff-nnue`: a stack of accumulators updated on every move.
///
/// ```
/// use std::sync::Arc;
/// use cutoff_board::Board;
/// use cutoff_nnue::{INPUTS, Network as Weights};
/// use cutoff_search::{Evaluator, Network};
/// let n = 16;
/// let weights = Arc::new(Weights::from_parts(n, vec![1; INPUTS * n], vec![0; n], vec![2; 2 * n], vec![0]).unwrap());
/// let mut eval = Network::new(weights.clone());
/// let mut board = Board::default();
/// eval.reset(&board);
/// let e4 = board.parse_uci("e2e4").unwrap();
/// eval.push(&board, e4);
/// board.play_unchecked(e4);
/// assert_eq!(eval.evaluate(&board), weights.evaluate(&board));
/// ```
#[derive(Debug)]
pub struct Network {
    stack: AccumulatorStack,
    /// Evaluations so far; debug builds check every [`DEBUG_CHECK_EVERY`]th against a full
    /// refresh.
    #[cfg(debug_assertions)]
    evaluations: u32,
}

/// How often debug builds compare the incremental evaluation with a full refresh. Every
/// evaluation made the debug engine several times slower than with the hand-crafted
/// evaluation (a full refresh costs about as much as 16 incremental updates), enough to break
/// the timing rules of the end-to-end tests; `cutoff_nnue`'s property test checks every
/// position of its random games exactly.
#[cfg(debug_assertions)]
const DEBUG_CHECK_EVERY: u32 = 16;

impl Network {
    /// An evaluator with `network`'s weights.
    pub fn new(network: Arc<cutoff_nnue::Network>) -> Network {
        Network {
            stack: AccumulatorStack::new(network),
            #[cfg(debug_assertions)]
            evaluations: 0,
        }
    }

    /// The weights this evaluator uses.
    pub fn weights(&self) -> &Arc<cutoff_nnue::Network> {
        self.stack.network()
    }
}

impl Evaluator for Network {
    #[inline]
    fn reset(&mut self, root: &Board) {
        self.stack.reset(root);
    }
    #[inline(always)]
    fn push(&mut self, before: &Board, mv: Move) {
        self.stack.push(before, mv);
    }
    #[inline(always)]
    fn push_null(&mut self) {
        self.stack.push_null();
    }
    #[inline(always)]
    fn pop(&mut self) {
        self.stack.pop();
    }
    #[inline]
    fn evaluate(&mut self, board: &Board) -> i32 {
        let eval = self.stack.evaluate(board);
        #[cfg(debug_assertions)]
        {
            if self.evaluations.is_multiple_of(DEBUG_CHECK_EVERY) {
                let full = self.stack.network().evaluate(board);
                assert_eq!(eval, full, "accumulators out of step with {}", board.fen());
            }
            self.evaluations = self.evaluations.wrapping_add(1);
        }
        eval
    }
    fn clear(&mut self) {}
}

/// The evaluator of one search thread: one of the two kinds, dispatched with a `match` (no
/// virtual call on the hot path).
#[derive(Debug)]
pub(crate) enum ThreadEvaluator {
    HandCrafted(HandCrafted),
    Network(Network),
}

impl ThreadEvaluator {
    /// The evaluator for `network` (`None`: the hand-crafted one).
    pub(crate) fn for_network(network: Option<&Arc<cutoff_nnue::Network>>) -> ThreadEvaluator {
        match network {
            Some(weights) => ThreadEvaluator::Network(Network::new(Arc::clone(weights))),
            None => ThreadEvaluator::HandCrafted(HandCrafted::new()),
        }
    }

    /// Whether this evaluator is the one [`for_network`](Self::for_network) gives for `network`.
    pub(crate) fn uses(&self, network: Option<&Arc<cutoff_nnue::Network>>) -> bool {
        match (self, network) {
            (ThreadEvaluator::HandCrafted(_), None) => true,
            (ThreadEvaluator::Network(eval), Some(weights)) => Arc::ptr_eq(eval.weights(), weights),
            _ => false,
        }
    }
}

/// Forwards each call to the evaluator in use.
macro_rules! dispatch {
    ($self:ident, $eval:ident => $call:expr) => {
        match $self {
            ThreadEvaluator::HandCrafted($eval) => $call,
            ThreadEvaluator::Network($eval) => $call,
        }
    };
}

impl Evaluator for ThreadEvaluator {
    #[inline]
    fn reset(&mut self, root: &Board) {
        dispatch!(self, e => e.reset(root))
    }
    #[inline(always)]
    fn push(&mut self, before: &Board, mv: Move) {
        dispatch!(self, e => e.push(before, mv))
    }
    #[inline(always)]
    fn push_null(&mut self) {
        dispatch!(self, e => e.push_null())
    }
    #[inline(always)]
    fn pop(&mut self) {
        dispatch!(self, e => e.pop())
    }
    #[inline(always)]
    fn evaluate(&mut self, board: &Board) -> i32 {
        dispatch!(self, e => e.evaluate(board))
    }
    fn clear(&mut self) {
        dispatch!(self, e => e.clear())
    }
}
