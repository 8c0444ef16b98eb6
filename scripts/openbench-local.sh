#!/usr/bin/env bash
# A local OpenBench instance on 127.0.0.1 that plays Cutoff: one server, one worker on one
# thread, no internet. A maintainer's tool (see docs/testing.md, "OpenBench"); CI and the tests
# do not use it.
#
#   scripts/openbench-local.sh            SPRT of $DEV against $BASE, then an SPSA tune of $DEV
#
# It clones OpenBench at the pinned commit into a new temporary directory, applies
# scripts/openbench.patch (reasons in scripts/openbench-patch.md), makes a venv, migrates the
# SQLite database, creates an approved user, registers Cutoff (Engines/Cutoff.json) and a book
# made of data/openings/8moves_v3_sample3000.epd, serves commits of this repository as zips on
# 127.0.0.1, starts one worker, and runs scripts/openbench_local.py, which creates the workloads
# and checks them. Every process it starts runs in its own process group, and the EXIT trap
# ends exactly those groups: nothing is ended by name.
#
# Environment (all optional):
#   OPENBENCH_REPO  where to clone OpenBench from   (https://github.com/AndyGrant/OpenBench)
#   FASTCHESS_REPO  where to clone fastchess from   (https://github.com/Disservin/fastchess)
#   FASTCHESS_OB    a fastchess binary (>= 1.8.1) to use instead of building one
#   VENV            an existing venv with the packages below, instead of a new one
#   DEV, BASE       commits for the SPRT            (HEAD, c7aab50)
#   NODES           nodes per move                  (5000)
#   SPRT_GAMES      games of the SPRT (one workload, a multiple of 4)  (256)
#   SPSA_PARAMS     parameters to tune              ("ASPIRATION_DELTA LMR_BASE")
#   SPSA_ITERATIONS, SPSA_PAIRS                     (24, 2)
#   OUT             where results go                (./openbench-out)
#   KEEP_TMP=1      keep the temporary directory
set -euo pipefail

OPENBENCH_COMMIT=9906bad18e044c4b455539317b8cf037393a7218
FASTCHESS_COMMIT=74deac23aadc6718fa0f8e24ac95d16392d79444
OPENBENCH_REPO=${OPENBENCH_REPO:-https://github.com/AndyGrant/OpenBench}
FASTCHESS_REPO=${FASTCHESS_REPO:-https://github.com/Disservin/fastchess}
ROOT=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
export DEV=${DEV:-HEAD} BASE=${BASE:-c7aab50} NODES=${NODES:-5000} SPRT_GAMES=${SPRT_GAMES:-256}
export SPSA_PARAMS=${SPSA_PARAMS:-"ASPIRATION_DELTA LMR_BASE"}
export SPSA_ITERATIONS=${SPSA_ITERATIONS:-24} SPSA_PAIRS=${SPSA_PAIRS:-2}
OUT=$(mkdir -p "${OUT:-$ROOT/openbench-out}" && cd "${OUT:-$ROOT/openbench-out}" && pwd); export OUT
PORT=${PORT:-8937} ZIPPORT=${ZIPPORT:-8938}

TMP=$(mktemp -d /tmp/cutoff-openbench.XXXXXX)
PGIDS=()
cleanup() {
    local pg
    for pg in "${PGIDS[@]}"; do kill -TERM -- "-$pg" 2>/dev/null || true; done
    sleep 2
    for pg in "${PGIDS[@]}"; do kill -KILL -- "-$pg" 2>/dev/null || true; done
    [ "${KEEP_TMP:-0}" = 1 ] && echo "kept $TMP" || rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 143' INT TERM HUP
# start NAME DIR CMD...: runs CMD in DIR in a new session (its own process group) and records
# the group.
start() {
    local name=$1 dir=$2; shift 2
    (cd "$dir" && exec setsid "$@" > "$OUT/$name.log" 2>&1 < /dev/null) &
    PGIDS+=("$!")   # setsid execs in place: the pid is the new group's id
    echo "started $name: pid/pgid $!"
}

# 1. OpenBench at the pinned commit, patched.
git clone --quiet "$OPENBENCH_REPO" "$TMP/OpenBench"
git -C "$TMP/OpenBench" checkout --quiet "$OPENBENCH_COMMIT"
git -C "$TMP/OpenBench" apply "$ROOT/scripts/openbench.patch"
OB=$TMP/OpenBench
cp "$ROOT/Engines/Cutoff.json" "$OB/Engines/Cutoff.json"
BOOK=cutoff_8moves_v3_sample3000.epd
SHA=$(sha256sum "$ROOT/data/openings/8moves_v3_sample3000.epd" | cut -d' ' -f1)
printf '{ "sha" : "%s", "source" : "http://127.0.0.1:%s/none.zip" }\n' "$SHA" "$ZIPPORT" > "$OB/Books/$BOOK.json"
python3 - "$OB/Config/config.json" "$BOOK" <<'PY'
import json, sys
path, book = sys.argv[1:]
conf = json.load(open(path))
conf['books'], conf['engines'] = [book], ['Cutoff']
json.dump(conf, open(path, 'w'), indent=4)
PY

# 2. Python packages.
if [ -z "${VENV:-}" ]; then
    VENV=$TMP/venv
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet "Django==4.2.1" "django-htmlmin==0.11.0" scipy requests "psutil>=5.9.5" "py-cpuinfo>=9.0.0"
fi
PY=$VENV/bin/python

# 3. Database and user.
export OB_USER=cutoff OB_PASS=cutoff-local
(cd "$OB" && "$PY" manage.py migrate --noinput > "$OUT/migrate.log")
(cd "$OB" && "$PY" manage.py shell -c "
from django.contrib.auth.models import User
from OpenBench.models import Profile
u = User.objects.create_user('$OB_USER', password='$OB_PASS')
Profile.objects.create(user=u, enabled=True, approver=True)")

# 4. The engine's source: a copy of this repository; the tune build is a commit made there.
git clone --quiet "$ROOT" "$TMP/src"
git -C "$TMP/src" checkout --quiet --detach "$(git -C "$ROOT" rev-parse "$DEV")"
sed -i 's/^FEATURES ?=$/FEATURES ?= tune/' "$TMP/src/Makefile"
grep -q '^FEATURES ?= tune$' "$TMP/src/Makefile"
git -C "$TMP/src" -c user.name=openbench-local -c user.email=local@invalid commit --quiet -am \
    "openbench-local: tune build of $DEV (FEATURES ?= tune)"
git -C "$TMP/src" branch --quiet openbench-tune
export TUNE_SHA=$(git -C "$TMP/src" rev-parse HEAD)
export DEV_SHA=$(git -C "$ROOT" rev-parse "$DEV") BASE_SHA=$(git -C "$ROOT" rev-parse "$BASE")
mkdir -p "$TMP/zips"
export OPENBENCH_LOCAL_GIT=$TMP/src OPENBENCH_LOCAL_ZIPDIR=$TMP/zips
export OPENBENCH_LOCAL_ZIPURL=http://127.0.0.1:$ZIPPORT

# 5. The worker's folder: the patched Client, fastchess-ob, the book.
W=$TMP/worker
cp -r "$OB/Client" "$W"
mkdir -p "$W/Books"
cp "$ROOT/data/openings/8moves_v3_sample3000.epd" "$W/Books/$BOOK"
if [ -n "${FASTCHESS_OB:-}" ]; then
    cp "$FASTCHESS_OB" "$W/fastchess-ob"
else
    git clone --quiet "$FASTCHESS_REPO" "$TMP/fastchess"
    git -C "$TMP/fastchess" checkout --quiet "$FASTCHESS_COMMIT"
    make -C "$TMP/fastchess" -j2 CXX=g++ > "$OUT/fastchess-build.log" 2>&1
    cp "$TMP/fastchess/fastchess" "$W/fastchess-ob"
fi
grep -q "psutil.Process().children" "$W/utils.py"   # never run an unpatched worker
! grep -n "'pkill'" "$W"/*.py

# 6. Start the zip server, the OpenBench server and the worker.
start zips "$TMP" "$PY" -m http.server --bind 127.0.0.1 --directory "$TMP/zips" "$ZIPPORT"
start server "$OB" "$PY" manage.py runserver --noreload "127.0.0.1:$PORT"
for _ in $(seq 60); do curl -sf "http://127.0.0.1:$PORT/index/" > /dev/null && break; sleep 1; done
export OB_SERVER=http://127.0.0.1:$PORT OB_DIR=$OB OB_WORKER=$W
start worker "$W" env CARGO_TARGET_DIR="$TMP/cargo-target" "$PY" client.py -U "$OB_USER" -P "$OB_PASS" \
    -S "$OB_SERVER" -T 1 -N 1 --no-client-downloads

# 7. The workloads and their checks.
(cd "$OB" && "$PY" "$ROOT/scripts/openbench_local.py" "$@")
