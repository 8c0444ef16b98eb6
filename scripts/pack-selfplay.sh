#!/usr/bin/env bash
# Pack a finished `cutoff datagen` run into the repository's history as a self-play set:
# data/selfplay/NAME/ with the game files rewritten in the compact encoding (`cutoff datagen
# compact`, format version 2: about 40 % smaller once compressed) and compressed (zstd -19),
# the run's settings.txt and a MANIFEST.md that holds what a later training needs to trust and
# reproduce it: how it was made, the network's sha256, the engine build, `cutoff datagen info`
# on every file, the totals, and the size and sha256 of each file compressed, compact and as
# datagen wrote it. The set is built in a temporary directory and moved into place at the end.
#
#   scripts/pack-selfplay.sh [--no-commit] SRC NAME NETWORK BUILD MADE_WITH
#   scripts/pack-selfplay.sh --commit-only NAME
#
#   SRC        the directory the run wrote (`cutoff datagen --out SRC`): games-*.bin, settings.txt
#   NAME       the set's name, such as net6-s201 (the directory made under data/selfplay/)
#   NETWORK    the network file the run used (--evalfile), for its sha256
#   BUILD      the engine build that made it, as the manifest should name it (a commit, and
#              what else matters: "commit 3b82b9f (bench 758,108)")
#   MADE_WITH  a paragraph: the command, the machine, how long and how it stopped
#
# Then the set goes into history, not into the tree (data/selfplay/README.md): one commit adds
# its files, the next removes them, writes the first commit's hash into the manifest's
# `History:` line and adds the set's row to data/selfplay/README.md. A set that would take the
# tracked files past the tree's bound (scripts/check-tree-size.sh; TREE_MIB overrides it) is
# added in batches, each added in one commit and removed in the next; the History line names
# every adding commit. Nothing else may be staged. --no-commit stops after packing;
# --commit-only NAME makes the commits for a set already packed in data/selfplay/NAME.
#
# The `cutoff` binary that reads the files is $CUTOFF, or target/release/cutoff. The unpacked
# files are left in SRC; an existing data/selfplay/NAME is refused. Needs git, zstd, sha256sum.
set -euo pipefail

usage() {
    sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}
root=$(cd "$(dirname "$0")/.." && pwd)
me=$(basename "$0")
tree_mib=${TREE_MIB:-32}

# Commits data/selfplay/$1 (packed, its files in the tree) into history and out of the tree.
commit_set() {
    local name=$1 dir=$root/data/selfplay/$1 bound files batch batch_bytes size f c adds=()
    cd "$root"
    git rev-parse --git-dir >/dev/null 2>&1 || { echo "$me: $root is not a git repository" >&2; exit 1; }
    [ -f "$dir/MANIFEST.md" ] || { echo "$me: $dir/MANIFEST.md does not exist: pack the set first" >&2; exit 1; }
    grep -q '^History:' "$dir/MANIFEST.md" && { echo "$me: $name's manifest has a History line already: the set is in history" >&2; exit 1; }
    git diff --cached --quiet || { echo "$me: the index has staged changes; commit or unstage them first" >&2; exit 1; }
    mapfile -t files < <(cd "$dir" && ls games-*.bin.zst 2>/dev/null | sort -V)
    [ ${#files[@]} -gt 0 ] || { echo "$me: $dir has no games-*.bin.zst" >&2; exit 1; }
    # Room left under the bound, with the set's small files counted in.
    bound=$((tree_mib * 1024 * 1024))
    local used
    used=$(git ls-files -z | xargs -0 stat -c %s 2>/dev/null | awk '{ s += $1 } END { print s + 0 }')
    used=$((used + $(stat -c %s "$dir/MANIFEST.md") + $(stat -c %s "$dir/settings.txt" 2>/dev/null || echo 0)))
    local room=$((bound - used))
    # Batches of whole files, each within the room left.
    local batches=() current=() current_bytes=0
    for f in "${files[@]}"; do
        size=$(stat -c %s "$dir/$f")
        [ "$size" -le "$room" ] || { echo "$me: $name/$f ($size bytes) alone takes the tree past $tree_mib MiB ($room bytes left)" >&2; exit 1; }
        if [ $((current_bytes + size)) -gt "$room" ]; then
            batches+=("${current[*]}")
            current=() current_bytes=0
        fi
        current+=("$f")
        current_bytes=$((current_bytes + size))
    done
    batches+=("${current[*]}")
    # Each batch: added in one commit (whose tree then holds it), removed in the next.
    local i=0 n=${#batches[@]} out
    for batch in "${batches[@]}"; do
        i=$((i + 1))
        out=$(mktemp -d)
        # shellcheck disable=SC2086
        (cd "$dir" && git add -f MANIFEST.md $( [ -f settings.txt ] && echo settings.txt ) $batch)
        git commit -q -m "data/selfplay/$name: the set's files$( [ "$n" -gt 1 ] && echo " (part $i of $n)") in history; the next commit removes them from the tree" \
            -m "$(cd "$dir" && for f in $batch; do echo "$f $(stat -c %s "$f") bytes"; done)"
        adds+=("$(git rev-parse HEAD)")
        # shellcheck disable=SC2086
        for f in $batch; do mv "$dir/$f" "$out/"; done
        (cd "$dir" && git rm -q --cached $batch)
        if [ "$i" -lt "$n" ]; then
            git commit -q -m "data/selfplay/$name: part $i of $n out of the tree (it stays in ${adds[-1]:0:12})"
        fi
        # The files go back beside the manifest, untracked, so that the next batch and the
        # caller still find them; data/selfplay/.gitignore keeps them out of `git add`.
        mv "$out"/* "$dir/"
        rmdir "$out"
    done
    local joined
    joined=$(printf '%s, ' "${adds[@]}")
    echo "History: the files are in the tree of commit ${joined%, }." >>"$dir/MANIFEST.md"
    # The table of sets: name, games, training positions, bytes, commits.
    local games training bytes
    games=$(sed -n 's/^Total: \([0-9,]*\) games.*/\1/p' "$dir/MANIFEST.md")
    training=$(sed -n 's/^Total: .* \([0-9,]*\) training positions.*/\1/p' "$dir/MANIFEST.md")
    bytes=$(cd "$dir" && cat "${files[@]}" | wc -c)
    printf '| `%s` | %s | %s | %s | %s |\n' "$name" "${games:-?}" "${training:-?}" "$bytes" \
        "$(for c in "${adds[@]}"; do printf '`%s` ' "${c:0:12}"; done | sed 's/ $//')" >>"$root/data/selfplay/README.md"
    git add "$dir/MANIFEST.md" "$root/data/selfplay/README.md"
    git commit -q -m "data/selfplay/$name: its files out of the tree; the manifest's History line names the commits that hold them" \
        -m "$(printf '%s\n' "${adds[@]}")"
    echo "$name: in history at ${adds[*]}; the tree holds its manifest; its files stay in $dir, untracked"
}

if [ "${1:-}" = --commit-only ]; then
    [ $# -eq 2 ] || usage
    commit_set "$2"
    exit 0
fi
commit=true
if [ "${1:-}" = --no-commit ]; then
    commit=false
    shift
fi
[ $# -eq 5 ] || usage
src=$1 name=$2 network=$3 build=$4 made_with=$5
cutoff=${CUTOFF:-$root/target/release/cutoff}
dest=$root/data/selfplay/$name

command -v zstd >/dev/null || { echo "$0: zstd is not installed (apt-get install zstd)" >&2; exit 1; }
[ -x "$cutoff" ] || { echo "$0: no cutoff binary at $cutoff (cargo build --release, or set CUTOFF)" >&2; exit 1; }
[ -f "$network" ] || { echo "$0: no network file $network" >&2; exit 1; }
[ -f "$src/settings.txt" ] || { echo "$0: $src has no settings.txt: not a datagen directory" >&2; exit 1; }
[ -e "$dest" ] && { echo "$0: $dest exists already" >&2; exit 1; }
mapfile -t games < <(cd "$src" && ls games-*.bin | sort -V)
[ ${#games[@]} -gt 0 ] || { echo "$0: no games-*.bin in $src" >&2; exit 1; }

sha() { sha256sum "$1" | cut -d' ' -f1; }
bytes() { stat -c %s "$1"; }
# 1234567 -> 1,234,567
commas() { sed ':a;s/\B[0-9]\{3\}\>/,&/;ta' <<<"$1"; }

info=$(cd "$src" && "$cutoff" datagen info "${games[@]}")
# "games-0.bin: 2475 games, 264744 moves, 190052 training positions, 264744 scored positions, ..."
total() { awk -v what="$1" '{ for (i = 2; i <= NF; i++) if ($(i + 1) ~ "^" what) s += $i } END { print s + 0 }' <<<"$info"; }
n_games=$(total 'games,') n_scored=$(total 'scored') n_training=$(total 'training')

tmp=$(mktemp -d "$root/data/selfplay/.pack-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
set_dir=$tmp/$name
mkdir "$set_dir"
cp "$src/settings.txt" "$set_dir/"
files=""
for g in "${games[@]}"; do
    # The compact file is read back and compared with the datagen file game by game.
    "$cutoff" datagen compact "$src/$g" "$tmp/$g"
    zstd -q -19 "$tmp/$g" -o "$set_dir/$g.zst"
    files+="- $g.zst: $(bytes "$set_dir/$g.zst") bytes (sha256 $(sha "$set_dir/$g.zst")); uncompressed (compact, version 2) $(bytes "$tmp/$g") bytes, sha256 $(sha "$tmp/$g"); as datagen wrote it (version 1) $(bytes "$src/$g") bytes, sha256 $(sha "$src/$g")"$'\n'
    rm "$tmp/$g"
done

{
    echo "# $name"
    echo
    echo "$made_with"
    echo "Network: $(basename "$network"), sha256 $(sha "$network")"
    echo "Engine build: $build"
    echo "Settings: settings.txt (as the run wrote it)."
    echo
    echo '`cutoff datagen info` on the files as datagen wrote them (version 1):'
    echo '```'
    echo "$info"
    echo '```'
    echo "Total: $(commas "$n_games") games, $(commas "$n_scored") scored positions, $(commas "$n_training") training positions."
    echo
    echo 'Files: the compact encoding (format version 2) compressed with zstd -19. Decompress them with `zstd -d` or `scripts/unpack-selfplay.sh`; Cutoff reads version 2 from commit e2531f1 on, and `cutoff datagen compact --plain` gives back the files datagen wrote (their sha256 below). Sizes and sha256:'
    printf '%s' "$files"
} >"$set_dir/MANIFEST.md"
mv "$set_dir" "$dest"
echo "$dest: $(commas "$n_games") games, $(commas "$n_training") training positions, $(du -sh "$dest" | cut -f1)"
if $commit; then
    trap - EXIT
    rm -rf "$tmp"
    commit_set "$name"
fi
