"""Board speed: replay a fixed set of 19×19 games through our board (full legality: suicide,
ko, situational superko with verification) and through sgfmill's ``Board.play`` (no ko, no
suicide check) in the same run; then random playouts on 19×19.

Games: the 19×19 GNU Go self-play games of ``bench/data/gnugo19.jsonl`` or
``tests/data/gnugo/selfplay.jsonl`` (``bench/make_gnugo_games.py``) or ``--games FILE`` when
present, else ``GAMES`` random legal games that never fill an eye, played to
two passes from a fixed seed. The first ``OPENING_MOVES`` moves of the random games are also
timed on their own: their chains are small, which suits sgfmill's flood fill best.

    PYTHONPATH=src python bench/board.py

The last line is ``ratio X`` = our moves/s ÷ sgfmill's moves/s.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sgfmill import boards

from weiqi.rules.board import Board
from weiqi.rules.color import Color
from weiqi.rules.playout import random_game, random_move
from weiqi.rules.vertex import parse_vertex

SEED = 2026
GAMES = 40
OPENING_MOVES = 250
ROUNDS = 5
MIN_MOVES_PER_ROUND = 20_000  # a small corpus is replayed several times per round
SIZE = 19
CORPORA = ("bench/data/gnugo19.jsonl", "tests/data/gnugo/selfplay.jsonl")
ROOT = Path(__file__).resolve().parent.parent

Move = tuple[Color, int | None]


def _gnugo_games(paths: list[Path]) -> tuple[str, list[list[Move]]]:
    """The 19×19 games of the first GNU Go self-play corpus found (JSON lines of
    :class:`weiqi.engines.selfplay.SelfPlayGame`)."""
    from weiqi.engines.selfplay import load_games

    for path in paths:
        if not path.is_file():
            continue
        games = []
        for game in load_games(path):
            if game.size != SIZE:
                continue
            games.append(
                [(color, parse_vertex(vertex, SIZE)) for color, vertex in game.colored_moves()]
            )
        if games:
            where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
            return f"{len(games)} GNU Go self-play games from {where}", games
    return "", []


def _random_games() -> list[list[Move]]:
    games = []
    for i in range(GAMES):
        board = Board(SIZE)
        moves = random_game(SIZE, seed=SEED + i, board=board)
        colors = [Color.BLACK if k % 2 == 0 else Color.WHITE for k in range(len(moves))]
        games.append(list(zip(colors, moves, strict=True)))
    return games


def replay_ours(games: list[list[Move]]) -> None:
    for moves in games:
        board = Board(SIZE)
        for color, point in moves:
            if point is None:
                board.pass_(color)
            else:
                board.play(color, point)


def replay_sgfmill(games: list[list[tuple[str, int | None]]]) -> None:
    for moves in games:
        board = boards.Board(SIZE)
        for color, point in moves:
            if point is not None:
                board.play(point // SIZE, point % SIZE, color)


def _timed(run: Callable[[Any], None], games: Any) -> float:
    start = time.perf_counter()
    run(games)
    return time.perf_counter() - start


def playouts(seconds: float = 2.0) -> tuple[int, float]:
    """Random playouts from the empty board to two passes; (moves, elapsed)."""
    rng = random.Random(SEED)
    moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        board = Board(SIZE)
        passes = 0
        while passes < 2:
            point = random_move(board, rng)
            board.move(board.to_move, point)
            moves += 1
            passes = passes + 1 if point is None else 0
    return moves, time.perf_counter() - start


def compare(games: list[list[Move]]) -> tuple[int, float, float]:
    """(moves, our moves/s, sgfmill's moves/s); each side's best of ``ROUNDS`` rounds."""
    repeat = max(1, -(-MIN_MOVES_PER_ROUND // sum(len(g) for g in games)))
    total = sum(len(g) for g in games)
    games = games * repeat
    mill_games = [[(c.value.lower(), p) for c, p in g] for g in games]
    # Rounds alternate between the two boards so that a change in the machine's load hits both.
    ours = theirs = float("inf")
    for _ in range(ROUNDS):
        ours = min(ours, _timed(replay_ours, games))
        theirs = min(theirs, _timed(replay_sgfmill, mill_games))
    # The same games on both sides (sgfmill has nothing to do for a pass), so the ratio of the
    # rates is the ratio of the times.
    return total, total * repeat / ours, total * repeat / theirs


def _side_by_side(ours: float, theirs: float) -> str:
    return f"  weiqi {ours:9.0f} moves/s   sgfmill {theirs:9.0f} moves/s   ({ours / theirs:.2f}×)"


def main() -> None:
    parser = argparse.ArgumentParser(description="Board speed against sgfmill.")
    parser.add_argument("--games", type=Path, help="a GNU Go self-play corpus (JSON lines)")
    args = parser.parse_args()
    corpora = [args.games] if args.games else [ROOT / p for p in CORPORA]
    source, games = _gnugo_games(corpora)
    random_games = _random_games()
    random_source = f"{GAMES} random games to two passes (seed {SEED}, no eye filling)"
    if not games:
        games, source = random_games, random_source
    else:
        total, ours, theirs = compare(random_games)
        print(f"[{random_source}] {total} moves")
        print(_side_by_side(ours, theirs))
    openings = [g[:OPENING_MOVES] for g in random_games]
    total, ours, theirs = compare(openings)
    print(f"[first {OPENING_MOVES} moves of the random games] {total} moves")
    print(_side_by_side(ours, theirs))
    played, elapsed = playouts()
    print(f"random playouts 19×19 (with move choice): {played / elapsed:.0f} moves/s")
    total, ours, theirs = compare(games)
    print(f"[{source}] {total} moves")
    print(f"weiqi   Board.play (ko, superko, suicide checked): {ours:9.0f} moves/s")
    print(f"sgfmill Board.play (no ko, no suicide check):      {theirs:9.0f} moves/s")
    print(f"ratio {ours / theirs:.2f}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
