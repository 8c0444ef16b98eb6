#!/usr/bin/env python3
"""Independent match referee for UCI engines (python-chess based).

Plays a match between two UCI engine commands (the same binary is allowed),
keeps the clocks itself and adjudicates every game with python-chess, so
nothing the engines claim about the game state or their own time is trusted.

Example:
    python3 scripts/referee.py --engine1 /tmp/cutoff-match --engine2 /tmp/cutoff-match \
        --games 100 --tc 1+0.01 --concurrency 1 \
        --openings /work/shared/data/openings/8moves_v3_sample3000.epd \
        --pgn /tmp/match/stc.pgn --jsonl /tmp/match/stc.jsonl

Rules applied by the referee
  * Clocks: wall time of each engine.play() call is measured with
    time.monotonic() (this includes sending "position"/"go" and receiving
    "bestmove").  It is subtracted from the mover's clock; if the clock is then
    below -margin the mover loses on time (draw if the opponent has
    insufficient mating material).  Otherwise the increment is added.
    "Minimum clock" is the lowest value after subtraction, before increment.
  * A move that is not in board.legal_moves, a null move ("0000") or
    "bestmove (none)" while legal moves exist -> loss for the mover.
  * Engine process exit / EOF during a move -> loss (crash); malformed
    protocol -> loss (protocol error); no answer within clock + margin +
    --hang-grace seconds -> loss on time (hang), the engine is killed.
  * Game end: checkmate, stalemate, insufficient material (both sides),
    threefold repetition (position occurred 3 times), fifty-move rule
    (halfmove clock >= 100), optional ply cap (--max-plies, default 400) ->
    draw by adjudication.
  * "ucinewgame" + "isready" are sent before a game's clocks start, so the
    engines' new-game handling is not charged to their clocks.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import concurrent.futures
import datetime
import json
import logging
import math
import os
import random
import shlex
import signal
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from typing import Any, Deque, Dict, List, Optional, Tuple

try:
    import chess
    import chess.engine
    import chess.pgn
except ImportError:  # pragma: no cover
    sys.exit("python-chess is required: pip install chess")


# --------------------------------------------------------------------------
# Capturing the engines' I/O through python-chess' logger.
#
# Every SimpleEngine runs its own asyncio loop in a thread named
# "SimpleEngine (pid=N)"; python-chess logs every line sent (<<) and
# received (>>), stderr lines and parse errors from that thread, so records
# can be attributed to an engine process by thread name.
# --------------------------------------------------------------------------

class EngineIO:
    def __init__(self, maxlen: int = 60) -> None:
        self.lines: Deque[str] = collections.deque(maxlen=maxlen)
        self.stderr: List[str] = []
        self.problems: List[str] = []  # python-chess warnings/errors (bad info, unexpected output...)
        self.t0 = time.monotonic()

    def tail(self, n: int = 30) -> List[str]:
        return list(self.lines)[-n:]


class IOCapture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self._io_lock = threading.Lock()
        self.by_thread: Dict[str, EngineIO] = {}

    def get(self, thread_name: str) -> EngineIO:
        with self._io_lock:
            io = self.by_thread.get(thread_name)
            if io is None:
                io = self.by_thread[thread_name] = EngineIO()
            return io

    def drop(self, thread_name: str) -> None:
        with self._io_lock:
            self.by_thread.pop(thread_name, None)

    def emit(self, record: logging.LogRecord) -> None:
        try:
            name = record.threadName or ""
            if not name.startswith("SimpleEngine (pid="):
                return
            io = self.get(name)
            msg = record.getMessage()
            stamp = f"{time.monotonic() - io.t0:9.3f}"
            if record.levelno <= logging.DEBUG:
                # "<UciProtocol (pid=N)>: << go ..." -> keep the direction and text
                idx = msg.find(": ")
                io.lines.append(f"{stamp} {msg[idx + 2:] if idx >= 0 else msg}")
                return
            if "stderr >> " in msg:
                line = msg.split("stderr >> ", 1)[1]
                io.stderr.append(line)
                io.lines.append(f"{stamp} stderr >> {line}")
            else:
                if record.exc_info and record.exc_info[1] is not None:
                    msg += f" ({record.exc_info[1]!r})"
                io.problems.append(msg)
                io.lines.append(f"{stamp} [python-chess {record.levelname}] {msg}")
        except Exception:  # never let logging break the match
            pass


CAPTURE = IOCapture()
_engine_logger = logging.getLogger("chess.engine")
_engine_logger.setLevel(logging.DEBUG)
_engine_logger.addHandler(CAPTURE)
_engine_logger.propagate = False


# --------------------------------------------------------------------------
# Engine wrapper
# --------------------------------------------------------------------------

class EngineFailure(Exception):
    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


class Player:
    """One engine process (SimpleEngine) plus its captured I/O."""

    def __init__(self, cmd: List[str], options: Dict[str, str], label: str) -> None:
        self.cmd = cmd
        self.options = options
        self.label = label
        self.engine: Optional[chess.engine.SimpleEngine] = None
        self.io: Optional[EngineIO] = None
        self.thread_name = ""
        self.pid = -1
        self.game_key: object = None

    # -- lifecycle ---------------------------------------------------------
    def start(self) -> None:
        try:
            eng = chess.engine.SimpleEngine.popen_uci(self.cmd, timeout=30.0)
        except Exception as exc:  # noqa: BLE001
            raise EngineFailure("crash", f"failed to start/initialise {self.cmd}: {exc!r}")
        self.engine = eng
        self.pid = eng.transport.get_pid()
        self.thread_name = f"SimpleEngine (pid={self.pid})"
        self.io = CAPTURE.get(self.thread_name)
        opts: Dict[str, Any] = {}
        for name, value in self.options.items():
            if name not in eng.options:
                logging.getLogger("referee").warning("%s: engine has no option %r, ignored", self.label, name)
                continue
            opts[name] = value
        try:
            eng.configure(opts)
        except Exception as exc:  # noqa: BLE001
            raise EngineFailure("protocol error", f"configure({opts}) failed: {exc!r}")

    @property
    def name(self) -> str:
        assert self.engine is not None
        return self.engine.id.get("name", os.path.basename(self.cmd[0]))

    def alive(self) -> bool:
        return self.engine is not None and not self.engine.returncode.done()

    def exit_code(self) -> Optional[int]:
        if self.engine is not None and self.engine.returncode.done():
            try:
                return self.engine.returncode.result()
            except Exception:  # noqa: BLE001
                return None
        return None

    def stop(self, kill: bool = False) -> None:
        eng, self.engine = self.engine, None
        if eng is None:
            return
        if not kill:
            try:
                eng.quit()
            except Exception:  # noqa: BLE001
                kill = True
        if kill:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        try:
            eng.close()
        except Exception:  # noqa: BLE001
            pass
        CAPTURE.drop(self.thread_name)

    # -- per game ----------------------------------------------------------
    def new_game(self, key: object, timeout: float = 30.0) -> None:
        """ucinewgame + isready, before the clocks start (not charged)."""
        assert self.engine is not None
        proto = self.engine.protocol

        async def _ng() -> None:
            proto.game = key          # tell python-chess the game is already set up,
            proto._ucinewgame()       # so play() will not resend ucinewgame/isready
            await proto.ping()        # isready -> readyok

        fut = asyncio.run_coroutine_threadsafe(_ng(), proto.loop)
        try:
            fut.result(timeout)
        except concurrent.futures.TimeoutError:
            fut.cancel()
            raise EngineFailure("hang", f"no readyok within {timeout}s after ucinewgame")
        except chess.engine.EngineTerminatedError as exc:
            raise EngineFailure("crash", f"engine terminated before game start: {exc!r}")
        except Exception as exc:  # noqa: BLE001
            raise EngineFailure("protocol error", f"ucinewgame/isready failed: {exc!r}")
        self.game_key = key

    def play(self, board: chess.Board, limit: chess.engine.Limit, timeout: float
             ) -> Tuple[Optional[chess.engine.PlayResult], float, Optional[EngineFailure]]:
        """Returns (result, elapsed_seconds, failure)."""
        assert self.engine is not None
        proto = self.engine.protocol
        info = chess.engine.INFO_BASIC | chess.engine.INFO_SCORE | chess.engine.INFO_PV
        t0 = time.monotonic()
        fut = asyncio.run_coroutine_threadsafe(
            proto.play(board, limit, game=self.game_key, info=info), proto.loop)
        try:
            res = fut.result(timeout)
            return res, time.monotonic() - t0, None
        except concurrent.futures.TimeoutError:
            elapsed = time.monotonic() - t0
            fut.cancel()
            return None, elapsed, EngineFailure("hang", f"no bestmove after {elapsed:.3f}s")
        except chess.engine.EngineTerminatedError as exc:
            elapsed = time.monotonic() - t0
            return None, elapsed, EngineFailure("crash", f"{exc} (exit code {self.exit_code()})")
        except chess.engine.EngineError as exc:
            elapsed = time.monotonic() - t0
            text = str(exc)
            if isinstance(exc.__cause__, ValueError) or "uci" in text.lower():
                return None, elapsed, EngineFailure("illegal move", text)
            return None, elapsed, EngineFailure("protocol error", text)
        except Exception as exc:  # noqa: BLE001
            elapsed = time.monotonic() - t0
            return None, elapsed, EngineFailure("protocol error", f"{exc!r}")


# --------------------------------------------------------------------------
# Game
# --------------------------------------------------------------------------

@dataclass
class MoveRec:
    uci: str
    elapsed: float
    clock_after: float   # after subtracting elapsed, before increment
    depth: Optional[int]
    score: Optional[str]
    nodes: Optional[int]


@dataclass
class GameRec:
    index: int
    opening_index: int
    opening_fen: str
    white: str            # "engine1" / "engine2"
    black: str
    white_name: str = ""
    black_name: str = ""
    result: str = "*"
    termination: str = ""         # checkmate, stalemate, threefold repetition, ...
    pgn_termination: str = ""     # normal, time forfeit, rules infraction, adjudication, abandoned
    loser_side: Optional[str] = None  # "white"/"black" for forfeits
    plies: int = 0
    moves: List[MoveRec] = field(default_factory=list)
    min_clock: Dict[str, float] = field(default_factory=dict)
    final_clock: Dict[str, float] = field(default_factory=dict)
    detail: str = ""
    failure_info: Dict[str, Any] = field(default_factory=dict)
    stderr: Dict[str, List[str]] = field(default_factory=dict)
    problems: Dict[str, List[str]] = field(default_factory=dict)
    final_fen: str = ""
    duration: float = 0.0

    def score_engine1(self) -> Optional[float]:
        if self.result == "1-0":
            return 1.0 if self.white == "engine1" else 0.0
        if self.result == "0-1":
            return 0.0 if self.white == "engine1" else 1.0
        if self.result == "1/2-1/2":
            return 0.5
        return None


def fmt_score(score: Optional[chess.engine.PovScore]) -> Optional[str]:
    if score is None:
        return None
    rel = score.relative
    if rel.is_mate():
        return f"M{rel.mate()}"
    return f"{rel.score() / 100:+.2f}"


def play_game(cfg: argparse.Namespace, rec: GameRec, players: Dict[str, Player]) -> None:
    board = chess.Board(rec.opening_fen)
    base, inc = cfg.base, cfg.inc
    clock = {chess.WHITE: base, chess.BLACK: base}
    min_clock = {chess.WHITE: base, chess.BLACK: base}
    side_player = {chess.WHITE: players[rec.white], chess.BLACK: players[rec.black]}
    side_name = {chess.WHITE: "white", chess.BLACK: "black"}
    margin = cfg.margin_ms / 1000.0
    t_game = time.monotonic()

    def finish(result: str, term: str, pgn_term: str, detail: str = "") -> None:
        rec.result, rec.termination, rec.pgn_termination, rec.detail = result, term, pgn_term, detail

    def forfeit(side: chess.Color, term: str, pgn_term: str, detail: str) -> None:
        # Loss for `side`, except on time when the opponent cannot mate at all.
        rec.loser_side = side_name[side]
        if pgn_term == "time forfeit" and board.has_insufficient_material(not side):
            finish("1/2-1/2", term + " (opponent has insufficient material: draw)", pgn_term, detail)
        else:
            finish("0-1" if side == chess.WHITE else "1-0", term, pgn_term, detail)

    def failure_snapshot(side: chess.Color, extra: Dict[str, Any]) -> None:
        p = side_player[side]
        rec.failure_info = {
            "side": side_name[side],
            "engine": rec.white if side == chess.WHITE else rec.black,
            "fen_before_move": board.fen(),
            "moves_uci": [m.uci for m in rec.moves],
            "clock_white": round(clock[chess.WHITE], 4),
            "clock_black": round(clock[chess.BLACK], 4),
            "exit_code": p.exit_code(),
            "last_io": p.io.tail(40) if p.io else [],
            **extra,
        }

    # ucinewgame + isready for both engines before the clocks start.
    for side in (chess.WHITE, chess.BLACK):
        p = side_player[side]
        try:
            p.new_game(key=("game", rec.index))
        except EngineFailure as f:
            failure_snapshot(side, {"failure": f.kind, "message": f.detail})
            forfeit(side, f.kind + " (before first move)", "abandoned", f.detail)
            rec.duration = time.monotonic() - t_game
            return

    while True:
        # --- adjudication of the current position ----------------------
        if board.is_checkmate():
            finish("0-1" if board.turn == chess.WHITE else "1-0", "checkmate", "normal")
            break
        if board.is_stalemate():
            finish("1/2-1/2", "stalemate", "normal")
            break
        if board.is_insufficient_material():
            finish("1/2-1/2", "insufficient material", "normal")
            break
        if board.is_repetition(3):
            finish("1/2-1/2", "threefold repetition", "normal")
            break
        if board.halfmove_clock >= 100:
            finish("1/2-1/2", "fifty-move rule", "normal")
            break
        if cfg.max_plies and rec.plies >= cfg.max_plies:
            finish("1/2-1/2", f"ply cap ({cfg.max_plies})", "adjudication")
            break

        side = board.turn
        p = side_player[side]
        limit = chess.engine.Limit(white_clock=max(clock[chess.WHITE], 0.001),
                                   black_clock=max(clock[chess.BLACK], 0.001),
                                   white_inc=inc, black_inc=inc)
        hard_timeout = max(clock[side], 0.0) + margin + cfg.hang_grace
        res, elapsed, fail = p.play(board, limit, hard_timeout)
        clock_before = clock[side]
        clock[side] -= elapsed
        min_clock[side] = min(min_clock[side], clock[side])

        if fail is not None:
            extra = {"failure": fail.kind, "message": fail.detail,
                     "elapsed": round(elapsed, 4), "clock_before_move": round(clock_before, 4)}
            failure_snapshot(side, extra)
            if fail.kind == "hang":
                forfeit(side, "time forfeit (hang)", "time forfeit", fail.detail)
                p.stop(kill=True)
            elif fail.kind == "illegal move":
                forfeit(side, "illegal move", "rules infraction", fail.detail)
            elif fail.kind == "crash":
                forfeit(side, "crash", "abandoned", fail.detail)
                p.stop(kill=True)
            else:
                forfeit(side, "protocol error", "abandoned", fail.detail)
                p.stop(kill=True)
            break

        assert res is not None
        move = res.move
        if clock[side] < -margin:
            failure_snapshot(side, {"failure": "time forfeit", "elapsed": round(elapsed, 4),
                                    "clock_before_move": round(clock_before, 4),
                                    "late_move": move.uci() if move else None})
            forfeit(side, "time forfeit", "time forfeit",
                    f"used {elapsed * 1000:.1f} ms with {clock_before * 1000:.1f} ms on the clock "
                    f"(overstep {-clock[side] * 1000:.1f} ms, move {move.uci() if move else None})")
            break

        if move is None or not move or move not in board.legal_moves:
            failure_snapshot(side, {"failure": "illegal move", "elapsed": round(elapsed, 4),
                                    "clock_before_move": round(clock_before, 4),
                                    "bestmove": move.uci() if move is not None else "(none)"})
            forfeit(side, "illegal move", "rules infraction",
                    f"bestmove {move.uci() if move is not None else '(none)'} in {board.fen()}")
            break

        info = res.info or {}
        rec.moves.append(MoveRec(
            uci=move.uci(), elapsed=round(elapsed, 4), clock_after=round(clock[side], 4),
            depth=info.get("depth"), score=fmt_score(info.get("score")), nodes=info.get("nodes")))
        board.push(move)
        rec.plies += 1
        clock[side] += inc

    rec.min_clock = {"white": round(min_clock[chess.WHITE], 4), "black": round(min_clock[chess.BLACK], 4)}
    rec.final_clock = {"white": round(clock[chess.WHITE], 4), "black": round(clock[chess.BLACK], 4)}
    rec.final_fen = board.fen()
    rec.duration = time.monotonic() - t_game
    for role in ("engine1", "engine2"):
        io = players[role].io
        if io is not None:
            rec.stderr[role] = list(io.stderr)
            rec.problems[role] = list(io.problems)
            io.stderr.clear()
            io.problems.clear()


def game_to_pgn(cfg: argparse.Namespace, rec: GameRec) -> chess.pgn.Game:
    board = chess.Board(rec.opening_fen)
    game = chess.pgn.Game()
    game.setup(board)  # sets FEN + SetUp headers
    h = game.headers
    h["Event"] = cfg.event
    h["Site"] = os.uname().nodename
    h["Date"] = datetime.date.today().strftime("%Y.%m.%d")
    h["Round"] = str(rec.index + 1)
    h["White"] = rec.white_name
    h["Black"] = rec.black_name
    h["Result"] = rec.result
    h["TimeControl"] = cfg.tc_str
    h["Termination"] = rec.pgn_termination
    h["TerminationDetails"] = rec.termination + (f": {rec.detail}" if rec.detail else "")
    h["PlyCount"] = str(rec.plies)
    h["Opening"] = f"#{rec.opening_index} of {os.path.basename(cfg.openings)} (seed {cfg.seed})"
    h["MinClockWhite"] = f"{rec.min_clock.get('white', float('nan')):.3f}"
    h["MinClockBlack"] = f"{rec.min_clock.get('black', float('nan')):.3f}"
    node: chess.pgn.GameNode = game
    for m in rec.moves:
        parts = []
        if m.score is not None or m.depth is not None:
            parts.append(f"{m.score or '?'}/{m.depth if m.depth is not None else '?'}")
        parts.append(f"{m.elapsed:.3f}s")
        parts.append(f"clk={m.clock_after:.3f}")
        node = node.add_variation(chess.Move.from_uci(m.uci), comment=" ".join(parts))
    if rec.detail:
        node.comment = (node.comment + " | " if node.comment else "") + f"{rec.termination}: {rec.detail}"
    else:
        node.comment = (node.comment + " | " if node.comment else "") + rec.termination
    return game


# --------------------------------------------------------------------------
# Statistics
# --------------------------------------------------------------------------

def elo_from_score(p: float) -> float:
    if p <= 0.0:
        return -math.inf
    if p >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / p - 1.0)


def elo_summary(scores: List[float]) -> Tuple[float, float, float, float, float]:
    """Returns (score, elo, elo_low, elo_high, error) with a 95% interval from
    the per-game score variance (normal approximation, logistic Elo model)."""
    n = len(scores)
    if n == 0:
        return 0.5, 0.0, -math.inf, math.inf, math.inf
    mu = sum(scores) / n
    var = sum((s - mu) ** 2 for s in scores) / n
    se = math.sqrt(var / n)
    lo = elo_from_score(max(mu - 1.959964 * se, 0.0))
    hi = elo_from_score(min(mu + 1.959964 * se, 1.0))
    err = (hi - lo) / 2.0 if math.isfinite(hi - lo) else math.inf
    return mu, elo_from_score(mu) + 0.0, lo, hi, err


# --------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------

def load_openings(path: str) -> List[str]:
    fens = []
    with open(path) as fh:
        for lineno, line in enumerate(fh, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            board = None
            toks = line.split()
            try:
                if len(toks) >= 6 and toks[4].isdigit() and toks[5].isdigit():
                    board = chess.Board(" ".join(toks[:6]))
                else:
                    board = chess.Board()
                    board.set_epd(line)
            except ValueError as exc:
                print(f"warning: {path}:{lineno}: bad opening ({exc}), skipped", file=sys.stderr)
                continue
            if not board.is_valid() or board.is_game_over():
                print(f"warning: {path}:{lineno}: invalid/finished position, skipped", file=sys.stderr)
                continue
            fens.append(board.fen())
    if not fens:
        sys.exit(f"no usable openings in {path}")
    return fens


def parse_options(items: List[str]) -> Dict[str, str]:
    out: Dict[str, str] = {}
    for it in items or []:
        if "=" not in it:
            sys.exit(f"--option expects NAME=VALUE, got {it!r}")
        k, v = it.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def parse_tc(tc: str) -> Tuple[float, float]:
    if "+" in tc:
        b, i = tc.split("+", 1)
    else:
        b, i = tc, "0"
    return float(b), float(i)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine1", required=True, help="command line of engine 1")
    ap.add_argument("--engine2", required=True, help="command line of engine 2")
    ap.add_argument("--name1"), ap.add_argument("--name2")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--tc", default="10+0.1", help="base+increment in seconds, e.g. 10+0.1")
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--openings", required=True, help="EPD/FEN file, one position per line")
    ap.add_argument("--seed", type=int, default=1, help="seed for shuffling the openings")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                    help="UCI option for both engines (repeatable); defaults Hash=16 Threads=1")
    ap.add_argument("--option1", action="append", default=[], metavar="NAME=VALUE", help="engine1 only")
    ap.add_argument("--option2", action="append", default=[], metavar="NAME=VALUE", help="engine2 only")
    ap.add_argument("--pgn", help="write games to this PGN file")
    ap.add_argument("--jsonl", help="write one JSON record per game to this file")
    ap.add_argument("--margin-ms", type=float, default=0.0, help="time-forfeit tolerance (ms), default 0")
    ap.add_argument("--hang-grace", type=float, default=10.0,
                    help="seconds beyond clock+margin before an unresponsive engine is killed")
    ap.add_argument("--max-plies", type=int, default=400, help="ply cap -> draw (0 = off)")
    ap.add_argument("--restart", action="store_true",
                    help="fresh engine processes for every game (default: reuse per worker + ucinewgame)")
    ap.add_argument("--event", default="referee match")
    cfg = ap.parse_args()

    cfg.base, cfg.inc = parse_tc(cfg.tc)
    cfg.tc_str = cfg.tc
    common = {"Hash": "16", "Threads": "1"}
    common.update(parse_options(cfg.option))
    opts = {"engine1": {**common, **parse_options(cfg.option1)},
            "engine2": {**common, **parse_options(cfg.option2)}}
    cmds = {"engine1": shlex.split(cfg.engine1), "engine2": shlex.split(cfg.engine2)}

    openings = load_openings(cfg.openings)
    order = list(range(len(openings)))
    random.Random(cfg.seed).shuffle(order)
    n_pairs = (cfg.games + 1) // 2
    if n_pairs > len(order):
        print(f"warning: only {len(order)} openings for {n_pairs} pairs; openings will repeat", file=sys.stderr)

    # Engine names (from "id name" unless given).
    names = {"engine1": cfg.name1, "engine2": cfg.name2}
    for role in ("engine1", "engine2"):
        if not names[role]:
            p = Player(cmds[role], {}, role)
            p.start()
            names[role] = p.name
            p.stop()
    if names["engine1"] == names["engine2"]:
        names = {"engine1": names["engine1"] + " #1", "engine2": names["engine2"] + " #2"}

    jobs: List[GameRec] = []
    for i in range(cfg.games):
        oi = order[(i // 2) % len(order)]
        e1_white = (i % 2 == 0)
        rec = GameRec(index=i, opening_index=oi, opening_fen=openings[oi],
                      white="engine1" if e1_white else "engine2",
                      black="engine2" if e1_white else "engine1")
        rec.white_name, rec.black_name = names[rec.white], names[rec.black]
        jobs.append(rec)

    print(f"# referee: {names['engine1']} ({cfg.engine1}) vs {names['engine2']} ({cfg.engine2})")
    print(f"# games={cfg.games} tc={cfg.tc} concurrency={cfg.concurrency} openings={cfg.openings} "
          f"seed={cfg.seed} margin={cfg.margin_ms}ms max_plies={cfg.max_plies} "
          f"reuse={'no' if cfg.restart else 'yes'}")
    print(f"# options engine1={opts['engine1']} engine2={opts['engine2']}")
    print(f"# python-chess {chess.__version__}, started {datetime.datetime.now().isoformat(timespec='seconds')}")
    sys.stdout.flush()

    for path in (cfg.pgn, cfg.jsonl):
        if path:
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
            open(path, "w").close()

    out_lock = threading.Lock()
    done: List[GameRec] = []
    job_lock = threading.Lock()
    job_iter = iter(jobs)
    stop_flag = threading.Event()

    def next_job() -> Optional[GameRec]:
        with job_lock:
            return next(job_iter, None)

    def report(rec: GameRec) -> None:
        with out_lock:
            done.append(rec)
            scores = [g.score_engine1() for g in done if g.score_engine1() is not None]
            w = sum(1 for s in scores if s == 1.0)
            d = sum(1 for s in scores if s == 0.5)
            l = sum(1 for s in scores if s == 0.0)
            mc = rec.min_clock or {}
            print(f"Game {len(done):3d}/{cfg.games} (#{rec.index + 1}, opening {rec.opening_index}) "
                  f"{rec.white_name} vs {rec.black_name}: {rec.result} {{{rec.termination}}} "
                  f"plies={rec.plies} minclk W={mc.get('white', float('nan')):.3f}s "
                  f"B={mc.get('black', float('nan')):.3f}s dur={rec.duration:.1f}s | "
                  f"engine1 +{w} ={d} -{l}", flush=True)
            if rec.detail:
                print(f"    detail: {rec.detail}", flush=True)
            if rec.failure_info:
                print("    failure: " + json.dumps({k: v for k, v in rec.failure_info.items() if k != 'last_io'}),
                      flush=True)
                print("    last engine I/O:", flush=True)
                for line in rec.failure_info.get("last_io", []):
                    print("      " + line, flush=True)
            for role in ("engine1", "engine2"):
                for line in rec.stderr.get(role, [])[:20]:
                    print(f"    {role} stderr: {line}", flush=True)
                for line in rec.problems.get(role, [])[:20]:
                    print(f"    {role} python-chess: {line}", flush=True)
            if cfg.pgn:
                with open(cfg.pgn, "a") as fh:
                    print(game_to_pgn(cfg, rec), file=fh, end="\n\n")
            if cfg.jsonl:
                with open(cfg.jsonl, "a") as fh:
                    d_ = rec.__dict__.copy()
                    d_["moves"] = [m.__dict__ for m in rec.moves]
                    fh.write(json.dumps(d_) + "\n")

    def worker(wid: int) -> None:
        players: Dict[str, Player] = {}
        try:
            while not stop_flag.is_set():
                rec = next_job()
                if rec is None:
                    break
                # (Re)start engines as needed.
                startup_fail = None
                for role in ("engine1", "engine2"):
                    p = players.get(role)
                    if p is not None and (cfg.restart or not p.alive()):
                        p.stop(kill=not p.alive())
                        p = None
                    if p is None:
                        p = Player(cmds[role], opts[role], role)
                        try:
                            p.start()
                        except EngineFailure as f:
                            startup_fail = (role, f)
                            p.stop(kill=True)
                            break
                        players[role] = p
                if startup_fail is not None:
                    role, f = startup_fail
                    rec.termination, rec.pgn_termination, rec.detail = f.kind + " (startup)", "abandoned", f.detail
                    rec.loser_side = "white" if rec.white == role else "black"
                    rec.result = "0-1" if rec.loser_side == "white" else "1-0"
                    rec.failure_info = {"engine": role, "failure": f.kind, "message": f.detail}
                    players.pop(role, None)
                    report(rec)
                    continue
                try:
                    play_game(cfg, rec, players)
                except Exception as exc:  # referee bug: record and continue
                    rec.result, rec.termination = "*", "referee error"
                    rec.detail = f"{exc!r}\n{traceback.format_exc()}"
                report(rec)
                for role in list(players):
                    if players[role].engine is None:
                        players.pop(role)
        finally:
            for p in players.values():
                p.stop(kill=not p.alive())

    t_start = time.monotonic()
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=cfg.concurrency) as ex:
            futs = [ex.submit(worker, w) for w in range(cfg.concurrency)]
            for f in futs:
                while True:
                    try:
                        f.result(timeout=1.0)
                        break
                    except concurrent.futures.TimeoutError:
                        continue
    except KeyboardInterrupt:
        stop_flag.set()
        print("\n# interrupted: finishing running games...", flush=True)

    print_summary(cfg, names, done, time.monotonic() - t_start)
    return 0


def print_summary(cfg: argparse.Namespace, names: Dict[str, str], done: List[GameRec], wall: float) -> None:
    done = sorted(done, key=lambda g: g.index)
    scored = [g for g in done if g.score_engine1() is not None]
    scores = [g.score_engine1() for g in scored]
    w = sum(1 for s in scores if s == 1.0)
    d = sum(1 for s in scores if s == 0.5)
    l = sum(1 for s in scores if s == 0.0)
    mu, elo, lo, hi, err = elo_summary(scores)

    def cnt(pred) -> int:
        return sum(1 for g in done if pred(g))

    print()
    print("=" * 72)
    print(f"Summary: {names['engine1']} (engine1) vs {names['engine2']} (engine2), tc {cfg.tc}, "
          f"{len(done)} games in {wall / 60:.1f} min")
    print(f"  engine1 W/D/L: {w}/{d}/{l}  (white results: 1-0 {cnt(lambda g: g.result == '1-0')}, "
          f"0-1 {cnt(lambda g: g.result == '0-1')}, draws {cnt(lambda g: g.result == '1/2-1/2')})")
    print(f"  score: {100 * mu:.1f}%  Elo diff: {elo:+.1f} +/- {err:.1f} (95%: [{lo:+.1f}, {hi:+.1f}])")
    if scored:
        print(f"  draw ratio: {100 * d / len(scored):.1f}%")

    terms = collections.Counter(g.termination for g in done)
    print("  terminations:")
    for t, c in terms.most_common():
        print(f"    {t:45s} {c}")

    def is_kind(g: GameRec, k: str) -> bool:
        return g.termination.startswith(k)

    tf = [g for g in done if is_kind(g, "time forfeit")]
    cr = [g for g in done if is_kind(g, "crash") or is_kind(g, "protocol error")]
    il = [g for g in done if is_kind(g, "illegal move")]
    rf = [g for g in done if g.termination == "referee error"]
    print(f"  time forfeits: {len(tf)}   crashes/protocol errors: {len(cr)}   illegal moves: {len(il)}"
          f"   referee errors: {len(rf)}")
    for label, lst in (("time forfeit", tf), ("crash", cr), ("illegal", il)):
        for g in lst:
            loser = g.failure_info.get("engine", "?")
            print(f"    {label}: game #{g.index + 1} ({loser} as {g.loser_side}) {g.detail}")

    # Minimum clocks.
    best = None
    for g in done:
        for side, v in (g.min_clock or {}).items():
            role = g.white if side == "white" else g.black
            if best is None or v < best[0]:
                best = (v, g.index + 1, side, role)
    per_role: Dict[str, float] = {}
    for g in done:
        for side, v in (g.min_clock or {}).items():
            role = g.white if side == "white" else g.black
            per_role[role] = min(per_role.get(role, math.inf), v)
    if best:
        print(f"  minimum clock remaining: {best[0] * 1000:.1f} ms (game #{best[1]}, {best[2]}, {best[3]}); "
              f"engine1 {per_role.get('engine1', math.nan) * 1000:.1f} ms, "
              f"engine2 {per_role.get('engine2', math.nan) * 1000:.1f} ms")
    mins = sorted(v for g in done for v in (g.min_clock or {}).values())
    if mins:
        k = max(1, len(mins) // 20)
        print(f"  min-clock distribution (per side per game): lowest {', '.join(f'{v * 1000:.0f}' for v in mins[:5])} ms; "
              f"5th pct {mins[k - 1] * 1000:.0f} ms; median {mins[len(mins) // 2] * 1000:.0f} ms")

    # Move timing statistics.
    el = [m.elapsed for g in done for m in g.moves]
    if el:
        el_sorted = sorted(el)
        print(f"  moves: {len(el)}, time/move mean {1000 * sum(el) / len(el):.1f} ms, "
              f"median {1000 * el_sorted[len(el) // 2]:.1f} ms, max {1000 * el_sorted[-1]:.1f} ms")
    depths = [m.depth for g in done for m in g.moves if m.depth is not None]
    if depths:
        print(f"  depth/move mean {sum(depths) / len(depths):.1f}")
    plies = [g.plies for g in done]
    if plies:
        print(f"  plies/game: mean {sum(plies) / len(plies):.1f}, min {min(plies)}, max {max(plies)}")

    # Suspicious things.
    notes = []
    cap = [g for g in done if g.termination.startswith("ply cap")]
    if cap:
        notes.append(f"{len(cap)} games hit the ply cap: " + ", ".join(f"#{g.index + 1}" for g in cap))
    short = [g for g in done if g.plies < 20]
    if short:
        notes.append("short games (<20 plies): " + ", ".join(
            f"#{g.index + 1} {g.result} {g.termination} ({g.plies} plies)" for g in short))
    se = {r: sum(len(g.stderr.get(r, [])) for g in done) for r in ("engine1", "engine2")}
    if any(se.values()):
        notes.append(f"engine stderr lines: {se}")
    pr = {r: sum(len(g.problems.get(r, [])) for g in done) for r in ("engine1", "engine2")}
    if any(pr.values()):
        samples = [p for g in done for r in ("engine1", "engine2") for p in g.problems.get(r, [])][:5]
        notes.append(f"python-chess parse warnings/errors: {pr}; e.g. {samples}")
    print("  notes: " + ("; ".join(notes) if notes else "none"))
    if cfg.pgn:
        print(f"  pgn: {cfg.pgn}")
    if cfg.jsonl:
        print(f"  jsonl: {cfg.jsonl}")
    print("=" * 72, flush=True)


if __name__ == "__main__":
    sys.exit(main())
