"""SGF read, write and replay against sgfmill's own reading of the same records.

Records: 40 random legal 19×19 games of 250 moves (passes when no legal move is left), built with
the rules board from seed 2026, each move with a comment on every tenth move and ``BL``/``WL``
times, written by ``write_sgf``. Timed, best of 3 rounds:

- ``read_sgf`` (decode, parse through sgfmill, type every property, check every point);
- the reference: sgfmill's ``Sgf_game.from_bytes`` plus ``get_move`` on the main line (parsing
  and point decoding only, no validation or typed game information);
- ``write_sgf``, and ``replay`` (the main line on the rules board with every legality check).

Last line: ``ratio X`` = our read time ÷ sgfmill's (lower is better).

Usage: ``PYTHONPATH=src python bench/sgf.py``
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from fractions import Fraction

from sgfmill import sgf

from weiqi.formats.sgf import SgfGame, read_sgf, write_sgf
from weiqi.formats.sgf_replay import replay
from weiqi.rules.board import Board
from weiqi.rules.color import Color

SEED = 2026
GAMES = 40
MOVES = 250
SIZE = 19


def random_record(rng: random.Random) -> SgfGame:
    board = Board(SIZE)
    game = SgfGame(size=SIZE, komi=Fraction(15, 4), black_player="甲", white_player="乙")
    color = Color.BLACK
    for number in range(1, MOVES + 1):
        empties = board.empty_points()
        rng.shuffle(empties)
        point = next((p for p in empties if board.is_legal(color, p)), None)
        board.move(color, point)
        node = game.play(
            color,
            None if point is None else divmod(point, SIZE),
            time_left=3600 - number * 7.5,
            comment=f"第{number}手" if number % 10 == 0 else None,
        )
        assert node.move is not None
        color = color.opponent
    return game


def best_of(rounds: int, work: Callable[[], None]) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    rng = random.Random(SEED)
    games = [random_record(rng) for _ in range(GAMES)]
    files = [write_sgf(game) for game in games]
    read = [read_sgf(data) for data in files]

    def sgfmill_read() -> None:
        for data in files:
            game = sgf.Sgf_game.from_bytes(data)
            for node in game.get_main_sequence():
                node.get_move()

    ours = best_of(3, lambda: [read_sgf(data) for data in files] and None)
    theirs = best_of(3, sgfmill_read)
    writing = best_of(3, lambda: [write_sgf(game) for game in games] and None)
    replaying = best_of(3, lambda: [replay(game) for game in read] and None)
    per = 1000 / GAMES
    print(f"{GAMES} records of {MOVES} moves, {sum(map(len, files)) // GAMES} bytes each")
    print(f"read_sgf            {ours * per:6.2f} ms/record")
    print(f"sgfmill from_bytes  {theirs * per:6.2f} ms/record (reference)")
    print(f"write_sgf           {writing * per:6.2f} ms/record")
    print(f"replay              {replaying * per:6.2f} ms/record")
    print(f"ratio {ours / theirs:.2f}")


if __name__ == "__main__":
    main()
