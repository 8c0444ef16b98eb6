//! Tables with pawns (`data/syzygy/`: KPvK, KPPvK, KRPvK): probes against values from
//! python-chess 1.11.2 (`chess.syzygy`) on the same files, with the pawns on every kind of file,
//! either colour to move and either colour owning the pawns, and en passant.

use std::path::PathBuf;

use cutoff_board::{Board, CastlingMode};
use cutoff_syzygy::{Tablebases, Wdl};

fn tables() -> Tablebases {
    let tb = Tablebases::open([PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/syzygy")]);
    assert!(tb.problems().is_empty(), "{:?}", tb.problems());
    tb
}

fn board(fen: &str) -> Board {
    Board::from_fen(fen, CastlingMode::Standard).unwrap()
}

/// `(fen, wdl, dtz)` with python-chess's values, checked one by one.
fn check(tb: &Tablebases, cases: &[(&str, i32, i32)]) {
    for &(fen, wdl, dtz) in cases {
        let b = board(fen);
        assert_eq!(tb.probe_wdl(&b).map(Wdl::to_i32), Some(wdl), "wdl {fen}");
        assert_eq!(tb.probe_dtz(&b), Some(dtz), "dtz {fen}");
    }
    assert!(tb.take_new_problems().is_empty());
}

#[test]
fn one_pawn() {
    check(
        &tables(),
        &[
            // White's pawn, white to move: wins, draws, on the central, b/g and a/h files.
            ("8/8/8/k7/8/8/K3P3/8 w - - 0 1", 2, 17),
            ("8/8/8/4k3/8/8/1P2K3/8 w - - 0 1", 2, 15),
            ("8/8/8/8/4k3/6KP/8/8 w - - 0 1", 2, 9),
            ("8/8/8/3k4/1K6/8/P7/8 w - - 0 1", 2, 7),
            ("8/8/8/8/P3k3/8/1K6/8 w - - 0 1", 0, 0),
            ("3k4/8/8/8/8/7P/5K2/8 w - - 0 1", 0, 0),
            ("8/1k1K4/8/8/1P6/8/8/8 w - - 0 1", 0, 0),
            // White's pawn, black to move (the DTZ table may store the other side).
            ("8/8/8/8/8/8/5P1k/4K3 b - - 0 1", -2, -14),
            ("8/6k1/8/6K1/8/1P6/8/8 b - - 0 1", -2, -14),
            ("8/K7/P7/8/8/8/5k2/8 b - - 0 1", -2, -4),
            ("8/2K5/4k3/8/8/8/P7/8 b - - 0 1", -2, -4),
            ("4k3/5P2/8/5K2/8/8/8/8 b - - 0 1", 0, 0),
            ("8/7P/5k2/8/8/8/7K/8 b - - 0 1", 0, 0),
            // Black's pawn (the table's colours swapped), either side to move.
            ("3k4/8/3p1K2/8/8/8/8/8 b - - 0 1", 2, 15),
            ("1k6/8/K1p5/8/8/8/8/8 b - - 0 1", 2, 15),
            ("8/p7/8/8/3K4/8/2k5/8 b - - 0 1", 2, 3),
            ("4k3/8/8/8/p7/8/2K5/8 b - - 0 1", 0, 0),
            ("5k2/8/5p2/8/8/1K6/8/8 w - - 0 1", -2, -16),
            ("3k4/3p4/8/8/8/8/6K1/8 w - - 0 1", -2, -14),
            ("8/7p/8/8/4k3/8/2K5/8 w - - 0 1", -2, -6),
            ("8/8/8/k7/8/7K/7p/8 w - - 0 1", 0, 0),
            // An en passant square where no capture is possible changes nothing.
            ("8/3k4/8/8/4K2P/8/8/8 b - h3 0 1", 0, 0),
        ],
    );
}

#[test]
fn two_pawns_and_rook_and_pawn() {
    check(
        &tables(),
        &[
            // KPPvK: two leading pawns.
            ("8/5k2/8/5P2/5P2/7K/8/8 w - - 0 1", 2, 7),
            ("8/8/3k4/8/4P3/4P3/2K5/8 w - - 0 1", 2, 7),
            ("2k5/8/8/5P2/5P2/8/7K/8 b - - 0 1", -2, -10),
            ("8/8/k7/P7/1P6/8/4K3/8 b - - 0 1", -2, -6),
            ("8/8/3k4/8/8/K6P/7P/8 w - - 0 1", 0, 0),
            ("5k2/8/2K5/8/8/7P/7P/8 w - - 0 1", 0, 0),
            ("2k5/2p5/8/2p5/8/2K5/8/8 b - - 0 1", 2, 5),
            ("2k5/8/8/8/1p6/2p5/8/3K4 w - - 0 1", -2, -12),
            ("1k6/5p1p/8/8/6K1/8/8/8 w - - 0 1", -2, -4),
            ("8/7p/8/7p/1k6/8/7K/8 b - - 0 1", 0, 0),
            // KRPvK.
            ("3k4/8/1K2R3/4P3/8/8/8/8 w - - 0 1", 2, 3),
            ("8/3k4/K7/P7/8/8/7R/8 w - - 0 1", 2, 3),
            ("5R2/8/4k3/3P4/8/8/8/6K1 b - - 0 1", -2, -6),
            ("6R1/8/1k4K1/P7/8/8/8/8 b - - 0 1", -2, -4),
            ("8/8/3R4/2k2P2/8/8/8/K7 b - - 0 1", 0, 0),
            ("8/2k4p/8/8/5r1K/8/8/8 w - - 0 1", -2, -6),
            ("8/1r6/8/8/7p/7k/5K2/8 w - - 0 1", -2, -4),
            ("6k1/7p/8/8/8/8/6K1/7r w - - 0 1", 0, 0),
            ("8/7p/7r/8/6K1/1k6/8/8 b - - 0 1", 2, 3),
        ],
    );
}

#[test]
fn en_passant() {
    // KPvKP is not in data/syzygy, but in these positions the en passant capture wins (into
    // KPvK), so neither prober needs it: python-chess gives WDL 2 and DTZ 1 with the en
    // passant square, and WDL 0 or -2 without it.
    check(
        &tables(),
        &[
            ("8/8/8/1pP2k2/8/8/8/K7 w - b6 0 1", 2, 1),
            ("3k4/8/2K5/pP6/8/8/8/8 w - a6 0 1", 2, 1),
            ("8/8/8/8/Pp6/8/4K3/7k b - a3 0 1", 2, 1),
            ("8/8/8/8/1Pp5/3k4/8/3K4 b - b3 0 1", 2, 1),
        ],
    );
    // Without the en passant square, the KPvKP table would be needed.
    let tb = tables();
    assert_eq!(tb.probe_wdl(&board("8/8/8/8/Pp6/8/4K3/7k b - - 0 1")), None);
}

#[test]
fn missing_promotion_table() {
    // KPPvK won (WDL from the table), but its DTZ needs the pawn moves' values and a
    // promotion leads to KQPvK, which is not in data/syzygy: no DTZ, no panic, no problem.
    let tb = tables();
    let b = board("8/K4P2/5P2/4k3/8/8/8/8 w - - 0 1");
    assert_eq!(tb.probe_wdl(&b), Some(Wdl::Win));
    assert_eq!(tb.probe_dtz(&b), None);
    assert!(tb.take_new_problems().is_empty());
}

#[test]
fn root_moves_with_a_pawn() {
    let tb = tables();
    // DTZ 17: no pawn move wins at once, the best king move keeps DTZ 17 from the root.
    let b = board("8/8/8/k7/8/8/K3P3/8 w - - 0 1");
    let ranked = tb.rank_root_moves(&b).unwrap();
    assert_eq!(ranked.len(), b.legal_moves().len());
    assert_eq!(ranked.iter().filter(|(_, v)| *v > 0).map(|(_, v)| *v).min(), Some(17));
    // Black to move in a lost position: every move loses.
    let b = board("8/8/8/8/8/8/5P1k/4K3 b - - 0 1");
    let ranked = tb.rank_root_moves(&b).unwrap();
    assert!(ranked.iter().all(|(_, v)| *v < 0));
    assert_eq!(ranked.iter().map(|(_, v)| *v).min(), Some(-14));
}
