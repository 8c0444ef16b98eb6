//! One search thread: iterative deepening, aspiration windows, PVS, quiescence.

use std::sync::LazyLock;
use std::sync::atomic::Ordering;

use arrayvec::ArrayVec;
use cutoff_board::{Board, Move, PieceType, SEE_VALUES};
use cutoff_eval::PawnCache;
use cutoff_ordering::{Histories, Killers, MovePicker, OrderCtx};
use cutoff_tt::{Bound, MATE, MATE_IN_MAX_PLY};

use crate::engine::{Report, Shared};
use crate::{IterationInfo, MAX_PLY, Stats};

/// The safety margin of delta pruning in quiescence search.
const DELTA_MARGIN: i32 = 200;

/// A score above every real score.
pub(crate) const INFINITY: i32 = MATE + 1;

/// Late-move reduction table, `[depth][move number]`, both capped at 63.
static LMR: LazyLock<[[i32; 64]; 64]> = LazyLock::new(|| {
    let mut t = [[0; 64]; 64];
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as i32;
        }
    }
    t
});

/// Whether a stored score with `bound` settles the window (`alpha`, `beta`) by itself.
#[inline(always)]
fn bound_cuts(bound: Bound, score: i32, alpha: i32, beta: i32) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    }
}

#[derive(Clone, Copy, Default)]
struct Frame {
    /// The move made from this ply (None for a null move or before any move).
    mv: Option<Move>,
    null: bool,
}

/// A root move with the score of its latest search.
#[derive(Clone, Debug)]
pub(crate) struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub pv: ArrayVec<Move, MAX_PLY>,
    pub seldepth: usize,
    pub bound: Option<Bound>,
}

/// Per-thread state, kept between searches (histories survive until `ucinewgame`).
pub(crate) struct Worker {
    pub id: usize,
    pub histories: Box<Histories>,
    pub killers: Box<Killers>,
    pawns: PawnCache,
    /// Keys of the game before the root, then of the current search path.
    keys: Vec<u64>,
    root_index: usize,
    pv: Vec<ArrayVec<Move, MAX_PLY>>,
    frames: Vec<Frame>,
    pub nodes: u64,
    seldepth: usize,
    pub stats: Stats,
    stopped: bool,
    /// Whether some root move has a searched score (stops are honoured only from then on).
    has_result: bool,
    pub root_moves: Vec<RootMove>,
    pub completed_depth: u32,
}

impl Worker {
    pub fn new(id: usize) -> Worker {
        Worker {
            id,
            histories: Histories::boxed(),
            killers: Box::new(Killers::new()),
            pawns: PawnCache::new(1 << 14),
            keys: Vec::with_capacity(1024),
            root_index: 0,
            pv: vec![ArrayVec::new(); MAX_PLY + 2],
            frames: vec![Frame::default(); MAX_PLY + 2],
            nodes: 0,
            seldepth: 0,
            stats: Stats::default(),
            stopped: false,
            has_result: false,
            root_moves: Vec::new(),
            completed_depth: 0,
        }
    }

    pub fn clear(&mut self) {
        self.histories.clear();
        self.killers.clear();
        self.pawns.clear();
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
        self.nodes = 0;
        self.stats = Stats::default();
        self.stopped = false;
        self.has_result = false;
        self.completed_depth = 0;
        self.root_moves = root_moves
            .iter()
            .map(|&mv| RootMove { mv, score: -INFINITY, pv: ArrayVec::new(), seldepth: 0, bound: None })
            .collect();
        self.killers.clear();

        let max_depth = sh.limits.depth.unwrap_or(MAX_PLY as u32 - 4).clamp(1, MAX_PLY as u32 - 4);
        let multipv = sh.options.multipv.clamp(1, self.root_moves.len());
        let mut scores = vec![0; multipv];

        // Helper threads start one ply deeper half of the time, to spread out over the tree.
        let first = if self.id % 2 == 1 { 2.min(max_depth) } else { 1 };
        for depth in first..=max_depth {
            for rm in &mut self.root_moves {
                rm.score = -INFINITY;
            }
            for pv_index in 0..multipv {
                self.seldepth = 0;
                let score = self.aspiration(sh, board, depth as i32, pv_index, scores[pv_index]);
                if self.stopped {
                    break;
                }
                scores[pv_index] = score;
                self.root_moves[pv_index..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                // Keep the lines found so far in score order too (MultiPV).
                self.root_moves[..=pv_index].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                if self.is_main() {
                    for i in 0..=pv_index {
                        self.report_line(sh, depth, i, None);
                    }
                }
            }
            if self.stopped {
                break;
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
            if let Some(budget) = sh.budget
                && let Some(elapsed) = sh.clock_elapsed()
                && elapsed >= budget.soft
            {
                break;
            }
            if self.root_moves.len() == 1 && sh.budget.is_some() && depth >= 6 && !sh.control.is_pondering() {
                break; // a forced move: no need to think long
            }
        }
        sh.publish_nodes(self.id, self.nodes);
    }

    fn aspiration(&mut self, sh: &Shared, board: &Board, depth: i32, pv_index: usize, prev: i32) -> i32 {
        let mut delta = 20;
        let (mut alpha, mut beta) = if sh.features.aspiration && depth >= 4 && prev.abs() < MATE_IN_MAX_PLY {
            ((prev - delta).max(-INFINITY), (prev + delta).min(INFINITY))
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let score = self.root(sh, board, depth, pv_index, alpha, beta);
            if self.stopped {
                return score;
            }
            if score <= alpha {
                if self.is_main() {
                    self.report_line(sh, depth as u32, pv_index, Some(Bound::Upper));
                }
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta {
                if self.is_main() {
                    self.report_line(sh, depth as u32, pv_index, Some(Bound::Lower));
                }
                beta = (score + delta).min(INFINITY);
            } else {
                return score;
            }
            delta += delta;
            if delta > 1000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// The root node: searches `root_moves[pv_index..]` in their current order.
    fn root(&mut self, sh: &Shared, board: &Board, depth: i32, pv_index: usize, mut alpha: i32, beta: i32) -> i32 {
        let mut best = -INFINITY;
        self.keys.push(board.key());
        self.frames[0] = Frame::default();
        for i in pv_index..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            if self.is_main()
                && let Some(elapsed) = sh.elapsed_since_start()
                && elapsed.as_millis() >= 3000
            {
                (sh.report)(Report::CurrMove { depth: depth as u32, mv, number: i + 1 });
            }
            let mut child = *board;
            child.play_unchecked(mv);
            self.frames[0].mv = Some(mv);
            let score = if i == pv_index {
                -self.negamax::<true>(sh, &child, depth - 1, 1, -beta, -alpha)
            } else {
                let mut s = -self.negamax::<false>(sh, &child, depth - 1, 1, -alpha - 1, -alpha);
                if s > alpha && s < beta {
                    s = -self.negamax::<true>(sh, &child, depth - 1, 1, -beta, -alpha);
                }
                s
            };
            if self.stopped {
                break;
            }
            let rm = &mut self.root_moves[i];
            if i == pv_index || score > alpha {
                self.has_result = true;
                rm.score = score;
                rm.seldepth = self.seldepth;
                rm.bound = if score >= beta {
                    Some(Bound::Lower)
                } else if score <= alpha {
                    Some(Bound::Upper)
                } else {
                    None
                };
                rm.pv.clear();
                rm.pv.push(mv);
                let child_pv = self.pv[1].clone();
                rm.pv.try_extend_from_slice(&child_pv[..child_pv.len().min(MAX_PLY - 1)]).ok();
            } else {
                rm.score = -INFINITY;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                // Keep the new best move first so an interrupted iteration still reports it.
                if i != pv_index {
                    let moved = self.root_moves.remove(i);
                    self.root_moves.insert(pv_index, moved);
                }
                if score >= beta {
                    break;
                }
            }
        }
        self.keys.pop();
        best
    }

    /// Checks the stop flag (every node) and the limits (every 1024 nodes, main thread).
    #[inline]
    fn check_stop(&mut self, sh: &Shared) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes & 1023 == 0 {
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
        if self.has_result && (sh.abort.load(Ordering::Relaxed) || sh.control.stop_requested()) {
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

    /// The picker's next move, read with this thread's history tables.
    #[inline(always)]
    fn next_move(&self, picker: &mut MovePicker, board: &Board) -> Option<Move> {
        picker.next(&OrderCtx { board, history: &self.histories })
    }

    fn evaluate(&mut self, board: &Board) -> i32 {
        cutoff_eval::evaluate_cached(board, &mut self.pawns)
    }

    #[allow(clippy::too_many_lines)]
    fn negamax<const PV: bool>(
        &mut self,
        sh: &Shared,
        board: &Board,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        self.pv[ply].clear();
        let in_check = board.in_check();
        if in_check && sh.features.check_extension {
            depth += 1;
        }
        if depth <= 0 {
            let last_to = if ply > 0 { self.frames[ply - 1].mv.map(|m| m.to()) } else { None };
            return self.qsearch::<PV>(sh, board, ply, alpha, beta, last_to);
        }
        self.nodes += 1;
        self.stats.nodes += 1;
        if self.check_stop(sh) {
            return 0;
        }
        if PV {
            self.seldepth = self.seldepth.max(ply + 1);
        }
        if self.is_draw(board) {
            return 0;
        }
        if ply >= MAX_PLY - 2 {
            return if in_check { 0 } else { self.evaluate(board) };
        }

        // Mate distance pruning: no line from here beats a mate already found closer to the root.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        let key = board.key();
        let entry = sh.tt.probe(key, ply);
        let tt_move = entry.and_then(|e| e.mv);
        if let Some(e) = entry {
            self.stats.tt_hits += 1;
            if !PV && sh.features.tt_cutoffs && e.depth >= depth && bound_cuts(e.bound, e.score, alpha, beta) {
                return e.score;
            }
        }

        let eval = if in_check {
            -INFINITY
        } else if let Some(e) = entry {
            e.eval
        } else {
            self.evaluate(board)
        };

        let prev_null = ply > 0 && self.frames[ply - 1].null;
        if !PV && !in_check && beta.abs() < MATE_IN_MAX_PLY {
            // Reverse futility pruning: far above beta with little depth left.
            if sh.features.reverse_futility && depth <= 8 && eval - 80 * depth >= beta {
                return eval;
            }
            // Null move pruning: if passing still fails high, a real move surely would.
            let has_pieces =
                (board.colored(board.side_to_move()) - board.pieces(PieceType::Pawn) - board.pieces(PieceType::King))
                    .is_nonempty();
            if sh.features.null_move
                && depth >= 3
                && eval >= beta
                && !prev_null
                && has_pieces
                && let Some(null) = board.null_move()
            {
                let r = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                self.frames[ply] = Frame { mv: None, null: true };
                self.keys.push(key);
                let score = -self.negamax::<false>(sh, &null, depth - 1 - r, ply + 1, -beta, -beta + 1);
                self.keys.pop();
                self.frames[ply].null = false;
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_IN_MAX_PLY { beta } else { score };
                }
            }
        }

        let prev = if ply > 0 { self.frames[ply - 1].mv } else { None };
        let counter = self.histories.counter.get(board, prev);
        self.killers.clear_ply(ply + 1);
        let killers = self.killers.get(ply);
        let mut picker = MovePicker::main(board, tt_move, killers, counter, sh.ordering);
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut move_count = 0;
        let mut quiets_tried: ArrayVec<Move, 64> = ArrayVec::new();
        self.keys.push(key);

        while let Some(mv) = self.next_move(&mut picker, board) {
            move_count += 1;
            let mut child = *board;
            child.play_unchecked(mv);
            self.frames[ply] = Frame { mv: Some(mv), null: false };
            let new_depth = depth - 1;

            let score = if move_count == 1 {
                -self.negamax::<PV>(sh, &child, new_depth, ply + 1, -beta, -alpha)
            } else {
                let mut r = 0;
                if sh.features.lmr && depth >= 3 && mv.is_quiet() && !in_check && !child.in_check() {
                    r = LMR[depth.min(63) as usize][move_count.min(63)];
                    if PV {
                        r -= 1;
                    }
                    // Killers and the countermove are reduced less. Decided by the move itself,
                    // not by the picker stage, so that every ordering variant that yields the
                    // same order also searches the same tree.
                    let used_killers = &killers[..(sh.ordering.killers as usize).min(killers.len())];
                    if used_killers.contains(&Some(mv)) || (sh.ordering.countermove && counter == Some(mv)) {
                        r -= 1;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                if sh.features.pvs {
                    let mut s = -self.negamax::<false>(sh, &child, new_depth - r, ply + 1, -alpha - 1, -alpha);
                    if s > alpha && r > 0 {
                        s = -self.negamax::<false>(sh, &child, new_depth, ply + 1, -alpha - 1, -alpha);
                    }
                    if PV && s > alpha && s < beta {
                        s = -self.negamax::<true>(sh, &child, new_depth, ply + 1, -beta, -alpha);
                    }
                    s
                } else {
                    let mut s = -self.negamax::<PV>(sh, &child, new_depth - r, ply + 1, -beta, -alpha);
                    if s > alpha && r > 0 {
                        s = -self.negamax::<PV>(sh, &child, new_depth, ply + 1, -beta, -alpha);
                    }
                    s
                }
            };
            if self.stopped {
                self.keys.pop();
                return 0;
            }

            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    if PV {
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        let line = &mut head[ply];
                        line.clear();
                        line.push(mv);
                        let child_pv = &tail[0];
                        let room = MAX_PLY - 1;
                        line.try_extend_from_slice(&child_pv[..child_pv.len().min(room)]).ok();
                    }
                    if score >= beta {
                        self.stats.record_cutoff(move_count, picker.noisy_generated(), picker.quiets_generated());
                        self.update_histories(sh, board, ply, mv, depth, &quiets_tried, prev);
                        break;
                    }
                }
            }
            if mv.is_quiet() {
                let _ = quiets_tried.try_push(mv);
            }
        }
        self.keys.pop();

        if move_count == 0 {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if PV && best_move.is_some() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        sh.tt.store(key, best_move, best, if in_check { 0 } else { eval }, depth, bound, ply, PV);
        best
    }

    /// The one place where the ordering tables learn: after a beta cutoff by `best`.
    #[allow(clippy::too_many_arguments, reason = "the node's context, passed explicitly")]
    fn update_histories(
        &mut self,
        sh: &Shared,
        board: &Board,
        ply: usize,
        best: Move,
        depth: i32,
        quiets_tried: &[Move],
        prev: Option<Move>,
    ) {
        if !best.is_quiet() {
            return;
        }
        if sh.ordering.killers > 0 {
            self.killers.update(ply, best, sh.ordering.killers as usize);
        }
        let color = board.side_to_move();
        let bonus = (depth * depth * 16 + depth * 32).min(1600);
        self.histories.butterfly.update(color, best, bonus);
        for &q in quiets_tried {
            self.histories.butterfly.update(color, q, -bonus);
        }
        self.histories.counter.set(board, prev, best);
    }

    fn qsearch<const PV: bool>(
        &mut self,
        sh: &Shared,
        board: &Board,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        last_to: Option<cutoff_board::Square>,
    ) -> i32 {
        self.pv[ply].clear();
        self.nodes += 1;
        self.stats.nodes += 1;
        self.stats.qnodes += 1;
        if self.check_stop(sh) {
            return 0;
        }
        if PV {
            self.seldepth = self.seldepth.max(ply + 1);
        }
        let in_check = board.in_check();
        if board.halfmove_clock() >= 100 && !in_check || board.is_insufficient_material() {
            return 0;
        }
        if ply >= MAX_PLY - 2 {
            return if in_check { 0 } else { self.evaluate(board) };
        }

        let key = board.key();
        let entry = sh.tt.probe(key, ply);
        if let Some(e) = entry
            && !PV
            && sh.features.tt_cutoffs
            && bound_cuts(e.bound, e.score, alpha, beta)
        {
            return e.score;
        }

        let mut best;
        let eval;
        if in_check {
            best = -MATE + ply as i32;
            eval = 0;
        } else {
            eval = match entry {
                Some(e) => e.eval,
                None => self.evaluate(board),
            };
            if eval >= beta {
                return eval;
            }
            alpha = alpha.max(eval);
            best = eval;
        }

        let mut picker = MovePicker::qsearch(board, entry.and_then(|e| e.mv), sh.ordering);
        let mut best_move = None;
        let mut tried = 0;
        while let Some(mv) = self.next_move(&mut picker, board) {
            if !in_check {
                // Delta pruning: even winning the victim with a margin leaves us below alpha.
                if sh.features.qsearch_delta && mv.promotion().is_none() {
                    let victim = if mv.is_en_passant() {
                        PieceType::Pawn
                    } else {
                        board.kind_on(mv.to()).unwrap_or(PieceType::Pawn)
                    };
                    if eval + DELTA_MARGIN + SEE_VALUES[victim as usize] <= alpha {
                        continue;
                    }
                    // Far below alpha, an even trade cannot help either: only captures that win.
                    if eval + DELTA_MARGIN <= alpha && !board.see_ge(mv, 1) {
                        continue;
                    }
                }
                // SEE pruning: captures that lose material cannot raise the score.
                if sh.features.qsearch_see && !board.see_ge(mv, 0) {
                    continue;
                }
            }
            let mut child = *board;
            child.play_unchecked(mv);
            tried += 1;
            // After two captures, only recaptures, promotions and checks are worth a look.
            if !in_check
                && sh.features.qsearch_late_moves
                && tried > 2
                && Some(mv.to()) != last_to
                && mv.promotion().is_none()
                && !child.in_check()
            {
                continue;
            }
            let score = -self.qsearch::<PV>(sh, &child, ply + 1, -beta, -alpha, Some(mv.to()));
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
        let bound = if best >= beta { Bound::Lower } else { Bound::Upper };
        sh.tt.store(key, best_move, best, eval, 0, bound, ply, PV);
        best
    }

    fn report_line(&self, sh: &Shared, depth: u32, index: usize, bound: Option<Bound>) {
        let rm = &self.root_moves[index];
        if rm.score == -INFINITY {
            return;
        }
        let nodes = sh.total_nodes(self.id, self.nodes);
        let time = sh.elapsed_since_start().unwrap_or_default();
        (sh.report)(Report::Iteration(IterationInfo {
            depth,
            seldepth: rm.seldepth.max(self.seldepth) as u32,
            multipv: index + 1,
            score: rm.score,
            bound: bound.or(rm.bound).filter(|b| *b != Bound::Exact),
            nodes,
            nps: (nodes as f64 / time.as_secs_f64().max(1e-3)) as u64,
            hashfull: sh.tt.hashfull(),
            time,
            pv: rm.pv.to_vec(),
            stats: self.stats,
        }));
    }
}
