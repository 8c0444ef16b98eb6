//! `UCI_LimitStrength` / `UCI_Elo`: weakened play that still looks like chess.
//!
//! A level is a search with a node budget, and at the lower levels a seeded choice among
//! several lines. The levels are set by a calibration table, [`ANCHORS`]: each anchor is a
//! level measured in games (its `UCI_Elo`, its node budget, how many lines it looks at and the
//! temperature of its choice), and a level between two anchors takes their geometric mean
//! budget and their linear mean temperature at its place between them.
//!
//! * **The node budget**: fewer nodes, shallower tactics. Nodes rather than time keep a level
//!   the same on every machine and at every time control a player picks.
//! * **Several lines** (MultiPV) at the lower levels, and the move drawn among them with
//!   weights `exp(-(best - score) / T)`: weak levels often pick a second-best move, strong ones
//!   almost never do. The upper levels search one line and play its move: looking at four
//!   lines costs a strong search more than it gives a level.
//! * **Never a blunder beyond the level's margin**: a line scoring more than
//!   `MARGIN_PER_TEMPERATURE * T + MARGIN_BASE` below the best is never chosen (a hung queen
//!   is never played), and a mate found for the side to move is always played.
//! * **Seeded**: the draws come from a generator seeded once per process, so a run is
//!   reproducible and successive games still differ.
//! * **The top, [`MAX_ELO`], is the full search**: no budget, no extra lines, no draw.
//!
//! The Elo scale is Stockfish 15.1's `UCI_Elo`, measured in games against it at 5+0.05 on one
//! core. `docs/strength.md` records the table's matches, the build and the date they were
//! played on, and `cargo xtask uci-elo` plays them again: it prints each level's measured Elo
//! and, for an anchor that is off, the budget that would bring it to its label. A new network
//! or search moves every level; replaying the table and moving the anchors' budgets is the
//! whole recalibration.

use std::sync::{Arc, Mutex};

use cutoff_board::Move;
use cutoff_tt::MATE_IN_MAX_PLY;

/// The lowest `UCI_Elo`.
pub const MIN_ELO: i64 = 1320;
/// The highest `UCI_Elo`: Cutoff's full strength on the calibration scale, the plain search.
pub const MAX_ELO: i64 = 2850;
/// The default `UCI_Elo`.
pub const DEFAULT_ELO: i64 = 1500;

/// The blunder margin is `MARGIN_PER_TEMPERATURE * T + MARGIN_BASE` centipawns.
const MARGIN_PER_TEMPERATURE: f64 = 2.5;
/// See [`MARGIN_PER_TEMPERATURE`].
const MARGIN_BASE: f64 = 40.0;

/// One measured level of the calibration table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Anchor {
    /// Its `UCI_Elo`.
    pub elo: i64,
    /// The node budget of one move. At [`MAX_ELO`] there is none: the figure there is about
    /// what the full search spends on a move at 5+0.05 on one thread, which the levels just
    /// below approach.
    pub nodes: u64,
    /// How many lines it searches and draws its move among (1: it plays the best line's move).
    pub lines: usize,
    /// The temperature of the draw, in centipawns (unused with one line).
    pub temperature: f64,
}

/// The calibration table, by rising Elo: the first anchor is [`MIN_ELO`], the last
/// [`MAX_ELO`]. `docs/strength.md` has the matches that set it.
pub const ANCHORS: &[Anchor] = &[
    Anchor { elo: MIN_ELO, nodes: 500, lines: 4, temperature: 85.0 },
    Anchor { elo: 1400, nodes: 700, lines: 4, temperature: 58.0 },
    Anchor { elo: 1600, nodes: 1_900, lines: 4, temperature: 23.5 },
    Anchor { elo: 1800, nodes: 4_500, lines: 4, temperature: 10.6 },
    Anchor { elo: 1925, nodes: 20_000, lines: 4, temperature: 5.8 },
    Anchor { elo: 2100, nodes: 48_000, lines: 4, temperature: 0.1 },
    Anchor { elo: 2200, nodes: 24_300, lines: 1, temperature: 0.0 },
    Anchor { elo: 2400, nodes: 72_600, lines: 1, temperature: 0.0 },
    Anchor { elo: 2600, nodes: 126_000, lines: 1, temperature: 0.0 },
    Anchor { elo: MAX_ELO, nodes: 250_000, lines: 1, temperature: 0.0 },
];

/// A playing level: what a search at one `UCI_Elo` looks like.
///
/// ```
/// use cutoff_uci::strength::{Level, MAX_ELO};
///
/// let level = Level::new(1800);
/// assert_eq!(level.elo(), 1800);
/// assert!(level.nodes() < Level::new(2400).nodes());
/// assert!(Level::new(MAX_ELO).is_full_strength());
/// assert_eq!(Level::new(5000), Level::new(MAX_ELO)); // clamped to the range
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Level {
    elo: i64,
    nodes: u64,
    lines: usize,
    temperature: f64,
}

impl Level {
    /// The level for `elo`, clamped to [`MIN_ELO`]..=[`MAX_ELO`], from the anchors around it.
    pub fn new(elo: i64) -> Level {
        let elo = elo.clamp(MIN_ELO, MAX_ELO);
        let upper = ANCHORS.iter().position(|a| a.elo > elo).unwrap_or(ANCHORS.len() - 1).max(1);
        let (a, b) = (ANCHORS[upper - 1], ANCHORS[upper]);
        if elo >= b.elo {
            return Level { elo, nodes: b.nodes, lines: b.lines, temperature: b.temperature };
        }
        let f = (elo - a.elo) as f64 / (b.elo - a.elo) as f64;
        let nodes = if a.lines == b.lines {
            a.nodes as f64 * (b.nodes as f64 / a.nodes as f64).powf(f)
        } else {
            // The anchor above searches fewer lines: a level short of it keeps the lower
            // anchor's search, and gains Elo per doubling at the rate of the segment below.
            let below = ANCHORS[upper.saturating_sub(2)];
            let slope = (a.elo - below.elo) as f64 / (a.nodes as f64 / below.nodes as f64).log2();
            a.nodes as f64 * 2f64.powf((elo - a.elo) as f64 / slope)
        };
        Level {
            elo,
            nodes: nodes.round() as u64,
            lines: a.lines,
            temperature: a.temperature + (b.temperature - a.temperature) * f,
        }
    }

    /// Its `UCI_Elo`.
    pub fn elo(self) -> i64 {
        self.elo
    }

    /// Whether this is the top level, [`MAX_ELO`]: the full search, with no budget, no extra
    /// lines and no draw.
    pub fn is_full_strength(self) -> bool {
        self.elo >= MAX_ELO
    }

    /// The node budget of one move (at full strength, the anchor's nominal figure).
    pub fn nodes(self) -> u64 {
        self.nodes
    }

    /// How many lines it searches and draws its move among.
    pub fn lines(self) -> usize {
        self.lines
    }

    /// The temperature of the move choice, in centipawns.
    pub fn temperature(self) -> f64 {
        self.temperature
    }

    /// The largest score loss a chosen move may have against the best, in centipawns.
    pub fn margin(self) -> i32 {
        (MARGIN_PER_TEMPERATURE * self.temperature + MARGIN_BASE).round() as i32
    }

    /// Picks a move among `lines` (first move and score of each searched line, any order).
    pub(crate) fn choose(self, lines: &[(Move, i32)], rng: &mut Rng) -> Option<Move> {
        let best = lines.iter().map(|&(_, s)| s).max()?;
        if best >= MATE_IN_MAX_PLY || self.lines <= 1 || self.temperature <= 0.0 {
            return lines.iter().find(|&&(_, s)| s == best).map(|&(m, _)| m);
        }
        let t = self.temperature;
        let candidates: Vec<(Move, f64)> = lines
            .iter()
            .filter(|&&(_, s)| best - s <= self.margin())
            .map(|&(m, s)| (m, (-(f64::from(best - s)) / t).exp()))
            .collect();
        let total: f64 = candidates.iter().map(|&(_, w)| w).sum();
        let mut x = rng.unit() * total;
        for &(m, w) in &candidates {
            if x < w {
                return Some(m);
            }
            x -= w;
        }
        candidates.last().map(|&(m, _)| m)
    }
}

/// The root lines a limited search reported: those of the deepest iteration that reported
/// all of them, and those of the iteration in progress.
#[derive(Debug, Default)]
pub(crate) struct RootLines {
    complete: Vec<(Move, i32)>,
    current: Vec<(Move, i32)>,
    depth: u32,
}

impl RootLines {
    /// Records one exact line (first move, score) of iteration `depth`; `wanted` is how many
    /// lines make an iteration complete.
    pub(crate) fn record(&mut self, depth: u32, mv: Move, score: i32, wanted: usize) {
        if depth != self.depth {
            self.current.clear();
            self.depth = depth;
        }
        self.current.retain(|&(m, _)| m != mv);
        self.current.push((mv, score));
        if self.current.len() >= wanted {
            self.complete.clone_from(&self.current);
        }
    }

    /// The lines to choose from: the deepest complete iteration's, else what there is.
    pub(crate) fn pool(&self) -> &[(Move, i32)] {
        if self.complete.is_empty() { &self.current } else { &self.complete }
    }
}

/// The seed of the limited-strength move choice.
const STRENGTH_SEED: u64 = 0x5EED_1320;

/// `UCI_LimitStrength` and `UCI_Elo`, and the generator of the move choice they make.
pub(crate) struct Strength {
    /// `UCI_LimitStrength`.
    pub(crate) limit: bool,
    /// `UCI_Elo` (used when `limit` is on).
    pub(crate) elo: i64,
    /// Seeded once per process: a run is reproducible, and successive games still vary.
    pub(crate) rng: Arc<Mutex<Rng>>,
}

impl Strength {
    /// Full strength, at the default Elo.
    pub(crate) fn new() -> Strength {
        Strength { limit: false, elo: DEFAULT_ELO, rng: Arc::new(Mutex::new(Rng::new(STRENGTH_SEED))) }
    }

    /// The level to play at, or `None` for full strength.
    pub(crate) fn level(&self) -> Option<Level> {
        let level = Level::new(self.elo);
        (self.limit && !level.is_full_strength()).then_some(level)
    }
}

/// SplitMix64: the seeded generator of the move choice.
#[derive(Clone, Debug)]
pub(crate) struct Rng(cutoff_board::SplitMix64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(cutoff_board::SplitMix64::new(seed))
    }

    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in `[0, 1)`.
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cutoff_board::Board;

    fn moves() -> Vec<Move> {
        Board::default().legal_moves().iter().copied().take(4).collect()
    }

    #[test]
    fn the_table_covers_the_range_in_order() {
        assert_eq!(ANCHORS.first().map(|a| a.elo), Some(MIN_ELO));
        assert_eq!(ANCHORS.last().map(|a| a.elo), Some(MAX_ELO));
        for pair in ANCHORS.windows(2) {
            assert!(pair[0].elo < pair[1].elo, "{pair:?}");
            // More Elo is more nodes, or as many nodes and fewer lines to spend them on.
            assert!(pair[0].lines > pair[1].lines || pair[0].nodes < pair[1].nodes, "{pair:?}");
        }
        for a in ANCHORS {
            assert!(a.nodes > 0 && (1..=4).contains(&a.lines) && a.temperature >= 0.0, "{a:?}");
            assert!(a.lines == 1 || a.temperature > 0.0, "{a:?}");
        }
    }

    #[test]
    fn levels_interpolate_between_anchors_and_clamp() {
        for a in ANCHORS {
            let level = Level::new(a.elo);
            assert_eq!((level.nodes(), level.lines(), level.temperature()), (a.nodes, a.lines, a.temperature));
        }
        for pair in ANCHORS.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let mid = Level::new((a.elo + b.elo) / 2);
            if a.lines == b.lines {
                assert!((a.nodes..=b.nodes).contains(&mid.nodes()), "{mid:?} between {a:?} and {b:?}");
            }
            assert_eq!(mid.lines(), a.lines);
            // Within a segment the search only grows; the first level of the next one may
            // search fewer nodes on fewer lines.
            for elo in a.elo..b.elo - 1 {
                let (x, y) = (Level::new(elo), Level::new(elo + 1));
                assert!(x.nodes() <= y.nodes() && x.temperature() >= y.temperature(), "{x:?} {y:?}");
            }
        }
        assert_eq!(Level::new(100), Level::new(MIN_ELO));
        assert_eq!(Level::new(9000), Level::new(MAX_ELO));
        assert!(Level::new(MAX_ELO).is_full_strength() && !Level::new(MAX_ELO - 1).is_full_strength());
        // The margins: hardly a hung rook at the lowest level, never a hung queen from 1600 up.
        assert!(Level::new(MIN_ELO).margin() < 500);
        assert!((1600..MAX_ELO).all(|elo| Level::new(elo).margin() < 300));
    }

    #[test]
    fn choice_respects_margin_mates_and_seed() {
        let m = moves();
        let lines = [(m[0], 50), (m[1], 40), (m[2], -200), (m[3], -900)];
        let mut rng = Rng::new(1);
        let mut counts = [0; 4];
        for _ in 0..2000 {
            let chosen = Level::new(MIN_ELO).choose(&lines, &mut rng).unwrap();
            counts[m.iter().position(|&x| x == chosen).unwrap()] += 1;
        }
        assert_eq!(counts[3], 0, "a queen's loss is beyond every margin");
        assert!(counts[0] > counts[1] && counts[1] > counts[2] && counts[2] > 0, "{counts:?}");
        // The strongest level almost always plays the best line.
        let mut best = 0;
        for _ in 0..1000 {
            best += usize::from(Level::new(MAX_ELO).choose(&lines, &mut rng) == Some(m[0]));
        }
        assert!(best > 900, "{best}");
        // A mate is always played.
        let mates = [(m[0], 100), (m[1], cutoff_tt::MATE - 3)];
        assert_eq!(Level::new(MIN_ELO).choose(&mates, &mut rng), Some(m[1]));
        // Same seed, same choices.
        let run = |seed| {
            let mut r = Rng::new(seed);
            (0..50).map(|_| Level::new(1600).choose(&lines, &mut r)).collect::<Vec<_>>()
        };
        assert_eq!(run(7), run(7));
        assert_eq!(Level::new(1600).choose(&[], &mut rng), None);
    }
}
