#!/usr/bin/env bash
# Tests of the scripts that keep self-play sets and training checkpoints in history
# (pack-selfplay.sh --commit-only, unpack-selfplay.sh, park-checkpoint.sh,
# unpark-checkpoint.sh, check-tree-size.sh), run in a scratch repository with sets made of random
# bytes, so that they need neither this repository's history nor a cutoff binary (a shallow CI
# clone passes them too). Prints one line per check and ends with "N passed, N failed".
#
#   scripts/test-selfplay-scripts.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
for tool in git zstd sha256sum; do
    command -v "$tool" >/dev/null || { echo "$0: $tool is not installed" >&2; exit 1; }
done
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
passed=0 failed=0
check() { # check NAME CONDITION...
    local name=$1
    shift
    if "$@"; then
        echo "ok: $name"
        passed=$((passed + 1))
    else
        echo "FAILED: $name"
        failed=$((failed + 1))
    fi
}
git_() { git -c user.name=test -c user.email=test@invalid -c init.defaultBranch=main "$@"; }
sha() { sha256sum "$1" | cut -d' ' -f1; }

# A repository with the scripts, the README of sets and a little code.
repo=$scratch/origin/repo
mkdir -p "$repo/scripts" "$repo/data/selfplay" "$scratch/origin/shared"
cp "$here"/{pack-selfplay.sh,unpack-selfplay.sh,park-checkpoint.sh,unpark-checkpoint.sh,check-tree-size.sh} "$repo/scripts/"
printf '| set | games | training positions | bytes (zstd) | in the tree of |\n| --- | ---: | ---: | ---: | --- |\n' >"$repo/data/selfplay/README.md"
printf '/data/selfplay/*/games-*.bin.zst\n' >"$repo/.gitignore"
head -c 20000 /dev/urandom >"$repo/code.txt"
(cd "$repo" && git_ init -q && git config user.name test && git config user.email test@invalid &&
    git_ add -A && git_ commit -q -m start)

# make_set NAME FILES BYTES: a packed set of random game files, as pack-selfplay.sh leaves it.
originals=$scratch/originals
make_set() {
    local name=$1 files=$2 bytes=$3 dir=$repo/data/selfplay/$1 i
    mkdir -p "$dir" "$originals/$name"
    {
        echo "# $name"
        echo
        echo "Total: $((files * 10)) games, 1 scored positions, $((files * 100)) training positions."
        echo
        echo "Files:"
    } >"$dir/MANIFEST.md"
    echo "seed=1" >"$dir/settings.txt"
    for ((i = 0; i < files; i++)); do
        head -c "$bytes" /dev/urandom >"$originals/$name/games-$i.bin"
        zstd -q -1 "$originals/$name/games-$i.bin" -o "$dir/games-$i.bin.zst"
        echo "- games-$i.bin.zst: $(stat -c %s "$dir/games-$i.bin.zst") bytes (sha256 $(sha "$dir/games-$i.bin.zst")); uncompressed (compact, version 2) $bytes bytes, sha256 $(sha "$originals/$name/games-$i.bin"); as datagen wrote it (version 1) 1 bytes, sha256 $(printf '%064d' 0)" >>"$dir/MANIFEST.md"
    done
}

# --- Packing: a set too big for a 1 MiB tree goes in over several commits, each within the bound.
make_set big 5 300000
make_set small 1 1000
before=$(cd "$repo" && git rev-parse HEAD)
(cd "$repo" && TREE_MIB=1 scripts/pack-selfplay.sh --commit-only big >/dev/null && scripts/pack-selfplay.sh --commit-only small >/dev/null)
check "pack-selfplay.sh --commit-only exits 0" test $? -eq 0
history_line=$(grep '^History:' "$repo/data/selfplay/big/MANIFEST.md")
n_adds=$(grep -oE '[0-9a-f]{40}' <<<"$history_line" | wc -l)
check "a set past the bound is added over several commits ($n_adds), all named in its History line" test "$n_adds" -ge 2
over=0
for c in $(cd "$repo" && git rev-list "$before..HEAD"); do
    size=$(cd "$repo" && git ls-tree -r -l "$c" | awk '{ s += $4 } END { print s + 0 }')
    [ "$size" -le $((1024 * 1024)) ] || over=$((over + 1))
done
check "every commit of the 1 MiB pack keeps its tree within 1 MiB" test "$over" -eq 0
check "the tree holds no game file after packing" test -z "$(cd "$repo" && git ls-files 'data/selfplay/*/games-*')"
check "the sets' rows are added to data/selfplay/README.md" \
    test "$(grep -c '^| `big` \|^| `small` ' "$repo/data/selfplay/README.md")" -eq 2
check "a set already in history is refused" bash -c "cd '$repo' && ! scripts/pack-selfplay.sh --commit-only small 2>/dev/null"

# --- Unpacking from a fresh clone with nothing beside it: every file, byte for byte.
fresh=$scratch/fresh/repo
git clone -q "file://$repo" "$fresh"
out=$("$fresh/scripts/unpack-selfplay.sh" "$scratch/sets" 2>&1)
check "unpack-selfplay.sh unpacks every set from a fresh clone" test $? -eq 0
check "it reports each set as read from history" test "$(grep -c 'sha256 as in the manifest, from commit' <<<"$out")" -eq 2
same=true
for f in "$originals"/*/*.bin; do
    cmp -s "$f" "$scratch/sets/$(basename "$(dirname "$f")")/$(basename "$f")" || same=false
done
check "the unpacked files equal the originals byte for byte" $same
out=$("$fresh/scripts/unpack-selfplay.sh" "$scratch/sets" small 2>&1)
check "a file already unpacked is checked, not rewritten" grep -q 'already unpacked' <<<"$out"

# expect_error NAME DEST ARGS...: exit non-zero, one line on stderr, nothing left in DEST.
expect_error() {
    local name=$1 dest=$2
    shift 2
    "$@" 2>"$scratch/stderr" >/dev/null
    local rc=$?
    check "$name: non-zero exit" test "$rc" -ne 0
    check "$name: one line on stderr ($(head -c 150 "$scratch/stderr"))" test "$(wc -l <"$scratch/stderr")" -eq 1
    check "$name: nothing left in $(basename "$dest")" test -z "$(find "$dest" -mindepth 1 2>/dev/null)"
}
expect_error "an unknown set" "$scratch/e1" "$fresh/scripts/unpack-selfplay.sh" "$scratch/e1" nosuchset

# A manifest whose sha256 does not match (the file's first sha256 altered in a clone).
bad=$scratch/bad/repo
git clone -q "file://$repo" "$bad"
sed -i -E '0,/sha256 [0-9a-f]{64}\); uncompressed/s//sha256 '"$(printf 'f%.0s' {1..64})"'); uncompressed/' "$bad/data/selfplay/small/MANIFEST.md"
expect_error "a sha256 that does not match" "$scratch/e2" "$bad/scripts/unpack-selfplay.sh" "$scratch/e2" small

# A manifest that names a commit the repository does not have.
sed -i -E 's/^History: .*/History: the files are in the tree of commit '"$(printf 'e%.0s' {1..40})"'./' "$bad/data/selfplay/big/MANIFEST.md"
expect_error "a missing commit" "$scratch/e3" "$bad/scripts/unpack-selfplay.sh" "$scratch/e3" big
grep -q 'does not have' "$scratch/stderr"
check "a missing commit is named as such" test $? -eq 0

# A shallow clone lacks the commits: the message says how to fetch them.
shallow=$scratch/shallow/repo
git clone -q --depth 1 "file://$repo" "$shallow"
expect_error "a shallow clone" "$scratch/e4" "$shallow/scripts/unpack-selfplay.sh" "$scratch/e4" big
check "a shallow clone's message says 'git fetch --unshallow'" grep -q 'git fetch --unshallow' "$scratch/stderr"

# ../shared/data/selfplay is the second source.
mkdir -p "$scratch/shallow/shared/data/selfplay/big"
cp "$repo/data/selfplay/big"/games-*.bin.zst "$scratch/shallow/shared/data/selfplay/big/"
out=$("$shallow/scripts/unpack-selfplay.sh" "$scratch/e5" big 2>&1)
check "a shallow clone unpacks from ../shared/data/selfplay" test $? -eq 0
check "it names ../shared as the source" grep -q 'shared/data/selfplay/big' <<<"$out"

# --- Checkpoints parked in history: the last one comes back byte for byte in a fresh clone.
mkdir -p "$scratch/run-dir"
for i in 1 2; do
    { printf 'CUTCKPT\n'; head -c 300000 /dev/urandom; } >"$scratch/run-dir/ckpt-$i"
done
# A relative CKPT is the caller's file, even with a file of that name in the repository's root.
cp "$scratch/run-dir/ckpt-2" "$repo/ckpt-1"
(cd "$scratch/run-dir" && "$repo/scripts/park-checkpoint.sh" ckpt-1 run "step 10 of 30." >/dev/null &&
    "$repo/scripts/park-checkpoint.sh" "$scratch/run-dir/ckpt-2" run "step 20 of 30, stopped by SIGTERM" >/dev/null)
check "park-checkpoint.sh exits 0 twice" test $? -eq 0
rm "$repo/ckpt-1"
check "the tree holds no checkpoint after parking" test -z "$(cd "$repo" && git ls-files 'data/checkpoints/*/*.zst')"
manifest=$repo/data/checkpoints/run/MANIFEST.md
check "the manifest lists both parks, each with its commit" \
    test "$(grep -cE 'in the tree of commit [0-9a-f]{40}\.$' "$manifest")" -eq 2
first=$(grep -m 1 -oE '[0-9a-f]{40}\.$' "$manifest" | tr -d .)
check "the first park's commit holds the caller's ckpt-1" \
    bash -c "cd '$repo' && git cat-file blob $first:data/checkpoints/run/run.ckpt.zst | zstd -q -d | cmp -s - '$scratch/run-dir/ckpt-1'"
check "a WHAT's own final period is not doubled" grep -q 'step 10 of 30\. run' "$manifest"
parked=$scratch/parked/repo
git clone -q "file://$repo" "$parked"
out=$("$parked/scripts/unpark-checkpoint.sh" run "$scratch/restored/run.ckpt" 2>&1)
check "unpark-checkpoint.sh restores from a fresh clone ($out)" test $? -eq 0
check "it restores the last park byte for byte" cmp -s "$scratch/run-dir/ckpt-2" "$scratch/restored/run.ckpt"
check "it names the park it restored" grep -q 'step 20 of 30, stopped by SIGTERM' <<<"$out"
mkdir -p "$scratch/e6" && touch "$scratch/e6/x.ckpt"
"$parked/scripts/unpark-checkpoint.sh" run "$scratch/e6/x.ckpt" 2>"$scratch/stderr" >/dev/null
check "an existing destination is refused" test $? -ne 0
check "and left as it was" test ! -s "$scratch/e6/x.ckpt"
check "the message says it is there ($(head -c 150 "$scratch/stderr"))" grep -q 'already there' "$scratch/stderr"
expect_error "an unknown run" "$scratch/e7" "$parked/scripts/unpark-checkpoint.sh" nosuchrun "$scratch/e7/x.ckpt"
check "the message names the run" grep -q "no run 'nosuchrun'" "$scratch/stderr"
# The newest line damaged (an unfinished edit): an error, not the park before it.
cp "$parked/data/checkpoints/run/MANIFEST.md" "$scratch/manifest"
sed -i -E '$s/commit [0-9a-f]{40}\.$/commit PENDING./' "$parked/data/checkpoints/run/MANIFEST.md"
expect_error "a damaged last park" "$scratch/e9" "$parked/scripts/unpark-checkpoint.sh" run "$scratch/e9/x.ckpt"
check "the message says the last park is not whole" grep -q 'not a whole manifest line' "$scratch/stderr"
cp "$scratch/manifest" "$parked/data/checkpoints/run/MANIFEST.md"
sed -i -E '$s/uncompressed ([0-9]+) bytes, sha256 [0-9a-f]{64}/uncompressed \1 bytes, sha256 '"$(printf 'f%.0s' {1..64})"'/' "$parked/data/checkpoints/run/MANIFEST.md"
expect_error "an unpacked checkpoint whose sha256 does not match" "$scratch/e8" "$parked/scripts/unpark-checkpoint.sh" run "$scratch/e8/x.ckpt"
check "the message names the unpacked sha256" grep -q 'unpacked checkpoint does not match' "$scratch/stderr"
cp "$scratch/manifest" "$parked/data/checkpoints/run/MANIFEST.md"
sed -i -E '$s/\(sha256 [0-9a-f]{64}\)/(sha256 '"$(printf 'e%.0s' {1..64})"')/' "$parked/data/checkpoints/run/MANIFEST.md"
expect_error "a compressed checkpoint whose sha256 does not match" "$scratch/e10" "$parked/scripts/unpark-checkpoint.sh" run "$scratch/e10/x.ckpt"
check "the message names the compressed file" grep -q 'run.ckpt.zst in [0-9a-f]* does not match' "$scratch/stderr"
# A shallow clone lacks the parks' commits: the message says how to fetch them.
git clone -q --depth 1 "file://$repo" "$scratch/shallow-ck"
expect_error "a park in a shallow clone" "$scratch/e11" "$scratch/shallow-ck/scripts/unpark-checkpoint.sh" run "$scratch/e11/x.ckpt"
check "its message says 'git fetch --unshallow'" grep -q 'git fetch --unshallow' "$scratch/stderr"
# A manifest edited by hand without a last newline still gets a line of its own.
printf 'Resume with --resume.' >>"$manifest"
(cd "$repo" && git add "$manifest" && git commit -q -m note &&
    scripts/park-checkpoint.sh "$scratch/run-dir/ckpt-1" run "step 30 of 30" >/dev/null)
check "a park after a hand edit without a last newline is a line of its own" grep -q '^- .*step 30 of 30\. run' "$manifest"
check "a park with staged changes is refused" bash -c "cd '$repo' && echo x >staged.txt && git add staged.txt &&
    ! scripts/park-checkpoint.sh '$scratch/run-dir/ckpt-1' run x 2>'$scratch/stderr'; rc=\$?; git reset -q staged.txt; rm staged.txt; exit \$rc"
check "its message names the staged changes" grep -q 'staged changes' "$scratch/stderr"
head -c 1000 /dev/urandom >"$scratch/not-a-ckpt"
check "a file that is not a checkpoint is refused" bash -c "cd '$repo' && ! scripts/park-checkpoint.sh '$scratch/not-a-ckpt' run x 2>'$scratch/stderr'"
check "its message says so" grep -q 'not a checkpoint' "$scratch/stderr"

# --- The bound on the tree.
check "check-tree-size.sh passes a small tree" bash -c "cd '$repo' && scripts/check-tree-size.sh 1 >/dev/null"
head -c 2000000 /dev/urandom >"$repo/big-2MB.bin"
(cd "$repo" && git add -f big-2MB.bin)
out=$(cd "$repo" && scripts/check-tree-size.sh 1)
check "check-tree-size.sh fails past the bound" test $? -eq 1
check "it lists the largest file first" bash -c "sed -n 2p <<<'$out' | grep -q 'big-2MB.bin'"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
