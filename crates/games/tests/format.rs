//! The game record format: round trips, Chess960, every error on corrupt input (in both
//! encodings) and the training filter.

use std::io::{self, Read};

use cutoff_board::{Board, CastlingMode, CastlingSide, Color, Move, MoveKind, Square};
use cutoff_games::{
    Encoding, FormatError, GameReader, GameRecord, GameResult, GameWriter, HEADER_LEN, NO_SCORE, SCORE_MAX,
    encode_game_as, file_stats, is_training_position,
};

/// A small xorshift generator for the tests.
struct TestRng(u64);

impl TestRng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn board(fen: &str, mode: CastlingMode) -> Board {
    Board::from_fen(fen, mode).unwrap()
}

fn random_score(rng: &mut TestRng) -> Option<i16> {
    match rng.below(8) {
        0 => None,
        1 => Some(SCORE_MAX - rng.below(128) as i16),  // a mate
        2 => Some(-SCORE_MAX + rng.below(128) as i16), // getting mated
        3 => Some(if rng.below(2) == 0 { SCORE_MAX } else { -SCORE_MAX }),
        _ => Some((rng.below(4001) as i16) - 2000),
    }
}

/// A game of up to `max_plies` random legal moves from `start`, with random scores.
fn random_game(rng: &mut TestRng, start: Board, max_plies: usize) -> GameRecord {
    let result = [GameResult::WhiteWin, GameResult::Draw, GameResult::BlackWin][rng.below(3)];
    let mut record = GameRecord::new(start, result);
    for _ in 0..rng.below(max_plies + 1) {
        let moves = record.end_board().legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.below(moves.len())];
        let score = random_score(rng);
        record.push(mv, score).unwrap();
    }
    record.set_final_score(random_score(rng));
    record
}

fn write_all(games: &[GameRecord]) -> Vec<u8> {
    write_all_as(games, Encoding::Plain)
}

fn write_all_as(games: &[GameRecord], encoding: Encoding) -> Vec<u8> {
    let mut writer = GameWriter::with_encoding(Vec::new(), encoding).unwrap();
    for game in games {
        writer.write_game(game).unwrap();
    }
    assert_eq!(writer.games_written(), games.len() as u64);
    writer.into_inner()
}

fn read_all(bytes: &[u8]) -> Result<Vec<GameRecord>, FormatError> {
    GameReader::new(bytes)?.collect()
}

const START_FENS: [(&str, CastlingMode); 7] = [
    (cutoff_board::STARTPOS_FEN, CastlingMode::Standard),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", CastlingMode::Standard),
    // An en passant square (e5xf6 possible).
    ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", CastlingMode::Standard),
    // Black to move, large clocks.
    ("8/5pk1/6p1/8/3K4/8/5P2/8 b - - 57 300", CastlingMode::Standard),
    // Odd number of pieces (an unused last nibble).
    ("8/8/4k3/8/2r5/7P/3RK3/8 w - - 3 61", CastlingMode::Standard),
    ("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", CastlingMode::Chess960),
    (cutoff_board::STARTPOS_FEN, CastlingMode::Chess960),
];

#[test]
fn random_games_round_trip() {
    let mut rng = TestRng(0x1234_5678_9ABC_DEF1);
    let mut games = Vec::new();
    for round in 0..30 {
        let (fen, mode) = START_FENS[round % START_FENS.len()];
        games.push(random_game(&mut rng, board(fen, mode), 200));
    }
    let bytes = write_all(&games);
    let read = read_all(&bytes).unwrap();
    assert_eq!(read, games);
    for (game, back) in games.iter().zip(&read) {
        assert_eq!(back.start().fen().to_string(), game.start().fen().to_string());
        assert_eq!(back.start().castling_mode(), game.start().castling_mode());
        // Replaying gives the same boards, moves and scores, and ends on the final board.
        let positions: Vec<_> = back.replay().collect();
        assert_eq!(positions.len(), game.len() + 1);
        let mut board = *game.start();
        for (p, ply) in positions.iter().zip(game.plies()) {
            assert_eq!(p.board, board);
            assert_eq!((p.mv, p.score), (Some(ply.mv), ply.score));
            board.play(ply.mv);
        }
        let last = positions.last().unwrap();
        assert_eq!((last.board, last.mv, last.score), (board, None, game.final_score()));
        assert_eq!(back.end_board(), &board);
    }
    // An empty file (just the header) has no games.
    assert_eq!(read_all(&write_all(&[])).unwrap(), []);
}

#[test]
fn chess960_castling_survives_a_round_trip() {
    let cases = [
        // King on e, rooks on b and g.
        ("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1", ["O-O", "O-O-O", "O-O-O", "O-O"]),
        // King on b, next to the a-file rook.
        ("rk4r1/pppppppp/8/8/8/8/PPPPPPPP/RK4R1 w GAga - 0 1", ["O-O-O", "O-O", "O-O", "O-O-O"]),
    ];
    for (fen, castles) in cases {
        let start = board(fen, CastlingMode::Chess960);
        let mut game = GameRecord::new(start, GameResult::Draw);
        // Each side castles one way and the other side's other way (one castle a side, then moves).
        let first = *game.end_board();
        game.push(first.parse_san(castles[0]).unwrap(), Some(10)).unwrap();
        let second = *game.end_board();
        game.push(second.parse_san(castles[1]).unwrap(), Some(-10)).unwrap();
        assert!(game.plies().iter().all(|p| p.mv.kind() == MoveKind::Castle));

        // And a game that starts with one right already gone.
        let mut partial = *game.start();
        partial.play(partial.parse_uci("a2a3").unwrap());
        let mut other = GameRecord::new(partial, GameResult::BlackWin);
        let b = *other.end_board();
        other.push(b.parse_san(castles[2]).unwrap(), None).unwrap();

        let bytes = write_all(&[game.clone(), other.clone()]);
        let read = read_all(&bytes).unwrap();
        assert_eq!(read, [game.clone(), other]);
        let back = read[0].start();
        assert!(back.is_chess960());
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                assert_eq!(back.castling_rook(color, side), start.castling_rook(color, side), "{fen}");
            }
        }
        assert_eq!(read[0].end_board().fen().to_string(), game.end_board().fen().to_string());
    }
    // The Chess960 flag is the only difference between these two start positions.
    let standard = GameRecord::new(Board::default(), GameResult::Draw);
    let chess960 = GameRecord::new(board(cutoff_board::STARTPOS_FEN, CastlingMode::Chess960), GameResult::Draw);
    let read = read_all(&write_all(&[standard, chess960])).unwrap();
    assert!(!read[0].start().is_chess960());
    assert!(read[1].start().is_chess960());
}

/// A file of one game from the start position: 1.e4 (score 30) e5 (-25), final score none.
/// Its bytes: header 0..12, occupancy 12..20, piece codes 20..36, state 36, rook files 37..39,
/// en passant 39, halfmove clock 40..42, fullmove number 42..44, result 44, e2e4 at 45..47 with
/// its score at 47..49, e7e5 at 49..53, the terminator at 53..57.
fn sample_file() -> Vec<u8> {
    let mut game = GameRecord::new(Board::default(), GameResult::WhiteWin);
    let b = *game.end_board();
    game.push(b.parse_uci("e2e4").unwrap(), Some(30)).unwrap();
    let b = *game.end_board();
    game.push(b.parse_uci("e7e5").unwrap(), Some(-25)).unwrap();
    let bytes = write_all(&[game]);
    assert_eq!(bytes.len(), 57);
    assert_eq!(&bytes[..12], b"CUTOFFGR\x01\x00\x00\x00");
    assert_eq!(&bytes[20..24], &[0x13, 0x42, 0x25, 0x31]); // R N, B Q, K B, N R
    assert_eq!(&bytes[36..45], &[0x0F, 0x07, 0x07, 0xFF, 0, 0, 1, 0, 2]);
    assert_eq!(&bytes[53..57], &[0, 0, 0x00, 0x80]); // move 0, NO_SCORE
    bytes
}

fn first_error(bytes: &[u8]) -> FormatError {
    match GameReader::new(bytes) {
        Err(e) => e,
        Ok(reader) => {
            let mut reader = reader;
            match reader.find_map(Result::err) {
                Some(e) => e,
                None => panic!("no error"),
            }
        }
    }
}

fn corrupted(change: impl FnOnce(&mut Vec<u8>)) -> FormatError {
    let mut bytes = sample_file();
    change(&mut bytes);
    first_error(&bytes)
}

#[test]
fn every_error_of_a_corrupt_file() {
    let e = corrupted(|b| b[0] = b'X');
    assert!(matches!(e, FormatError::BadMagic { found } if &found == b"XUTOFFGR"), "{e}");
    let e = corrupted(|b| b[..4].copy_from_slice(b"\x89PNG"));
    assert!(e.to_string().contains("not a Cutoff game file"), "{e}");

    // Versions 1 and 2 are read; 3 is not.
    let e = corrupted(|b| b[8] = 3);
    assert!(matches!(e, FormatError::UnsupportedVersion { found: 3 }), "{e}");
    assert!(e.to_string().contains("version 3"), "{e}");

    let e = corrupted(|b| b.truncate(10));
    assert!(matches!(e, FormatError::TruncatedHeader { len: 10 }), "{e}");
    let e = corrupted(|b| b.clear());
    assert!(matches!(e, FormatError::TruncatedHeader { len: 0 }), "{e}");

    let e = corrupted(|b| b.truncate(50));
    assert!(matches!(e, FormatError::Truncated { game: 0 }), "{e}");

    // a1: code 6 is no piece.
    let e = corrupted(|b| b[20] = 0x16);
    assert!(matches!(e, FormatError::BadPieceCode { game: 0, square: Square::A1, code: 6 }), "{e}");

    // Reserved state bits.
    let e = corrupted(|b| b[36] |= 0x40);
    assert!(matches!(e, FormatError::BadField { game: 0, .. }), "{e}");
    // A rook file for a right that is not held (White's king side right removed).
    let e = corrupted(|b| b[36] = 0x0E);
    assert!(matches!(e, FormatError::BadField { game: 0, field } if field.contains("not held")), "{e}");
    // A castling rook file out of range.
    let e = corrupted(|b| b[37] = 0x0F);
    assert!(matches!(e, FormatError::BadField { game: 0, .. }), "{e}");
    // An en passant square out of range.
    let e = corrupted(|b| b[39] = 64);
    assert!(matches!(e, FormatError::BadField { game: 0, field } if field.contains("en passant")), "{e}");
    // Fullmove number 0: a legal position, but not as this format writes it.
    let e = corrupted(|b| b[42] = 0);
    assert!(matches!(e, FormatError::BadField { game: 0, field } if field.contains("canonical")), "{e}");
    // A pawn on the first rank is no legal position; nor is a king turned into a queen.
    let e = corrupted(|b| b[20] = 0x10);
    assert!(matches!(e, FormatError::InvalidPosition { game: 0, .. }), "{e}");
    let e = corrupted(|b| b[22] = 0x24);
    assert!(matches!(e, FormatError::InvalidPosition { game: 0, .. }), "{e}");
    // More than 32 pieces.
    let e = corrupted(|b| b[12..20].copy_from_slice(&u64::MAX.to_le_bytes()));
    assert!(matches!(e, FormatError::BadField { game: 0, .. }), "{e}");

    let e = corrupted(|b| b[44] = 3);
    assert!(matches!(e, FormatError::BadResult { game: 0, found: 3 }), "{e}");

    // e2e5: a well-formed move, illegal here.
    let e2e5 = Move::new(Square::E2, Square::E5, MoveKind::Quiet).raw();
    let e = corrupted(|b| b[45..47].copy_from_slice(&e2e5.to_le_bytes()));
    assert!(matches!(e, FormatError::IllegalMove { game: 0, ply: 0, raw } if raw == e2e5), "{e}");
    // Flag 3 encodes no move; e2e4 played twice is illegal at ply 1.
    let e = corrupted(|b| b[45..47].copy_from_slice(&0x370Cu16.to_le_bytes()));
    assert!(matches!(e, FormatError::IllegalMove { game: 0, ply: 0, raw: 0x370C }), "{e}");
    let e = corrupted(|b| {
        let e2e4 = [b[45], b[46]];
        b[49..51].copy_from_slice(&e2e4);
    });
    assert!(matches!(e, FormatError::IllegalMove { game: 0, ply: 1, .. }), "{e}");

    let e = corrupted(|b| b[47..49].copy_from_slice(&32_500i16.to_le_bytes()));
    assert!(matches!(e, FormatError::BadScore { game: 0, ply: 0, value: 32_500 }), "{e}");
    let e = corrupted(|b| b[55..57].copy_from_slice(&(-32_001i16).to_le_bytes()));
    assert!(matches!(e, FormatError::BadScore { game: 0, ply: 2, value: -32_001 }), "{e}");

    // A read error is passed on.
    struct Failing(Vec<u8>);
    impl Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() {
                return Err(io::Error::other("disk on fire"));
            }
            let n = buf.len().min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0.drain(..n);
            Ok(n)
        }
    }
    let mut reader = GameReader::new(Failing(sample_file()[..HEADER_LEN].to_vec())).unwrap();
    let e = reader.next().unwrap().unwrap_err();
    assert!(matches!(e, FormatError::Io(_)), "{e}");
    assert!(e.to_string().contains("disk on fire"), "{e}");
    assert!(reader.next().is_none(), "the reader stops after an error");
}

/// A file cut anywhere reads as its complete games and then, unless the cut falls between
/// two games, `Truncated`, with `complete_len` at the end of the last complete game; in both
/// encodings.
#[test]
fn a_file_cut_anywhere_reads_up_to_its_last_complete_game() {
    for (encoding, seed) in [(Encoding::Plain, 99), (Encoding::Compact, 1234)] {
        let mut rng = TestRng(seed);
        let games: Vec<_> = (0..3).map(|_| random_game(&mut rng, Board::default(), 30)).collect();
        let bytes = write_all_as(&games, encoding);
        let mut ends = vec![HEADER_LEN];
        for game in &games {
            let mut one = Vec::new();
            encode_game_as(game, encoding, &mut one);
            ends.push(ends.last().unwrap() + one.len());
        }
        assert_eq!(*ends.last().unwrap(), bytes.len());
        for cut in 0..=bytes.len() {
            let reader = GameReader::new(&bytes[..cut]);
            if cut < HEADER_LEN {
                assert!(matches!(reader, Err(FormatError::TruncatedHeader { len }) if len == cut));
                continue;
            }
            let mut reader = reader.unwrap();
            let read: Vec<_> = reader.by_ref().collect();
            let complete = ends.iter().rposition(|&end| end <= cut).unwrap();
            assert_eq!(reader.games_read(), complete as u64, "{encoding:?} cut {cut}");
            assert_eq!(reader.complete_len(), ends[complete] as u64, "{encoding:?} cut {cut}");
            for (i, r) in read.iter().enumerate().take(complete) {
                assert_eq!(r.as_ref().unwrap(), &games[i]);
            }
            if ends.contains(&cut) {
                assert_eq!(read.len(), complete, "{encoding:?} cut {cut}");
            } else {
                assert!(matches!(read.last(), Some(Err(FormatError::Truncated { game })) if *game == complete as u64));
            }
        }
    }
}

/// Any single corrupt byte gives legal games or an error, never a panic, in both encodings.
#[test]
fn corrupt_bytes_never_panic() {
    for (encoding, seed) in [(Encoding::Plain, 7), (Encoding::Compact, 77)] {
        let mut rng = TestRng(seed);
        let games: Vec<_> =
            (0..2).map(|i| random_game(&mut rng, board(START_FENS[i * 5].0, START_FENS[i * 5].1), 12)).collect();
        let bytes = write_all_as(&games, encoding);
        for i in 0..bytes.len() {
            for value in [0x00, 0xFF, 0x80, 0x7F, 0x01, bytes[i] ^ 0x10, bytes[i] ^ 0x01] {
                let mut copy = bytes.clone();
                copy[i] = value;
                if let Ok(reader) = GameReader::new(&copy[..]) {
                    // Whatever reads back is a legal game.
                    for game in reader.flatten() {
                        assert_eq!(game.replay().count(), game.len() + 1);
                    }
                }
            }
        }
    }
}

#[test]
fn the_training_filter() {
    // 1.e4 d5 2.exd5 Qxd5 3.Nc3 Qe5+ 4.Be2, White won.
    let mut game = GameRecord::new(Board::default(), GameResult::WhiteWin);
    for (mv, score) in [
        ("e2e4", 30),     // kept
        ("d7d5", -20),    // kept
        ("e4d5", 50),     // a capture: skipped
        ("d8d5", -40),    // a capture: skipped
        ("b1c3", 31_000), // a mate-like score: skipped
        ("d5e5", -20),    // kept (it gives check; the position before it is quiet)
        ("f1e2", 10),     // White is in check: skipped
    ] {
        let b = *game.end_board();
        game.push(b.parse_uci(mv).unwrap(), Some(score)).unwrap();
    }
    // The final position (Black to move, no score) is kept: the result alone labels it.
    let kept: Vec<_> =
        game.positions().map(|p| (p.board.fullmove_number(), p.board.side_to_move(), p.score, p.result)).collect();
    assert_eq!(
        kept,
        [
            (1, Color::White, Some(30), 1.0),
            (1, Color::Black, Some(-20), 0.0),
            (3, Color::Black, Some(-20), 0.0),
            (4, Color::Black, None, 0.0),
        ]
    );
    // Promotions are noisy too, and the threshold is 10000.
    let promo = board("8/P5k1/8/8/8/8/6K1/8 w - - 0 1", CastlingMode::Standard);
    let a8q = promo.parse_uci("a7a8q").ok();
    let kg3 = promo.parse_uci("g2g3").ok();
    assert!(!is_training_position(&promo, a8q, Some(800)));
    assert!(is_training_position(&promo, kg3, Some(9_999)));
    assert!(!is_training_position(&promo, kg3, Some(-10_000)));
    // A move without a score: the game does not vouch for the position (the rule of scored
    // openings whose search chose a noisy move). Without a move, the result alone labels it.
    assert!(!is_training_position(&promo, kg3, None));
    assert!(is_training_position(&promo, None, None));
    // A game that ends in mate or stalemate does not yield its final position; a draw by
    // result keeps it, with the result 0.5 for the side to move.
    for (fen, kept) in [
        ("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", 0),
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 0),
        ("8/8/4k3/8/2r5/8/3RK3/8 w - - 0 1", 1),
    ] {
        let game = GameRecord::new(board(fen, CastlingMode::Standard), GameResult::Draw);
        let positions: Vec<_> = game.positions().collect();
        assert_eq!(positions.len(), kept, "{fen}");
        assert!(positions.iter().all(|p| p.result == 0.5));
    }
}

/// A move recorded without a score (a scored opening's position whose search chose a noisy
/// move) is no training position, also after a write and a read in either encoding; the final
/// position without a score still is.
#[test]
fn a_move_without_a_score_is_no_training_position() {
    let mut game = GameRecord::new(Board::default(), GameResult::Draw);
    for (mv, score) in [("e2e4", Some(30)), ("d7d5", None), ("b1c3", Some(40))] {
        let b = *game.end_board();
        game.push(b.parse_uci(mv).unwrap(), score).unwrap();
    }
    let kept = |g: &GameRecord| -> Vec<_> { g.positions().map(|p| (p.board.fullmove_number(), p.score)).collect() };
    let expected = [(1, Some(30)), (2, Some(40)), (2, None)];
    assert_eq!(kept(&game), expected);
    for encoding in [Encoding::Plain, Encoding::Compact] {
        let mut writer = GameWriter::with_encoding(Vec::new(), encoding).unwrap();
        writer.write_game(&game).unwrap();
        let bytes = writer.into_inner();
        let read = read_all(&bytes).unwrap();
        assert_eq!(read, [game.clone()]);
        assert_eq!(kept(&read[0]), expected);
        let stats = file_stats(&bytes[..]).unwrap();
        assert_eq!((stats.training_positions, stats.scored_positions), (3, 2));
    }
}

#[test]
fn no_score_is_distinct_from_every_score() {
    let mut game = GameRecord::new(Board::default(), GameResult::Draw);
    let b = *game.end_board();
    // Some(NO_SCORE) is a (clamped) score, not "none".
    game.push(b.parse_uci("e2e4").unwrap(), Some(NO_SCORE)).unwrap();
    assert_eq!(game.plies()[0].score, Some(-SCORE_MAX));
    let read = read_all(&write_all(&[game.clone()])).unwrap();
    assert_eq!(read[0].plies()[0].score, Some(-SCORE_MAX));
    assert_eq!(read[0].final_score(), None);
}

/// Random games of every start position, Chess960 included, read back the same from the
/// compact encoding, and a plain file rewritten compact (and back) holds the same games.
#[test]
fn compact_files_round_trip() {
    let mut rng = TestRng(0x0BAD_5EED_2026_1126);
    let mut games = Vec::new();
    for round in 0..40 {
        let (fen, mode) = START_FENS[round % START_FENS.len()];
        games.push(random_game(&mut rng, board(fen, mode), 300));
    }
    // A game of no moves, and scores at the extremes one after the other.
    games.push(GameRecord::new(Board::default(), GameResult::Draw));
    let mut extremes = GameRecord::new(Board::default(), GameResult::BlackWin);
    for (i, score) in [SCORE_MAX, SCORE_MAX, -SCORE_MAX, -SCORE_MAX, 0, SCORE_MAX, 1, -1].into_iter().enumerate() {
        let moves = extremes.end_board().legal_moves();
        extremes.push(moves[i % moves.len()], Some(score)).unwrap();
    }
    extremes.set_final_score(Some(-SCORE_MAX));
    games.push(extremes);

    let compact = write_all_as(&games, Encoding::Compact);
    assert_eq!(&compact[..HEADER_LEN], b"CUTOFFGR\x02\x00\x00\x00");
    let reader = GameReader::new(&compact[..]).unwrap();
    assert_eq!(reader.encoding(), Encoding::Compact);
    assert_eq!(reader.collect::<Result<Vec<_>, _>>().unwrap(), games);

    let plain = write_all(&games);
    assert_eq!(GameReader::new(&plain[..]).unwrap().encoding(), Encoding::Plain);
    let from_plain: Vec<_> = read_all(&plain).unwrap();
    assert_eq!(write_all_as(&from_plain, Encoding::Compact), compact);
    assert_eq!(write_all(&read_all(&compact).unwrap()), plain);
    // Random scores take 2 or 3 bytes as varints, yet the compact file is smaller.
    assert!(compact.len() < plain.len(), "{} against {}", compact.len(), plain.len());
    assert_eq!(file_stats(&compact[..]).unwrap().encoding, Encoding::Compact);
    assert_eq!(read_all(&write_all_as(&[], Encoding::Compact)).unwrap(), []);
}

/// The compact sample: 1.e4 (score 30) e5 (-25), final score none. Its bytes: header 0..12,
/// the packed start 12..44, result 44, the number of moves 45, the two move indices 46 and 47,
/// the three scores 48, 49 and 50.
fn compact_sample() -> Vec<u8> {
    let game = read_all(&sample_file()).unwrap().remove(0);
    let bytes = write_all_as(&[game], Encoding::Compact);
    // 30: zigzag 60, + 1. -25 after 30: delta 5, zigzag 10, + 1. None: 0.
    assert_eq!(&bytes[44..], &[2, 2, 16, 16, 61, 11, 0]);
    // e2e4 is the 17th of the start position's legal moves sorted by their raw 16 bits, and
    // e7e5 the 17th of the position after it.
    let sorted_raw = |board: &Board| {
        let mut raws: Vec<u16> = board.legal_moves().iter().map(|m| m.raw()).collect();
        raws.sort_unstable();
        raws
    };
    let mut b = Board::default();
    let e2e4 = b.parse_uci("e2e4").unwrap();
    assert_eq!(sorted_raw(&b)[16], e2e4.raw());
    b.play(e2e4);
    assert_eq!(sorted_raw(&b)[16], b.parse_uci("e7e5").unwrap().raw());
    bytes
}

#[test]
fn every_error_of_a_corrupt_compact_file() {
    let sample = compact_sample();
    let corrupt = |change: &dyn Fn(&mut Vec<u8>)| {
        let mut bytes = sample.clone();
        change(&mut bytes);
        first_error(&bytes)
    };
    // The start position's 20 moves: index 20 is none of them.
    let e = corrupt(&|b| b[46] = 20);
    assert!(matches!(e, FormatError::BadMoveIndex { game: 0, ply: 0, index: 20, legal: 20 }), "{e}");
    assert!(e.to_string().contains("20 legal moves"), "{e}");
    let e = corrupt(&|b| b[47] = 255);
    assert!(matches!(e, FormatError::BadMoveIndex { game: 0, ply: 1, index: 255, .. }), "{e}");
    // A varint not in its shortest form (61 as 0xBD 0x00), and one beyond 32 bits.
    let e = corrupt(&|b| {
        b.splice(48..49, [0xBD, 0x00]);
    });
    assert!(matches!(e, FormatError::BadVarint { game: 0 }), "{e}");
    let e = corrupt(&|b| {
        b.splice(45..46, [0xFF, 0xFF, 0xFF, 0xFF, 0x7F]);
    });
    assert!(matches!(e, FormatError::BadVarint { game: 0 }), "{e}");
    let e = corrupt(&|b| {
        b.splice(45..46, [0x80, 0x80, 0x80, 0x80, 0x80, 0x01]);
    });
    assert!(matches!(e, FormatError::BadVarint { game: 0 }), "{e}");
    // Scores beyond ±32000. At the start 32001 is zigzag 64002, + 1 = 64003 = 0x83 0xF4 0x03.
    // The final position's -32001 after -25 (prediction 25): -32026, zigzag 64051, + 1 = 64052.
    let e = corrupt(&|b| {
        b.splice(48..49, [0x83, 0xF4, 0x03]);
    });
    assert!(matches!(e, FormatError::BadScore { game: 0, ply: 0, value: 32_001 }), "{e}");
    let e = corrupt(&|b| {
        b.splice(50..51, [0xB4, 0xF4, 0x03]);
    });
    assert!(matches!(e, FormatError::BadScore { game: 0, ply: 2, value: -32_001 }), "{e}");
    // The largest varints after the extreme scores: no overflow, a bad score.
    for (previous, code) in
        [([0x80, 0xF4, 0x03], [0xFF, 0xFF, 0xFF, 0xFF, 0x0F]), ([0x81, 0xF4, 0x03], [0xFE, 0xFF, 0xFF, 0xFF, 0x0F])]
    {
        let e = corrupt(&|b| {
            b.splice(49..50, code);
            b.splice(48..49, previous);
        });
        assert!(matches!(e, FormatError::BadScore { game: 0, ply: 1, .. }), "{e}");
    }
    // A huge move count in a short file is a truncated game, not an allocation.
    let e = corrupt(&|b| {
        b.splice(45..46, [0xFF, 0xFF, 0xFF, 0xFF, 0x0F]);
    });
    assert!(matches!(e, FormatError::Truncated { game: 0 }), "{e}");
    // The packed start position is checked as in version 1.
    let e = corrupt(&|b| b[44] = 3);
    assert!(matches!(e, FormatError::BadResult { game: 0, found: 3 }), "{e}");
}
