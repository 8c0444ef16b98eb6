//! The `go` command: reading its parameters into [`Limits`], and starting the search (or
//! perft) it asks for.

use std::sync::Arc;
use std::time::Duration;

use cutoff_board::{Board, Move};
use cutoff_search::Limits;

use crate::jobs::{self, Job, SearchJob, Verbosity};
use crate::options::parse_whole;
use crate::{Uci, truncate};

/// Why a `go` command could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoError {
    /// A parameter that `go` does not know.
    UnknownParameter(String),
    /// A parameter without its number, or with something else than a whole number.
    BadValue(String),
    /// A `searchmoves` move that is not legal here.
    BadSearchMove(String),
}

impl std::fmt::Display for GoError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GoError::UnknownParameter(p) => write!(f, "unknown parameter '{}'", truncate(p)),
            GoError::BadValue(p) => {
                let (unit, min, max) = go_range(p);
                write!(f, "'{p}' needs a whole number of {unit}, {min} to {max} (larger ones count as {max})")
            }
            GoError::BadSearchMove(m) => write!(f, "searchmoves: '{}' is not a legal move here", truncate(m)),
        }
    }
}

impl std::error::Error for GoError {}

const GO_KEYWORDS: [&str; 12] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
];

/// The deepest `go depth`: the last iteration Cutoff's search starts (`MAX_PLY - 4`; the
/// search clamps its depth there, in `cutoff-search`'s `worker/deepening.rs`).
const MAX_GO_DEPTH: u64 = cutoff_board::MAX_PLY as u64 - 4;

/// The longest `go mate`, in moves: every mate score the search reports is within `MAX_PLY`
/// plies.
const MAX_GO_MATE: u64 = cutoff_board::MAX_PLY as u64 / 2;

/// The largest `go nodes`: 10^15, about ten years of one thread at 3 Mnps.
const MAX_GO_NODES: u64 = 1_000_000_000_000_000;

/// The largest time of `go` (`wtime`, `btime`, `winc`, `binc`, `movetime`), in milliseconds:
/// 10^10, about 116 days.
const MAX_GO_MS: u64 = 10_000_000_000;

/// The largest `go movestogo`.
const MAX_GO_MOVESTOGO: u64 = 1000;

/// The unit and range of the number of `go` parameter `key`. A number outside the range is
/// brought into it (negative clock times, which some GUIs send when a clock runs out, count as
/// zero; `go depth 9999` searches as deep as the search goes).
fn go_range(key: &str) -> (&'static str, u64, u64) {
    match key {
        "depth" => ("plies", 1, MAX_GO_DEPTH),
        "mate" => ("moves", 1, MAX_GO_MATE),
        "nodes" => ("nodes", 1, MAX_GO_NODES),
        "movestogo" => ("moves", 0, MAX_GO_MOVESTOGO),
        _ => ("milliseconds", 0, MAX_GO_MS),
    }
}

/// Parses the parameters of `go` (everything after `go`). A number outside its parameter's
/// range (see [`GoError::BadValue`]'s message) is brought into it.
pub fn parse_go(args: &[&str], board: &Board) -> Result<Limits, GoError> {
    let mut limits = Limits::default();
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        i += 1;
        let number = |i: &mut usize| -> Result<u64, GoError> {
            let v = args.get(*i).ok_or_else(|| GoError::BadValue(key.into()))?;
            *i += 1;
            let n = parse_whole(v).ok_or_else(|| GoError::BadValue(key.into()))?;
            let (_, min, max) = go_range(key);
            Ok(n.max(0).unsigned_abs().clamp(min, max))
        };
        let ms = |i: &mut usize| number(i).map(Duration::from_millis);
        match key {
            "infinite" => limits.infinite = true,
            "ponder" => limits.ponder = true,
            "wtime" => limits.wtime = Some(ms(&mut i)?),
            "btime" => limits.btime = Some(ms(&mut i)?),
            "winc" => limits.winc = Some(ms(&mut i)?),
            "binc" => limits.binc = Some(ms(&mut i)?),
            "movestogo" => limits.movestogo = Some(number(&mut i)? as u32),
            "depth" => limits.depth = Some(number(&mut i)? as u32),
            "nodes" => limits.nodes = Some(number(&mut i)?),
            "mate" => limits.mate = Some(number(&mut i)? as u32),
            "movetime" => limits.movetime = Some(ms(&mut i)?),
            "searchmoves" => {
                while i < args.len() && !GO_KEYWORDS.contains(&args[i]) {
                    let mv: Move = board.parse_uci(args[i]).map_err(|_| GoError::BadSearchMove(args[i].into()))?;
                    limits.searchmoves.push(mv);
                    i += 1;
                }
            }
            other => return Err(GoError::UnknownParameter(other.into())),
        }
    }
    Ok(limits)
}

/// Like [`parse_go`], but skips what it cannot read instead of failing: an unknown word,
/// or a parameter whose value is missing or malformed (without swallowing the next word).
fn parse_go_lenient(args: &[&str], board: &Board) -> Limits {
    let mut limits = Limits::default();
    let mut i = 0;
    while i < args.len() {
        let take = match args[i] {
            "infinite" | "ponder" => 1,
            "searchmoves" => {
                let mut j = i + 1;
                while j < args.len() && !GO_KEYWORDS.contains(&args[j]) {
                    if let Ok(mv) = board.parse_uci(args[j]) {
                        limits.searchmoves.push(mv);
                    }
                    j += 1;
                }
                i = j;
                continue;
            }
            key if GO_KEYWORDS.contains(&key) && args.get(i + 1).is_some_and(|v| parse_whole(v).is_some()) => 2,
            _ => 1,
        };
        if let Ok(part) = parse_go(&args[i..i + take], board) {
            merge(&mut limits, part);
        }
        i += take;
    }
    limits
}

fn merge(into: &mut Limits, from: Limits) {
    into.depth = into.depth.or(from.depth);
    into.nodes = into.nodes.or(from.nodes);
    into.movetime = into.movetime.or(from.movetime);
    into.mate = into.mate.or(from.mate);
    into.infinite |= from.infinite;
    into.ponder |= from.ponder;
    into.wtime = into.wtime.or(from.wtime);
    into.btime = into.btime.or(from.btime);
    into.winc = into.winc.or(from.winc);
    into.binc = into.binc.or(from.binc);
    into.movestogo = into.movestogo.or(from.movestogo);
    into.searchmoves.extend(from.searchmoves);
}

/// Whether the search ends without `stop`: a depth, node, time or mate limit, or a clock for
/// the side to move (`infinite` and `ponder` wait for the GUI).
fn ends_by_itself(limits: &Limits, board: &Board) -> bool {
    limits.depth.is_some()
        || limits.nodes.is_some()
        || limits.movetime.is_some()
        || limits.mate.is_some()
        || limits.has_clock(board.side_to_move())
}

impl Uci {
    /// `go`: a perft, a book move, or a search on the background thread.
    pub(crate) fn go(&mut self, args: &[&str]) {
        if self.jobs.in_the_way() {
            self.info(&format!("go ignored: a {} is already running", self.jobs.job().noun()));
            return;
        }
        if args.first() == Some(&"perft") {
            match args.get(1).map(|d| d.parse::<u32>()) {
                Some(Ok(depth)) if depth <= 20 => self.perft(depth),
                _ => self.info("go perft takes a depth from 0 to 20"),
            }
            return;
        }
        let board = self.position.board;
        let mut limits = match parse_go(args, &board) {
            Ok(l) => l,
            Err(e) => {
                let mut limits = parse_go_lenient(args, &board);
                if limits.infinite || ends_by_itself(&limits, &board) {
                    self.info(&format!("go: {e}; searching with the other limits"));
                } else {
                    // Searching without any limit would need a `stop` that a GUI which sent
                    // a limit never sends: answer at once with a legal move instead.
                    self.info(&format!("go: {e}; no other limit ends the search, so searching to depth 1 only"));
                    limits.depth = Some(1);
                }
                limits
            }
        };
        if !self.position.set {
            self.info("go before position: searching the start position");
        }
        if let Some(mv) = self.book_move(&limits) {
            self.info(&format!("book move {}", board.uci(mv)));
            self.out.line(&format!("bestmove {}", board.uci(mv)));
            return;
        }
        if limits.ponder && !self.settings.ponder {
            log::debug!("go ponder without the Ponder option set");
        }
        let weakened = self.strength.level().map(|level| {
            limits.nodes = Some(limits.nodes.map_or(level.nodes(), |n| n.min(level.nodes())));
            (level, Arc::clone(&self.strength.rng))
        });
        let ponder = limits.ponder;
        let search = SearchJob {
            engine: Arc::clone(&self.engine),
            out: self.out.clone(),
            board,
            history: self.position.history.clone(),
            limits,
            verbosity: Verbosity { debug: self.settings.debug, show_wdl: self.settings.show_wdl },
            weakened,
        };
        if !self.start(Job::Search, ponder, move |control, busy| search.run(control, busy)) {
            self.out.line("bestmove 0000");
        }
    }

    /// A move from the book for `go` with `limits`: only with `OwnBook` on and a book loaded,
    /// and never for `go infinite`, `go ponder` or `searchmoves` (which ask for a search).
    fn book_move(&mut self, limits: &Limits) -> Option<Move> {
        if !self.book.on || limits.infinite || limits.ponder || !limits.searchmoves.is_empty() {
            return None;
        }
        let book = self.book.book.as_ref()?;
        book.choose(&self.position.board, &mut self.book.rng)
    }

    /// `go perft N` on the background thread.
    fn perft(&mut self, depth: u32) {
        let out = self.out.clone();
        let board = self.position.board;
        self.start(Job::Perft, false, move |control, busy| jobs::perft(&board, depth, control, &out, busy));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_go_that_cannot_be_read_never_searches_forever() {
        let board = Board::default();
        let bounded = |args: &[&str]| {
            let limits = parse_go_lenient(args, &board);
            limits.infinite || ends_by_itself(&limits, &board)
        };
        for args in [
            &["depth", "abc"][..],
            &["depth", "1.5"],
            &["nodes", "x"],
            &["infinte"],
            &["btime", "1000", "wtime", "abc"],
        ] {
            assert!(parse_go(args, &board).is_err(), "{args:?}");
            assert!(!bounded(args), "{args:?}");
        }
        for args in [
            &["depth", "abc", "movetime", "100"][..],
            &["foo", "depth", "2"],
            &["wtime", "100", "nodes", "x"],
            &["infinite", "depth", "x"],
        ] {
            assert!(parse_go(args, &board).is_err(), "{args:?}");
            assert!(bounded(args), "{args:?}");
        }
    }

    #[test]
    fn go_numbers_are_brought_into_range_and_the_limits_are_named() {
        let board = Board::default();
        let go = |args: &[&str]| parse_go(args, &board).unwrap();
        assert_eq!(go(&["depth", "99999999999999999999"]).depth, Some(124));
        assert_eq!(go(&["depth", "125"]).depth, Some(124));
        assert_eq!(go(&["depth", "124"]).depth, Some(124));
        assert_eq!(go(&["depth", "0"]).depth, Some(1));
        assert_eq!(go(&["depth", "-3"]).depth, Some(1));
        assert_eq!(go(&["mate", "1000"]).mate, Some(64));
        assert_eq!(go(&["nodes", "18446744073709551616"]).nodes, Some(MAX_GO_NODES));
        assert_eq!(go(&["nodes", "0"]).nodes, Some(1));
        assert_eq!(go(&["wtime", "-100"]).wtime, Some(Duration::ZERO));
        assert_eq!(go(&["movetime", "99999999999"]).movetime, Some(Duration::from_millis(MAX_GO_MS)));
        assert_eq!(go(&["movestogo", "40"]).movestogo, Some(40));
        let message = |args: &[&str]| parse_go(args, &board).unwrap_err().to_string();
        assert_eq!(
            message(&["depth", "abc"]),
            "'depth' needs a whole number of plies, 1 to 124 (larger ones count as 124)"
        );
        assert_eq!(message(&["mate"]), "'mate' needs a whole number of moves, 1 to 64 (larger ones count as 64)");
        assert_eq!(
            message(&["nodes", "1e6"]),
            "'nodes' needs a whole number of nodes, 1 to 1000000000000000 (larger ones count as 1000000000000000)"
        );
        assert_eq!(
            message(&["movetime", "1.5"]),
            "'movetime' needs a whole number of milliseconds, 0 to 10000000000 (larger ones count as 10000000000)"
        );
        assert_eq!(
            message(&["movestogo", "x"]),
            "'movestogo' needs a whole number of moves, 0 to 1000 (larger ones count as 1000)"
        );
    }
}
