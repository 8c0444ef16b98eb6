#!/usr/bin/env bash
# Unpack self-play training sets into one directory, as the training commands of docs/nnue.md
# expect them: DEST/<set>/games-N.bin.
#
#   scripts/unpack-selfplay.sh DEST [SET ...]
#
# A set is a directory data/selfplay/<set>/ whose MANIFEST.md lists its files with their
# sha256. The files themselves live in the repository's history, not in its tree: the
# manifest's `History:` line names the commits whose trees hold them (data/selfplay/README.md).
# Each file is read from the first source that has it:
#   1. the working tree (a set not yet moved out of it),
#   2. the commits that the manifest's History line names (`git cat-file`),
#   3. ../shared/data/selfplay/<set>/ beside the repository.
# Both the compressed file (where the manifest gives its sha256) and the unpacked file are
# checked against the manifest before the file is moved into place, so DEST never holds a
# partial or unchecked file. A file already in DEST is checked, not rewritten. With no SET,
# every set that has a manifest is unpacked. Needs git, zstd and sha256sum.
set -euo pipefail

me=$(basename "$0")
die() {
    echo "$me: $*" >&2
    exit 1
}

if [ $# -lt 1 ]; then
    echo "usage: $me DEST [SET ...]" >&2
    exit 2
fi
dest=$1
shift
command -v zstd >/dev/null || die "zstd is not installed (apt-get install zstd)"
command -v sha256sum >/dev/null || die "sha256sum is not installed (apt-get install coreutils)"

root=$(cd "$(dirname "$0")/.." && pwd)
tree=$root/data/selfplay
shared=$root/../shared/data/selfplay

# The manifest of a set: the tree's, else the one beside the repository.
manifest_of() {
    if [ -f "$tree/$1/MANIFEST.md" ]; then
        echo "$tree/$1/MANIFEST.md"
    elif [ -f "$shared/$1/MANIFEST.md" ]; then
        echo "$shared/$1/MANIFEST.md"
    else
        return 1
    fi
}

known_sets() {
    { ls "$tree"/*/MANIFEST.md "$shared"/*/MANIFEST.md 2>/dev/null || true; } |
        sed 's|/MANIFEST.md$||; s|.*/||' | sort -u
}

if [ $# -eq 0 ]; then
    mapfile -t sets < <(known_sets)
    [ ${#sets[@]} -gt 0 ] || die "no set has a manifest in $tree or $shared"
else
    sets=("$@")
fi
# Every name is checked before anything is written.
for set in "${sets[@]}"; do
    case $set in */* | .* | '') die "'$set' is not a set name" ;; esac
    manifest_of "$set" >/dev/null ||
        die "no set '$set': neither $tree/$set/MANIFEST.md nor $shared/$set/MANIFEST.md exists (known sets: $(known_sets | tr '\n' ' '))"
done

sha() { sha256sum "$1" | cut -d' ' -f1; }
in_git=false
git -C "$root" rev-parse --git-dir >/dev/null 2>&1 && in_git=true
shallow=false
$in_git && [ "$(git -C "$root" rev-parse --is-shallow-repository)" = true ] && shallow=true

mkdir -p "$dest"
# Temporary files live in DEST (the same file system, so the final move is atomic) and are
# removed whatever happens.
tmp=$(mktemp -d "$dest/.unpack-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

for set in "${sets[@]}"; do
    manifest=$(manifest_of "$set")
    # "History: the files are in the tree of commit 0123abc." (one commit or several)
    commits=$(sed -n 's/^History:\(.*\)$/\1/p' "$manifest" | grep -oE '\b[0-9a-f]{7,40}\b' || true)
    # "- games-0.bin.zst: 123 bytes (sha256 <zst>); uncompressed [(compact, version 2)] 456 bytes, sha256 <bin>"
    # (the oldest manifests give no sha256 of the compressed file).
    entries=$(sed -nE 's/^- (games-[0-9]+\.bin\.zst): [0-9]+ bytes( \(sha256 ([0-9a-f]{64})\))?; uncompressed( \(compact, version 2\))? [0-9]+ bytes, sha256 ([0-9a-f]{64}).*$/\1 \3 \5/p' "$manifest" |
        awk 'NF == 2 { print $1, "-", $2; next } { print }')
    [ -n "$entries" ] || die "$set: $manifest lists no games-*.bin.zst file with its sha256"

    sources_used=()
    n=0
    while read -r zst zst_sha bin_sha; do
        bin=${zst%.zst}
        out=$dest/$set/$bin
        if [ -e "$out" ]; then
            [ "$(sha "$out")" = "$bin_sha" ] ||
                die "$set: $out is already there but its sha256 is not the manifest's $bin_sha (remove it and run again)"
            sources_used+=("$dest (already unpacked)")
            n=$((n + 1))
            continue
        fi

        # Find the compressed file.
        piece=$tmp/$zst
        from=""
        if [ -f "$tree/$set/$zst" ]; then
            cp "$tree/$set/$zst" "$piece"
            from="the working tree"
        fi
        missing=()
        if [ -z "$from" ] && $in_git; then
            for c in $commits; do
                if ! git -C "$root" cat-file -e "$c^{commit}" 2>/dev/null; then
                    missing+=("$c")
                    continue
                fi
                if git -C "$root" cat-file -e "$c:data/selfplay/$set/$zst" 2>/dev/null; then
                    git -C "$root" cat-file blob "$c:data/selfplay/$set/$zst" >"$piece"
                    from="commit $(git -C "$root" rev-parse --short=12 "$c")"
                    break
                fi
            done
        fi
        if [ -z "$from" ] && [ -f "$shared/$set/$zst" ]; then
            cp "$shared/$set/$zst" "$piece"
            from="$(cd "$shared/$set" && pwd)"
        fi
        if [ -z "$from" ]; then
            if [ ${#missing[@]} -gt 0 ] && $shallow; then
                die "$set: $zst is in commit $(IFS=,; echo "${missing[*]}" | sed "s/,/, /g"), which this shallow clone lacks: run 'git fetch --unshallow' (or clone without --depth) and try again"
            elif [ ${#missing[@]} -gt 0 ]; then
                die "$set: $zst is in commit $(IFS=,; echo "${missing[*]}" | sed "s/,/, /g"), which this repository does not have (and $shared/$set has no copy)"
            elif ! $in_git && [ -n "$commits" ]; then
                die "$set: $zst is in commit $(echo $commits), but $root is not a git repository (and $shared/$set has no copy)"
            else
                die "$set: $zst is in no source: not in the working tree, not in the commits its manifest names (${commits:-none}), not in $shared/$set"
            fi
        fi

        if [ "$zst_sha" != - ] && [ "$(sha "$piece")" != "$zst_sha" ]; then
            die "$set: $zst from $from has sha256 $(sha "$piece"), but the manifest says $zst_sha"
        fi
        zstd -q -d "$piece" -o "$tmp/$bin"
        rm "$piece"
        got=$(sha "$tmp/$bin")
        [ "$got" = "$bin_sha" ] ||
            die "$set: $bin unpacked from $from has sha256 $got, but the manifest says $bin_sha"
        mkdir -p "$dest/$set"
        mv "$tmp/$bin" "$out"
        sources_used+=("$from")
        n=$((n + 1))
    done <<<"$entries"
    echo "$set: $n file$([ "$n" -eq 1 ] || echo s), sha256 as in the manifest, from $(printf '%s\n' "${sources_used[@]}" | sort -u | paste -sd, - | sed 's/,/, /g')"
done
