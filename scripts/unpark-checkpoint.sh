#!/usr/bin/env bash
# Restore the last checkpoint that scripts/park-checkpoint.sh parked for a training run, from
# the commit its manifest line names, checked against both sha256 of that line.
#
#   scripts/unpark-checkpoint.sh RUN DEST
#
#   RUN   the run's name (data/checkpoints/RUN/MANIFEST.md)
#   DEST  the checkpoint file to write (for `cargo xtask train ... --resume DEST`)
#
# DEST is written through a temporary file and renamed, so it is never partial or unchecked;
# an existing DEST is refused. Needs git, zstd and sha256sum.
set -euo pipefail

me=$(basename "$0")
die() {
    echo "$me: $*" >&2
    exit 1
}
[ $# -eq 2 ] || {
    sed -n '5,8p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}
run=$1 dest=$2
[[ $run =~ ^[A-Za-z0-9_][A-Za-z0-9._-]*$ ]] || die "'$run' is not a run name (letters, digits, '.', '_', '-')"
command -v zstd >/dev/null || die "zstd is not installed (apt-get install zstd)"
command -v sha256sum >/dev/null || die "sha256sum is not installed (apt-get install coreutils)"
[ -e "$dest" ] && die "$dest is already there (remove it or name another file)"

root=$(cd "$(dirname "$0")/.." && pwd)
manifest=$root/data/checkpoints/$run/MANIFEST.md
[ -f "$manifest" ] || die "no run '$run': $manifest does not exist"
# "- DATE: WHAT. RUN.ckpt.zst: N bytes (sha256 Z); uncompressed M bytes, sha256 U; in the tree of commit C."
# The last line that names a parked file must be whole: a damaged newest line is an error, never
# a reason to restore an older park.
line=$(grep -F ".ckpt.zst: " "$manifest" | tail -n 1) || die "$manifest lists no parked checkpoint"
park_re='^- .*\.ckpt\.zst: [0-9]+ bytes \(sha256 ([0-9a-f]{64})\); uncompressed [0-9]+ bytes, sha256 ([0-9a-f]{64}); in the tree of commit ([0-9a-f]{40})\.$'
[[ $line =~ $park_re ]] || die "the last park in $manifest is not a whole manifest line: $line"
zst_sha=${BASH_REMATCH[1]} bin_sha=${BASH_REMATCH[2]} commit=${BASH_REMATCH[3]}
git -C "$root" cat-file -e "$commit^{commit}" 2>/dev/null || {
    [ "$(git -C "$root" rev-parse --is-shallow-repository 2>/dev/null)" = true ] &&
        die "the checkpoint is in commit $commit, which this shallow clone lacks: run 'git fetch --unshallow' and try again"
    die "the checkpoint is in commit $commit, which this repository does not have"
}
path=data/checkpoints/$run/$run.ckpt.zst
git -C "$root" cat-file -e "$commit:$path" 2>/dev/null || die "commit $commit has no $path"

sha() { sha256sum "$1" | cut -d' ' -f1; }
dir=$(dirname "$dest")
mkdir -p "$dir"
tmp=$(mktemp -d "$dir/.unpark-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
git -C "$root" cat-file blob "$commit:$path" >"$tmp/ckpt.zst"
[ "$(sha "$tmp/ckpt.zst")" = "$zst_sha" ] || die "$path in $commit does not match its manifest's sha256 $zst_sha"
zstd -q -d "$tmp/ckpt.zst" -o "$tmp/ckpt"
[ "$(sha "$tmp/ckpt")" = "$bin_sha" ] || die "the unpacked checkpoint does not match its manifest's sha256 $bin_sha"
mv "$tmp/ckpt" "$dest"
echo "$run: the checkpoint of commit ${commit:0:12} ($(sed -E 's/^- ([^:]*:[^:]*): (.*)\. [^ ]*\.ckpt\.zst: .*/\1: \2/' <<<"$line")) is in $dest"
