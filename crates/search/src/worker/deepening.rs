//! Iterative deepening, aspiration windows and the time decisions between iterations.

use arrayvec::ArrayVec;
use cutoff_board::{Board, Move};
use cutoff_tt::{Bound, MATE, MATE_IN_MAX_PLY};

use crate::evaluator::Evaluator;
use crate::params::*;
use crate::shared::Shared;
use crate::{MAX_PLY, Stats};

use super::{INFINITY, Root, RootMove, StackEntry, Worker};

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

impl Worker {
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
    pub(super) fn aspiration(
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

    /// Records the result of the root move at `index`, searched with the window (`alpha`, `beta`)
    /// of the root: its score, bound and PV when it is the first move or raised alpha;
    /// otherwise it is only known to be worse than the best move.
    pub(super) fn record_root_move(&mut self, index: usize, score: i32, alpha: i32, beta: i32) {
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
}
