//! Chooses how slider attacks index their tables: PEXT when the target has BMI2 and PEXT is
//! fast there, magic multiplication otherwise. Both give the same attacks.
//!
//! * the `pext` feature asks for PEXT outright (the build fails without BMI2);
//! * otherwise PEXT is used when the target has BMI2 (e.g. `-C target-cpu=native` on a BMI2
//!   CPU) unless the build machine is an AMD CPU before Zen 3, whose PEXT is microcoded and
//!   slower than magics (this check only applies when the build machine is the target);
//! * `CUTOFF_PEXT=0` or `CUTOFF_PEXT=1` overrides the automatic choice.

use std::env;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(cutoff_pext)");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=CUTOFF_PEXT");

    let x86_64 = env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|a| a == "x86_64");
    let bmi2 = x86_64 && env::var("CARGO_CFG_TARGET_FEATURE").is_ok_and(|f| f.split(',').any(|f| f == "bmi2"));
    let asked = env::var_os("CARGO_FEATURE_PEXT").is_some();
    let automatic = match env::var("CUTOFF_PEXT").as_deref() {
        Ok("0") => false,
        Ok("1") => true,
        _ => !slow_pext_on_build_machine(),
    };
    if bmi2 && (asked || automatic) {
        println!("cargo::rustc-cfg=cutoff_pext");
    }
}

/// Whether this is a native build on an AMD CPU of family 0x17 (Zen 1, Zen 2) or older, where
/// PEXT takes tens of cycles. Unknown (no `/proc/cpuinfo`, a cross build) counts as fast.
fn slow_pext_on_build_machine() -> bool {
    if env::var("HOST").ok() != env::var("TARGET").ok() {
        return false;
    }
    let Ok(cpuinfo) = std::fs::read_to_string("/proc/cpuinfo") else { return false };
    let field = |name: &str| {
        cpuinfo.lines().find_map(|l| {
            let (key, value) = l.split_once(':')?;
            (key.trim() == name).then(|| value.trim().to_owned())
        })
    };
    let amd = field("vendor_id").is_some_and(|v| v == "AuthenticAMD");
    let family = field("cpu family").and_then(|f| f.parse::<u32>().ok());
    amd && family.is_some_and(|f| f < 0x19)
}
