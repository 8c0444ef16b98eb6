//! Pawn structure (a function of the pawns alone) and the per-thread [`PawnCache`].

use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use cutoff_board::{Bitboard, Board, Color, PieceType};

use crate::masks::{ADJACENT_FILES, FORWARD_FILE, PASSED_SPAN, pawn_attacks};
use crate::params::{PAWN_BACKWARD, PAWN_CONNECTED, PAWN_DOUBLED, PAWN_ISOLATED, PAWN_PASSED};
use crate::score::Score;

/// The pawn-structure score of each side, `[white, black]`, each from its own point of view.
#[inline]
pub(crate) fn structure(board: &Board) -> [Score; 2] {
    let white = board.colored_pieces(Color::White, PieceType::Pawn);
    let black = board.colored_pieces(Color::Black, PieceType::Pawn);
    [side(Color::White, white, black), side(Color::Black, black, white)]
}

/// The pawn-structure score of the pawns `own` of `color` facing the enemy pawns `theirs`.
fn side(color: Color, own: Bitboard, theirs: Bitboard) -> Score {
    let c = color as usize;
    let their_attacks = pawn_attacks(!color, theirs);
    let mut score = Score::ZERO;
    for sq in own {
        let file = sq.file() as usize;
        let rank = sq.rank().relative_to(color) as usize;
        let adjacent = own & ADJACENT_FILES[file];
        let in_front = FORWARD_FILE[c][sq as usize];

        let doubled = own.intersects(in_front);
        let isolated = adjacent.is_empty();
        // Pawns of ours that defend this one, or stand beside it.
        let supporters = own & pawn_attacks(!color, sq.bitboard());
        let phalanx = adjacent & Bitboard::rank(sq.rank());
        let connected = (supporters | phalanx).is_nonempty();
        // Adjacent pawns of ours that are not in front of this one (beside or behind it).
        let behind_or_level = adjacent - PASSED_SPAN[c][sq as usize];
        let stop = sq.bitboard().forward(color);
        let backward = !isolated && behind_or_level.is_empty() && their_attacks.intersects(stop);
        let passed = !doubled && !theirs.intersects(PASSED_SPAN[c][sq as usize]);

        if doubled {
            score += PAWN_DOUBLED;
        }
        if isolated {
            score += PAWN_ISOLATED;
        }
        if backward {
            score += PAWN_BACKWARD;
        }
        if connected {
            score += PAWN_CONNECTED[rank];
        }
        if passed {
            score += PAWN_PASSED[rank];
        }
    }
    score
}

#[derive(Clone, Copy, Default, Debug)]
struct Entry {
    key: u64,
    scores: [Score; 2],
}

/// A small hash table of pawn-structure scores keyed by [`Board::pawn_key`].
///
/// The pawn structure changes far less often than the rest of the position, so most
/// evaluations find their pawn score here. The cache is owned by one search thread and
/// passed to [`evaluate_cached`](crate::evaluate_cached) as `&mut`; it needs no locking
/// and is never shared. Results are identical with and without the cache.
///
/// ```
/// use cutoff_board::Board;
/// use cutoff_eval::{PawnCache, evaluate, evaluate_cached};
/// let mut cache = PawnCache::new(1024);
/// let board = Board::default();
/// assert_eq!(evaluate_cached(&board, &mut cache), evaluate(&board));
/// ```
#[derive(Clone)]
pub struct PawnCache {
    entries: Vec<Entry>,
    mask: usize,
}

impl PawnCache {
    /// The number of entries of [`PawnCache::default`] (24 bytes each, 192 KiB in all).
    pub const DEFAULT_ENTRIES: usize = 8192;

    /// A cache of `entries` slots, rounded up to a power of two (at least 1).
    pub fn new(entries: usize) -> PawnCache {
        let n = entries.max(1).next_power_of_two();
        let mut cache = PawnCache { entries: vec![Entry::default(); n], mask: n - 1 };
        cache.clear();
        cache
    }

    /// The number of slots.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Always `false`: a cache has at least one slot. (Present for API symmetry with `len`.)
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Forgets every stored entry.
    pub fn clear(&mut self) {
        // An all-zero entry is correct for pawn key 0, which is the key of "no pawns":
        // the pawn-structure score of an empty pawn set is zero. So no valid flag is needed.
        self.entries.fill(Entry::default());
    }

    /// The pawn-structure scores `[white, black]` of `board`, from the cache or computed and stored.
    #[inline]
    pub(crate) fn probe(&mut self, board: &Board) -> [Score; 2] {
        let key = board.pawn_key();
        let slot = &mut self.entries[key as usize & self.mask];
        if slot.key != key {
            *slot = Entry { key, scores: structure(board) };
        }
        slot.scores
    }
}

impl fmt::Debug for PawnCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PawnCache").field("entries", &self.entries.len()).finish_non_exhaustive()
    }
}

impl Default for PawnCache {
    fn default() -> PawnCache {
        PawnCache::new(PawnCache::DEFAULT_ENTRIES)
    }
}
