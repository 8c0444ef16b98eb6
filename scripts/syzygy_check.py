#!/usr/bin/env python3
"""Compare cutoff-syzygy's WDL and DTZ probes with python-chess's independent prober.

Draws random legal positions of every 3- and 4-piece ending found in the table directory,
`--positions` of EACH ending (kings and the ending's pieces placed at random, side to move at
random, positions where the side not to move is in check rejected; en passant squares set
where a double push could just have happened), probes each with both probers and writes a
summary: the totals, then one line per ending (positions, en passant positions, WDL and DTZ
agreement, and python-chess's WDL values counted as loss/blessed/draw/cursed/win).

    pip install chess
    cargo build --release -p cutoff-syzygy --example probe
    python3 scripts/syzygy_check.py --tables ../shared/data/syzygy --positions 10000 \
        --prober target/release/examples/probe --out docs/syzygy-check.txt

Without `--prober` the Rust side is `cargo run --release -p cutoff-syzygy --example probe --
DIR`. `--memory` passes `--memory` to the prober, which then reports its resident memory
after probing everything.
"""

import argparse
import os
import random
import subprocess
import sys

import chess
import chess.syzygy

PIECES = {"P": chess.PAWN, "N": chess.KNIGHT, "B": chess.BISHOP, "R": chess.ROOK, "Q": chess.QUEEN}


def endings(directory):
    names = sorted(f[:-5] for f in os.listdir(directory) if f.endswith(".rtbw"))
    return [n for n in names if len(n) - 1 <= 4 and os.path.exists(os.path.join(directory, n + ".rtbz"))]


def random_position(name, rng):
    white, black = name.split("v")
    while True:
        board = chess.Board(None)
        squares = rng.sample(range(64), len(white) + len(black))
        ok = True
        for side, color in ((white, chess.WHITE), (black, chess.BLACK)):
            for letter in side:
                sq = squares.pop()
                piece = chess.KING if letter == "K" else PIECES[letter]
                if piece == chess.PAWN and chess.square_rank(sq) in (0, 7):
                    ok = False
                board.set_piece_at(sq, chess.Piece(piece, color))
        if not ok:
            continue
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        # Sometimes give an en passant square when a pawn of the side not to move could have
        # just made a double push.
        if rng.random() < 0.5:
            them = not board.turn
            rank = 3 if them == chess.WHITE else 4
            candidates = [sq for sq in board.pieces(chess.PAWN, them) if chess.square_rank(sq) == rank]
            if candidates:
                sq = rng.choice(candidates)
                ep = sq - 8 if them == chess.WHITE else sq + 8
                start = sq - 16 if them == chess.WHITE else sq + 16
                if board.piece_at(ep) is None and board.piece_at(start) is None:
                    board.ep_square = ep
        # Two checkers at once cannot arise in these endings except by a discovered check,
        # which cutoff-board checks strictly; keep to single checks to compare like with like.
        if not board.is_valid() or len(board.checkers()) > 1:
            continue
        return board


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", default="data/syzygy")
    parser.add_argument("--positions", type=int, default=10000, help="random positions of each ending")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--out", default=None, help="write the summary here too")
    parser.add_argument("--prober", default=None, help="path of the built probe example")
    parser.add_argument("--memory", action="store_true", help="have the prober report its resident memory")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    names = endings(args.tables)
    drawn = [(name, random_position(name, rng)) for name in names for _ in range(args.positions)]
    boards = [b for _, b in drawn]
    fens = [b.fen(en_passant="fen") for b in boards]

    command = [args.prober, args.tables] if args.prober else [
        "cargo", "run", "--quiet", "--release", "-p", "cutoff-syzygy", "--example", "probe", "--", args.tables]
    if args.memory:
        command.append("--memory")
    result = subprocess.run(command, input="\n".join(fens) + "\n", capture_output=True, text=True, check=True)
    ours = {}
    for line in result.stdout.splitlines():
        fen, wdl, dtz = line.rsplit(";", 2)
        ours[fen] = tuple(None if v in ("-", "invalid") else int(v) for v in (wdl, dtz))

    wdl_ok = dtz_ok = 0
    mismatches = []
    # ending -> [positions, en passant, WDL agree, DTZ agree, WDL -2..2 counts]
    per_ending = {name: [0, 0, 0, 0, [0] * 5] for name in names}
    with chess.syzygy.open_tablebase(args.tables) as tb:
        for (name, board), fen in zip(drawn, fens):
            wdl, dtz = tb.probe_wdl(board), tb.probe_dtz(board)
            mine = ours.get(fen, (None, None))
            ok_w = mine[0] == wdl
            ok_d = mine[1] == dtz
            wdl_ok += ok_w
            dtz_ok += ok_d
            row = per_ending[name]
            row[0] += 1
            row[1] += board.ep_square is not None
            row[2] += ok_w
            row[3] += ok_d
            row[4][wdl + 2] += 1
            if not (ok_w and ok_d) and len(mismatches) < 20:
                mismatches.append(f"{fen}: python-chess wdl {wdl} dtz {dtz}, cutoff-syzygy wdl {mine[0]} dtz {mine[1]}")
    n = len(boards)
    ep = sum(1 for b in boards if b.ep_square is not None)
    pawn_endings = [name for name in names if "P" in name]
    summary = [
        f"cutoff-syzygy vs python-chess {chess.__version__} (chess.syzygy), seed {args.seed}",
        f"positions: {n} random legal positions, {args.positions} of each of {len(names)} endings "
        f"(3 and 4 pieces, {len(pawn_endings)} with pawns), {ep} with an en passant square",
        f"WDL agree: {wdl_ok}/{n}",
        f"DTZ agree: {dtz_ok}/{n}",
        "ending: positions, en passant, WDL agree, DTZ agree, WDL loss/blessed/draw/cursed/win",
    ] + [
        f"{name}: {r[0]}, {r[1]} ep, WDL {r[2]}/{r[0]}, DTZ {r[3]}/{r[0]}, {'/'.join(map(str, r[4]))}"
        for name, r in per_ending.items()
    ] + [f"mismatch: {m}" for m in mismatches]
    text = "\n".join(summary) + "\n"
    sys.stdout.write(text)
    if result.stderr.strip():
        sys.stdout.write("prober stderr:\n" + result.stderr)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    return 0 if wdl_ok == n and dtz_ok == n else 1


if __name__ == "__main__":
    sys.exit(main())
