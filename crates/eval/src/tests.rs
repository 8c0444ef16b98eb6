//! Unit tests of the internal pieces: pawn-structure features and table orientation.

use cutoff_board::{Board, CastlingMode, Color, PieceType, Square};

use crate::params::*;
use crate::{PawnCache, Score, Term, trace};

fn board(fen: &str) -> Board {
    Board::from_fen(fen, CastlingMode::Standard).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn pawn_scores(fen: &str) -> [Score; 2] {
    crate::pawns::entry(&board(fen)).scores
}

#[test]
fn isolated_pawns() {
    // White: b2 and d2 are both isolated; Black's full row keeps them from being passed.
    let [w, _] = pawn_scores("4k3/pppppppp/8/8/8/8/1P1P4/4K3 w - - 0 1");
    assert_eq!(w, PAWN_ISOLATED * 2);
}

#[test]
fn doubled_pawns() {
    // d2 + d3: both isolated, the rear one doubled. d3 also has its stop square d4 free of
    // attacks (Black's pawns are on rank 7), so no backward pawn.
    let [w, _] = pawn_scores("4k3/pppppppp/8/8/8/3P4/3P4/4K3 w - - 0 1");
    assert_eq!(w, PAWN_ISOLATED * 2 + PAWN_DOUBLED);
}

#[test]
fn connected_pawns() {
    // c2-d2 phalanx; e3 defended by d2, and itself beside nothing.
    let [w, _] = pawn_scores("4k3/pppppppp/8/8/8/4P3/2PP4/4K3 w - - 0 1");
    assert_eq!(w, PAWN_CONNECTED[1] * 2 + PAWN_CONNECTED[2]);
}

#[test]
fn passed_pawns_by_rank() {
    // A lone white pawn is passed (and isolated); Black has no pawns.
    for (fen, rank) in [("4k3/8/8/8/8/P7/8/4K3 w - - 0 1", 2), ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", 6)] {
        let [w, b] = pawn_scores(fen);
        assert_eq!(w, PAWN_PASSED[rank] + PAWN_ISOLATED, "{fen}");
        assert_eq!(b, Score::ZERO);
    }
    // Black's a2 pawn is on Black's 7th rank.
    let [_, b] = pawn_scores("4k3/8/8/8/8/8/p7/4K3 b - - 0 1");
    assert_eq!(b, PAWN_PASSED[6] + PAWN_ISOLATED);
    // An enemy pawn on an adjacent file ahead stops it from being passed.
    let [w, _] = pawn_scores("4k3/1p6/8/8/8/P7/8/4K3 w - - 0 1");
    assert_eq!(w, PAWN_ISOLATED);
}

#[test]
fn backward_pawn() {
    // White d3 with its only neighbour c4 ahead of it: d3's stop square d4 is attacked by
    // Black's e5 pawn, so d3 is backward (and not passed: e5 is ahead on an adjacent file).
    // c4 is defended by d3 and has no black pawn ahead on the b, c or d files: passed.
    let [w, _] = pawn_scores("4k3/8/8/4p3/2P5/3P4/8/4K3 w - - 0 1");
    let c4 = PAWN_CONNECTED[3] + PAWN_PASSED[3]; // defended by d3
    let d3 = PAWN_BACKWARD;
    assert_eq!(w, c4 + d3);
}

#[test]
fn psqt_orientation() {
    // A white knight on f3 and a black knight on f6 read the same table entry: the tables are
    // drawn rank 8 first, so f3 is row 6 of 8 (index 5 * 8 + 5 = 45).
    let b = board("4k3/8/5n2/8/8/5N2/8/4K3 w - - 0 1");
    let t = trace(&b);
    assert_eq!(Square::F3.flip_rank() as usize, 45);
    let king_w = PSQT[PieceType::King as usize][Square::E1.flip_rank() as usize];
    let knight = PSQT[PieceType::Knight as usize][45];
    assert_eq!(PSQT_KNIGHT[45], knight);
    assert_eq!(t.get(Term::Psqt, Color::White), knight + king_w);
    assert_eq!(t.get(Term::Psqt, Color::White), t.get(Term::Psqt, Color::Black));
    // A white pawn on g2 reads the row above the last one (index 6 * 8 + 6 = 54); the king
    // on g1 the last row (62).
    let g2 = board("4k3/8/8/8/8/8/6P1/4K3 w - - 0 1");
    let e1 = PSQT[PieceType::King as usize][Square::E1.flip_rank() as usize];
    assert_eq!(trace(&g2).get(Term::Psqt, Color::White), PSQT_PAWN[54] + e1);
    assert_eq!(Square::G1.flip_rank() as usize, 62);
}

#[test]
fn cache_matches_and_replaces() {
    let mut cache = PawnCache::new(1);
    assert_eq!(cache.len(), 1);
    for fen in
        ["4k3/pppppppp/8/8/8/8/1P1P4/4K3 w - - 0 1", "4k3/8/8/8/8/P7/8/4K3 w - - 0 1", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"]
    {
        let b = board(fen);
        assert_eq!(cache.probe(&b), crate::pawns::entry(&b));
        assert_eq!(cache.probe(&b), crate::pawns::entry(&b));
    }
    cache.clear();
    assert_eq!(PawnCache::default().len(), PawnCache::DEFAULT_ENTRIES);
    assert!(!cache.is_empty());
}

#[test]
fn king_shelter_and_attack() {
    // Castled white king with an intact shield vs. one with the g-pawn gone.
    let intact = trace(&board("6k1/8/8/8/8/8/5PPP/6K1 w - - 0 1"));
    let broken = trace(&board("6k1/8/8/8/8/8/5P1P/6K1 w - - 0 1"));
    assert_eq!(intact.get(Term::KingSafety, Color::White), KING_SHIELD_NEAR * 3);
    assert_eq!(broken.get(Term::KingSafety, Color::White), KING_SHIELD_NEAR * 2 + KING_SEMI_OPEN_FILE + KING_OPEN_FILE);
    // Two attackers on the zone around g1 (queen on h3: g2, h2, g3... rook on f8 looks at f1, f2, f3).
    let attacked = trace(&board("5r1k/8/8/8/8/7q/5PPP/6K1 w - - 0 1"));
    assert!(attacked.get(Term::KingSafety, Color::White).mg() < intact.get(Term::KingSafety, Color::White).mg());
}
