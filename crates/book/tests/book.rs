//! Books written by the tests themselves, byte by byte, then loaded and probed.

use std::collections::{HashMap, HashSet};

use cutoff_board::{Board, Move};
use cutoff_book::{Book, BookError, BookRng, Entry, polyglot_key};

/// A move in Polyglot's encoding, written out here independently of the crate: `e2e4`,
/// `e1h1` (castling), `a7a8q` (promotion).
fn poly(text: &str) -> u16 {
    let b = text.as_bytes();
    let file = |c: u8| u16::from(c - b'a');
    let row = |c: u8| u16::from(c - b'1');
    let promotion = match b.get(4) {
        None => 0,
        Some(b'n') => 1,
        Some(b'b') => 2,
        Some(b'r') => 3,
        Some(b'q') => 4,
        Some(_) => panic!("bad promotion in {text}"),
    };
    file(b[2]) | row(b[3]) << 3 | file(b[0]) << 6 | row(b[1]) << 9 | promotion << 12
}

fn fen(text: &str) -> Board {
    Board::from_fen(text, cutoff_board::CastlingMode::Standard).unwrap()
}

/// One raw entry: key, move, weight (learn 0).
type Raw = (u64, u16, u16);

/// The bytes of a book holding `entries`, sorted by key, 16 big-endian bytes each.
fn book_bytes(entries: &[Raw]) -> Vec<u8> {
    let mut entries = entries.to_vec();
    entries.sort_by_key(|e| e.0);
    let mut bytes = Vec::new();
    for (key, mv, weight) in entries {
        bytes.extend(key.to_be_bytes());
        bytes.extend(mv.to_be_bytes());
        bytes.extend(weight.to_be_bytes());
        bytes.extend(0u32.to_be_bytes());
    }
    bytes
}

/// A book from (position, Polyglot move text, weight) triples.
fn book(entries: &[(&Board, &str, u16)]) -> Book {
    let raw: Vec<Raw> = entries.iter().map(|(b, mv, w)| (polyglot_key(b), poly(mv), *w)).collect();
    Book::from_bytes(book_bytes(&raw)).unwrap()
}

fn mv(board: &Board, uci: &str) -> Move {
    board.parse_uci(uci).unwrap()
}

fn listed(book: &Book, board: &Board) -> Vec<(String, u32)> {
    book.entries(board).iter().map(|m| (board.uci(m.mv).to_string(), m.weight)).collect()
}

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

#[test]
fn probes_positions_by_polyglot_key() {
    let start = Board::default();
    let mut after_e4 = start;
    after_e4.play(mv(&start, "e2e4"));
    let kiwipete = fen(KIWIPETE);
    let book = book(&[
        (&start, "g1f3", 1),
        (&start, "e2e4", 10),
        (&start, "d2d4", 5),
        (&after_e4, "c7c5", 7),
        (&after_e4, "e7e5", 7),
        (&kiwipete, "e2a6", 3),
    ]);
    assert_eq!(book.len(), 6);
    assert_eq!(listed(&book, &start), [("e2e4".into(), 10), ("d2d4".into(), 5), ("g1f3".into(), 1)]);
    // Equal weights keep file order.
    assert_eq!(listed(&book, &after_e4), [("c7c5".into(), 7), ("e7e5".into(), 7)]);
    assert_eq!(listed(&book, &kiwipete), [("e2a6".into(), 3)]);
    assert_eq!(book.best(&start), Some(mv(&start, "e2e4")));
    assert_eq!(book.best(&after_e4), Some(mv(&after_e4, "c7c5")));
    // Out of book.
    let mut out = after_e4;
    out.play(mv(&after_e4, "a7a6"));
    assert!(book.entries(&out).is_empty());
    assert_eq!(book.best(&out), None);
    assert_eq!(book.choose(&out, &mut BookRng::new(1)), None);
    // The raw probe sees the key's entries only.
    assert_eq!(book.probe(polyglot_key(&start)).count(), 3);
    assert_eq!(book.probe(polyglot_key(&out)).count(), 0);
}

#[test]
fn weighted_choice_follows_the_weights() {
    let start = Board::default();
    let book = book(&[(&start, "e2e4", 60), (&start, "d2d4", 30), (&start, "c2c4", 10)]);
    let moves = [mv(&start, "e2e4"), mv(&start, "d2d4"), mv(&start, "c2c4")];
    let share = |picks: &[Move]| -> Vec<f64> {
        moves.iter().map(|m| picks.iter().filter(|p| *p == m).count() as f64 / picks.len() as f64).collect()
    };
    // One generator, many probes.
    let mut rng = BookRng::new(0xB00C);
    let picks: Vec<Move> = (0..30_000).map(|_| book.choose(&start, &mut rng).unwrap()).collect();
    for (got, want) in share(&picks).iter().zip([0.6, 0.3, 0.1]) {
        assert!((got - want).abs() < 0.015, "share {got} for weight share {want}");
    }
    // The first choice of many seeds.
    let picks: Vec<Move> = (0..30_000).map(|seed| book.choose(&start, &mut BookRng::new(seed)).unwrap()).collect();
    for (got, want) in share(&picks).iter().zip([0.6, 0.3, 0.1]) {
        assert!((got - want).abs() < 0.015, "share {got} for weight share {want} over seeds");
    }
}

#[test]
fn choice_is_deterministic_per_seed() {
    let start = Board::default();
    let book = book(&[(&start, "e2e4", 1), (&start, "d2d4", 1), (&start, "c2c4", 1), (&start, "g1f3", 1)]);
    let run = |seed| {
        let mut rng = BookRng::new(seed);
        (0..64).map(|_| book.choose(&start, &mut rng).unwrap()).collect::<Vec<_>>()
    };
    for seed in [0, 1, 42, u64::MAX] {
        assert_eq!(run(seed), run(seed));
    }
    assert_ne!(run(1), run(2));
    // A generator moves on: successive choices are not all the same.
    assert!(run(7).windows(2).any(|w| w[0] != w[1]));
}

#[test]
fn castling_entries_become_castling_moves() {
    let white = fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let black = fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
    let book = book(&[(&white, "e1h1", 2), (&white, "e1a1", 1), (&black, "e8h8", 2), (&black, "e8a8", 1)]);
    for (board, short, long) in [(&white, "e1g1", "e1c1"), (&black, "e8g8", "e8c8")] {
        let moves = book.entries(board);
        assert!(moves.iter().all(|m| m.mv.is_castle()));
        assert_eq!(listed(&book, board), [(short.into(), 2), (long.into(), 1)]);
        assert_eq!(book.best(board), Some(mv(board, short)));
    }
}

#[test]
fn castling_entries_are_checked_for_legality() {
    // The f1 square is attacked by the c4 bishop: no short castling. The book entry is skipped,
    // and not mistaken for a rook capture or anything else.
    let board = fen("r3k2r/8/8/8/2b5/8/8/R3K2R w KQkq - 0 1");
    let book = book(&[(&board, "e1h1", 5), (&board, "e1a1", 1)]);
    assert_eq!(listed(&book, &board), [("e1c1".into(), 1)]);
    // No right, no castling: a king takes own rook entry is just illegal.
    let no_rights = fen("r3k2r/8/8/8/8/8/8/R3K2R w kq - 0 1");
    let book = self::book(&[(&no_rights, "e1h1", 5)]);
    assert!(book.entries(&no_rights).is_empty());
}

#[test]
fn two_square_castling_form_is_accepted_in_standard_chess() {
    let board = fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let book = book(&[(&board, "e1g1", 3), (&board, "e1h1", 1)]);
    // Both entries are the same castling move: merged, weights added.
    assert_eq!(listed(&book, &board), [("e1g1".into(), 4)]);
}

#[test]
fn chess960_castling_is_king_takes_rook() {
    // King on b1, rooks a1 and h1: queen-side castling is b1a1.
    let board = Board::from_fen("rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1", cutoff_board::CastlingMode::Chess960).unwrap();
    let book = book(&[(&board, "b1a1", 1), (&board, "b1h1", 1)]);
    let moves = book.entries(&board);
    assert_eq!(moves.len(), 2);
    assert!(moves.iter().all(|m| m.mv.is_castle()));
}

#[test]
fn promotion_entries() {
    let board = fen("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    let book = book(&[(&board, "a7a8q", 8), (&board, "a7a8n", 4), (&board, "a7b8r", 2), (&board, "a7b8b", 1)]);
    assert_eq!(
        listed(&book, &board),
        [("a7a8q".into(), 8), ("a7a8n".into(), 4), ("a7b8r".into(), 2), ("a7b8b".into(), 1)]
    );
    assert!(book.entries(&board).iter().all(|m| m.mv.is_promotion()));
    // A pawn reaching the last rank without a promotion piece is no move; nor is code 5.
    let key = polyglot_key(&board);
    let bad = Book::from_bytes(book_bytes(&[(key, poly("a7a8"), 9), (key, poly("a7a8") | 5 << 12, 9)])).unwrap();
    assert!(bad.entries(&board).is_empty());
}

#[test]
fn en_passant_entry() {
    let board = fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
    let book = book(&[(&board, "e5f6", 1)]);
    let moves = book.entries(&board);
    assert_eq!(moves.len(), 1);
    assert!(moves[0].mv.is_en_passant());
    // The same position without the en passant right has another key.
    assert!(book.entries(&fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3")).is_empty());
}

#[test]
fn illegal_and_undecodable_entries_are_skipped() {
    let start = Board::default();
    let key = polyglot_key(&start);
    let raw = [
        (key, poly("e2e4"), 1),
        (key, poly("e2e5"), 100), // no such pawn move
        (key, poly("e7e5"), 100), // Black's move, White to move
        (key, poly("e1h1"), 100), // castling through pieces
        (key, 0, 100),            // a1a1: the "no move" of the format
        (key, poly("e2e2"), 100), // from == to
        (key, poly("e2e4") | 0x8000, 100),
        (key, poly("e2e4") | 7 << 12, 100),
    ];
    let book = Book::from_bytes(book_bytes(&raw)).unwrap();
    assert_eq!(book.probe(key).count(), raw.len());
    assert_eq!(listed(&book, &start), [("e2e4".into(), 1)]);
    let mut rng = BookRng::new(3);
    assert!((0..100).all(|_| book.choose(&start, &mut rng) == Some(mv(&start, "e2e4"))));
}

#[test]
fn zero_weights_are_listed_but_never_chosen() {
    let start = Board::default();
    let book = book(&[(&start, "e2e4", 0), (&start, "d2d4", 1)]);
    assert_eq!(listed(&book, &start), [("d2d4".into(), 1), ("e2e4".into(), 0)]);
    let mut rng = BookRng::new(5);
    assert!((0..1000).all(|_| book.choose(&start, &mut rng) == Some(mv(&start, "d2d4"))));
    let all_zero = self::book(&[(&start, "e2e4", 0), (&start, "d2d4", 0)]);
    assert_eq!(all_zero.entries(&start).len(), 2);
    assert_eq!(all_zero.best(&start), None);
    assert_eq!(all_zero.choose(&start, &mut rng), None);
}

#[test]
fn truncated_book_is_a_size_error() {
    let start = Board::default();
    let bytes = book_bytes(&[(polyglot_key(&start), poly("e2e4"), 1), (polyglot_key(&start), poly("d2d4"), 1)]);
    for len in [1, 15, 17, 31] {
        match Book::from_bytes(&bytes[..len]) {
            Err(BookError::Size { len: got }) => assert_eq!(got, len),
            other => panic!("{len} bytes: {other:?}"),
        }
    }
    assert_eq!(Book::from_bytes(&bytes[..16]).unwrap().len(), 1);
    assert_eq!(Book::from_bytes(&bytes[..0]).unwrap().len(), 0);
}

#[test]
fn unsorted_book_is_an_error() {
    let mut bytes = book_bytes(&[(1, poly("e2e4"), 1), (2, poly("e2e4"), 1), (3, poly("e2e4"), 1)]);
    bytes.extend(book_bytes(&[(2, poly("d2d4"), 1)]));
    let err = Book::from_bytes(bytes).unwrap_err();
    assert!(matches!(err, BookError::Unsorted { index: 3 }), "{err:?}");
    assert_eq!(err.to_string(), "book entries are not sorted by key (entry 3 is lower than the one before it)");
    // Equal keys side by side are fine.
    assert!(Book::from_bytes(book_bytes(&[(2, 1, 1), (2, 2, 1), (2, 3, 1)])).is_ok());
}

// `Book::open` reads a file: it comes with the `std` feature.
#[cfg(feature = "std")]
#[test]
fn open_reads_a_file_and_reports_io_errors() {
    let start = Board::default();
    let path = std::env::temp_dir().join(format!("cutoff-book-test-{}.bin", std::process::id()));
    std::fs::write(&path, book_bytes(&[(polyglot_key(&start), poly("e2e4"), 1)])).unwrap();
    let book = Book::open(&path);
    std::fs::write(&path, [0u8; 24]).unwrap();
    let truncated = Book::open(&path);
    std::fs::remove_file(&path).unwrap();
    assert_eq!(book.unwrap().best(&start), Some(mv(&start, "e2e4")));
    assert!(matches!(truncated, Err(BookError::Size { len: 24 })));
    let missing = Book::open(&path).unwrap_err();
    assert!(matches!(&missing, BookError::Io(e) if e.kind() == std::io::ErrorKind::NotFound));
    assert!(std::error::Error::source(&missing).is_some());
}

#[test]
fn from_entries_matches_hand_written_bytes() {
    let start = Board::default();
    let kiwipete = fen(KIWIPETE);
    let triples = [(&kiwipete, "e1h1", 2), (&start, "e2e4", 1), (&start, "d2d4", 3), (&kiwipete, "e2a6", 9)];
    let built = Book::from_entries(triples.iter().map(|(b, m, w)| Entry::new(b, mv(b, m), *w)));
    // Sorted by key, then by weight from the highest, as make-book writes.
    let mut raw: Vec<Raw> = triples.iter().map(|(b, m, w)| (polyglot_key(b), poly(m), *w)).collect();
    raw.sort_by(|a, b| a.0.cmp(&b.0).then(b.2.cmp(&a.2)));
    let mut bytes = Vec::new();
    for (key, m, w) in raw {
        bytes.extend(key.to_be_bytes());
        bytes.extend(m.to_be_bytes());
        bytes.extend(w.to_be_bytes());
        bytes.extend([0; 4]);
    }
    assert_eq!(built.as_bytes(), bytes);
    assert_eq!(Book::from_bytes(bytes).unwrap(), built);
}

#[test]
fn binary_search_finds_every_position_of_a_large_book() {
    // Random games from the start position: every position reached gets one entry for the
    // move played there. Then every position must find exactly its entries.
    let mut rng = BookRng::new(99);
    let mut triples: Vec<(Board, Move, u16)> = Vec::new();
    for _ in 0..200 {
        let mut board = Board::default();
        for _ in 0..30 {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len() as u64) as usize];
            triples.push((board, m, 1 + rng.below(100) as u16));
            board.play(m);
        }
    }
    let book = Book::from_entries(triples.iter().map(|(b, m, w)| Entry::new(b, *m, *w)));
    assert_eq!(book.len(), triples.len());
    let bytes = book.as_bytes().to_vec();
    let book = Book::from_bytes(bytes).unwrap();
    let mut expected: HashMap<u64, HashSet<Move>> = HashMap::new();
    for (board, m, _) in &triples {
        expected.entry(polyglot_key(board)).or_default().insert(*m);
    }
    for (board, m, _) in &triples {
        let moves = book.entries(board);
        assert!(moves.iter().any(|bm| bm.mv == *m), "{m} missing in {}", board.fen());
        assert_eq!(moves.len(), expected[&polyglot_key(board)].len());
    }
    // The lowest and highest keys of the file are found too.
    let first = book.entry(0).unwrap();
    let last = book.entry(book.len() - 1).unwrap();
    assert!(book.probe(first.key).all(|e| e.key == first.key));
    assert!(book.probe(first.key).count() >= 1 && book.probe(last.key).count() >= 1);
    assert_eq!(book.probe(0).count(), usize::from(first.key == 0));
    assert_eq!(book.probe(u64::MAX).count(), usize::from(last.key == u64::MAX));
}
