"""Random legal games, reproducible from a seed: for property tests, benchmarks and as the
fallback of simple move policies.

A random player never fills its own eye (an empty point whose neighbours are all its own
stones and whose diagonals are not held too much by the opponent), so games end with both
sides passing instead of filling the board.

>>> moves = random_game(9, seed=1, max_moves=40)
>>> len(moves)
40
>>> moves == random_game(9, seed=1, max_moves=40)
True
"""

from __future__ import annotations

import random
from functools import cache

from weiqi.rules.board import Board
from weiqi.rules.color import Color


@cache
def diagonal_table(size: int) -> tuple[tuple[int, ...], ...]:
    """For each point, its diagonal neighbours on the board."""
    table = []
    for p in range(size * size):
        row, col = divmod(p, size)
        table.append(
            tuple(
                (row + dr) * size + col + dc
                for dr in (-1, 1)
                for dc in (-1, 1)
                if 0 <= row + dr < size and 0 <= col + dc < size
            )
        )
    return tuple(table)


def is_own_eye(board: Board, color: Color, point: int) -> bool:
    """Whether ``point`` is an eye of ``color``: empty, every neighbour ``color``'s, and the
    opponent holds fewer than two diagonals (none on the edge).

    >>> from weiqi.rules.vertex import parse_vertex as v
    >>> b = Board(5, enforce_turn=False)
    >>> for m in ["A2", "B1"]:
    ...     _ = b.play(Color.BLACK, v(m, 5))
    >>> is_own_eye(b, Color.BLACK, v("A1", 5)), is_own_eye(b, Color.WHITE, v("A1", 5))
    (True, False)
    """
    stones = board._board
    if stones[point]:
        return False
    code = 1 if color is Color.BLACK else 2
    for q in board._neighbours[point]:
        if stones[q] != code:
            return False
    diagonals = diagonal_table(board.size)[point]
    enemy = 0
    for q in diagonals:
        if stones[q] == 3 - code:
            enemy += 1
    return enemy == 0 if len(diagonals) < 4 else enemy < 2


def random_move(board: Board, rng: random.Random) -> int | None:
    """A random legal move for the player to move that fills no own eye; ``None`` = pass."""
    color = board.to_move
    candidates = board.empty_points()
    while candidates:
        i = rng.randrange(len(candidates))
        p = candidates[i]
        if not is_own_eye(board, color, p) and board.legality(color, p) is None:
            return p
        candidates[i] = candidates[-1]
        candidates.pop()
    return None


def random_game(
    size: int, seed: int, max_moves: int = 1000, board: Board | None = None
) -> list[int | None]:
    """Play a random game (from ``board``, else an empty board) until two passes in a row or
    ``max_moves``; return the moves (``None`` = pass). The board, if given, is left at the end."""
    rng = random.Random(seed)
    b = board if board is not None else Board(size)
    moves: list[int | None] = []
    passes = 0
    while len(moves) < max_moves and passes < 2 and b.cycle_result is None:
        p = random_move(b, rng)
        b.move(b.to_move, p)
        moves.append(p)
        passes = passes + 1 if p is None else 0
    return moves
