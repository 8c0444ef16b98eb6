#!/usr/bin/env bash
# A profile-guided build of the engine (`make pgo`).
#
#   scripts/pgo.sh [--require] OUT [RUSTFLAGS]
#   scripts/pgo.sh --find
#
# Builds an instrumented `cutoff` (its own target directory, target/pgo/gen), runs `cutoff
# bench` with it to record where the time goes, merges the profile with llvm-profdata, and
# builds `cutoff` again with that profile (target/pgo/use), written to OUT. RUSTFLAGS are the
# flags of both builds (default `-C target-cpu=native`, as .cargo/config.toml; `make dist`
# passes each level's). The bench node count of the two builds must agree with the plain one:
# a profile changes how the code is laid out, never what it computes.
#
# llvm-profdata must be the one of rustc's LLVM (the profile format changes between LLVM
# versions): $PROFDATA if set, else llvm-profdata-N or llvm-profdata whose major version N is
# rustc's. Without one, this says so in one line and makes the plain build instead, so a
# machine without LLVM still gets an engine (exit status 0; `--require` makes it an error).
# `--find` only prints the llvm-profdata it would use (exit status 1 and the reason on stderr
# when there is none): `cargo xtask dist --pgo` asks once before building.
#
# Environment: CARGO (default cargo), FEATURES (cargo features of the cutoff package),
# CUTOFF_EVALFILE (the network to embed, as for `make EVALFILE=...`), CUTOFF_PEXT (as for the
# board crate's build), PGO_DIR (the directory of the three target directories and the
# profiles, default target/pgo; `make dist` gives each level its own).
set -euo pipefail

require=0
find_only=0
case "${1:-}" in
--require)
    require=1
    shift
    ;;
--find)
    find_only=1
    shift
    ;;
esac
if [ $find_only = 1 ]; then
    [ $# -eq 0 ] || { sed -n '5p' "$0" | sed 's/^#  */usage: /' >&2; exit 2; }
else
    [ $# -ge 1 ] && [ $# -le 2 ] || { sed -n '4p' "$0" | sed 's/^#  */usage: /' >&2; exit 2; }
fi
out=${1:-}
flags=${2:-"-C target-cpu=native"}
cargo=${CARGO:-cargo}
features=()
[ -n "${FEATURES:-}" ] && features=(--features "$FEATURES")
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
dir=${PGO_DIR:-target/pgo}

llvm_major=$(rustc -vV | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p')
find_profdata() {
    if [ -n "${PROFDATA:-}" ]; then
        echo "$PROFDATA"
        return
    fi
    for candidate in "llvm-profdata-$llvm_major" llvm-profdata "/usr/lib/llvm-$llvm_major/bin/llvm-profdata"; do
        if command -v "$candidate" >/dev/null 2>&1 &&
            "$candidate" --version 2>/dev/null | grep -q "LLVM version $llvm_major\."; then
            echo "$candidate"
            return
        fi
    done
}
profdata=$(find_profdata)

plain() {
    RUSTFLAGS="$flags" $cargo rustc --release --package cutoff --bin cutoff "${features[@]}" \
        --target-dir "$dir/plain" -- --emit link="$out"
}

if [ -z "$profdata" ]; then
    msg="pgo: no llvm-profdata of LLVM $llvm_major (rustc's) found (Debian: apt-get install llvm-$llvm_major, or set PROFDATA)"
    if [ $require = 1 ] || [ $find_only = 1 ]; then
        echo "$msg" >&2
        exit 1
    fi
    echo "$msg; making the plain build" >&2
    plain
    exit 0
fi
if [ $find_only = 1 ]; then
    echo "$profdata"
    exit 0
fi

case "$dir" in
/*) ;;
*) dir="$root/$dir" ;;
esac
profiles="$dir/profiles"
rm -rf "$profiles"
mkdir -p "$profiles"
echo "pgo: instrumented build ($dir/gen), profile of cutoff bench, $profdata" >&2
RUSTFLAGS="$flags -C profile-generate=$profiles/raw" $cargo build --release --package cutoff "${features[@]}" \
    --target-dir "$dir/gen"
gen_nodes=$("$dir/gen/release/cutoff" bench 2>&1 | tail -1)
"$profdata" merge -o "$profiles/merged.profdata" "$profiles/raw"
# The profile is named by its content: cargo rebuilds when RUSTFLAGS change, not when a file
# they name does, so a profile under a fixed name would leave crates built with an older one.
sum=$(sha256sum "$profiles/merged.profdata" | cut -c1-16)
mv "$profiles/merged.profdata" "$profiles/merged-$sum.profdata"
echo "pgo: optimised build with the profile -> $out" >&2
RUSTFLAGS="$flags -C profile-use=$profiles/merged-$sum.profdata" $cargo rustc --release --package cutoff --bin cutoff \
    "${features[@]}" --target-dir "$dir/use" -- --emit link="$out"
use_nodes=$("$out" bench 2>&1 | tail -1)
# The node count is the first word of bench's last line; nps differs.
if [ "${gen_nodes%% *}" != "${use_nodes%% *}" ]; then
    echo "pgo: the instrumented build searched ${gen_nodes%% *} nodes, the optimised one ${use_nodes%% *}" >&2
    exit 1
fi
echo "pgo: bench ${use_nodes}" >&2
