"""A simple, sensible move choice for ``genmove``: capture, escape atari, never fill an own eye,
never put itself in atari, and pass when nothing useful is left. It need not be strong.

"Nothing useful" means: every legal point is an own eye, a self-atari, or inside a settled
region (empty points bordered by one colour only and smaller than a third of the board).

>>> import random
>>> from weiqi.rules.vertex import format_vertex
>>> b = Board.from_diagram('''
...     . X O .
...     X O . O
...     . X O .
...     . . . .
... ''')
>>> format_vertex(choose_move(b, Color.BLACK, random.Random(1)), 4)  # takes the ko stone
'C3'
"""

from __future__ import annotations

import random
from fractions import Fraction

from weiqi.rules.board import Board
from weiqi.rules.color import Color
from weiqi.rules.counting import count
from weiqi.rules.playout import is_own_eye
from weiqi.rules.ruleset import Ruleset


def _line_bonus(point: int, size: int) -> float:
    """A small preference for the third and fourth lines over the edge."""
    if size < 7:
        return 0.0
    row, col = divmod(point, size)
    line = min(row, col, size - 1 - row, size - 1 - col)
    return {0: -2.0, 1: -1.0, 2: 1.0, 3: 1.0}.get(line, 0.5)


def settled_points(board: Board) -> set[int]:
    """Empty points in regions bordered by one colour only and smaller than a third of the
    board: territory that needs no more moves."""
    ownership = count(board, set(), Ruleset(board_size=board.size, komi=Fraction(0))).ownership
    limit = board.size * board.size / 3
    settled: set[int] = set()
    seen: set[int] = set()
    for start in board.empty_points():
        if start in seen:
            continue
        region = [start]
        seen.add(start)
        for p in region:  # grows while we walk it
            for q in board.neighbours(p):
                if q not in seen and board.color_at(q) is None:
                    seen.add(q)
                    region.append(q)
        if ownership[start] in (1, 2) and len(region) < limit:
            settled.update(region)
    return settled


def choose_move(board: Board, color: Color, rng: random.Random) -> int | None:
    """A legal move for ``color`` (``None`` = pass), chosen as described above; ``rng`` breaks
    ties, so a seeded generator gives reproducible games.

    Beyond captures and escapes it weighs a few plain shapes: strengthen an own group short of
    liberties, press an opponent group short of liberties, keep two liberties or more, answer
    near the opponent's last move.
    """
    in_atari: dict[int, int] = {}  # last liberty of an own group in atari -> stones at stake
    short: dict[int, int] = {}  # liberty of an own group with two liberties -> stones
    pressed: dict[int, int] = {}  # liberty of an opponent group with two or three liberties
    for group in board.groups():
        if group.color is color:
            table = in_atari if len(group.liberties) == 1 else short
            if len(group.liberties) <= 2:
                for lib in group.liberties:
                    table[lib] = table.get(lib, 0) + len(group.stones)
        elif len(group.liberties) in (2, 3):
            for lib in group.liberties:
                pressed[lib] = pressed.get(lib, 0) + len(group.stones)
    settled = settled_points(board)
    size = board.size
    history = board.history
    last = history[-1][1] if history else None
    best: int | None = None
    best_score = 0.0
    for p in board.empty_points():
        if is_own_eye(board, color, p):
            continue
        effect = board.move_effect(color, p)
        if effect is None:
            continue
        score = 0.0
        if effect.captures:
            score += 100 + 10 * effect.captures
        saves = in_atari.get(p, 0)
        if saves and effect.liberties >= 2:
            score += 80 + 10 * saves
        if effect.liberties == 1 and not effect.captures:
            continue  # self-atari
        if score == 0 and p in settled:
            continue
        if effect.liberties >= 2:
            score += 5 * effect.ataris
        if effect.liberties >= 3 and p in short:
            score += 6 + min(short[p], 10)
        if effect.liberties >= 2 and p in pressed:
            score += 2 + min(pressed[p], 6) / 2
        if effect.liberties == 2 and not effect.captures:
            score -= 3  # easy to atari
        if last is not None:
            (lr, lc), (r, c) = divmod(last, size), divmod(p, size)
            if abs(lr - r) + abs(lc - c) <= 2:
                score += 2
        score += 10 + _line_bonus(p, size) + rng.random()
        if score > best_score:
            best, best_score = p, score
    return best
