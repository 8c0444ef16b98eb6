//! The selective steps of a node: null-move pruning, ProbCut, singular extensions, shallow-depth pruning of moves and late-move reductions.

use std::ops::ControlFlow;

use cutoff_board::{Board, PieceType, SEE_VALUES};
use cutoff_tt::{Bound, MATE_IN_MAX_PLY, TtEntry};

use crate::params::*;
use crate::shared::Shared;

use super::{Candidate, Node, NodeType, NonPv, Picker, STACK_OFFSET, Worker};

impl Worker {
    /// Null-move pruning, at a node whose eval is at least `beta`: if passing still fails high
    /// in a search [`NMP_BASE`] and more plies shallower, a real move surely would, and the
    /// node ends with that score (`Break`; a mate score becomes `beta`, as passing proves no
    /// mate). Deep in the tree ([`NMP_VERIFY_MIN_DEPTH`]) the cutoff is first verified by a
    /// reduced search of our own moves with no null move of ours for a while, against
    /// zugzwang. Never twice in a row, nor without pieces (pawn endings are full of zugzwang).
    /// `Break(0)` when the search stopped.
    #[inline(always)]
    pub(super) fn try_null_move(&mut self, sh: &Shared, board: &Board, n: &Node, beta: i32) -> ControlFlow<i32> {
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
    pub(super) fn probcut(&mut self, sh: &Shared, board: &Board, n: &Node, beta: i32) -> ControlFlow<i32> {
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
        let mut picker = Picker::qsearch(board, n.tt_move, ordering);
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
    pub(super) fn singular_extension<N: NodeType>(
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
    pub(super) fn prune_move(
        &self,
        board: &Board,
        picker: &mut Picker,
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
    pub(super) fn reduction<N: NodeType>(
        &self,
        sh: &Shared,
        n: &Node,
        c: &Candidate,
        child: &Board,
        new_depth: i32,
    ) -> i32 {
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
}
