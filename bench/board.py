"""Board speed: replay a fixed set of 19×19 games through our board (full legality: suicide,
ko, situational superko with verification) and through sgfmill's ``Board.play`` (no ko, no
suicide check) in the same run; then random playouts on 19×19.

Games: ``bench/data/gnugo-19x19/*.sgf`` or ``tests/data/gnugo-19x19/*.sgf`` (GNU Go
self-play) when present, else ``GAMES`` random legal games that never fill an eye, played to
two passes from a fixed seed. The first ``OPENING_MOVES`` moves of the random games are also
timed on their own: their chains are small, which suits sgfmill's flood fill best.

    PYTHONPATH=src python bench/board.py

The last line is ``ratio X`` = our moves/s ÷ sgfmill's moves/s.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

from sgfmill import boards, sgf

from weiqi.rules.board import Board
from weiqi.rules.color import Color
from weiqi.rules.playout import random_game, random_move

SEED = 2026
GAMES = 40
OPENING_MOVES = 250
ROUNDS = 3
SIZE = 19
ROOT = Path(__file__).resolve().parent.parent

Move = tuple[Color, int | None]


def _sgf_games() -> tuple[str, list[list[Move]]]:
    for folder in (ROOT / "bench/data/gnugo-19x19", ROOT / "tests/data/gnugo-19x19"):
        files = sorted(folder.glob("*.sgf")) if folder.is_dir() else []
        if files:
            games = []
            for path in files:
                game = sgf.Sgf_game.from_bytes(path.read_bytes())
                if game.get_size() != SIZE:
                    continue
                moves: list[Move] = []
                for node in game.get_main_sequence():
                    colour, where = node.get_move()
                    if colour is None:
                        continue
                    point = None if where is None else where[0] * SIZE + where[1]
                    moves.append((Color(colour.upper()), point))
                games.append(moves)
            return f"{len(games)} GNU Go games from {folder.relative_to(ROOT)}", games
    return "", []


def _random_games() -> list[list[Move]]:
    games = []
    for i in range(GAMES):
        board = Board(SIZE)
        moves = random_game(SIZE, seed=SEED + i, board=board)
        colours = [Color.BLACK if k % 2 == 0 else Color.WHITE for k in range(len(moves))]
        games.append(list(zip(colours, moves, strict=True)))
    return games


def replay_ours(games: list[list[Move]]) -> None:
    for moves in games:
        board = Board(SIZE)
        for colour, point in moves:
            if point is None:
                board.pass_(colour)
            else:
                board.play(colour, point)


def replay_sgfmill(games: list[list[tuple[str, int | None]]]) -> None:
    for moves in games:
        board = boards.Board(SIZE)
        for colour, point in moves:
            if point is not None:
                board.play(point // SIZE, point % SIZE, colour)


def _best_of(rounds: int, run: object, games: object) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        run(games)  # type: ignore[operator]
        best = min(best, time.perf_counter() - start)
    return best


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
    """(moves, our moves/s, sgfmill's moves/s)."""
    total = sum(len(g) for g in games)
    stones = sum(1 for g in games for _, p in g if p is not None)
    mill_games = [[(c.value.lower(), p) for c, p in g] for g in games]
    ours = _best_of(ROUNDS, replay_ours, games)
    theirs = _best_of(ROUNDS, replay_sgfmill, mill_games)
    return total, total / ours, stones / theirs


def _side_by_side(ours: float, theirs: float) -> str:
    return f"  weiqi {ours:9.0f} moves/s   sgfmill {theirs:9.0f} moves/s   ({ours / theirs:.2f}×)"


def main() -> None:
    source, games = _sgf_games()
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
