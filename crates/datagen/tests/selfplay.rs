//! Self-play: deterministic output, resuming, legal games, settings checks.

use std::fs;
use std::path::{Path, PathBuf};

use cutoff_board::{Board, Color};
use cutoff_datagen::format::{Encoding, encode_game};
use cutoff_datagen::selfplay::{DatagenError, GamePlayer, SelfPlayConfig, game_file, run};
use cutoff_datagen::{GameReader, GameRecord, GameResult, GameWriter};

/// A fresh, empty directory for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cutoff-datagen-test-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Tiny games: 300 soft nodes per move, 2 MiB of hash.
fn config(dir: &Path, games: u64, seed: u64, threads: usize) -> SelfPlayConfig {
    let mut config = SelfPlayConfig::new(dir, games, seed).with_nodes(300);
    config.threads = threads;
    config.hash_mib = 2;
    config
}

fn generate(config: &SelfPlayConfig) -> Result<cutoff_datagen::Progress, DatagenError> {
    run(config, &mut |_| {})
}

fn files(dir: &Path, threads: usize) -> Vec<Vec<u8>> {
    (0..threads).map(|t| fs::read(game_file(dir, t)).unwrap()).collect()
}

fn read_games(bytes: &[u8]) -> Vec<GameRecord> {
    GameReader::new(bytes).unwrap().collect::<Result<_, _>>().unwrap()
}

/// The games of a directory in game-number order (thread `t` of `threads` holds `t, t + T, ...`).
fn games_in_order(dir: &Path, threads: usize) -> Vec<GameRecord> {
    let per_thread: Vec<Vec<GameRecord>> = files(dir, threads).iter().map(|b| read_games(b)).collect();
    let total: usize = per_thread.iter().map(Vec::len).sum();
    (0..total).map(|i| per_thread[i % threads][i / threads].clone()).collect()
}

#[test]
fn same_seed_same_files_other_seed_other_files() {
    let (a, b, c) = (temp_dir("seed-a"), temp_dir("seed-b"), temp_dir("seed-c"));
    let done = generate(&config(&a, 4, 1, 2)).unwrap();
    assert_eq!((done.games, done.games_before, done.games_done()), (4, 0, 4));
    assert_eq!(done.white_wins + done.draws + done.black_wins, 4);
    generate(&config(&b, 4, 1, 2)).unwrap();
    generate(&config(&c, 4, 2, 2)).unwrap();
    let files_a = files(&a, 2);
    assert_eq!(files_a, files(&b, 2));
    assert_ne!(files_a, files(&c, 2));
    let games = games_in_order(&a, 2);
    assert_eq!(games.len(), 4);
    assert_eq!(done.positions, games.iter().map(|g| g.len() as u64).sum::<u64>());
    // Game i is the same whatever the number of threads.
    let d = temp_dir("seed-d");
    generate(&config(&d, 4, 1, 1)).unwrap();
    assert_eq!(games_in_order(&d, 1), games);
    for dir in [a, b, c, d] {
        let _ = fs::remove_dir_all(dir);
    }
}

#[test]
fn resuming_gives_the_files_of_a_straight_run() {
    let (straight, resumed) = (temp_dir("straight"), temp_dir("resumed"));
    generate(&config(&straight, 4, 5, 2)).unwrap();
    let expected = files(&straight, 2);

    // Stopped after 2 games, then continued to 4.
    generate(&config(&resumed, 2, 5, 2)).unwrap();
    let again = generate(&config(&resumed, 4, 5, 2)).unwrap();
    assert_eq!((again.games_before, again.games), (2, 2));
    assert_eq!(files(&resumed, 2), expected);

    // Nothing left to do: the files stay as they are.
    let idle = generate(&config(&resumed, 4, 5, 2)).unwrap();
    assert_eq!((idle.games_before, idle.games), (4, 0));
    assert_eq!(files(&resumed, 2), expected);

    // Stopped in the middle of writing a game (file 0), and before the header was complete
    // (file 1): the partial game is cut off and played again.
    let last = read_games(&expected[0]).pop().unwrap();
    let mut last_bytes = Vec::new();
    encode_game(&last, &mut last_bytes);
    fs::write(game_file(&resumed, 0), &expected[0][..expected[0].len() - last_bytes.len() / 2]).unwrap();
    fs::write(game_file(&resumed, 1), &expected[1][..5]).unwrap();
    let repaired = generate(&config(&resumed, 4, 5, 2)).unwrap();
    assert_eq!((repaired.games_before, repaired.games), (1, 3));
    assert_eq!(files(&resumed, 2), expected);
    for dir in [straight, resumed] {
        let _ = fs::remove_dir_all(dir);
    }
}

/// A run continued in a directory whose files were rewritten in the compact encoding appends
/// compact games: the files hold the games of a straight run.
#[test]
fn resuming_appends_in_the_files_encoding() {
    let (straight, compacted) = (temp_dir("straight-c"), temp_dir("compacted"));
    generate(&config(&straight, 4, 6, 2)).unwrap();
    generate(&config(&compacted, 2, 6, 2)).unwrap();
    for t in 0..2 {
        let mut writer = GameWriter::with_encoding(Vec::new(), Encoding::Compact).unwrap();
        for game in read_games(&fs::read(game_file(&compacted, t)).unwrap()) {
            writer.write_game(&game).unwrap();
        }
        fs::write(game_file(&compacted, t), writer.into_inner()).unwrap();
    }
    let again = generate(&config(&compacted, 4, 6, 2)).unwrap();
    assert_eq!((again.games_before, again.games), (2, 2));
    for t in 0..2 {
        let bytes = fs::read(game_file(&compacted, t)).unwrap();
        assert_eq!(GameReader::new(&bytes[..]).unwrap().encoding(), Encoding::Compact);
        assert_eq!(read_games(&bytes), read_games(&files(&straight, 2)[t]));
    }
    for dir in [straight, compacted] {
        let _ = fs::remove_dir_all(dir);
    }
}

#[test]
fn recorded_games_are_legal_and_end_as_recorded() {
    let dir = temp_dir("legal");
    generate(&config(&dir, 6, 11, 2)).unwrap();
    for game in games_in_order(&dir, 2) {
        // The record starts after 8 or 9 random plies: White or Black to move at move 5.
        let start = game.start();
        assert_eq!(start.fullmove_number(), 5);
        assert!(!game.is_empty());
        assert!(game.plies().iter().all(|p| p.score.is_some()));
        assert_eq!(game.final_score(), None);
        // Replaying (done by the reader already) reaches the recorded end; a mate there is
        // the recorded result.
        let end = game.end_board();
        assert_eq!(game.replay().last().unwrap().board, *end);
        if !end.has_legal_moves() && end.in_check() {
            let winner = if end.side_to_move() == Color::White { GameResult::BlackWin } else { GameResult::WhiteWin };
            assert_eq!(game.result(), winner);
        }
        assert!(game.positions().count() <= game.len() + 1);
    }
    let _ = fs::remove_dir_all(dir);
}

#[test]
fn a_scored_opening_is_recorded_from_the_start_position_with_the_same_random_moves() {
    let (plain_dir, scored_dir) = (temp_dir("opening-plain"), temp_dir("opening-scored"));
    generate(&config(&plain_dir, 4, 12, 1)).unwrap();
    let mut scored = config(&scored_dir, 4, 12, 1);
    scored.score_opening = true;
    generate(&scored).unwrap();
    let settings = fs::read_to_string(scored_dir.join("settings.txt")).unwrap();
    assert!(settings.contains("score_opening=unscored-if-noisy"), "{settings}");
    assert!(!fs::read_to_string(plain_dir.join("settings.txt")).unwrap().contains("score_opening"));
    let (plain_games, scored_games) = (games_in_order(&plain_dir, 1), games_in_order(&scored_dir, 1));
    assert_eq!((plain_games.len(), scored_games.len()), (4, 4));
    for (plain, scored) in plain_games.iter().zip(scored_games) {
        // The scored record starts at the start position, and after its 8 or 9 opening moves
        // it reaches the plain record's start: the same random moves (and the same kept
        // opening), whatever the searches found. Every position after the opening has a score
        // (an opening position may lack one: see the next test), and the games go on alike.
        assert_eq!(*scored.start(), Board::default());
        let opening = scored.replay().position(|r| r.board == *plain.start()).expect("the plain start is reached");
        assert!((8..=9).contains(&opening), "{opening} opening plies");
        assert!(scored.len() > opening);
        assert!(scored.plies()[opening..].iter().all(|p| p.score.is_some()));
        assert_eq!(scored.plies()[opening].score, plain.plies()[0].score);
        // The start position itself is a training position (quiet, not in check, scored).
        assert_eq!(scored.positions().next().unwrap().board, Board::default());
    }
    // A directory scored under the earlier rule (every opening position scored) does not
    // resume under this one.
    let path = scored_dir.join("settings.txt");
    fs::write(&path, settings.replace("score_opening=unscored-if-noisy", "score_opening=yes")).unwrap();
    let e = generate(&scored).unwrap_err();
    assert!(matches!(&e, DatagenError::SettingsMismatch { key, .. } if key == "score_opening"), "{e}");
    // A directory made without the option does not resume with it.
    let mut resumed = config(&plain_dir, 5, 12, 1);
    resumed.score_opening = true;
    let e = generate(&resumed).unwrap_err();
    assert!(matches!(&e, DatagenError::SettingsMismatch { .. }), "{e}");
    let _ = fs::remove_dir_all(plain_dir);
    let _ = fs::remove_dir_all(scored_dir);
}

#[test]
fn other_settings_or_a_corrupt_file_are_refused() {
    let dir = temp_dir("refuse");
    generate(&config(&dir, 2, 3, 2)).unwrap();
    let e = generate(&config(&dir, 4, 4, 2)).unwrap_err();
    assert!(matches!(&e, DatagenError::SettingsMismatch { key, .. } if key == "seed"), "{e}");
    let e = generate(&config(&dir, 4, 3, 3)).unwrap_err();
    assert!(matches!(&e, DatagenError::SettingsMismatch { key, .. } if key == "threads"), "{e}");
    let e = generate(&config(&dir, 4, 3, 2).with_nodes(301)).unwrap_err();
    assert!(matches!(&e, DatagenError::SettingsMismatch { key, .. } if key == "soft_nodes"), "{e}");
    assert!(e.to_string().contains("soft_nodes=300"), "{e}");

    // A corrupt game (not just a partial one) stops the run.
    let path = game_file(&dir, 1);
    let mut bytes = fs::read(&path).unwrap();
    bytes[12 + 8] = 0x66; // two piece codes 6
    fs::write(&path, &bytes).unwrap();
    let e = generate(&config(&dir, 4, 3, 2)).unwrap_err();
    assert!(matches!(e, DatagenError::Corrupt { .. }), "{e}");

    // Game files without settings.
    fs::remove_file(dir.join("settings.txt")).unwrap();
    let e = generate(&config(&dir, 4, 3, 2)).unwrap_err();
    assert!(matches!(e, DatagenError::MissingSettings { .. }), "{e}");

    // Settings that cannot work.
    let mut bad = config(&dir, 4, 3, 0);
    assert!(matches!(generate(&bad), Err(DatagenError::Config(_))));
    bad.threads = 1;
    bad.hard_nodes = 10;
    assert!(matches!(generate(&bad), Err(DatagenError::Config(_))));
    let _ = fs::remove_dir_all(dir);
}

/// A realistic game takes about 4 bytes per position: 4 per move, plus the start position, the
/// result and the terminator (37 bytes) shared by the game, plus the 12-byte file header.
#[test]
fn about_four_bytes_per_position() {
    let dir = temp_dir("size");
    let config = config(&dir, 1, 21, 1);
    let mut player = GamePlayer::new(&config, None).unwrap();
    let mut games = Vec::new();
    for index in 0..3 {
        games.push(player.play(config.seed, index).unwrap().record);
    }
    let game = games.into_iter().max_by_key(GameRecord::len).unwrap();
    let mut bytes = Vec::new();
    encode_game(&game, &mut bytes);
    let plies = game.len();
    assert!(plies >= 40, "a {plies}-ply game");
    let pieces = game.start().occupied().len() as usize; // 32 unless the opening took something
    assert_eq!(bytes.len(), 16 + pieces.div_ceil(2) + 1 + 4 * plies + 4);
    let per_position = (bytes.len() + 12) as f64 / plies as f64;
    assert!(per_position < 4.0 + 50.0 / plies as f64 && per_position > 4.0, "{per_position:.2} bytes per position");
    let _ = fs::remove_dir_all(dir);
}

/// A network plays the games when one is given; the settings name it, so a run cannot be
/// continued with another evaluation.
#[test]
fn games_with_a_network_are_legal_and_the_settings_name_it() {
    use std::sync::Arc;
    let n = 16;
    let mut weights = vec![0i16; cutoff_nnue::INPUTS * n];
    for (feature, row) in weights.chunks_mut(n).enumerate() {
        row[feature % n] = (feature % 7) as i16 - 3;
    }
    let out: Vec<i16> = (0..2 * n as i16).map(|i| i % 5 - 2).collect();
    let net = cutoff_nnue::Network::from_parts(n, weights, vec![10; n], out, vec![0]).unwrap();

    let dir = temp_dir("network");
    let mut with_net = config(&dir, 2, 5, 1);
    with_net.network = Some(Arc::new(net));
    let done = generate(&with_net).unwrap();
    assert_eq!(done.games, 2);
    let settings = fs::read_to_string(dir.join("settings.txt")).unwrap();
    assert!(settings.contains("evaluation=nnue-16-"), "{settings}");
    for game in games_in_order(&dir, 1) {
        let mut board = *game.start();
        for ply in game.plies() {
            assert!(board.legal_moves().contains(&ply.mv), "illegal {:?} in {}", ply.mv, board.fen());
            board.play_unchecked(ply.mv);
        }
    }
    // The hand-crafted evaluation cannot continue the network's run.
    let e = generate(&config(&dir, 4, 5, 1)).unwrap_err();
    assert!(matches!(&e, DatagenError::SettingsMismatch { key, .. } if key == "evaluation"), "{e}");
    let _ = fs::remove_dir_all(dir);
}

/// A scored opening position whose search chose a noisy move is recorded without a score, and
/// no such position is a training position, although the random move played there is quiet.
#[test]
fn a_scored_opening_position_whose_search_chose_a_noisy_move_is_no_training_position() {
    let dir = temp_dir("opening-noisy");
    let mut scored = config(&dir, 6, 12, 1);
    scored.score_opening = true;
    let mut player = GamePlayer::new(&scored, None).unwrap();
    let (mut unscored, mut quiet_and_unscored) = (0, 0);
    for index in 0..scored.games {
        let game = player.play(scored.seed, index).unwrap().record;
        let training: Vec<Board> = game.positions().map(|p| p.board).collect();
        // The opening is the first 8 or 9 plies; the position after it has the search's move.
        for position in game.replay().take(9) {
            let Some(mv) = position.mv else { continue };
            if position.score.is_none() {
                unscored += 1;
                quiet_and_unscored += usize::from(!mv.is_noisy());
                assert!(!training.contains(&position.board), "{} is a training position", position.board.fen());
            }
        }
        // Apart from the opening, every move has a score.
        assert!(game.plies().iter().skip(9).all(|p| p.score.is_some()));
    }
    // The gap this closes: a quiet random move played where the search would have taken.
    assert!(quiet_and_unscored > 0, "{unscored} unscored opening positions, none with a quiet random move");
    let _ = fs::remove_dir_all(dir);
}

/// With a limit, an opening whose position searches beyond it is drawn again: every game's
/// first recorded score is within it, and some openings of a small run were drawn again.
#[test]
fn openings_beyond_the_limit_are_drawn_again() {
    let (dir, off_dir) = (temp_dir("opening-limit"), temp_dir("opening-limit-off"));
    let mut limited = config(&dir, 8, 13, 1);
    limited.opening_limit = 100;
    let done = generate(&limited).unwrap();
    assert!(done.redrawn_openings > 0, "no opening of 8 games was drawn again");
    assert!(done.to_string().contains(&format!("{} openings redrawn", done.redrawn_openings)), "{done}");
    let settings = fs::read_to_string(dir.join("settings.txt")).unwrap();
    assert!(settings.contains("opening_limit=100\n"), "{settings}");
    for game in games_in_order(&dir, 1) {
        let first = game.plies()[0].score.unwrap();
        assert!(first.abs() <= 100, "the first recorded score {first} is beyond the limit");
    }
    // Off: no opening is drawn again, and the settings say so.
    let mut off = config(&off_dir, 8, 13, 1);
    off.opening_limit = 0;
    let done_off = generate(&off).unwrap();
    assert_eq!(done_off.redrawn_openings, 0);
    assert!(fs::read_to_string(off_dir.join("settings.txt")).unwrap().contains("opening_limit=0\n"));
    let off_games = games_in_order(&off_dir, 1);
    assert!(off_games.iter().any(|g| g.plies()[0].score.unwrap().abs() > 100), "no opening needed the limit");

    // A directory of the rules before the limit (no `opening_limit` in its settings) is not
    // continued under them.
    let path = dir.join("settings.txt");
    let old: String = settings.lines().filter(|l| !l.starts_with("opening_limit=")).map(|l| format!("{l}\n")).collect();
    fs::write(&path, old).unwrap();
    let e = generate(&config(&dir, 9, 13, 1)).unwrap_err();
    assert!(
        matches!(&e, DatagenError::SettingsMismatch { key, found, .. } if key == "opening_limit" && found == "(missing)"),
        "{e}"
    );
    for dir in [dir, off_dir] {
        let _ = fs::remove_dir_all(dir);
    }
}

/// The default limit (400 cp) keeps every game's first recorded score within ±400.
#[test]
fn the_default_limit_is_400_cp() {
    let dir = temp_dir("opening-default");
    let config = config(&dir, 6, 14, 1);
    assert_eq!(config.opening_limit, 400);
    let mut player = GamePlayer::new(&config, None).unwrap();
    for index in 0..config.games {
        let game = player.play(config.seed, index).unwrap();
        let first = game.record.plies()[0].score.unwrap();
        assert!(first.abs() <= 400, "game {index}: first score {first}");
    }
    let _ = fs::remove_dir_all(dir);
}
