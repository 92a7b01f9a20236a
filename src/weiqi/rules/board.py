"""A game position with its history: moves, passes, captures, ko and superko, undo.

The stones live in a flat ``bytearray`` (0 empty, 1 black, 2 white) indexed by point
(see :mod:`weiqi.rules.vertex`); groups (chains) and their liberties are kept up to date move by
move, so legality and capture need no flood fill. Situational superko (R-KO-1) is exact: every
position of the game (stones + player to move) is stored; an incremental Zobrist hash finds
candidates and the stored position confirms them.

>>> from weiqi.rules.vertex import parse_vertex as v
>>> b = Board(9)
>>> b.play(Color.BLACK, v("E5", 9))
[]
>>> b.legality(Color.BLACK, v("C3", 9))
'wrong-turn'
>>> b.legality(Color.WHITE, v("E5", 9))
'occupied'
>>> b.to_move, b.move_number
(<Color.WHITE: 'W'>, 1)
>>> b.undo()
(<Color.BLACK: 'B'>, 40)
>>> b.color_at(v("E5", 9)) is None
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from functools import cache
from typing import Final, NamedTuple, TypeAlias

from weiqi.errors import IllegalMove, InputError, InvalidSetting
from weiqi.messages import Msg
from weiqi.rules.color import Color
from weiqi.rules.handicap import fixed_handicap_points, star_points
from weiqi.rules.result import Result
from weiqi.rules.ruleset import CyclePolicy, HandicapPlacement, Ruleset
from weiqi.rules.vertex import COLUMNS, check_board_size, format_vertex

EMPTY, BLACK, WHITE = 0, 1, 2
_CODE_OF = {Color.BLACK: BLACK, Color.WHITE: WHITE}
_COLOR_OF: tuple[Color | None, Color, Color] = (None, Color.BLACK, Color.WHITE)
_BLACK_COLOR = Color.BLACK  # a module global is read faster than an enum member

#: The seed of the Zobrist keys; fixed so that hashes are the same in every run.
ZOBRIST_SEED = 20260101


@cache
def neighbour_table(size: int) -> tuple[tuple[int, ...], ...]:
    """For each point, its orthogonal neighbours on the board (R-LIB-1).

    >>> neighbour_table(3)[0], neighbour_table(3)[4]
    ((3, 1), (7, 1, 5, 3))
    """
    table = []
    for p in range(size * size):
        row, col = divmod(p, size)
        nbrs = []
        if row + 1 < size:
            nbrs.append(p + size)
        if row > 0:
            nbrs.append(p - size)
        if col + 1 < size:
            nbrs.append(p + 1)
        if col > 0:
            nbrs.append(p - 1)
        table.append(tuple(nbrs))
    return tuple(table)


@cache
def zobrist_keys(size: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, int, int]]:
    """Zobrist keys: ``stone[color code][point]`` and ``turn[color code]`` (black to move 0).

    The keys come from a ``random.Random`` seeded with :data:`ZOBRIST_SEED` and the size.
    """
    rng = random.Random(ZOBRIST_SEED * 100 + size)
    n = size * size
    stone = (
        (0,) * n,
        tuple(rng.getrandbits(64) for _ in range(n)),
        tuple(rng.getrandbits(64) for _ in range(n)),
    )
    return stone, (0, 0, rng.getrandbits(64))


class Group(NamedTuple):
    """Orthogonally connected stones of one colour and their shared liberties (R-LIB-1)."""

    color: Color
    stones: frozenset[int]
    liberties: frozenset[int]


# One entry of the history: the state after a move (the first entry is the start position).
# Plain tuples, because building one per move is on the hot path of ``play``.
_Ply: TypeAlias = tuple[int, int, bytes, int, int, int, int, int, Result | None, int]
_MOVER: Final = 0  # colour code of who moved (0 for the start position)
_POINT: Final = 1  # where (-1 for a pass or the start)
_STONES: Final = 2  # the stones after the move
_TO_MOVE: Final = 3
_KEY: Final = 4  # Zobrist hash of stones + player to move
_KO: Final = 5
_CAPTURES_BLACK: Final = 6
_CAPTURES_WHITE: Final = 7
_CYCLE: Final = 8
_SAME_KEY: Final = 9  # index of the previous entry with the same key, -1 if none


class MoveEffect(NamedTuple):
    """What a legal stone would do: stones it captures, liberties of its group afterwards,
    opponent groups it puts in atari."""

    captures: int
    liberties: int
    ataris: int


class Board:
    """A mutable game position with its whole history.

    ``enforce_turn=False`` lets either colour move at any time (as GTP ``play`` does); the player
    to move is then always the opponent of the last mover. ``cycle`` is the R-KO-2 policy.
    """

    __slots__ = (
        "_board",
        "_chain",
        "_enforce_turn",
        "_history",
        "_ko",
        "_libs",
        "_neighbours",
        "_seen",
        "_stones",
        "_turn_keys",
        "_zobrist",
        "captures_black",
        "captures_white",
        "cycle",
        "cycle_result",
        "hash",
        "size",
        "to_move_code",
    )

    def __init__(
        self,
        size: int = 19,
        *,
        cycle: CyclePolicy = CyclePolicy.BAN,
        enforce_turn: bool = True,
    ) -> None:
        check_board_size(size)
        self.size = size
        self.cycle = cycle
        self._enforce_turn = enforce_turn
        n = size * size
        self._neighbours = neighbour_table(size)
        self._zobrist, self._turn_keys = zobrist_keys(size)
        self._board = bytearray(n)
        self._chain = [-1] * n
        self._stones: list[list[int] | None] = [None] * n
        self._libs: list[set[int] | None] = [None] * n
        self.to_move_code = BLACK
        self._ko = -1
        self.captures_black = 0
        self.captures_white = 0
        self.cycle_result: Result | None = None
        #: Zobrist hash of the position: stones and player to move.
        self.hash = 0
        self._history: list[_Ply] = []
        # key -> index of the latest history entry with that key (older ones are chained)
        self._seen: dict[int, int] = {}
        self._record(EMPTY, -1)

    @classmethod
    def from_ruleset(cls, ruleset: Ruleset, *, enforce_turn: bool = True) -> Board:
        """The start position of a game under ``ruleset``: fixed handicap stones are placed,
        free ones are left to :meth:`place_handicap`.

        >>> b = Board.from_ruleset(Ruleset.handicap_game(2, size=9))
        >>> sorted(format_vertex(p, 9) for p in b.list_stones(Color.BLACK)), b.to_move
        (['C3', 'G7'], <Color.WHITE: 'W'>)
        """
        board = cls(ruleset.board_size, cycle=ruleset.cycle, enforce_turn=enforce_turn)
        if ruleset.handicap and ruleset.handicap_placement is HandicapPlacement.FIXED:
            board.place_handicap(fixed_handicap_points(ruleset.handicap, ruleset.board_size))
        return board

    @classmethod
    def from_diagram(
        cls,
        diagram: str,
        to_move: Color = Color.BLACK,
        *,
        cycle: CyclePolicy = CyclePolicy.BAN,
        enforce_turn: bool = True,
    ) -> Board:
        """A start position drawn as text, top row first: ``X`` black, ``O`` white, ``.`` or
        ``+`` empty; spaces are ignored. Handy in tests and examples.

        >>> b = Board.from_diagram('''
        ...     . X O
        ...     X O .
        ...     . . .
        ... ''', to_move=Color.WHITE)
        >>> b.color_at(7), b.color_at(0), b.to_move
        (<Color.BLACK: 'B'>, None, <Color.WHITE: 'W'>)
        """
        rows = [
            [ch for ch in line if ch in "XO.+"]
            for line in diagram.strip().splitlines()
            if line.strip()
        ]
        size = len(rows)
        if any(len(row) != size for row in rows):
            raise InvalidSetting(
                "diagram", Msg("every one of the %(size)s rows needs %(size)s points", size=size)
            )
        black: list[int] = []
        white: list[int] = []
        for i, row in enumerate(rows):
            for col, ch in enumerate(row):
                p = (size - 1 - i) * size + col
                if ch == "X":
                    black.append(p)
                elif ch == "O":
                    white.append(p)
        board = cls(size, cycle=cycle, enforce_turn=enforce_turn)
        board.setup(black, white, to_move)
        return board

    # -- reading the position -----------------------------------------------------------------

    @property
    def to_move(self) -> Color:
        """The player to move."""
        return Color.BLACK if self.to_move_code == BLACK else Color.WHITE

    @property
    def move_number(self) -> int:
        """Moves (passes included) played since the start position."""
        return len(self._history) - 1

    @property
    def captures(self) -> dict[Color, int]:
        """Stones captured so far by each colour."""
        return {Color.BLACK: self.captures_black, Color.WHITE: self.captures_white}

    @property
    def ko_point(self) -> int | None:
        """The point the player to move may not take back at once (simple ko), if any."""
        return self._ko if self._ko >= 0 else None

    @property
    def passes_in_a_row(self) -> int:
        """Consecutive passes at the end of the history (two end the game, R-END-1)."""
        count = 0
        for ply in reversed(self._history[1:]):
            if ply[_POINT] >= 0:
                break
            count += 1
        return count

    @property
    def history(self) -> list[tuple[Color, int | None]]:
        """The moves since the start position; ``None`` is a pass."""
        return [
            (_COLOR_OF[ply[_MOVER]], ply[_POINT] if ply[_POINT] >= 0 else None)  # type: ignore[misc]
            for ply in self._history[1:]
        ]

    def color_at(self, point: int) -> Color | None:
        """The colour of the stone on ``point``, ``None`` if empty."""
        return _COLOR_OF[self._board[point]]

    def stones_bytes(self) -> bytes:
        """The stones as bytes, one per point: 0 empty, 1 black, 2 white."""
        return bytes(self._board)

    def start_stones(self) -> bytes:
        """The stones of the start position (handicap or other setup stones), as
        :meth:`stones_bytes`."""
        return self._history[0][_STONES]

    def list_stones(self, color: Color) -> list[int]:
        """The points holding ``color``'s stones, in point order."""
        code = _CODE_OF[color]
        return [p for p, v in enumerate(self._board) if v == code]

    def empty_points(self) -> list[int]:
        return [p for p, v in enumerate(self._board) if v == EMPTY]

    def group_at(self, point: int) -> Group | None:
        """The group through ``point``, ``None`` on an empty point."""
        code = self._board[point]
        if code == EMPTY:
            return None
        root = self._chain[point]
        stones = self._stones[root]
        libs = self._libs[root]
        assert stones is not None and libs is not None
        return Group(_COLOR_OF[code], frozenset(stones), frozenset(libs))  # type: ignore[arg-type]

    def liberties(self, point: int) -> frozenset[int]:
        """The liberties of the group through ``point`` (empty set on an empty point)."""
        group = self.group_at(point)
        return group.liberties if group else frozenset()

    def groups(self) -> Iterator[Group]:
        """Every group on the board, in order of their lowest point."""
        done: set[int] = set()
        for p, v in enumerate(self._board):
            if v and self._chain[p] not in done:
                done.add(self._chain[p])
                group = self.group_at(p)
                assert group is not None
                yield group

    def neighbours(self, point: int) -> tuple[int, ...]:
        return self._neighbours[point]

    def compute_hash(self) -> int:
        """The Zobrist hash computed from scratch (equals :attr:`hash`)."""
        z = self._zobrist
        h = self._turn_keys[self.to_move_code]
        for p, v in enumerate(self._board):
            if v:
                h ^= z[v][p]
        return h

    # -- legality -----------------------------------------------------------------------------

    def legality(self, color: Color, point: int | None) -> str | None:
        """Why ``color`` may not play on ``point`` now, or ``None`` if the move is legal.

        Reasons: ``game-over``, ``wrong-turn``, ``off-board``, ``occupied``, ``ko`` (taking back
        a single ko at once), ``suicide`` (R-SUICIDE-1), ``superko`` (any other repetition,
        R-KO-1; only under the ``ban`` cycle policy). A pass (``None``) is always legal while
        the game goes on.
        """
        code = _CODE_OF[color]
        if self.cycle_result is not None:
            return "game-over"
        if self._enforce_turn and code != self.to_move_code:
            return "wrong-turn"
        if point is None:
            return None
        outcome = self._analyse(code, point)
        return outcome if isinstance(outcome, str) else None

    def is_legal(self, color: Color, point: int | None) -> bool:
        return self.legality(color, point) is None

    def _analyse(self, c: int, p: int) -> str | tuple[list[int], list[int], list[int], int, bool]:
        """Check a stone of colour code ``c`` on ``p``: a reason string, or
        ``(friend roots, enemy roots, captured roots, new key, repeats)``."""
        board = self._board
        if not (type(p) is int and 0 <= p < len(board)):
            return "off-board"
        if board[p]:
            return "occupied"
        chain = self._chain
        libs = self._libs
        friends: list[int] = []
        enemies: list[int] = []
        captured: list[int] = []
        breathes = False
        for q in self._neighbours[p]:
            v = board[q]
            if v == EMPTY:
                breathes = True
            elif v == c:
                r = chain[q]
                if r not in friends:
                    friends.append(r)
                    if not breathes and len(libs[r]) > 1:  # type: ignore[arg-type]
                        breathes = True
            else:
                r = chain[q]
                if r not in enemies:
                    enemies.append(r)
                    if len(libs[r]) == 1:  # type: ignore[arg-type]
                        captured.append(r)
        if captured:
            if p == self._ko and c == self.to_move_code:
                return "ko"
        elif not breathes:
            return "suicide"
        opp = 3 - c
        z = self._zobrist
        key = self.hash ^ self._turn_keys[self.to_move_code] ^ z[c][p] ^ self._turn_keys[opp]
        if captured:
            zo = z[opp]
            stones = self._stones
            for r in captured:
                for s in stones[r]:  # type: ignore[union-attr]
                    key ^= zo[s]
        repeats = False
        if key in self._seen and self._repeats(c, p, captured, key):
            if self.cycle is CyclePolicy.BAN:
                return "superko"
            repeats = True
        return friends, enemies, captured, key, repeats

    def move_effect(self, color: Color, point: int) -> MoveEffect | None:
        """What a stone on ``point`` would do, without playing it; ``None`` if it is illegal.

        >>> from weiqi.rules.vertex import parse_vertex as v
        >>> b = Board.from_diagram('''
        ...     . X O .
        ...     X O . O
        ...     . X O .
        ...     . . . .
        ... ''')
        >>> b.move_effect(Color.BLACK, v("C3", 4))
        MoveEffect(captures=1, liberties=1, ataris=1)
        >>> b.move_effect(Color.BLACK, v("C1", 4))
        MoveEffect(captures=0, liberties=2, ataris=0)
        """
        if not self.is_legal(color, point):
            return None
        outcome = self._analyse(_CODE_OF[color], point)
        assert not isinstance(outcome, str)
        friends, enemies, captured_roots, _, _ = outcome
        stones = self._stones
        libs = self._libs
        board = self._board
        nbrs = self._neighbours
        own = {q for q in nbrs[point] if board[q] == EMPTY}
        members = {point}
        for r in friends:
            own |= libs[r]  # type: ignore[arg-type]
            members.update(stones[r])  # type: ignore[arg-type]
        own.discard(point)
        captures = 0
        for r in captured_roots:
            for s in stones[r]:  # type: ignore[union-attr]
                captures += 1
                if any(q in members for q in nbrs[s]):
                    own.add(s)
        ataris = 0
        for r in enemies:
            enemy_libs = libs[r]
            if r not in captured_roots and enemy_libs is not None and len(enemy_libs) == 2:
                ataris += 1
        return MoveEffect(captures, len(own), ataris)

    def _repeats(self, c: int, p: int, captured: list[int], key: int) -> bool:
        """Whether the position after the move equals a stored one (hash match confirmed)."""
        after = bytearray(self._board)
        after[p] = c
        for r in captured:
            for s in self._stones[r]:  # type: ignore[union-attr]
                after[s] = EMPTY
        return self._stored(bytes(after), 3 - c, key)

    def _stored(self, stones: bytes, to_move: int, key: int) -> bool:
        """Whether stones + player to move with hash ``key`` occurred before in this game."""
        history = self._history
        i = self._seen.get(key, -1)
        while i >= 0:
            ply = history[i]
            if ply[_STONES] == stones and ply[_TO_MOVE] == to_move:
                return True
            i = ply[_SAME_KEY]
        return False

    # -- moves --------------------------------------------------------------------------------

    def play(self, color: Color, point: int) -> list[int]:
        """Play a stone; return the captured points. Raises :class:`IllegalMove`.

        >>> from weiqi.rules.vertex import parse_vertex as v
        >>> b = Board(5)
        >>> for move in ["A2", "B2", "B1", "C1", "E5", "A1"]:
        ...     captured = b.play(b.to_move, v(move, 5))
        >>> [format_vertex(p, 5) for p in captured]
        ['B1']
        >>> b.play(Color.BLACK, v("B1", 5))
        Traceback (most recent call last):
        ...
        weiqi.errors.IllegalMove: move 7 at B1: ko
        """
        # The checks of _analyse, inlined: this is the hot path of replays and playouts.
        c = BLACK if color is _BLACK_COLOR else WHITE
        to_move = self.to_move_code
        if c != to_move and self._enforce_turn:
            raise self._illegal("wrong-turn", point)
        if self.cycle_result is not None:
            raise self._illegal("game-over", point)
        board = self._board
        p = point
        try:  # cheaper than checking the type and range of every point first
            if board[p] or p < 0:
                raise self._illegal("occupied" if p >= 0 else "off-board", point)
        except (IndexError, TypeError):
            raise self._illegal("off-board", point) from None
        chain = self._chain
        libs = self._libs
        stones = self._stones
        nbrs = self._neighbours
        friends: list[int] = []
        enemies: list[int] = []
        captured_roots: list[int] = []
        empties: list[int] = []
        for q in nbrs[p]:
            v = board[q]
            if v == EMPTY:
                empties.append(q)
            elif v == c:
                r = chain[q]
                if r not in friends:
                    friends.append(r)
            else:
                r = chain[q]
                if r not in enemies:
                    enemies.append(r)
                    if len(libs[r]) == 1:  # type: ignore[arg-type]
                        captured_roots.append(r)
        if captured_roots:
            if p == self._ko and c == to_move:
                raise self._illegal("ko", point)
        elif not empties:
            for r in friends:
                if len(libs[r]) > 1:  # type: ignore[arg-type]
                    break
            else:
                raise self._illegal("suicide", point)
        opp = 3 - c
        z = self._zobrist
        turn_keys = self._turn_keys
        key = self.hash ^ turn_keys[to_move] ^ turn_keys[opp] ^ z[c][p]
        if captured_roots:
            zo = z[opp]
            for r in captured_roots:
                for s in stones[r]:  # type: ignore[union-attr]
                    key ^= zo[s]
        seen = self._seen
        same_key = seen.get(key, -1)
        repeats = same_key >= 0 and self._repeats(c, p, captured_roots, key)
        if repeats and self.cycle is CyclePolicy.BAN:
            raise self._illegal("superko", point)

        board[p] = c
        for r in enemies:
            libs[r].discard(p)  # type: ignore[union-attr]
        if friends:
            base = friends[0]
            if len(friends) > 1:
                for r in friends:
                    if len(stones[r]) > len(stones[base]):  # type: ignore[arg-type]
                        base = r
            base_stones = stones[base]
            base_libs = libs[base]
            assert base_stones is not None and base_libs is not None
            base_stones.append(p)
            chain[p] = base
            base_libs.update(empties)
            if len(friends) > 1:
                for r in friends:
                    if r != base:
                        merged = stones[r]
                        assert merged is not None
                        for s in merged:
                            chain[s] = base
                        base_stones.extend(merged)
                        base_libs |= libs[r]  # type: ignore[arg-type]
                        stones[r] = None
                        libs[r] = None
            base_libs.discard(p)
        else:
            base = p
            chain[p] = p
            stones[p] = [p]
            libs[p] = set(empties)

        captured: list[int] = []
        if captured_roots:
            for r in captured_roots:
                dead = stones[r]
                assert dead is not None
                for s in dead:
                    board[s] = EMPTY
                    chain[s] = -1
                    for q in nbrs[s]:
                        if board[q] == c:
                            libs[chain[q]].add(s)  # type: ignore[union-attr]
                captured.extend(dead)
                stones[r] = None
                libs[r] = None
            if c == BLACK:
                self.captures_black += len(captured)
            else:
                self.captures_white += len(captured)
            if (
                len(captured) == 1
                and len(stones[base]) == 1  # type: ignore[arg-type]
                and len(libs[base]) == 1  # type: ignore[arg-type]
            ):
                ko = captured[0]
            else:
                ko = -1
        else:
            ko = -1

        self._ko = ko
        self.to_move_code = opp
        self.hash = key
        cycle_result = None
        if repeats:
            cycle_result = self.cycle_result = _cycle_result(self.cycle)
        history = self._history
        seen[key] = len(history)
        history.append(
            (
                c,
                p,
                bytes(board),
                opp,
                key,
                ko,
                self.captures_black,
                self.captures_white,
                cycle_result,
                same_key,
            )
        )
        return captured

    def pass_(self, color: Color) -> None:
        """Pass (R-PLAY-2): always legal while the game goes on, never a repetition."""
        c = _CODE_OF[color]
        if self.cycle_result is not None:
            raise self._illegal("game-over", None)
        if c != self.to_move_code and self._enforce_turn:
            raise self._illegal("wrong-turn", None)
        opp = 3 - c
        self.hash ^= self._turn_keys[self.to_move_code] ^ self._turn_keys[opp]
        self.to_move_code = opp
        self._ko = -1
        self._record(c, -1)

    def give_turn(self, color: Color) -> None:
        """``color`` is to move now, no move played: how a game record says that play resumed
        after a dispute with the claimant to move (R-END-3; SGF ``PL`` in a node of its own).
        Like a pass it lifts a ko ban; unlike one it is no ply (:meth:`undo` goes back over
        the move before it).

        >>> b = Board(5)
        >>> b.give_turn(Color.WHITE); b.to_move
        <Color.WHITE: 'W'>
        >>> _ = b.play(Color.WHITE, 12)
        """
        c = _CODE_OF[color]
        if c != self.to_move_code:
            self.hash ^= self._turn_keys[self.to_move_code] ^ self._turn_keys[c]
            self.to_move_code = c
            self._ko = -1

    def move(self, color: Color, point: int | None) -> list[int]:
        """Play a stone, or pass when ``point`` is ``None``; return the captured points."""
        if point is None:
            self.pass_(color)
            return []
        return self.play(color, point)

    def _illegal(self, reason: str, point: int | None) -> IllegalMove:
        vertex = None
        if point is None:
            vertex = "pass"
        elif type(point) is int and 0 <= point < self.size * self.size:
            vertex = format_vertex(point, self.size)
        elif point is not None:
            vertex = str(point)
        return IllegalMove(reason, move_number=self.move_number + 1, vertex=vertex)

    def _record(self, color: int, point: int) -> None:
        history = self._history
        history.append(
            (
                color,
                point,
                bytes(self._board),
                self.to_move_code,
                self.hash,
                self._ko,
                self.captures_black,
                self.captures_white,
                self.cycle_result,
                self._seen.get(self.hash, -1),
            )
        )
        self._seen[self.hash] = len(history) - 1

    # -- undo, copy, setup --------------------------------------------------------------------

    def undo(self) -> tuple[Color, int | None]:
        """Take back the last move and restore the position before it exactly; return the
        move taken back."""
        if len(self._history) <= 1:
            raise InputError("undo", Msg("no move to take back"))
        last = self._history.pop()
        if last[_SAME_KEY] >= 0:
            self._seen[last[_KEY]] = last[_SAME_KEY]
        else:
            del self._seen[last[_KEY]]
        self._restore(self._history[-1])
        point = last[_POINT]
        return _COLOR_OF[last[_MOVER]], (point if point >= 0 else None)  # type: ignore[return-value]

    def _restore(self, ply: _Ply) -> None:
        self._board[:] = ply[_STONES]
        self.to_move_code = ply[_TO_MOVE]
        self.hash = ply[_KEY]
        self._ko = ply[_KO]
        self.captures_black = ply[_CAPTURES_BLACK]
        self.captures_white = ply[_CAPTURES_WHITE]
        self.cycle_result = ply[_CYCLE]
        self._rebuild_groups()

    def _rebuild_groups(self) -> None:
        board = self._board
        nbrs = self._neighbours
        n = len(board)
        chain = self._chain = [-1] * n
        stones: list[list[int] | None] = [None] * n
        libs: list[set[int] | None] = [None] * n
        for p in range(n):
            v = board[p]
            if v == EMPTY or chain[p] >= 0:
                continue
            members = [p]
            chain[p] = p
            own: set[int] = set()
            for s in members:  # grows while we walk it
                for q in nbrs[s]:
                    w = board[q]
                    if w == EMPTY:
                        own.add(q)
                    elif w == v and chain[q] < 0:
                        chain[q] = p
                        members.append(q)
            stones[p] = members
            libs[p] = own
        self._stones = stones
        self._libs = libs

    def copy(self) -> Board:
        """An independent copy with the same history (so ko and superko carry over)."""
        other = Board.__new__(Board)
        other.size = self.size
        other.cycle = self.cycle
        other._enforce_turn = self._enforce_turn
        other._neighbours = self._neighbours
        other._zobrist = self._zobrist
        other._turn_keys = self._turn_keys
        other._board = bytearray(self._board)
        other._history = list(self._history)
        other._seen = dict(self._seen)
        other._restore(self._history[-1])
        return other

    def setup(
        self,
        black: Iterable[int] = (),
        white: Iterable[int] = (),
        to_move: Color | None = None,
    ) -> None:
        """Put stones on the board before the first move (handicap, SGF ``AB``/``AW``); the
        resulting position becomes the start of the game's history."""
        if self.move_number:
            raise InvalidSetting("setup", Msg("stones can only be set up before the first move"))
        n = self.size * self.size
        board = bytearray(self._board)
        for code, points in ((BLACK, black), (WHITE, white)):
            for p in points:
                if not (type(p) is int and 0 <= p < n):
                    raise InvalidSetting("setup", Msg("point %(p)s is off the board", p=repr(p)))
                if board[p]:
                    raise InvalidSetting(
                        "setup", Msg("%(p)s is occupied", p=format_vertex(p, self.size))
                    )
                board[p] = code
        self._board = board
        self._rebuild_groups()
        if any(libs is not None and not libs for libs in self._libs):
            self._restore(self._history[-1])
            raise InvalidSetting("setup", Msg("a group would have no liberties"))
        if to_move is not None:
            self.to_move_code = _CODE_OF[to_move]
        self.hash = self.compute_hash()
        self._ko = -1
        self._history.clear()
        self._seen.clear()
        self._record(EMPTY, -1)

    def place_handicap(self, points: Iterable[int]) -> None:
        """Place Black's handicap stones (fixed or free, R-HCP-2); White moves next.

        >>> b = Board(19)
        >>> b.place_handicap(fixed_handicap_points(4, 19))
        >>> len(b.list_stones(Color.BLACK)), b.to_move
        (4, <Color.WHITE: 'W'>)
        """
        chosen = list(points)
        if len(set(chosen)) != len(chosen):
            raise InvalidSetting("handicap", Msg("a point is given twice"))
        if not 2 <= len(chosen) <= 9:
            raise InvalidSetting("handicap", Msg("must be 2 to 9 stones"))
        if self.list_stones(Color.BLACK) or self.list_stones(Color.WHITE):
            raise InvalidSetting("handicap", Msg("the board must be empty"))
        self.setup(black=chosen, to_move=Color.WHITE)

    # -- display ------------------------------------------------------------------------------

    def __str__(self) -> str:
        """A diagram: ``X`` black, ``O`` white, ``+`` star point, ``.`` empty; row 1 at the
        bottom.

        >>> from weiqi.rules.vertex import parse_vertex as v
        >>> b = Board(5); _ = b.play(Color.BLACK, v("C3", 5)); print(b)
           A B C D E
         5 . . . . .  5
         4 . . . . .  4
         3 . . X . .  3
         2 . . . . .  2
         1 . . . . .  1
           A B C D E
        """
        size = self.size
        stars = set(star_points(size))
        letters = "   " + " ".join(COLUMNS[:size])
        lines = [letters]
        for row in range(size - 1, -1, -1):
            cells = []
            for col in range(size):
                p = row * size + col
                v = self._board[p]
                cells.append(
                    "X" if v == BLACK else "O" if v == WHITE else "+" if p in stars else "."
                )
            lines.append(f"{row + 1:2d} {' '.join(cells)} {row + 1:2d}")
        lines.append(letters)
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<Board {self.size}×{self.size} move {self.move_number}, {self.to_move.en} to move>"


def _cycle_result(policy: CyclePolicy) -> Result:
    if policy is CyclePolicy.DRAW:
        return Result.draw()
    if policy is CyclePolicy.REPLAY:
        return Result.replay()
    return Result.no_result()
