#!/usr/bin/env bash
# Unpack the self-play training sets (`games-*.bin.zst`, see each set's MANIFEST.md) into one
# directory, as the training commands of docs/nnue.md expect them: DEST/<set>/games-N.bin.
#
#   scripts/unpack-selfplay.sh DEST [SET ...]
#
# Sets are looked for in the repository's data/selfplay/ and in ../shared/data/selfplay/
# (where they move once they have outlived the machine that made them); with no SET named,
# every set found is unpacked. Files already unpacked are left alone. Needs `zstd`.
set -euo pipefail

if [ $# -lt 1 ]; then
    echo "usage: $0 DEST [SET ...]" >&2
    exit 2
fi
dest=$1
shift
command -v zstd >/dev/null || { echo "$0: zstd is not installed (apt-get install zstd)" >&2; exit 1; }

root=$(cd "$(dirname "$0")/.." && pwd)
roots=("$root/data/selfplay" "$root/../shared/data/selfplay")

find_set() {
    local r
    for r in "${roots[@]}"; do
        if [ -d "$r/$1" ]; then
            echo "$r/$1"
            return 0
        fi
    done
    return 1
}

if [ $# -eq 0 ]; then
    mapfile -t sets < <(for r in "${roots[@]}"; do [ -d "$r" ] && ls "$r"; done | sort -u)
else
    sets=("$@")
fi

for set in "${sets[@]}"; do
    src=$(find_set "$set") || { echo "$0: no set '$set' in ${roots[*]}" >&2; exit 1; }
    mkdir -p "$dest/$set"
    for f in "$src"/games-*.bin.zst; do
        out="$dest/$set/$(basename "$f" .zst)"
        if [ ! -e "$out" ]; then
            zstd -q -d "$f" -o "$out"
        fi
    done
    echo "$set: $(ls "$dest/$set" | wc -l) files from $src"
done
