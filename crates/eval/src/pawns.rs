//! Pawn structure (a function of the pawns alone) and the per-thread [`PawnCache`].

use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use cutoff_board::{Bitboard, Board, Color, PieceType};

use crate::eval::{Sink, Sum};
use crate::masks::{ADJACENT_FILES, FORWARD_FILE, PASSED_SPAN, pawn_attacks};
use crate::params::Table;
use crate::score::Score;

/// Reports the pawn structure of both sides to `sink` and returns each side's passed pawns,
/// `[white, black]`.
#[inline]
pub(crate) fn structure<S: Sink>(board: &Board, sink: &mut S) -> [Bitboard; 2] {
    let white = board.colored_pieces(Color::White, PieceType::Pawn);
    let black = board.colored_pieces(Color::Black, PieceType::Pawn);
    [side(Color::White, white, black, sink), side(Color::Black, black, white, sink)]
}

/// The pawn structure of the pawns `own` of `color` facing the enemy pawns `theirs`; returns
/// the passed pawns.
fn side<S: Sink>(color: Color, own: Bitboard, theirs: Bitboard, sink: &mut S) -> Bitboard {
    let c = color as usize;
    let their_attacks = pawn_attacks(!color, theirs);
    let mut passed_pawns = Bitboard::EMPTY;
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
            sink.add(color, Table::PawnDoubled, 0, 1);
        }
        if isolated {
            sink.add(color, Table::PawnIsolated, 0, 1);
        }
        if backward {
            sink.add(color, Table::PawnBackward, 0, 1);
        }
        if connected {
            sink.add(color, Table::PawnConnected, rank, 1);
        }
        if passed {
            sink.add(color, Table::PawnPassed, rank, 1);
            passed_pawns |= sq.bitboard();
        }
    }
    passed_pawns
}

/// The pawn structure scores `[white, black]` (each from its own side's view) and passed
/// pawns of a position: what the [`PawnCache`] keeps.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub(crate) struct PawnEntry {
    pub(crate) scores: [Score; 2],
    pub(crate) passed: [Bitboard; 2],
}

/// Evaluates the pawn structure of `board` into a [`PawnEntry`].
#[inline]
pub(crate) fn entry(board: &Board) -> PawnEntry {
    let mut sum = Sum::default();
    let passed = structure(board, &mut sum);
    PawnEntry { scores: sum.0, passed }
}

#[derive(Clone, Copy, Default, Debug)]
struct Entry {
    key: u64,
    entry: PawnEntry,
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
    /// The number of entries of [`PawnCache::default`] (40 bytes each, 320 KiB in all).
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
        // an empty pawn set scores zero and has no passed pawns. So no valid flag is needed.
        self.entries.fill(Entry::default());
    }

    /// The pawn structure of `board`, from the cache or computed and stored.
    #[inline]
    pub(crate) fn probe(&mut self, board: &Board) -> PawnEntry {
        let key = board.pawn_key();
        let slot = &mut self.entries[key as usize & self.mask];
        if slot.key != key {
            *slot = Entry { key, entry: entry(board) };
        }
        slot.entry
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
