#!/usr/bin/env bash
# Self-play on a borrowed many-core machine whose files do not outlive the call (issue 28).
#
#   scripts/datagen-burst.sh run CUTOFF NAME SECONDS SEED NETWORK SYZYGY OUT [NODES]
#   scripts/datagen-burst.sh restore CUTOFF NAME FROM DEST
#
# run:      `cutoff datagen` on every core (`nproc` threads) for SECONDS, NODES soft nodes a move
#           (default 500), stopped with SIGTERM and cut back to whole games by rerunning it with
#           `--games` equal to the thread count (which plays nothing more). Each file is then
#           compacted (format version 2, read back and compared) and the lot written to OUT as
#           NAME.tar.zst.aa, .ab, ... (zstd -19, pieces of $PART_MIB MiB, default 15), with
#           NAME.log (datagen's progress) and NAME.info (`cutoff datagen info` of the files as
#           datagen wrote them). It works in a new temporary directory, so an earlier run on the
#           same machine leaves nothing in the way.
# restore:  joins FROM/NAME.tar.zst.*, unpacks it, turns each file back into the version 1 file
#           datagen wrote (`cutoff datagen compact --plain`) under DEST (a datagen directory,
#           ready for scripts/pack-selfplay.sh) and checks `cutoff datagen info` against
#           FROM/NAME.info line by line.
#
# CUTOFF is the engine binary (built for the borrowed machine's CPU: `RUSTFLAGS="-C
# target-cpu=x86-64-v3"` runs on both AMD and Intel). Needs zstd, tar and split.
set -euo pipefail

usage() {
    sed -n '4,5p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}
[ $# -ge 1 ] || usage
mode=$1
shift
command -v zstd >/dev/null || { echo "$0: zstd is not installed (apt-get install zstd)" >&2; exit 1; }

case $mode in
run)
    [ $# -ge 7 ] && [ $# -le 8 ] || usage
    cutoff=$(realpath "$1") name=$2 seconds=$3 seed=$4 network=$(realpath "$5") syzygy=$(realpath "$6")
    mkdir -p "$7"
    out=$(realpath "$7") nodes=${8:-500}
    threads=$(nproc)
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT

    datagen=("$cutoff" datagen --out "$work/$name" --threads "$threads" --nodes "$nodes" --seed "$seed"
        --evalfile "$network" --syzygy "$syzygy")
    echo "$name: ${datagen[*]} --games 1000000000 --report-every 60, for $seconds s on $threads threads"
    set +e
    timeout -s TERM "$seconds" "${datagen[@]}" --games 1000000000 --report-every 60 2>"$out/$name.log"
    rc=$?
    set -e
    [ $rc -eq 124 ] || { echo "$0: datagen ended early (exit $rc); see $out/$name.log" >&2; exit 1; }
    # A rerun with --games = threads cuts each file's partial last game off and plays nothing.
    "${datagen[@]}" --games "$threads" 2>>"$out/$name.log"
    (cd "$work/$name" && "$cutoff" datagen info games-*.bin) >"$out/$name.info"
    mkdir "$work/compact"
    ls "$work/$name"/games-*.bin | xargs -P "$threads" -I{} sh -c \
        '"$1" datagen compact "$2" "$3/$(basename "$2")"' sh "$cutoff" {} "$work/compact"
    cp "$work/$name/settings.txt" "$work/compact/"
    tar -C "$work/compact" -cf - . | zstd -19 -T"$threads" -q | split -b "${PART_MIB:-15}M" - "$out/$name.tar.zst."
    tail -1 "$out/$name.log"
    ls -l "$out"
    ;;
restore)
    [ $# -eq 4 ] || usage
    cutoff=$(realpath "$1") name=$2 from=$3 dest=$4
    [ -e "$dest" ] && { echo "$0: $dest exists already" >&2; exit 1; }
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    cat "$from/$name".tar.zst.* | zstd -d -q | tar -C "$work" -xf -
    mkdir -p "$dest"
    for f in "$work"/games-*.bin; do
        "$cutoff" datagen compact --plain "$f" "$dest/$(basename "$f")" >/dev/null
    done
    cp "$work/settings.txt" "$dest/"
    (cd "$dest" && "$cutoff" datagen info games-*.bin) >"$work/info"
    if ! diff <(sort "$from/$name.info") <(sort "$work/info"); then
        echo "$0: $dest does not match $from/$name.info" >&2
        exit 1
    fi
    echo "$dest: $(ls "$dest"/games-*.bin | wc -l) files, the same as $from/$name.info"
    ;;
*) usage ;;
esac
