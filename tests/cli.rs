//! End-to-end tests of the `cutoff` subcommands (`perft`, `bench`, `datagen`) and the
//! command line.

mod common;

use std::time::Duration;

use common::{Engine, TIMEOUT, run_cli, run_cli_with_input};

/// Generous: the debug build of bench 4 takes well under a second on an idle machine.
const CLI_TIMEOUT: Duration = Duration::from_secs(60);

/// The node count of a bench total line `^\d+ nodes \d+ nps$`, or `None` if it is malformed.
fn bench_nodes(line: &str) -> Option<u64> {
    let parts: Vec<&str> = line.split(' ').collect();
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    match parts.as_slice() {
        [nodes, "nodes", nps, "nps"] if digits(nodes) && digits(nps) => nodes.parse().ok(),
        _ => None,
    }
}

fn divide(stdout: &str) -> Vec<(String, u64)> {
    stdout
        .lines()
        .filter_map(|l| l.split_once(": "))
        .filter(|(m, _)| *m != "Nodes searched")
        .map(|(m, n)| (m.to_string(), n.parse().unwrap_or_else(|_| panic!("malformed divide count in '{m}: {n}'"))))
        .collect()
}

#[test]
fn perft_subcommand_counts_the_start_position() {
    let (status, out, err) = run_cli(&["perft", "4"], CLI_TIMEOUT);
    assert!(status.success(), "perft 4 failed: {status}\n{err}");
    assert!(out.lines().any(|l| l == "Nodes searched: 197281"), "perft 4 output:\n{out}");
    let moves = divide(&out);
    assert_eq!(moves.len(), 20, "20 divide lines expected:\n{out}");
    assert_eq!(moves.iter().map(|(_, n)| n).sum::<u64>(), 197_281, "divide lines must add up");
    assert!(moves.iter().any(|(m, n)| m == "e2e4" && *n == 13_160), "e2e4: 13160 expected:\n{out}");
}

#[test]
fn perft_subcommand_with_fen_and_chess960() {
    // Chess960 perft suite: the king on g1 castles with the h1 rook (written g1h1); D2 = 899.
    let fen = "qnbnr1kr/ppp1b1pp/4p3/3p1p2/8/2NPP3/PPP1BPPP/QNB1R1KR w HEhe - 1 9";
    let (status, out, err) = run_cli(&["perft", "2", "--fen", fen, "--chess960"], CLI_TIMEOUT);
    assert!(status.success(), "perft failed: {status}\n{err}");
    assert!(out.lines().any(|l| l == "Nodes searched: 899"), "perft 2 output:\n{out}");
    assert!(divide(&out).iter().any(|(m, _)| m == "g1h1"), "castling g1h1 expected:\n{out}");
    // Kiwipete, standard rules: D3 = 97862.
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let (status, out, _) = run_cli(&["perft", "3", "--fen", kiwipete], CLI_TIMEOUT);
    assert!(status.success());
    assert!(out.lines().any(|l| l == "Nodes searched: 97862"), "kiwipete perft 3:\n{out}");
    assert!(divide(&out).iter().any(|(m, _)| m == "e1g1"), "standard castling e1g1 expected:\n{out}");
}

#[test]
fn bad_command_lines_fail_cleanly() {
    let (status, out, err) = run_cli(&["perft", "2", "--fen", "not a fen"], CLI_TIMEOUT);
    assert!(!status.success(), "a bad FEN must fail: {status}\n{out}");
    assert!(err.contains("error"), "a bad FEN must be explained on stderr: {err}");
    let (status, _, err) = run_cli(&["perft", "x"], CLI_TIMEOUT);
    assert!(!status.success(), "a bad depth must fail");
    assert!(!err.is_empty(), "a bad depth must be explained");
    let (status, _, _) = run_cli(&["frobnicate"], CLI_TIMEOUT);
    assert!(!status.success(), "an unknown subcommand must fail");
    let (status, out, _) = run_cli(&["--version"], CLI_TIMEOUT);
    assert!(status.success() && out.starts_with("cutoff "), "--version: {out}");
}

#[test]
fn bench_is_deterministic_and_matches_uci_bench() {
    let mut counts = Vec::new();
    for _ in 0..2 {
        let (status, out, err) = run_cli(&["bench", "4"], CLI_TIMEOUT);
        assert!(status.success(), "bench 4 failed: {status}\n{err}");
        let last = out.lines().last().unwrap_or_default();
        let nodes = bench_nodes(last).unwrap_or_else(|| panic!("bench must end with 'N nodes M nps':\n{out}"));
        assert!(nodes > 0, "bench searched no nodes");
        assert!(err.contains("positions, depth 4"), "bench summary on stderr expected:\n{err}");
        counts.push(nodes);
    }
    assert_eq!(counts[0], counts[1], "two bench runs must search the same number of nodes");

    // The UCI `bench` command runs the same thing.
    let mut e = Engine::spawn();
    e.send("bench 4");
    let total = e.expect_line("the bench total", |l| bench_nodes(l).is_some(), TIMEOUT);
    let uci_nodes = bench_nodes(&total);
    e.ensure(uci_nodes == Some(counts[0]), format!("UCI bench 4: {uci_nodes:?}, subcommand: {}", counts[0]));
    e.quit();
}

/// The bench positions compiled into `cutoff-uci` are the repository's `data/bench.epd`.
#[test]
fn compiled_bench_positions_match_the_data_file() {
    let data = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/bench.epd")).unwrap();
    assert_eq!(cutoff_uci::BENCH_FENS, data);
}

/// Piped input (`echo ... | cutoff`): the input ends right after the command, and a perft or
/// bench still runs to the end (only `quit` or `stop` cut them short).
#[test]
fn piped_perft_and_bench_run_to_the_end() {
    let (status, out, err) = run_cli_with_input(&[], Some("position startpos moves e2e4\ngo perft 4\n"), CLI_TIMEOUT);
    assert!(status.success(), "piped perft failed: {status}\n{err}");
    // e2e4 then perft 4: the e2e4 line of the start position's perft 5.
    assert!(out.lines().any(|l| l == "Nodes searched: 405385"), "piped go perft 4 output:\n{out}");
    assert_eq!(divide(&out).len(), 20, "20 divide lines expected:\n{out}");
    let (status, out, err) = run_cli_with_input(&[], Some("bench 2\n"), CLI_TIMEOUT);
    assert!(status.success(), "piped bench failed: {status}\n{err}");
    let last = out.lines().last().unwrap_or_default();
    assert!(bench_nodes(last).is_some_and(|n| n > 0), "piped bench must end with 'N nodes M nps':\n{out}");
    // quit, on the other hand, stops them.
    let (status, out, _) = run_cli_with_input(&[], Some("go perft 12\nquit\n"), CLI_TIMEOUT);
    assert!(status.success(), "go perft 12 + quit: {status}");
    assert!(out.lines().any(|l| l.starts_with("info string perft 12 stopped")), "perft 12 + quit:\n{out}");
}

/// `cutoff datagen` plays with the engine's default evaluation, the embedded network, and its
/// first line names it as `settings.txt` does; `--eval hce` picks the hand-crafted one, which
/// cannot continue the network's directory.
#[test]
fn datagen_plays_with_the_embedded_network_by_default_and_names_it_first() {
    let dir = std::env::temp_dir().join(format!("cutoff-cli-datagen-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (nnue, hce) = (dir.join("nnue"), dir.join("hce"));
    let args = |out: &std::path::Path, extra: &[&str]| -> Vec<String> {
        let mut args: Vec<String> = ["datagen", "--games", "1", "--seed", "3", "--nodes", "50", "--out"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        args.push(out.to_str().unwrap().to_string());
        args.extend(extra.iter().map(|s| s.to_string()));
        args
    };
    let run = |args: &[String]| run_cli(&args.iter().map(String::as_str).collect::<Vec<_>>(), CLI_TIMEOUT);
    let evaluation = |dir: &std::path::Path| -> String {
        let settings = std::fs::read_to_string(dir.join("settings.txt")).unwrap();
        settings.lines().find_map(|l| l.strip_prefix("evaluation=")).unwrap().to_string()
    };

    let (status, _, err) = run(&args(&nnue, &[]));
    assert!(status.success(), "datagen: {err}");
    let first = err.lines().next().unwrap_or_default();
    let name = evaluation(&nnue);
    // The name carries the network's width and a hash of its bytes: `nnue-<hidden>-<16 hex>`.
    let hidden = cutoff_uci::embedded_network().expect("this build embeds a network").hidden();
    let hash = name.strip_prefix(&format!("nnue-{hidden}-")).unwrap_or_else(|| panic!("settings name {name}"));
    assert!(hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()), "settings name {name}");
    assert!(first.starts_with(&format!("datagen: evaluation {name} (the embedded network")), "first line: {first}");
    assert!(first.contains("openings within ±400 cp"), "first line: {first}");

    let (status, _, err) = run(&args(&hce, &["--eval", "hce", "--opening-limit", "0"]));
    assert!(status.success(), "datagen --eval hce: {err}");
    let first = err.lines().next().unwrap_or_default();
    assert!(first.starts_with("datagen: evaluation hce (hand-crafted)"), "first line: {first}");
    assert!(first.contains("no opening limit"), "first line: {first}");
    assert_eq!(evaluation(&hce), "hce");

    let (status, _, err) = run(&args(&nnue, &["--eval", "hce"]));
    assert!(!status.success(), "the hand-crafted evaluation continued the network's run");
    assert!(err.contains("evaluation="), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `cutoff datagen convert`, then `compact` and back with `--plain`: the same games (checked by
/// the command itself and by `info`'s counts), version 2 then 1, and clean refusals.
#[test]
fn datagen_compact_rewrites_a_game_file_and_refuses_bad_requests() {
    let dir = std::env::temp_dir().join(format!("cutoff-cli-compact-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    std::fs::write(
        path("a.epd"),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - ce -30; c9 \"1/2-1/2\";\n\
         r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - ce 45; c9 \"1-0\";\n\
         8/8/4k3/8/2r5/7P/3RK3/8 w - - c9 \"0-1\";\n",
    )
    .unwrap();
    let run = |args: &[&str]| run_cli(args, CLI_TIMEOUT);
    let (status, _, err) = run(&["datagen", "convert", "--epd", &path("a.epd"), "--out", &path("plain.bin")]);
    assert!(status.success(), "convert: {err}");
    let (status, _, err) = run(&["datagen", "compact", &path("plain.bin"), &path("compact.bin")]);
    assert!(status.success(), "compact: {err}");
    assert!(err.contains("3 games") && err.contains("read back and identical"), "{err}");
    let (status, _, err) = run(&["datagen", "compact", "--plain", &path("compact.bin"), &path("again.bin")]);
    assert!(status.success(), "compact --plain: {err}");
    assert_eq!(std::fs::read(path("again.bin")).unwrap(), std::fs::read(path("plain.bin")).unwrap());
    let (status, out, err) = run(&["datagen", "info", &path("plain.bin"), &path("compact.bin")]);
    assert!(status.success(), "info: {err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[0].contains("3 games, 0 moves, 3 training positions, 2 scored positions"), "{out}");
    assert!(lines[0].ends_with("version 1") && lines[1].ends_with("version 2"), "{out}");
    assert!(lines[1].contains("3 games, 0 moves, 3 training positions, 2 scored positions"), "{out}");

    // An existing output is kept unless --force; the input is never the output.
    let (status, _, err) = run(&["datagen", "compact", &path("plain.bin"), &path("compact.bin")]);
    assert!(!status.success() && err.contains("exists (--force"), "{err}");
    let (status, _, err) = run(&["datagen", "compact", "--force", &path("plain.bin"), &path("plain.bin")]);
    assert!(!status.success() && err.contains("the output is the input"), "{err}");
    assert_eq!(std::fs::read(path("again.bin")).unwrap(), std::fs::read(path("plain.bin")).unwrap());
    #[cfg(unix)]
    {
        std::fs::hard_link(path("plain.bin"), path("link.bin")).unwrap();
        let (status, _, err) = run(&["datagen", "compact", "--force", &path("plain.bin"), &path("link.bin")]);
        assert!(!status.success() && err.contains("the output is the input"), "{err}");
        assert_eq!(std::fs::read(path("again.bin")).unwrap(), std::fs::read(path("plain.bin")).unwrap());
    }
    // A file cut inside its last game fails with nothing written.
    let plain = std::fs::read(path("plain.bin")).unwrap();
    std::fs::write(path("cut.bin"), &plain[..plain.len() - 3]).unwrap();
    let (status, _, err) = run(&["datagen", "compact", &path("cut.bin"), &path("z.bin")]);
    assert!(!status.success() && err.contains("truncated"), "{err}");
    assert!(!dir.join("z.bin").exists() && !dir.join("z.bin.partial").exists());
    // Split: the head's bytes and the tail's after its header are the input's, in both
    // encodings; a count past the file's games or an existing output writes nothing.
    for input in ["plain.bin", "compact.bin"] {
        let (status, _, err) =
            run(&["datagen", "split", "--force", "--games", "2", &path(input), &path("head.bin"), &path("tail.bin")]);
        assert!(status.success(), "split: {err}");
        assert!(err.contains("3 games") && err.contains("2 in") && err.contains("1 in"), "{err}");
        let (whole, head, tail) = (
            std::fs::read(path(input)).unwrap(),
            std::fs::read(path("head.bin")).unwrap(),
            std::fs::read(path("tail.bin")).unwrap(),
        );
        assert_eq!(head[..12], tail[..12]);
        assert_eq!([&head[..], &tail[12..]].concat(), whole);
        let (status, out, err) = run(&["datagen", "info", &path("head.bin"), &path("tail.bin")]);
        assert!(status.success(), "info: {err}");
        assert!(out.contains("head.bin: 2 games") && out.contains("tail.bin: 1 games"), "{out}");
    }
    let (status, _, err) =
        run(&["datagen", "split", "--games", "4", &path("plain.bin"), &path("h.bin"), &path("t.bin")]);
    assert!(!status.success() && err.contains("holds 3 games, fewer than --games 4"), "{err}");
    assert!(["h.bin", "t.bin", "h.bin.partial", "t.bin.partial"].iter().all(|f| !dir.join(f).exists()));
    let (status, _, err) =
        run(&["datagen", "split", "--games", "1", &path("plain.bin"), &path("h.bin"), &path("tail.bin")]);
    assert!(!status.success() && err.contains("exists (--force"), "{err}");
    let (status, _, err) =
        run(&["datagen", "split", "--force", "--games", "1", &path("plain.bin"), &path("h.bin"), &path("h.bin")]);
    assert!(!status.success() && err.contains("one file"), "{err}");
    let (status, _, err) =
        run(&["datagen", "split", "--force", "--games", "1", &path("plain.bin"), &path("h.bin"), &path("plain.bin")]);
    assert!(!status.success() && err.contains("the output is the input"), "{err}");
    let (status, _, err) = run(&["datagen", "split", "--games", "1", &path("cut.bin"), &path("h.bin"), &path("t.bin")]);
    assert!(!status.success() && err.contains("truncated"), "{err}");
    assert!(!dir.join("h.bin").exists() && !dir.join("t.bin").exists());
    // A file that is no game file, and a missing one.
    let (status, _, err) = run(&["datagen", "compact", &path("a.epd"), &path("x.bin")]);
    assert!(!status.success() && err.contains("not a Cutoff game file"), "{err}");
    let (status, _, err) = run(&["datagen", "compact", &path("missing.bin"), &path("y.bin")]);
    assert!(!status.success() && err.contains("missing.bin"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
