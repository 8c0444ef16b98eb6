//! One search thread: its state, the search stack and what every node does to make and take
//! back a move. The thread's work is in files by job: iterative deepening with aspiration
//! windows and the time decisions ([`deepening`]), the search of a node ([`search`]) and its
//! selective steps ([`selective`]), quiescence ([`qsearch`]), draw detection ([`draws`]) and
//! the `info` output ([`output`]).

mod deepening;
mod draws;
mod output;
mod qsearch;
mod search;
mod selective;

use std::ops::ControlFlow;
use std::sync::atomic::Ordering;

use arrayvec::ArrayVec;
use cutoff_board::{Board, Move};
use cutoff_ordering::{Histories, Killers, PieceTo};
use cutoff_tt::{Bound, MATE, MATE_IN_MAX_PLY, TtEntry};

use crate::correction::{CorrectionHistory, Slots};
use crate::evaluator::{Evaluator, ThreadEvaluator};
use crate::params::*;
use crate::shared::Shared;
use crate::{IterationInfo, MAX_PLY, Stats};

pub(crate) use search::tb_score;

/// The move picker the search runs: the engine's staged picker, or with the `study` feature the
/// ordering study's, which picks the way `SearchOptions::ordering` says (`cargo xtask ordering`).
#[cfg(not(feature = "study"))]
pub(crate) use cutoff_ordering::MovePicker as Picker;
#[cfg(feature = "study")]
pub(crate) use cutoff_ordering::StudyPicker as Picker;

/// A score above every real score.
pub(crate) const INFINITY: i32 = MATE + 1;

/// The kind of node [`Worker::search`] is at, known at compile time.
trait NodeType {
    /// A principal-variation node (searched with an open window).
    const PV: bool;
    /// The root.
    const ROOT: bool;
}

/// The root: moves come from the root-move list, results go into it.
struct Root;

/// A node on the principal variation.
struct Pv;

/// A node searched with a null window (expected to fail high or low).
struct NonPv;

impl NodeType for Root {
    const PV: bool = true;
    const ROOT: bool = true;
}

impl NodeType for Pv {
    const PV: bool = true;
    const ROOT: bool = false;
}

impl NodeType for NonPv {
    const PV: bool = false;
    const ROOT: bool = false;
}

/// One ply of the search stack: what the node at that ply knows, read by its descendants a
/// few plies later. Indexed through [`Worker::at`] and [`Worker::back`], which keep
/// [`STACK_OFFSET`] empty entries below ply 0 so that "n plies back" needs no bounds test.
#[derive(Clone, Copy, Default)]
struct StackEntry {
    /// The move made from this ply (`None` for a null move or before any move).
    mv: Option<Move>,
    /// The piece and target of that move, the key of continuation history.
    moved: Option<PieceTo>,
    /// Whether the move made from this ply was a null move.
    null: bool,
    /// The static evaluation at this ply (`None` in check or not yet known).
    static_eval: Option<i32>,
    /// The move a singular-extension verification search leaves out.
    excluded: Option<Move>,
    /// Double extensions on the path from the root to this ply.
    double_extensions: i32,
    /// Whether the node at this ply is on the principal variation or was when last stored
    /// (the TT's PV bit), kept for a verification search of the same node.
    tt_pv: bool,
    /// Beta cutoffs at this ply since the node two plies up started: many mean the moves of
    /// the node one ply up keep being refuted.
    cutoffs: u32,
}

/// Empty stack entries below ply 0.
const STACK_OFFSET: usize = 4;

/// A root move with the score of its latest search.
#[derive(Clone, Debug)]
pub(crate) struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub pv: ArrayVec<Move, MAX_PLY>,
    pub seldepth: usize,
    pub bound: Option<Bound>,
    /// Nodes spent on this move's subtrees in this search (all iterations).
    pub nodes: u64,
}

/// Per-thread state, kept between searches (histories survive until `ucinewgame`).
pub(crate) struct Worker {
    pub id: usize,
    pub histories: Box<Histories>,
    pub killers: Box<Killers>,
    /// The static evaluation, following the search path.
    eval: ThreadEvaluator,
    correction: CorrectionHistory,
    /// Keys of the game before the root, then of the current search path.
    keys: Vec<u64>,
    root_index: usize,
    /// The MultiPV line being searched: the root searches `root_moves[pv_index..]`.
    pv_index: usize,
    pv: Vec<ArrayVec<Move, MAX_PLY>>,
    stack: Vec<StackEntry>,
    pub nodes: u64,
    seldepth: usize,
    pub stats: Stats,
    stopped: bool,
    /// Whether some root move has a searched score (stops are honoured only from then on).
    has_result: bool,
    pub root_moves: Vec<RootMove>,
    pub completed_depth: u32,
    /// With MultiPV, the set of lines last reported (main thread): the newest line of each
    /// `multipv` index, whose first moves are all different.
    shown: Vec<IterationInfo>,
    /// No null move before this ply: a verification search of a null-move cutoff is running
    /// (0: none is).
    nmp_min_ply: usize,
}

/// Whether a stored score with `bound` settles the window (`alpha`, `beta`) by itself.
#[inline(always)]
fn bound_cuts(bound: Bound, score: i32, alpha: i32, beta: i32) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    }
}

/// The moves a node tried before the one that cut off, by kind (for the history malus).
#[derive(Clone, Copy)]
struct Tried<'a> {
    quiets: &'a [Move],
    noisy: &'a [Move],
}

/// What a node knows once it has read its TT entry and static eval, passed by reference to
/// the steps of [`Worker::search`].
#[derive(Clone, Copy)]
struct Node {
    ply: usize,
    /// The depth left (after the check extension and, from the singular extension on,
    /// internal iterative reduction).
    depth: i32,
    /// A null-window node expected to fail high.
    cut_node: bool,
    /// A PV node, or one whose TT entry says it was searched as one: such nodes are reduced
    /// and pruned less, because the line they lie on is the one the root plays.
    tt_pv: bool,
    in_check: bool,
    key: u64,
    entry: Option<TtEntry>,
    tt_move: Option<Move>,
    /// The move a singular-extension verification search leaves out (then the node neither
    /// prunes nor reads the TT score).
    excluded: Option<Move>,
    /// The static evaluation as the TT keeps it (`None` in check).
    raw_eval: Option<i32>,
    /// The same, corrected by the correction history.
    static_eval: Option<i32>,
    /// The corrected static eval, sharpened by a TT bound when it can be (`-INFINITY` in check).
    eval: i32,
    /// Whether the static eval rose since our previous move (two plies back).
    improving: bool,
    /// Whether the side to move has a piece besides pawns and king (zugzwang is then rare).
    has_pieces: bool,
    /// The size of the correction applied to the static eval (0 in check): how much the
    /// evaluation is known to misjudge positions like this one.
    complexity: i32,
    /// Whether the TT move is a capture or promotion.
    tt_noisy: bool,
}

/// A move of a node's move loop, with what pruning and reductions read about it.
#[derive(Clone, Copy)]
struct Candidate {
    mv: Move,
    quiet: bool,
    /// Its number in the loop (1-based, moves left out excluded).
    number: usize,
    /// Butterfly and continuation history for a quiet move, capture history for a noisy one.
    history: i32,
    /// The late-move reduction by depth and move number alone ([`lmr_reduction_fine`] in whole plies).
    base_reduction: i32,
    /// The same in 1/1024 plies ([`lmr_reduction_fine`]).
    base_fine: i32,
    /// The depth left after that reduction: what the pruning margins scale with.
    lmr_depth: i32,
    /// Whether it is a quiet killer or the countermove (as the ordering uses them).
    refutation: bool,
}

impl Worker {
    pub fn new(id: usize) -> Worker {
        Worker {
            id,
            histories: Histories::boxed(),
            killers: Box::new(Killers::new()),
            eval: ThreadEvaluator::for_network(None),
            correction: CorrectionHistory::new(),
            keys: Vec::with_capacity(1024),
            root_index: 0,
            pv_index: 0,
            pv: vec![ArrayVec::new(); MAX_PLY + 2],
            stack: vec![StackEntry::default(); MAX_PLY + 2 + STACK_OFFSET],
            nodes: 0,
            seldepth: 0,
            stats: Stats::default(),
            stopped: false,
            has_result: false,
            root_moves: Vec::new(),
            completed_depth: 0,
            shown: Vec::new(),
            nmp_min_ply: 0,
        }
    }

    pub fn clear(&mut self) {
        self.histories.clear();
        self.killers.clear();
        self.eval.clear();
        self.correction.clear();
    }

    /// Evaluates with `network` from the next search on (`None`: the hand-crafted evaluation).
    pub fn set_network(&mut self, network: Option<&std::sync::Arc<cutoff_nnue::Network>>) {
        if !self.eval.uses(network) {
            self.eval = ThreadEvaluator::for_network(network);
        }
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    /// The stack entry of `ply`.
    #[inline(always)]
    fn at(&mut self, ply: usize) -> &mut StackEntry {
        &mut self.stack[ply + STACK_OFFSET]
    }

    /// The stack entry `n` plies before `ply` (`n <= STACK_OFFSET`; empty before the root).
    #[inline(always)]
    fn back(&self, ply: usize, n: usize) -> &StackEntry {
        &self.stack[ply + STACK_OFFSET - n]
    }

    /// Plays `mv` from the node at `ply`: records it on the stack and the key path, and
    /// returns the child position. Every move of the search is played here and taken back
    /// with [`Worker::unplay`].
    #[inline(always)]
    fn play(&mut self, sh: &Shared, board: &Board, mv: Move, ply: usize) -> Board {
        let mut child = *board;
        child.play_unchecked(mv);
        sh.tt.prefetch(child.key());
        let entry = self.at(ply);
        entry.mv = Some(mv);
        entry.moved = PieceTo::of(board, mv);
        entry.null = false;
        self.keys.push(board.key());
        self.eval.push(board, mv);
        child
    }

    /// [`Worker::play`] for a null move (`child` is `board.null_move()`).
    #[inline(always)]
    fn play_null(&mut self, sh: &Shared, board: &Board, child: &Board, ply: usize) {
        sh.tt.prefetch(child.key());
        let entry = self.at(ply);
        entry.mv = None;
        entry.moved = None;
        entry.null = true;
        self.keys.push(board.key());
        self.eval.push_null();
    }

    /// Takes back the last [`Worker::play`] or [`Worker::play_null`].
    #[inline(always)]
    fn unplay(&mut self) {
        self.keys.pop();
        self.eval.pop();
    }

    /// Checks the stop flag (every node) and the limits (every [`CHECK_LIMITS_EVERY`] nodes,
    /// main thread).
    #[inline]
    fn check_stop(&mut self, sh: &Shared) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes.is_multiple_of(CHECK_LIMITS_EVERY) {
            sh.publish_nodes(self.id, self.nodes);
            if self.is_main() && sh.out_of_time_or_nodes() {
                sh.abort.store(true, Ordering::Relaxed);
            }
        }
        if self.is_main()
            && let Some(limit) = sh.limits.nodes
            && sh.options.threads == 1
            && self.nodes >= limit
        {
            sh.abort.store(true, Ordering::Relaxed);
        }
        // The first root move of depth 1 is always searched to the end (usually well under a
        // millisecond), so there is a real best move and score to report whenever the stop comes.
        // A stop before that (a quiescence explosion) is honoured after a few thousand nodes.
        if (self.has_result || self.nodes >= STOP_GRACE_NODES)
            && (sh.abort.load(Ordering::Relaxed) || sh.control.stop_requested())
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// What the search and quiescence do first at every node (after clearing its PV): count
    /// it, honour a stop, note the selective depth of a PV node, and, below the root, end the
    /// node on a draw or at the deepest ply, and raise `alpha` to a draw when the side to move
    /// can repeat a position. Returns `Break` with the node's score when it ends here, else
    /// `Continue` with the new `alpha`. The draw rules differ by kind: the search detects
    /// repetitions ([`Worker::is_draw`]) and lets a mate on the hundredth half-move stand,
    /// quiescence (`quiescence`) only the fifty-move rule out of check and material.
    #[allow(clippy::too_many_arguments, reason = "the node's position, ply, window and kind")]
    #[inline(always)]
    fn enter<N: NodeType>(
        &mut self,
        sh: &Shared,
        board: &Board,
        ply: usize,
        in_check: bool,
        mut alpha: i32,
        beta: i32,
        quiescence: bool,
    ) -> ControlFlow<i32, i32> {
        self.nodes += 1;
        self.stats.nodes += 1;
        if quiescence {
            self.stats.qnodes += 1;
        }
        if self.check_stop(sh) {
            return ControlFlow::Break(0);
        }
        if N::PV {
            self.seldepth = self.seldepth.max(ply + 1);
        }
        if N::ROOT {
            return ControlFlow::Continue(alpha);
        }
        let draw = if quiescence {
            board.halfmove_clock() >= 100 && !in_check || board.is_insufficient_material()
        } else {
            self.is_draw(board)
        };
        if draw {
            return ControlFlow::Break(0);
        }
        if ply >= MAX_PLY - 2 {
            return ControlFlow::Break(if in_check { 0 } else { self.evaluate(board) });
        }
        // The side to move can repeat a position: the node is worth at least a draw.
        if alpha < 0 && self.upcoming_repetition(board, ply) {
            alpha = 0;
            if alpha >= beta {
                return ControlFlow::Break(alpha);
            }
        }
        ControlFlow::Continue(alpha)
    }

    /// The picker's next move, read with this thread's history tables.
    #[inline(always)]
    fn next_move(&self, picker: &mut Picker) -> Option<Move> {
        picker.next(&self.histories)
    }

    /// The static evaluation, damped toward 0 as the halfmove clock nears the fifty-move rule
    /// ([`HALFMOVE_DAMPING`]).
    #[inline(always)]
    fn evaluate(&mut self, board: &Board) -> i32 {
        let raw = self.eval.evaluate(board);
        match HALFMOVE_DAMPING.get() {
            0 => raw,
            damping => damped(raw, board.halfmove_clock(), damping),
        }
    }

    /// A raw static evaluation corrected by the correction history (with the selective search
    /// on), kept clear of mate scores.
    #[inline(always)]
    fn corrected(&self, slots: Slots, raw: i32, sh: &Shared) -> i32 {
        if !sh.options.features.pruning() {
            return raw;
        }
        self.correction.correct(slots, raw).clamp(-MATE_IN_MAX_PLY + 1, MATE_IN_MAX_PLY - 1)
    }
}

/// `raw` less `damping` percent of itself at a halfmove clock of 100 (or more), in proportion
/// below it.
fn damped(raw: i32, clock: u16, damping: i32) -> i32 {
    let clock = i64::from(clock.min(100));
    // |raw| < 2^15 and the factor is at most 10,000: no overflow, and |result| <= |raw|.
    (i64::from(raw) * (10_000 - i64::from(damping) * clock) / 10_000) as i32
}

#[cfg(test)]
mod tests {
    use super::damped;

    #[test]
    fn the_fifty_move_damping_takes_its_share_in_proportion_to_the_clock() {
        assert_eq!(damped(200, 0, 50), 200);
        assert_eq!(damped(200, 50, 50), 150);
        assert_eq!(damped(200, 100, 50), 100);
        assert_eq!(damped(200, 140, 50), 100, "the clock counts up to 100");
        assert_eq!(damped(-200, 100, 50), -100);
        assert_eq!(damped(-3, 100, 50), -1, "toward zero");
        assert_eq!(damped(31_000, 100, 80), 6_200);
    }
}
