"""Points of the board and their GTP names (R-BOARD-1).

A point is an ``int``: ``row * size + col`` with row 0 at the bottom and column 0 at the left,
so that ``A1`` (bottom-left in GTP and in every diagram) is point 0. Column letters skip ``I``.

>>> parse_vertex("D4", 19)
60
>>> format_vertex(60, 19)
'D4'
>>> format_vertex(parse_vertex("t19", 19), 19)
'T19'
>>> parse_vertex("pass", 19) is None
True
"""

from __future__ import annotations

from weiqi.errors import InputError, InvalidSetting
from weiqi.messages import Msg

MIN_SIZE = 2
MAX_SIZE = 25


def check_board_size(size: int) -> None:
    """Refuse a board size the rules do not allow (R-BOARD-1), as the ``board_size`` setting.

    >>> check_board_size(26)
    Traceback (most recent call last):
    ...
    weiqi.errors.InvalidSetting: board_size: must be between 2 and 25
    """
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise InvalidSetting(
            "board_size",
            Msg(
                "must be between %(MIN_SIZE)s and %(MAX_SIZE)s",
                MIN_SIZE=MIN_SIZE,
                MAX_SIZE=MAX_SIZE,
            ),
        )


def check_position(stones: bytes | bytearray, size: int, where: str) -> None:
    """Refuse (``InputError`` at ``where``) a position that is not one value for each point of
    a ``size``×``size`` board, each 0 (empty), 1 (black) or 2 (white): what counting and the
    dead-stone finder take.

    >>> check_position(bytes([0, 1, 2, 0]), 2, "count")
    >>> check_position(bytes(3), 2, "position")
    Traceback (most recent call last):
    ...
    weiqi.errors.InputError: position: 3 points given for a 2×2 board
    """
    if len(stones) != size * size:
        raise InputError(
            where,
            Msg(
                "%(stones)s points given for a %(size)s×%(size)s board",
                stones=len(stones),
                size=size,
            ),
        )
    if any(v > 2 for v in stones):
        raise InputError(where, Msg("a point holds neither 0 (empty), 1 (black) nor 2 (white)"))


#: Column letters of GTP and of printed diagrams: no ``I``, up to 25 columns.
COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


def parse_vertex(text: str, size: int) -> int | None:
    """The point named by a GTP vertex (``D4``, case-insensitive), or ``None`` for ``pass``.

    >>> parse_vertex("A1", 9), parse_vertex("J9", 9)
    (0, 80)
    >>> parse_vertex("I5", 19)
    Traceback (most recent call last):
    ...
    weiqi.errors.InputError: vertex 'I5': not a point of a 19×19 board
    """
    raw = text.strip()
    key = raw.upper()
    if key == "PASS":
        return None
    if len(key) >= 2 and key[0] in COLUMNS and key[1:].isdigit():
        col = COLUMNS.index(key[0])
        row = int(key[1:]) - 1
        if 0 <= col < size and 0 <= row < size:
            return row * size + col
    raise InputError(
        Msg("vertex %(raw)s", raw=repr(raw)),
        Msg("not a point of a %(size)s×%(size)s board", size=size),
    )


def format_vertex(point: int | None, size: int) -> str:
    """GTP name of a point (``None`` is ``pass``).

    >>> format_vertex(None, 9), format_vertex(8, 9)
    ('pass', 'J1')
    """
    if point is None:
        return "pass"
    if not 0 <= point < size * size:
        raise ValueError(f"point {point} is not on a {size}×{size} board")
    row, col = divmod(point, size)
    return f"{COLUMNS[col]}{row + 1}"


def point_at(row: int, col: int, size: int) -> int:
    """The point at ``row`` (0 = bottom) and ``col`` (0 = left).

    >>> point_at(3, 3, 19)
    60
    """
    return row * size + col
