#![doc = include_str!("../README.md")]
#![warn(missing_docs)]
#![deny(unsafe_code)]

// Layout
// ======
//
// The table is a boxed slice of `Bucket`s. A bucket is 64 bytes, aligned to 64 bytes (one
// cache line), and holds `ENTRIES_PER_BUCKET` = 4 entries of two `AtomicU64` each:
//
//     check: key ^ data
//     data:  the packed entry below
//
// The bucket of a key is `(key as u128 * buckets as u128) >> 64`: the high 64 bits of the
// product, a number in `0..buckets` for any bucket count (no power of two needed). It uses
// the high bits of the key; all 64 bits are verified on probe (`check ^ data == key`), so a
// hit is a key match, and a pair of words written by two different stores (a torn write)
// is rejected because its check no longer matches.
//
// The data word, from the least significant bit:
//
//     bits  0..16  best move, `Move::raw()` (0 = no move; no move encodes to 0)
//     bits 16..32  score, i16, mate scores relative to the node (`score_to_tt`)
//     bits 32..48  static evaluation, i16
//     bits 48..56  depth, i8
//     bits 56..58  bound: 0 = empty slot, 1 = upper, 2 = lower, 3 = exact
//     bit  58      PV node
//     bits 59..64  generation, 5 bits (wraps at 32)
//
// An all-zero slot (the state after `clear`) has bound 0 and is never a hit, even for
// key 0, whose check `0 ^ 0 == 0` would otherwise match.
//
// All atomic accesses are `Relaxed`: nothing else is published through the table, and the
// check word, not the memory order, decides whether the two words belong together.

use core::fmt;
use core::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use cutoff_board::Move;

/// The score of being checkmated at the root, negated: a side that mates in `n` plies from
/// the root scores `MATE - n`, a side that is mated in `n` plies scores `-(MATE - n)`.
/// The one mate constant of Cutoff: the search uses it (and [`MATE_IN_MAX_PLY`]) too.
///
/// ```
/// use cutoff_tt::{MATE, MATE_IN_MAX_PLY};
/// let mate_in_3_plies = MATE - 3;
/// assert!(mate_in_3_plies >= MATE_IN_MAX_PLY);
/// assert!(MATE < i32::from(i16::MAX));
/// ```
pub const MATE: i32 = 32_000;

/// The deepest ply a search may reach, shared by every Cutoff crate (defined in
/// `cutoff-board`, re-exported here); mate distances run from 0 to `MAX_PLY`.
///
/// ```
/// use cutoff_tt::{MATE, MATE_IN_MAX_PLY, MAX_PLY};
/// assert_eq!(MATE_IN_MAX_PLY, MATE - MAX_PLY as i32);
/// assert_eq!(MAX_PLY, cutoff_board::MAX_PLY);
/// ```
pub use cutoff_board::MAX_PLY;

/// The smallest winning mate score: scores at or above it (or at or below its negation)
/// are mate scores, the others are ordinary evaluations.
///
/// ```
/// use cutoff_tt::{MATE, MATE_IN_MAX_PLY};
/// fn is_mate(score: i32) -> bool {
///     score.abs() >= MATE_IN_MAX_PLY
/// }
/// assert!(is_mate(MATE - 7));
/// assert!(is_mate(-(MATE - 12)));
/// assert!(!is_mate(900));
/// ```
pub const MATE_IN_MAX_PLY: i32 = MATE - MAX_PLY as i32;

/// The smallest table size, in MiB, accepted by [`TranspositionTable::new`] and
/// [`TranspositionTable::resize`].
///
/// ```
/// use cutoff_tt::{MIN_MIB, TranspositionTable};
/// assert!(TranspositionTable::new(MIN_MIB).is_ok());
/// assert!(TranspositionTable::new(MIN_MIB - 1).is_err());
/// ```
pub const MIN_MIB: usize = 1;

/// The largest table size, in MiB (64 GiB), accepted by [`TranspositionTable::new`] and
/// [`TranspositionTable::resize`].
///
/// ```
/// use cutoff_tt::{MAX_MIB, ResizeError, TranspositionTable};
/// let mut tt = TranspositionTable::new(1).unwrap();
/// assert_eq!(tt.resize(MAX_MIB + 1), Err(ResizeError::OutOfRange { mib: MAX_MIB + 1 }));
/// ```
pub const MAX_MIB: usize = 65_536;

/// The size, in MiB, of [`TranspositionTable::default`].
///
/// ```
/// use cutoff_tt::{DEFAULT_MIB, TranspositionTable};
/// assert_eq!(TranspositionTable::default().size_mib(), DEFAULT_MIB);
/// ```
pub const DEFAULT_MIB: usize = 16;

/// Converts a score relative to the root into one relative to the node at `ply`, for
/// storing: a mate found `ply` plies below the root is stored as the distance from the node,
/// so that it stays right when the position is reached again at another ply.
/// Ordinary scores are unchanged. `ply` is capped at [`MAX_PLY`].
///
/// [`TranspositionTable::store`] calls it; it is public for tables of other kinds.
///
/// ```
/// use cutoff_tt::{MATE, score_from_tt, score_to_tt};
/// // At ply 5 the side to move mates in 3 more plies: mate in 8 plies from the root.
/// let stored = score_to_tt(MATE - 8, 5);
/// assert_eq!(stored, MATE - 3); // mate in 3 from the node
/// assert_eq!(score_from_tt(stored, 10), MATE - 13); // reached again at ply 10
/// assert_eq!(score_to_tt(-(MATE - 8), 5), -(MATE - 3));
/// assert_eq!(score_to_tt(150, 5), 150);
/// ```
#[inline]
pub const fn score_to_tt(score: i32, ply: usize) -> i32 {
    let ply = clamp_ply(ply);
    if score >= MATE_IN_MAX_PLY {
        score + ply
    } else if score <= -MATE_IN_MAX_PLY {
        score - ply
    } else {
        score
    }
}

/// Converts a score stored by [`score_to_tt`] (relative to the node) back into one relative
/// to the root, for the node at `ply`. Ordinary scores are unchanged. `ply` is capped at
/// [`MAX_PLY`].
///
/// [`TranspositionTable::probe`] calls it; it is public for tables of other kinds.
///
/// ```
/// use cutoff_tt::{MATE, score_from_tt, score_to_tt};
/// for ply in [0, 1, 17, 100] {
///     for score in [MATE - 40, -(MATE - 40), 0, -321] {
///         assert_eq!(score_from_tt(score_to_tt(score, ply), ply), score);
///     }
/// }
/// assert_eq!(score_from_tt(-(MATE - 2), 6), -(MATE - 8));
/// ```
#[inline]
pub const fn score_from_tt(score: i32, ply: usize) -> i32 {
    let ply = clamp_ply(ply);
    if score >= MATE_IN_MAX_PLY {
        score - ply
    } else if score <= -MATE_IN_MAX_PLY {
        score + ply
    } else {
        score
    }
}

const fn clamp_ply(ply: usize) -> i32 {
    if ply > MAX_PLY { MAX_PLY as i32 } else { ply as i32 }
}

/// What a stored score says about the true score of the node.
///
/// The discriminants are bit sets: [`Exact`](Bound::Exact) is
/// [`Upper`](Bound::Upper) | [`Lower`](Bound::Lower).
///
/// ```
/// use cutoff_tt::Bound;
/// fn cuts(bound: Bound, score: i32, alpha: i32, beta: i32) -> bool {
///     match bound {
///         Bound::Exact => true,
///         Bound::Lower => score >= beta,
///         Bound::Upper => score <= alpha,
///     }
/// }
/// assert!(cuts(Bound::Lower, 120, 0, 100));
/// assert!(!cuts(Bound::Upper, 120, 0, 100));
/// assert_eq!(Bound::Exact as u8, Bound::Upper as u8 | Bound::Lower as u8);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Bound {
    /// The true score is at most the stored score (the node failed low: no move beat alpha).
    Upper = 1,
    /// The true score is at least the stored score (the node failed high: a move reached beta).
    Lower = 2,
    /// The stored score is the true score (a PV node whose score fell inside the window).
    Exact = 3,
}

impl Bound {
    /// The bound of the 2-bit field of a data word; `None` for 0, an empty slot.
    #[inline(always)]
    const fn from_bits(bits: u64) -> Option<Bound> {
        match bits & 3 {
            1 => Some(Bound::Upper),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Exact),
            _ => None,
        }
    }
}

/// A copy of a table entry, as returned by [`TranspositionTable::probe`].
///
/// ```
/// use cutoff_tt::{Bound, TranspositionTable, TtEntry};
/// let tt = TranspositionTable::new(1).unwrap();
/// tt.store(42, 3, TtEntry { mv: None, score: -15, eval: -30, depth: 6, bound: Bound::Upper, pv: false });
/// let entry: TtEntry = tt.probe(42, 3).unwrap();
/// assert_eq!(entry, TtEntry { mv: None, score: -15, eval: -30, depth: 6, bound: Bound::Upper, pv: false });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// The best (or refutation) move, if one was stored. It comes from a position with the
    /// same 64-bit key, which is almost surely this position, but check it with
    /// `Board::is_legal` before playing it.
    pub mv: Option<Move>,
    /// The score, relative to the root at the probing ply (mate distances adjusted).
    pub score: i32,
    /// The static evaluation stored with the entry.
    pub eval: i32,
    /// The depth of the search that produced the score.
    pub depth: i32,
    /// How `score` bounds the true score.
    pub bound: Bound,
    /// Whether the node was searched as a PV node.
    pub pv: bool,
}

/// An error from [`TranspositionTable::new`] or [`TranspositionTable::resize`].
///
/// ```
/// use cutoff_tt::{ResizeError, TranspositionTable};
/// let err = TranspositionTable::new(0).unwrap_err();
/// assert_eq!(err, ResizeError::OutOfRange { mib: 0 });
/// assert_eq!(err.to_string(), "hash size 0 MiB is outside 1..=65536 MiB");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResizeError {
    /// The size is outside [`MIN_MIB`]`..=`[`MAX_MIB`]. The table is unchanged.
    OutOfRange {
        /// The size asked for, in MiB.
        mib: usize,
    },
    /// The memory could not be allocated. [`TranspositionTable::resize`] leaves a cleared
    /// table of the size it had before behind (of [`MIN_MIB`] if even that cannot be had
    /// again).
    AllocationFailed {
        /// The size asked for, in MiB.
        mib: usize,
    },
}

impl fmt::Display for ResizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResizeError::OutOfRange { mib } => {
                write!(f, "hash size {mib} MiB is outside {MIN_MIB}..={MAX_MIB} MiB")
            }
            ResizeError::AllocationFailed { mib } => write!(f, "could not allocate {mib} MiB of hash"),
        }
    }
}

impl std::error::Error for ResizeError {}

/// One slot: the check word `key ^ data` and the data word (see the layout at the top).
#[derive(Debug, Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

const ENTRIES_PER_BUCKET: usize = 4;
const BUCKET_BYTES: usize = 64;
const BUCKETS_PER_MIB: usize = (1 << 20) / BUCKET_BYTES;

/// Entries sharing one cache line.
#[derive(Debug, Default)]
#[repr(C, align(64))]
struct Bucket {
    entries: [Entry; ENTRIES_PER_BUCKET],
}

const _: () = assert!(core::mem::size_of::<Entry>() == 16);
const _: () = assert!(core::mem::size_of::<Bucket>() == BUCKET_BYTES);
const _: () = assert!(core::mem::align_of::<Bucket>() == BUCKET_BYTES);
// The table is shared by the search threads.
const _: () = {
    const fn shared_between_threads<T: Send + Sync>() {}
    shared_between_threads::<TranspositionTable>();
};

// Bit positions of the data word.
const SCORE_SHIFT: u32 = 16;
const EVAL_SHIFT: u32 = 32;
const DEPTH_SHIFT: u32 = 48;
const BOUND_SHIFT: u32 = 56;
const PV_SHIFT: u32 = 58;
const GEN_SHIFT: u32 = 59;
const GEN_MASK: u8 = 31;

/// How much one generation of age costs an entry, in plies of depth, when choosing a victim.
const AGE_WEIGHT: i32 = 8;
/// A store for a position already in the table replaces its entry when the new depth plus
/// this margin (plus 2 for a PV node) exceeds the old depth, or when the bound is exact, or
/// when the old entry is from an earlier search.
const SAME_KEY_DEPTH_MARGIN: i32 = 4;

#[inline(always)]
fn pack(mv: Option<Move>, score: i16, eval: i16, depth: i8, bound: Bound, pv: bool, generation: u8) -> u64 {
    u64::from(mv.map_or(0, Move::raw))
        | u64::from(score as u16) << SCORE_SHIFT
        | u64::from(eval as u16) << EVAL_SHIFT
        | u64::from(depth as u8) << DEPTH_SHIFT
        | u64::from(bound as u8) << BOUND_SHIFT
        | u64::from(pv) << PV_SHIFT
        | u64::from(generation & GEN_MASK) << GEN_SHIFT
}

#[inline(always)]
const fn data_move(data: u64) -> Option<Move> {
    Move::from_raw(data as u16)
}

#[inline(always)]
const fn data_score(data: u64) -> i32 {
    (data >> SCORE_SHIFT) as u16 as i16 as i32
}

#[inline(always)]
const fn data_eval(data: u64) -> i32 {
    (data >> EVAL_SHIFT) as u16 as i16 as i32
}

#[inline(always)]
const fn data_depth(data: u64) -> i32 {
    (data >> DEPTH_SHIFT) as u8 as i8 as i32
}

#[inline(always)]
const fn data_bound(data: u64) -> Option<Bound> {
    Bound::from_bits(data >> BOUND_SHIFT)
}

#[inline(always)]
const fn data_pv(data: u64) -> bool {
    data >> PV_SHIFT & 1 != 0
}

#[inline(always)]
const fn data_generation(data: u64) -> u8 {
    (data >> GEN_SHIFT) as u8 & GEN_MASK
}

#[inline(always)]
fn clamp_i16(value: i32) -> i16 {
    value.clamp(i16::MIN.into(), i16::MAX.into()) as i16
}

/// Whether a check word and a data word form a whole entry for `key`: the check matches
/// (so both words come from one store of `key`) and the slot is not empty.
#[inline(always)]
const fn holds(check: u64, data: u64, key: u64) -> bool {
    check ^ data == key && data_bound(data).is_some()
}

impl Entry {
    /// The data word, if the slot holds a whole entry for `key`.
    #[inline(always)]
    fn load_for(&self, key: u64) -> Option<u64> {
        let (check, data) = self.load();
        holds(check, data, key).then_some(data)
    }

    /// The check word and the data word, which may come from two different stores.
    #[inline(always)]
    fn load(&self) -> (u64, u64) {
        (self.check.load(Ordering::Relaxed), self.data.load(Ordering::Relaxed))
    }

    #[inline(always)]
    fn write(&self, key: u64, data: u64) {
        self.data.store(data, Ordering::Relaxed);
        self.check.store(key ^ data, Ordering::Relaxed);
    }

    #[inline(always)]
    fn reset(&self) {
        self.data.store(0, Ordering::Relaxed);
        self.check.store(0, Ordering::Relaxed);
    }
}

/// Allocates `buckets` zeroed buckets, or `None` if the allocator refuses. On Linux, the
/// memory is offered transparent huge pages before it is first written (see [`advise_huge_pages`]).
fn allocate(buckets: usize) -> Option<Box<[Bucket]>> {
    let mut table = Vec::new();
    table.try_reserve_exact(buckets).ok()?;
    advise_huge_pages(&table);
    table.resize_with(buckets, Bucket::default);
    Some(table.into_boxed_slice())
}

/// Asks Linux to back the reserved (still unwritten) memory of `table` with transparent huge
/// pages, where the system allows them only on request (`madvise` mode of
/// `/sys/kernel/mm/transparent_hugepage/enabled`; in `always` mode they come anyway). A
/// table of 16 MiB then takes 8 pages of 2 MiB instead of 4,096 of 4 KiB, so that the
/// scattered probes of the search miss the TLB less often. The request is a hint: when the
/// kernel refuses it, or on other systems, the table works the same with small pages.
fn advise_huge_pages(table: &Vec<Bucket>) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let start = table.as_ptr() as usize;
        let end = start + table.capacity() * std::mem::size_of::<Bucket>();
        // Only whole pages inside the allocation.
        let first = start.next_multiple_of(PAGE);
        let last = end / PAGE * PAGE;
        if last > first {
            // SAFETY: `madvise` with `MADV_HUGEPAGE` changes only how the kernel backs the
            // pages, never their contents or the mapping's permissions, and the range lies
            // within memory this vector owns (whole pages from its start to its capacity).
            // A failure leaves the memory as it was, so the result is ignored. Measured
            // gain: docs/benchmarks.md.
            #[allow(unsafe_code)]
            unsafe {
                libc::madvise(first as *mut libc::c_void, last - first, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = table;
}

/// The number of buckets of a `mib`-MiB table, or `None` if it overflows `usize`.
fn buckets_for(mib: usize) -> Option<usize> {
    mib.checked_mul(BUCKETS_PER_MIB)
}

/// The transposition table: buckets of lock-free entries shared by all search threads.
///
/// Probing and storing go through `&self`, from any number of threads at once; resizing
/// takes `&mut self`. See the [crate documentation](crate) for the design.
///
/// ```
/// use std::sync::Arc;
/// use cutoff_tt::{Bound, TranspositionTable, TtEntry};
/// let tt = Arc::new(TranspositionTable::new(2).unwrap());
/// let worker = {
///     let tt = Arc::clone(&tt);
///     std::thread::spawn(move || tt.store(7, 0, TtEntry { mv: None, score: 0, eval: 0, depth: 3, bound: Bound::Lower, pv: false }))
/// };
/// worker.join().unwrap();
/// assert_eq!(tt.probe(7, 0).map(|e| e.depth), Some(3));
/// ```
pub struct TranspositionTable {
    buckets: Box<[Bucket]>,
    generation: AtomicU8,
}

impl fmt::Debug for TranspositionTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TranspositionTable")
            .field("buckets", &self.buckets.len())
            .field("generation", &self.generation())
            .finish()
    }
}

impl Default for TranspositionTable {
    /// A table of [`DEFAULT_MIB`] MiB.
    ///
    /// ```
    /// use cutoff_tt::TranspositionTable;
    /// let tt = TranspositionTable::default();
    /// assert_eq!(tt.size_mib(), 16);
    /// ```
    fn default() -> Self {
        TranspositionTable::new(DEFAULT_MIB).expect("the default hash size is in range and small")
    }
}

impl TranspositionTable {
    /// A cleared table of `mib` MiB (`mib * 16384` buckets of 4 entries).
    ///
    /// # Errors
    ///
    /// [`ResizeError::OutOfRange`] if `mib` is outside [`MIN_MIB`]`..=`[`MAX_MIB`],
    /// [`ResizeError::AllocationFailed`] if the memory is not available.
    ///
    /// ```
    /// use cutoff_tt::{ResizeError, TranspositionTable};
    /// let tt = TranspositionTable::new(8).unwrap();
    /// assert_eq!(tt.size_mib(), 8);
    /// assert_eq!(tt.hashfull(), 0);
    /// assert_eq!(TranspositionTable::new(70_000).unwrap_err(), ResizeError::OutOfRange { mib: 70_000 });
    /// ```
    pub fn new(mib: usize) -> Result<TranspositionTable, ResizeError> {
        check_range(mib)?;
        let buckets = buckets_for(mib).and_then(allocate).ok_or(ResizeError::AllocationFailed { mib })?;
        Ok(TranspositionTable { buckets, generation: AtomicU8::new(0) })
    }

    /// Reallocates the table with `mib` MiB and clears it (also when the size is unchanged,
    /// in which case the memory is reused). The old table is freed before the new one is
    /// allocated, so the peak memory is the larger of the two sizes.
    ///
    /// # Errors
    ///
    /// [`ResizeError::OutOfRange`] if `mib` is outside [`MIN_MIB`]`..=`[`MAX_MIB`]; the table
    /// is then unchanged. [`ResizeError::AllocationFailed`] if the memory is not available;
    /// the table is then a cleared table of its previous size (of [`MIN_MIB`] if even that
    /// cannot be allocated again).
    ///
    /// ```
    /// use cutoff_tt::{Bound, ResizeError, TranspositionTable, TtEntry};
    /// let mut tt = TranspositionTable::new(1).unwrap();
    /// tt.store(1, 0, TtEntry { mv: None, score: 0, eval: 0, depth: 1, bound: Bound::Exact, pv: false });
    /// assert_eq!(tt.resize(65_537), Err(ResizeError::OutOfRange { mib: 65_537 }));
    /// assert!(tt.probe(1, 0).is_some()); // unchanged
    /// tt.resize(3).unwrap();
    /// assert_eq!(tt.size_mib(), 3);
    /// assert!(tt.probe(1, 0).is_none()); // cleared
    /// ```
    pub fn resize(&mut self, mib: usize) -> Result<(), ResizeError> {
        check_range(mib)?;
        let Some(buckets) = buckets_for(mib) else {
            return Err(ResizeError::AllocationFailed { mib });
        };
        self.generation.store(0, Ordering::Relaxed);
        if buckets == self.buckets.len() {
            self.clear();
            return Ok(());
        }
        let previous = self.buckets.len();
        self.buckets = Box::default(); // free the old table first
        match allocate(buckets) {
            Some(table) => {
                self.buckets = table;
                Ok(())
            }
            None => {
                // Back to the size it had (its memory was just freed), else the smallest.
                self.buckets = allocate(previous).unwrap_or_else(|| {
                    let mut table = Vec::with_capacity(BUCKETS_PER_MIB * MIN_MIB);
                    table.resize_with(BUCKETS_PER_MIB * MIN_MIB, Bucket::default);
                    table.into_boxed_slice()
                });
                Err(ResizeError::AllocationFailed { mib })
            }
        }
    }

    /// The size of the table in MiB.
    ///
    /// ```
    /// use cutoff_tt::TranspositionTable;
    /// assert_eq!(TranspositionTable::new(5).unwrap().size_mib(), 5);
    /// ```
    pub fn size_mib(&self) -> usize {
        self.buckets.len() / BUCKETS_PER_MIB
    }

    /// Empties every entry and resets the generation, on the calling thread.
    ///
    /// Safe to call while other threads use the table (no entry is ever torn), but meant for
    /// `ucinewgame`, between searches. See [`clear_with_threads`](Self::clear_with_threads)
    /// for large tables.
    ///
    /// ```
    /// use cutoff_tt::{Bound, TranspositionTable, TtEntry};
    /// let tt = TranspositionTable::new(1).unwrap();
    /// tt.store(99, 0, TtEntry { mv: None, score: 1, eval: 1, depth: 1, bound: Bound::Lower, pv: false });
    /// tt.clear();
    /// assert!(tt.probe(99, 0).is_none());
    /// ```
    pub fn clear(&self) {
        self.clear_with_threads(1);
    }

    /// Like [`clear`](Self::clear), with the table split into `threads` contiguous chunks
    /// cleared by that many scoped threads (0 and 1 both mean the calling thread only).
    ///
    /// ```
    /// use cutoff_tt::{Bound, TranspositionTable, TtEntry};
    /// let tt = TranspositionTable::new(4).unwrap();
    /// for key in 0..1000u64 {
    ///     tt.store(key.wrapping_mul(0x9E37_79B9_7F4A_7C15), 0, TtEntry { mv: None, score: 1, eval: 1, depth: 1, bound: Bound::Lower, pv: false });
    /// }
    /// tt.clear_with_threads(2);
    /// assert!((0..1000u64).all(|key| tt.probe(key.wrapping_mul(0x9E37_79B9_7F4A_7C15), 0).is_none()));
    /// ```
    pub fn clear_with_threads(&self, threads: usize) {
        fn clear_chunk(buckets: &[Bucket]) {
            buckets.iter().flat_map(|bucket| &bucket.entries).for_each(Entry::reset);
        }
        let threads = threads.clamp(1, self.buckets.len().max(1));
        if threads == 1 {
            clear_chunk(&self.buckets);
        } else {
            let chunk = self.buckets.len().div_ceil(threads);
            std::thread::scope(|scope| {
                for part in self.buckets.chunks(chunk) {
                    scope.spawn(move || clear_chunk(part));
                }
            });
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: bumps the generation (5 bits, wrapping) that ages the entries of
    /// earlier searches, which then lose to the current ones on replacement and no longer
    /// count in [`hashfull`](Self::hashfull). Call it once per `go`, before the threads start.
    ///
    /// ```
    /// use cutoff_tt::{Bound, TranspositionTable, TtEntry};
    /// let tt = TranspositionTable::new(1).unwrap();
    /// for key in 0..4000u64 {
    ///     tt.store(key << 48, 0, TtEntry { mv: None, score: 0, eval: 0, depth: 1, bound: Bound::Lower, pv: false });
    /// }
    /// assert!(tt.hashfull() > 0);
    /// tt.new_search();
    /// assert_eq!(tt.hashfull(), 0); // still there, but from an earlier search
    /// assert!(tt.probe(1 << 48, 0).is_some());
    /// ```
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed); // 256 is a multiple of 32
    }

    /// How full the table is, per mille, for UCI `info hashfull`: the share of the first
    /// 1000 entries that hold an entry of the current search.
    ///
    /// ```
    /// use cutoff_tt::{Bound, TranspositionTable, TtEntry};
    /// let tt = TranspositionTable::new(1).unwrap();
    /// assert_eq!(tt.hashfull(), 0);
    /// // Keys with small high bits land in the first buckets.
    /// for key in 0..100_000u64 {
    ///     tt.store(key << 44, 0, TtEntry { mv: None, score: 0, eval: 0, depth: 1, bound: Bound::Lower, pv: false });
    /// }
    /// assert_eq!(tt.hashfull(), 1000);
    /// ```
    pub fn hashfull(&self) -> u16 {
        const SAMPLE_BUCKETS: usize = 1000 / ENTRIES_PER_BUCKET;
        let generation = self.generation();
        let sample = &self.buckets[..self.buckets.len().min(SAMPLE_BUCKETS)];
        let used = sample
            .iter()
            .flat_map(|bucket| &bucket.entries)
            .map(|entry| entry.data.load(Ordering::Relaxed))
            .filter(|&data| data_bound(data).is_some() && data_generation(data) == generation)
            .count();
        let sampled = sample.len() * ENTRIES_PER_BUCKET;
        (used * 1000).checked_div(sampled).unwrap_or(0) as u16
    }

    /// Looks `key` up, for a node at `ply` plies from the root (mate scores are converted
    /// with [`score_from_tt`]). Returns `None` if no slot of its bucket holds a whole entry
    /// with exactly this 64-bit key.
    ///
    /// ```
    /// use cutoff_tt::{Bound, MATE, TranspositionTable, TtEntry};
    /// let tt = TranspositionTable::new(1).unwrap();
    /// assert!(tt.probe(5, 0).is_none());
    /// tt.store(5, 4, TtEntry { mv: None, score: MATE - 9, eval: 0, depth: 4, bound: Bound::Exact, pv: false }); // mate in 5 from the node
    /// assert_eq!(tt.probe(5, 2).unwrap().score, MATE - 7); // mate in 5 from a node at ply 2
    /// ```
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtEntry> {
        let bucket = &self.buckets[self.index(key)];
        let data = bucket.entries.iter().find_map(|entry| entry.load_for(key))?;
        Some(TtEntry {
            mv: data_move(data),
            score: score_from_tt(data_score(data), ply),
            eval: data_eval(data),
            depth: data_depth(data),
            bound: data_bound(data)?,
            pv: data_pv(data),
        })
    }

    /// Stores the result of searching the node `key` at `ply` plies from the root, given as
    /// a [`TtEntry`] (the type [`probe`](Self::probe) returns): its best move (if any), the
    /// score (relative to the root; mates are converted with [`score_to_tt`]), the static
    /// evaluation, the depth, the bound and whether it is a PV node. Scores and evaluations
    /// are saturated to `i16`, depths to `i8`. The fields are named, so score, evaluation and
    /// depth (three `i32`s) cannot be swapped by accident.
    ///
    /// Replacement, within the key's bucket of 4 entries:
    /// - an entry for the same key is overwritten only if `bound` is exact, the entry is from
    ///   an earlier search, or `depth + 4 (+ 2 if pv)` exceeds its depth; a `None` move then
    ///   keeps the move already stored;
    /// - otherwise an empty slot is used, or else the slot with the lowest
    ///   `depth - 8 * age`, where age counts the searches since the entry was stored.
    ///
    /// ```
    /// use cutoff_board::Board;
    /// use cutoff_tt::{Bound, TranspositionTable, TtEntry};
    /// let tt = TranspositionTable::new(1).unwrap();
    /// let board = Board::default();
    /// let d4 = board.parse_uci("d2d4").unwrap();
    /// tt.store(board.key(), 0, TtEntry { mv: Some(d4), score: 20, eval: 15, depth: 5, bound: Bound::Lower, pv: false });
    /// tt.store(board.key(), 0, TtEntry { mv: None, score: 10, eval: 15, depth: 6, bound: Bound::Upper, pv: false }); // keeps d4
    /// let entry = tt.probe(board.key(), 0).unwrap();
    /// assert_eq!((entry.mv, entry.score, entry.depth, entry.bound), (Some(d4), 10, 6, Bound::Upper));
    /// ```
    #[inline]
    pub fn store(&self, key: u64, ply: usize, entry: TtEntry) {
        let TtEntry { mv, score, eval, depth, bound, pv } = entry;
        let generation = self.generation();
        let bucket = &self.buckets[self.index(key)];
        let depth = depth.clamp(i8::MIN.into(), i8::MAX.into()) as i8;

        let mut slot = 0;
        let mut lowest = i32::MAX;
        let mut mv = mv;
        for (i, entry) in bucket.entries.iter().enumerate() {
            let (check, data) = entry.load();
            if holds(check, data, key) {
                let replace = bound == Bound::Exact
                    || data_generation(data) != generation
                    || i32::from(depth) + SAME_KEY_DEPTH_MARGIN + 2 * i32::from(pv) > data_depth(data);
                if !replace {
                    return;
                }
                mv = mv.or(data_move(data));
                slot = i;
                break;
            }
            let worth = if data_bound(data).is_none() {
                i32::MIN
            } else {
                let age = generation.wrapping_sub(data_generation(data)) & GEN_MASK;
                data_depth(data) - AGE_WEIGHT * i32::from(age)
            };
            if worth < lowest {
                lowest = worth;
                slot = i;
            }
        }

        let score = clamp_i16(score_to_tt(score, ply));
        let data = pack(mv, score, clamp_i16(eval), depth, bound, pv, generation);
        bucket.entries[slot].write(key, data);
    }

    /// Asks the CPU to load the bucket of `key` into its caches, so that a [`probe`](Self::probe)
    /// or [`store`](Self::store) of `key` soon after does not wait for main memory. The search
    /// calls it as soon as it knows a child's key, before the work that comes ahead of the
    /// child's probe. It changes no state and has no effect on results; on targets other than
    /// x86-64 it does nothing.
    ///
    /// ```
    /// let tt = cutoff_tt::TranspositionTable::new(1).unwrap();
    /// tt.prefetch(0x1234_5678_9abc_def0);
    /// assert!(tt.probe(0x1234_5678_9abc_def0, 0).is_none());
    /// ```
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        prefetch(&self.buckets[self.index(key)]);
    }

    /// The current generation, 0..32.
    #[inline(always)]
    fn generation(&self) -> u8 {
        self.generation.load(Ordering::Relaxed) & GEN_MASK
    }

    /// The bucket of `key`: the high half of `key * buckets`, in `0..buckets`.
    #[inline(always)]
    fn index(&self, key: u64) -> usize {
        ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize
    }

    /// A cleared table of exactly `buckets` buckets (tiny tables force collisions in tests).
    #[cfg(test)]
    fn with_buckets(buckets: usize) -> TranspositionTable {
        TranspositionTable { buckets: allocate(buckets).unwrap(), generation: AtomicU8::new(0) }
    }
}

/// Asks the CPU to bring the cache line that holds `value` into its caches, so that a read
/// of it soon after does not wait for main memory. A hint only: it changes no state and has no
/// effect on results; on targets other than x86-64 it does nothing.
/// [`TranspositionTable::prefetch`] uses it for a bucket, and the search for its correction
/// history's entries.
///
/// ```
/// let table = vec![0u64; 1 << 16];
/// cutoff_tt::prefetch(&table[12_345]);
/// assert_eq!(table[12_345], 0);
/// ```
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: `_mm_prefetch` is a hint: it never faults, reads nothing into the program's
        // state and writes nothing, whatever the address. The pointer is in any case that of a
        // live reference, borrowed for the call. SSE, which the instruction needs, is part of
        // every x86-64 target. Measured gains: docs/benchmarks.md (the TT bucket and the
        // correction history).
        #[allow(unsafe_code)]
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(value).cast());
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

fn check_range(mib: usize) -> Result<(), ResizeError> {
    if (MIN_MIB..=MAX_MIB).contains(&mib) { Ok(()) } else { Err(ResizeError::OutOfRange { mib }) }
}

#[cfg(test)]
mod tests;
