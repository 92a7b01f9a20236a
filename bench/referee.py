"""Referee speed: derive a game's state from its record (hash chain checked, events decoded,
every event replayed through the rules and the clock), against deriving only the board and the
clock from the same moves, in the same run.

The game: 19×19, 300 moves of a random legal game from a fixed seed (no eye filling), each
followed by a clock press under 55m+5x60s, then two passes, dead stones agreed, counted and
confirmed (about 610 events). The state is derived, not stored (ARCHITECTURE.md: cache a
derived value only when a benchmark shows the need).

    PYTHONPATH=src python bench/referee.py

The last line is ``ratio X`` = time to read and replay the JSON record ÷ time to replay the bare
board and clock (lower is better).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from weiqi.clock import Clock, TimeControl
from weiqi.referee.actors import GameActor
from weiqi.referee.events import AgreeDead, ClockAction, ClockEvent, Confirm, MarkDead, Move, Pass
from weiqi.referee.nigiri import ColorAssignment
from weiqi.referee.record import GameRecord, replay
from weiqi.rules.board import Board
from weiqi.rules.color import Color
from weiqi.rules.ruleset import Ruleset

SEED = 2026
MOVES = 300
ROUNDS = 5
TC = TimeControl.chinese(3600, 5, 60)


def random_moves() -> list[tuple[Color, int, float]]:
    """Legal moves that never fill a point all of whose neighbours are the mover's stones."""
    rng = random.Random(SEED)
    board = Board(19)
    moves: list[tuple[Color, int, float]] = []
    now = 10.0
    while len(moves) < MOVES:
        color = board.to_move
        candidates = [
            p
            for p in board.empty_points()
            if board.is_legal(color, p)
            and not all(board.color_at(q) is color for q in board.neighbours(p))
        ]
        now += round(rng.uniform(1, 59), 3)
        board.play(color, rng.choice(candidates))
        moves.append((color, board.history[-1][1] or 0, now))
    return moves


def build(moves: list[tuple[Color, int, float]]) -> GameRecord:
    ref = GameActor.referee("r1")
    rec = GameRecord.start(
        Ruleset.chinese(),
        ColorAssignment.by_organiser("Li", "Wang"),
        referee=ref,
        at=0,
        time_control=TC,
    )
    rec.append(ClockEvent(ClockAction.START), ref, 10)
    for color, point, now in moves:
        rec.append(Move(point), GameActor.player(color), now)
        rec.press_clock(color, now)
    now = moves[-1][2]
    for color in (Color.BLACK, Color.WHITE):
        now += 1
        rec.append(Pass(), GameActor.player(color), now)
        rec.press_clock(color, now)
    rec.append(MarkDead(()), GameActor.player(Color.BLACK), now + 1)
    rec.append(AgreeDead(), GameActor.player(Color.WHITE), now + 2)
    for actor in (GameActor.player(Color.BLACK), GameActor.player(Color.WHITE), ref):
        rec.append(Confirm(), actor, now + 3)
    return rec


def bare(moves: list[tuple[Color, int, float]]) -> None:
    board = Board(19)
    clock = Clock.new(TC).start(10)
    for color, point, now in moves:
        board.play(color, point)
        clock = clock.press(now, color)


def best(fn: Callable[[], object]) -> float:
    times = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    moves = random_moves()
    record = build(moves)
    text = record.to_json()
    reference = best(lambda: bare(moves))
    replayed = best(lambda: replay(record))
    loaded = best(lambda: GameRecord.from_json(text))
    print(f"events {len(record)}, JSON {len(text) // 1024} KiB")
    print(f"bare board + clock: {reference * 1000:.1f} ms")
    print(f"replay(record):     {replayed * 1000:.1f} ms ({replayed / reference:.1f}×)")
    print(f"from_json (checked): {loaded * 1000:.1f} ms")
    print(f"ratio {loaded / reference:.1f}")


if __name__ == "__main__":
    main()
