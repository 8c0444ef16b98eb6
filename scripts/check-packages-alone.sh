#!/usr/bin/env bash
# Builds, tests and documents each package the way its users build it: one package at a time,
# so that no other package of the workspace turns a feature on for it (features unify across
# the packages a command builds, and `xtask` turns on `study` of cutoff-ordering and
# cutoff-search), with its default features, without them where it has any, with each
# feature alone and with all of them.
#
# The reusable crates (those `cargo package` may publish) and the examples under `examples/`
# are built, tested (unit, integration and doc tests) and documented with `-D warnings`; the
# internal packages are checked (`cargo check`) with the same feature sets. The packages and
# their features are read from the manifests (`cargo metadata`), so a new crate or feature is
# covered without an edit here.
#
#   scripts/check-packages-alone.sh [PACKAGE...]     (default: every package of the workspace)
set -euo pipefail
cd "$(dirname "$0")/.."

# One line per package: "kind name default feature...": kind is full or check, default says
# whether the package has default features ("-" when not).
plan=$(cargo metadata --no-deps --format-version 1 | python3 -c '
import json, os, sys
meta = json.load(sys.stdin)
examples = os.path.join(meta["workspace_root"], "examples") + os.sep
for p in meta["packages"]:
    publishable = p["publish"] is None
    example = p["manifest_path"].startswith(examples)
    kind = "full" if publishable or example else "check"
    features = sorted(f for f in p["features"] if f != "default")
    default = "default" if p["features"].get("default") else "-"
    print(kind, p["name"], default, *features)
')

wanted=("$@")
has_bmi2=$(grep -qw bmi2 /proc/cpuinfo 2>/dev/null && echo yes || echo no)
failed=()

run() {
    echo "+ $*"
    if ! "$@"; then
        failed+=("$*")
    fi
}

while read -r kind name default features; do
    if [ ${#wanted[@]} -gt 0 ] && [[ ! " ${wanted[*]} " == *" $name "* ]]; then
        continue
    fi
    read -ra features <<<"$features"
    variants=("")
    [ "$default" = default ] && variants+=("--no-default-features")
    for feature in "${features[@]}"; do
        # `pext` asks for BMI2's PEXT outright: the build fails on a CPU without BMI2.
        if [ "$feature" = pext ] && [ "$has_bmi2" = no ]; then
            echo "-- $name: feature pext skipped (this CPU has no BMI2)"
            continue
        fi
        variants+=("--features=$feature")
    done
    if [ ${#features[@]} -gt 1 ] && { [[ ! " ${features[*]} " == *" pext "* ]] || [ "$has_bmi2" = yes ]; }; then
        variants+=("--all-features")
    fi
    for variant in "${variants[@]}"; do
        flags=(-p "$name")
        [ -n "$variant" ] && flags+=("$variant")
        echo "-- $name ${variant:-(default features)}"
        # Rustdoc (doc tests, docs) does not read the build's `-C target-cpu=native`, so a
        # feature that needs BMI2 names it.
        docflags=""
        if [[ $variant == *pext* || ($variant == --all-features && " ${features[*]} " == *" pext "*) ]]; then
            docflags="-C target-feature=+bmi2"
        fi
        if [ "$kind" = full ]; then
            # Without dev-dependencies first: they may turn on features a user does not get.
            run cargo build --quiet "${flags[@]}"
            run env RUSTDOCFLAGS="$docflags" cargo test --quiet "${flags[@]}"
            run env RUSTDOCFLAGS="-D warnings $docflags" cargo doc --quiet --no-deps "${flags[@]}"
        else
            run cargo check --quiet "${flags[@]}"
        fi
    done
done <<<"$plan"

if [ ${#failed[@]} -gt 0 ]; then
    echo "failed:"
    printf '  %s\n' "${failed[@]}"
    exit 1
fi
echo "every package builds, tests and documents on its own"
