//! Quiescence: captures (and checks) only, until the position is quiet.

use std::ops::ControlFlow;

use cutoff_board::{Board, PieceType, SEE_VALUES};
use cutoff_tt::{Bound, MATE, MATE_IN_MAX_PLY, TtEntry};

use crate::correction::CorrectionHistory;
use crate::params::*;
use crate::shared::Shared;

use super::{NodeType, Picker, Worker, bound_cuts};

impl Worker {
    pub(super) fn qsearch<N: NodeType>(
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
        let in_check = board.in_check();
        alpha = match self.enter::<N>(sh, board, ply, in_check, alpha, beta, true) {
            ControlFlow::Break(score) => return score,
            ControlFlow::Continue(alpha) => alpha,
        };
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
        let mut picker = Picker::qsearch(board, entry.and_then(|e| e.mv), sh.options.ordering);
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
            // After two captures, only recaptures, promotions and checks are worth a look;
            // decided before the move is made. (Checks at every quiescence ply: limiting them to
            // the first two lost, docs/strength.md; QS_MAX_EVASION_PLY bounds the tree instead.)
            if !in_check
                && late_moves
                && tried > 2
                && Some(mv.to()) != last_to
                && mv.promotion().is_none()
                && !board.gives_check(mv)
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
}
