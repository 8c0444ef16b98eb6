//! Search limits and time management.

use std::time::Duration;

use cutoff_board::{Color, Move};

/// What the GUI asked for with `go`. Every field is optional; with none set the search
/// runs until stopped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Search to this depth at most.
    pub depth: Option<u32>,
    /// Stop after about this many nodes (a hard limit, checked inside the search).
    pub nodes: Option<u64>,
    /// A soft node limit: start no new iteration once the search has visited at least this
    /// many nodes (all threads together). Checked only between iterations, so the search
    /// usually goes beyond it to finish the iteration it is in; combine it with
    /// [`nodes`](Limits::nodes) for a hard cap. Not a UCI `go` parameter: self-play data
    /// generation uses it, so that each move ends on a completed iteration.
    pub soft_nodes: Option<u64>,
    /// Search this long: a fixed time per move. The search answers a little before it (see
    /// [`TimeBudget::new`]) and never stops early at the end of an iteration.
    pub movetime: Option<Duration>,
    /// Stop once a mate in this many moves (or fewer) is found.
    pub mate: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Time left on White's clock.
    pub wtime: Option<Duration>,
    /// Time left on Black's clock.
    pub btime: Option<Duration>,
    /// White's increment per move.
    pub winc: Option<Duration>,
    /// Black's increment per move.
    pub binc: Option<Duration>,
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Search only these root moves.
    pub searchmoves: Vec<Move>,
    /// Ponder: search the expected position until `ponderhit` or `stop`.
    pub ponder: bool,
}

impl Limits {
    /// A depth-limited search.
    pub fn depth(depth: u32) -> Limits {
        Limits { depth: Some(depth), ..Limits::default() }
    }

    /// A node-limited search.
    pub fn nodes(nodes: u64) -> Limits {
        Limits { nodes: Some(nodes), ..Limits::default() }
    }

    /// Whether a clock (time left) was given for `color`.
    pub fn has_clock(&self, color: Color) -> bool {
        match color {
            Color::White => self.wtime.is_some(),
            Color::Black => self.btime.is_some(),
        }
    }
}

/// For a fixed `movetime`: `soft` is this many times `hard`, so that no stability factor of
/// the search brings it below `hard`.
const MOVETIME_SOFT_FACTOR: u32 = 64;

/// The largest soft limit set for a fixed `movetime` (a million hours): the search may
/// multiply it by a small factor without overflowing a `Duration`.
const MAX_SOFT: Duration = Duration::from_secs(3_600_000_000);

/// Soft and hard time limits for one search.
///
/// The soft limit is checked between iterations (no new iteration starts after it, scaled
/// by the search's stability factor and capped at the hard limit); the hard limit is
/// checked inside the search and is never more than the time left minus the move overhead,
/// nor more than a fixed `movetime`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// Don't start another iteration after this (scaled by the search, capped at `hard`).
    /// For a fixed `movetime` it is far beyond `hard`, so that only `hard` ends the search.
    pub soft: Duration,
    /// Stop searching at this point.
    pub hard: Duration,
}

impl TimeBudget {
    /// The budget for `limits` with `color` to move at move `fullmove` of the game, or `None`
    /// when time does not limit the search. `overhead` is the "Move Overhead" option: time
    /// lost per move to the GUI and the operating system.
    ///
    /// **`movetime`** is a fixed time per move that the user chose, not a clock to protect:
    /// the search stops at `movetime - min(overhead, movetime / 20)`, so the reserve is the
    /// move overhead but never more than 5% of the move time (`go movetime 100` stops at
    /// 95 ms, `go movetime 1000` at 970 ms with the default 30 ms overhead, `go movetime 10`
    /// at 9.5 ms), and the search does not stop early at the end of an iteration. The hard
    /// limit is never more than `movetime` (and at least 1 ms, so `go movetime 0` still
    /// finds a move).
    ///
    /// **A clock:** the soft limit plans on the time left shared among 30 moves (or
    /// `movestogo`) plus three quarters of the increment. The hard limit, which the search's
    /// stability factors may stretch the soft one up to, is a share of the time left that
    /// grows with the move number ([`max_share`]) plus the same part of the increment, at most
    /// half the time left: an unsettled position in the middlegame may take up to a third of
    /// the clock, one in the opening (where the game is still long) about a seventh. With
    /// `movestogo` it is four times the soft limit, at most a fifth of the time left (nine
    /// tenths with one move to go).
    ///
    /// ```
    /// use std::time::Duration;
    /// use cutoff_board::Color;
    /// use cutoff_search::{Limits, TimeBudget};
    /// let limits = Limits { wtime: Some(Duration::from_secs(10)), ..Limits::default() };
    /// let early = TimeBudget::new(&limits, Color::White, Duration::ZERO, 1).unwrap();
    /// let later = TimeBudget::new(&limits, Color::White, Duration::ZERO, 40).unwrap();
    /// assert_eq!(early.soft, later.soft);
    /// assert!(early.hard < later.hard && later.hard < Duration::from_secs(4));
    /// ```
    pub fn new(limits: &Limits, color: Color, overhead: Duration, fullmove: u16) -> Option<TimeBudget> {
        if limits.infinite {
            return None;
        }
        if let Some(movetime) = limits.movetime {
            let hard = movetime.saturating_sub(overhead.min(movetime / 20)).max(Duration::from_millis(1));
            // The search scales `soft` by a factor between about 0.5 and 6 and caps it at
            // `hard`; this keeps the cap in force (without overflowing for huge move times).
            let soft = hard.saturating_mul(MOVETIME_SOFT_FACTOR).min(MAX_SOFT);
            return Some(TimeBudget { soft: soft.max(hard), hard });
        }
        let (time, inc) = match color {
            Color::White => (limits.wtime?, limits.winc.unwrap_or_default()),
            Color::Black => (limits.btime?, limits.binc.unwrap_or_default()),
        };
        // Never plan on more than the clock minus the overhead (and a small reserve).
        let usable = time.saturating_sub(overhead).max(Duration::from_millis(1));
        let moves_left = limits.movestogo.map_or(30, |m| m.clamp(1, 60));
        let soft = usable / moves_left + inc * 3 / 4;
        let hard = match limits.movestogo {
            // With a few moves to go the last one may use most of the time; otherwise a fifth.
            Some(_) => (soft * 4).min(if moves_left == 1 { usable * 9 / 10 } else { usable / 5 }),
            // Never more than half the time left: with a clock of a few increments the
            // increment's part would otherwise let every move spend the clock down to the
            // move overhead.
            None => (usable.mul_f64(max_share(fullmove)) + inc * 3 / 4).min(usable / 2),
        };
        let hard = hard.max(Duration::from_millis(1));
        let soft = soft.min(hard);
        Some(TimeBudget { soft, hard })
    }
}

/// The largest share of the time left that one move may take at move `fullmove` of a game
/// without `movestogo` (the hard limit, before the increment): 14 % at the first move, where
/// the game is still long and the position still near the openings', rising toward a third
/// as the middlegame's decisions come (20.6 % at move 10, 27.9 % at move 30, 32.8 % from
/// move 80).
///
/// ```
/// use cutoff_search::max_share;
/// assert!(max_share(1) < max_share(20));
/// assert!(max_share(u16::MAX) < 0.35);
/// ```
pub fn max_share(fullmove: u16) -> f64 {
    0.14 + 0.20 * (1.0 - (-f64::from(fullmove) / 25.0).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn budget_never_exceeds_time_left() {
        for time in [1, 5, 10, 30, 100, 1000, 10_000, 600_000] {
            for inc in [0, 10, 100, 1000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    for overhead in [0, 10, 50] {
                        let limits =
                            Limits { wtime: Some(ms(time)), winc: Some(ms(inc)), movestogo: mtg, ..Limits::default() };
                        for fullmove in [1, 10, 40, 200, u16::MAX] {
                            let b = TimeBudget::new(&limits, Color::White, ms(overhead), fullmove).unwrap();
                            assert!(b.soft <= b.hard);
                            let allowed = ms(time).saturating_sub(ms(overhead)).max(ms(1));
                            assert!(b.hard <= allowed, "time {time} inc {inc} mtg {mtg:?} move {fullmove}: {b:?}");
                        }
                    }
                }
            }
        }
    }

    /// Without `movestogo` the hard limit grows with the move number, from about a seventh of
    /// the time left toward a third, and never passes half of it.
    #[test]
    fn the_hard_limit_follows_the_move_number() {
        let limits = Limits { wtime: Some(ms(60_000)), winc: Some(ms(600)), ..Limits::default() };
        let hard = |fullmove| TimeBudget::new(&limits, Color::White, ms(0), fullmove).unwrap().hard;
        assert!(hard(1) < hard(10) && hard(10) < hard(30) && hard(30) < hard(80));
        assert_eq!(hard(1), ms(60_000).mul_f64(max_share(1)) + ms(450));
        assert!(hard(1) > ms(8_000) && hard(u16::MAX) < ms(21_000), "{:?} {:?}", hard(1), hard(u16::MAX));
        // A clock of a few increments: half of what is left, not the increment's part on top.
        let short = Limits { wtime: Some(ms(100)), winc: Some(ms(50)), ..Limits::default() };
        let b = TimeBudget::new(&short, Color::White, ms(30), 40).unwrap();
        assert_eq!(b.hard, ms(35));
        // The soft limit does not depend on the move number.
        let soft = |fullmove| TimeBudget::new(&limits, Color::White, ms(0), fullmove).unwrap().soft;
        assert_eq!(soft(1), soft(60));
    }

    #[test]
    fn movetime_and_infinite() {
        let l = Limits { movetime: Some(ms(500)), ..Limits::default() };
        let b = TimeBudget::new(&l, Color::Black, ms(20), 1).unwrap();
        assert_eq!(b.hard, ms(480));
        // The search's stability factor (at least about 0.5) never ends it before `hard`.
        assert!(b.soft.mul_f64(0.1) >= b.hard, "{b:?}");
        let l = Limits { infinite: true, wtime: Some(ms(1000)), ..Limits::default() };
        assert_eq!(TimeBudget::new(&l, Color::White, ms(20), 1), None);
        assert_eq!(TimeBudget::new(&Limits::depth(5), Color::White, ms(20), 1), None);
        // Black's clock is used for Black.
        let l = Limits { wtime: Some(ms(100_000)), btime: Some(ms(1000)), ..Limits::default() };
        assert!(TimeBudget::new(&l, Color::Black, ms(0), 1).unwrap().hard <= ms(200));
    }

    /// `go movetime T` answers close to `T`: never after it, and no earlier than the
    /// move overhead or 5% of `T`, whichever is less.
    #[test]
    fn movetime_is_used_almost_fully_and_never_exceeded() {
        assert_eq!(
            TimeBudget::new(&Limits { movetime: Some(ms(100)), ..Limits::default() }, Color::White, ms(30), 1)
                .unwrap()
                .hard,
            ms(95)
        );
        assert_eq!(
            TimeBudget::new(&Limits { movetime: Some(ms(1000)), ..Limits::default() }, Color::White, ms(30), 1)
                .unwrap()
                .hard,
            ms(970)
        );
        for movetime in [0, 1, 2, 10, 50, 100, 599, 1000, 10_000, 3_600_000, u64::MAX] {
            for overhead in [0, 10, 30, 50, 1000, 5000] {
                let limits = Limits { movetime: Some(ms(movetime)), ..Limits::default() };
                let b = TimeBudget::new(&limits, Color::White, ms(overhead), 1).unwrap();
                let t = ms(movetime);
                assert!(b.hard <= t.max(ms(1)), "movetime {movetime} overhead {overhead}: {b:?}");
                assert!(b.hard >= ms(1), "movetime {movetime} overhead {overhead}: {b:?}");
                assert!(b.hard >= t - t / 20, "movetime {movetime} overhead {overhead}: {b:?}");
                assert!(b.hard >= t.saturating_sub(ms(overhead)), "movetime {movetime} overhead {overhead}: {b:?}");
                assert!(b.soft >= b.hard, "movetime {movetime} overhead {overhead}: {b:?}");
                // The search scales `soft` by up to about 6 without overflowing.
                let _ = b.soft.mul_f64(8.0);
            }
        }
    }
}
