//! Killer moves: quiet moves that caused a beta cutoff at the same ply.

use cutoff_board::Move;

/// The most killer slots a ply can have ([`OrderingConfig::killers`](crate::OrderingConfig)
/// selects how many are used; the search uses 2).
pub const MAX_KILLERS: usize = 3;

/// The number of plies the killer table covers; deeper plies share the last row.
pub const KILLER_PLIES: usize = 256;

/// Killer moves per ply.
///
/// Layout: `slots[ply][0..MAX_KILLERS]`, newest first; a move never appears twice in a row.
///
/// ```
/// use cutoff_board::Board;
/// use cutoff_ordering::Killers;
/// let b = Board::default();
/// let (nf3, e4) = (b.parse_uci("g1f3").unwrap(), b.parse_uci("e2e4").unwrap());
/// let mut killers = Killers::new();
/// killers.update(3, nf3, 2);
/// killers.update(3, e4, 2);
/// killers.update(3, e4, 2); // already first: no duplicate
/// assert_eq!(killers.get(3), [Some(e4), Some(nf3), None]);
/// ```
#[derive(Clone, Debug)]
pub struct Killers {
    slots: [[Option<Move>; MAX_KILLERS]; KILLER_PLIES],
}

impl Default for Killers {
    fn default() -> Killers {
        Killers::new()
    }
}

impl Killers {
    /// An empty table.
    pub fn new() -> Killers {
        Killers { slots: [[None; MAX_KILLERS]; KILLER_PLIES] }
    }

    /// The killers of `ply`, newest first.
    #[inline]
    pub fn get(&self, ply: usize) -> [Option<Move>; MAX_KILLERS] {
        self.slots[ply.min(KILLER_PLIES - 1)]
    }

    /// Records `mv` as the newest killer of `ply`, keeping `slots` (1 to [`MAX_KILLERS`]) slots.
    /// If `mv` is already a killer it moves to the front; the others shift down.
    #[inline]
    pub fn update(&mut self, ply: usize, mv: Move, slots: usize) {
        let slots = slots.clamp(1, MAX_KILLERS);
        let row = &mut self.slots[ply.min(KILLER_PLIES - 1)];
        let pos = row[..slots].iter().position(|&k| k == Some(mv)).unwrap_or(slots - 1);
        row.copy_within(0..pos, 1);
        row[0] = Some(mv);
    }

    /// Forgets the killers of `ply` (the search clears the grandchildren's row on entering a node).
    #[inline]
    pub fn clear_ply(&mut self, ply: usize) {
        self.slots[ply.min(KILLER_PLIES - 1)] = [None; MAX_KILLERS];
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        *self = Killers::new();
    }
}
