#!/usr/bin/env bash
# Park a training checkpoint in the repository's history, so that a run outlives the machine it
# runs on: a session's machine may be a fresh one, with nothing kept outside the repository.
#
#   scripts/park-checkpoint.sh CKPT RUN "WHAT"
#
#   CKPT  the checkpoint `cargo xtask train` wrote (net10.nnue.ckpt)
#   RUN   the run's name (letters, digits, '.', '_', '-'): its checkpoints go under
#         data/checkpoints/RUN/
#   WHAT  one line for the manifest: where the run stands and how it was stopped
#
# The checkpoint is compressed (zstd -19) to data/checkpoints/RUN/RUN.ckpt.zst. One commit adds
# it; the next removes it from the tree and adds a line to data/checkpoints/RUN/MANIFEST.md
# with the first commit's hash, the sizes and the sha256 of both forms, as the self-play sets
# are kept (data/selfplay/README.md). So the manifest only ever names a commit that holds the
# file. Each park of a run adds a line; `scripts/unpark-checkpoint.sh RUN DEST` restores the
# last one. Nothing else may be staged. The commits still have to reach the repository that
# outlives the machine. Needs git, zstd and sha256sum.
set -euo pipefail

me=$(basename "$0")
die() {
    echo "$me: $*" >&2
    exit 1
}
[ $# -eq 3 ] || {
    sed -n '5,10p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}
ckpt=$1 run=$2 what=${3%.}
[[ $run =~ ^[A-Za-z0-9_][A-Za-z0-9._-]*$ ]] || die "'$run' is not a run name (letters, digits, '.', '_', '-')"
[ -n "$what" ] || die "WHAT is empty: say where the run stands"
case $what in *$'\n'*) die "WHAT must be one line" ;; esac
[ -f "$ckpt" ] || die "$ckpt does not exist"
[ "$(head -c 8 "$ckpt")" = "CUTCKPT" ] || die "$ckpt is not a checkpoint of cargo xtask train (its first bytes are not CUTCKPT)"
ckpt=$(realpath -- "$ckpt")
command -v zstd >/dev/null || die "zstd is not installed (apt-get install zstd)"
command -v sha256sum >/dev/null || die "sha256sum is not installed (apt-get install coreutils)"

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
git rev-parse --git-dir >/dev/null 2>&1 || die "$root is not a git repository"
git var GIT_COMMITTER_IDENT >/dev/null 2>&1 || die "git has no committer identity here (git config user.name, user.email)"
git diff --cached --quiet || die "the index has staged changes; commit or unstage them first"
dir=data/checkpoints/$run
zst=$dir/$run.ckpt.zst
manifest=$dir/MANIFEST.md
[ -e "$zst" ] && die "$zst is already there: an earlier park did not finish (remove it first)"
sha() { sha256sum "$1" | cut -d' ' -f1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A copy first: the trainer renames each new checkpoint into place, so the copy is whole.
cp "$ckpt" "$tmp/ckpt"
zstd -q -19 "$tmp/ckpt" -o "$tmp/ckpt.zst"
zstd -q -d "$tmp/ckpt.zst" -o "$tmp/back"
cmp -s "$tmp/ckpt" "$tmp/back" || die "zstd did not give back the checkpoint"
line="- $(date -u '+%Y-%m-%d %H:%M UTC'): $what. $run.ckpt.zst: $(stat -c %s "$tmp/ckpt.zst") bytes (sha256 $(sha "$tmp/ckpt.zst")); uncompressed $(stat -c %s "$tmp/ckpt") bytes, sha256 $(sha "$tmp/ckpt")"

mkdir -p "$dir"
mv "$tmp/ckpt.zst" "$zst"
if [ ! -f "$manifest" ]; then
    printf '# Checkpoints of %s\n\nParked by scripts/park-checkpoint.sh, the last one last; scripts/unpark-checkpoint.sh %s DEST restores it.\n\n' "$run" "$run" >"$manifest"
    git add "$manifest"
fi
git add -f "$zst"
git commit -q -m "data/checkpoints/$run: a checkpoint in history; the next commit removes it from the tree" -m "$what" ||
    die "the first commit failed; what it would add is staged ($zst, and the manifest if new): unstage and remove it to start again"
added=$(git rev-parse HEAD)
git rm -q --cached "$zst"
rm "$zst"
# A manifest edited by hand may lack its last newline.
[ -z "$(tail -c 1 "$manifest")" ] || echo >>"$manifest"
echo "$line; in the tree of commit $added." >>"$manifest"
git add "$manifest"
git commit -q -m "data/checkpoints/$run: the checkpoint out of the tree; its manifest line names the commit that holds it" -m "$added" ||
    die "the second commit failed: finish it with 'git commit' (the checkpoint is in $added; the manifest's new line is staged)"
echo "$run: checkpoint in history at $added"
