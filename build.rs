//! Records what a build is, for `cutoff --version` and the UCI handshake: the commit, the
//! x86-64 instruction level the compiler targets, and the embedded network. A build never fails
//! here: without git (a source tarball) the commit is `unknown`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::{env, fs};

use sha2::{Digest, Sha256};

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    println!("cargo::rustc-env=CUTOFF_COMMIT={}", commit(&manifest));
    let (name, index) = level();
    println!("cargo::rustc-env=CUTOFF_LEVEL={name}");
    // The level's number (0: not x86-64, 1: baseline ... 4: x86-64-v4), for the start-up CPU
    // check, so that the check and `--version` follow one rule.
    println!("cargo::rustc-env=CUTOFF_LEVEL_INDEX={index}");
    println!("cargo::rustc-env=CUTOFF_NETWORK={}", network(&manifest));
}

/// The commit checked out, abbreviated to 12 digits, or `unknown`.
fn commit(dir: &Path) -> String {
    let git = |args: &[&str]| {
        let out = Command::new("git").args(args).current_dir(dir).output().ok()?;
        let text = String::from_utf8(out.stdout).ok()?;
        (out.status.success() && !text.trim().is_empty()).then(|| text.trim().to_owned())
    };
    let Some(hash) = git(&["rev-parse", "--short=12", "HEAD"]) else { return "unknown".into() };
    // Rerun when HEAD moves: HEAD itself, the branch it names, and the packed refs. Only files
    // that exist are named, since cargo reruns a script on every build for a missing one.
    let mut watched = vec!["HEAD".to_owned(), "packed-refs".to_owned()];
    watched.extend(git(&["symbolic-ref", "-q", "HEAD"]));
    for name in watched {
        if let Some(path) = git(&["rev-parse", "--path-format=absolute", "--git-path", &name])
            && Path::new(&path).exists()
        {
            println!("cargo::rerun-if-changed={path}");
        }
    }
    hash
}

/// The highest x86-64 microarchitecture level (psABI) whose every feature the compiler may use,
/// with `target-cpu=...` when the flags name a CPU that is not a level (`native`, `znver3`).
fn level() -> (String, usize) {
    if env::var("CARGO_CFG_TARGET_ARCH").as_deref() != Ok("x86_64") {
        return (env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_else(|_| "unknown".into()), 0);
    }
    let features = env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    let has = |list: &[&str]| list.iter().all(|f| features.split(',').any(|g| g == *f));
    let v2 = has(&["cmpxchg16b", "popcnt", "sse3", "sse4.1", "sse4.2", "ssse3"]);
    let v3 = v2 && has(&["avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "lzcnt", "movbe", "xsave"]);
    let v4 = v3 && has(&["avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"]);
    let (level, index) = match (v2, v3, v4) {
        (_, _, true) => ("x86-64-v4", 4),
        (_, true, _) => ("x86-64-v3", 3),
        (true, _, _) => ("x86-64-v2", 2),
        _ => ("x86-64", 1),
    };
    let flags = env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    let flags: Vec<&str> = flags.split('\x1f').collect();
    let cpu = flags.iter().enumerate().rev().find_map(|(i, flag)| {
        let value = flag.strip_prefix("-C").map(str::trim_start).filter(|v| !v.is_empty());
        let value = value.or_else(|| (*flag == "-C").then(|| flags.get(i + 1).copied()).flatten())?;
        value.strip_prefix("target-cpu=")
    });
    match cpu {
        Some(cpu) if cpu != level => (format!("{level} target-cpu={cpu}"), index),
        _ => (level.to_owned(), index),
    }
}

/// The embedded network (the same file `crates/uci/build.rs` embeds): its file name and the
/// first 8 digits of its SHA-256, as `docs/nnue.md` names networks; `none` without one.
fn network(manifest: &Path) -> String {
    println!("cargo::rerun-if-env-changed=CUTOFF_EVALFILE");
    let chosen = env::var_os("CUTOFF_EVALFILE").filter(|p| !p.is_empty()).map(PathBuf::from);
    let source = chosen.unwrap_or_else(|| manifest.join("crates/uci/networks/default.nnue"));
    if source.exists() {
        println!("cargo::rerun-if-changed={}", source.display());
    }
    match fs::read(&source) {
        Ok(bytes) if !bytes.is_empty() => {
            let name = source.file_name().map_or_else(|| "?".into(), |n| n.to_string_lossy().into_owned());
            format!("{name} sha256:{}", &format!("{:x}", Sha256::digest(&bytes))[..8])
        }
        _ => "none".into(),
    }
}
