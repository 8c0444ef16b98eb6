//! One search thread: iterative deepening, aspiration windows, PVS, quiescence.

use std::ops::ControlFlow;
use std::sync::atomic::Ordering;

use arrayvec::ArrayVec;
use cutoff_board::{Bitboard, Board, Move, PieceType, SEE_VALUES};
use cutoff_ordering::{CONTINUATION_PLIES, Continuations, Histories, Killers, MovePicker, PieceTo};
use cutoff_syzygy::Wdl;
use cutoff_tt::{Bound, MATE, MATE_IN_MAX_PLY, TtEntry};

use crate::correction::{CorrectionHistory, Slots};
use crate::evaluator::{Evaluator, ThreadEvaluator};
use crate::params::*;
use crate::report::Report;
use crate::shared::Shared;
use crate::{IterationInfo, MAX_PLY, Stats};

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

/// The score of a tablebase result at `ply` and its bound: a win is worth a little less than
/// any mate (shorter paths to it score higher), so it is a lower bound (a mate may be found);
/// a loss the negative, an upper bound; a draw 0 exactly, or ±1 for a win or loss that the
/// fifty-move rule turns into a draw (when `rule50`).
pub(crate) fn tb_score(wdl: Wdl, ply: usize, rule50: bool) -> (i32, Bound) {
    let win = MATE_IN_MAX_PLY - 1 - ply as i32;
    match wdl {
        Wdl::Win => (win, Bound::Lower),
        Wdl::Loss => (-win, Bound::Upper),
        Wdl::CursedWin if !rule50 => (win, Bound::Lower),
        Wdl::BlessedLoss if !rule50 => (-win, Bound::Upper),
        Wdl::CursedWin => (1, Bound::Exact),
        Wdl::BlessedLoss => (-1, Bound::Exact),
        Wdl::Draw => (0, Bound::Exact),
    }
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

/// How the soft time limit stretches or shrinks after each iteration: longer while the best
/// move keeps changing, when the score drops, and when the best move took a small share of the
/// nodes (the alternatives needed work to refute); shorter when all three say the choice is
/// settled.
#[derive(Default)]
struct SoftTime {
    best: Option<Move>,
    /// Iterations in a row with the same best move.
    stable: usize,
    /// The score of the previous iteration.
    score: Option<i32>,
}

impl SoftTime {
    /// Takes an iteration's best move, score and the best move's share of the nodes, and
    /// returns the factor for the soft limit.
    fn update(&mut self, best: Move, score: i32, node_share: f64) -> f64 {
        if self.best == Some(best) {
            self.stable += 1;
        } else {
            self.stable = 0;
            self.best = Some(best);
        }
        let stability = TM_STABILITY[self.stable.min(TM_STABILITY.len() - 1)];
        let drop = self.score.map_or(0, |prev| (prev - score).max(0));
        self.score = Some(score);
        let falling =
            1.0 + (f64::from(drop.min(TM_SCORE_DROP_CAP)) / f64::from(TM_SCORE_DROP_CAP)) * TM_SCORE_DROP_WEIGHT;
        let effort = (TM_NODE_SHARE_BASE - node_share) * TM_NODE_SHARE_SCALE;
        stability * falling * effort
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
    /// The late-move reduction by depth and move number alone ([`lmr_reduction`]).
    base_reduction: i32,
    /// The same in 1/1024 plies ([`lmr_reduction_fine`]).
    base_fine: i32,
    /// The depth left after that reduction: what the pruning margins scale with.
    lmr_depth: i32,
    /// Whether it is a quiet killer or the countermove (as the ordering uses them).
    refutation: bool,
}

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

    #[allow(clippy::needless_range_loop, reason = "pv_index also selects the root-move slice")]
    /// Runs iterative deepening from `board` until a limit or the stop flag ends it.
    pub fn iterative_deepening(&mut self, sh: &Shared, board: &Board, history: &[u64], root_moves: &[Move]) {
        self.keys.clear();
        self.keys.extend_from_slice(history);
        self.root_index = self.keys.len();
        self.eval.reset(board);
        self.nodes = 0;
        self.stats = Stats::default();
        self.stopped = false;
        self.has_result = false;
        self.completed_depth = 0;
        self.shown.clear();
        self.nmp_min_ply = 0;
        self.root_moves = root_moves
            .iter()
            .map(|&mv| RootMove { mv, score: -INFINITY, pv: ArrayVec::new(), seldepth: 0, bound: None, nodes: 0 })
            .collect();
        self.killers.clear();

        let max_depth = sh.limits.depth.unwrap_or(MAX_PLY as u32 - 4).clamp(1, MAX_PLY as u32 - 4);
        let multipv = sh.options.multipv.clamp(1, self.root_moves.len());
        let mut scores = vec![0; multipv];
        // Each line's score averaged over the iterations (each new score weighs half): the
        // aspiration window is centred on it, which follows a score that swings between
        // iterations better than the last score alone.
        let mut averages: Vec<Option<i32>> = vec![None; multipv];

        // Helper threads start one ply deeper half of the time, to spread out over the tree.
        let first = if self.id % 2 == 1 { 2.min(max_depth) } else { 1 };
        let mut time = SoftTime::default();
        for depth in first..=max_depth {
            for rm in &mut self.root_moves {
                rm.score = -INFINITY;
            }
            let mut lines_done = 0;
            for pv_index in 0..multipv {
                self.seldepth = 0;
                let centre = averages[pv_index].unwrap_or(scores[pv_index]);
                let score = self.aspiration(sh, board, depth as i32, pv_index, scores[pv_index], centre, multipv == 1);
                if self.stopped {
                    break;
                }
                scores[pv_index] = score;
                averages[pv_index] = Some(match averages[pv_index] {
                    Some(avg) if score.abs() < MATE_IN_MAX_PLY && avg.abs() < MATE_IN_MAX_PLY => (avg + score) / 2,
                    _ => score,
                });
                self.root_moves[pv_index..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                // Keep the lines found so far in score order too (MultiPV).
                self.root_moves[..=pv_index].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                lines_done = pv_index + 1;
            }
            if self.stopped {
                if self.is_main() && multipv > 1 {
                    self.report_interrupted(sh, depth, lines_done, multipv);
                }
                break;
            }
            // All lines of the iteration together: with MultiPV, a line printed alone could
            // start with the move that another index's newest line (of the previous iteration)
            // starts with.
            if self.is_main() {
                let set = (0..multipv).filter_map(|i| self.line_info(sh, depth, i, None)).collect();
                self.report_set(sh, set);
            }
            self.completed_depth = depth;
            if !self.is_main() {
                continue;
            }
            // Stop conditions checked between iterations.
            let best = self.root_moves[0].score;
            if let Some(mate) = sh.limits.mate
                && best >= MATE - 2 * mate as i32
            {
                break;
            }
            if let Some(soft) = sh.limits.soft_nodes
                && sh.total_nodes(self.id, self.nodes) >= soft
            {
                break;
            }
            let best_nodes = self.root_moves[0].nodes;
            let scale = time.update(self.root_moves[0].mv, best, best_nodes as f64 / self.nodes.max(1) as f64);
            if let Some(budget) = sh.budget
                && let Some(elapsed) = sh.clock_elapsed()
                && elapsed >= budget.soft.mul_f64(scale).min(budget.hard)
            {
                break;
            }
            if self.root_moves.len() == 1
                && sh.budget.is_some()
                && depth >= FORCED_MOVE_DEPTH
                && !sh.control.is_pondering()
            {
                break; // a forced move: no need to think long
            }
        }
        if !self.has_result {
            // Stopped before any root move had a score: play the first with the static eval.
            let score = if board.in_check() { 0 } else { self.evaluate(board) };
            let rm = &mut self.root_moves[0];
            rm.score = score;
            rm.pv.clear();
            rm.pv.push(rm.mv);
        }
        sh.publish_nodes(self.id, self.nodes);
    }

    /// Searches line `pv_index` of the root at `depth` with an aspiration window around
    /// `centre` (the line's average score; none when the previous score `prev` is a mate),
    /// widening it until the score falls inside; each failure is reported as a bound if
    /// `report_bounds` (single-PV searches: with MultiPV only whole sets are reported). After a
    /// fail high the next try is a ply shallower (down to 3 plies less), since the move that
    /// failed high usually stays best and needs only its score settled; a fail low restores
    /// the full depth.
    #[allow(clippy::too_many_arguments, reason = "the line, its depth and its two scores")]
    fn aspiration(
        &mut self,
        sh: &Shared,
        board: &Board,
        depth: i32,
        pv_index: usize,
        prev: i32,
        centre: i32,
        report_bounds: bool,
    ) -> i32 {
        let mut delta = ASPIRATION_DELTA.get();
        let selective = sh.options.features.pruning();
        let (mut alpha, mut beta) = if sh.options.features.aspiration()
            && depth >= ASPIRATION_MIN_DEPTH.get()
            && prev.abs() < MATE_IN_MAX_PLY
        {
            let centre = if selective { centre } else { prev };
            ((centre - delta).max(-INFINITY), (centre + delta).min(INFINITY))
        } else {
            (-INFINITY, INFINITY)
        };
        let mut fail_highs = 0;
        loop {
            self.pv_index = pv_index;
            *self.at(0) = StackEntry::default();
            self.at(1).cutoffs = 0;
            let searched = (depth - fail_highs).max(1);
            let score = self.search::<Root>(sh, board, searched, 0, alpha, beta, false);
            if self.stopped {
                return score;
            }
            if score <= alpha {
                if self.is_main() && report_bounds {
                    self.report_line(sh, depth as u32, pv_index, Some(Bound::Upper));
                }
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
                fail_highs = 0;
            } else if score >= beta {
                if self.is_main() && report_bounds {
                    self.report_line(sh, depth as u32, pv_index, Some(Bound::Lower));
                }
                beta = (score + delta).min(INFINITY);
                if selective && score.abs() < MATE_IN_MAX_PLY {
                    fail_highs = (fail_highs + 1).min(3);
                }
            } else {
                return score;
            }
            delta += delta;
            if delta > ASPIRATION_MAX_DELTA.get() {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
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

    /// Draw by repetition (a repetition inside the search, or a third occurrence), the
    /// 50-move rule (unless the side to move is mated), or insufficient material.
    fn is_draw(&self, board: &Board) -> bool {
        if board.halfmove_clock() >= 100 && (!board.in_check() || board.has_legal_moves()) {
            return true;
        }
        if board.is_insufficient_material() {
            return true;
        }
        let key = board.key();
        let n = self.keys.len();
        let window = (board.halfmove_clock() as usize).min(n);
        let mut seen = 0;
        let mut back = 2;
        while back <= window {
            let i = n - back;
            if self.keys[i] == key {
                if i >= self.root_index {
                    return true;
                }
                seen += 1;
                if seen >= 2 {
                    return true;
                }
            }
            back += 2;
        }
        false
    }

    /// Whether the side to move can bring about a draw by repetition with its next move (an
    /// "upcoming repetition", [`Board::reaches_key`]): a knight, bishop, rook, queen or king
    /// move that reaches an earlier position with the same side to move, by the rules of
    /// [`Worker::is_draw`]: once is enough inside the search, a position before the root must
    /// have occurred twice already. Only positions since the last capture or pawn move and
    /// after the last null move of the path count.
    fn upcoming_repetition(&self, board: &Board, ply: usize) -> bool {
        let n = self.keys.len();
        let window = (board.halfmove_clock() as usize).min(n);
        // The position `back` plies ago has the other side to move for odd `back`; one ply
        // ago is the position before the opponent's last move, which our move cannot restore.
        let mut back = 3;
        while back <= window {
            let i = n - back;
            if board.reaches_key(self.keys[i]) && !self.null_move_within(ply, back) {
                if i >= self.root_index {
                    return true;
                }
                let key = self.keys[i];
                let mut earlier = back + 2;
                while earlier <= window {
                    if self.keys[n - earlier] == key {
                        return true;
                    }
                    earlier += 2;
                }
            }
            back += 2;
        }
        false
    }

    /// Whether a null move was made in the last `back` plies of the path to `ply`.
    fn null_move_within(&self, ply: usize, back: usize) -> bool {
        (1..=back.min(ply)).any(|n| self.back(ply, n).null)
    }

    /// The picker's next move, read with this thread's history tables.
    #[inline(always)]
    fn next_move(&self, picker: &mut MovePicker) -> Option<Move> {
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

    /// The alpha-beta search of one node: the root, a PV node or a null-window node (`N`).
    /// `cut_node`: a null-window node expected to fail high (reduced more).
    #[allow(clippy::too_many_lines)]
    #[allow(clippy::too_many_arguments, reason = "the node's position, depth, ply, window and kind")]
    fn search<N: NodeType>(
        &mut self,
        sh: &Shared,
        board: &Board,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        cut_node: bool,
    ) -> i32 {
        // The study switches, read here once: constants in normal builds, where every test of
        // them folds away.
        let f = sh.options.features;
        let (check_extension, tt_cutoffs, selective, reverse_futility, pvs) =
            (f.check_extension(), f.tt_cutoffs(), f.pruning(), f.reverse_futility(), f.pvs());
        let ordering = sh.options.ordering;

        self.pv[ply].clear();
        let in_check = board.in_check();
        if in_check && check_extension && !N::ROOT {
            depth += 1;
        }
        if depth <= 0 {
            return self.qsearch::<N>(sh, board, ply, alpha, beta, 0);
        }
        self.nodes += 1;
        self.stats.nodes += 1;
        if self.check_stop(sh) {
            return 0;
        }
        if N::PV {
            self.seldepth = self.seldepth.max(ply + 1);
        }
        if !N::ROOT {
            if self.is_draw(board) {
                return 0;
            }
            if ply >= MAX_PLY - 2 {
                return if in_check { 0 } else { self.evaluate(board) };
            }
            // The side to move can repeat a position: the node is worth at least a draw.
            if alpha < 0 && self.upcoming_repetition(board, ply) {
                alpha = 0;
                if alpha >= beta {
                    return alpha;
                }
            }
            // Mate distance pruning: no line from here beats a mate found closer to the root.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        let excluded = self.at(ply).excluded;
        // Children inherit the path's double extensions (the move loop adds its own).
        let doubles = self.at(ply).double_extensions;
        self.at(ply + 1).double_extensions = doubles;
        self.at(ply + 2).cutoffs = 0;
        // The correction history's entries, loaded while the TT probe waits for its own.
        let slots = CorrectionHistory::slots(board);
        if !in_check {
            self.correction.prefetch(slots);
        }
        let key = board.key();
        // A verification search (with a move left out) neither reads nor writes the TT score.
        let entry = sh.tt.probe(key, ply);
        let tt_move = entry.and_then(|e| e.mv);
        let tt_pv = if excluded.is_some() { self.at(ply).tt_pv } else { N::PV || entry.is_some_and(|e| e.pv) };
        self.at(ply).tt_pv = tt_pv;
        if let Some(e) = entry {
            self.stats.tt_hits += 1;
            if !N::PV
                && excluded.is_none()
                && tt_cutoffs
                && e.depth >= depth
                && bound_cuts(e.bound, e.score, alpha, beta)
            {
                return e.score;
            }
        }

        // A tablebase result that settles the window ends the node (no call without tables).
        if !N::ROOT
            && excluded.is_none()
            && sh.tb.tables.is_some()
            && let ControlFlow::Break(score) = self.probe_tablebase::<N>(sh, board, entry, ply, depth, alpha, beta)
        {
            return score;
        }

        // The static evaluation (the TT keeps it uncorrected), corrected by the correction
        // history, and `eval`: the same sharpened by a TT bound when it can be.
        let raw_eval = if in_check {
            None
        } else if let Some(e) = entry {
            Some(e.eval)
        } else {
            Some(self.evaluate(board))
        };
        let static_eval = raw_eval.map(|raw| self.corrected(slots, raw, sh));
        self.at(ply).static_eval = static_eval;
        let eval = match (static_eval, entry) {
            (None, _) => -INFINITY,
            (Some(se), Some(e)) if e.score.abs() < MATE_IN_MAX_PLY && excluded.is_none() => match e.bound {
                Bound::Lower if e.score > se => e.score,
                Bound::Upper if e.score < se => e.score,
                Bound::Exact => e.score,
                _ => se,
            },
            (Some(se), _) => se,
        };
        // Improving: the static eval rose since our previous move (two plies back).
        let improving = match (static_eval, self.back(ply, 2).static_eval) {
            (Some(now), Some(before)) => now > before,
            _ => false,
        };
        let pruning = selective && excluded.is_none();
        let us = board.side_to_move();
        let has_pieces =
            (board.colored(us) - board.pieces(PieceType::Pawn) - board.pieces(PieceType::King)).is_nonempty();
        let mut node = Node {
            ply,
            depth,
            cut_node,
            tt_pv,
            in_check,
            key,
            entry,
            tt_move,
            excluded,
            raw_eval,
            static_eval,
            eval,
            improving,
            has_pieces,
            complexity: static_eval.zip(raw_eval).map_or(0, |(s, r)| (s - r).abs()),
            tt_noisy: tt_move.is_some_and(|m| !m.is_quiet()),
        };

        if !N::PV && !in_check && excluded.is_none() && beta.abs() < MATE_IN_MAX_PLY {
            // Reverse futility pruning: far above beta with little depth left, not on a former
            // PV line. The score returned lies between eval and beta: eval alone overstates
            // what a shallow guess proves.
            if reverse_futility
                && !tt_pv
                && depth <= RFP_MAX_DEPTH.get()
                && eval - RFP_MARGIN.get() * (depth - i32::from(improving)) >= beta
            {
                return if selective { (eval + beta) / 2 } else { eval };
            }
            // Razoring: far below alpha with little depth left, only captures can help.
            if pruning && depth <= RAZOR_MAX_DEPTH.get() && eval + RAZOR_MARGIN.get() * depth <= alpha {
                let score = self.qsearch::<NonPv>(sh, board, ply, alpha, alpha + 1, 0);
                if self.stopped {
                    return 0;
                }
                if score <= alpha {
                    return score;
                }
            }
            // Null-move pruning: passing still fails high.
            if let ControlFlow::Break(score) = self.try_null_move(sh, board, &node, beta) {
                return score;
            }
        }

        // ProbCut: a good capture beats beta by a margin in a shallow search.
        if !N::PV
            && let ControlFlow::Break(score) = self.probcut(sh, board, &node, beta)
        {
            return score;
        }

        // Internal iterative reduction: without a TT move this node was never searched (or its
        // search failed low), so a shallower search is a cheap way to find a move to try first.
        if pruning && !N::ROOT && depth >= IIR_MIN_DEPTH.get() && tt_move.is_none() {
            node.depth -= 1;
        }
        let depth = node.depth;

        // How much deeper the TT move is searched (or the node's end, by multi-cut).
        let singular_extension = if N::ROOT {
            0
        } else {
            match self.singular_extension::<N>(sh, board, &node, beta) {
                ControlFlow::Break(score) => return score,
                ControlFlow::Continue(extension) => extension,
            }
        };

        let prev = self.back(ply, 1).mv;
        let counter = self.histories.counter.get(board, prev);
        self.killers.clear_ply(ply + 1);
        let killers = self.killers.get(ply);
        // The killers the ordering uses; they and the countermove are reduced less.
        let used_killers = &killers[..(ordering.killers() as usize).min(killers.len())];
        let mut picker = MovePicker::main(board, tt_move, killers, counter, ordering);
        let continuations = CONTINUATION_PLIES.map(|n| self.back(ply, n).moved);
        picker.set_continuations(continuations);
        let threats = board.attacks_by(!us);
        picker.set_threats(threats);
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut move_count = 0;
        let mut quiets_tried: ArrayVec<Move, 64> = ArrayVec::new();
        let mut noisy_tried: ArrayVec<Move, 32> = ArrayVec::new();
        let lmp_limit = (LMP_BASE.get() + depth * depth) / (2 - i32::from(improving));
        // The root takes its moves from the root-move list, in its current order.
        let mut root_index = self.pv_index;

        loop {
            let next = if N::ROOT {
                let mv = self.root_moves.get(root_index).map(|rm| rm.mv);
                root_index += 1;
                mv
            } else {
                self.next_move(&mut picker)
            };
            let Some(mv) = next else { break };
            if excluded == Some(mv) {
                continue;
            }
            move_count += 1;
            if N::ROOT && self.is_main() && sh.elapsed_since_start() >= CURRMOVE_DELAY {
                (sh.report)(Report::CurrMove { depth: depth as u32, mv, number: root_index - self.pv_index });
            }
            let quiet = mv.is_quiet();
            let base_reduction = lmr_reduction(depth, move_count);
            let candidate = Candidate {
                mv,
                quiet,
                number: move_count,
                // Read by history pruning and by the reductions.
                history: if quiet {
                    self.histories.quiet_score(board, mv, &continuations, threats)
                } else {
                    self.histories.capture.get((board, mv))
                },
                base_reduction,
                base_fine: lmr_reduction_fine(depth, move_count),
                lmr_depth: (depth - 1 - base_reduction).max(0),
                // Decided by the move itself, not by the picker stage, so that every ordering
                // variant that yields the same order also searches the same tree.
                refutation: quiet
                    && (used_killers.contains(&Some(mv)) || (ordering.countermove() && counter == Some(mv))),
            };

            // Shallow-depth pruning, once some move has a score that is not a mate.
            if selective
                && !N::ROOT
                && best > -MATE_IN_MAX_PLY
                && has_pieces
                && self.prune_move(board, &mut picker, &node, &candidate, alpha, lmp_limit)
            {
                continue;
            }

            let extension = if Some(mv) == tt_move { singular_extension } else { 0 };
            let nodes_before = self.nodes;
            let child = self.play(sh, board, mv, ply);
            let doubles = self.at(ply).double_extensions + i32::from(extension >= 2);
            self.at(ply + 1).double_extensions = doubles;
            let new_depth = depth - 1 + extension;

            let score = if move_count == 1 {
                if N::PV {
                    -self.search::<Pv>(sh, &child, new_depth, ply + 1, -beta, -alpha, false)
                } else {
                    -self.search::<NonPv>(sh, &child, new_depth, ply + 1, -beta, -alpha, !cut_node)
                }
            } else {
                let r = self.reduction::<N>(sh, &node, &candidate, &child, new_depth);
                if pvs || !N::PV {
                    let reduced = new_depth - r;
                    let mut s = -self.search::<NonPv>(sh, &child, reduced, ply + 1, -alpha - 1, -alpha, true);
                    if s > alpha && r > 0 {
                        // The reduced search beat alpha: search again at full depth, deeper
                        // when it beat the best score by far, shallower when only just.
                        let mut full = new_depth;
                        if selective {
                            if s > best + DEEPER_MARGIN.get() + 2 * new_depth {
                                full += RESEARCH_DEEPER.get();
                            } else if s < best + SHALLOWER_MARGIN.get() {
                                full -= RESEARCH_SHALLOWER.get();
                            }
                        }
                        if full > reduced {
                            s = -self.search::<NonPv>(sh, &child, full, ply + 1, -alpha - 1, -alpha, !cut_node);
                        }
                    }
                    if N::PV && s > alpha && s < beta {
                        s = -self.search::<Pv>(sh, &child, new_depth, ply + 1, -beta, -alpha, false);
                    }
                    s
                } else {
                    // Plain alpha-beta (the ordering study): every move with the full window.
                    let mut s = -self.search::<Pv>(sh, &child, new_depth - r, ply + 1, -beta, -alpha, false);
                    if s > alpha && r > 0 {
                        s = -self.search::<Pv>(sh, &child, new_depth, ply + 1, -beta, -alpha, false);
                    }
                    s
                }
            };
            self.unplay();
            if N::ROOT {
                self.root_moves[root_index - 1].nodes += self.nodes - nodes_before;
            }
            if self.stopped {
                return if N::ROOT { best } else { 0 };
            }
            if N::ROOT {
                self.record_root_move(root_index - 1, score, alpha, beta);
            }

            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    if N::ROOT && root_index - 1 != self.pv_index {
                        // Keep the new best move first so an interrupted iteration still reports it.
                        let moved = self.root_moves.remove(root_index - 1);
                        self.root_moves.insert(self.pv_index, moved);
                    }
                    if N::PV {
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        let line = &mut head[ply];
                        line.clear();
                        line.push(mv);
                        let child_pv = &tail[0];
                        let room = MAX_PLY - 1;
                        line.try_extend_from_slice(&child_pv[..child_pv.len().min(room)]).ok();
                    }
                    if score >= beta {
                        self.at(ply).cutoffs += 1;
                        self.stats.record_cutoff(move_count, picker.noisy_generated(), picker.quiets_generated());
                        let tried = Tried { quiets: &quiets_tried, noisy: &noisy_tried };
                        self.update_histories(sh, board, ply, mv, depth, tried, continuations, threats);
                        break;
                    }
                }
            }
            if quiet {
                let _ = quiets_tried.try_push(mv);
            } else {
                let _ = noisy_tried.try_push(mv);
            }
        }

        if move_count == 0 {
            return if excluded.is_some() {
                alpha
            } else if in_check {
                -MATE + ply as i32
            } else {
                0
            };
        }
        // A fail-high score is pulled toward beta, the more the shallower the node: the margin
        // by which one refutation beats beta is mostly noise.
        if !N::ROOT && selective && best >= beta && best.abs() < MATE_IN_MAX_PLY && beta.abs() < MATE_IN_MAX_PLY {
            best = (best * depth + beta) / (depth + 1);
        }
        if excluded.is_none() {
            let bound = if best >= beta {
                Bound::Lower
            } else if N::PV && best_move.is_some() {
                Bound::Exact
            } else {
                Bound::Upper
            };
            if let Some(se) = static_eval
                && selective
                && best_move.is_none_or(|m| m.is_quiet())
                && !(bound == Bound::Lower && best <= se)
                && !(bound == Bound::Upper && best >= se)
                && best.abs() < MATE_IN_MAX_PLY
            {
                self.correction.update(slots, depth, best - se);
            }
            sh.tt.store(
                key,
                ply,
                TtEntry { mv: best_move, score: best, eval: raw_eval.unwrap_or(0), depth, bound, pv: tt_pv },
            );
        }
        best
    }

    /// The Syzygy WDL probe (never at the root: its moves were ranked before the search), in
    /// positions within the tables' reach right after a capture or pawn move, as Stockfish
    /// does. A result that settles the window (`alpha`, `beta`) ends the node: `Break` with its
    /// score, stored in the TT [`TB_DEPTH_BONUS`] plies deeper than the node (it is exact
    /// whatever the depth). Otherwise the search goes on.
    #[allow(clippy::too_many_arguments, reason = "the node's position, TT entry, ply, depth and window")]
    fn probe_tablebase<N: NodeType>(
        &mut self,
        sh: &Shared,
        board: &Board,
        entry: Option<TtEntry>,
        ply: usize,
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> ControlFlow<i32> {
        let Some(tb) = sh.tb.tables else {
            return ControlFlow::Continue(());
        };
        let pieces = board.occupied().len() as usize;
        if pieces <= sh.tb.cardinality
            && (pieces < sh.tb.cardinality || depth >= sh.tb.probe_depth)
            && board.halfmove_clock() == 0
            && board.castling_rights().is_empty()
            && let Some(wdl) = tb.probe_wdl(board)
        {
            sh.tb.hits.fetch_add(1, Ordering::Relaxed);
            let (score, bound) = tb_score(wdl, ply, sh.tb.rule50);
            if bound == Bound::Exact
                || (bound == Bound::Lower && score >= beta)
                || (bound == Bound::Upper && score <= alpha)
            {
                let eval = match entry {
                    Some(e) => e.eval,
                    None if board.in_check() => 0,
                    // Later visits read the static eval from this entry.
                    None => self.evaluate(board),
                };
                let depth = (depth + TB_DEPTH_BONUS.get()).min(MAX_PLY as i32 - 1);
                sh.tt.store(board.key(), ply, TtEntry { mv: None, score, eval, depth, bound, pv: N::PV });
                return ControlFlow::Break(score);
            }
        }
        ControlFlow::Continue(())
    }

    /// Null-move pruning, at a node whose eval is at least `beta`: if passing still fails high
    /// in a search [`NMP_BASE`] and more plies shallower, a real move surely would, and the
    /// node ends with that score (`Break`; a mate score becomes `beta`, as passing proves no
    /// mate). Deep in the tree ([`NMP_VERIFY_MIN_DEPTH`]) the cutoff is first verified by a
    /// reduced search of our own moves with no null move of ours for a while, against
    /// zugzwang. Never twice in a row, nor without pieces (pawn endings are full of zugzwang).
    /// `Break(0)` when the search stopped.
    #[inline(always)]
    fn try_null_move(&mut self, sh: &Shared, board: &Board, n: &Node, beta: i32) -> ControlFlow<i32> {
        let null_move = sh.options.features.null_move();
        let (depth, eval, ply) = (n.depth, n.eval, n.ply);
        if !(null_move
            && depth >= NMP_MIN_DEPTH.get()
            && eval >= beta
            && !self.back(ply, 1).null
            && n.has_pieces
            && ply >= self.nmp_min_ply)
        {
            return ControlFlow::Continue(());
        }
        let Some(null) = board.null_move() else {
            return ControlFlow::Continue(());
        };
        let r = NMP_BASE.get()
            + depth / NMP_DEPTH_DIVISOR.get()
            + ((eval - beta) / NMP_EVAL_DIVISOR.get()).min(NMP_EVAL_MAX.get());
        self.play_null(sh, board, &null, ply);
        let score = -self.search::<NonPv>(sh, &null, depth - 1 - r, ply + 1, -beta, -beta + 1, !n.cut_node);
        self.unplay();
        if self.stopped {
            return ControlFlow::Break(0);
        }
        if score < beta {
            return ControlFlow::Continue(());
        }
        let score = if score >= MATE_IN_MAX_PLY { beta } else { score };
        if self.nmp_min_ply > 0 || depth < NMP_VERIFY_MIN_DEPTH.get() {
            return ControlFlow::Break(score);
        }
        self.nmp_min_ply = ply + (3 * (depth - r) / 4).max(0) as usize;
        let verified = self.search::<NonPv>(sh, board, depth - r, ply, beta - 1, beta, false);
        self.nmp_min_ply = 0;
        if self.stopped {
            return ControlFlow::Break(0);
        }
        if verified >= beta { ControlFlow::Break(score) } else { ControlFlow::Continue(()) }
    }

    /// ProbCut, at a null-window node: a capture that beats `beta` by [`PROBCUT_MARGIN`] in a
    /// quiescence search and then a search [`PROBCUT_REDUCTION`] plies shallower almost surely
    /// beats `beta` in the full one, so the node ends with its score (`Break`, stored in the TT
    /// as a lower bound). Only captures whose SEE reaches the margin are tried, and none when
    /// the TT entry says a search nearly as deep stayed below it. `Break(0)` when the search
    /// stopped.
    #[inline(always)]
    fn probcut(&mut self, sh: &Shared, board: &Board, n: &Node, beta: i32) -> ControlFlow<i32> {
        let (pruning, ordering) = (sh.options.features.pruning(), sh.options.ordering);
        let depth = n.depth;
        let Some(se) = n.static_eval else {
            return ControlFlow::Continue(());
        };
        if !(pruning && n.excluded.is_none() && depth >= PROBCUT_MIN_DEPTH.get() && beta.abs() < MATE_IN_MAX_PLY) {
            return ControlFlow::Continue(());
        }
        let probcut_beta = beta + PROBCUT_MARGIN.get();
        if n.entry.is_some_and(|e| e.depth >= depth - 3 && e.score < probcut_beta) {
            return ControlFlow::Continue(());
        }
        let ply = n.ply;
        let mut picker = MovePicker::qsearch(board, n.tt_move, ordering);
        while let Some(mv) = self.next_move(&mut picker) {
            if !board.see_ge(mv, probcut_beta - se) {
                continue;
            }
            let child = self.play(sh, board, mv, ply);
            let (a, b) = (-probcut_beta, -probcut_beta + 1);
            let mut score = -self.qsearch::<NonPv>(sh, &child, ply + 1, a, b, 0);
            let probe_depth = depth - PROBCUT_REDUCTION.get();
            if score >= probcut_beta && probe_depth > 0 {
                score = -self.search::<NonPv>(sh, &child, probe_depth, ply + 1, a, b, !n.cut_node);
            }
            self.unplay();
            if self.stopped {
                return ControlFlow::Break(0);
            }
            if score >= probcut_beta {
                let entry = TtEntry {
                    mv: Some(mv),
                    score,
                    eval: n.raw_eval.unwrap_or(0),
                    depth: probe_depth.max(0) + 1,
                    bound: Bound::Lower,
                    pv: false,
                };
                sh.tt.store(n.key, ply, entry);
                return ControlFlow::Break(score);
            }
        }
        ControlFlow::Continue(())
    }

    /// Singular extension (never at the root): when the TT move is much better than every
    /// other move (a search without it, at half depth, fails low below its TT score by
    /// [`SE_BETA_MARGIN`] per ply), it is searched one ply deeper (`Continue(1)`), two at a
    /// null-window node when it fails low by [`DOUBLE_EXT_MARGIN`] more, with at most
    /// [`DOUBLE_EXT_MAX`] double extensions on a path. Multi-cut: when even the search without
    /// it reaches `beta`, the node ends (`Break`). When only the TT score reaches `beta`,
    /// another move is about as good and the TT move is searched a ply shallower
    /// (`Continue(-1)`). `Break(0)` when the search stopped.
    #[inline(always)]
    fn singular_extension<N: NodeType>(
        &mut self,
        sh: &Shared,
        board: &Board,
        n: &Node,
        beta: i32,
    ) -> ControlFlow<i32, i32> {
        let pruning = sh.options.features.pruning();
        let (depth, ply) = (n.depth, n.ply);
        let (Some(mv), Some(e)) = (n.tt_move, n.entry) else {
            return ControlFlow::Continue(0);
        };
        if !(pruning
            && n.excluded.is_none()
            && depth >= SE_MIN_DEPTH.get()
            && e.depth >= depth - SE_TT_DEPTH_MARGIN.get()
            && e.bound != Bound::Upper
            && e.score.abs() < MATE_IN_MAX_PLY)
        {
            return ControlFlow::Continue(0);
        }
        let singular_beta = e.score - SE_BETA_MARGIN.get() * depth;
        self.at(ply).excluded = Some(mv);
        let score = self.search::<NonPv>(sh, board, (depth - 1) / 2, ply, singular_beta - 1, singular_beta, n.cut_node);
        self.at(ply).excluded = None;
        if self.stopped {
            return ControlFlow::Break(0);
        }
        if score < singular_beta {
            let doubles = self.at(ply).double_extensions;
            let double = !N::PV && score < singular_beta - DOUBLE_EXT_MARGIN.get() && doubles < DOUBLE_EXT_MAX.get();
            ControlFlow::Continue(if double { 2 } else { 1 })
        } else if singular_beta >= beta {
            ControlFlow::Break(singular_beta)
        } else if e.score >= beta {
            ControlFlow::Continue(-1)
        } else {
            ControlFlow::Continue(0)
        }
    }

    /// Whether to skip move `c` without making it (shallow-depth pruning; the caller applies it
    /// only once some move has a score that is not a mate, and not in pawn endings). Skipped: a
    /// move that loses material by SEE (more as depth grows); and, out of check, a quiet move
    /// that does not give check when enough quiets were tried (late-move pruning, past
    /// `lmp_limit`), when the static eval is so far below `alpha` that it is very unlikely to
    /// reach it (futility), or when its history is bad (history pruning); a capture (not a
    /// promotion, not giving check) that leaves the static eval below `alpha` even with the
    /// captured piece and a margin (capture futility). Once late-move pruning applies, every
    /// later quiet would be pruned too, so the picker stops generating quiets but checks.
    #[inline(always)]
    fn prune_move(
        &self,
        board: &Board,
        picker: &mut MovePicker,
        n: &Node,
        c: &Candidate,
        alpha: i32,
        lmp_limit: i32,
    ) -> bool {
        let (mv, depth, lmr_depth) = (c.mv, n.depth, c.lmr_depth);
        let see_losing = if c.quiet {
            lmr_depth <= SEE_MAX_DEPTH.get() && !board.see_ge(mv, -SEE_QUIET_MARGIN.get() * lmr_depth * lmr_depth)
        } else {
            depth <= SEE_MAX_DEPTH.get() && !board.see_ge(mv, -SEE_NOISY_MARGIN.get() * depth)
        };
        if see_losing {
            return true;
        }
        if n.in_check {
            return false;
        }
        if c.quiet {
            let late = c.number as i32 >= lmp_limit;
            if late {
                picker.skip_quiets_but_checks();
            }
            let futile = lmr_depth <= FUTILITY_MAX_DEPTH.get()
                && n.eval + FUTILITY_BASE.get() + FUTILITY_MARGIN.get() * lmr_depth <= alpha;
            let unpromising =
                lmr_depth <= HISTORY_PRUNING_MAX_DEPTH.get() && c.history < -HISTORY_PRUNING_MARGIN.get() * depth;
            (late || futile || unpromising) && !board.gives_check(mv)
        } else if mv.promotion().is_none() {
            let captured = if mv.is_en_passant() {
                SEE_VALUES[PieceType::Pawn as usize]
            } else {
                board.kind_on(mv.to()).map_or(0, |k| SEE_VALUES[k as usize])
            };
            lmr_depth <= CAPTURE_FUTILITY_MAX_DEPTH.get()
                && n.eval + CAPTURE_FUTILITY_BASE.get() + CAPTURE_FUTILITY_MARGIN.get() * lmr_depth + captured <= alpha
                && !board.gives_check(mv)
        } else {
            false
        }
    }

    /// The late-move reduction of move `c` (not the first) before its null-window search, in
    /// plies: 0 in check and below [`LMR_MIN_DEPTH`]. It starts from [`lmr_reduction_fine`]
    /// (by depth and move number) and adds its adjustments in 1/1024 plies before rounding. A
    /// quiet move is reduced less on a (former) PV line, for killers and the countermove
    /// (likely refutations) and by good history; more when the eval is not improving, at
    /// expected cut nodes and when the TT move is a capture. A noisy move is reduced
    /// [`LMR_NOISY_OFFSET`] less than a quiet, and less by capture history. Every move is
    /// reduced more when the node's children keep failing high, less when the static eval
    /// needed a large correction and when it gives check. The result leaves at least one ply
    /// of `new_depth`. Without the selective search (the study), only quiet moves that do not
    /// give check are reduced, by whole plies.
    #[inline(always)]
    fn reduction<N: NodeType>(&self, sh: &Shared, n: &Node, c: &Candidate, child: &Board, new_depth: i32) -> i32 {
        let f = sh.options.features;
        let (lmr, selective) = (f.lmr(), f.pruning());
        if n.depth < LMR_MIN_DEPTH.get() || n.in_check {
            return 0;
        }
        let gives_check = child.in_check();
        if !selective {
            if !(lmr && c.quiet) || gives_check {
                return 0;
            }
            let r = c.base_reduction - i32::from(n.tt_pv) * LMR_PV.get() - i32::from(c.refutation) * LMR_KILLER.get();
            return r.clamp(0, new_depth - 1);
        }
        let mut r = c.base_fine;
        if c.quiet && lmr {
            r -= i32::from(n.tt_pv) * LMR_PV.get() * ONE_PLY;
            r -= i32::from(c.refutation) * LMR_KILLER.get() * ONE_PLY;
            r -= c.history * ONE_PLY / LMR_HISTORY_DIVISOR.get();
            r += i32::from(!n.improving) * LMR_NOT_IMPROVING.get() * ONE_PLY;
            r += i32::from(n.cut_node) * LMR_CUT_NODE.get() * ONE_PLY;
            r += i32::from(n.tt_noisy) * LMR_TT_CAPTURE.get();
        } else {
            r -= LMR_NOISY_OFFSET.get() * ONE_PLY;
            r -= c.history * ONE_PLY / LMR_CAPTURE_HISTORY_DIVISOR.get();
            r -= i32::from(n.tt_pv) * LMR_NOISY_PV.get() * ONE_PLY;
            r += i32::from(n.cut_node) * LMR_NOISY_CUT_NODE.get() * ONE_PLY;
        }
        if self.stack[n.ply + 1 + STACK_OFFSET].cutoffs > 2 {
            r += LMR_CUTOFFS.get();
        }
        r -= (n.complexity * LMR_COMPLEXITY.get()).min(ONE_PLY);
        if gives_check {
            r -= LMR_GIVES_CHECK.get();
        }
        (r / ONE_PLY).clamp(0, new_depth - 1)
    }

    /// Records the result of the root move at `index`, searched with the window (`alpha`, `beta`)
    /// of the root: its score, bound and PV when it is the first move or raised alpha;
    /// otherwise it is only known to be worse than the best move.
    fn record_root_move(&mut self, index: usize, score: i32, alpha: i32, beta: i32) {
        let first = index == self.pv_index;
        let seldepth = self.seldepth;
        let child_pv = self.pv[1].clone();
        let rm = &mut self.root_moves[index];
        if first || score > alpha {
            self.has_result = true;
            rm.score = score;
            rm.seldepth = seldepth;
            rm.bound = if score >= beta {
                Some(Bound::Lower)
            } else if score <= alpha {
                Some(Bound::Upper)
            } else {
                None
            };
            rm.pv.clear();
            rm.pv.push(rm.mv);
            rm.pv.try_extend_from_slice(&child_pv[..child_pv.len().min(MAX_PLY - 1)]).ok();
        } else {
            rm.score = -INFINITY;
        }
    }

    /// The one place where the ordering tables learn: after a beta cutoff by `best`, a bonus
    /// for it and a malus for the moves of its kind tried before it (quiets or captures), and
    /// for the captures tried before a quiet cutoff.
    #[allow(clippy::too_many_arguments, reason = "the node's context, passed explicitly")]
    fn update_histories(
        &mut self,
        sh: &Shared,
        board: &Board,
        ply: usize,
        best: Move,
        depth: i32,
        tried: Tried,
        continuations: Continuations,
        threats: Bitboard,
    ) {
        let bonus = history_bonus(depth);
        let prev = self.back(ply, 1).mv;
        let h = &mut *self.histories;
        if best.is_quiet() {
            let slots = sh.options.ordering.killers() as usize;
            if slots > 0 {
                self.killers.update(ply, best, slots);
            }
            h.update_quiet(board, best, &continuations, threats, bonus);
            for &q in tried.quiets {
                h.update_quiet(board, q, &continuations, threats, -bonus);
            }
            h.counter.set(board, prev, best);
        } else {
            h.capture.update((board, best), bonus);
        }
        for &n in tried.noisy {
            h.capture.update((board, n), -bonus);
        }
    }

    fn qsearch<N: NodeType>(
        &mut self,
        sh: &Shared,
        board: &Board,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        qs_ply: u32,
    ) -> i32 {
        // The study switches, read here once (constants in normal builds).
        let f = sh.options.features;
        let (tt_cutoffs, delta_pruning, see_pruning, late_moves, selective) =
            (f.tt_cutoffs(), f.qsearch_delta(), f.qsearch_see(), f.qsearch_late_moves(), f.pruning());

        self.pv[ply].clear();
        self.nodes += 1;
        self.stats.nodes += 1;
        self.stats.qnodes += 1;
        if self.check_stop(sh) {
            return 0;
        }
        if N::PV {
            self.seldepth = self.seldepth.max(ply + 1);
        }
        let in_check = board.in_check();
        if board.halfmove_clock() >= 100 && !in_check || board.is_insufficient_material() {
            return 0;
        }
        if ply >= MAX_PLY - 2 {
            return if in_check { 0 } else { self.evaluate(board) };
        }
        if alpha < 0 && self.upcoming_repetition(board, ply) {
            alpha = 0;
            if alpha >= beta {
                return alpha;
            }
        }
        // Deep in quiescence a check is no longer answered move by move: the static eval
        // stands, so that chains of checking captures cannot blow up the tree.
        if in_check && qs_ply >= QS_MAX_EVASION_PLY {
            return self.evaluate(board);
        }

        // The correction history's entries, loaded while the TT probe waits for its own.
        let slots = CorrectionHistory::slots(board);
        if !in_check {
            self.correction.prefetch(slots);
        }
        let key = board.key();
        let entry = sh.tt.probe(key, ply);
        if let Some(e) = entry
            && !N::PV
            && tt_cutoffs
            && bound_cuts(e.bound, e.score, alpha, beta)
        {
            return e.score;
        }

        let mut best;
        let eval;
        let raw_eval;
        if in_check {
            best = -MATE + ply as i32;
            eval = 0;
            raw_eval = 0;
        } else {
            raw_eval = match entry {
                Some(e) => e.eval,
                None => self.evaluate(board),
            };
            eval = self.corrected(slots, raw_eval, sh);
            if eval >= beta {
                // Standing pat proves only beta; halfway to it, as for a fail-high below.
                return if selective && eval.abs() < MATE_IN_MAX_PLY { (eval + beta) / 2 } else { eval };
            }
            alpha = alpha.max(eval);
            best = eval;
        }

        // The square of the move that led here: a capture there is a recapture.
        let last_to = self.back(ply, 1).mv.map(|m| m.to());
        let mut picker = MovePicker::qsearch(board, entry.and_then(|e| e.mv), sh.options.ordering);
        let mut best_move = None;
        let mut tried = 0;
        while let Some(mv) = self.next_move(&mut picker) {
            if !in_check {
                // Whether SEE already found the capture winning, which implies not losing.
                let mut wins = false;
                // Delta pruning: even winning the victim with a margin leaves us below alpha.
                if delta_pruning && mv.promotion().is_none() {
                    let victim = if mv.is_en_passant() {
                        PieceType::Pawn
                    } else {
                        board.kind_on(mv.to()).unwrap_or(PieceType::Pawn)
                    };
                    if eval + DELTA_MARGIN.get() + SEE_VALUES[victim as usize] <= alpha {
                        continue;
                    }
                    // Far below alpha, an even trade cannot help either: only captures that win.
                    if eval + DELTA_MARGIN.get() <= alpha {
                        if !board.see_ge(mv, 1) {
                            continue;
                        }
                        wins = true;
                    }
                }
                // SEE pruning: captures that lose material cannot raise the score.
                if see_pruning && !wins && !board.see_ge(mv, 0) {
                    continue;
                }
            }
            tried += 1;
            // After two captures, only recaptures, promotions and (in the first plies of
            // quiescence) checks are worth a look; decided before the move is made.
            if !in_check
                && late_moves
                && tried > 2
                && Some(mv.to()) != last_to
                && mv.promotion().is_none()
                && !(qs_ply < QS_CHECK_PLIES && board.gives_check(mv))
            {
                continue;
            }
            let child = self.play(sh, board, mv, ply);
            let score = -self.qsearch::<N>(sh, &child, ply + 1, -beta, -alpha, qs_ply + 1);
            self.unplay();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if selective && best >= beta && best.abs() < MATE_IN_MAX_PLY && beta.abs() < MATE_IN_MAX_PLY {
            best = (best + beta) / 2;
        }
        let bound = if best >= beta { Bound::Lower } else { Bound::Upper };
        sh.tt.store(key, ply, TtEntry { mv: best_move, score: best, eval: raw_eval, depth: 0, bound, pv: N::PV });
        best
    }

    /// Reports root line `index` at `depth` (see [`Worker::line_info`]).
    fn report_line(&self, sh: &Shared, depth: u32, index: usize, bound: Option<Bound>) {
        if let Some(info) = self.line_info(sh, depth, index, bound) {
            (sh.report)(Report::Iteration(info));
        }
    }

    /// Reports `lines` as the new set of MultiPV lines, numbered from 1 in their order, and
    /// keeps it as the set shown.
    fn report_set(&mut self, sh: &Shared, mut lines: Vec<IterationInfo>) {
        if lines.is_empty() {
            return;
        }
        for (i, line) in lines.iter_mut().enumerate() {
            line.multipv = i + 1;
        }
        (sh.report)(Report::Lines(lines.clone()));
        self.shown = lines;
    }

    /// On a stop inside the iteration at `depth`, after `done` of its `count` lines: reports a
    /// set whose first move is the best move (the one played) and whose first moves are all
    /// different: this iteration's finished lines (or, with none finished, the best move if it
    /// changed in the unfinished first line), then the lines of the set shown before that start
    /// with other moves, up to `count`.
    fn report_interrupted(&mut self, sh: &Shared, depth: u32, done: usize, count: usize) {
        let mut lines: Vec<IterationInfo> = (0..done).filter_map(|i| self.line_info(sh, depth, i, None)).collect();
        if done == 0 {
            let best = self.root_moves[0].mv;
            if self.shown.first().and_then(|l| l.pv.first()) == Some(&best) {
                return; // the set shown still leads with the best move
            }
            lines.extend(self.line_info(sh, depth, 0, None));
        }
        let Some(now) = lines.first().cloned() else { return };
        for old in &self.shown {
            if lines.len() >= count {
                break;
            }
            if !lines.iter().any(|l| l.pv.first() == old.pv.first()) {
                let (nodes, nps, time, tbhits) = (now.nodes, now.nps, now.time, now.tbhits);
                lines.push(IterationInfo { nodes, nps, time, tbhits, ..old.clone() });
            }
        }
        self.report_set(sh, lines);
    }

    /// The `info` line of root line `index` at `depth` (`None` while it has no score).
    fn line_info(&self, sh: &Shared, depth: u32, index: usize, bound: Option<Bound>) -> Option<IterationInfo> {
        let rm = &self.root_moves[index];
        if rm.score == -INFINITY {
            return None;
        }
        let nodes = sh.total_nodes(self.id, self.nodes);
        let time = sh.elapsed_since_start();
        Some(IterationInfo {
            depth,
            seldepth: rm.seldepth.max(self.seldepth) as u32,
            multipv: index + 1,
            score: sh.shown_score(rm.score),
            bound: bound.or(rm.bound).filter(|b| *b != Bound::Exact),
            nodes,
            nps: (nodes as f64 / time.as_secs_f64().max(1e-3)) as u64,
            hashfull: sh.tt.hashfull(),
            time,
            pv: rm.pv.to_vec(),
            stats: self.stats,
            tbhits: sh.tb.hits.load(Ordering::Relaxed),
        })
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
