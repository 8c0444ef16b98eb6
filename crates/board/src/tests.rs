//! Unit tests of rules that perft counts alone would not pin down clearly.

use alloc::string::ToString;

use crate::{Board, CastlingMode, CastlingSide, Color, Game, GenKind, MoveList, Outcome, PieceType, Square};

fn board(fen: &str) -> Board {
    Board::from_fen(fen, CastlingMode::Standard).unwrap()
}

fn board960(fen: &str) -> Board {
    Board::from_fen(fen, CastlingMode::Chess960).unwrap()
}

/// The largest threshold `t` with `see_ge(mv, t)`, found by checking both sides of `value`.
fn assert_see(fen: &str, uci: &str, value: i32) {
    let b = board(fen);
    let mv = b.parse_uci(uci).unwrap();
    assert!(b.see_ge(mv, value), "{fen} {uci}: see >= {value} expected");
    assert!(!b.see_ge(mv, value + 1), "{fen} {uci}: see > {value} not expected");
}

#[test]
fn see_values() {
    // Rook takes a pawn defended by a pawn.
    assert_see("4k3/8/2p5/3p4/8/8/3R4/4K3 w - - 0 1", "d2d5", 100 - 500);
    // X-ray: the second white rook recaptures through the first.
    assert_see("3r2k1/8/8/3p4/8/8/3R4/3R3K w - - 0 1", "d2d5", 100);
    // Undefended pawn.
    assert_see("6k1/8/8/3p4/8/8/3R4/7K w - - 0 1", "d2d5", 100);
    // Promotion onto a square the enemy rook covers: +800, then the queen is lost.
    assert_see("r6k/4P3/8/8/8/8/8/1K6 w - - 0 1", "e7e8q", 800 - 900);
    assert_see("7k/4P3/8/8/8/8/8/K7 w - - 0 1", "e7e8q", 800);
    // Under-promotion counts the new piece.
    assert_see("7k/4P3/8/8/8/8/8/K7 w - - 0 1", "e7e8n", 200);
    // En passant: the captured pawn is not on the target square.
    assert_see("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 100);
    assert_see("4k3/2p5/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 0);
    // The king may not recapture a defended piece: the rook x-rays through the queen.
    assert_see("8/8/4k3/3p4/8/8/3Q4/3RK3 w - - 0 1", "d2d5", 100);
    // ... but it may when nothing defends.
    assert_see("8/8/4k3/3p4/8/8/3Q4/4K3 w - - 0 1", "d2d5", 100 - 900);
    // Quiet move to an attacked square loses the piece.
    assert_see("4k3/8/8/3p4/8/8/8/2N1K3 w - - 0 1", "c1b3", 0);
    assert_see("4k3/8/2p5/8/8/8/8/2N1K3 w - - 0 1", "c1b3", 0);
    assert_see("4k3/8/8/2p5/8/8/8/2N1K3 w - - 0 1", "c1d3", 0);
    assert_see("4k3/8/8/8/2p5/8/8/2N1K3 w - - 0 1", "c1d3", -300);
    // Castling is neutral.
    assert_see("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", 0);
}

fn has_castle(b: &Board) -> bool {
    b.legal_moves().iter().any(|m| m.is_castle())
}

#[test]
fn chess960_castling_rook_shields_king() {
    // Queen-side castling leaves the king on c1, where the a1 rook attacks once b1 is empty.
    let b = board960("4k3/8/8/8/8/8/8/rRK5 w B - 0 1");
    assert!(!has_castle(&b));
    // Without the black rook it is legal, and the king does not move.
    let b = board960("4k3/8/8/8/8/8/8/1RK5 w B - 0 1");
    let castle = b.parse_uci("c1b1").unwrap();
    let mut after = b;
    after.play(castle);
    assert_eq!(after.piece_on(Square::C1).map(|p| p.kind()), Some(PieceType::King));
    assert_eq!(after.piece_on(Square::D1).map(|p| p.kind()), Some(PieceType::Rook));
    assert_eq!(after.castling_rook(Color::White, CastlingSide::Queen), None);
}

#[test]
fn chess960_king_and_rook_swap_and_stationary_king() {
    let b = board960("4k3/8/8/8/8/8/8/5KR1 w G - 0 1");
    let mut after = b;
    after.play(b.parse_uci("f1g1").unwrap());
    assert_eq!(after.king(Color::White), Square::G1);
    assert_eq!(after.piece_on(Square::F1).map(|p| p.kind()), Some(PieceType::Rook));
    assert_eq!(b.san(b.parse_uci("f1g1").unwrap()).as_str(), "O-O");

    let b = board960("4k3/8/8/8/8/8/8/6KR w H - 0 1");
    let mv = b.parse_uci("g1h1").unwrap();
    assert!(mv.is_castle());
    let mut after = b;
    after.play(mv);
    assert_eq!(after.king(Color::White), Square::G1);
    assert_eq!(after.piece_on(Square::F1).map(|p| p.kind()), Some(PieceType::Rook));
    assert_eq!(after.fen().to_string(), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
}

#[test]
fn castling_through_attacked_square() {
    let b = board("r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1");
    assert!(b.parse_uci("e1g1").is_err());
    assert!(b.parse_uci("e1c1").unwrap().is_castle());
    // b1 may be attacked for queen-side castling: only the king's path counts.
    let b = board("r3k2r/8/8/8/8/8/1r6/R3K2R w KQkq - 0 1");
    assert!(b.parse_uci("e1c1").unwrap().is_castle());
    // In check: no castling at all.
    let b = board("r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1");
    assert!(!has_castle(&b));
}

#[test]
fn standard_castling_notation() {
    let b = board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    for (short, long) in [("e1g1", "e1h1"), ("e1c1", "e1a1")] {
        let mv = b.parse_uci(short).unwrap();
        assert_eq!(b.parse_uci(long), Ok(mv), "king-takes-rook is accepted in standard mode too");
        assert_eq!(b.uci(mv).to_string(), short);
    }
    let b = board960("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1");
    assert!(b.parse_uci("e1g1").is_err(), "Chess960 castling is king takes rook");
    assert_eq!(b.uci(b.parse_uci("e1h1").unwrap()).to_string(), "e1h1");
}

#[test]
fn en_passant_rules() {
    // Horizontal pin through both pawns: the capture would expose the king.
    let b = board("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1");
    assert!(b.parse_uci("e5d6").is_err());
    // The double push gave check: en passant captures the checker.
    let b = board("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1");
    assert!(b.in_check());
    assert!(b.parse_uci("e4d3").unwrap().is_en_passant());
    // The en passant square is kept only when a capture is possible, so the keys of
    // transposed positions agree.
    let b = board("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1");
    assert_eq!(b.en_passant(), None);
    assert_eq!(b.key(), board("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1").key());
}

#[test]
fn evasions_only_in_check() {
    // Double check: king moves only.
    let b = board("4k3/8/8/8/1b6/8/3P4/r3K3 w - - 0 1");
    assert_eq!(b.checkers().len(), 1);
    let b = board("4k3/8/8/8/1b6/4r3/8/3K4 w - - 0 1");
    let mut moves = MoveList::new();
    b.generate(GenKind::All, &mut moves);
    assert!(moves.iter().all(|m| b.kind_on(m.from()) == Some(PieceType::King)));
}

#[test]
fn draws_and_outcomes() {
    assert!(board("8/8/4k3/8/8/3NK3/8/8 w - - 0 1").is_insufficient_material());
    assert!(!board("8/8/4k3/8/8/2NNK3/8/8 w - - 0 1").is_insufficient_material());
    assert!(!board("8/8/4k3/8/8/3BK3/8/2B5 w - - 0 1").is_insufficient_material()); // opposite colours
    let mate = Game::new(board("7k/7P/6K1/8/3B4/8/8/8 b - - 0 1"));
    assert_eq!(mate.outcome(), Some(Outcome::Checkmate { winner: Color::White }));
    let stalemate = Game::new(board("8/8/8/8/8/6k1/6p1/6K1 w - - 0 1"));
    assert_eq!(stalemate.outcome(), Some(Outcome::Stalemate));
    // Mate on the move that reaches 100 plies still wins.
    let mate_at_100 = Game::new(board("7k/6Q1/6K1/8/8/8/8/8 b - - 100 80"));
    assert_eq!(mate_at_100.outcome(), Some(Outcome::Checkmate { winner: Color::White }));
    let fifty = Game::new(board("7k/8/6K1/8/8/8/8/6Q1 b - - 100 80"));
    assert_eq!(fifty.outcome(), Some(Outcome::FiftyMoves));
}

#[test]
fn repetition_needs_same_side_and_rights() {
    let mut g = Game::default();
    for mv in ["g1f3", "g8f6", "f3g1", "f6g8"] {
        g.play_uci(mv).unwrap();
    }
    assert_eq!(g.repetitions(), 1);
    assert_eq!(g.outcome(), None);
    // A pawn move resets the window.
    g.play_uci("e2e4").unwrap();
    assert_eq!(g.repetitions(), 0);
}

#[test]
fn null_move_clears_en_passant() {
    let b = board("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    let n = b.null_move().unwrap();
    assert_eq!(n.en_passant(), None);
    assert_eq!(n.compute_keys(), (n.key(), n.pawn_key()));
    assert!(board("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1").null_move().is_none());
}

#[test]
fn castling_field_with_king_in_the_corner() {
    // Used to overflow a shift (king on h8 + 1) while looking for the king-side rook.
    assert_eq!(
        Board::from_fen("7k/8/8/8/8/8/8/4K3 w k - 0 1", CastlingMode::Standard),
        Err(crate::ParseFenError::Castling { found: 'k' })
    );
    assert_eq!(
        Board::from_fen("7k/8/8/8/8/8/8/K7 w Q - 0 1", CastlingMode::Chess960),
        Err(crate::ParseFenError::Castling { found: 'Q' })
    );
}

#[test]
fn bulk_count_in_crowded_positions() {
    // The bulk counter sums per-rank lanes (see `Counter` in movegen.rs); these positions put
    // many moves on few ranks. The first has 218 legal moves, the most known for a legal position.
    for fen in [
        "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1",
        "3Q4/1Q4Q1/4Q3/2Q4R/Q4Q2/3Q4/1Q4Rp/1K1BBNNk w - - 0 1",
        "7K/8/8/8/8/8/nnnnnnnn/k7 b - - 0 1",
        "7k/PPPPPP2/8/8/8/8/8/K7 w - - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ] {
        let b = Board::from_fen(fen, CastlingMode::Standard).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(b.count_moves(), b.legal_moves().len() as u64, "{fen}");
        let m = b.mirrored();
        assert_eq!(m.count_moves(), b.count_moves(), "{fen} mirrored");
    }
    assert_eq!(board("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1").count_moves(), 218);
}

/// The non-pawn keys computed from scratch.
fn non_pawn_keys_of(board: &Board) -> [u64; 2] {
    let mut keys = [0; 2];
    for sq in board.occupied() {
        let piece = board.piece_on(sq).unwrap();
        if piece.kind() != PieceType::Pawn {
            keys[piece.color() as usize] ^= crate::zobrist::piece(piece, sq);
        }
    }
    keys
}

#[test]
fn non_pawn_keys_follow_every_move() {
    // Castling (both modes), promotions with and without capture, en passant and captures
    // of every kind, two plies deep.
    for (fen, mode) in [
        ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", CastlingMode::Standard),
        ("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", CastlingMode::Standard),
        ("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", CastlingMode::Chess960),
    ] {
        let board = Board::from_fen(fen, mode).unwrap();
        assert_eq!(non_pawn_keys_of(&board), board.non_pawn_keys);
        for mv in board.legal_moves() {
            let mut child = board;
            child.play(mv);
            assert_eq!(non_pawn_keys_of(&child), child.non_pawn_keys, "{fen} {mv:?}");
            for reply in child.legal_moves() {
                let mut grandchild = child;
                let undo = grandchild.make_move(reply);
                assert_eq!(non_pawn_keys_of(&grandchild), grandchild.non_pawn_keys, "{fen} {mv:?} {reply:?}");
                grandchild.unmake_move(reply, undo);
                assert_eq!(grandchild, child);
            }
        }
    }
}

#[test]
fn attacks_by_agrees_with_is_attacked() {
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    ] {
        let root = board(fen);
        for mv in root.legal_moves() {
            let mut child = root;
            child.play(mv);
            for color in [Color::White, Color::Black] {
                let attacked = child.attacks_by(color);
                for sq in Square::ALL {
                    assert_eq!(attacked.has(sq), child.is_attacked(sq, color), "{fen} {mv:?} {color:?} {sq:?}");
                }
            }
        }
    }
}
