"""Replay an SGF record's main line on the rules board (R-PLAY, R-KO, R-SUICIDE).

The record says what was played; the board says whether the rules allowed it. Move numbers count
the main line's move nodes from 1, as ``weiqi check`` reports them; vertices are GTP style.

>>> from weiqi.formats.sgf import read_sgf
>>> game = read_sgf("(;SZ[5];B[cc];W[cc])", source="g.sgf")
>>> r = replay(game)
>>> r.moves, r.error
(2, ReplayError(move=2, vertex='C3', reason='occupied'))
>>> replay_legal(game)
Traceback (most recent call last):
...
weiqi.errors.InputError: g.sgf: move 2 at C3: occupied
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from weiqi.errors import IllegalMove, InputError, InvalidSetting
from weiqi.formats.sgf import Point, SgfGame, SgfNode, on_board, sgf_point
from weiqi.messages import Msg
from weiqi.rules.board import Board
from weiqi.rules.color import Color
from weiqi.rules.ruleset import CyclePolicy, HandicapPlacement, Ruleset
from weiqi.rules.vertex import format_vertex, point_at


@dataclass(frozen=True)
class ReplayError:
    """The first move the rules refuse. ``reason`` is the board's: ``occupied``, ``suicide``,
    ``ko``, ``superko``, ``wrong-turn``, ``off-board`` (``game-over`` only under a cycle policy
    other than ``ban``). An off-board vertex is given by its SGF coordinate (``zz``): GTP has no
    name for it."""

    move: int
    vertex: str
    reason: str


@dataclass
class Replay:
    """The board after the main line (up to, not including, the first illegal move), the
    number of moves in the record's main line, and the first illegal move if any."""

    board: Board
    moves: int
    error: ReplayError | None


def start_stones(game: SgfGame) -> tuple[set[Point], set[Point], Color | None]:
    """The black and white stones set up before the first move (the root's ``AB``/``AW``/``AE``
    and those of setup nodes before any move), and the ``PL`` given there, if any."""
    return setup_of(_before_first_move(game))


def _before_first_move(game: SgfGame) -> list[SgfNode]:
    nodes = []
    for node in [game.root, *game.main_line()]:
        if node.move is not None:
            break
        nodes.append(node)
    return nodes


def setup_of(nodes: Iterable[SgfNode]) -> tuple[set[Point], set[Point], Color | None]:
    """The stones and ``PL`` of the setup nodes before the first move, in order."""
    black: set[Point] = set()
    white: set[Point] = set()
    player: Color | None = None
    for node in nodes:
        black.difference_update(node.setup_empty)
        white.difference_update(node.setup_empty)
        black.difference_update(node.setup_white)
        white.difference_update(node.setup_black)
        black.update(node.setup_black)
        white.update(node.setup_white)
        pl = node.extra.get("PL")
        if pl and pl[0].strip().upper() in {"B", "W"}:
            player = Color(pl[0].strip().upper())
    return black, white, player


def first_player(game: SgfGame) -> Color:
    """Who moves first: ``PL`` if the record says; after setup stones without ``PL``, the
    colour of the first move (problems, old games with pre-placed stones where White began);
    White after handicap stones (``HA`` of 2 or more, or black setup stones alone) when there
    is no move; otherwise Black (R-PLAY-1)."""
    black, white, player = start_stones(game)
    first = next((m.color for m in game.moves()), None)
    return choose_first_player(black, white, player, game.handicap, first)


def choose_first_player(
    black: set[Point],
    white: set[Point],
    player: Color | None,
    handicap: int | None,
    first_move: Color | None,
) -> Color:
    """:func:`first_player` from its parts: the setup stones, ``PL``, ``HA`` and the colour of
    the first move (``None`` when there is none)."""
    if player is not None:
        return player
    if (black or white) and first_move is not None:
        return first_move
    if (handicap or 0) >= 2 or (black and not white):
        return Color.WHITE
    return Color.BLACK


def start_board(
    game: SgfGame, *, cycle: CyclePolicy = CyclePolicy.BAN, enforce_turn: bool = True
) -> Board:
    """The position before the first move, with the first player to move."""
    black, white, _ = start_stones(game)
    return setup_board(
        game.size, black, white, first_player(game), game.source, cycle, enforce_turn
    )


def setup_board(
    size: int,
    black: set[Point],
    white: set[Point],
    to_move: Color,
    source: str | None,
    cycle: CyclePolicy = CyclePolicy.BAN,
    enforce_turn: bool = True,
) -> Board:
    """A board with the setup stones on it and ``to_move`` to play; an impossible setup (a
    group without liberties) is an :class:`InputError`."""
    board = Board(size, cycle=cycle, enforce_turn=enforce_turn)
    if black or white or to_move is Color.WHITE:
        try:
            board.setup(
                sorted(point_at(r, c, size) for r, c in black),
                sorted(point_at(r, c, size) for r, c in white),
                to_move,
            )
        except InvalidSetting as err:
            raise InputError(
                Msg("%(value)s, setup stones", value=source or "SGF"), err.reason
            ) from None
    return board


def record_handicap(game: SgfGame) -> int:
    """The handicap stones ``HA`` gives for counting: 0 for none, 0 or 1 (让先, no
    compensation), else 2 to 9; more is an :class:`InputError` naming ``HA``, for ``check``
    and ``score`` alike (R-HCP-1)."""
    handicap = game.handicap or 0
    if handicap < 2:
        return 0
    try:
        Ruleset(
            board_size=game.size,
            handicap=handicap,
            handicap_placement=HandicapPlacement.FREE,
        )
    except InvalidSetting as err:
        if err.field == "handicap":
            raise InputError(
                Msg("%(value)s, HA[%(handicap)s]", value=game.source or "SGF", handicap=handicap),
                err.reason,
            ) from None
        raise
    return handicap


def resumed_turn(node: SgfNode) -> Color | None:
    """The colour a move-less node of the game gives the turn to with ``PL`` (play resumed
    after a dispute, the claimant to move: R-END-3), or None.

    >>> resumed_turn(SgfNode(extra={"PL": ["W"]})), resumed_turn(SgfNode())
    (<Color.WHITE: 'W'>, None)
    """
    value = node.extra.get("PL")
    if not value:
        return None
    letter = value[0].strip().upper()
    return Color.BLACK if letter == "B" else Color.WHITE if letter == "W" else None


def move_reason(board: Board, color: Color, point: int | None) -> str | None:
    """Why the rules refuse this move now (``None`` if legal), playing it when legal. A stone
    on an occupied point is ``occupied`` whoever's turn it is."""
    try:
        if point is None:
            board.pass_(color)
        else:
            board.play(color, point)
    except IllegalMove as err:
        return refusal(board, point, err.kind)
    return None


def refusal(board: Board, point: int | None, reason: str) -> str:
    """The ``reason`` the board refused a move at ``point`` for, as a record names it: a stone
    on an occupied point is ``occupied`` whoever's turn it is."""
    if reason == "wrong-turn" and point is not None and board.color_at(point) is not None:
        return "occupied"
    return reason


def replay(game: SgfGame, *, cycle: CyclePolicy = CyclePolicy.BAN) -> Replay:
    """Play the main line under the rules, stopping at the first illegal move."""
    board = start_board(game, cycle=cycle)
    nodes = game.main_line()
    total = sum(1 for node in nodes if node.move is not None)
    number = 0
    for node in nodes:
        if node.has_setup and (node.move is not None or number > 0):
            # start_board took the setup nodes before the first move; later ones change the
            # position outside the rules.
            where = f"move {number + 1}" if node.move is not None else f"node after move {number}"
            raise InputError(
                Msg("%(value)s, %(where)s", value=game.source or "SGF", where=where),
                Msg("setup stones (AB/AW/AE) during the game cannot be replayed under the rules"),
            )
        if node.move is None:
            turn = resumed_turn(node) if number > 0 else None
            if turn is not None:
                board.give_turn(turn)
            continue
        number += 1
        color, point = node.move.color, node.move.point
        if point is not None and not on_board(point, game.size):
            return Replay(
                board, total, ReplayError(number, sgf_point(point, game.size), "off-board")
            )
        p = None if point is None else point_at(point[0], point[1], game.size)
        reason = move_reason(board, color, p)
        if reason is not None:
            return Replay(board, total, ReplayError(number, format_vertex(p, game.size), reason))
    return Replay(board, total, None)


def replay_legal(game: SgfGame, *, cycle: CyclePolicy = CyclePolicy.BAN) -> Board:
    """The board after the whole main line; an illegal move is an :class:`InputError` naming
    the file, the move number, the vertex and the reason."""
    result = replay(game, cycle=cycle)
    if result.error is not None:
        e = result.error
        illegal = IllegalMove(e.reason, move_number=e.move, vertex=e.vertex)
        raise InputError(game.source or "SGF", illegal.message)
    return result.board
