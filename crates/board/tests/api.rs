//! The API edges, each with a test: `CastlingMode`, `FromStr` for every small
//! type, `play_uci` / `play_san`, the UCI text of castling moves, the checked variants of the
//! unchecked methods (and the debug assertions of the unchecked ones), and the SEE value
//! against `see_ge`.

mod common;

use common::{TestRng, all_lines};
use cutoff_board::{
    Board, CastlingMode, Color, File, IllegalMoveError, Move, MoveKind, ParseSanError, ParseUciMoveError, Piece,
    PieceType, Rank, Square, UciMove,
};

/// The perft-suite positions and positions reached from them by random legal moves.
fn positions() -> Vec<Board> {
    let mut rng = TestRng::new(14);
    let mut boards = Vec::new();
    for line in all_lines() {
        let start = Board::from_fen(&line.fen, CastlingMode::from_chess960(line.chess960)).unwrap();
        boards.push(start);
        for _ in 0..4 {
            let mut board = start;
            for _ in 0..12 {
                let moves = board.legal_moves();
                if moves.is_empty() {
                    break;
                }
                board.play(moves[rng.below(moves.len() as u64) as usize]);
                boards.push(board);
            }
        }
    }
    boards
}

#[test]
fn see_value_agrees_with_see_ge_at_every_threshold() {
    let mut rng = TestRng::new(7);
    let mut checked = 0;
    let mut nonzero = 0;
    for board in positions() {
        for mv in board.legal_moves() {
            let value = board.see(mv);
            assert!(board.see_ge(mv, value), "see_ge({mv:?}, {value}) in {}", board.fen());
            assert!(!board.see_ge(mv, value + 1), "see_ge({mv:?}, {}) in {}", value + 1, board.fen());
            // Any other threshold: see_ge(t) == (see >= t).
            for _ in 0..4 {
                let t = rng.below(4001) as i32 - 2000;
                assert_eq!(board.see_ge(mv, t), value >= t, "{mv:?} at {t} in {}", board.fen());
            }
            assert_eq!(board.try_see(mv), Ok(value));
            checked += 1;
            nonzero += usize::from(value != 0);
        }
    }
    assert!(checked > 10_000 && nonzero > 1_000, "{checked} moves, {nonzero} with a nonzero value");
}

#[test]
fn see_value_examples() {
    let see = |fen: &str, uci: &str| {
        let board: Board = fen.parse().unwrap();
        board.see(board.parse_uci(uci).unwrap())
    };
    // Pawn defended by a pawn, taken by a knight: N for P.
    assert_eq!(see("4k3/8/3p4/4p3/8/3N4/8/4K3 w - - 0 1", "d3e5"), 100 - 300);
    // The queen takes a rook defended only by the king: the king recaptures...
    assert_eq!(see("3rk3/8/8/8/8/8/3Q4/4K3 w - - 0 1", "d2d8"), 500 - 900);
    // ... unless the rook behind the queen then guards d8.
    assert_eq!(see("3rk3/8/8/8/8/8/3Q4/3RK3 w - - 0 1", "d2d8"), 500);
    // Promotion: the new queen counts (+800), and is lost to the rook (-900).
    assert_eq!(see("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q"), 800 - 900);
    assert_eq!(see("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7a8q"), 500 + 800);
    // En passant wins a pawn.
    assert_eq!(see("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), 100);
    // X-ray: two rooks against one rook and a pawn.
    assert_eq!(see("3rk3/8/3p4/8/8/8/3R4/3RK3 w - - 0 1", "d2d6"), 100);
}

#[test]
fn piece_values_without_indexing() {
    for kind in PieceType::ALL {
        assert_eq!(kind.see_value(), cutoff_board::SEE_VALUES[kind.index()]);
    }
}

#[test]
fn every_small_type_reads_back_what_it_prints() {
    for c in Color::ALL {
        assert_eq!(c.to_string().parse(), Ok(c));
        assert_eq!(c.to_char().to_string().parse(), Ok(c));
    }
    for k in PieceType::ALL {
        assert_eq!(k.to_string().parse(), Ok(k));
        assert_eq!(k.to_string().to_uppercase().parse(), Ok(k));
    }
    for p in Piece::ALL {
        assert_eq!(p.to_string().parse(), Ok(p));
    }
    for f in File::ALL {
        assert_eq!(f.to_string().parse(), Ok(f));
    }
    for r in Rank::ALL {
        assert_eq!(r.to_string().parse(), Ok(r));
    }
    for sq in Square::ALL {
        assert_eq!(sq.to_string().parse(), Ok(sq));
    }
    for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
        assert_eq!(mode.to_string().parse(), Ok(mode));
    }
    for bad in ["", " ", "white ", "x", "pp", "é", "9", "i", "0"] {
        assert!(bad.parse::<Color>().is_err() || bad.trim() != bad || bad.is_empty(), "{bad:?}");
        assert!(bad.parse::<Piece>().is_err() || bad == "x", "{bad:?}");
        assert!(bad.parse::<File>().is_err(), "{bad:?}");
        assert!(bad.parse::<Rank>().is_err(), "{bad:?}");
        assert!(bad.parse::<CastlingMode>().is_err(), "{bad:?}");
    }
    assert!("white ".parse::<Color>().is_err());
    assert!("x".parse::<Piece>().is_err() && "x".parse::<PieceType>().is_err());
}

#[test]
fn boards_and_uci_moves_read_back_what_they_print() {
    for board in positions() {
        if !board.is_chess960() {
            assert_eq!(board.fen().to_string().parse::<Board>(), Ok(board));
        }
        for mv in board.legal_moves() {
            let text = board.uci(mv);
            assert_eq!(mv.uci(board.castling_mode()), text);
            let parsed: UciMove = text.to_string().parse().unwrap();
            assert_eq!(parsed, text);
            assert_eq!(parsed.to_move(&board), Ok(mv));
            // `Display` of a move is its encoding: UCI except for standard castling.
            if !mv.is_castle() || board.is_chess960() {
                assert_eq!(mv.to_string(), text.to_string());
            }
        }
    }
}

#[test]
fn castling_mode_is_not_a_bool_any_more() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let standard = Board::from_fen(fen, CastlingMode::Standard).unwrap();
    let chess960 = Board::from_fen(fen, CastlingMode::Chess960).unwrap();
    assert_eq!(standard.castling_mode(), CastlingMode::Standard);
    assert_eq!(chess960.castling_mode(), CastlingMode::Chess960);
    let castle = standard.parse_uci("e1g1").unwrap();
    assert_eq!(standard.uci(castle).to_string(), "e1g1");
    assert_eq!(chess960.uci(castle).to_string(), "e1h1");
    assert_eq!(chess960.parse_uci("e1g1"), Err(ParseUciMoveError::Illegal)); // g1 is not the rook
}

#[test]
fn play_uci_and_play_san_change_nothing_on_error() {
    let mut board = Board::default();
    assert_eq!(board.play_uci("e2e5"), Err(ParseUciMoveError::Illegal));
    assert_eq!(board.play_uci("e2"), Err(ParseUciMoveError::Syntax));
    assert_eq!(board.play_san("Ke2"), Err(ParseSanError::Illegal));
    assert_eq!(board.play_san("Zz9"), Err(ParseSanError::Syntax));
    assert_eq!(board, Board::default());
    let e4 = board.play_san("e4").unwrap();
    let e5 = board.play_uci("e7e5").unwrap();
    assert_eq!((e4.kind(), e5.kind()), (MoveKind::DoublePush, MoveKind::DoublePush));
}

/// The example: `e1e8` in the start position, a king "capturing" the other king.
fn king_takes_king() -> Move {
    Move::new(Square::E1, Square::E8, MoveKind::Capture)
}

#[test]
fn checked_variants_reject_illegal_moves() {
    let mut board = Board::default();
    let mv = king_takes_king();
    let err = IllegalMoveError { mv };
    assert_eq!(board.try_san(mv), Err(err));
    assert_eq!(board.try_see(mv), Err(err));
    assert_eq!(board.try_see_ge(mv, 0), Err(err));
    assert_eq!(board.try_play(mv), Err(err));
    assert_eq!(board, Board::default());
    // Legal moves pass through unchanged.
    for mv in board.legal_moves() {
        assert_eq!(board.try_san(mv), Ok(board.san(mv)));
        assert_eq!(board.try_see_ge(mv, 0), Ok(board.see_ge(mv, 0)));
    }
}

#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "illegal move")]
fn san_of_an_illegal_move_panics_in_debug_builds() {
    let _ = Board::default().san(king_takes_king());
}

#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "is illegal in")]
fn see_ge_of_an_illegal_move_panics_in_debug_builds() {
    let _ = Board::default().see_ge(king_takes_king(), 0);
}

#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "is illegal in")]
fn see_of_an_illegal_move_panics_in_debug_builds() {
    let _ = Board::default().see(king_takes_king());
}

#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "is illegal in")]
fn play_unchecked_of_an_illegal_move_panics_in_debug_builds() {
    Board::default().play_unchecked(king_takes_king());
}

#[test]
fn arrayvec_is_reexported() {
    let divide: cutoff_board::arrayvec::ArrayVec<(Move, u64), 256> = Board::default().divide(1);
    assert_eq!(divide.len(), 20);
}
