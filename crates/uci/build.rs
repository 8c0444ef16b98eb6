//! Embeds the default evaluation network: `networks/default.nnue`, or the file named by the
//! `CUTOFF_EVALFILE` environment variable (the Makefile's `EVALFILE`, for OpenBench). Without
//! either, the build embeds no network and plays with the hand-crafted evaluation.

use std::path::PathBuf;
use std::{env, fs};

fn main() {
    println!("cargo::rerun-if-env-changed=CUTOFF_EVALFILE");
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("embedded.nnue");
    let chosen = env::var_os("CUTOFF_EVALFILE").filter(|p| !p.is_empty()).map(PathBuf::from);
    let source = chosen.clone().unwrap_or_else(|| manifest.join("networks").join("default.nnue"));
    println!("cargo::rerun-if-changed={}", source.display());
    let bytes = match fs::read(&source) {
        Ok(bytes) => bytes,
        Err(e) if chosen.is_some() => panic!("CUTOFF_EVALFILE={}: {e}", source.display()),
        Err(_) => Vec::new(),
    };
    fs::write(&out, bytes).expect("OUT_DIR is writable");
}
