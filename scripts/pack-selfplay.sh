#!/usr/bin/env bash
# Pack a finished `cutoff datagen` run into the repository as a self-play set (issue 28):
# data/selfplay/NAME/ with the game files rewritten in the compact encoding (`cutoff datagen
# compact`, format version 2: about 40 % smaller once compressed) and compressed (zstd -19),
# the run's settings.txt and a MANIFEST.md that holds what a later training needs to trust and
# reproduce it: how it was made, the network's sha256, the engine build, `cutoff datagen info`
# on every file, the totals, and the size and sha256 of each file compressed, compact and as
# datagen wrote it. The set is built in a temporary directory and moved into place at the end.
#
#   scripts/pack-selfplay.sh SRC NAME NETWORK BUILD MADE_WITH
#
#   SRC        the directory the run wrote (`cutoff datagen --out SRC`): games-*.bin, settings.txt
#   NAME       the set's name, such as net6-s201 (the directory made under data/selfplay/)
#   NETWORK    the network file the run used (--evalfile), for its sha256
#   BUILD      the engine build that made it, as the manifest should name it (a commit, and
#              what else matters: "commit 3b82b9f (bench 758,108)")
#   MADE_WITH  a paragraph: the command, the machine, how long and how it stopped
#
# The `cutoff` binary that reads the files is $CUTOFF, or target/release/cutoff. The unpacked
# files are left in SRC; an existing data/selfplay/NAME is refused. Needs zstd and sha256sum.
set -euo pipefail

if [ $# -ne 5 ]; then
    sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
src=$1 name=$2 network=$3 build=$4 made_with=$5
root=$(cd "$(dirname "$0")/.." && pwd)
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
    echo
    echo "To be moved to \`../shared/data/selfplay/$name/\` and removed from the repository (issue 28)."
} >"$set_dir/MANIFEST.md"
mv "$set_dir" "$dest"
echo "$dest: $(commas "$n_games") games, $(commas "$n_training") training positions, $(du -sh "$dest" | cut -f1)"
