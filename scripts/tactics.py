#!/usr/bin/env python3
"""Run an EPD test suite (bm/am operations) against a UCI engine, refereed by python-chess.

    pip install chess
    python3 scripts/tactics.py --engine target/release/cutoff --epd ../shared/data/tactics/bratko-kopec.epd --movetime 1000

Prints each position's result and the number solved. `cargo xtask tactics` will supersede this.
"""
import argparse
import sys

import chess
import chess.engine


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", required=True)
    ap.add_argument("--epd", required=True)
    ap.add_argument("--movetime", type=int, default=1000, help="milliseconds per position")
    ap.add_argument("--option", action="append", default=[], help="NAME=VALUE UCI option")
    args = ap.parse_args()

    engine = chess.engine.SimpleEngine.popen_uci(args.engine)
    for opt in args.option:
        name, value = opt.split("=", 1)
        engine.configure({name: value})
    solved = total = 0
    misses = []
    with open(args.epd) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            board, ops = chess.Board.from_epd(line)
            result = engine.play(board, chess.engine.Limit(time=args.movetime / 1000), info=chess.engine.INFO_SCORE)
            move = result.move
            ok = True
            if "bm" in ops:
                ok = move in ops["bm"]
            if "am" in ops:
                ok = ok and move not in ops["am"]
            total += 1
            solved += ok
            ident = ops.get("id", f"#{total}")
            want = " ".join(board.san(m) for m in ops.get("bm", []))
            print(f"{ident:12} {'ok ' if ok else 'MISS'} played {board.san(move):8} expected {want}", flush=True)
            if not ok:
                misses.append(ident)
    engine.quit()
    print(f"solved {solved}/{total} at {args.movetime} ms per position")
    if misses:
        print("misses:", " ".join(misses))
    return 0


if __name__ == "__main__":
    sys.exit(main())
