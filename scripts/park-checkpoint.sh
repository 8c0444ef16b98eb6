#!/usr/bin/env bash
# Park a training checkpoint in the repository's history, so that a run outlives the machine it
# runs on: a session's machine may be a fresh one, with nothing kept outside the repository.
#
#   scripts/park-checkpoint.sh CKPT RUN "WHAT"
#
#   CKPT  the checkpoint `cargo xtask train` wrote (net10.nnue.ckpt)
#   RUN   the run's name: its checkpoints go under data/checkpoints/RUN/
#   WHAT  a line for the manifest: where the run stands and how it was stopped
#
# The checkpoint is compressed (zstd -19) to data/checkpoints/RUN/RUN.ckpt.zst and listed in
# data/checkpoints/RUN/MANIFEST.md with its size and the sha256 of both forms. One commit adds
# the file, the next removes it from the tree and writes the first commit's hash into its
# manifest line, as the self-play sets are kept (data/selfplay/README.md). Each park of a run
# adds a line; `scripts/unpark-checkpoint.sh RUN DEST` restores the last one. The manifest
# says how the run is continued (its first lines are written by hand). Nothing else may be
# staged. Needs git, zstd and sha256sum.
set -euo pipefail

me=$(basename "$0")
die() {
    echo "$me: $*" >&2
    exit 1
}
[ $# -eq 3 ] || {
    sed -n '5,9p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}
ckpt=$1 run=$2 what=$3
case $run in */* | .* | '') die "'$run' is not a run name" ;; esac
[ -f "$ckpt" ] || die "$ckpt does not exist"
command -v zstd >/dev/null || die "zstd is not installed (apt-get install zstd)"
command -v sha256sum >/dev/null || die "sha256sum is not installed (apt-get install coreutils)"
case $what in *$'\n'*) die "WHAT must be one line" ;; esac

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
git rev-parse --git-dir >/dev/null 2>&1 || die "$root is not a git repository"
git diff --cached --quiet || die "the index has staged changes; commit or unstage them first"
dir=data/checkpoints/$run
zst=$dir/$run.ckpt.zst
[ -e "$zst" ] && die "$zst is already there: an earlier park did not finish (remove it first)"
sha() { sha256sum "$1" | cut -d' ' -f1; }

mkdir -p "$dir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A copy first, so that a training still writing its checkpoint cannot change it under us.
cp "$ckpt" "$tmp/ckpt"
zstd -q -19 "$tmp/ckpt" -o "$tmp/ckpt.zst"
zstd -q -d "$tmp/ckpt.zst" -o "$tmp/back"
cmp -s "$tmp/ckpt" "$tmp/back" || die "zstd did not give back the checkpoint"
manifest=$dir/MANIFEST.md
if [ ! -f "$manifest" ]; then
    printf '# Checkpoints of %s\n\nParked by scripts/park-checkpoint.sh, the last one last; scripts/unpark-checkpoint.sh %s DEST restores it.\n\n' "$run" "$run" >"$manifest"
fi
entry="- $(date -u '+%Y-%m-%d %H:%M UTC'): $what. $run.ckpt.zst: $(stat -c %s "$tmp/ckpt.zst") bytes (sha256 $(sha "$tmp/ckpt.zst")); uncompressed $(stat -c %s "$tmp/ckpt") bytes, sha256 $(sha "$tmp/ckpt")"
echo "$entry; in the tree of commit PENDING." >>"$manifest"
mv "$tmp/ckpt.zst" "$zst"
git add -f "$zst" "$manifest"
git commit -q -m "data/checkpoints/$run: a checkpoint in history; the next commit removes it from the tree" -m "$what"
added=$(git rev-parse HEAD)
git rm -q "$zst"
sed -i "\$s/in the tree of commit PENDING\.\$/in the tree of commit $added./" "$manifest"
git add "$manifest"
git commit -q -m "data/checkpoints/$run: the checkpoint out of the tree; its manifest line names the commit that holds it" -m "$added"
echo "$run: checkpoint in history at $added"
