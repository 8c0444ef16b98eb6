//! The `info` output of the main thread: root lines and MultiPV sets.

use std::sync::atomic::Ordering;

use cutoff_tt::Bound;

use crate::IterationInfo;
use crate::report::Report;
use crate::shared::Shared;

use super::{INFINITY, Worker};

impl Worker {
    /// Reports root line `index` at `depth` (see [`Worker::line_info`]).
    pub(super) fn report_line(&self, sh: &Shared, depth: u32, index: usize, bound: Option<Bound>) {
        if let Some(info) = self.line_info(sh, depth, index, bound) {
            (sh.report)(Report::Iteration(info));
        }
    }

    /// Reports `lines` as the new set of MultiPV lines, numbered from 1 in their order, and
    /// keeps it as the set shown.
    pub(super) fn report_set(&mut self, sh: &Shared, mut lines: Vec<IterationInfo>) {
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
    pub(super) fn report_interrupted(&mut self, sh: &Shared, depth: u32, done: usize, count: usize) {
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
    pub(super) fn line_info(
        &self,
        sh: &Shared,
        depth: u32,
        index: usize,
        bound: Option<Bound>,
    ) -> Option<IterationInfo> {
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
