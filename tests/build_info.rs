//! What `cutoff --version` says about the build, and the one-line refusal of a CPU below the
//! build's instruction level (simulated with `CUTOFF_SIMULATE_CPU`, so that it shows on any
//! machine).

use std::path::Path;
use std::process::{Command, Output};

use sha2::{Digest, Sha256};

const BIN: &str = env!("CARGO_BIN_EXE_cutoff");

/// The x86-64 levels, lowest first.
const LEVELS: [&str; 4] = ["x86-64", "x86-64-v2", "x86-64-v3", "x86-64-v4"];

fn cutoff(args: &[&str], simulate: Option<&str>) -> Output {
    let mut command = Command::new(BIN);
    command.args(args).env_remove("CUTOFF_SIMULATE_CPU").env_remove("RUST_LOG");
    if let Some(level) = simulate {
        command.env("CUTOFF_SIMULATE_CPU", level);
    }
    command.output().unwrap_or_else(|e| panic!("cannot start {BIN}: {e}"))
}

/// The fields of `cutoff VERSION (commit C, LEVEL, network N)`.
struct Version {
    version: String,
    commit: String,
    level: String,
    network: String,
}

fn version() -> Version {
    let out = cutoff(&["--version"], None);
    assert!(out.status.success(), "--version failed: {out:?}");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let line = text.strip_suffix('\n').unwrap_or_else(|| panic!("one line expected: {text:?}"));
    assert!(!line.contains('\n'), "one line expected: {text:?}");
    let inner = line
        .strip_prefix("cutoff ")
        .and_then(|rest| rest.strip_suffix(')'))
        .unwrap_or_else(|| panic!("`cutoff VERSION (...)` expected: {line:?}"));
    let (version, fields) = inner.split_once(" (").unwrap_or_else(|| panic!("no `(` in {line:?}"));
    let fields: Vec<&str> = fields.split(", ").collect();
    let [commit, level, network] = fields[..] else { panic!("three fields expected: {line:?}") };
    let field = |text: &str, prefix: &str| {
        text.strip_prefix(prefix).unwrap_or_else(|| panic!("{prefix:?} expected in {line:?}")).to_owned()
    };
    Version {
        version: version.to_owned(),
        commit: field(commit, "commit "),
        level: level.to_owned(),
        network: field(network, "network "),
    }
}

#[test]
fn version_names_the_version_commit_level_and_network() {
    let v = version();
    assert_eq!(v.version, env!("CARGO_PKG_VERSION"));

    let hex = |s: &str| s.bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase());
    assert!(v.commit == "unknown" || (v.commit.len() == 12 && hex(&v.commit)), "commit: {:?}", v.commit);
    let head = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|o| o.status.success());
    if let Some(head) = head {
        assert_eq!(v.commit, String::from_utf8_lossy(&head.stdout).trim(), "the commit built");
    }

    if cfg!(target_arch = "x86_64") {
        let level = v.level.split(' ').next().unwrap_or_default();
        assert!(LEVELS.contains(&level), "level: {:?}", v.level);
        assert!(v.level == level || v.level.starts_with(&format!("{level} target-cpu=")), "level: {:?}", v.level);
    }

    // The default network, named as docs/nnue.md names networks (file, first digits of its SHA-256).
    let default = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/uci/networks/default.nnue");
    if option_env!("CUTOFF_EVALFILE").is_none_or(str::is_empty) {
        match std::fs::read(&default) {
            Ok(bytes) => {
                assert_eq!(v.network, format!("default.nnue sha256:{}", &format!("{:x}", Sha256::digest(&bytes))[..8]))
            }
            Err(_) => assert_eq!(v.network, "none"),
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[test]
fn a_cpu_below_the_build_level_is_refused_in_one_line() {
    let v = version();
    let built = LEVELS.iter().position(|l| v.level.split(' ').next() == Some(*l)).expect("an x86-64 level");
    let adds = ["SSE2", "POPCNT, SSE4.2", "AVX2, BMI2, FMA", "AVX-512"][built];
    for (index, level) in LEVELS.iter().enumerate() {
        // `bench` and the UCI loop as well as `--version`: nothing runs before the check.
        for args in [&["--version"][..], &["bench", "1"], &[]] {
            let out = cutoff(args, Some(level));
            let stderr = String::from_utf8_lossy(&out.stderr);
            if index < built {
                assert_eq!(out.status.code(), Some(1), "{level} {args:?}: exit status 1 expected: {out:?}");
                assert!(out.stdout.is_empty(), "{level} {args:?}: nothing on stdout expected: {out:?}");
                assert_eq!(
                    stderr,
                    format!(
                        "cutoff: this CPU lacks the instructions of {} ({adds}), the level of this build; \
                         use the {level} build instead\n",
                        LEVELS[built]
                    ),
                    "{level} {args:?}"
                );
            } else {
                assert!(out.status.success(), "{level} {args:?}: runs on a CPU of its level or above: {out:?}");
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[test]
fn an_unknown_simulated_level_is_an_error() {
    let out = cutoff(&["--version"], Some("x86-64-v9"));
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(out.stdout.is_empty(), "{out:?}");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: CUTOFF_SIMULATE_CPU=x86-64-v9: not a level (x86-64, x86-64-v2, x86-64-v3, x86-64-v4)\n"
    );
}

#[test]
fn the_uci_handshake_names_the_build() {
    let out = cutoff(&["--version"], None);
    let version = String::from_utf8_lossy(&out.stdout).trim().strip_prefix("cutoff ").map(str::to_owned);
    let version = version.unwrap_or_else(|| panic!("--version: {out:?}"));
    let mut child = Command::new(BIN)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .env_remove("CUTOFF_SIMULATE_CPU")
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {BIN}: {e}"));
    // Dropping stdin after the write closes it: the engine reads `quit`, then the end.
    std::io::Write::write_all(&mut child.stdin.take().expect("piped"), b"uci\nquit\n").expect("write to the engine");
    let out = child.wait_with_output().expect("the engine ends");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    let author = lines.iter().position(|l| l.starts_with("id author ")).unwrap_or_else(|| panic!("{stdout}"));
    assert_eq!(lines.get(author + 1).copied(), Some(format!("info string Cutoff {version}").as_str()), "{stdout}");
    assert_eq!(lines.last().copied(), Some("uciok"), "{stdout}");
}
