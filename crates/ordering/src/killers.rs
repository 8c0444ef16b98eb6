//! Killer moves: quiet moves that caused a beta cutoff at the same ply.

use cutoff_board::{MAX_PLY, Move};

/// The most killer slots a ply can have ([`OrderingConfig::killers`](crate::OrderingConfig)
/// selects how many are used; the search uses 2).
///
/// ```
/// use cutoff_board::Board;
/// use cutoff_ordering::{Killers, MAX_KILLERS};
/// let board = Board::default();
/// let mut killers = Killers::new();
/// for uci in ["a2a3", "b2b3", "c2c3", "d2d3"] {
///     killers.update(0, board.parse_uci(uci).unwrap(), 10); // asks for more slots than there are
/// }
/// assert_eq!(killers.get(0).len(), MAX_KILLERS);
/// assert_eq!(killers.get(0)[0], board.parse_uci("d2d3").ok()); // the newest three are kept
/// assert_eq!(killers.get(0)[MAX_KILLERS - 1], board.parse_uci("b2b3").ok());
/// ```
pub const MAX_KILLERS: usize = 3;

/// Killer moves per ply.
///
/// Layout: `slots[ply][0..MAX_KILLERS]`, newest first; a move never appears twice in a row.
/// The table covers [`MAX_PLY`](cutoff_board::MAX_PLY) plies, the ply limit shared by every
/// Cutoff crate; deeper plies share the last row:
///
/// ```
/// use cutoff_board::{Board, MAX_PLY};
/// use cutoff_ordering::Killers;
/// let nf3 = Board::default().parse_uci("g1f3").unwrap();
/// let mut killers = Killers::new();
/// killers.update(MAX_PLY + 40, nf3, 2); // beyond the table: stored in the last row
/// assert_eq!(killers.get(MAX_PLY - 1)[0], Some(nf3));
/// assert_eq!(killers.get(usize::MAX)[0], Some(nf3));
/// ```
///
/// An example of use:
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
    slots: [[Option<Move>; MAX_KILLERS]; MAX_PLY],
}

impl Default for Killers {
    fn default() -> Killers {
        Killers::new()
    }
}

impl Killers {
    /// An empty table.
    ///
    /// ```
    /// use cutoff_board::MAX_PLY;
    /// use cutoff_ordering::Killers;
    /// let killers = Killers::new();
    /// assert!((0..MAX_PLY).all(|ply| killers.get(ply) == [None; 3]));
    /// ```
    pub fn new() -> Killers {
        Killers { slots: [[None; MAX_KILLERS]; MAX_PLY] }
    }

    /// The killers of `ply`, newest first.
    ///
    /// ```
    /// use cutoff_board::Board;
    /// use cutoff_ordering::Killers;
    /// let board = Board::default();
    /// let (a3, b3) = (board.parse_uci("a2a3").unwrap(), board.parse_uci("b2b3").unwrap());
    /// let mut killers = Killers::new();
    /// killers.update(4, a3, 2);
    /// killers.update(4, b3, 2);
    /// assert_eq!(killers.get(4), [Some(b3), Some(a3), None]);
    /// assert_eq!(killers.get(5), [None; 3]); // each ply has its own row
    /// ```
    #[inline]
    pub fn get(&self, ply: usize) -> [Option<Move>; MAX_KILLERS] {
        self.slots[ply.min(MAX_PLY - 1)]
    }

    /// Records `mv` as the newest killer of `ply`, keeping `slots` (1 to [`MAX_KILLERS`]) slots.
    /// If `mv` is already a killer it moves to the front; the others shift down.
    ///
    /// ```
    /// use cutoff_board::Board;
    /// use cutoff_ordering::Killers;
    /// let board = Board::default();
    /// let [a, b, c] = ["a2a3", "b2b3", "c2c3"].map(|uci| board.parse_uci(uci).unwrap());
    /// let mut killers = Killers::new();
    /// for mv in [a, b, c] {
    ///     killers.update(0, mv, 2); // two slots: the third never fills
    /// }
    /// assert_eq!(killers.get(0), [Some(c), Some(b), None]);
    /// killers.update(0, b, 2); // already a killer: to the front, no duplicate
    /// assert_eq!(killers.get(0), [Some(b), Some(c), None]);
    /// killers.update(1, a, 1); // one slot: each new killer replaces the last
    /// killers.update(1, b, 1);
    /// assert_eq!(killers.get(1), [Some(b), None, None]);
    /// ```
    #[inline]
    pub fn update(&mut self, ply: usize, mv: Move, slots: usize) {
        let slots = slots.clamp(1, MAX_KILLERS);
        let row = &mut self.slots[ply.min(MAX_PLY - 1)];
        let pos = match row.iter().position(|&k| k == Some(mv)) {
            Some(p) if p < slots => p,
            Some(p) => {
                // Kept from a call with more slots: drop it so the row never holds it twice.
                row[p] = None;
                slots - 1
            }
            None => slots - 1,
        };
        row.copy_within(0..pos, 1);
        row[0] = Some(mv);
    }

    /// Forgets the killers of `ply` (the search clears the grandchildren's row on entering a node).
    ///
    /// ```
    /// use cutoff_board::Board;
    /// use cutoff_ordering::Killers;
    /// let nf3 = Board::default().parse_uci("g1f3").unwrap();
    /// let mut killers = Killers::new();
    /// killers.update(2, nf3, 2);
    /// killers.update(3, nf3, 2);
    /// killers.clear_ply(2);
    /// assert_eq!(killers.get(2), [None; 3]);
    /// assert_eq!(killers.get(3)[0], Some(nf3)); // other plies keep theirs
    /// ```
    #[inline]
    pub fn clear_ply(&mut self, ply: usize) {
        self.slots[ply.min(MAX_PLY - 1)] = [None; MAX_KILLERS];
    }

    /// Forgets everything.
    ///
    /// ```
    /// use cutoff_board::Board;
    /// use cutoff_board::MAX_PLY;
    /// use cutoff_ordering::Killers;
    /// let nf3 = Board::default().parse_uci("g1f3").unwrap();
    /// let mut killers = Killers::new();
    /// killers.update(0, nf3, 2);
    /// killers.update(9, nf3, 2);
    /// killers.clear();
    /// assert!((0..MAX_PLY).all(|ply| killers.get(ply) == [None; 3]));
    /// ```
    pub fn clear(&mut self) {
        *self = Killers::new();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;
    use cutoff_board::Board;

    #[test]
    fn shrinking_slot_count_never_duplicates() {
        let b = Board::default();
        let m: Vec<Move> = ["a2a3", "b2b3", "c2c3"].iter().map(|t| b.parse_uci(t).unwrap()).collect();
        let mut k = Killers::new();
        for &mv in &m {
            k.update(0, mv, 3);
        }
        assert_eq!(k.get(0), [Some(m[2]), Some(m[1]), Some(m[0])]);
        k.update(0, m[0], 2); // m[0] sat in the third slot
        let row = k.get(0);
        assert_eq!(row[0], Some(m[0]));
        assert_eq!(row.iter().filter(|&&r| r == Some(m[0])).count(), 1, "{row:?}");
    }
}
