//! What a search prints: its `info` lines as they come, the final lines before `bestmove`,
//! and the `bestmove` line itself.

use std::sync::Mutex;

use cutoff_board::{Board, Move};
use cutoff_search::{IterationInfo, Report, SearchResult, Stats, UciScore};
use cutoff_tt::Bound;

use crate::{Output, strength};

/// Keeps what the search reported, as it reports it: the newest line of each `multipv`
/// index (for the final lines) and, at limited strength, the root moves to choose from.
pub(crate) struct Recorder<'a> {
    board: &'a Board,
    show_wdl: bool,
    /// The MultiPV option: how many lines to show. Limited strength searches more.
    shown: usize,
    /// The newest exact first line.
    last: Mutex<Option<IterationInfo>>,
    /// The newest line of each `multipv` index, in index order.
    newest: Mutex<Vec<IterationInfo>>,
    /// Limited strength: the root lines of the deepest iteration that reported all of them,
    /// and of the iteration in progress (`None` at full strength).
    root_lines: Option<Mutex<strength::RootLines>>,
    /// How many root lines make an iteration complete.
    wanted: usize,
}

impl<'a> Recorder<'a> {
    /// A recorder for a search of `board` that shows `shown` lines; `weakened` (the level's
    /// line count) keeps the root lines for the limited-strength choice.
    pub(crate) fn new(board: &'a Board, show_wdl: bool, shown: usize, weakened: Option<usize>) -> Recorder<'a> {
        Recorder {
            board,
            show_wdl,
            shown,
            last: Mutex::new(None),
            newest: Mutex::new(Vec::new()),
            root_lines: weakened.map(|_| Mutex::new(strength::RootLines::default())),
            wanted: board.legal_moves().len().min(weakened.unwrap_or(1)).max(1),
        }
    }

    /// Prints what the search reports, and records it.
    pub(crate) fn report(&self, report: Report, out: &Output) {
        match report {
            Report::Iteration(info) => {
                if let Some(text) = self.take(info) {
                    out.line(&text);
                }
            }
            Report::Lines(set) => out.lines(&set.into_iter().filter_map(|info| self.take(info)).collect::<Vec<_>>()),
            Report::CurrMove { depth, mv, number } => {
                out.line(&format!("info depth {depth} currmove {} currmovenumber {number}", self.board.uci(mv)));
            }
        }
    }

    /// Records one line of the search and returns the text to show, if it is shown.
    fn take(&self, info: IterationInfo) -> Option<String> {
        if let Some(root_lines) = &self.root_lines
            && info.bound.is_none()
            && let (Some(&mv), Ok(mut l)) = (info.pv.first(), root_lines.lock())
        {
            l.record(info.depth, mv, info.score, self.wanted);
        }
        // Limited strength searches more lines than MultiPV asks for: those are not shown.
        if info.multipv > self.shown {
            return None;
        }
        let text = info_line(self.board, &info, self.show_wdl);
        if let Ok(mut n) = self.newest.lock() {
            let index = info.multipv - 1;
            if index < n.len() {
                n[index] = info.clone();
            } else if index == n.len() {
                n.push(info.clone());
            }
        }
        if info.multipv == 1
            && info.bound.is_none()
            && let Ok(mut l) = self.last.lock()
        {
            *l = Some(info);
        }
        Some(text)
    }

    /// The limited-strength choice among the recorded root lines (`None` at full strength).
    pub(crate) fn choose(&self, level: &strength::Level, rng: &Mutex<strength::Rng>) -> Option<Move> {
        let lines = self.root_lines.as_ref()?.lock().ok()?;
        let mut rng = rng.lock().ok()?;
        level.choose(lines.pool(), &mut rng)
    }

    /// The `info` lines printed just before `bestmove best`: the last exact first line with
    /// the search's totals, or a bare line when no exact line came.
    pub(crate) fn final_lines(&self, best: Move, result: &SearchResult) -> Vec<String> {
        let Some(mut info) = self.last.lock().ok().and_then(|l| l.clone()) else {
            return vec![format!(
                "info depth {} score {} pv {}",
                result.depth.max(1), // stopped inside depth 1, after its first root move
                UciScore::from_score(result.score),
                self.board.uci(best)
            )];
        };
        info.nodes = result.nodes;
        info.time = result.time;
        info.nps = (result.nodes as f64 / result.time.as_secs_f64().max(1e-3)) as u64;
        info.tbhits = result.tbhits;
        let changed = info.pv.first() != Some(&best);
        if changed {
            info.pv = vec![best];
            info.score = result.score;
        }
        let mut set = vec![info_line(self.board, &info, self.show_wdl)];
        // The first line now starts with another move than before (the limited-strength choice,
        // or a best move found after the last exact line): the other indices follow it again,
        // renumbered, without the move now first, so no two indices' newest lines share a move.
        let others = self.newest.lock().map(|n| n.clone()).unwrap_or_default();
        if changed && others.len() > 1 {
            let shown = others.len();
            let rest = others.into_iter().filter(|l| l.pv.first() != Some(&best)).take(shown - 1);
            for (i, mut line) in rest.enumerate() {
                line.multipv = i + 2;
                (line.nodes, line.time, line.nps, line.tbhits) = (info.nodes, info.time, info.nps, info.tbhits);
                set.push(info_line(self.board, &line, self.show_wdl));
            }
        }
        set
    }
}

/// Formats an `info` line, writing the PV in the notation of the position's mode; with
/// `show_wdl`, the score is followed by `wdl W D L` (per mille, from
/// [`cutoff_search::wdl`]).
pub fn info_line(board: &Board, info: &IterationInfo, show_wdl: bool) -> String {
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {}",
        info.depth,
        info.seldepth,
        info.multipv,
        UciScore::from_score(info.score)
    );
    match info.bound {
        Some(Bound::Lower) => s.push_str(" lowerbound"),
        Some(Bound::Upper) => s.push_str(" upperbound"),
        _ => {}
    }
    if show_wdl {
        let w = cutoff_search::wdl::wdl(info.score, board);
        s.push_str(&format!(" wdl {} {} {}", w.win, w.draw, w.loss));
    }
    s.push_str(&format!(" nodes {} nps {} hashfull {}", info.nodes, info.nps, info.hashfull));
    if info.tbhits > 0 {
        s.push_str(&format!(" tbhits {}", info.tbhits));
    }
    s.push_str(&format!(" time {} pv", info.time.as_millis()));
    let mut b = *board;
    for &mv in &info.pv {
        if !b.is_legal(mv) {
            break;
        }
        s.push(' ');
        s.push_str(&b.uci(mv).to_string());
        b.play_unchecked(mv);
    }
    s
}

/// The `debug on` statistics line.
pub(crate) fn stats_line(s: &Stats) -> String {
    format!(
        "info string stats nodes {} qnodes {} cutoffs {} first-move-cutoff-rate {:.3} avg-cutoff-index {:.2} tt-hits {}",
        s.nodes,
        s.qnodes,
        s.cutoffs,
        s.first_move_cutoff_rate(),
        s.average_cutoff_index(),
        s.tt_hits
    )
}

/// `bestmove best`, with the search's ponder move when it answers `best` and is legal.
pub(crate) fn bestmove_line(board: &Board, best: Move, result: &SearchResult) -> String {
    let mut line = format!("bestmove {}", board.uci(best));
    if let Some(p) = result.ponder_move.filter(|_| result.best_move == Some(best)) {
        let mut after = *board;
        after.play_unchecked(best);
        if after.is_legal(p) {
            line.push_str(&format!(" ponder {}", after.uci(p)));
        }
    }
    line
}
