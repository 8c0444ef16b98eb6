#!/usr/bin/env python3
"""Compare the search speed of two UCI engines at a given Hash size, as a game sees it.

`cutoff bench` always uses a 16 MiB table; this script drives each engine over UCI with
`setoption name Hash`, searches a few positions to a fixed depth (`ucinewgame` before each),
and reads the nodes and time of the last `info` line of each search. The two engines run in
alternating order, each pinned to CPU 0 (`taskset -c 0`), and the script prints the ratio of
the median speeds and the median of the per-round ratios (engine 1 / engine 2).

    python3 scripts/uci_nps.py ENGINE1 ENGINE2 --hash 256 --depth 18 --rounds 7
"""

import argparse
import re
import statistics
import subprocess

FENS = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16",
]


def speed(engine, hash_mib, depth):
    """Nodes a second over all positions, and the total node count."""
    p = subprocess.Popen(["taskset", "-c", "0", engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(text):
        p.stdin.write(text)
        p.stdin.flush()

    send(f"uci\nsetoption name Hash value {hash_mib}\nisready\n")
    for line in p.stdout:
        if line.startswith("readyok"):
            break
    nodes = millis = 0
    for fen in FENS:
        send(f"ucinewgame\nposition fen {fen}\ngo depth {depth}\n")
        last = None
        for line in p.stdout:
            if line.startswith("info") and " nodes " in line and " time " in line:
                last = line
            if line.startswith("bestmove"):
                break
        if last is None:
            raise SystemExit(f"{engine}: no info line with nodes and time for {fen}")
        nodes += int(re.search(r" nodes (\d+)", last).group(1))
        millis += int(re.search(r" time (\d+)", last).group(1))
    send("quit\n")
    p.wait()
    return nodes * 1000 / max(millis, 1), nodes


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("engine1")
    ap.add_argument("engine2")
    ap.add_argument("--hash", type=int, default=16, help="Hash in MiB (default 16)")
    ap.add_argument("--depth", type=int, default=18, help="search depth (default 18)")
    ap.add_argument("--rounds", type=int, default=7, help="runs of each engine (default 7)")
    args = ap.parse_args()
    first, second, ratios = [], [], []
    for i in range(args.rounds):
        order = [args.engine1, args.engine2] if i % 2 == 0 else [args.engine2, args.engine1]
        result = {engine: speed(engine, args.hash, args.depth) for engine in order}
        (a, nodes1), (b, nodes2) = result[args.engine1], result[args.engine2]
        first.append(a)
        second.append(b)
        ratios.append(a / b)
    m1, m2 = statistics.median(first), statistics.median(second)
    print(f"Hash {args.hash} MiB, depth {args.depth}, {args.rounds} rounds; nodes {nodes1} and {nodes2}")
    print(f"median nps {m1:.0f} and {m2:.0f}: ratio {m1 / m2:.3f}")
    print(f"per-round ratios: median {statistics.median(ratios):.3f}, {min(ratios):.3f}-{max(ratios):.3f}")


if __name__ == "__main__":
    main()
