"""Star points and the standard placement of handicap stones (R-BOARD-2, R-HCP-2).

The placement is GNU Go's (``fixed_handicap`` of GTP v2): corner points on the fourth line
(third line below 12×12), then the side midpoints and tengen on odd boards. Points are listed in
GNU Go's order: from the top row down, left to right.

>>> from weiqi.rules.vertex import format_vertex
>>> [format_vertex(p, 19) for p in fixed_handicap_points(3, 19)]
['D16', 'Q16', 'D4']
>>> [format_vertex(p, 9) for p in star_points(9)]
['C7', 'G7', 'E5', 'C3', 'G3']
"""

from __future__ import annotations

from weiqi.errors import InvalidSetting
from weiqi.messages import Msg
from weiqi.rules.vertex import check_board_size


def max_fixed_handicap(size: int) -> int:
    """Most stones the standard placement has on this board: 9 on odd boards from 9×9, 4 on
    other boards from 7×7, none below.

    >>> max_fixed_handicap(19), max_fixed_handicap(8), max_fixed_handicap(5)
    (9, 4, 0)
    """
    if size % 2 == 1 and size >= 9:
        return 9
    if size >= 7:
        return 4
    return 0


def _sorted_top_down(points: set[int], size: int) -> list[int]:
    return sorted(points, key=lambda p: (-(p // size), p % size))


def fixed_handicap_points(stones: int, size: int) -> list[int]:
    """The standard points for ``stones`` handicap stones (2–9) on a ``size`` board.

    >>> from weiqi.rules.vertex import format_vertex
    >>> [format_vertex(p, 13) for p in fixed_handicap_points(5, 13)]
    ['D10', 'K10', 'G7', 'D4', 'K4']
    >>> fixed_handicap_points(5, 8)
    Traceback (most recent call last):
    ...
    weiqi.errors.InvalidSetting: handicap: at most 4 fixed stones on 8×8
    """
    check_board_size(size)
    if not 2 <= stones <= 9:
        raise InvalidSetting("handicap", Msg("must be 2 to 9 stones"))
    if stones > max_fixed_handicap(size):
        raise InvalidSetting(
            "handicap",
            Msg(
                "at most %(size)s fixed stones on %(size2)s×%(size2)s",
                size=max_fixed_handicap(size),
                size2=size,
            ),
        )
    line = 3 if size > 11 else 2
    low, high, mid = line, size - 1 - line, size // 2

    def at(row: int, col: int) -> int:
        return row * size + col

    # GNU Go's order of choice: two opposite corners, the third and fourth corner, then the
    # midpoints of the left and right sides and of the top and bottom; tengen for 5, 7 and 9.
    order = [at(high, high), at(low, low), at(high, low), at(low, high)]
    order += [at(mid, low), at(mid, high), at(high, mid), at(low, mid)]
    chosen = set(order[: stones if stones <= 4 else stones - stones % 2])
    if stones in (5, 7, 9):
        chosen.add(at(mid, mid))
    return _sorted_top_down(chosen, size)


def star_points(size: int) -> list[int]:
    """Star points drawn on the board (R-BOARD-2): nine on 19×19, the four corner points and
    tengen on 9×9 and 13×13; other sizes follow the same pattern as far as it fits.

    >>> from weiqi.rules.vertex import format_vertex
    >>> [format_vertex(p, 13) for p in star_points(13)]
    ['D10', 'K10', 'G7', 'D4', 'K4']
    >>> len(star_points(19)), star_points(5)
    (9, [])
    """
    most = max_fixed_handicap(size)
    if most == 0:
        return []
    if most == 9 and size < 15:
        return fixed_handicap_points(5, size)
    return fixed_handicap_points(most, size)
