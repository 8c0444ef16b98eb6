use cutoff_board::{Move, MoveKind, Square};

use super::*;

/// A valid move derived from a key, so that a probe hit can be checked against its key.
fn move_for(key: u64) -> Move {
    let from = (key % 64) as usize;
    let to = (from + 1 + ((key >> 6) % 63) as usize) % 64;
    Move::new(Square::index_const(from), Square::index_const(to), MoveKind::Quiet)
}

/// SplitMix64: a small deterministic generator for test keys.
struct SplitMix(cutoff_board::SplitMix64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
}

/// Stores `key` at `depth` with default everything else.
fn put(tt: &TranspositionTable, key: u64, depth: i32) {
    tt.store(key, 0, TtEntry { mv: Some(move_for(key)), score: depth, eval: 0, depth, bound: Bound::Lower, pv: false });
}

#[test]
fn round_trip() {
    let tt = TranspositionTable::new(1).unwrap();
    let mut rng = SplitMix(cutoff_board::SplitMix64::new(1));
    let bounds = [Bound::Upper, Bound::Lower, Bound::Exact];
    for i in 0..200 {
        let key = rng.next();
        let (score, eval, depth) = (i * 7 - 700, 300 - i * 3, i % 60 - 2);
        let bound = bounds[i as usize % 3];
        let pv = i % 2 == 0;
        let mv = (i % 5 != 0).then(|| move_for(key));
        tt.store(key, 0, TtEntry { mv, score, eval, depth, bound, pv });
        assert_eq!(tt.probe(key, 0), Some(TtEntry { mv, score, eval, depth, bound, pv }), "entry {i}");
    }
}

#[test]
fn empty_table_misses_every_key_including_zero() {
    let tt = TranspositionTable::new(1).unwrap();
    for key in [0, 1, u64::MAX, 0x8000_0000_0000_0000] {
        assert_eq!(tt.probe(key, 0), None);
    }
    let mut rng = SplitMix(cutoff_board::SplitMix64::new(2));
    assert!((0..10_000).all(|_| tt.probe(rng.next(), 0).is_none()));
    // Key 0 round-trips once stored.
    tt.store(0, 0, TtEntry { mv: None, score: 5, eval: 6, depth: 7, bound: Bound::Upper, pv: false });
    assert_eq!(tt.probe(0, 0).map(|e| (e.score, e.eval, e.depth)), Some((5, 6, 7)));
}

#[test]
fn index_in_range_for_any_bucket_count() {
    for buckets in [1, 2, 3, 7, 1000, 16_385] {
        let tt = TranspositionTable::with_buckets(buckets);
        assert_eq!(tt.index(0), 0);
        assert_eq!(tt.index(u64::MAX), buckets - 1);
        let mut rng = SplitMix(cutoff_board::SplitMix64::new(buckets as u64));
        assert!((0..1000).all(|_| tt.index(rng.next()) < buckets));
        // Round trip in a table whose size is no power of two.
        for _ in 0..100 {
            let key = rng.next();
            put(&tt, key, 1);
            assert_eq!(tt.probe(key, 0).map(|e| e.mv), Some(Some(move_for(key))));
        }
    }
}

#[test]
fn storing_without_a_move_keeps_the_old_move() {
    let tt = TranspositionTable::new(1).unwrap();
    let key = 0x1234_5678_9ABC_DEF0;
    tt.store(key, 0, TtEntry { mv: Some(move_for(key)), score: 10, eval: 0, depth: 3, bound: Bound::Lower, pv: false });
    tt.store(key, 0, TtEntry { mv: None, score: 20, eval: 0, depth: 4, bound: Bound::Upper, pv: false });
    let entry = tt.probe(key, 0).unwrap();
    assert_eq!((entry.mv, entry.score, entry.depth, entry.bound), (Some(move_for(key)), 20, 4, Bound::Upper));
    // A new move replaces it.
    let other = move_for(key + 1);
    tt.store(key, 0, TtEntry { mv: Some(other), score: 30, eval: 0, depth: 5, bound: Bound::Exact, pv: false });
    assert_eq!(tt.probe(key, 0).unwrap().mv, Some(other));
    // A different position in the same slot does not inherit the move.
    let tt = TranspositionTable::with_buckets(1);
    for key in 1..=4 {
        put(&tt, key, 10);
    }
    tt.store(5, 0, TtEntry { mv: None, score: 0, eval: 0, depth: 20, bound: Bound::Exact, pv: false });
    assert_eq!(tt.probe(5, 0).unwrap().mv, None);
}

#[test]
fn torn_write_is_rejected() {
    let tt = TranspositionTable::with_buckets(1);
    let (a, b) = (0xAAAA_AAAA_0000_0001, 0xBBBB_BBBB_0000_0002);
    let data_a = pack(Some(move_for(a)), 100, 10, 9, Bound::Exact, false, 0);
    let data_b = pack(Some(move_for(b)), -50, 20, 3, Bound::Lower, true, 0);
    let slot = &tt.buckets[0].entries[0];

    // Both halves of one store: a hit.
    slot.write(a, data_a);
    assert_eq!(tt.probe(a, 0).map(|e| e.score), Some(100));

    // A's check word with B's data word (B's store interrupted A's): neither key hits.
    slot.check.store(a ^ data_a, Ordering::Relaxed);
    slot.data.store(data_b, Ordering::Relaxed);
    assert_eq!(tt.probe(a, 0), None);
    assert_eq!(tt.probe(b, 0), None);

    // B's check word with A's data word: neither key hits either.
    slot.check.store(b ^ data_b, Ordering::Relaxed);
    slot.data.store(data_a, Ordering::Relaxed);
    assert_eq!(tt.probe(a, 0), None);
    assert_eq!(tt.probe(b, 0), None);
}

#[test]
fn packing_round_trips_extremes() {
    for (score, eval, depth) in [(i16::MIN, i16::MAX, i8::MIN), (i16::MAX, i16::MIN, i8::MAX), (0, -1, -1)] {
        for generation in [0, 1, 30, 31] {
            let data = pack(Some(move_for(77)), score, eval, depth, Bound::Upper, true, generation);
            assert_eq!(data_move(data), Some(move_for(77)));
            assert_eq!(data_score(data), i32::from(score));
            assert_eq!(data_eval(data), i32::from(eval));
            assert_eq!(data_depth(data), i32::from(depth));
            assert_eq!(data_bound(data), Some(Bound::Upper));
            assert!(data_pv(data));
            assert_eq!(data_generation(data), generation);
        }
    }
}

#[test]
fn out_of_range_values_saturate() {
    let tt = TranspositionTable::new(1).unwrap();
    tt.store(1, 0, TtEntry { mv: None, score: 40_000, eval: -40_000, depth: 1000, bound: Bound::Exact, pv: false });
    let entry = tt.probe(1, 0).unwrap();
    assert_eq!((entry.score, entry.eval, entry.depth), (i32::from(i16::MAX), i32::from(i16::MIN), 127));
    tt.store(2, 0, TtEntry { mv: None, score: 0, eval: 0, depth: -1000, bound: Bound::Exact, pv: false });
    assert_eq!(tt.probe(2, 0).unwrap().depth, -128);
}

#[test]
fn deeper_entries_survive_in_a_full_bucket() {
    let tt = TranspositionTable::with_buckets(1);
    for (key, depth) in [(1, 4), (2, 8), (3, 2), (4, 6)] {
        put(&tt, key, depth);
    }
    put(&tt, 5, 3); // evicts key 3, the shallowest
    assert_eq!(tt.probe(3, 0), None);
    for key in [1, 2, 4, 5] {
        assert!(tt.probe(key, 0).is_some(), "key {key}");
    }
    put(&tt, 6, 1); // evicts key 5 (depth 3), now the shallowest
    assert_eq!(tt.probe(5, 0), None);
    put(&tt, 7, 20); // evicts key 6 (depth 1)
    assert_eq!(tt.probe(6, 0), None);
    assert_eq!([1, 2, 4, 7].map(|key| tt.probe(key, 0).map(|e| e.depth)), [Some(4), Some(8), Some(6), Some(20)]);
}

#[test]
fn entries_of_earlier_searches_are_replaced() {
    let tt = TranspositionTable::with_buckets(1);
    for key in 1..=4 {
        put(&tt, key, 5);
    }
    tt.new_search();
    // Depth 5 one search old is worth 5 - 8 = -3, less than a fresh depth 1.
    for key in 11..=14 {
        put(&tt, key, 1);
    }
    assert!((1..=4).all(|key| tt.probe(key, 0).is_none()));
    assert!((11..=14).all(|key| tt.probe(key, 0).is_some()));

    // A much deeper old entry still beats a shallow new one...
    let tt = TranspositionTable::with_buckets(1);
    for key in 1..=4 {
        put(&tt, key, 30 + key as i32);
    }
    tt.new_search();
    put(&tt, 5, 2); // the bucket is full: evicts key 1, worth 31 - 8 = 23, the least
    assert_eq!(tt.probe(1, 0), None);
    put(&tt, 6, 2); // evicts key 5 (worth 2), not an old entry (worth 24 to 26)
    assert_eq!(tt.probe(5, 0), None);
    assert!((2..=4).all(|key| tt.probe(key, 0).is_some()));
    // ... until it is old enough.
    for _ in 0..3 {
        tt.new_search();
    }
    put(&tt, 7, 2);
    assert_eq!(tt.probe(6, 0), None, "key 6 (2 - 8 * 3 = -22) is the least worth");
    put(&tt, 8, 2);
    assert_eq!(tt.probe(2, 0), None, "then key 2 (32 - 8 * 4 = 0)");
    assert!([3, 4, 7, 8].iter().all(|&key| tt.probe(key, 0).is_some()));
}

#[test]
fn generation_wraps() {
    let tt = TranspositionTable::with_buckets(1);
    for key in 1..=4 {
        put(&tt, key, 10);
    }
    for _ in 0..32 {
        tt.new_search(); // back to the same 5-bit generation
    }
    assert_eq!(tt.generation(), 0);
    put(&tt, 5, 9); // all four are "current" again: the shallower newcomer evicts one of them
    assert_eq!((1..=5).filter(|&key| tt.probe(key, 0).is_some()).count(), 4);
    for _ in 0..255 {
        tt.new_search();
    }
    assert_eq!(tt.generation(), 31);
}

#[test]
fn same_key_keeps_a_much_deeper_entry() {
    let tt = TranspositionTable::with_buckets(1);
    let key = 42;
    tt.store(
        key,
        0,
        TtEntry { mv: Some(move_for(key)), score: 100, eval: 0, depth: 12, bound: Bound::Lower, pv: false },
    );
    tt.store(key, 0, TtEntry { mv: None, score: 50, eval: 0, depth: 7, bound: Bound::Upper, pv: false }); // 7 + 4 <= 12: kept
    assert_eq!(tt.probe(key, 0).map(|e| (e.score, e.depth)), Some((100, 12)));
    tt.store(key, 0, TtEntry { mv: None, score: 60, eval: 0, depth: 7, bound: Bound::Upper, pv: true }); // 7 + 4 + 2 > 12: replaced
    assert_eq!(tt.probe(key, 0).map(|e| (e.score, e.depth, e.mv)), Some((60, 7, Some(move_for(key)))));
    tt.store(key, 0, TtEntry { mv: None, score: 70, eval: 0, depth: 1, bound: Bound::Exact, pv: false }); // exact always replaces
    assert_eq!(tt.probe(key, 0).map(|e| (e.score, e.bound)), Some((70, Bound::Exact)));
    tt.store(key, 0, TtEntry { mv: None, score: 80, eval: 0, depth: 30, bound: Bound::Lower, pv: false });
    tt.new_search();
    tt.store(key, 0, TtEntry { mv: None, score: 90, eval: 0, depth: 1, bound: Bound::Upper, pv: false }); // earlier search: replaced
    assert_eq!(tt.probe(key, 0).map(|e| (e.score, e.depth)), Some((90, 1)));
    // Only one slot was ever used for the key.
    let used = tt.buckets[0].entries.iter().filter(|e| data_bound(e.data.load(Ordering::Relaxed)).is_some());
    assert_eq!(used.count(), 1);
}

#[test]
fn mate_scores_are_adjusted_for_ply() {
    let tt = TranspositionTable::new(1).unwrap();
    // At ply 5, the side to move mates in 3 more plies: MATE - 8 from the root.
    let key = 0xFEED_FACE_CAFE_BEEF;
    tt.store(key, 5, TtEntry { mv: None, score: MATE - 8, eval: 0, depth: 10, bound: Bound::Exact, pv: true });
    // The same position reached at ply 11 is still a mate in 3 from there.
    assert_eq!(tt.probe(key, 11).unwrap().score, MATE - 14);
    assert_eq!(tt.probe(key, 5).unwrap().score, MATE - 8);
    assert_eq!(tt.probe(key, 0).unwrap().score, MATE - 3);

    // Being mated: at ply 4, mated in 6 plies.
    let key = 0x0BAD_F00D;
    tt.store(key, 4, TtEntry { mv: None, score: -(MATE - 10), eval: 0, depth: 10, bound: Bound::Upper, pv: false });
    assert_eq!(tt.probe(key, 1).unwrap().score, -(MATE - 7));
    assert_eq!(tt.probe(key, 20).unwrap().score, -(MATE - 26));

    // Ordinary scores are not touched, even big ones just below the mate range.
    let key = 77;
    tt.store(
        key,
        30,
        TtEntry { mv: None, score: MATE_IN_MAX_PLY - 1, eval: 0, depth: 1, bound: Bound::Lower, pv: false },
    );
    assert_eq!(tt.probe(key, 3).unwrap().score, MATE_IN_MAX_PLY - 1);

    // The extremes fit the 16-bit field.
    for ply in [0, 1, MAX_PLY / 2, MAX_PLY] {
        for score in [MATE - ply as i32, -(MATE - ply as i32), MATE_IN_MAX_PLY, -MATE_IN_MAX_PLY] {
            let stored = score_to_tt(score, ply);
            assert!(i16::try_from(stored).is_ok(), "{score} at ply {ply}");
            assert_eq!(score_from_tt(stored, ply), score);
        }
    }
}

#[test]
fn hashfull_counts_the_current_search_in_the_first_thousand_entries() {
    let tt = TranspositionTable::new(1).unwrap(); // 16384 buckets
    assert_eq!(tt.hashfull(), 0);
    // Keys `b << 50` (b < 16384) land in bucket b: fill slot 0 of the first 250 buckets.
    for b in 0..250u64 {
        assert_eq!(tt.index(b << 50), b as usize);
        put(&tt, b << 50, 1);
    }
    assert_eq!(tt.hashfull(), 250);
    // Entries outside the sample do not count.
    for b in 250..2000u64 {
        put(&tt, b << 50, 1);
    }
    assert_eq!(tt.hashfull(), 250);
    // Fill the sample, then age it.
    for b in 0..250u64 {
        for i in 1..4 {
            put(&tt, b << 50 | i, 1);
        }
    }
    assert_eq!(tt.hashfull(), 1000);
    tt.new_search();
    assert_eq!(tt.hashfull(), 0);
    for b in 0..125u64 {
        put(&tt, b << 50 | 9, 1);
    }
    assert_eq!(tt.hashfull(), 125);
    tt.clear();
    assert_eq!(tt.hashfull(), 0);
    // Tiny tables sample what they have.
    let tt = TranspositionTable::with_buckets(2);
    put(&tt, 0, 1);
    assert_eq!(tt.hashfull(), 125);
}

#[test]
fn resize_bounds() {
    let mut tt = TranspositionTable::new(1).unwrap();
    assert_eq!(tt.buckets.len(), 16_384);
    put(&tt, 3, 3);
    for mib in [0, MAX_MIB + 1, usize::MAX] {
        assert_eq!(tt.resize(mib), Err(ResizeError::OutOfRange { mib }));
        assert_eq!(TranspositionTable::new(mib).unwrap_err(), ResizeError::OutOfRange { mib });
    }
    assert_eq!(tt.size_mib(), 1);
    assert!(tt.probe(3, 0).is_some(), "a refused resize leaves the table alone");

    tt.resize(2).unwrap();
    assert_eq!((tt.size_mib(), tt.buckets.len()), (2, 32_768));
    assert_eq!(tt.probe(3, 0), None);
    put(&tt, 3, 3);
    tt.new_search();
    tt.resize(2).unwrap(); // same size: cleared in place
    assert_eq!((tt.probe(3, 0), tt.generation()), (None, 0));
    tt.resize(MIN_MIB).unwrap();
    assert_eq!(tt.size_mib(), MIN_MIB);
    // `MAX_MIB` itself is in range; it is not allocated here.
    assert_eq!(check_range(MAX_MIB), Ok(()));
    assert_eq!(buckets_for(MAX_MIB), Some(1 << 30));
    assert_eq!(ResizeError::AllocationFailed { mib: 9 }.to_string(), "could not allocate 9 MiB of hash");
}

#[test]
fn clear_with_threads_empties_every_bucket() {
    for threads in [0, 1, 2, 3, 7] {
        let tt = TranspositionTable::with_buckets(1001);
        let mut rng = SplitMix(cutoff_board::SplitMix64::new(threads as u64));
        for _ in 0..5000 {
            put(&tt, rng.next(), 1);
        }
        tt.new_search();
        tt.clear_with_threads(threads);
        assert_eq!(tt.generation(), 0);
        let all_zero = tt
            .buckets
            .iter()
            .flat_map(|b| &b.entries)
            .all(|e| e.check.load(Ordering::Relaxed) == 0 && e.data.load(Ordering::Relaxed) == 0);
        assert!(all_zero, "{threads} threads");
    }
    // More threads than buckets.
    let tt = TranspositionTable::with_buckets(2);
    put(&tt, 1, 1);
    tt.clear_with_threads(16);
    assert_eq!(tt.probe(1, 0), None);
}

/// Two threads store and probe a small pool of keys in a tiny table, so that they fight over
/// the same slots. Every entry stored for key `k` satisfies: score == 3 * depth,
/// eval == -score, move == move_for(k), bound and pv derived from k. A torn or mixed entry
/// would break it; every hit must satisfy it.
#[test]
fn concurrent_store_and_probe_never_return_a_mixed_entry() {
    fn bound_for(key: u64) -> Bound {
        [Bound::Upper, Bound::Lower, Bound::Exact][(key >> 40) as usize % 3]
    }
    fn hammer(tt: &TranspositionTable, keys: &[u64], seed: u64, iterations: usize) -> usize {
        let mut rng = SplitMix(cutoff_board::SplitMix64::new(seed));
        let mut hits = 0;
        for _ in 0..iterations {
            let r = rng.next();
            let key = keys[r as usize % keys.len()];
            let depth = (r >> 32) as i32 % 100;
            tt.store(
                key,
                0,
                TtEntry {
                    mv: Some(move_for(key)),
                    score: 3 * depth,
                    eval: -3 * depth,
                    depth,
                    bound: bound_for(key),
                    pv: key & 1 == 1,
                },
            );
            let probed = keys[(r >> 16) as usize % keys.len()];
            for key in [key, probed] {
                if let Some(entry) = tt.probe(key, 0) {
                    hits += 1;
                    assert_eq!(entry.score, 3 * entry.depth, "{entry:?}");
                    assert_eq!(entry.eval, -entry.score, "{entry:?}");
                    assert_eq!(entry.mv, Some(move_for(key)), "{entry:?}");
                    assert_eq!(entry.bound, bound_for(key), "{entry:?}");
                    assert_eq!(entry.pv, key & 1 == 1, "{entry:?}");
                }
            }
        }
        hits
    }

    let mut rng = SplitMix(cutoff_board::SplitMix64::new(99));
    let keys: Vec<u64> = (0..64).map(|_| rng.next()).collect();
    for tt in [TranspositionTable::with_buckets(2), TranspositionTable::new(1).unwrap()] {
        let hits: usize = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..2)
                .map(|t| {
                    scope.spawn({
                        let (tt, keys) = (&tt, &keys);
                        move || hammer(tt, keys, t, 50_000)
                    })
                })
                .collect();
            workers.into_iter().map(|w| w.join().unwrap()).sum()
        });
        assert!(hits > 0);
        // Whatever survived is consistent too.
        assert!(hammer(&tt, &keys, 7, 1000) > 0);
    }
}
