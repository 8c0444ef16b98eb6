//! The search of a node: the root, a PV node or a null-window node.

use std::ops::ControlFlow;
use std::sync::atomic::Ordering;

use arrayvec::ArrayVec;
use cutoff_board::{Bitboard, Board, Move, PieceType};
use cutoff_ordering::{CONTINUATION_PLIES, Continuations};
use cutoff_syzygy::Wdl;
use cutoff_tt::{Bound, MATE, MATE_IN_MAX_PLY, TtEntry};

use crate::MAX_PLY;
use crate::correction::CorrectionHistory;
use crate::params::*;
use crate::report::Report;
use crate::shared::Shared;

use super::{Candidate, INFINITY, Node, NodeType, NonPv, Picker, Pv, Tried, Worker, bound_cuts};

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

impl Worker {
    /// The alpha-beta search of one node: the root, a PV node or a null-window node (`N`).
    /// `cut_node`: a null-window node expected to fail high (reduced more).
    #[allow(clippy::too_many_lines)]
    #[allow(clippy::too_many_arguments, reason = "the node's position, depth, ply, window and kind")]
    pub(super) fn search<N: NodeType>(
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
        alpha = match self.enter::<N>(sh, board, ply, in_check, alpha, beta, false) {
            ControlFlow::Break(score) => return score,
            ControlFlow::Continue(alpha) => alpha,
        };
        if !N::ROOT {
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
        // Where the last move took a piece (en passant took it elsewhere).
        let recapture_square = prev.filter(|m| m.is_capture() && !m.is_en_passant()).map(Move::to);
        let counter = self.histories.counter.get(board, prev);
        self.killers.clear_ply(ply + 1);
        let killers = self.killers.get(ply);
        // The killers the ordering uses; they and the countermove are reduced less.
        let used_killers = &killers[..(ordering.killers() as usize).min(killers.len())];
        let mut picker = Picker::main(board, tt_move, killers, counter, ordering);
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
            let base_fine = lmr_reduction_fine(depth, move_count);
            let base_reduction = base_fine / ONE_PLY;
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
                base_fine,
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

            let extension = if Some(mv) != tt_move {
                0
            } else if N::PV && selective && singular_extension == 0 && recapture_square == Some(mv.to()) {
                // The PV's exchange is seen to its end: a shallower search may stop halfway.
                RECAPTURE_EXTENSION.get()
            } else {
                singular_extension
            };
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
    pub(super) fn probe_tablebase<N: NodeType>(
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

    /// The one place where the ordering tables learn: after a beta cutoff by `best`, a bonus
    /// for it and a malus for the moves of its kind tried before it (quiets or captures), and
    /// for the captures tried before a quiet cutoff.
    #[allow(clippy::too_many_arguments, reason = "the node's context, passed explicitly")]
    pub(super) fn update_histories(
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
}
