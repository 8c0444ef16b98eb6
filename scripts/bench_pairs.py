#!/usr/bin/env python3
"""Compare the speed of two or more engine binaries by whole `cutoff bench` runs in rounds.

    python3 scripts/bench_pairs.py ROUNDS DEPTH BIN1 BIN2 [BIN3 ...] [-- BENCH ARGS]

Each round runs every binary's `BIN bench DEPTH [BENCH ARGS]` once, pinned to one core
(`taskset -c CORE`, core 0 unless $BENCH_CORE says otherwise), the order rotating from one
round to the next so that no binary always runs first. For each binary it prints the median
nps (as `cutoff bench` prints it, wall clock), the ratio of its median to BIN1's, and the
median and range of the per-round ratios against BIN1 ("paired"); then the same from CPU
time (nodes / user+system seconds of the process), which a stolen or descheduled core does
not inflate.

$PAUSE_PGID (optional): a process group to stop with SIGSTOP for the measurement and to
continue afterwards (a background datagen, say), also if the script is interrupted.

Used for docs/benchmarks.md (issue 27, session 19). `cargo xtask bench --vs REV` is the
issue's own command; this script compares binaries already built (experiments that are not
commits) and pins them to one core.
"""
import os
import re
import resource
import signal
import statistics
import subprocess
import sys


def main() -> None:
    args = sys.argv[1:]
    extra: list[str] = []
    if "--" in args:
        i = args.index("--")
        args, extra = args[:i], args[i + 1 :]
    if len(args) < 3:
        sys.exit(__doc__)
    rounds, depth, bins = int(args[0]), args[1], args[2:]
    if len(set(bins)) != len(bins):
        sys.exit("bench_pairs.py: each binary once (copy a binary to compare it with itself)")
    core = os.environ.get("BENCH_CORE", "0")
    pgid = int(os.environ["PAUSE_PGID"]) if os.environ.get("PAUSE_PGID") else None
    wall: dict[str, list[float]] = {b: [] for b in bins}
    cpu: dict[str, list[float]] = {b: [] for b in bins}
    nodes: dict[str, int] = {}
    if pgid is not None:
        os.killpg(pgid, signal.SIGSTOP)
    try:
        for r in range(rounds):
            k = r % len(bins)
            for b in bins[k:] + bins[:k]:
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                out = subprocess.run(
                    ["taskset", "-c", core, b, "bench", depth, *extra], capture_output=True, text=True, check=True
                )
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
                m = re.search(r"(\d+) nodes (\d+) nps", out.stdout + out.stderr)
                if m is None:
                    sys.exit(f"bench_pairs.py: no 'N nodes M nps' line from {b}")
                nodes[b] = int(m.group(1))
                wall[b].append(int(m.group(2)))
                cpu[b].append(nodes[b] / seconds)
            print(f"round {r + 1}: " + "  ".join(f"{wall[b][-1]:.0f}" for b in bins), flush=True)
    finally:
        if pgid is not None:
            os.killpg(pgid, signal.SIGCONT)
    for title, table in (("nps (wall clock)", wall), ("nps (CPU time)", cpu)):
        print(title)
        base = statistics.median(table[bins[0]])
        for b in bins:
            ratios = [x / y for x, y in zip(table[b], table[bins[0]])]
            print(
                f"  {b}: nodes {nodes[b]}, median {statistics.median(table[b]):,.0f}, "
                f"ratio of medians {statistics.median(table[b]) / base:.3f}, "
                f"paired {statistics.median(ratios):.3f} ({min(ratios):.3f}-{max(ratios):.3f})"
            )


if __name__ == "__main__":
    main()
