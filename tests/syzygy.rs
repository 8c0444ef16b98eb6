//! End-to-end tests of the Syzygy tablebases over UCI (`SyzygyPath` and friends): with the
//! tables, Cutoff wins KQvKR, KRvK and KBNvK within the fifty-move rule against the
//! tablebase's longest defence, and holds a drawn KRvKR in which most moves lose; bad paths
//! and files are reported with `info string` and play goes on.

mod common;

use std::path::PathBuf;

use common::Engine;
use common::check::{self, bestmove};
use cutoff_board::{Board, CastlingMode, Color, Game, Move, Outcome};
use cutoff_syzygy::{Tablebases, Wdl, root_rank};

fn tables_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/syzygy")
}

fn engine_with_tables() -> Engine {
    let mut e = Engine::spawn();
    let out = e.command(&format!("setoption name SyzygyPath value {}", tables_dir().display()));
    e.ensure(
        out.iter().any(|l| l == "info string syzygy: found 10 WDL and 10 DTZ tables, up to 4 pieces"),
        format!("SyzygyPath should report the tables found: {out:?}"),
    );
    e
}

/// The tablebase's reply: the move that keeps the best outcome (fifty-move rule counted) and,
/// among those, the longest loss (largest DTZ) or the fastest win; among drawing moves, the
/// one that leaves the opponent the most losing replies (a trap).
fn tablebase_move(tb: &Tablebases, board: &Board) -> Move {
    let ranked = tb.rank_root_moves(board).expect("the defender's position is in the tables");
    let clock = board.halfmove_clock();
    let best = ranked.iter().map(|&(_, v)| root_rank(v, clock, true).0).max().unwrap();
    let candidates: Vec<Move> =
        ranked.iter().filter(|&&(_, v)| root_rank(v, clock, true).0 == best).map(|&(mv, _)| mv).collect();
    if root_rank(ranked.iter().find(|(m, _)| *m == candidates[0]).unwrap().1, clock, true).1 != Wdl::Draw {
        return candidates[0];
    }
    let traps = |mv: Move| {
        let mut after = *board;
        after.play(mv);
        tb.rank_root_moves(&after)
            .map(|r| r.iter().filter(|&&(_, v)| root_rank(v, after.halfmove_clock(), true).1 < Wdl::Draw).count())
            .unwrap_or(0)
    };
    candidates.iter().copied().max_by_key(|&mv| traps(mv)).unwrap()
}

/// Plays from `fen` with Cutoff as `cutoff` (searching `go`) against the tablebase until the
/// game ends or `max_plies` are played. Returns the game and the moves.
fn play(e: &mut Engine, tb: &Tablebases, fen: &str, cutoff: Color, go: &str, max_plies: usize) -> (Game, Vec<String>) {
    let mut game = Game::new(Board::from_fen(fen, CastlingMode::Standard).unwrap());
    let mut moves: Vec<String> = Vec::new();
    e.command("ucinewgame");
    while game.outcome().is_none() && moves.len() < max_plies {
        let board = *game.board();
        let mv = if board.side_to_move() == cutoff {
            e.command(&format!("position fen {fen} moves {}", moves.join(" ")));
            e.send(go);
            let lines = e.read_search();
            if let Err(err) = check::check_search(&board, &lines) {
                e.fail(&format!("bad search output after {moves:?}: {err}"));
            }
            let Some((text, _)) = lines.last().and_then(|l| bestmove(l)) else {
                e.fail(&format!("no bestmove after {moves:?}: {lines:?}"));
            };
            board.parse_uci(&text).unwrap_or_else(|err| e.fail(&format!("illegal bestmove {text}: {err}")))
        } else {
            tablebase_move(tb, &board)
        };
        moves.push(board.uci(mv).to_string());
        game.play(mv).unwrap();
    }
    (game, moves)
}

fn wins_within_the_fifty_move_rule(fen: &str, expected_dtz: i32) {
    let tb = Tablebases::open([tables_dir()]);
    let board = Board::from_fen(fen, CastlingMode::Standard).unwrap();
    assert_eq!(tb.probe_dtz(&board), Some(expected_dtz), "{fen}");
    let mut e = engine_with_tables();
    let (game, moves) = play(&mut e, &tb, fen, Color::White, "go nodes 3000", 300);
    e.ensure(
        game.outcome() == Some(Outcome::Checkmate { winner: Color::White }),
        format!(
            "{fen}: White should have mated, got {:?} after {} plies: {}",
            game.outcome(),
            moves.len(),
            moves.join(" ")
        ),
    );
    e.quit();
}

#[test]
fn wins_kqkr_against_the_longest_defence() {
    wins_within_the_fifty_move_rule("8/3Q4/8/8/8/4rk2/8/7K w - - 0 1", 57);
}

#[test]
fn wins_krk_against_the_longest_defence() {
    wins_within_the_fifty_move_rule("8/8/8/8/4k3/1R6/8/K7 w - - 0 1", 31);
}

#[test]
fn wins_kbnk_against_the_longest_defence() {
    wins_within_the_fifty_move_rule("8/7N/8/8/5B2/5k2/8/K7 w - - 0 1", 62);
}

#[test]
fn holds_a_drawn_krkr_where_most_moves_lose() {
    let fen = "8/8/7k/1K4Rr/8/8/8/8 w - - 0 1";
    let tb = Tablebases::open([tables_dir()]);
    let board = Board::from_fen(fen, CastlingMode::Standard).unwrap();
    let losing = tb.rank_root_moves(&board).unwrap().iter().filter(|&&(_, v)| v < 0).count();
    assert_eq!((tb.probe_wdl(&board), losing, board.legal_moves().len()), (Some(Wdl::Draw), 11, 13));
    let mut e = engine_with_tables();
    let (game, moves) = play(&mut e, &tb, fen, Color::White, "go nodes 3000", 60);
    // After every move of Cutoff's the position is still a draw (or better) for White.
    let mut replay = Game::new(board);
    for (i, text) in moves.iter().enumerate() {
        replay.play_uci(text).unwrap();
        if i % 2 == 0 {
            let wdl = tb.probe_wdl(replay.board());
            e.ensure(
                wdl.is_none_or(|w| w <= Wdl::Draw),
                format!("move {} ({text}) lost the draw: {wdl:?} after {}", i + 1, moves[..=i].join(" ")),
            );
        }
    }
    e.ensure(
        !matches!(game.outcome(), Some(Outcome::Checkmate { winner: Color::Black })),
        format!("Cutoff lost a drawn position: {}", moves.join(" ")),
    );
    e.quit();
}

#[test]
fn search_counts_tablebase_hits() {
    // Five pieces: the tables (up to four) are reached through captures in the search.
    let mut e = engine_with_tables();
    e.command("position fen 8/8/4k3/8/2r5/3R4/3QK3/8 w - - 0 1");
    e.send("go depth 8");
    let lines = e.read_search();
    let board = Board::from_fen("8/8/4k3/8/2r5/3R4/3QK3/8 w - - 0 1", CastlingMode::Standard).unwrap();
    if let Err(err) = check::check_search(&board, &lines) {
        e.fail(&format!("bad search output: {err}"));
    }
    e.ensure(
        lines.iter().any(|l| l.starts_with("info depth") && l.contains(" tbhits ")),
        format!("no tbhits in the info lines: {lines:?}"),
    );
    // Without tables, no tbhits.
    e.command("setoption name SyzygyPath value <empty>");
    e.command("ucinewgame");
    e.command("position fen 8/8/4k3/8/2r5/3R4/3QK3/8 w - - 0 1");
    e.send("go depth 6");
    let lines = e.read_search();
    e.ensure(!lines.iter().any(|l| l.contains("tbhits")), format!("tbhits without tables: {lines:?}"));
    e.quit();
}

#[test]
fn options_are_declared_as_stockfish_declares_them() {
    let mut e = Engine::spawn();
    e.send("uci");
    let lines = e.read_until("uciok", |l| l == "uciok", common::TIMEOUT);
    for option in [
        "option name SyzygyPath type string default <empty>",
        "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
        "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
        "option name Syzygy50MoveRule type check default true",
    ] {
        e.ensure(lines.iter().any(|l| l == option), format!("missing '{option}' in {lines:?}"));
    }
    e.quit();
}

#[test]
fn bad_paths_and_files_are_reported_and_play_goes_on() {
    let dir = std::env::temp_dir().join(format!("cutoff-syzygy-uci-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(tables_dir().join("KRvK.rtbw"), dir.join("KRvK.rtbw")).unwrap();
    std::fs::copy(tables_dir().join("KRvK.rtbz"), dir.join("KRvK.rtbz")).unwrap();
    // What KBNvK's captures lead to (without them no KBNvK probe can be answered).
    for name in ["KBvK.rtbw", "KNvK.rtbw"] {
        std::fs::copy(tables_dir().join(name), dir.join(name)).unwrap();
    }
    // A truncated KQvKR (found when the directory is read), and a KBNvK cut to a length that
    // looks right (found when the search first reads it).
    let kqkr = std::fs::read(tables_dir().join("KQvKR.rtbw")).unwrap();
    std::fs::write(dir.join("KQvKR.rtbw"), &kqkr[..1000]).unwrap();
    let kbnk = std::fs::read(tables_dir().join("KBNvK.rtbw")).unwrap();
    std::fs::write(dir.join("KBNvK.rtbw"), &kbnk[..80]).unwrap();
    let missing = std::env::temp_dir().join("cutoff-no-such-syzygy-dir");
    let sep = if cfg!(windows) { ";" } else { ":" };

    let mut e = Engine::spawn();
    let out = e.command(&format!("setoption name SyzygyPath value {}{sep}{}", missing.display(), dir.display()));
    let says = |what: &str| out.iter().any(|l| l.starts_with("info string syzygy:") && l.contains(what));
    e.ensure(says("cannot read tablebase directory"), format!("the missing directory: {out:?}"));
    e.ensure(says("KQvKR.rtbw: truncated file"), format!("the truncated file: {out:?}"));
    e.ensure(says("found 4 WDL and 1 DTZ tables, up to 4 pieces"), format!("the tables found: {out:?}"));

    // KBNvK: its table is broken; the search goes on without it and says so once.
    let fen = "8/7N/8/8/5B2/5k2/8/K7 w - - 0 1";
    e.command(&format!("position fen {fen}"));
    e.send("go depth 5");
    let lines = e.read_search();
    e.ensure(
        lines.iter().any(|l| l.starts_with("info string syzygy:") && l.contains("KBNvK.rtbw: truncated file")),
        format!("the broken KBNvK table should be reported: {lines:?}"),
    );
    let board = Board::from_fen(fen, CastlingMode::Standard).unwrap();
    if let Err(err) = check::check_search(&board, &lines) {
        e.fail(&format!("bad search output: {err}"));
    }
    // KRvK still works.
    e.command("position fen 8/8/8/8/4k3/1R6/8/K7 w - - 0 1");
    e.send("go depth 3");
    let lines = e.read_search();
    e.ensure(lines.last().is_some_and(|l| l.starts_with("bestmove ")), format!("{lines:?}"));
    // A directory with nothing in it.
    let out = e.command(&format!("setoption name SyzygyPath value {}", missing.display()));
    e.ensure(
        out.iter().any(|l| l.contains("no tablebase files found")),
        format!("an empty path should be reported: {out:?}"),
    );
    e.quit();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn root_score_is_the_tablebase_value() {
    // In the tables, the reported score is the tablebase's (unless the search finds a mate):
    // a win a little below the mate scores, a draw 0, a loss the negative.
    let mut e = engine_with_tables();
    for (fen, check) in [
        ("8/3Q4/8/8/8/4rk2/8/7K w - - 0 1", (|cp: i32| cp >= 30_000) as fn(i32) -> bool),
        ("8/8/7k/1K4Rr/8/8/8/8 w - - 0 1", |cp| cp == 0),
        ("8/8/8/4k3/1r6/8/8/K5Q1 b - - 0 1", |cp| cp <= -30_000),
    ] {
        e.command(&format!("position fen {fen}"));
        e.send("go depth 6");
        let lines = e.read_search();
        let board = Board::from_fen(fen, CastlingMode::Standard).unwrap();
        let search = check::check_search(&board, &lines).unwrap_or_else(|err| e.fail(&format!("{fen}: {err}")));
        let last = lines.iter().rev().find(|l| l.starts_with("info depth")).cloned().unwrap_or_default();
        let info = check::parse_info(&board, &last).unwrap_or_else(|err| e.fail(&err));
        let ok = matches!(info.score, Some(check::Score::Cp(cp)) if check(cp));
        e.ensure(ok, format!("{fen}: unexpected score in '{last}' ({search:?})"));
    }
    e.quit();
}
