//! Property tests over the positions of both perft suites (`standard.epd`, 128 lines, and
//! `chess960.epd`, 960 lines), walking the legal move tree from each position.
//!
//! "Ply 0" is the suite position itself; a node at ply `n` is reached by `n` legal moves.
//! The walk visits **every node to ply 3 from every line of both suites** (about 21 million
//! nodes) and runs there:
//!
//! * **cheap checks** — `key()` and `pawn_key()` equal `compute_keys()`; `validate()` accepts
//!   the position; `in_check()` agrees with `is_attacked` on the king; `Noisy ∪ Quiet = All`
//!   and `Noisy ∩ Quiet = ∅` as sets (and `All` has no duplicates); every noisy move
//!   `is_noisy()` and no quiet one does; `count_moves() == All.len()`; `has_legal_moves()`
//!   agrees; `is_legal` is true for every generated move.
//! * **make/unmake** — the walk itself uses `make_move`/`unmake_move`: at every node above
//!   ply 3, for every legal move, `make_move` gives the same `Board` as copy +
//!   `play_unchecked`, and `unmake_move` restores the `Board` exactly (so the keys are checked
//!   after every move, and again after every take-back).
//!
//! Up to a smaller depth (table below) it also runs the **expensive checks**:
//!
//! * `is_legal(m) == (m ∈ All)` for "near misses" (the from/to of every generated move with
//!   each of the other 12 valid flag values) and for 48 pseudo-random 16-bit values
//!   (SplitMix64, fixed seed per line): 16 plain `u16`s and 32 with the origin forced onto a
//!   random piece of the side to move. For each of these, `try_play` succeeds exactly for the
//!   legal ones (and then equals `play_unchecked`) and otherwise leaves the board unchanged.
//! * FEN round trip: `Board::from_fen(&b.fen().to_string(), b.castling_mode()) == Ok(b)`. (The
//!   separate test `fen_round_trip_gives_an_equal_board` checks this deeper: every node to
//!   ply 3 in the standard suite and to ply 2 in the Chess960 suite.)
//! * SAN round trip `parse_san(san(m)) == Ok(m)` and UCI round trip `parse_uci(uci(m)) ==
//!   Ok(m)` for every legal move; the SAN strings (without check marks) and the UCI strings of
//!   the legal moves are pairwise distinct.
//! * `mirrored().mirrored() == b`; the mirror has consistent keys, validates, and has the same
//!   number of legal moves.
//!
//! | lines | cheap checks and make/unmake to ply | expensive checks to ply |
//! | --- | --- | --- |
//! | standard: all 128 | 3 | 2 |
//! | standard: every 8th line (16 lines, from the first) | 3 | 3 |
//! | chess960: all 960 | 3 | 1 |
//! | chess960: one line in 24 (40 lines) | 3 | 2 |
//!
//! That is 530,009 nodes (79,037 with the expensive checks, 22.6 million `is_legal` probes)
//! for the standard suite and 20,608,958 nodes (54,715 expensive, 20.2 million probes) for the
//! Chess960 suite.
//!
//! At the **root** of every line of both suites, additionally: `is_legal(m) == (m ∈ All)`
//! for **all** 16-bit values that `Move::from_raw` accepts, and `mirrored().perft(2) ==
//! perft(2)`.
//!
//! Run time in the dev profile: about 40 s of CPU in all, so about 20 s on two free cores
//! (38 s when the machine was shared). The Chess960 suite is split over four tests so the test
//! harness can spread it over the cores.

mod common;

use std::fmt;

use common::TestRng;
use cutoff_board::{Board, CastlingMode, GenKind, Move, MoveList};

/// How deep (in plies from the suite position) each group of checks runs; the walk goes
/// `cheap` plies deep.
#[derive(Clone, Copy, Debug)]
struct Depths {
    cheap: u32,
    expensive: u32,
}

/// The moves from the suite position to the current node, for failure messages.
struct Path<'a> {
    root: &'a str,
    moves: &'a [Move],
    board: &'a Board,
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\n  root: {}\n  moves:", self.root)?;
        for mv in self.moves {
            write!(f, " {mv:?}")?;
        }
        write!(f, "\n  node: {}", self.board.fen())
    }
}

#[derive(Default, Debug)]
struct Stats {
    nodes: u64,
    expensive_nodes: u64,
    is_legal_probes: u64,
}

/// The 13 flag values (bits 12–15) that `Move::from_raw` accepts.
const FLAGS: [u16; 13] = [0, 1, 2, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15];

fn sorted_raw(moves: &[Move]) -> Vec<u16> {
    let mut v: Vec<u16> = moves.iter().map(|m| m.raw()).collect();
    v.sort_unstable();
    v
}

fn check_keys(b: &Board, path: &Path) {
    assert_eq!((b.key(), b.pawn_key()), b.compute_keys(), "incremental keys differ from compute_keys(){path}");
    assert_eq!(b.validate(), Ok(()), "validate(){path}");
    let us = b.side_to_move();
    assert_eq!(b.in_check(), b.is_attacked(b.king(us), !us), "in_check(){path}");
}

fn sort_by_raw(moves: &mut MoveList) {
    moves.sort_unstable_by_key(|m| m.raw());
}

/// The cheap checks; returns all legal moves. (No heap allocation: this runs at millions of nodes.)
fn check_cheap(b: &Board, path: &Path) -> MoveList {
    let (mut noisy, mut quiet, mut all) = (MoveList::new(), MoveList::new(), MoveList::new());
    b.generate(GenKind::Noisy, &mut noisy);
    b.generate(GenKind::Quiet, &mut quiet);
    b.generate(GenKind::All, &mut all);

    for mv in &noisy {
        assert!(mv.is_noisy(), "GenKind::Noisy produced {mv:?}, which is not is_noisy(){path}");
    }
    for mv in &quiet {
        assert!(!mv.is_noisy(), "GenKind::Quiet produced {mv:?}, which is_noisy(){path}");
    }
    let mut all_sorted = all.clone();
    sort_by_raw(&mut all_sorted);
    assert!(all_sorted.windows(2).all(|w| w[0] != w[1]), "GenKind::All has duplicates: {all:?}{path}");
    // With `All` free of duplicates, `sorted(Noisy ++ Quiet) == sorted(All)` means both
    // `Noisy ∪ Quiet = All` and `Noisy ∩ Quiet = ∅` (a common move would appear twice).
    let mut union = noisy.clone();
    let fits = union.try_extend_from_slice(&quiet).is_ok();
    sort_by_raw(&mut union);
    if !fits || union != all_sorted {
        let common: Vec<Move> = noisy.iter().copied().filter(|m| quiet.contains(m)).collect();
        assert!(common.is_empty(), "Noisy ∩ Quiet = {common:?}, expected ∅{path}");
        panic!("Noisy ∪ Quiet != All (noisy {noisy:?}, quiet {quiet:?}, all {all:?}){path}");
    }

    assert_eq!(b.count_moves(), all.len() as u64, "count_moves() != All.len(){path}");
    assert_eq!(b.has_legal_moves(), !all.is_empty(), "has_legal_moves(){path}");
    for &mv in &all {
        assert!(b.is_legal(mv), "is_legal({mv:?}) is false for a generated move{path}");
    }
    all
}

/// `is_legal(mv)` must equal membership in `legal` (sorted raw values); `try_play` must agree.
fn probe(b: &Board, mv: Move, legal: &[u16], path: &Path) {
    let expected = legal.binary_search(&mv.raw()).is_ok();
    assert_eq!(b.is_legal(mv), expected, "is_legal({mv:?}) (raw {:#06x}){path}", mv.raw());
    let mut tried = *b;
    match tried.try_play(mv) {
        Ok(()) => {
            assert!(expected, "try_play accepted illegal {mv:?}{path}");
            let mut made = *b;
            made.play_unchecked(mv);
            assert_eq!(tried, made, "try_play({mv:?}) != play_unchecked{path}");
        }
        Err(e) => {
            assert!(!expected, "try_play rejected legal {mv:?}{path}");
            assert_eq!(e.mv, mv);
            assert_eq!(tried, *b, "try_play({mv:?}) changed the board although it failed{path}");
        }
    }
}

fn check_expensive(b: &Board, all: &MoveList, rng: &mut TestRng, stats: &mut Stats, path: &Path) {
    let legal = sorted_raw(all);
    let m = b.mirrored();

    // Near misses: every generated move's from/to with every other flag.
    for mv in all {
        let base = mv.raw() & 0x0FFF;
        for flag in FLAGS {
            let raw = base | flag << 12;
            if raw == mv.raw() {
                continue;
            }
            let near = Move::from_raw(raw).expect("a valid flag with from != to is a move");
            probe(b, near, &legal, path);
            stats.is_legal_probes += 1;
        }
    }
    // Random values, and random values that start on one of our pieces.
    let ours: Vec<u16> = b.colored(b.side_to_move()).into_iter().map(|sq| sq as u16).collect();
    for i in 0..48 {
        let mut raw = rng.next_u64() as u16;
        if i >= 16 {
            raw = (raw & !63) | ours[rng.below(ours.len() as u64) as usize];
        }
        if let Some(mv) = Move::from_raw(raw) {
            probe(b, mv, &legal, path);
            stats.is_legal_probes += 1;
        }
    }

    // FEN round trip.
    let fen = b.fen().to_string();
    let parsed = Board::from_fen(&fen, b.castling_mode()).unwrap_or_else(|e| panic!("FEN {fen} rejected: {e}{path}"));
    assert_eq!(parsed, *b, "FEN round trip of {fen}{path}");

    // SAN and UCI round trips, and distinct strings.
    let mut sans = Vec::with_capacity(all.len());
    let mut ucis = Vec::with_capacity(all.len());
    for &mv in all {
        let san = b.san(mv);
        assert_eq!(b.parse_san(san.as_str()), Ok(mv), "SAN round trip of {mv:?} via {san}{path}");
        let uci = b.uci(mv).to_string();
        assert_eq!(b.parse_uci(&uci), Ok(mv), "UCI round trip of {mv:?} via {uci}{path}");
        sans.push(san.as_str().trim_end_matches(['+', '#']).to_string());
        ucis.push(uci);
    }
    for (name, mut v) in [("SAN", sans), ("UCI", ucis)] {
        let n = v.len();
        v.sort_unstable();
        v.dedup();
        assert_eq!(v.len(), n, "two legal moves share a {name} string{path}");
    }

    // Mirror.
    assert_eq!(m.mirrored(), *b, "mirrored().mirrored(){path}");
    assert_eq!((m.key(), m.pawn_key()), m.compute_keys(), "keys of mirrored(){path}");
    assert_eq!(m.validate(), Ok(()), "validate() of mirrored(){path}");
    assert_eq!(m.count_moves(), all.len() as u64, "mirrored() has a different number of moves{path}");
}

fn walk(
    b: &mut Board,
    ply: u32,
    depths: Depths,
    root: &str,
    moves: &mut Vec<Move>,
    rng: &mut TestRng,
    stats: &mut Stats,
) {
    stats.nodes += 1;
    let path = Path { root, moves, board: b };
    check_keys(b, &path);
    let all = check_cheap(b, &path);
    if ply <= depths.expensive {
        stats.expensive_nodes += 1;
        check_expensive(b, &all, rng, stats, &path);
    }
    if ply >= depths.cheap {
        return;
    }
    // Walk with make/unmake, checking each step against copy-make.
    let before = *b;
    for mv in all {
        let mut copied = before;
        copied.play_unchecked(mv);
        let undo = b.make_move(mv);
        moves.push(mv);
        if *b != copied {
            let path = Path { root, moves, board: &before };
            panic!("make_move gives {b:?}, play_unchecked gives {copied:?}{path}");
        }
        walk(b, ply + 1, depths, root, moves, rng, stats);
        b.unmake_move(mv, undo);
        if *b != before {
            let path = Path { root, moves, board: &before };
            panic!("unmake_move gives {b:?} instead of {before:?}{path}");
        }
        moves.pop();
    }
}

/// The root-only checks: `is_legal` against every 16-bit value, and the mirrored perft(2).
fn check_root(b: &Board, root: &str) -> u64 {
    let path = Path { root, moves: &[], board: b };
    let legal = sorted_raw(&b.legal_moves());
    let mut found = 0;
    for raw in 0..=u16::MAX {
        if let Some(mv) = Move::from_raw(raw) {
            let expected = legal.binary_search(&raw).is_ok();
            assert_eq!(b.is_legal(mv), expected, "is_legal({mv:?}) (raw {raw:#06x}){path}");
            found += u64::from(expected);
        }
    }
    assert_eq!(found, legal.len() as u64, "some generated moves are not accepted by from_raw{path}");
    assert_eq!(b.mirrored().perft(2), b.perft(2), "mirrored().perft(2) != perft(2){path}");
    found
}

/// Runs the walk over the lines of `suite` whose index `i` satisfies `i % stride == offset`
/// (for splitting a suite across test threads), with `deep` depths on one line in `subset`.
fn run(suite: &str, stride: usize, offset: usize, normal: Depths, deep: Depths, subset: usize) -> Stats {
    let mut stats = Stats::default();
    let mut root_moves = 0;
    for (i, line) in common::suite(suite).into_iter().enumerate() {
        if i % stride != offset {
            continue;
        }
        let mut board = Board::from_fen(&line.fen, CastlingMode::from_chess960(line.chess960))
            .unwrap_or_else(|e| panic!("{}: {e}", line.fen));
        root_moves += check_root(&board, &line.fen);
        // Every `subset`-th line of this thread's share, so the threads get equal shares.
        let depths = if (i / stride).is_multiple_of(subset) { deep } else { normal };
        let mut rng = TestRng::new(0xC0FF_EE00 ^ (i as u64) << 16 ^ suite.len() as u64);
        walk(&mut board, 0, depths, &line.fen, &mut Vec::new(), &mut rng, &mut stats);
    }
    assert!(root_moves > 0 && stats.nodes > 0, "nothing checked: {stats:?}");
    eprintln!("{suite} ({offset} mod {stride}): {stats:?}");
    stats
}

const STANDARD: Depths = Depths { cheap: 3, expensive: 2 };
const STANDARD_DEEP: Depths = Depths { cheap: 3, expensive: 3 };
const STANDARD_SUBSET: usize = 8;
const FRC: Depths = Depths { cheap: 3, expensive: 1 };
const FRC_DEEP: Depths = Depths { cheap: 3, expensive: 2 };
const FRC_SUBSET: usize = 24;

#[test]
fn standard_suite_properties() {
    run("standard.epd", 1, 0, STANDARD, STANDARD_DEEP, STANDARD_SUBSET);
}

// The Chess960 suite is split four ways so that the test harness can spread it over threads.
#[test]
fn chess960_suite_properties_0() {
    run("chess960.epd", 4, 0, FRC, FRC_DEEP, FRC_SUBSET);
}

#[test]
fn chess960_suite_properties_1() {
    run("chess960.epd", 4, 1, FRC, FRC_DEEP, FRC_SUBSET);
}

#[test]
fn chess960_suite_properties_2() {
    run("chess960.epd", 4, 2, FRC, FRC_DEEP, FRC_SUBSET);
}

#[test]
fn chess960_suite_properties_3() {
    run("chess960.epd", 4, 3, FRC, FRC_DEEP, FRC_SUBSET);
}

/// `Board::from_fen(&b.fen().to_string(), b.castling_mode()) == Ok(b)` at every node.
fn fen_walk(b: &Board, depth: u32, root: &str, moves: &mut Vec<Move>) {
    let fen = b.fen().to_string();
    let path = Path { root, moves, board: b };
    assert_eq!(Board::from_fen(&fen, b.castling_mode()), Ok(*b), "FEN round trip of {fen}{path}");
    if depth == 0 {
        return;
    }
    for mv in b.legal_moves() {
        let mut child = *b;
        child.play_unchecked(mv);
        moves.push(mv);
        fen_walk(&child, depth - 1, root, moves);
        moves.pop();
    }
}

/// The FEN round trip must give back an equal `Board` (standard suite to ply 3, Chess960
/// suite to ply 2: deeper than the expensive checks, which also include it).
///
/// This found a bug, fixed in 9f6bc9c ("castling-rook normalisation"): in Chess960 the board
/// kept the square of a castling rook after the right was lost, and the derived `PartialEq`
/// compared it. Reproducer (chess960): `bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR
/// w HFhf - 2 9` + `g1f2`.
#[test]
fn fen_round_trip_gives_an_equal_board() {
    for (name, depth) in [("standard.epd", 3), ("chess960.epd", 2)] {
        for line in common::suite(name) {
            let board = Board::from_fen(&line.fen, CastlingMode::from_chess960(line.chess960))
                .unwrap_or_else(|e| panic!("{}: {e}", line.fen));
            fen_walk(&board, depth, &line.fen, &mut Vec::new());
        }
    }
}
