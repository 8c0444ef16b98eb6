//! Tests of the command line and of whole games against fake UCI engines (small `sh` scripts)
//! and, when it has been built, the real engine.

use std::sync::atomic::AtomicBool;

use clap::Parser;
use cutoff_board::{CastlingMode, STARTPOS_FEN};

use super::engine::{Engine, EngineConfig};
use super::game::{self, GameResult, GameSetup, Termination};
use super::*;

#[derive(Debug, Parser)]
struct Cli {
    #[command(flatten)]
    args: MatchArgs,
}

fn parse(line: &str) -> std::result::Result<MatchArgs, clap::Error> {
    Cli::try_parse_from(std::iter::once("match").chain(line.split_whitespace())).map(|cli| cli.args)
}

#[test]
fn command_line() {
    let args = parse(
        "--engine1 a --engine2 b --games 7 --nodes 2000 --option Hash=16 --option1 Threads=1 \
         --resign moves=3 score=1000 --draw movenumber=40 moves=8 score=10 --sprt elo0=0 elo1=5 \
         --concurrency 2 --seed 3",
    )
    .unwrap();
    assert_eq!(args.engine1, Some(PathBuf::from("a")));
    assert_eq!(args.games.get(), 7);
    assert_eq!(args.nodes.map(NonZeroU64::get), Some(2000));
    assert_eq!(args.options, [("Hash".to_owned(), "16".to_owned())]);
    assert_eq!(args.options1, [("Threads".to_owned(), "1".to_owned())]);
    assert_eq!(ResignRule::parse(args.resign.as_deref().unwrap()).unwrap().score, 1000);
    assert_eq!(DrawRule::parse(args.draw.as_deref().unwrap()).unwrap().movenumber, 40);
    let sprt = settings::parse_sprt(args.sprt.as_deref().unwrap(), args.statistics).unwrap();
    assert_eq!((sprt.elo1, sprt.statistics), (5.0, Statistics::Pentanomial));
    assert_eq!(sprt.model, stats::EloModel::Normalized);
    assert_eq!(args.runner, Runner::Internal);
    assert!(!args.restart && !args.plain);
    assert_eq!(args.timemargin_ms, 0);
    assert_eq!(args.hang_timeout, Duration::from_secs(10));

    let args = parse("--vs HEAD~1 --tc 10+0.1 --timemargin-ms 50").unwrap();
    assert_eq!(args.vs.as_deref(), Some("HEAD~1"));
    assert_eq!(args.tc.unwrap().increment, Duration::from_millis(100));
    assert!(parse("--vs HEAD --st 0.5 --nodes 100").is_ok());
    let args = parse("--engine2 b --nodes 10 --statistics trinomial --runner cutechess --restart --plain").unwrap();
    assert_eq!((args.statistics, args.runner), (Statistics::Trinomial, Runner::Cutechess));
    assert!(args.restart && args.plain);

    for bad in [
        "--engine1 a --engine2 b",                   // no limit
        "--engine2 b --tc 1+0.01 --st 0.1",          // two clocks
        "--engine2 b --vs HEAD --nodes 10",          // two second engines
        "--nodes 10",                                // no second engine
        "--engine2 b --tc 1+x",                      // bad time control
        "--engine2 b --nodes 10 --runner stockfish", // unknown runner
        "--engine2 b --nodes 10 --option Hash",      // option without a value
        "--engine2 b --nodes 10 --games 0",          // no games
    ] {
        assert!(parse(bad).is_err(), "accepted: {bad}");
    }
}

/// A fake engine: answers the handshake and plays Fool's mate (f3 e5 g4 Qh4#) by counting the
/// moves in `position`, or misbehaves on `go` as `mode` says.
#[cfg(unix)]
fn fake_engine(dir: &Path, name: &str, mode: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let on_go = match mode {
        "fool" => {
            "case $n in 0) m=f2f3;; 1) m=e7e5;; 2) m=g2g4;; 3) m=d8h4;; *) m=0000;; esac; \
             echo \"info depth 3 score cp $((n * 10 - 5)) nodes 42 pv $m\"; echo \"bestmove $m\""
        }
        "illegal" => "echo 'info depth 1 score cp 0'; echo 'bestmove e2e5'",
        "null" => "echo 'bestmove 0000'",
        "crash" => "echo 'info string about to crash' >&2; exit 3",
        "hang" => ":",
        "slow" => "sleep 1; echo 'bestmove f2f3'",
        _ => unreachable!(),
    };
    let script = format!(
        "#!/bin/sh\n\
         n=0\n\
         while IFS= read -r line; do\n\
         case \"$line\" in\n\
         uci) echo 'id name Fake {name}'; echo 'option name Hash type spin default 1 min 1 max 8'; echo uciok ;;\n\
         isready) echo readyok ;;\n\
         position*) set -- $line; if [ $# -gt 8 ]; then n=$(($# - 9)); else n=0; fi ;;\n\
         go*) {on_go} ;;\n\
         quit) exit 0 ;;\n\
         esac\n\
         done\n"
    );
    let path = dir.join(format!("{name}.sh"));
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xtask-match-test-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn start(path: &Path, hang: Duration) -> Engine {
    let config = EngineConfig { path: path.to_path_buf(), args: Vec::new(), options: Vec::new(), chess960: false };
    Engine::start(&config, "test".to_owned(), hang, None).unwrap()
}

fn nodes_limits(hang: Duration) -> Limits {
    Limits { clock: None, movetime: None, nodes: Some(1), time_margin: Duration::ZERO, hang_timeout: hang }
}

fn setup<'a>(limits: &'a Limits, white_slot: usize) -> GameSetup<'a> {
    GameSetup {
        opening_fen: STARTPOS_FEN,
        chess960: false,
        white_slot,
        limits,
        resign: None,
        draw: None,
        max_plies: None,
        restart: false,
    }
}

#[cfg(unix)]
#[test]
fn fake_engines_play_fools_mate() {
    let dir = temp_dir("fool");
    let fool = fake_engine(&dir, "fool", "fool");
    let hang = Duration::from_secs(5);
    let limits = nodes_limits(hang);
    let mut engines = [start(&fool, hang), start(&fool, hang)];
    assert_eq!(engines[0].id_name, "Fake fool");
    let record = game::play(&mut engines, &setup(&limits, 1), &AtomicBool::new(false)).unwrap();
    assert_eq!(record.result, GameResult::BlackWins);
    assert_eq!(record.termination, Termination::Checkmate);
    assert_eq!(record.reason, "Black mates");
    let sans: Vec<&str> = record.moves.iter().map(|m| m.san.as_str()).collect();
    assert_eq!(sans, ["f3", "e5", "g4", "Qh4#"]);
    // engine1 had Black.
    assert_eq!(record.engine1_half_points(), 2);
    let context = pgn::PgnContext {
        event: "t".to_owned(),
        site: "?".to_owned(),
        date: "2025.01.01".to_owned(),
        names: ["One".to_owned(), "Two".to_owned()],
        time_control: limits.pgn_time_control(),
    };
    let text = pgn::format_game(&context, 1, &record);
    assert!(text.contains("[White \"Two\"]\n[Black \"One\"]\n[Result \"0-1\"]\n"), "{text}");
    let movetext = text.split("\n\n").nth(1).unwrap().replace('\n', " ");
    assert!(movetext.starts_with("1. f3 {-0.05/3 0.0"), "{text}");
    assert!(movetext.contains(" e5 {+0.05/3 0.0"), "{text}");
    assert!(movetext.contains(" 2. g4 {+0.15/3 0.0"), "{text}");
    assert!(movetext.contains(" Qh4# {+0.25/3 0.0"), "{text}");
    assert!(movetext.ends_with("s} {Black mates} 0-1"), "{text}");
    // A second game with the same processes.
    let record = game::play(&mut engines, &setup(&limits, 0), &AtomicBool::new(false)).unwrap();
    assert_eq!(record.engine1_half_points(), 0);
    // An abort before the first move abandons the game.
    assert!(game::play(&mut engines, &setup(&limits, 0), &AtomicBool::new(true)).is_none());
    let _ = std::fs::remove_dir_all(dir);
}

#[cfg(unix)]
#[test]
fn misbehaving_engines_lose() {
    let dir = temp_dir("misbehave");
    let fool = fake_engine(&dir, "fool", "fool");
    let hang = Duration::from_millis(400);
    for (mode, termination, what) in [
        ("illegal", Termination::IllegalMove, "illegal move `e2e5`"),
        ("null", Termination::IllegalMove, "null move `0000`"),
        ("crash", Termination::Crash, "disconnects"),
        ("hang", Termination::Stall, "stalls"),
    ] {
        let bad = fake_engine(&dir, mode, mode);
        let limits = nodes_limits(hang);
        let mut engines = [start(&bad, hang), start(&fool, hang)];
        let record = game::play(&mut engines, &setup(&limits, 0), &AtomicBool::new(false)).unwrap();
        assert_eq!(record.termination, termination, "{mode}");
        assert_eq!(record.result, GameResult::BlackWins, "{mode}");
        assert_eq!(record.offender, Some(0), "{mode}");
        assert!(record.reason.contains(what), "{mode}: {}", record.reason);
        let incident = &record.incidents[0];
        assert!(incident.transcript.iter().any(|l| l.starts_with("> go nodes 1")), "{mode}: {incident:?}");
        match mode {
            "illegal" => assert_eq!(incident.transcript.last().unwrap(), "< bestmove e2e5"),
            "crash" => {
                assert!(record.reason.contains("exit status: 3"), "{}", record.reason);
                assert_eq!(incident.stderr, ["info string about to crash"]);
            }
            _ => {}
        }
        // The next game restarts the broken engine (which then fails again on `go`).
        if mode == "crash" || mode == "hang" {
            let record = game::play(&mut engines, &setup(&limits, 1), &AtomicBool::new(false)).unwrap();
            assert!(record.incidents[0].restarted, "{mode}: {:?}", record.incidents);
            assert_eq!(record.offender, Some(0));
        }
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[cfg(unix)]
#[test]
fn slow_engine_loses_on_time() {
    let dir = temp_dir("slow");
    let slow = fake_engine(&dir, "slow", "slow");
    let fool = fake_engine(&dir, "fool", "fool");
    let hang = Duration::from_secs(5);
    let limits = Limits {
        clock: Some(TimeControl::parse("0.2+0").unwrap()),
        movetime: None,
        nodes: None,
        time_margin: Duration::from_millis(50),
        hang_timeout: hang,
    };
    let mut engines = [start(&slow, hang), start(&fool, hang)];
    let started = Instant::now();
    let record = game::play(&mut engines, &setup(&limits, 0), &AtomicBool::new(false)).unwrap();
    assert!(started.elapsed() < Duration::from_millis(900), "the forfeit waited for the move");
    assert_eq!(record.termination, Termination::TimeForfeit);
    assert_eq!(record.result, GameResult::BlackWins);
    assert!(record.reason.starts_with("White loses on time"), "{}", record.reason);
    let go = record.incidents[0].transcript.iter().find(|l| l.starts_with("> go")).unwrap().clone();
    assert_eq!(go, "> go wtime 200 btime 200 winc 0 binc 0");
    let _ = std::fs::remove_dir_all(dir);
}

#[cfg(unix)]
#[test]
fn whole_match_with_fake_engines() {
    let dir = temp_dir("run");
    let fool = fake_engine(&dir, "fool", "fool");
    let illegal = fake_engine(&dir, "illegal", "illegal");
    let openings = dir.join("openings.epd");
    std::fs::write(&openings, "# start position only\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n").unwrap();
    let pgn_path = dir.join("games.pgn");
    let line = format!(
        "--engine1 {} --engine2 {} --openings {} --games 3 --nodes 1 --pgn {} --name2 Other --sprt elo0=0 elo1=5",
        fool.display(),
        fool.display(),
        openings.display(),
        pgn_path.display()
    );
    let code = run(&parse(&line).unwrap()).unwrap();
    assert_eq!(code, ExitCode::SUCCESS);
    let pgn = std::fs::read_to_string(&pgn_path).unwrap();
    // 3 games rounded up to 4: each side mates twice as Black.
    assert_eq!(pgn.matches("[Event \"Cutoff match\"]").count(), 4);
    assert_eq!(pgn.matches("{Black mates} 0-1").count(), 4);
    assert_eq!(pgn.matches("[White \"Fake fool\"]").count(), 2);
    assert_eq!(pgn.matches("[White \"Other\"]").count(), 2);
    assert!(pgn.contains("[Round \"4\"]"));

    // engine2 plays only illegal moves, so engine1 wins every pair 2-0: with a wide logistic SPRT
    // (elo0=0 elo1=200 alpha=beta=0.2, upper bound ln 4 = 1.386) the LLR passes the bound after
    // 4 pairs (+0.419 per WW pair; checked with an independent script), so 8 of the 40 games are
    // played. The illegal moves make the exit status 1.
    let line = format!(
        "--engine1 {} --engine2 {} --openings {} --games 40 --nodes 1 --pgn {} \
         --sprt elo0=0 elo1=200 alpha=0.2 beta=0.2 model=logistic",
        fool.display(),
        illegal.display(),
        openings.display(),
        pgn_path.display()
    );
    let code = run(&parse(&line).unwrap()).unwrap();
    assert_eq!(code, ExitCode::from(util::EXIT_FAILURE));
    let pgn = std::fs::read_to_string(&pgn_path).unwrap();
    assert_eq!(pgn.matches("[Event ").count(), 8);
    assert_eq!(pgn.matches("[Termination \"rules infraction\"]").count(), 8);
    let llr = |ww: u32| stats::logistic_llr(&stats::Pentanomial { counts: [0, 0, 0, 0, ww] }.outcomes(), 0.0, 200.0);
    assert!(llr(4) > 4f64.ln() && llr(3) < 4f64.ln());
    let _ = std::fs::remove_dir_all(dir);
}

/// The `cutoff` binary as `cargo test` builds it (the dev profile). The test builds it: in
/// `cargo test --workspace` the root package's tests have built it already and the build
/// finds it up to date; alone (`cargo test -p xtask`) it builds it once.
fn built_engine() -> PathBuf {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = std::process::Command::new(cargo)
        .current_dir(util::workspace_root())
        .args(["build", "--quiet", "--package", "cutoff", "--bin", "cutoff"])
        .status()
        .expect("cannot run cargo");
    assert!(status.success(), "cargo build --package cutoff failed");
    let binary = target_dir().join("debug").join(format!("cutoff{}", std::env::consts::EXE_SUFFIX));
    assert!(binary.is_file(), "{} not found after the build", binary.display());
    binary
}

/// One real game of Cutoff against itself at a small node limit.
#[test]
fn real_engine_game() {
    let binary = built_engine();
    let hang = Duration::from_secs(20);
    let config = EngineConfig {
        path: binary,
        args: Vec::new(),
        options: vec![("Hash".to_owned(), "1".to_owned())],
        chess960: false,
    };
    let mut engines = [
        Engine::start(&config, "a".to_owned(), hang, None).unwrap(),
        Engine::start(&config, "b".to_owned(), hang, None).unwrap(),
    ];
    assert!(engines[0].unknown_options().is_empty());
    let limits = Limits { nodes: Some(300), ..nodes_limits(hang) };
    let opening = "r1bqk2r/1p3pbp/2np1np1/p1p1p3/2P5/P1N2NP1/1P1PPPBP/1RBQ1RK1 w kq - 0 9";
    let setup = GameSetup { opening_fen: opening, max_plies: Some(40), ..setup(&limits, 0) };
    let record = game::play(&mut engines, &setup, &AtomicBool::new(false)).unwrap();
    assert!(record.offender.is_none(), "{:?}", record.incidents);
    assert!(!record.moves.is_empty() && record.moves.len() <= 40);
    // The SAN moves replay from the opening.
    let mut board = cutoff_board::Board::from_fen(opening, CastlingMode::Standard).unwrap();
    for mv in &record.moves {
        let parsed = board.parse_san(&mv.san).unwrap();
        assert_eq!(board.uci(parsed).to_string(), mv.uci);
        board.play(parsed);
        assert!(mv.depth.is_some() && mv.score.is_some());
    }
}

#[cfg(unix)]
#[test]
fn restart_gives_fresh_processes_for_every_game() {
    let dir = temp_dir("restart");
    let fool = fake_engine(&dir, "fool", "fool");
    let openings = dir.join("openings.epd");
    std::fs::write(&openings, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n").unwrap();
    let log = dir.join("uci.log");
    let line = format!(
        "--engine1 {} --engine2 {} --openings {} --games 4 --nodes 1 --restart --plain --uci-log {}",
        fool.display(),
        fool.display(),
        openings.display(),
        log.display()
    );
    assert_eq!(run(&parse(&line).unwrap()).unwrap(), ExitCode::SUCCESS);
    // Two processes at the start, then two fresh ones for each of the 4 games.
    let log = std::fs::read_to_string(&log).unwrap();
    assert_eq!(log.lines().filter(|l| l.ends_with("> uci")).count(), 10, "{log}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn display_names_for_both_runners() {
    let args = parse("--engine2 b --nodes 1").unwrap();
    assert_eq!(display_names(&args, ["Cutoff 0.1".to_owned(), "Other".to_owned()]), ["Cutoff 0.1", "Other"]);
    assert_eq!(display_names(&args, ["cutoff".to_owned(), "cutoff".to_owned()]), ["cutoff [1]", "cutoff [2]"]);
    let args = parse("--vs HEAD~1 --nodes 1 --name1 new").unwrap();
    assert_eq!(display_names(&args, ["cutoff".to_owned(), "cutoff".to_owned()]), ["new", "cutoff [HEAD~1]"]);
}

/// A network-against-network match names each side's network in its name (and so in the PGN).
#[test]
fn display_names_name_the_networks_when_they_differ() {
    let names =
        |line: &str| display_names(&parse(line).unwrap(), ["Cutoff 0.1.0".to_owned(), "Cutoff 0.1.0".to_owned()]);
    assert_eq!(
        names("--engine2 c --nodes 1 --option1 EvalFile=nets/net10.nnue --option2 EvalFile=/tmp/net9.nnue"),
        ["Cutoff 0.1.0 [net10]", "Cutoff 0.1.0 [net9]"]
    );
    assert_eq!(
        names("--engine2 c --nodes 1 --option2 evalfile=net9.nnue"),
        ["Cutoff 0.1.0 [embedded]", "Cutoff 0.1.0 [net9]"]
    );
    // `--option` for both, overridden for one.
    assert_eq!(
        names("--engine2 c --nodes 1 --option EvalFile=a.nnue --option2 EvalFile=b.nnue --name1 mine"),
        ["mine", "Cutoff 0.1.0 [b]"]
    );
    // The same network on both sides: the names say nothing of it.
    assert_eq!(names("--engine2 c --nodes 1 --option EvalFile=a.nnue"), ["Cutoff 0.1.0 [1]", "Cutoff 0.1.0 [2]"]);
    // Same stem, different folders: still told apart.
    assert_eq!(
        names("--engine2 c --nodes 1 --option1 EvalFile=x/net.nnue --option2 EvalFile=y/net.nnue"),
        ["Cutoff 0.1.0 [net] [1]", "Cutoff 0.1.0 [net] [2]"]
    );
}

/// The arguments of a hand-off as strings.
fn handoff(runner: Runner, line: &str) -> Vec<String> {
    let args = parse(line).unwrap();
    let settings = Settings::from_args(&args).unwrap();
    let paths = [PathBuf::from("/bin/new engine"), PathBuf::from("/tmp/old")];
    let names = ["new".to_owned(), "old [HEAD~1]".to_owned()];
    external::arguments(runner, &args, &settings, &paths, &names)
        .into_iter()
        .map(|w| w.into_string().unwrap())
        .collect()
}

#[test]
fn fastchess_command_line() {
    let line = "--engine2 x --openings /data/book.epd --games 101 --concurrency 3 --tc 10+0.1 \
                --timemargin-ms 50 --option Hash=16 --option Threads=1 --option2 Hash=32 --option1 Move_Overhead=10 \
                --seed 7 --resign moves=3 score=600 twosided=true --draw movenumber=34 moves=8 score=20 \
                --max-plies 301 --sprt elo0=0 elo1=2 --pgn /tmp/games.pgn --event Regression --restart";
    let expected = [
        "-engine",
        "cmd=/bin/new engine",
        "name=new",
        "option.Hash=16",
        "option.Threads=1",
        "option.Move_Overhead=10",
        "-engine",
        "cmd=/tmp/old",
        "name=old [HEAD~1]",
        "option.Hash=32",
        "option.Threads=1",
        "-each",
        "proto=uci",
        "tc=10+0.1",
        "timemargin=50",
        "restart=on",
        "-openings",
        "file=/data/book.epd",
        "format=epd",
        "order=random",
        "-srand",
        "7",
        "-rounds",
        "51",
        "-games",
        "2",
        "-concurrency",
        "3",
        "-resign",
        "movecount=3",
        "score=600",
        "twosided=true",
        "-draw",
        "movenumber=34",
        "movecount=8",
        "score=20",
        "-maxmoves",
        "151",
        "-sprt",
        "elo0=0",
        "elo1=2",
        "alpha=0.05",
        "beta=0.05",
        "model=normalized",
        "-pgnout",
        "file=/tmp/games.pgn",
        "-event",
        "Regression",
        "-recover",
    ];
    assert_eq!(handoff(Runner::Fastchess, line), expected);

    // Fixed time per move, file order, logistic SPRT on single games, Chess960, a PGN book.
    let line = "--engine2 x --openings b.pgn --st 0.5 --chess960 --sprt elo0=-3 elo1=1 model=logistic \
                --statistics trinomial";
    let expected = [
        "-engine",
        "cmd=/bin/new engine",
        "name=new",
        "-engine",
        "cmd=/tmp/old",
        "name=old [HEAD~1]",
        "-each",
        "proto=uci",
        "st=0.5",
        "-openings",
        "file=b.pgn",
        "format=pgn",
        "order=sequential",
        "-variant",
        "fischerandom",
        "-rounds",
        "5",
        "-games",
        "2",
        "-concurrency",
        "1",
        "-sprt",
        "elo0=-3",
        "elo1=1",
        "alpha=0.05",
        "beta=0.05",
        "model=logistic",
        "-report",
        "penta=false",
        "-event",
        "Cutoff match",
        "-recover",
    ];
    assert_eq!(handoff(Runner::Fastchess, line), expected);
}

#[test]
fn cutechess_command_line() {
    let line = "--engine2 x --openings /data/book.epd --games 4 --nodes 5000 --option Hash=8 \
                --sprt elo0=0 elo1=5 alpha=0.1 --pgn /tmp/g.pgn --max-plies 200";
    let expected = [
        "-engine",
        "cmd=/bin/new engine",
        "name=new",
        "option.Hash=8",
        "-engine",
        "cmd=/tmp/old",
        "name=old [HEAD~1]",
        "option.Hash=8",
        "-each",
        "proto=uci",
        "tc=inf",
        "nodes=5000",
        "-openings",
        "file=/data/book.epd",
        "format=epd",
        "order=sequential",
        "-games",
        "2",
        "-rounds",
        "2",
        "-repeat",
        "-concurrency",
        "1",
        "-maxmoves",
        "100",
        "-sprt",
        "elo0=0",
        "elo1=5",
        "alpha=0.1",
        "beta=0.05",
        "-pgnout",
        "/tmp/g.pgn",
        "-event",
        "Cutoff match",
        "-recover",
    ];
    assert_eq!(handoff(Runner::Cutechess, line), expected);
    // A time control with a moves-per-period part, in cutechess' own format.
    let args = handoff(Runner::Cutechess, "--engine2 x --openings o.epd --tc 40/60+0.5");
    assert!(args.iter().any(|a| a == "tc=40/60+0.5"), "{args:?}");
}

#[cfg(unix)]
#[test]
fn runner_lookup_on_path() {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp_dir("path");
    let empty = dir.join("empty");
    let bin = dir.join("bin");
    std::fs::create_dir_all(&empty).unwrap();
    std::fs::create_dir_all(&bin).unwrap();
    // Not executable: skipped.
    std::fs::write(empty.join("fastchess"), "").unwrap();
    let tool = bin.join("fastchess");
    std::fs::write(&tool, "#!/bin/sh\n").unwrap();
    std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path_var = std::env::join_paths([&empty, &bin]).unwrap();
    assert_eq!(external::find_in_path(&path_var, "fastchess"), Some(tool));
    assert_eq!(external::find_in_path(&path_var, "cutechess-cli"), None);
    assert_eq!(external::find_in_path(std::ffi::OsStr::new(""), "fastchess"), None);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn missing_runner_is_a_clear_error() {
    let empty = std::ffi::OsStr::new("");
    let message = external::find_tool_in(Runner::Cutechess, empty).unwrap_err().to_string();
    assert!(message.contains("`cutechess-cli` is not on PATH"), "{message}");
    assert!(message.contains("leave out --runner"), "{message}");
    let message = external::find_tool_in(Runner::Fastchess, empty).unwrap_err().to_string();
    assert!(message.starts_with("--runner fastchess: `fastchess` is not on PATH"), "{message}");
    assert!(external::find_tool_in(Runner::Internal, empty).is_err());
}
