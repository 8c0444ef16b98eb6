//! Polyglot keys against the published values of the Polyglot book-format specification.

use cutoff_board::Board;
use cutoff_book::{RANDOM64, polyglot_key};

/// The test data of the specification: moves from the start position, the FEN it gives, and
/// the key.
const SPEC: [(&str, &str, u64); 9] = [
    ("", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0x463b96181691fc9c),
    ("e2e4", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", 0x823c9b50fd114196),
    ("e2e4 d7d5", "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", 0x0756b94461c50fb0),
    ("e2e4 d7d5 e4e5", "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2", 0x662fafb965db29d4),
    ("e2e4 d7d5 e4e5 f7f5", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", 0x22a48b5a8e47ff78),
    ("e2e4 d7d5 e4e5 f7f5 e1e2", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3", 0x652a607ca3f242c1),
    ("e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", "rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4", 0x00fdd303c946bdd9),
    ("a2a4 b7b5 h2h4 b5b4 c2c4", "rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3", 0x3c8123ea7b067637),
    (
        "a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3",
        "rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4",
        0x5c3f9b829b279560,
    ),
];

#[test]
fn published_keys_after_moves() {
    for (moves, fen, key) in SPEC {
        let mut board = Board::default();
        for mv in moves.split_whitespace() {
            board.play(board.parse_uci(mv).unwrap());
        }
        assert_eq!(polyglot_key(&board), key, "after '{moves}' ({})", board.fen());
        // The board's own FEN (which drops en passant squares no pawn can use) keys the same.
        let from_fen = Board::from_fen(fen, cutoff_board::CastlingMode::Standard).unwrap();
        assert_eq!(polyglot_key(&from_fen), key, "{fen}");
    }
}

#[test]
fn en_passant_file_only_when_a_pawn_can_take() {
    // After 1.e4 d5 the FEN has d6, but no white pawn stands beside d5: no en passant key.
    let with = Board::from_fen(
        "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2",
        cutoff_board::CastlingMode::Standard,
    )
    .unwrap();
    let without = Board::from_fen(
        "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
        cutoff_board::CastlingMode::Standard,
    )
    .unwrap();
    assert_eq!(polyglot_key(&with), polyglot_key(&without));
    // After 1.e4 d5 2.e5 f5 the e5 pawn can take on f6: the f-file key is in.
    let ep = Board::from_fen(
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        cutoff_board::CastlingMode::Standard,
    )
    .unwrap();
    let no_ep = Board::from_fen(
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3",
        cutoff_board::CastlingMode::Standard,
    )
    .unwrap();
    assert_eq!(polyglot_key(&ep) ^ polyglot_key(&no_ep), RANDOM64[772 + 5]);
}

#[test]
fn en_passant_counts_even_when_the_capture_is_illegal() {
    // exd6 would expose the a5 king to the h5 rook, yet Polyglot hashes the d-file
    // (values from python-chess 1.11.2, `chess.polyglot.zobrist_hash`).
    let pinned = Board::from_fen("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1", cutoff_board::CastlingMode::Standard).unwrap();
    assert!(pinned.parse_uci("e5d6").is_err());
    assert_eq!(polyglot_key(&pinned), 0xe51af365da0415d8);
    let plain = Board::from_fen("8/8/8/K2pP2r/8/8/8/7k w - - 0 1", cutoff_board::CastlingMode::Standard).unwrap();
    assert_eq!(polyglot_key(&plain), 0xf9832db6e6bc8579);
    assert_eq!(polyglot_key(&pinned) ^ polyglot_key(&plain), RANDOM64[772 + 3]);
}

#[test]
fn castling_rights_and_turn() {
    let all = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", cutoff_board::CastlingMode::Standard).unwrap();
    assert_eq!(polyglot_key(&all), 0xfda239cc692a6053); // python-chess 1.11.2
    let none = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1", cutoff_board::CastlingMode::Standard).unwrap();
    let castle_keys = RANDOM64[768] ^ RANDOM64[769] ^ RANDOM64[770] ^ RANDOM64[771];
    assert_eq!(polyglot_key(&all) ^ polyglot_key(&none), castle_keys);
    let white_short =
        Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w K - 0 1", cutoff_board::CastlingMode::Standard).unwrap();
    assert_eq!(polyglot_key(&white_short) ^ polyglot_key(&none), RANDOM64[768]);
    let black_long =
        Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w q - 0 1", cutoff_board::CastlingMode::Standard).unwrap();
    assert_eq!(polyglot_key(&black_long) ^ polyglot_key(&none), RANDOM64[771]);
    let black_to_move =
        Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R b - - 0 1", cutoff_board::CastlingMode::Standard).unwrap();
    assert_eq!(polyglot_key(&none) ^ polyglot_key(&black_to_move), RANDOM64[780]);
}

#[test]
fn not_the_engine_key() {
    let board = Board::default();
    assert_ne!(polyglot_key(&board), board.key());
}

#[test]
fn clocks_do_not_matter() {
    let a = Board::from_fen(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        cutoff_board::CastlingMode::Standard,
    )
    .unwrap();
    let b = Board::from_fen(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 12 40",
        cutoff_board::CastlingMode::Standard,
    )
    .unwrap();
    assert_eq!(polyglot_key(&a), polyglot_key(&b));
}
