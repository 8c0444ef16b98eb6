//! Probes against values checked with python-chess's prober, and broken files.

use std::path::PathBuf;
use std::sync::Arc;

use cutoff_board::{Board, CastlingMode};
use cutoff_syzygy::{TableError, Tablebases, TbError, Wdl};

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/syzygy")
}

fn board(fen: &str) -> Board {
    Board::from_fen(fen, CastlingMode::Standard).unwrap()
}

/// A fresh temporary directory for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cutoff-syzygy-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn opens_the_repository_tables() {
    let tb = Tablebases::open([data_dir()]);
    assert!(tb.problems().is_empty(), "{:?}", tb.problems());
    assert_eq!((tb.num_wdl(), tb.num_dtz(), tb.max_pieces()), (10, 10, 4));
}

/// Values from python-chess 1.11.2 (`chess.syzygy`) on the same files.
#[test]
fn agrees_with_python_chess() {
    let tb = Tablebases::open([data_dir()]);
    let cases: &[(&str, i32, i32)] = &[
        ("8/2Q5/1r6/8/8/3k4/8/6K1 w - - 0 1", 2, 1),
        ("8/5r2/8/8/6Q1/8/k2K4/8 b - - 0 1", -2, -14),
        ("7K/8/r2kQ3/8/8/8/8/8 b - - 0 1", 2, 1),
        ("8/8/8/4k3/1r6/8/8/K5Q1 b - - 0 1", -2, -58),
        ("8/3N4/8/7B/8/5K2/3k4/8 b - - 0 1", -2, -55),
        ("8/5K2/2B5/8/Nk6/8/8/8 w - - 0 1", 2, 52),
        ("8/8/8/5kB1/8/8/8/5N1K b - - 0 1", 0, 0),
        ("K4k2/8/8/8/B7/8/8/7N b - - 0 1", -2, -63),
        ("3R4/8/8/8/K7/8/3r4/4k3 w - - 0 1", 0, 0),
        ("8/k7/8/6R1/8/1r6/8/5K2 b - - 0 1", 0, 0),
        ("8/8/8/8/3r2R1/7k/8/2K5 w - - 0 1", 2, 1),
        ("8/8/5R2/1k6/1r6/K7/8/8 w - - 0 1", 2, 5),
        ("8/8/6K1/8/R7/5k2/8/8 b - - 0 1", -2, -24),
        ("6k1/3R4/8/8/8/5K2/8/8 w - - 0 1", 2, 13),
        ("8/8/8/1K6/8/8/1R6/1k6 b - - 0 1", 0, 0),
        ("7K/8/3k4/8/8/R7/8/8 b - - 0 1", -2, -32),
        ("8/8/8/5k2/7K/8/8/1Q6 b - - 0 1", -2, -14),
        ("8/8/5K2/8/5k2/8/4Q3/8 w - - 0 1", 2, 7),
        ("k7/Q7/2K5/8/8/8/8/8 b - - 0 1", 0, 0),
        ("8/8/4k3/8/8/8/7Q/3K4 b - - 0 1", -2, -18),
    ];
    for &(fen, wdl, dtz) in cases {
        let b = board(fen);
        assert_eq!(tb.probe_wdl(&b).map(Wdl::to_i32), Some(wdl), "wdl {fen}");
        assert_eq!(tb.probe_dtz(&b), Some(dtz), "dtz {fen}");
    }
}

#[test]
fn refuses_what_the_tables_do_not_hold() {
    let tb = Tablebases::open([data_dir()]);
    // Castling rights, too many pieces, a missing table.
    assert_eq!(tb.probe_wdl(&board("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")), None);
    assert_eq!(tb.probe_wdl(&Board::default()), None);
    assert_eq!(tb.probe_wdl(&board("4k3/4p3/8/8/8/8/8/4KB2 w - - 0 1")), None);
    // Two bare kings need no table.
    assert_eq!(tb.probe_wdl(&board("4k3/8/8/8/8/8/8/4K3 w - - 0 1")), Some(Wdl::Draw));
}

#[test]
fn root_moves_of_a_won_ending() {
    let tb = Tablebases::open([data_dir()]);
    let b = board("8/5K2/2B5/8/Nk6/8/8/8 w - - 0 1");
    let ranked = tb.rank_root_moves(&b).unwrap();
    assert_eq!(ranked.len(), b.legal_moves().len());
    let best = ranked.iter().filter(|(_, v)| *v > 0).map(|(_, v)| *v).min().unwrap();
    // The best move keeps the DTZ of the position (52, counted from the root).
    assert_eq!(best, 52);
    // Some moves throw the win away.
    assert!(ranked.iter().any(|(_, v)| *v <= 0));
}

#[test]
fn shared_between_threads() {
    let tb = Arc::new(Tablebases::open([data_dir()]));
    let fens =
        ["8/8/8/4k3/1r6/8/8/K5Q1 b - - 0 1", "8/5K2/2B5/8/Nk6/8/8/8 w - - 0 1", "8/8/4k3/8/2r5/8/3RK3/8 w - - 0 1"];
    let handles: Vec<_> = (0..4)
        .map(|i| {
            let tb = Arc::clone(&tb);
            std::thread::spawn(move || {
                let b = board(fens[i % fens.len()]);
                (0..50).map(|_| tb.probe_dtz(&b).unwrap()).collect::<Vec<_>>()
            })
        })
        .collect();
    for (i, h) in handles.into_iter().enumerate() {
        let values = h.join().unwrap();
        assert!(values.iter().all(|&v| v == values[0]), "thread {i}");
    }
}

#[test]
fn missing_directory_is_reported() {
    let tb = Tablebases::open_path("/no/such/dir:/also/missing");
    assert_eq!(tb.num_wdl(), 0);
    assert_eq!(tb.problems().len(), 2);
    assert!(matches!(tb.problems()[0], TbError::Directory { .. }));
    assert_eq!(tb.probe_wdl(&board("8/8/8/4k3/8/8/8/R3K3 w - - 0 1")), None);
}

#[test]
fn truncated_and_corrupt_files_are_left_out() {
    let dir = temp_dir("broken");
    let src = data_dir();
    // KRvK intact; KQvKR's WDL cut in the middle (no longer 16 mod 64 long); KRvKR with a bad
    // magic number; KBNvK's WDL cut to a length that looks right, so the cut is found only
    // when the header is read; KQvK's DTZ full of garbage after a good header start.
    for name in ["KRvK.rtbw", "KRvK.rtbz"] {
        std::fs::copy(src.join(name), dir.join(name)).unwrap();
    }
    let kqkr = std::fs::read(src.join("KQvKR.rtbw")).unwrap();
    std::fs::write(dir.join("KQvKR.rtbw"), &kqkr[..kqkr.len() / 2]).unwrap();
    let mut krkr = std::fs::read(src.join("KRvKR.rtbw")).unwrap();
    krkr[0] ^= 0xff;
    std::fs::write(dir.join("KRvKR.rtbw"), &krkr).unwrap();
    let kbnk = std::fs::read(src.join("KBNvK.rtbw")).unwrap();
    std::fs::write(dir.join("KBNvK.rtbw"), &kbnk[..80]).unwrap();
    std::fs::copy(src.join("KQvK.rtbw"), dir.join("KQvK.rtbw")).unwrap();
    let mut kqk = std::fs::read(src.join("KQvK.rtbz")).unwrap();
    let mut x = 12345u32;
    for byte in kqk.iter_mut().skip(5) {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
        *byte = (x >> 16) as u8;
    }
    std::fs::write(dir.join("KQvK.rtbz"), &kqk).unwrap();
    std::fs::write(dir.join("KPvK.rtbw"), b"").unwrap();

    let tb = Tablebases::open([&dir]);
    let bad: Vec<(String, TableError)> = tb
        .problems()
        .iter()
        .map(|p| match p {
            TbError::File { path, error } => (path.file_name().unwrap().to_string_lossy().into_owned(), error.clone()),
            other => panic!("{other}"),
        })
        .collect();
    assert!(bad.contains(&("KQvKR.rtbw".to_owned(), TableError::Truncated)), "{bad:?}");
    assert!(bad.contains(&("KRvKR.rtbw".to_owned(), TableError::BadMagic)), "{bad:?}");
    assert!(bad.contains(&("KPvK.rtbw".to_owned(), TableError::Truncated)), "{bad:?}");
    // The good table works; the broken ones give no value, and no panic.
    assert_eq!(tb.probe_wdl(&board("8/8/8/4k3/8/8/8/R3K3 w - - 0 1")), Some(Wdl::Win));
    assert_eq!(tb.probe_wdl(&board("8/8/8/4k3/1r6/8/8/K5Q1 b - - 0 1")), None);
    assert_eq!(tb.probe_wdl(&board("8/8/4k3/8/2r5/8/3RK3/8 w - - 0 1")), None);
    assert_eq!(tb.probe_wdl(&board("8/5K2/2B5/8/Nk6/8/8/8 w - - 0 1")), None);
    // The cut KBNvK is found when it is first read, reported once.
    let late = tb.take_new_problems();
    assert!(
        late.iter()
            .any(|p| matches!(p, TbError::File { path, error: TableError::Truncated } if path.ends_with("KBNvK.rtbw"))),
        "{late:?}"
    );
    assert!(tb.take_new_problems().is_empty());
    // Garbage DTZ data: every probe of it either fails or gives some number, never a panic.
    let kqk_board = board("8/8/8/4k3/8/8/8/1Q2K3 w - - 0 1");
    assert_eq!(tb.probe_wdl(&kqk_board), Some(Wdl::Win));
    let _ = tb.probe_dtz(&kqk_board);
    let _ = tb.rank_root_moves(&kqk_board);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn random_garbage_never_panics() {
    // Files with a valid magic number and size but random contents, many seeds.
    let dir = temp_dir("garbage");
    let names = ["KRvK", "KQvKR", "KRvKR", "KBNvK", "KPvK", "KRPvK", "KPPvK"];
    let boards = [
        board("8/8/8/4k3/8/8/8/R3K3 w - - 0 1"),
        board("8/8/8/4k3/1r6/8/8/K5Q1 b - - 0 1"),
        board("8/8/4k3/8/2r5/8/3RK3/8 b - - 0 1"),
        board("8/5K2/2B5/8/Nk6/8/8/8 w - - 0 1"),
        board("8/8/8/k7/8/8/K3P3/8 w - - 0 1"),
        board("8/8/8/8/8/8/5P1k/4K3 b - - 0 1"),
        board("3k4/8/1K2R3/4P3/8/8/8/8 w - - 0 1"),
        board("2k5/8/8/5P2/5P2/8/7K/8 b - - 0 1"),
        board("2k5/2p5/8/2p5/8/2K5/8/8 b - - 0 1"),
    ];
    for seed in 0..40u32 {
        for (name, magic) in names.iter().zip([[0x71u8, 0xe8, 0x23, 0x5d]; 7]) {
            let mut x = seed.wrapping_mul(2_654_435_761).wrapping_add(7);
            let mut data: Vec<u8> = (0..(64 * (1 + seed as usize % 9) + 16))
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 17;
                    x ^= x << 5;
                    x as u8
                })
                .collect();
            data[..4].copy_from_slice(&magic);
            // Plausible header bytes now and then, to get past the first checks.
            if seed % 2 == 0 && data.len() > 16 {
                data[4] = if name.contains('P') { 3 } else { 0 };
                data[6] = 0x80 | (seed as u8 & 1);
            }
            std::fs::write(dir.join(format!("{name}.rtbw")), &data).unwrap();
            let mut dtz = data.clone();
            dtz[..4].copy_from_slice(&[0xd7, 0x66, 0x0c, 0xa5]);
            std::fs::write(dir.join(format!("{name}.rtbz")), &dtz).unwrap();
        }
        let tb = Tablebases::open([&dir]);
        for b in &boards {
            let _ = tb.probe_wdl(b);
            let _ = tb.probe_dtz(b);
            let _ = tb.rank_root_moves(b);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn mutated_real_files_never_panic() {
    // Real tables with a few bytes changed, in the header or anywhere: the headers mostly stay
    // plausible, so the mutations reach the decoder's deeper checks.
    let dir = temp_dir("mutated");
    let src = data_dir();
    let names = ["KRvKR", "KQvKR", "KPvK", "KRPvK", "KPPvK"];
    let boards = [
        board("8/8/4k3/8/2r5/8/3RK3/8 b - - 0 1"),
        board("8/8/6K1/8/R7/5k2/8/2r5 w - - 0 1"),
        board("8/8/8/4k3/1r6/8/8/K5Q1 b - - 0 1"),
        board("8/8/8/k7/8/8/K3P3/8 w - - 0 1"),
        board("5k2/8/5p2/8/8/1K6/8/8 w - - 0 1"),
        board("3k4/8/1K2R3/4P3/8/8/8/8 w - - 0 1"),
        board("2k5/8/8/5P2/5P2/8/7K/8 b - - 0 1"),
        board("8/7p/8/7p/1k6/8/7K/8 b - - 0 1"),
    ];
    let originals: Vec<(String, Vec<u8>)> = names
        .iter()
        .flat_map(|n| [format!("{n}.rtbw"), format!("{n}.rtbz")])
        .map(|f| {
            let data = std::fs::read(src.join(&f)).unwrap();
            (f, data)
        })
        .collect();
    let mut x = 0x9e37_79b9_u32;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x as usize
    };
    for seed in 0..60 {
        for (file, original) in &originals {
            let mut data = original.clone();
            let region = if seed % 2 == 0 { data.len().min(200) } else { data.len() };
            for _ in 0..1 + next() % 4 {
                let at = 4 + next() % (region - 4);
                data[at] ^= 1 << (next() % 8);
            }
            std::fs::write(dir.join(file), &data).unwrap();
        }
        let tb = Tablebases::open([&dir]);
        for b in &boards {
            let _ = tb.probe_wdl(b);
            let _ = tb.probe_dtz(b);
            let _ = tb.rank_root_moves(b);
        }
        let _ = tb.take_new_problems();
    }
    let _ = std::fs::remove_dir_all(&dir);
}
