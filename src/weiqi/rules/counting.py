"""Area counting (数子法) and the result of a counted game (R-SCORE-1…5, R-HCP-1/2, R-PEN-1).

Dead stones are taken off; each side then counts its live stones plus the empty points that
touch only its live stones; empty points that touch both colours (dame, seki liberties, neutral
points left open, R-END-4) count half to each side. Black wins with a count above
par + komi + handicap compensation (+ its warnings, − White's warnings).

>>> from weiqi.rules.board import Board
>>> from weiqi.rules.vertex import parse_vertex
>>> b = Board(5, enforce_turn=False)
>>> for v in ["C1", "C2", "C3", "C4", "C5"]:
...     _ = b.play(Color.BLACK, parse_vertex(v, 5))
>>> for v in ["D1", "D2", "D3", "D4", "D5"]:
...     _ = b.play(Color.WHITE, parse_vertex(v, 5))
>>> c = count(b, set(), Ruleset.no_komi(size=5))
>>> c.black, c.white, c.shared, c.result.to_zh()
(Fraction(15, 1), Fraction(10, 1), 0, '黑胜2又1/2子')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from weiqi.errors import InputError
from weiqi.messages import Msg
from weiqi.rules.board import Board, neighbour_table
from weiqi.rules.color import Color
from weiqi.rules.result import Result
from weiqi.rules.ruleset import Ruleset
from weiqi.rules.vertex import check_position, format_vertex

EMPTY, BLACK, WHITE = 0, 1, 2
SHARED = 3  # an empty point touching both colours (in :attr:`Count.ownership`)


@dataclass(frozen=True)
class Count:
    """Both sides' counts in stones and what follows from them."""

    black: Fraction  # live stones + territory + half the shared points
    white: Fraction
    shared: int  # empty points counted half to each side
    black_stones: int
    white_stones: int
    black_territory: int
    white_territory: int
    dead_black: int
    dead_white: int
    par: Fraction
    komi: Fraction
    handicap_compensation: Fraction
    black_penalty: int  # stones taken off Black for warnings (R-PEN-1)
    white_penalty: int
    #: Per point: 0 nobody (an empty board), 1 black, 2 white, 3 shared.
    ownership: bytes

    @property
    def threshold(self) -> Fraction:
        """Black wins with a count above this, draws on it."""
        return (
            self.par
            + self.komi
            + self.handicap_compensation
            + self.black_penalty
            - self.white_penalty
        )

    @property
    def margin(self) -> Fraction:
        """Black's count minus the threshold: positive Black wins, negative White wins."""
        return self.black - self.threshold

    @property
    def result(self) -> Result:
        return Result.from_counts(self.margin)

    def to_json(self) -> dict[str, object]:
        """The ``weiqi score --json`` object: counts and margin in stones.

        >>> c = count(bytes(4), set(), Ruleset.no_komi(size=2))
        >>> c.to_json()["result"], c.to_json()["winner"]
        ('0', None)
        """
        result = self.result
        return {
            "black": float(self.black),
            "white": float(self.white),
            "shared": self.shared,
            "komi": float(self.komi),
            "handicap_compensation": float(self.handicap_compensation),
            "penalties": {"B": self.black_penalty, "W": self.white_penalty},
            "winner": result.winner.value if result.winner else None,
            "margin": float(abs(self.margin)),
            "result": result.to_sgf(),
            "result_zh": result.to_zh(),
        }


def _stones_of(position: Board | Sequence[int] | bytes, size: int) -> bytearray:
    if isinstance(position, Board):
        if position.size != size:
            raise InputError(
                "count",
                Msg(
                    "the board is %(size)s×%(size)s, the rules say %(size2)s×%(size2)s",
                    size=position.size,
                    size2=size,
                ),
            )
        return bytearray(position.stones_bytes())
    stones = bytearray(position)
    check_position(stones, size, "count")
    return stones


def dead_groups(stones: bytes | bytearray, named: Iterable[int], size: int) -> set[int]:
    """All stones of the groups through the ``named`` points (a dead group is dead entirely).

    >>> sorted(dead_groups(bytes([1, 1, 0, 2]), [0], 2))
    [0, 1]
    """
    nbrs = neighbour_table(size)
    dead: set[int] = set()
    for p in named:
        if not 0 <= p < size * size:
            raise InputError("dead stones", Msg("point %(p)s is off the board", p=p))
        color = stones[p]
        if color == EMPTY:
            raise InputError("dead stones", Msg("%(p)s holds no stone", p=format_vertex(p, size)))
        if p in dead:
            continue
        todo = [p]
        dead.add(p)
        while todo:
            s = todo.pop()
            for q in nbrs[s]:
                if stones[q] == color and q not in dead:
                    dead.add(q)
                    todo.append(q)
    return dead


def count(
    position: Board | Sequence[int] | bytes,
    dead: Iterable[int],
    ruleset: Ruleset,
    warnings: Mapping[Color, int] | None = None,
) -> Count:
    """Count a final position: ``dead`` names stones of dead groups (each whole group is taken
    off), ``warnings`` the warnings each colour received (one stone each, R-PEN-1).

    ``position`` is a :class:`Board` or one value per point (0 empty, 1 black, 2 white).
    """
    size = ruleset.board_size
    stones = _stones_of(position, size)
    removed = dead_groups(stones, dead, size)
    dead_black = sum(1 for p in removed if stones[p] == BLACK)
    for p in removed:
        stones[p] = EMPTY
    nbrs = neighbour_table(size)
    n = size * size
    ownership = bytearray(stones)
    territory = [0, 0, 0, 0]  # by owner code: nobody, black, white, shared
    # Flood fill the empty regions.
    region_of = [-1] * n
    for start in range(n):
        if stones[start] != EMPTY or region_of[start] >= 0:
            continue
        region = [start]
        region_of[start] = start
        touches = 0  # bit 1 black, bit 2 white
        for s in region:  # grows while we walk it
            for q in nbrs[s]:
                w = stones[q]
                if w == EMPTY:
                    if region_of[q] < 0:
                        region_of[q] = start
                        region.append(q)
                else:
                    touches |= w
        owner = touches  # 0 nobody, 1 black, 2 white, 3 both
        for s in region:
            ownership[s] = owner
        territory[owner] += len(region)
    black_stones = sum(1 for v in stones if v == BLACK)
    white_stones = sum(1 for v in stones if v == WHITE)
    # An empty board touches nobody: its points are shared like dame, so the counts add up.
    shared = territory[3] + territory[0]
    half = Fraction(shared, 2)
    warned = warnings or {}
    for color, times in warned.items():
        if times < 0:
            raise InputError(
                "warnings",
                Msg("%(color)s cannot have %(times)s warnings", color=color, times=times),
            )
    return Count(
        black=black_stones + territory[BLACK] + half,
        white=white_stones + territory[WHITE] + half,
        shared=shared,
        black_stones=black_stones,
        white_stones=white_stones,
        black_territory=territory[BLACK],
        white_territory=territory[WHITE],
        dead_black=dead_black,
        dead_white=len(removed) - dead_black,
        par=ruleset.par,
        komi=ruleset.komi,
        handicap_compensation=ruleset.handicap_compensation,
        black_penalty=warned.get(Color.BLACK, 0),
        white_penalty=warned.get(Color.WHITE, 0),
        ownership=bytes(ownership),
    )
