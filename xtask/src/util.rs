//! Helpers shared by the subcommands: locating the workspace and the shared data, re-running in
//! release mode, number formatting.

use std::env;
use std::error::Error;
use std::path::{Path, PathBuf};
use std::process::{self, ExitCode};

/// Errors are reported to the user as `error: <message>` with [`EXIT_ERROR`].
pub type Result<T, E = Box<dyn Error + Send + Sync>> = std::result::Result<T, E>;

/// Exit status for a failed check (a perft mismatch, ...).
pub const EXIT_FAILURE: u8 = 1;
/// Exit status for a usage or environment error.
pub const EXIT_ERROR: u8 = 2;

/// Environment variable set on the release re-run, so it never re-runs itself again.
pub const RELEASE_MARKER: &str = "CUTOFF_XTASK_RELEASE";

/// The workspace root (the parent of the `xtask` package directory).
pub fn workspace_root() -> PathBuf {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest_dir.parent().unwrap_or(manifest_dir).to_path_buf()
}

/// The repository's own data directory, `<workspace root>/data`: perft suites, bench positions,
/// tactical suites and openings. Every default of every subcommand reads from here.
pub fn data_dir() -> Result<PathBuf> {
    let dir = workspace_root().join("data");
    if dir.is_dir() {
        Ok(dir)
    } else {
        Err(format!("the repository's data directory {} is missing (a partial checkout?)", dir.display()).into())
    }
}

/// If this is a debug build, re-runs the same command line with `cargo run --release`: on Unix
/// by replacing this process (returning only if that fails), elsewhere as a child whose exit
/// status it returns. Returns `None` when the caller should go on in-process (already a
/// release build, or the re-run marker is set).
pub fn rerun_in_release() -> Option<ExitCode> {
    if !cfg!(debug_assertions) {
        return None;
    }
    if env::var_os(RELEASE_MARKER).is_some() {
        eprintln!("warning: ${RELEASE_MARKER} is set but this is a debug build; running unoptimised");
        return None;
    }
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = process::Command::new(cargo);
    cmd.args(["run", "--release", "--quiet", "--package", "xtask"]);
    if cfg!(feature = "pext") {
        cmd.args(["--features", "pext"]);
    }
    cmd.arg("--").args(env::args_os().skip(1)).env(RELEASE_MARKER, "1").current_dir(workspace_root());
    eprintln!("xtask: building and re-running in release mode (cargo run --release --package xtask) ...");
    // On Unix this process becomes cargo, which becomes the release build in turn (`cargo run`
    // replaces itself too): one process throughout, so that a signal sent to the pid that was
    // started (SIGTERM from a job system, a `kill`) reaches the task itself, and no parent
    // returns while the task is still finishing (a training writing its checkpoint).
    #[cfg(unix)]
    let err = {
        use std::os::unix::process::CommandExt;
        cmd.exec()
    };
    #[cfg(not(unix))]
    let err = match cmd.status() {
        Ok(status) => return Some(status.code().and_then(|c| u8::try_from(c).ok()).unwrap_or(EXIT_FAILURE).into()),
        Err(err) => err,
    };
    eprintln!("error: could not run cargo for the release re-run: {err}");
    Some(EXIT_ERROR.into())
}

/// `1234567` -> `"1,234,567"`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Million nodes per second (0 for an empty interval).
pub fn mnps(nodes: u64, seconds: f64) -> f64 {
    if seconds > 0.0 { nodes as f64 / seconds / 1e6 } else { 0.0 }
}

/// The system load averages, if the platform exposes them (`/proc/loadavg`).
pub fn load_average() -> Option<String> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    let fields: Vec<&str> = text.split_whitespace().take(3).collect();
    (fields.len() == 3).then(|| fields.join(" "))
}

/// Number of hardware threads, 1 if unknown.
pub fn hardware_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(3_195_901_860), "3,195,901,860");
    }
}
