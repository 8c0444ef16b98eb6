//! `UCI_LimitStrength` / `UCI_Elo`: weakened play that still looks like chess.
//!
//! A limited search plays like this:
//!
//! * **A node budget** that doubles every [`ELO_PER_DOUBLING`] Elo from [`MIN_NODES`] at
//!   [`MIN_ELO`] up to [`KNEE_ELO`], then every [`ELO_PER_DOUBLING_ABOVE`] Elo (a doubling is
//!   worth less and less as the search gets deeper): fewer nodes, shallower tactics.
//! * **Four lines** (MultiPV 4) are searched, and the move is drawn among them with weights
//!   `exp(-(best - score) / T)`: the temperature `T` falls from [`MAX_TEMPERATURE`] at the
//!   lowest level towards [`MIN_TEMPERATURE`], halving its distance to it every
//!   [`TEMPERATURE_HALF_LIFE`] Elo, so weak levels often pick a second-best move and strong
//!   ones almost never do.
//! * **Never a blunder beyond the level's margin**: a line scoring more than
//!   `MARGIN_PER_TEMPERATURE * T + MARGIN_BASE` below the best is never chosen (about 250 cp
//!   at the lowest level, 100 cp at 1600, 55 cp at 2000: a hung queen is never played), and a
//!   mate found for the side to move is always played.
//! * **Seeded**: the draws come from a generator seeded once per process, so a run is
//!   reproducible and successive games still differ.
//!
//! The Elo scale is Stockfish 15.1's `UCI_Elo`, measured in games against it at 5+0.05 on one
//! core; `docs/strength.md` records the calibration matches and how far the levels are from
//! it. The range ends at 2200 because that is where Cutoff's full strength lies on this scale
//! at that time control (a level above would promise strength the engine does not have).

use std::sync::{Arc, Mutex};

use cutoff_board::Move;
use cutoff_tt::MATE_IN_MAX_PLY;

/// The lowest `UCI_Elo`.
pub(crate) const MIN_ELO: i64 = 1320;
/// The highest `UCI_Elo`: about Cutoff's full strength on the calibration scale.
pub(crate) const MAX_ELO: i64 = 2200;
/// The default `UCI_Elo`.
pub(crate) const DEFAULT_ELO: i64 = 1500;

/// The node budget at [`MIN_ELO`].
const MIN_NODES: f64 = 1400.0;
/// The budget doubles every this many Elo.
const ELO_PER_DOUBLING: f64 = 137.0;
/// Where the budget starts doubling faster.
const KNEE_ELO: i64 = 1800;
/// The budget doubles every this many Elo above [`KNEE_ELO`].
const ELO_PER_DOUBLING_ABOVE: f64 = 77.0;
/// The temperature (centipawns) at [`MIN_ELO`].
const MAX_TEMPERATURE: f64 = 85.0;
/// The temperature the levels approach at the top.
const MIN_TEMPERATURE: f64 = 3.0;
/// The temperature's distance to [`MIN_TEMPERATURE`] halves every this many Elo.
const TEMPERATURE_HALF_LIFE: f64 = 140.0;
/// The blunder margin is `MARGIN_PER_TEMPERATURE * T + MARGIN_BASE` centipawns.
const MARGIN_PER_TEMPERATURE: f64 = 2.5;
/// See [`MARGIN_PER_TEMPERATURE`].
const MARGIN_BASE: f64 = 40.0;
/// How many lines a limited search looks at.
pub(crate) const LINES: usize = 4;

/// A playing level.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Level {
    elo: i64,
}

impl Level {
    /// The level for `elo`, clamped to [`MIN_ELO`]..=[`MAX_ELO`].
    pub(crate) fn new(elo: i64) -> Level {
        Level { elo: elo.clamp(MIN_ELO, MAX_ELO) }
    }

    /// Whether this is the top level, [`MAX_ELO`]: full strength, with no budget, no extra
    /// lines and no random choice (four lines and a near-certain best choice at full time
    /// measured some 250 Elo weaker than the plain search, see `docs/strength.md`).
    pub(crate) fn is_full_strength(self) -> bool {
        self.elo >= MAX_ELO
    }

    /// The node budget of one move.
    pub(crate) fn nodes(self) -> u64 {
        let below = (self.elo.min(KNEE_ELO) - MIN_ELO) as f64 / ELO_PER_DOUBLING;
        let above = (self.elo - KNEE_ELO).max(0) as f64 / ELO_PER_DOUBLING_ABOVE;
        (MIN_NODES * 2f64.powf(below + above)).round() as u64
    }

    /// The temperature of the move choice, in centipawns.
    fn temperature(self) -> f64 {
        let above = (self.elo - MIN_ELO) as f64;
        MIN_TEMPERATURE + (MAX_TEMPERATURE - MIN_TEMPERATURE) * 0.5f64.powf(above / TEMPERATURE_HALF_LIFE)
    }

    /// The largest score loss a chosen move may have against the best, in centipawns.
    pub(crate) fn margin(self) -> i32 {
        (MARGIN_PER_TEMPERATURE * self.temperature() + MARGIN_BASE).round() as i32
    }

    /// Picks a move among `lines` (first move and score of each searched line, any order).
    pub(crate) fn choose(self, lines: &[(Move, i32)], rng: &mut Rng) -> Option<Move> {
        let best = lines.iter().map(|&(_, s)| s).max()?;
        if best >= MATE_IN_MAX_PLY {
            return lines.iter().find(|&&(_, s)| s == best).map(|&(m, _)| m);
        }
        let t = self.temperature();
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
    fn budgets_and_margins_grow_and_shrink_with_the_level() {
        let (low, mid, high) = (Level::new(MIN_ELO), Level::new(2000), Level::new(MAX_ELO));
        assert_eq!(low.nodes(), 1400);
        assert!(low.nodes() < mid.nodes() && mid.nodes() < high.nodes());
        assert!(low.margin() > mid.margin() && mid.margin() > high.margin());
        // No hung queen from 2400 up, hardly a hung rook at the lowest level.
        assert!(Level::new(2400).margin() < 300, "{}", Level::new(2400).margin());
        assert!(low.margin() < 500);
        assert_eq!(Level::new(100), low);
        assert_eq!(Level::new(9000), high);
        assert!(high.is_full_strength() && !Level::new(MAX_ELO - 1).is_full_strength());
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
