//! `cargo xtask dist` (`make dist`): release archives of the engine for Linux x86-64, one per
//! microarchitecture level, each with the binary, the README, both licences and a SHA-256 list;
//! then every binary this machine can run is benched, alternately, and its nps reported.
//!
//! Progress goes to stderr, the summary table to stdout.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

use clap::Args;

use crate::util::{self, Result};

use sha2::{Digest, Sha256};

/// The levels, as `-C target-cpu` names them, with what each adds and whether its build uses
/// PEXT for slider attacks.
///
/// PEXT only at x86-64-v4: x86-64-v3 includes BMI2, but AMD's Zen 1 and Zen 2 (x86-64-v3 CPUs)
/// run PEXT in microcode, tens of times slower than the magic multiplication that replaces it;
/// every x86-64-v4 CPU (Intel since Skylake-X, AMD since Zen 4) has a fast one.
const LEVELS: [(&str, &str, bool); 4] = [
    ("x86-64", "baseline: SSE2", false),
    ("x86-64-v2", "POPCNT, SSE4.2", false),
    ("x86-64-v3", "AVX2, BMI2, FMA", false),
    ("x86-64-v4", "AVX-512", true),
];

/// The files every archive holds beside the binary, from the workspace root.
const DOCS: [&str; 3] = ["README.md", "LICENSE-MIT", "LICENSE-APACHE"];

/// Extra help of `cargo xtask dist --help`.
const AFTER_LONG_HELP: &str = "\
For each level: cargo build --release -p cutoff --target TARGET with RUSTFLAGS=\"-C
target-cpu=LEVEL\" (its own target directory, target/dist/LEVEL) and CUTOFF_PEXT (1 at
x86-64-v4 only: Zen 1 and Zen 2, x86-64-v3 CPUs, run PEXT in microcode). CUTOFF_EVALFILE,
as for `make EVALFILE=...`, chooses the embedded network. Then OUT/cutoff-VERSION-linux-LEVEL.tar.gz
holds cutoff, README.md, LICENSE-MIT, LICENSE-APACHE and SHA256SUMS (`sha256sum -c SHA256SUMS`),
and OUT/SHA256SUMS lists the archives.

With --pgo, each level that this CPU runs is then built again profile-guided
(scripts/pgo.sh --require: an instrumented build runs `cutoff bench`, and the build with that
profile ships; target/dist/LEVEL/pgo), and its table row says `pgo`. A level this CPU cannot
run cannot be profiled here and ships its plain build, with one line saying so; without the
llvm-profdata of rustc's LLVM, one line says so and every level ships its plain build.

Each binary is then run: `cutoff --version`, and `cutoff bench` --rounds times, the levels
taking turns (with --compare BIN, that binary too), and the median nps is reported. A binary
this CPU cannot run prints its one-line refusal instead. The node count must be the same at
every level (exit status 1 if not).

EXAMPLES:
    cargo xtask dist                                  all four levels -> dist/
    cargo xtask dist --levels x86-64-v3,x86-64-v4 --rounds 1
    cargo xtask dist --rounds 9 --compare target/release/cutoff   against the native build
    cargo xtask dist --pgo --levels x86-64-v3 --rounds 9 --compare target/dist/x86-64-v3/x86_64-unknown-linux-gnu/release/cutoff
                                                      profile-guided against plain";

/// Arguments of `cargo xtask dist`.
#[derive(Debug, Args)]
#[command(after_long_help = AFTER_LONG_HELP)]
pub struct DistArgs {
    /// The levels to build, comma-separated [default: x86-64,x86-64-v2,x86-64-v3,x86-64-v4].
    #[arg(long, value_delimiter = ',', value_name = "LEVEL")]
    levels: Vec<String>,
    /// The Rust target (an x86_64 Linux one).
    #[arg(long, default_value = "x86_64-unknown-linux-gnu")]
    target: String,
    /// The directory for the archives.
    #[arg(long, default_value = "dist")]
    out: PathBuf,
    /// Bench runs per binary, taking turns (0: no bench).
    #[arg(long, default_value_t = 3)]
    rounds: usize,
    /// Another binary to bench in the same rounds (the native build, say).
    #[arg(long, value_name = "BIN")]
    compare: Option<PathBuf>,
    /// Ship profile-guided builds (`make dist PGO=1`) of the levels this CPU runs.
    #[arg(long)]
    pgo: bool,
}

/// A binary to bench, and what its runs gave.
struct Entry {
    label: String,
    binary: PathBuf,
    archive: Option<PathBuf>,
    /// The binary's refusal (or other failure) on this machine, if it does not run.
    refused: Option<String>,
    nodes: Option<u64>,
    nps: Vec<u64>,
}

pub fn run(args: &DistArgs) -> Result<ExitCode> {
    let levels: Vec<(&str, &str, bool)> = if args.levels.is_empty() {
        LEVELS.to_vec()
    } else {
        args.levels
            .iter()
            .map(|name| {
                LEVELS.iter().copied().find(|l| l.0 == name).ok_or_else(|| {
                    let known: Vec<&str> = LEVELS.iter().map(|l| l.0).collect();
                    format!("--levels: unknown level {name:?} (known: {})", known.join(", "))
                })
            })
            .collect::<Result<_, _>>()?
    };
    let root = util::workspace_root();
    check_toolchain(&args.target)?;
    let version = workspace_version(&root)?;
    let out = if args.out.is_absolute() { args.out.clone() } else { root.join(&args.out) };
    fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;

    let pgo = args.pgo && find_profdata(&root);
    let mut entries = Vec::new();
    for &(level, adds, pext) in &levels {
        eprintln!("dist: building {level} ({adds}; slider attacks by {})", if pext { "PEXT" } else { "magics" });
        let mut binary = build(&root, &args.target, level, pext)?;
        check_pre_main_code(&binary)?;
        let mut label = level.to_owned();
        if pgo {
            match version_line(&binary) {
                Ok(_) => {
                    binary = build_pgo(&root, level, pext)?;
                    check_pre_main_code(&binary)?;
                    label.push_str(" pgo");
                }
                Err(why) => eprintln!(
                    "dist: --pgo: {level} does not run on this CPU ({why}), so it cannot be profiled here: \
                     its plain build ships"
                ),
            }
        }
        let archive = package(&root, &out, &binary, &version, level)?;
        eprintln!("dist: {}", archive.display());
        entries.push(Entry { label, binary, archive: Some(archive), refused: None, nodes: None, nps: Vec::new() });
    }
    write_sums(&out, entries.iter().filter_map(|e| e.archive.as_deref()))?;
    if let Some(binary) = &args.compare {
        let label = binary.display().to_string();
        entries.push(Entry {
            label,
            binary: binary.clone(),
            archive: None,
            refused: None,
            nodes: None,
            nps: Vec::new(),
        });
    }

    for entry in &mut entries {
        match version_line(&entry.binary) {
            Ok(line) => eprintln!("dist: {}: {line}", entry.label),
            Err(why) => entry.refused = Some(why),
        }
    }
    for round in 0..args.rounds {
        for entry in entries.iter_mut().filter(|e| e.refused.is_none()) {
            let (nodes, nps) = bench(&entry.binary)?;
            eprintln!("dist: round {}: {}: {nodes} nodes {nps} nps", round + 1, entry.label);
            entry.nodes = Some(nodes);
            entry.nps.push(nps);
        }
    }
    print_table(&entries, args.rounds);
    let counts: Vec<u64> = entries.iter().filter_map(|e| e.nodes).collect();
    if counts.windows(2).any(|w| w[0] != w[1]) {
        eprintln!("dist: the bench node counts differ between the builds");
        return Ok(util::EXIT_FAILURE.into());
    }
    Ok(ExitCode::SUCCESS)
}

/// Checks that this machine can build for `target`: an x86_64 Linux target whose standard
/// library is installed, a linker for it, and `tar`; the error names what is missing.
fn check_toolchain(target: &str) -> Result<()> {
    if !(target.starts_with("x86_64-") && target.contains("-linux-")) {
        return Err(
            format!("--target {target}: the levels are those of x86-64 Linux (an x86_64-*-linux-* target)").into()
        );
    }
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let output = |cmd: &mut Command| {
        cmd.stderr(Stdio::null())
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
    };
    let libdir =
        output(Command::new(&rustc).args(["--print", "target-libdir", "--target", target])).ok_or_else(|| {
            format!(
                "missing toolchain: `{rustc} --print target-libdir --target {target}` failed (is {rustc} installed?)"
            )
        })?;
    let has_std = fs::read_dir(&libdir)
        .map(|dir| dir.flatten().any(|f| f.file_name().to_string_lossy().starts_with("libstd-")))
        .unwrap_or(false);
    if !has_std {
        return Err(format!(
            "missing toolchain: the Rust standard library for {target} is not installed (no {libdir}/libstd-*); \
             install it with `rustup target add {target}`"
        )
        .into());
    }
    let host = output(Command::new(&rustc).arg("-vV"))
        .and_then(|v| v.lines().find_map(|l| l.strip_prefix("host: ").map(str::to_owned)))
        .unwrap_or_default();
    let linker_var = format!("CARGO_TARGET_{}_LINKER", target.to_uppercase().replace('-', "_"));
    if !host.starts_with("x86_64-") && std::env::var_os(&linker_var).is_none() {
        let gcc = "x86_64-linux-gnu-gcc";
        if output(Command::new(gcc).arg("--version")).is_none() {
            return Err(format!(
                "missing toolchain: no linker for {target} on this {host} machine: install {gcc} \
                 (Debian: gcc-x86-64-linux-gnu) or name one in {linker_var}"
            )
            .into());
        }
    }
    if output(Command::new("tar").arg("--version")).is_none() {
        return Err("missing tool: `tar` (for the archives) is not installed".into());
    }
    Ok(())
}

/// The workspace's version, from `[workspace.package]` of the root `Cargo.toml`.
fn workspace_version(root: &Path) -> Result<String> {
    let manifest = root.join("Cargo.toml");
    let text = fs::read_to_string(&manifest).map_err(|e| format!("{}: {e}", manifest.display()))?;
    let section = text.split("[workspace.package]").nth(1).unwrap_or_default();
    section
        .lines()
        .take_while(|l| !l.starts_with('['))
        .find_map(|l| l.strip_prefix("version = \"")?.strip_suffix('"').map(str::to_owned))
        .ok_or_else(|| format!("{}: no version in [workspace.package]", manifest.display()).into())
}

/// Builds the engine for `level` in its own target directory and returns the binary.
fn build(root: &Path, target: &str, level: &str, pext: bool) -> Result<PathBuf> {
    let target_dir = root.join("target").join("dist").join(level);
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(&cargo)
        .current_dir(root)
        .args(["build", "--release", "--package", "cutoff", "--bin", "cutoff", "--target", target])
        .arg("--target-dir")
        .arg(&target_dir)
        // RUSTFLAGS replaces the `target-cpu=native` of .cargo/config.toml; with --target it
        // applies to the engine only, not to build scripts.
        .env("RUSTFLAGS", format!("-C target-cpu={level}"))
        .env("CUTOFF_PEXT", if pext { "1" } else { "0" })
        .status()
        .map_err(|e| format!("{cargo}: {e}"))?;
    if !status.success() {
        return Err(format!("the {level} build failed ({status})").into());
    }
    Ok(target_dir.join(target).join("release").join("cutoff"))
}

/// Whether `scripts/pgo.sh` finds the llvm-profdata of rustc's LLVM; it says on stderr which
/// one, or why there is none (then the plain builds ship).
fn find_profdata(root: &Path) -> bool {
    let found = Command::new(root.join("scripts").join("pgo.sh"))
        .arg("--find")
        .current_dir(root)
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| eprintln!("dist: --pgo: scripts/pgo.sh: {e}"))
        .ok()
        .filter(|o| o.status.success());
    match found {
        Some(o) => {
            eprintln!("dist: --pgo: profile-guided builds with {}", String::from_utf8_lossy(&o.stdout).trim());
            true
        }
        None => {
            eprintln!("dist: --pgo: the plain builds ship");
            false
        }
    }
}

/// Builds `level` profile-guided with `scripts/pgo.sh` (its own directories,
/// target/dist/LEVEL/pgo) and returns the binary. Only for a level this CPU runs: the
/// instrumented build runs `cutoff bench` here, and its build scripts take the level's flags.
fn build_pgo(root: &Path, level: &str, pext: bool) -> Result<PathBuf> {
    let dir = root.join("target").join("dist").join(level).join("pgo");
    fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let binary = dir.join("cutoff");
    let status = Command::new(root.join("scripts").join("pgo.sh"))
        .current_dir(root)
        .arg("--require")
        .arg(&binary)
        .arg(format!("-C target-cpu={level}"))
        .env("PGO_DIR", &dir)
        .env("CUTOFF_PEXT", if pext { "1" } else { "0" })
        .status()
        .map_err(|e| format!("scripts/pgo.sh: {e}"))?;
    if !status.success() {
        return Err(format!("the profile-guided {level} build failed ({status})").into());
    }
    Ok(binary)
}

/// The functions that run before `main` to check the CPU (`src/build_info.rs`).
const CHECK_FUNCTIONS: [&str; 3] =
    ["cutoff::build_info::check_before_start", "cutoff::build_info::cpu_level", "cutoff::build_info::refuse"];

/// Mnemonics beyond the x86-64 baseline that the compiler emits in scalar code or for small
/// copies: VEX and EVEX forms (`v...`), mask registers, BMI1/BMI2, LZCNT, MOVBE, POPCNT and
/// SSE4.1/SSSE3 element moves. Not TZCNT: its encoding is `rep bsf`, which a CPU without BMI1
/// runs as BSF, and the compiler emits it in baseline code where the two agree.
const ABOVE_BASELINE: [&str; 20] = [
    "v", "kmov", "andn", "shrx", "shlx", "sarx", "bextr", "blsr", "blsi", "blsmsk", "bzhi", "pdep", "pext", "lzcnt",
    "movbe", "rorx", "popcnt", "ptest", "pshufb", "pinsr",
];

/// Disassembles the CPU check (with `nm` and `objdump`, skipped with a note where they are
/// missing) and fails if it holds an instruction beyond the baseline: the check runs on CPUs
/// that may lack the build's level, and the compiler gives no guarantee about the code it emits.
fn check_pre_main_code(binary: &Path) -> Result<()> {
    let run = |cmd: &str, args: &[&str]| {
        Command::new(cmd).args(args).arg(binary).stderr(Stdio::null()).output().ok().filter(|o| o.status.success())
    };
    let Some(symbols) = run("nm", &["-C"]) else {
        eprintln!("dist: nm is missing; the CPU check's code is not inspected");
        return Ok(());
    };
    let symbols = String::from_utf8_lossy(&symbols.stdout).into_owned();
    let mut addresses: Vec<(u64, &str)> = symbols
        .lines()
        .filter_map(|l| {
            let mut f = l.splitn(3, ' ');
            Some((u64::from_str_radix(f.next()?, 16).ok()?, f.nth(1)?))
        })
        .collect();
    addresses.sort_unstable();
    let mut inspected = 0;
    for name in CHECK_FUNCTIONS {
        // An absent function was inlined or (in the baseline build) optimised away.
        let Some(i) = addresses.iter().position(|&(_, s)| s == name) else { continue };
        let start = addresses[i].0;
        let Some(&(end, _)) = addresses[i..].iter().find(|&&(a, _)| a > start) else { continue };
        let range = [format!("--start-address={start:#x}"), format!("--stop-address={end:#x}")];
        let Some(code) = run("objdump", &["-d", "--no-show-raw-insn", &range[0], &range[1]]) else {
            eprintln!("dist: objdump is missing; the CPU check's code is not inspected");
            return Ok(());
        };
        for line in String::from_utf8_lossy(&code.stdout).lines() {
            // `  addr:\tmnemonic operands`
            let Some(mnemonic) = line.split('\t').nth(1).and_then(|i| i.split_whitespace().next()) else { continue };
            if ABOVE_BASELINE.iter().any(|p| mnemonic.starts_with(p)) {
                return Err(format!(
                    "{}: {name} runs before the CPU is checked but holds `{}`",
                    binary.display(),
                    line.trim()
                )
                .into());
            }
        }
        inspected += 1;
    }
    eprintln!("dist: the CPU check ({inspected} functions) uses baseline instructions only");
    Ok(())
}

/// Writes `out/cutoff-VERSION-linux-LEVEL.tar.gz`: one directory of that name holding the
/// binary, the README, the licences and their SHA-256 list.
fn package(root: &Path, out: &Path, binary: &Path, version: &str, level: &str) -> Result<PathBuf> {
    let name = format!("cutoff-{version}-linux-{level}");
    let stage = out.join(&name);
    if stage.exists() {
        fs::remove_dir_all(&stage).map_err(|e| format!("{}: {e}", stage.display()))?;
    }
    fs::create_dir_all(&stage).map_err(|e| format!("{}: {e}", stage.display()))?;
    let copy = |from: &Path, to: &str| {
        fs::copy(from, stage.join(to)).map(|_| ()).map_err(|e| format!("{}: {e}", from.display()))
    };
    copy(binary, "cutoff")?;
    let mut files = vec!["cutoff".to_owned()];
    for doc in DOCS {
        copy(&root.join(doc), doc)?;
        files.push(doc.to_owned());
    }
    write_sums(&stage, files.iter().map(|f| stage.join(f)).collect::<Vec<_>>().iter().map(PathBuf::as_path))?;
    let archive = out.join(format!("{name}.tar.gz"));
    let status = Command::new("tar")
        .args(["--sort=name", "--owner=0", "--group=0", "--numeric-owner", "-czf"])
        .arg(&archive)
        .arg("-C")
        .arg(out)
        .arg(&name)
        .status()
        .map_err(|e| format!("tar: {e}"))?;
    if !status.success() {
        return Err(format!("tar could not write {} ({status})", archive.display()).into());
    }
    fs::remove_dir_all(&stage).map_err(|e| format!("{}: {e}", stage.display()))?;
    Ok(archive)
}

/// Writes `dir/SHA256SUMS` for `files` (in `sha256sum`'s format, names relative to `dir`).
fn write_sums<'a>(dir: &Path, files: impl Iterator<Item = &'a Path>) -> Result<()> {
    let mut list = String::new();
    for file in files {
        let bytes = fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
        let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        list.push_str(&format!("{:x}  {name}\n", Sha256::digest(&bytes)));
    }
    let path = dir.join("SHA256SUMS");
    fs::write(&path, list).map_err(|e| format!("{}: {e}", path.display()).into())
}

/// The binary's `--version` line, or why it does not run here (its refusal line).
fn version_line(binary: &Path) -> Result<String, String> {
    let output = Command::new(binary).arg("--version").output().map_err(|e| format!("{}: {e}", binary.display()))?;
    let stdout = String::from_utf8_lossy(&output.stdout).trim().to_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).trim().to_owned();
    if output.status.success() { Ok(stdout) } else { Err(format!("{stderr} ({})", output.status)) }
}

/// Runs `cutoff bench` and returns its nodes and nps.
fn bench(binary: &Path) -> Result<(u64, u64)> {
    let output = Command::new(binary)
        .arg("bench")
        .stderr(Stdio::null())
        .output()
        .map_err(|e| format!("{}: {e}", binary.display()))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let numbers: Vec<u64> = stdout.split_whitespace().filter_map(|w| w.parse().ok()).collect();
    match numbers[..] {
        [nodes, nps] if output.status.success() => Ok((nodes, nps)),
        _ => {
            Err(format!("{} bench: unexpected output {:?} ({})", binary.display(), stdout.trim(), output.status).into())
        }
    }
}

/// The summary: each binary's archive, node count and median nps (or its refusal).
fn print_table(entries: &[Entry], rounds: usize) {
    println!("{:<28} {:>9} {:>12}  archive / binary", "build", "nodes", format!("nps (median of {rounds})"));
    for e in entries {
        let place = e.archive.as_deref().unwrap_or(&e.binary).display().to_string();
        match &e.refused {
            Some(why) => println!("{:<28} refused here: {why}\n{:<28} {place}", e.label, ""),
            None => {
                let mut nps = e.nps.clone();
                nps.sort_unstable();
                let median = nps.get(nps.len() / 2).map_or("-".into(), |n| n.to_string());
                let nodes = e.nodes.map_or("-".into(), |n| n.to_string());
                println!("{:<28} {nodes:>9} {median:>12}  {place}", e.label);
            }
        }
    }
}
