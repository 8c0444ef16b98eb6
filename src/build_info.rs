//! What this build is, for `cutoff --version`, the UCI handshake and bug reports, and the
//! start-up check that the CPU can run it.
//!
//! A release build targets one x86-64 microarchitecture level (`cargo xtask dist`: x86-64,
//! x86-64-v2, x86-64-v3, x86-64-v4), and the compiler uses that level's instructions anywhere
//! in the program. `check_cpu`, called first in `main`, reads the CPU's features with CPUID
//! and refuses in one line, naming the build that does run, rather than let the engine die of
//! SIGILL at its first search.
//!
//! The check must come before any code compiled for the level runs, and `main` is too late:
//! with LTO the standard library's start-up (`lang_start`) is inlined into the program's entry
//! point and compiled for the level too (the x86-64-v3 build's entry point moves vectors with
//! VEX instructions before calling `main`). So on Linux the check is an ELF constructor
//! (`CHECK_BEFORE_START`, in `.init_array`), which the C library runs before the entry point;
//! elsewhere `main` calls `check_cpu` first. The check keeps to scalar code (CPUID, XGETBV,
//! single-bit tests; its disassembly in each level's build has no vector or BMI instruction)
//! and refuses through the C library's `write` and `_exit`, which are not compiled for the
//! level. Statics of the program are initialised lazily, on first use, after it.

/// The version, the commit, the instruction level and the embedded network, as `--version`
/// and the UCI handshake print them: `0.1.0 (commit 0123456789ab, x86-64-v3, network
/// default.nnue sha256:c2640369)`.
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("CUTOFF_COMMIT"),
    ", ",
    env!("CUTOFF_LEVEL"),
    ", network ",
    env!("CUTOFF_NETWORK"),
    ")"
);

/// The exit status of a binary that refuses to run on this CPU.
const REFUSED: i32 = 1;

/// The x86-64 level names, from the baseline (index 1) up; index 0 is no x86-64 level.
const LEVELS: [&str; 5] = ["none", "x86-64", "x86-64-v2", "x86-64-v3", "x86-64-v4"];

/// What each level adds, for the refusal line.
const ADDS: [&str; 5] = ["", "SSE2", "POPCNT, SSE4.2", "AVX2, BMI2, FMA", "AVX-512"];

/// The level this binary is compiled for, as `build.rs` read it from the compiler's target
/// features (`CUTOFF_LEVEL_INDEX`, one digit); 0 off x86-64.
const BUILT: usize = (env!("CUTOFF_LEVEL_INDEX").as_bytes()[0] - b'0') as usize;

/// The real check (without the simulation), run by the C library before the program's entry
/// point: the standard library's start-up, inlined into the entry point, uses the level's
/// instructions. Its section sorts it before the standard library's own constructor
/// (`.init_array.00099`), which is compiled for the baseline anyway.
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
// SAFETY: `.init_array.*` holds pointers to `extern "C" fn()`s, which the C library calls once
// before `main`; this is one, and it needs nothing initialised (CPUID, `write`, `_exit`).
#[unsafe(link_section = ".init_array.00090")]
#[used]
static CHECK_BEFORE_START: extern "C" fn() = check_before_start;

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
extern "C" fn check_before_start() {
    let level = cpu_level();
    if level < BUILT {
        refuse(level);
    }
}

/// Refuses to go on, in one line on stderr, when the CPU lacks the instructions of the level
/// this binary is built for; the environment variable `CUTOFF_SIMULATE_CPU` (a level name)
/// lowers the CPU's level, so that tests see the refusal on any machine. Call it first in
/// `main` (on Linux the real check has run before, see `CHECK_BEFORE_START`).
pub fn check_cpu() {
    if BUILT == 0 {
        return;
    }
    let level = cpu_level();
    if level < BUILT {
        refuse(level);
    }
    // From here on the CPU runs every instruction of this build, and any code may run.
    if let Some(simulated) = std::env::var_os("CUTOFF_SIMULATE_CPU") {
        match LEVELS.iter().skip(1).position(|name| simulated == **name) {
            Some(index) if index + 1 < BUILT => refuse(index + 1),
            Some(_) => {}
            None => {
                eprintln!(
                    "error: CUTOFF_SIMULATE_CPU={}: not a level ({})",
                    simulated.to_string_lossy(),
                    LEVELS[1..].join(", ")
                );
                std::process::exit(REFUSED);
            }
        }
    }
}

/// The x86-64 level of this CPU (1 to 4), from CPUID and, for the AVX levels, from XCR0 (the
/// operating system must save the vector registers too).
#[cfg(target_arch = "x86_64")]
#[inline(never)]
fn cpu_level() -> usize {
    use std::arch::x86_64::{__cpuid_count, _xgetbv, CpuidResult};
    let none = CpuidResult { eax: 0, ebx: 0, ecx: 0, edx: 0 };
    let max_leaf = __cpuid_count(0, 0).eax;
    let max_extended = __cpuid_count(0x8000_0000, 0).eax;
    let leaf1 = __cpuid_count(1, 0);
    let leaf7 = if max_leaf >= 7 { __cpuid_count(7, 0) } else { none };
    let extended1 = if max_extended >= 0x8000_0001 { __cpuid_count(0x8000_0001, 0) } else { none };
    let bits = |register: u32, positions: &[u32]| positions.iter().all(|&n| (register >> n) & 1 == 1);
    // SSE3, SSSE3, CMPXCHG16B, SSE4.1, SSE4.2, POPCNT; LAHF/SAHF.
    let v2 = bits(leaf1.ecx, &[0, 9, 13, 19, 20, 23]) && bits(extended1.ecx, &[0]);
    let os_saves = bits(leaf1.ecx, &[27]);
    // SAFETY: XGETBV exists when CPUID.1:ECX.OSXSAVE (bit 27) is set, as checked first.
    let xcr0 = if os_saves { unsafe { _xgetbv(0) } } else { 0 };
    let xcr0_low = xcr0 as u32;
    // FMA, MOVBE, AVX, F16C; BMI1, AVX2, BMI2; LZCNT; SSE and AVX state enabled by the OS.
    let v3 = v2
        && bits(leaf1.ecx, &[12, 22, 28, 29])
        && bits(leaf7.ebx, &[3, 5, 8])
        && bits(extended1.ecx, &[5])
        && bits(xcr0_low, &[1, 2]);
    // AVX512F, AVX512DQ, AVX512CD, AVX512BW, AVX512VL; opmask and ZMM state enabled by the OS.
    let v4 = v3 && bits(leaf7.ebx, &[16, 17, 28, 30, 31]) && bits(xcr0_low, &[5, 6, 7]);
    1 + usize::from(v2) + usize::from(v3) + usize::from(v4)
}

#[cfg(not(target_arch = "x86_64"))]
fn cpu_level() -> usize {
    BUILT
}

/// Says in one line that this CPU (of level `level`) cannot run this build and which build
/// can, and exits. Only constant strings and calls into the C library: this runs on a CPU
/// that lacks the build's instructions.
#[cold]
#[inline(never)]
fn refuse(level: usize) -> ! {
    put("cutoff: this CPU lacks the instructions of ");
    put(LEVELS[BUILT]);
    put(" (");
    put(ADDS[BUILT]);
    put("), the level of this build; use the ");
    put(LEVELS[level]);
    put(" build instead\n");
    #[cfg(unix)]
    // SAFETY: `_exit` ends the process at once; nothing of this process needs cleaning up.
    unsafe {
        libc::_exit(REFUSED)
    }
    #[cfg(not(unix))]
    std::process::exit(REFUSED)
}

/// Writes `text` to stderr, unbuffered (a part of the refusal line).
#[inline(always)]
fn put(text: &str) {
    #[cfg(unix)]
    // SAFETY: `text` is `text.len()` readable bytes; file descriptor 2 is stderr (were it
    // closed, the call would fail, which the refusal can ignore).
    unsafe {
        libc::write(2, text.as_ptr().cast(), text.len());
    }
    #[cfg(not(unix))]
    {
        use std::io::Write;
        let _ = std::io::stderr().write_all(text.as_bytes());
    }
}
