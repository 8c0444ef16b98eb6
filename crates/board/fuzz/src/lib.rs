//! Shared pieces of the fuzz targets: a fixed list of positions and consistency checks.

use cutoff_board::{CastlingMode, Board, GenKind, Move, MoveList};

/// Positions chosen for variety: castling (standard and Chess960, king next to its rook),
/// en passant (also pinned), promotions, checks, and SAN ambiguity. `(FEN, chess960)`.
pub const POSITIONS: [(&str, bool); 18] = [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", false),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", false),
    ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", false),
    ("rnbqkb1r/pp1p1ppp/5n2/2pPp3/8/8/PPP1PPPP/RNBQKBNR w KQkq c6 0 4", false),
    ("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", false),
    ("8/8/8/KPp4r/8/8/8/7k w - c6 0 2", false),
    ("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1", false),
    ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", false),
    ("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1", false),
    ("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", false),
    ("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true),
    ("2r1kr2/8/8/8/8/8/8/1R2K1R1 w GBfc - 0 1", true),
    ("1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1", true),
    ("1k5r/8/8/8/8/8/8/RK6 w Ah - 0 1", true),
    ("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", true),
];

/// The position selected by `selector` (modulo the list length).
pub fn position(selector: u8) -> Board {
    let (fen, chess960) = POSITIONS[selector as usize % POSITIONS.len()];
    match Board::from_fen(fen, CastlingMode::from_chess960(chess960)) {
        Ok(b) => b,
        Err(e) => panic!("fuzz position {fen} is invalid: {e}"),
    }
}

/// Checks that hold in every valid position; returns the legal moves.
pub fn check_board(b: &Board) -> MoveList {
    let fen = b.fen().to_string();
    assert_eq!(b.compute_keys(), (b.key(), b.pawn_key()), "keys in {fen}");
    assert_eq!(b.validate(), Ok(()), "validate() in {fen}");

    let (mut noisy, mut quiet, mut all) = (MoveList::new(), MoveList::new(), MoveList::new());
    b.generate(GenKind::Noisy, &mut noisy);
    b.generate(GenKind::Quiet, &mut quiet);
    b.generate(GenKind::All, &mut all);
    assert!(noisy.iter().all(|m| m.is_noisy()), "Noisy in {fen}");
    assert!(quiet.iter().all(|m| !m.is_noisy()), "Quiet in {fen}");
    let mut union: Vec<u16> = noisy.iter().chain(&quiet).map(|m| m.raw()).collect();
    let mut sorted_all: Vec<u16> = all.iter().map(|m| m.raw()).collect();
    union.sort_unstable();
    sorted_all.sort_unstable();
    assert_eq!(union, sorted_all, "Noisy ∪ Quiet vs All in {fen}");
    sorted_all.dedup();
    assert_eq!(sorted_all.len(), all.len(), "duplicate moves in {fen}");
    assert_eq!(b.count_moves(), all.len() as u64, "count_moves in {fen}");
    for &mv in &all {
        assert!(b.is_legal(mv), "is_legal({mv:?}) in {fen}");
    }

    let again = match Board::from_fen(&fen, b.castling_mode()) {
        Ok(again) => again,
        Err(e) => panic!("FEN {fen} does not read back: {e}"),
    };
    assert_eq!(again, *b, "FEN round trip of {fen}");
    assert_eq!(b.mirrored().mirrored(), *b, "mirrored twice in {fen}");
    all
}

/// Plays `mv` (legal) and checks the result: `try_play`, `play_unchecked` and `make_move`
/// agree, and `unmake_move` restores the board.
pub fn play_and_check(b: &Board, mv: Move) -> Board {
    let mut child = *b;
    child.play_unchecked(mv);
    let mut tried = *b;
    assert_eq!(tried.try_play(mv), Ok(()), "try_play({mv:?}) in {}", b.fen());
    assert_eq!(tried, child, "try_play vs play_unchecked of {mv:?} in {}", b.fen());
    let mut made = *b;
    let undo = made.make_move(mv);
    assert_eq!(made, child, "make_move vs play_unchecked of {mv:?} in {}", b.fen());
    made.unmake_move(mv, undo);
    assert_eq!(made, *b, "unmake_move of {mv:?} in {}", b.fen());
    child
}
