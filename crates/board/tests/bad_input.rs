//! Malformed and illegal input: every case names the exact error expected, and nothing may panic.
//!
//! * FEN: a table of broken FENs with the exact `ParseFenError`, one or more per field, plus
//!   `PositionError`s, unicode and very long strings; a few lenient cases that must be
//!   accepted; and a deterministic mutation smoke test (truncations and random byte edits of
//!   valid FENs) that must never panic and must round-trip whenever it parses.
//! * UCI moves: syntax errors versus illegal moves, castling with and without the right, in
//!   standard chess and Chess960.
//! * SAN: syntax errors, illegal moves, and ambiguity (`Nd2` with knights on b1 and f3).

mod common;

use common::TestRng;
use cutoff_board::{
    Board, CastlingMode, Color, Move, MoveKind, ParseFenError, ParseSanError, ParseUciMoveError, PositionError, Rank,
    STARTPOS_FEN, Square,
};

use ParseFenError as E;
use PositionError as P;

const START: &str = STARTPOS_FEN;

/// `(fen, chess960, expected error)`.
fn fen_cases() -> Vec<(String, bool, ParseFenError)> {
    let s = |t: &str| t.to_string();
    let mut v = vec![
        // Empty.
        (s(""), false, E::Empty),
        (s("   \t\n "), false, E::Empty),
        (s(""), true, E::Empty),
        // Rank count.
        (s("8/8/8/8/8/8/8 w - - 0 1"), false, E::RankCount { found: 7 }),
        (s("8/8/8/8/8/8/8/8/8 w - - 0 1"), false, E::RankCount { found: 9 }),
        (s("rnbqkbnrpppppppp8888PPPPPPPPRNBQKBNR w KQkq - 0 1"), false, E::RankCount { found: 1 }),
        (s("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1"), false, E::RankCount { found: 9 }),
        (s("/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1"), false, E::RankLength { rank: Rank::Eighth }),
        (s("\0"), false, E::RankCount { found: 1 }),
        // Rank length.
        (s("rnbqkbnrr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), false, E::RankLength { rank: Rank::Eighth }),
        (s("rnbqkbn/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), false, E::RankLength { rank: Rank::Eighth }),
        (s("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1"), false, E::RankLength { rank: Rank::First }),
        (s("rnbqkbnr/pppppppp/45/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), false, E::RankLength { rank: Rank::Sixth }),
        (s("rnbqkbnr/pppppppp/8/8/72/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), false, E::RankLength { rank: Rank::Fourth }),
        (s("rnbqkbnr/pppppppp/8/8/7/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), false, E::RankLength { rank: Rank::Fourth }),
        (s("rnbqkbnr/pppppppp/8//8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), false, E::RankLength { rank: Rank::Fifth }),
        (s("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1KBNR w - - 0 1"), false, E::RankLength { rank: Rank::First }),
        // Piece characters.
        (s("rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), false, E::PieceChar { found: 'x' }),
        (s("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), false, E::PieceChar { found: '9' }),
        (s("rnbqkbnr/pppppppp/08/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), false, E::PieceChar { found: '0' }),
        (s("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN- w KQkq - 0 1"), false, E::PieceChar { found: '-' }),
        // Side to move.
        (s("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"), false, E::SideToMove),
        (s("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR white KQkq - 0 1"), false, E::SideToMove),
        (s("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR wb KQkq - 0 1"), false, E::SideToMove),
        (s("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR - KQkq - 0 1"), false, E::SideToMove),
        // Castling: unknown letters.
        (s("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1"), false, E::Castling { found: 'x' }),
        (s("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQk1 - 0 1"), false, E::Castling { found: '1' }),
        (s("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ-kq - 0 1"), false, E::Castling { found: '-' }),
        (s("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQIq - 0 1"), false, E::Castling { found: 'I' }),
        // Castling: duplicates (also the same right written twice in two notations).
        (s("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKQkq - 0 1"), false, E::Castling { found: 'K' }),
        (s("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqq - 0 1"), false, E::Castling { found: 'q' }),
        (s("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KHQkq - 0 1"), false, E::Castling { found: 'H' }),
        (s("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAhaH - 0 1"), true, E::Castling { found: 'H' }),
        (s("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KH - 0 1"), true, E::Castling { found: 'H' }),
        // Castling: no rook (or no king) where the right needs it.
        (s("4k3/8/8/8/8/8/8/4K3 w K - 0 1"), false, E::Castling { found: 'K' }),
        (s("4k3/8/8/8/8/8/8/R3K3 w KQ - 0 1"), false, E::Castling { found: 'K' }),
        (s("4k2r/8/8/8/8/8/8/4K3 w q - 0 1"), false, E::Castling { found: 'q' }),
        (s("4k3/8/8/8/8/8/4K3/R6R w KQ - 0 1"), false, E::Castling { found: 'K' }),
        (s("4k3/8/8/8/8/8/8/R3K2R w KQB - 0 1"), false, E::Castling { found: 'B' }),
        (s("4k3/8/8/8/8/8/8/1R2K1R1 w GC - 0 1"), true, E::Castling { found: 'C' }),
        // A rook exists, but not in the corner, in standard chess (fine in Chess960).
        (s("4k3/8/8/8/8/8/8/4K1R1 w K - 0 1"), false, E::Position(P::CastlingWithoutKingOrRook)),
        (s("4k3/8/8/8/8/8/8/4K2R w G - 0 1"), false, E::Castling { found: 'G' }),
        (s("4k3/8/8/8/8/8/8/3K3R w K - 0 1"), false, E::Position(P::CastlingWithoutKingOrRook)),
        // En passant: bad text, wrong rank, impossible.
        (s("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1"), false, E::EnPassant),
        (s("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z6 0 1"), false, E::EnPassant),
        (s("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e66 0 1"), false, E::EnPassant),
        (s("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq E6 0 1"), false, E::EnPassant),
        (s("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -- 0 1"), false, E::EnPassant),
        (s("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1"), false, E::EnPassant),
        (s("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e6 0 1"), false, E::EnPassant),
        (s("rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1"), false, E::EnPassant),
        (s("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1"), false, E::Position(P::ImpossibleEnPassant)),
        (s("rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq d6 0 1"), false, E::Position(P::ImpossibleEnPassant)),
        // ... pawn on e5 but a piece on e6 or on e7.
        (
            s("rnbqkb1r/pppp1ppp/4n3/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1"),
            false,
            E::Position(P::ImpossibleEnPassant),
        ),
        (s("rnbqk1nr/ppppbppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1"), false, E::Position(P::ImpossibleEnPassant)),
        // Clocks.
        (s("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1"), false, E::HalfmoveClock),
        (s("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1"), false, E::HalfmoveClock),
        (s("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 65536 1"), false, E::HalfmoveClock),
        (s("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 1.5 1"), false, E::HalfmoveClock),
        (s("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 one"), false, E::FullmoveNumber),
        (s("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -1"), false, E::FullmoveNumber),
        (s("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 99999"), false, E::FullmoveNumber),
        // Fields.
        (s("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra"), false, E::TooManyFields),
        (s("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 0"), false, E::TooManyFields),
        (s("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20"), false, E::TooManyFields),
        // Impossible positions.
        (s("8/8/8/8/8/8/8/8 w - - 0 1"), false, E::Position(P::MissingKing(Color::White))),
        (s("8/8/8/8/8/8/8/4K3 w - - 0 1"), false, E::Position(P::MissingKing(Color::Black))),
        (s("4k3/8/8/8/8/8/8/3KK3 w - - 0 1"), false, E::Position(P::TooManyKings(Color::White))),
        (s("4k2k/8/8/8/8/8/8/4K3 b - - 0 1"), false, E::Position(P::TooManyKings(Color::Black))),
        (s("4k3/8/8/8/8/8/8/P3K3 w - - 0 1"), false, E::Position(P::PawnOnBackRank)),
        (s("p3k3/8/8/8/8/8/8/4K3 w - - 0 1"), false, E::Position(P::PawnOnBackRank)),
        (s("4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1"), false, E::Position(P::TooManyPieces(Color::White))),
        (s("qqqqkqqq/qqqqqqqq/q7/8/8/8/8/4K3 w - - 0 1"), false, E::Position(P::TooManyPieces(Color::Black))),
        // The side not to move is in check (White to move, black king attacked).
        (s("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1"), false, E::Position(P::OppositeCheck)),
        (s("rnbqkbnr/ppppp2p/8/5ppQ/4P3/8/PPPP1PPP/RNB1KBNR w KQkq - 0 3"), false, E::Position(P::OppositeCheck)),
        (s("8/8/8/8/8/8/8/3kK3 w - - 0 1"), false, E::Position(P::OppositeCheck)),
        // Triple check, and double check by two knights or two pawns.
        (s("4k3/8/3N4/1B6/8/8/8/K3R3 b - - 0 1"), false, E::Position(P::ImpossibleCheck)),
        (s("4k3/8/3N1N2/8/8/8/8/K7 b - - 0 1"), false, E::Position(P::ImpossibleCheck)),
        (s("8/8/8/8/8/4k3/3P1P2/K7 b - - 0 1"), false, E::Position(P::ImpossibleCheck)),
        // Unicode junk.
        (s("♜♞♝♛♚♝♞♜/8/8/8/8/8/8/8 w - - 0 1"), false, E::PieceChar { found: '♜' }),
        (
            s("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\u{3000}w KQkq - 0 1"),
            false,
            E::PieceChar { found: '\u{3000}' },
        ),
        (s("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR ẃ KQkq - 0 1"), false, E::SideToMove),
        (s("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq\u{e9} - 0 1"), false, E::Castling { found: 'é' }),
        (s("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq é6 0 1"), false, E::EnPassant),
        (s("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ٣ 1"), false, E::HalfmoveClock),
        (s("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 🙂"), false, E::TooManyFields),
        (s("🙂"), false, E::RankCount { found: 1 }),
        (
            s("r\u{301}nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            false,
            E::PieceChar { found: '\u{301}' },
        ),
    ];
    // Very long strings.
    v.push(("8/".repeat(100_000), false, E::RankCount { found: 100_001 }));
    v.push((format!("{}/8/8/8/8/8/8/8 w - - 0 1", "1".repeat(100_000)), false, E::RankLength { rank: Rank::Eighth }));
    v.push((format!("{}/8/8/8/8/8/8/8 w - - 0 1", "x".repeat(100_000)), false, E::PieceChar { found: 'x' }));
    v.push((format!("{START} {}", "0 ".repeat(100_000)), false, E::TooManyFields));
    v.push((format!("{} w KQkq - 0 1", "r".repeat(1 << 20)), false, E::RankCount { found: 1 }));
    v.push((START.replace("KQkq", &"KQkq".repeat(10_000)), false, E::Castling { found: 'K' }));
    v.push((START.replace(" 0 1", &format!(" {} 1", "9".repeat(50_000))), false, E::HalfmoveClock));
    v.push((START.replace(" - 0", &format!(" {} 0", "e".repeat(50_000))), false, E::EnPassant));
    v
}

#[test]
fn malformed_fens_give_the_exact_error() {
    let mut failures = Vec::new();
    for (fen, chess960, expected) in fen_cases() {
        let got = Board::from_fen(&fen, CastlingMode::from_chess960(chess960));
        // The error must print without panicking.
        if let Err(e) = &got {
            assert!(!e.to_string().is_empty());
        }
        if got != Err(expected) {
            let shown: String = fen.chars().take(100).collect();
            failures.push(format!("{shown:?} (chess960 {chess960}): expected {expected:?}, got {got:?}"));
        }
    }
    assert!(failures.is_empty(), "{} wrong results:\n{}", failures.len(), failures.join("\n"));
}

/// Inputs that are not strictly standard FEN but are accepted on purpose (see `from_fen`).
#[test]
fn lenient_fens_are_accepted() {
    let cases = [
        // 4-field EPD and the bare placement default to "- - 0 1" / White to move.
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", START),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"),
        // Extra white space, upper-case side to move, fullmove 0 read as 1.
        ("  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR \t W  KQkq - 0 0 \n", START),
        // Shredder-FEN castling in standard chess.
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", START),
        // An en passant square no pawn can use is dropped, as after a real double push.
        (
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        ),
        // The largest clocks.
        ("4k3/8/8/8/8/8/8/4K3 w - - 65535 65535", "4k3/8/8/8/8/8/8/4K3 w - - 65535 65535"),
    ];
    for (input, expected) in cases {
        let board = Board::from_fen(input, CastlingMode::Standard).unwrap_or_else(|e| panic!("{input:?}: {e}"));
        assert_eq!(board.fen().to_string(), expected, "{input:?}");
    }
}

/// Valid FENs for the mutation test and the move tables.
const SEEDS: [(&str, bool); 6] = [
    (START, false),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false),
    ("rnbqkb1r/pp1p1ppp/5n2/2pPp3/8/8/PPP1PPPP/RNBQKBNR w KQkq c6 0 4", false),
    ("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true),
    ("2r1kr2/8/8/8/8/8/8/1R2K1R1 w GBfc - 0 1", true),
];

/// From a parsed board: the FEN round-trips to an equal board and move generation works.
fn exercise(board: &Board) {
    let fen = board.fen().to_string();
    let again = Board::from_fen(&fen, board.castling_mode()).unwrap_or_else(|e| panic!("{fen}: re-read fails: {e}"));
    assert_eq!(again, *board, "{fen}");
    assert_eq!(board.compute_keys(), (board.key(), board.pawn_key()), "{fen}");
    assert_eq!(board.perft(2), board.divide(2).iter().map(|&(_, n)| n).sum::<u64>(), "{fen}");
}

/// Truncations and random byte edits of valid FENs: never a panic; whatever parses is valid.
#[test]
fn mutated_fens_never_panic() {
    const ALPHABET: &[u8] = b"pnbrqkPNBRQK12345678/ wb-KQkqABCDEFGHabcdefgh0123456789x\0\xff";
    let mut rng = TestRng::new(2024);
    let mut parsed = 0;
    let mut total = 0;
    for (seed, chess960) in SEEDS {
        // Every prefix and every suffix.
        for i in 0..=seed.len() {
            for text in [&seed[..i], &seed[i..]] {
                for mode in [chess960, !chess960] {
                    total += 1;
                    if let Ok(b) = Board::from_fen(text, CastlingMode::from_chess960(mode)) {
                        parsed += 1;
                        exercise(&b);
                    }
                }
            }
        }
        // Random edits: replace, insert or delete one to four bytes.
        for _ in 0..10_000 {
            let mut bytes = seed.as_bytes().to_vec();
            for _ in 0..=rng.below(4) {
                let pos = rng.below(bytes.len() as u64 + 1) as usize;
                let c = ALPHABET[rng.below(ALPHABET.len() as u64) as usize];
                match rng.below(3) {
                    0 if pos < bytes.len() => bytes[pos] = c,
                    1 if pos < bytes.len() => {
                        bytes.remove(pos);
                    }
                    _ => bytes.insert(pos, c),
                }
            }
            let text = String::from_utf8_lossy(&bytes);
            for mode in [chess960, !chess960] {
                total += 1;
                if let Ok(b) = Board::from_fen(&text, CastlingMode::from_chess960(mode)) {
                    parsed += 1;
                    exercise(&b);
                }
            }
        }
    }
    // Both outcomes must have been exercised.
    eprintln!("mutated FENs: {parsed} of {total} parsed");
    assert!(parsed > 100 && parsed < total, "{parsed} of {total} parsed");
}

fn board(fen: &str, chess960: bool) -> Board {
    Board::from_fen(fen, CastlingMode::from_chess960(chess960)).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn bad_uci_moves_give_the_exact_error() {
    use ParseUciMoveError::{Illegal, Syntax};
    let start = Board::default();
    let long = "e2e4".repeat(10_000);
    let cases: &[(&str, ParseUciMoveError)] = &[
        ("", Syntax),
        (" ", Syntax),
        ("e", Syntax),
        ("e2", Syntax),
        ("e2e", Syntax),
        ("e2e9", Syntax),
        ("e0e4", Syntax),
        ("i2i4", Syntax),
        ("E2E4", Syntax),
        ("e2e4 ", Syntax),
        (" e2e4", Syntax),
        ("e2-e4", Syntax),
        ("e2e4qq", Syntax),
        ("e7e8k", Syntax),
        ("e7e8p", Syntax),
        ("e7e8x", Syntax),
        ("e2e2", Syntax),
        ("0000", Syntax),
        ("(none)", Syntax),
        ("é2e4", Syntax),
        ("e2é4", Syntax),
        ("e2e4\u{0}", Syntax),
        ("♙e2e", Syntax),
        ("e2e4🙂", Syntax),
        (&long, Syntax),
        // Well formed but illegal.
        ("e2e5", Illegal),
        ("e3e4", Illegal),
        ("e7e5", Illegal),
        ("g1g3", Illegal),
        ("a1a3", Illegal),
        ("e2e4q", Illegal),
        ("e1g1", Illegal),
        ("e1h1", Illegal),
        ("e1c1", Illegal),
        ("h8h1", Illegal),
    ];
    for &(text, expected) in cases {
        assert_eq!(start.parse_uci(text), Err(expected), "startpos, {:?}", text.chars().take(20).collect::<String>());
    }

    // Castling with and without the right, standard chess: the king may not castle when
    // the right is gone ("e1g1" is then a two-square king move, which is illegal).
    let rights = board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false);
    let no_white_rights = board("r3k2r/8/8/8/8/8/8/R3K2R w kq - 0 1", false);
    let only_queen = board("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", false);
    for text in ["e1g1", "e1h1", "e1c1", "e1a1"] {
        let mv = rights.parse_uci(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert!(mv.is_castle(), "{text}");
        assert_eq!(no_white_rights.parse_uci(text), Err(Illegal), "{text} without rights");
    }
    assert_eq!(only_queen.parse_uci("e1g1"), Err(Illegal));
    assert!(only_queen.parse_uci("e1c1").is_ok());
    // Castling out of, through or into check.
    let attacked = board("r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1", false);
    assert_eq!(attacked.parse_uci("e1g1"), Err(Illegal), "the king would cross f1, attacked by the f2 rook");
    assert!(attacked.parse_uci("e1c1").is_ok());
    let in_check = board("r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1", false);
    assert_eq!(in_check.parse_uci("e1g1"), Err(Illegal));
    assert_eq!(in_check.parse_uci("e1c1"), Err(Illegal));
    // Black castling when White is to move.
    assert_eq!(rights.parse_uci("e8g8"), Err(Illegal));

    // Chess960: castling is only "king takes rook"; e1g1 is an (illegal) two-square king move.
    let frc = board("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", true);
    assert!(frc.parse_uci("e1h1").unwrap().is_castle());
    assert!(frc.parse_uci("e1a1").unwrap().is_castle());
    assert_eq!(frc.parse_uci("e1g1"), Err(Illegal));
    assert_eq!(frc.parse_uci("e1c1"), Err(Illegal));
    // Chess960 with the king next to its rook: "g1h1" castles; the king's move to h1 is the same text.
    let frc2 = board("1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1", true);
    let castle = frc2.parse_uci("g1h1").unwrap();
    assert!(castle.is_castle());
    assert_eq!(frc2.uci(castle).to_string(), "g1h1");
    assert_eq!(frc2.parse_uci("g1f1"), Ok(Move::new(Square::G1, Square::F1, MoveKind::Quiet)));
    // Promotions: the piece letter is required, and must be one of q r b n (either case).
    let promo = board("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", false);
    assert_eq!(promo.parse_uci("e7e8"), Err(Illegal));
    assert_eq!(promo.parse_uci("e7e8k"), Err(Syntax));
    assert_eq!(promo.parse_uci("e7e8q"), Ok(Move::new(Square::E7, Square::E8, MoveKind::PromoteQueen)));
    assert_eq!(promo.parse_uci("e7e8N"), Ok(Move::new(Square::E7, Square::E8, MoveKind::PromoteKnight)));
    assert_eq!(promo.parse_uci("e1e2q"), Err(Illegal));
    // The errors print.
    assert!(!Syntax.to_string().is_empty() && !Illegal.to_string().is_empty());
}

#[test]
fn bad_san_gives_the_exact_error() {
    use ParseSanError::{Ambiguous, Illegal, Syntax};
    let start = Board::default();
    let long = "Nf3".repeat(10_000);
    let cases: &[(&str, ParseSanError)] = &[
        ("", Syntax),
        ("+", Syntax),
        ("!?", Syntax),
        ("N", Syntax),
        ("Nf", Syntax),
        ("Zf3", Syntax),
        ("nf3", Syntax),
        ("e9", Syntax),
        ("i4", Syntax),
        ("x", Syntax),
        ("xe4", Syntax),
        ("e4e5e6", Syntax),
        ("Ng1f3x", Syntax),
        ("Qe4=Q", Syntax),
        ("e8=K", Syntax),
        ("O-O-O-O", Syntax),
        ("o-o", Syntax),
        ("00", Syntax),
        ("Nf3 ", Syntax),
        (" Nf3", Syntax),
        ("Nf3♘", Syntax),
        ("♘f3", Syntax),
        ("e4🙂", Syntax),
        ("Nbd2d2d2d2", Syntax),
        ("Nf3aaaaaaaaaa", Syntax),
        (&long, Syntax),
        // Well formed but illegal in the start position.
        ("Nd2", Illegal),
        ("Nf4", Illegal),
        ("e5", Illegal),
        ("exd5", Illegal),
        ("Ke2", Illegal),
        ("Qh5", Illegal),
        ("Bc4", Illegal),
        ("Rh3", Illegal),
        ("O-O", Illegal),
        ("O-O-O", Illegal),
        ("0-0", Illegal),
        ("e8=Q", Illegal),
        ("Nexf3", Illegal),
        ("Nhf3", Illegal),
        ("N2f3", Illegal),
        ("Nxf3", Illegal),
    ];
    for &(text, expected) in cases {
        assert_eq!(start.parse_san(text), Err(expected), "startpos, {:?}", text.chars().take(20).collect::<String>());
    }

    // Ambiguity: knights on b1 and f3 can both go to d2.
    let amb = board("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", false);
    let from_b1 = Move::new(Square::B1, Square::D2, MoveKind::Quiet);
    let from_f3 = Move::new(Square::F3, Square::D2, MoveKind::Quiet);
    assert_eq!(amb.parse_san("Nd2"), Err(Ambiguous));
    assert_eq!(amb.parse_san("Nd2+"), Err(Ambiguous));
    assert_eq!(amb.parse_san("Nbd2"), Ok(from_b1));
    assert_eq!(amb.parse_san("N1d2"), Ok(from_b1));
    assert_eq!(amb.parse_san("Nb1d2"), Ok(from_b1));
    assert_eq!(amb.parse_san("Nfd2"), Ok(from_f3));
    assert_eq!(amb.parse_san("N3d2"), Ok(from_f3));
    assert_eq!(amb.parse_san("Ncd2"), Err(Illegal));
    assert_eq!(amb.parse_san("N2d2"), Err(Illegal));
    assert_eq!(amb.parse_san("Nxd2"), Err(Illegal));
    assert_eq!(amb.san(from_b1).as_str(), "Nbd2");
    assert_eq!(amb.san(from_f3).as_str(), "Nfd2");
    // Rank disambiguation needed: knights on b1 and b3 both reach d2 (same file).
    let amb_file = board("4k3/8/8/8/8/1N6/8/1N2K3 w - - 0 1", false);
    assert_eq!(amb_file.parse_san("Nd2"), Err(Ambiguous));
    assert_eq!(amb_file.parse_san("Nbd2"), Err(Ambiguous));
    assert_eq!(amb_file.parse_san("N1d2"), Ok(from_b1));
    assert_eq!(amb_file.san(from_b1).as_str(), "N1d2");
    // Queens on a1, a3 and c1 all reach c3 (only square disambiguation for a1 works).
    let queens = board("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1", false);
    let qa1 = Move::new(Square::A1, Square::C3, MoveKind::Quiet);
    assert_eq!(queens.parse_san("Qc3"), Err(Ambiguous));
    assert_eq!(queens.parse_san("Qac3"), Err(Ambiguous));
    assert_eq!(queens.parse_san("Q1c3"), Err(Ambiguous));
    assert_eq!(queens.parse_san("Qa1c3"), Ok(qa1));
    assert_eq!(queens.san(qa1).as_str(), "Qa1c3");

    // A pinned piece's move is illegal, and is not counted for ambiguity.
    let pinned = board("4k3/8/2b5/8/8/5N2/8/1N5K w - - 0 1", false);
    assert_eq!(pinned.parse_san("Nd2"), Ok(from_b1));
    assert_eq!(pinned.parse_san("Nbd2"), Ok(from_b1));
    assert_eq!(pinned.parse_san("Nfd2"), Err(Illegal));
    assert_eq!(pinned.san(from_b1).as_str(), "Nd2");
    // Promotion needs the piece; `=K`/`=P` are not pieces to promote to.
    let promo = board("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", false);
    assert_eq!(promo.parse_san("e8"), Err(Illegal));
    assert_eq!(promo.parse_san("e8=K"), Err(Syntax));
    assert_eq!(promo.parse_san("e8=P"), Err(Syntax));
    assert_eq!(promo.parse_san("e8=Q"), Ok(Move::new(Square::E7, Square::E8, MoveKind::PromoteQueen)));
    assert_eq!(promo.parse_san("e8N"), Ok(Move::new(Square::E7, Square::E8, MoveKind::PromoteKnight)));
    assert_eq!(promo.parse_san("exd8=Q"), Err(Illegal));
    // Castling without the right.
    let no_rights = board("r3k2r/8/8/8/8/8/8/R3K2R w kq - 0 1", false);
    assert_eq!(no_rights.parse_san("O-O"), Err(Illegal));
    assert_eq!(no_rights.parse_san("O-O-O"), Err(Illegal));
    assert_eq!(no_rights.parse_san("Kg1"), Err(Illegal));
    // The errors print.
    for e in [Syntax, Illegal, Ambiguous] {
        assert!(!e.to_string().is_empty());
    }
}

/// Every 1- to 3-character string over a small alphabet, in a few positions: parsing never
/// panics, and anything accepted is a legal move whose text reads back to it.
#[test]
fn short_move_strings_never_panic() {
    const ALPHABET: &[char] =
        &['a', 'e', 'h', '1', '2', '4', '8', 'N', 'K', 'Q', 'O', '0', 'x', '=', '-', '+', 'q', 'é'];
    let boards: Vec<Board> = SEEDS.iter().map(|&(fen, c)| board(fen, c)).collect();
    let mut strings = vec![String::new()];
    let mut frontier = vec![String::new()];
    for _ in 0..3 {
        let mut next = Vec::new();
        for s in &frontier {
            for &c in ALPHABET {
                let mut t = s.clone();
                t.push(c);
                next.push(t);
            }
        }
        strings.extend(next.iter().cloned());
        frontier = next;
    }
    let mut accepted = 0;
    for b in &boards {
        for s in &strings {
            for t in [s.clone(), format!("e2{s}"), format!("{s}e4"), format!("O-{s}")] {
                if let Ok(mv) = b.parse_san(&t) {
                    assert!(b.is_legal(mv), "{t} in {}", b.fen());
                    assert_eq!(b.parse_san(b.san(mv).as_str()), Ok(mv));
                    accepted += 1;
                }
                if let Ok(mv) = b.parse_uci(&t) {
                    assert!(b.is_legal(mv), "{t} in {}", b.fen());
                    assert_eq!(b.parse_uci(&b.uci(mv).to_string()), Ok(mv));
                    accepted += 1;
                }
            }
        }
    }
    eprintln!("short move strings: {} tried, {accepted} accepted", strings.len() * 4 * 2 * boards.len());
    assert!(accepted > 0);
}
