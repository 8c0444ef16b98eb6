#!/usr/bin/env bash
# Fails when the repository's tracked files add up to more than a bound (default 32 MiB), and
# then lists the largest of them. Training data belongs in history, not in the tree
# (data/selfplay/README.md); a small tree keeps every clone light and lets the lent accelerator
# machine, which refuses a tree over 64 MiB, take a copy of it.
#
#   scripts/check-tree-size.sh [MIB]
set -euo pipefail
bound_mib=${1:-32}
[[ $bound_mib =~ ^[0-9]+$ ]] || { echo "usage: $0 [MIB]  (a whole number of MiB, not '$bound_mib')" >&2; exit 2; }
cd "$(dirname "$0")/.."
bound=$((bound_mib * 1024 * 1024))
# Tracked files as they are in the working tree (staged additions count; a file deleted from
# the working tree does not).
sizes=$(git ls-files -z | xargs -0 -r stat -c '%s %n' 2>/dev/null || true)
total=$(awk '{ s += $1 } END { print s + 0 }' <<<"$sizes")
mib=$(awk -v t="$total" 'BEGIN { printf "%.1f", t / 1048576 }')
if [ "$total" -gt "$bound" ]; then
    echo "the tracked files add up to $total bytes ($mib MiB), over the bound of $bound_mib MiB; the largest:"
    sort -rn <<<"$sizes" | head -15 | awk '{ printf "%10d  %s\n", $1, substr($0, index($0, " ") + 1) }'
    echo "move training data into history (scripts/pack-selfplay.sh, data/selfplay/README.md)"
    exit 1
fi
echo "the tracked files add up to $total bytes ($mib MiB), within the bound of $bound_mib MiB"
