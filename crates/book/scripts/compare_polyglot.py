#!/usr/bin/env python3
"""Checks cutoff-book against Debian's polyglot and python-chess on a book made from games.

1. Writes a PGN: four famous games (typed in here, every move checked legal by python-chess)
   and N seeded pseudo-random games biased towards castling, en passant and promotions.
2. Builds a book with `polyglot make-book -pgn games.pgn -bin book.bin -min-game 1`.
3. Lists every position of every game (FEN with the en passant square after each double push),
   probes the book with python-chess (`chess.polyglot`, zobrist_hash + find_all) and with
   `cargo run -p cutoff-book --example book_probe`, and compares key and moves line by line; also
   checks that every key make-book wrote is found by cutoff-book from some game position.

Usage: python3 compare_polyglot.py WORKDIR [RANDOM_GAMES]     (needs `pip install chess`)
"""

import collections
import io
import os
import random
import subprocess
import sys

import chess
import chess.pgn
import chess.polyglot

FAMOUS = [
    ("Anderssen", "Kieseritzky", "London 1851", "1-0",
     "e4 e5 f4 exf4 Bc4 Qh4+ Kf1 b5 Bxb5 Nf6 Nf3 Qh6 d3 Nh5 Nh4 Qg5 Nf5 c6 g4 Nf6 Rg1 cxb5 h4 Qg6 "
     "h5 Qg5 Qf3 Ng8 Bxf4 Qf6 Nc3 Bc5 Nd5 Qxb2 Bd6 Bxg1 e5 Qxa1+ Ke2 Na6 Nxg7+ Kd8 Qf6+ Nxf6 Be7#"),
    ("Anderssen", "Dufresne", "Berlin 1852", "1-0",
     "e4 e5 Nf3 Nc6 Bc4 Bc5 b4 Bxb4 c3 Ba5 d4 exd4 O-O d3 Qb3 Qf6 e5 Qg6 Re1 Nge7 Ba3 b5 Qxb5 Rb8 "
     "Qa4 Bb6 Nbd2 Bb7 Ne4 Qf5 Bxd3 Qh5 Nf6+ gxf6 exf6 Rg8 Rad1 Qxf3 Rxe7+ Nxe7 Qxd7+ Kxd7 Bf5+ Ke8 "
     "Bd7+ Kf8 Bxe7#"),
    ("Morphy", "Duke of Brunswick and Count Isouard", "Paris 1858", "1-0",
     "e4 e5 Nf3 d6 d4 Bg4 dxe5 Bxf3 Qxf3 dxe5 Bc4 Nf6 Qb3 Qe7 Nc3 c6 Bg5 b5 Nxb5 cxb5 Bxb5+ Nbd7 "
     "O-O-O Rd8 Rxd7 Rxd7 Rd1 Qe6 Bxd7+ Nxd7 Qb8+ Nxb8 Rd8#"),
    ("Byrne", "Fischer", "New York 1956", "0-1",
     "Nf3 Nf6 c4 g6 Nc3 Bg7 d4 O-O Bf4 d5 Qb3 dxc4 Qxc4 c6 e4 Nbd7 Rd1 Nb6 Qc5 Bg4 Bg5 Na4 Qa3 Nxc3 "
     "bxc3 Nxe4 Bxe7 Qb6 Bc4 Nxc3 Bc5 Rfe8+ Kf1 Be6 Bxb6 Bxc4+ Kg1 Ne2+ Kf1 Nxd4+ Kg1 Ne2+ Kf1 Nc3+ "
     "Kg1 axb6 Qb4 Ra4 Qxb6 Nxd1 h3 Rxa2 Kh2 Nxf2 Re1 Rxe1 Qd8+ Bf8 Nxe1 Bd5 Nf3 Ne4 Qb8 b5 h4 h5 "
     "Ne5 Kg7 Kg1 Bc5+ Kf1 Ng3+ Ke1 Bb4+ Kd1 Bb3+ Kc1 Ne2+ Kb1 Nc3+ Kc1 Rc2#"),
]


def famous_games():
    for white, black, event, result, sans in FAMOUS:
        game = chess.pgn.Game()
        game.headers.update(White=white, Black=black, Event=event, Result=result)
        node, board = game, chess.Board()
        for san in sans.split():
            move = board.parse_san(san)  # raises on a typo
            board.push(move)
            node = node.add_variation(move)
        assert board.is_checkmate(), event
        yield game


def random_games(n, seed=20240601):
    rng = random.Random(seed)
    for i in range(n):
        board = chess.Board()
        # Few distinct openings, so that many positions repeat across games and get several moves.
        for _ in range(rng.randrange(200)):
            moves = list(board.legal_moves)
            if not moves:
                break
            castles = [m for m in moves if board.is_castling(m)]
            eps = [m for m in moves if board.is_en_passant(m)]
            promos = [m for m in moves if m.promotion]
            doubles = [m for m in moves if board.piece_type_at(m.from_square) == chess.PAWN
                       and abs(m.to_square - m.from_square) == 16]
            if castles and rng.random() < 0.5:
                move = rng.choice(castles)
            elif eps and rng.random() < 0.8:
                move = rng.choice(eps)
            elif promos and rng.random() < 0.8:
                move = rng.choice(promos)
            elif doubles and rng.random() < 0.3:
                move = rng.choice(doubles)
            else:
                move = rng.choice(moves[: max(1, len(moves) // (1 + (board.ply() < 6) * 3))])
            board.push(move)
        game = chess.pgn.Game.from_board(board)
        game.headers.update(Event=f"random {i}", White="r", Black="r",
                            Result=rng.choice(["1-0", "0-1", "1/2-1/2", "1-0"]))
        yield game


def main():
    work = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    os.makedirs(work, exist_ok=True)
    pgn, book, fens_path = (os.path.join(work, f) for f in ("games.pgn", "book.bin", "fens.txt"))
    games = list(famous_games()) + list(random_games(n))
    with open(pgn, "w") as f:
        for game in games:
            print(game, file=f, end="\n\n")
    subprocess.run(["/usr/games/polyglot", "make-book", "-pgn", pgn, "-bin", book, "-min-game", "1"],
                   check=True, stdout=subprocess.DEVNULL)

    fens = []
    seen = set()
    for game in games:
        board = game.board()
        for move in [None] + list(game.mainline_moves()):
            if move:
                board.push(move)
            fen = board.fen(en_passant="fen")
            if fen not in seen:
                seen.add(fen)
                fens.append(fen)
    with open(fens_path, "w") as f:
        f.write("\n".join(fens) + "\n")

    expected = []
    stats = collections.Counter()
    with chess.polyglot.open_reader(book) as reader:
        stats["book entries"] = len(reader)
        for fen in fens:
            board = chess.Board(fen)
            weights = collections.Counter()
            for entry in reader.find_all(board, minimum_weight=0):
                weights[entry.move.uci()] += entry.weight
                stats["book moves"] += 1
                stats["castling"] += board.is_castling(entry.move)
                stats["en passant"] += board.is_en_passant(entry.move)
                stats["promotions"] += bool(entry.move.promotion)
            stats["positions in book"] += bool(weights)
            if weights and chess.polyglot.ZobristHasher(chess.polyglot.POLYGLOT_RANDOM_ARRAY).hash_ep_square(board):
                stats["in book with en passant file hashed"] += 1
            moves = " ".join(sorted(f"{m}:{w}" for m, w in weights.items()))
            expected.append(f"{chess.polyglot.zobrist_hash(board):016x} {moves}")

    with open(fens_path) as f:
        got = subprocess.run(["nice", "-n", "19", "cargo", "run", "-q", "--release", "-p", "cutoff-book",
                              "--example", "book_probe", "--", book], stdin=f, capture_output=True, text=True,
                             check=True).stdout.splitlines()
    # Every key make-book wrote (Polyglot's own C hashing of the game positions) must be one that
    # cutoff-book computes for some game position and finds moves for.
    book_keys = {e.key for e in chess.polyglot.open_reader(book)}
    found_keys = {int(line.split()[0], 16) for line in got if len(line.split()) > 1}
    stats["distinct book keys"] = len(book_keys)
    stats["book keys cutoff-book finds"] = len(book_keys & found_keys)
    mismatches = [(fen, e, g) for fen, e, g in zip(fens, expected, got) if e.strip() != g.strip()]
    print(f"games {len(games)}, positions {len(fens)}, "
          + ", ".join(f"{k} {v}" for k, v in stats.items()))
    print(f"lines compared {min(len(expected), len(got))} of {len(fens)}, mismatches {len(mismatches)}")
    for fen, e, g in mismatches[:10]:
        print(f"  {fen}\n    python-chess: {e}\n    cutoff-book:  {g}")
    ok = not mismatches and len(got) == len(fens) and book_keys == found_keys
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
