"""Check every game of an SGF file along its main line, in one pass: ``weiqi check``.

:func:`check_sgf` reads each game of a file (a collection holds many), replays its main line on
the rules board as it goes and yields one :class:`GameCheck` per game: the number of main-line
moves, the first move the rules refuse, and the reader's notes. Every check of
:func:`~weiqi.formats.sgf.read_sgf` and :func:`~weiqi.formats.sgf_replay.replay` is made, with
the same messages — syntax errors name the line and column, bad values the move and property —
but no tree is built:

>>> [(g.number, g.moves, g.error) for g in check_sgf(b"(;SZ[9];B[ee];W[ee])(;SZ[9];B[aa])")]
[(1, 2, ReplayError(move=2, vertex='E5', reason='occupied')), (2, 1, None)]
>>> next(check_sgf(b"(;SZ[9];B[ee];W[e5])", source="g.sgf")).failure.message
"g.sgf, move 2: bad point 'e5' in W[e5]"

Why a tokeniser of our own. sgfmill's parser first turns the whole file into a list of tokens,
then into a tree of property maps, and :func:`read_sgf` then into :class:`SgfNode` objects: three
passes, each holding all of the file (a 100 MB record took 9 GB), and the node-building layer
alone cost twice sgfmill's tokeniser. Here one regular expression reads a plain move node
(``;B[pd]``, nearly every node of a real game) and its point is looked up in a table; every other
node goes through the same property reader and :class:`~weiqi.formats.sgf._Builder` as
:func:`read_sgf`, so notes and errors stay identical. Variations are read and checked but not
kept, so memory is one game's main line (at most :data:`MAX_MOVES` moves) plus the file's bytes,
whatever the file holds. A syntax error is located by the same code as :func:`read_sgf` (over
sgfmill's tokeniser), which also knows the exact rules this scanner follows.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache

from sgfmill import sgf_grammar

from weiqi.errors import IllegalMove, InputError
from weiqi.formats.sgf import (
    _START_RE,
    Point,
    SgfGame,
    SgfNode,
    _Builder,
    _decode,
    _locate_syntax_error,
    _needs_decoding,
    _Place,
    note_tail,
    on_board,
    sgf_point,
)
from weiqi.formats.sgf_replay import (
    ReplayError,
    choose_first_player,
    move_reason,
    record_handicap,
    refusal,
    replay,
    resumed_turn,
    setup_board,
    setup_of,
)
from weiqi.rules.board import Board
from weiqi.rules.color import Color
from weiqi.rules.vertex import format_vertex

#: The most moves a main line may have; a longer one is refused (the longest real games have
#: under 1,000 moves; each replayed move keeps its position, about 0.5 kB on 19×19).
MAX_MOVES = 10_000
#: The largest file ``weiqi check`` reads (it holds one file's bytes at a time).
MAX_FILE_BYTES = 256 * 1024 * 1024

_BLACK, _WHITE = Color.BLACK, Color.WHITE
# A run of move nodes, ``;B[pd];W[dd];B[]``: nearly all of a real game. Besides its move a node
# may hold a comment and well-formed times and periods left (``BL[3599.5]``, ``OW[3]``): what
# Fox and most servers write on every move, and nothing the checker has to look at (the reader
# notes only malformed times, which do not match here). The run is matched in one go and its
# moves listed by ``findall``; any other node goes through the full property reader.
_EXTRA = rb"\s*(?:[BW]L\[\d{1,9}(?:\.\d{1,6})?\]|O[BW]\[\d{1,6}\]|C\[[^\\\]]*(?:\\.[^\\\]]*)*\])"
_MOVE = rb"[BW]\[(?:[a-z]{2})?\]"
_NODE = rb"\s*;(?:%s)*\s*%s(?:%s)*" % (_EXTRA, _MOVE, _EXTRA)
_MOVE_RUN_RE = re.compile(rb"(?:%s(?=\s*[;()]))+" % _NODE, re.DOTALL)
_MOVE_ITEM_RE = re.compile(rb"\s*;(?:%s)*\s*(%s)(?:%s)*" % (_EXTRA, _MOVE, _EXTRA), re.DOTALL)
_SPLIT_WINDOW = 1 << 16
_DELIMITER_RE = re.compile(rb"\s*([;()])")
_IDENT_RE = re.compile(rb"\s*([A-Za-z]{1,64})")
_VALUE_RE = re.compile(rb"\s*\[([^\\\]]*(?:\\.[^\\\]]*)*)\]", re.DOTALL)
_LOWER = b"abcdefghijklmnopqrstuvwxyz"


@dataclass
class GameCheck:
    """One game of a file: its number in the file (from 1), the moves of its main line, the
    first illegal one (``None`` when all are legal), the reader's notes, and ``failure`` when
    the game cannot be read at all (then ``moves`` and ``error`` mean nothing)."""

    number: int
    moves: int = 0
    error: ReplayError | None = None
    notes: list[str] = field(default_factory=list)
    failure: InputError | None = None


class _SyntaxFailure(Exception):
    """The scanner met something sgfmill's grammar refuses; located by ``_locate_syntax_error``."""


class _TooLong(Exception):
    pass


@cache
def _moves(size: int) -> dict[bytes, tuple[Color, int | None]]:
    """A move as written (``b"B[pd]"``) → its colour and board point, ``None`` for a pass
    (``B[]``, or ``B[tt]`` up to 19×19); points off the board are not in the table."""
    table: dict[bytes, tuple[Color, int | None]] = {}
    for color in (_BLACK, _WHITE):
        letter = color.value.encode()
        for col in range(size):
            for row in range(size):
                point = bytes((97 + col, 97 + size - 1 - row))
                table[letter + b"[" + point + b"]"] = (color, row * size + col)
        table[letter + b"[]"] = (color, None)
        if size <= 19:
            table[letter + b"[tt]"] = (color, None)
    return table


def check_sgf(data: bytes, *, source: str = "file.sgf") -> Iterator[GameCheck]:
    """Check every game of an SGF file's bytes (decoded by its ``CA`` as :func:`read_sgf`
    does); ``source`` names the file in messages (games after the first add ``game N``).

    A game that cannot be read is yielded with its ``failure``; after a syntax error, or a
    main line above :data:`MAX_MOVES` moves, the rest of the file is not read. A file with no
    game at all yields one failure.
    """
    notes: list[str] = []
    if data.isascii() and not _needs_decoding(data, notes):
        raw = bytes(data)  # the same text in every charset a CA can name here: no copy
    else:
        try:
            text = _decode(bytes(data), source, notes)
        except InputError as err:
            yield GameCheck(1, notes=notes, failure=err)
            return
        raw = text.encode("utf-8")
        del text

    def scan(
        start: int, number: int, where: str, game_notes: list[str]
    ) -> tuple[GameCheck, int | None]:
        game = GameCheck(number, notes=game_notes)
        try:
            end = _Scan(raw, where, game).run(start)
        except _SyntaxFailure:
            try:
                coarse, end = sgf_grammar._parse_sgf_game(raw, start)
            except ValueError as exc:
                game.failure = _locate_syntax_error(raw, source, str(exc), start)
                return game, None
            # sgfmill reads what this scanner refused: check the game the slow way.
            game = _check_tree(coarse, where, number, game_notes)
        except _TooLong:
            game.failure = InputError(
                f"{where}, move {MAX_MOVES + 1}",
                f"the main line has more than {MAX_MOVES:,} moves, the most this checker "
                "replays; the rest of the file was not read",
            )
            return game, None
        if game.failure is not None:
            game.moves, game.error = 0, None  # an unreadable game has no verdict
        return game, end

    yield from _each_game(raw, source, notes, scan)


def _each_game(
    raw: bytes,
    source: str,
    notes: list[str],
    check: Callable[[int, int, str, list[str]], tuple[GameCheck, int | None]],
) -> Iterator[GameCheck]:
    """Every game of a file's ``raw`` bytes, as ``check(start, number, where, notes)`` finds
    it: the game starting at offset ``start``, numbered from 1, named ``where`` in messages
    (``source``, then ``source, game N``), with ``notes`` (the file's for the first game, new
    ones after it); ``check`` returns the game and the offset after it, ``None`` when the rest
    of the file is not to be read. A file with no game at all yields one failure; after the
    last game, left-over SGF syntax is noted on it.

    >>> one = lambda start, number, where, notes: (GameCheck(number, moves=start), start + 4)
    >>> [(g.number, g.moves) for g in _each_game(b"(;) (;)", "f.sgf", [], one)]
    [(1, 0), (2, 4)]
    >>> next(_each_game(b"no game", "f.sgf", [], one)).failure is not None
    True
    """
    start = _START_RE.search(raw)
    if start is None:
        yield GameCheck(1, notes=notes, failure=_locate_syntax_error(raw, source, "no game"))
        return
    number = 0
    while start is not None:
        number += 1
        where = source if number == 1 else f"{source}, game {number}"
        game, end = check(start.start(), number, where, notes if number == 1 else [])
        if end is None:
            yield game
            return
        more = note_tail(raw, end, game.notes, more=None)
        yield game
        start = _START_RE.search(raw, end) if more else None


def _check_tree(
    coarse: sgf_grammar.Coarse_game_tree, source: str, number: int, notes: list[str]
) -> GameCheck:
    """A game from sgfmill's parse tree, checked through :func:`read_sgf`'s builder and
    :func:`replay`: the reference the scanner agrees with."""
    out = GameCheck(number, notes=notes)
    try:
        game = _Builder(source, notes, keep_off_board=True).build(coarse)
        record_handicap(game)
        outcome = replay(game)
    except InputError as err:
        out.failure = err
        return out
    out.moves, out.error = outcome.moves, outcome.error
    return out


def check_sgf_slowly(data: bytes, *, source: str = "file.sgf") -> Iterator[GameCheck]:
    """:func:`check_sgf` through sgfmill's parser, :func:`read_sgf`'s builder and
    :func:`replay` (the whole tree of each game in memory): the reference for tests and the
    benchmark."""
    notes: list[str] = []
    try:
        text = _decode(bytes(data), source, notes)
    except InputError as err:
        yield GameCheck(1, notes=notes, failure=err)
        return
    raw = text.encode("utf-8")

    def parse(
        start: int, number: int, where: str, game_notes: list[str]
    ) -> tuple[GameCheck, int | None]:
        try:
            coarse, end = sgf_grammar._parse_sgf_game(raw, start)
        except ValueError as exc:
            failure = _locate_syntax_error(raw, source, str(exc), start)
            return GameCheck(number, notes=game_notes, failure=failure), None
        return _check_tree(coarse, where, number, game_notes), end

    yield from _each_game(raw, source, notes, parse)


class _Scan:
    """One game's scan: the tokeniser's state, the main line's replay."""

    def __init__(self, raw: bytes, source: str, out: GameCheck):
        self.raw = raw
        self.source = source
        self.out = out
        self.builder = _Builder(source, out.notes, keep_off_board=True)
        self.game: SgfGame | None = None
        self.size = 19
        self.table = _moves(19)
        self.before_first_move: list[SgfNode] = []
        self.board: Board | None = None
        self.moves = 0  # main-line moves so far
        self.failed = False  # a bad value: the rest of the game is tokenised, not checked
        # Errors found while replaying (setup stones during the game, an impossible setup) and
        # HA: they count only if the rest of the game reads, as with read_sgf then replay.
        self.halted: InputError | None = None
        self.refused: InputError | None = None
        self.split = True  # try bare move nodes split at ";" until that fails once

    def run(self, start: int) -> int:
        """Scan the game tree opening at ``start``; return the offset after its last ``)``."""
        raw = self.raw
        delimiter = _DELIMITER_RE.match
        move_run = _MOVE_RUN_RE.match
        move_items = _MOVE_ITEM_RE.findall
        pos = start + 1  # after "("
        depth = 1
        main_depth = 1  # depth of the deepest tree on the main line
        main_active = True  # the main line may still grow
        in_sequence = True  # in a tree's node sequence, before its variations
        sequence_nodes = 0
        number = 0  # moves along the path to the current node
        numbers: list[int] = []  # ``number`` where each open variation began
        while True:
            m = delimiter(raw, pos)
            if m is None:
                raise _SyntaxFailure
            char = m.group(1)
            if char == b";":
                if not in_sequence:
                    raise _SyntaxFailure
                on_main = main_active and depth == main_depth
                found = False
                if self.game is None:
                    pass
                elif self.split and (split := self._split_run(m.start(1))) is not None:
                    items, pos = split
                    found = True
                elif (run := move_run(raw, m.start())) is not None:
                    pos = run.end()
                    items = move_items(raw, m.start(), pos)
                    found = True
                if found:
                    sequence_nodes += len(items)
                    number += len(items)
                    if on_main:
                        self._play(items)
                    # In a variation any two letters are a point (kept off the board).
                    continue
                sequence_nodes += 1
                props, pos = self._properties(m.end())
                number = self._node(props, number, on_main)
            elif char == b"(":
                if in_sequence and sequence_nodes == 0:
                    raise _SyntaxFailure
                pos = m.end()
                in_sequence = True
                sequence_nodes = 0
                depth += 1
                numbers.append(number)
                if main_active and depth == main_depth + 1:
                    main_depth = depth
            else:  # ")"
                if in_sequence and sequence_nodes == 0:
                    raise _SyntaxFailure
                pos = m.end()
                in_sequence = False
                if main_active and depth == main_depth:
                    main_active = False
                depth -= 1
                if depth == 0:
                    break
                number = numbers.pop()
        if not self.failed and self.game is not None:
            if self.board is None and self.halted is None:
                try:
                    self._start(None)  # an impossible setup is an error without moves too
                except InputError as err:
                    self.halted = err
            self.out.moves = self.moves
            self.out.failure = self.refused or self.halted
        return pos

    def _split_run(self, at: int) -> tuple[list[bytes], int] | None:
        """The moves of a run of bare move nodes (``;B[pd];W[dd]``, GNU Go's records) from the
        ``;`` at ``at`` up to the next parenthesis, and the offset after them, by splitting at
        each ``;``: every piece must be a move as written, else ``None`` (and the regular
        expressions read the rest of this game)."""
        raw = self.raw
        window = at + _SPLIT_WINDOW
        cut = raw.find(b")", at, window)
        opening = raw.find(b"(", at, cut if cut >= 0 else window)
        if opening >= 0:
            cut = opening
        if cut < 0:  # no parenthesis near: stop at the last whole node in the window
            cut = raw.rfind(b";", at + 1, window)
            if cut < 0:
                self.split = False
                return None
        items = [part.strip() for part in raw[at + 1 : cut].split(b";")]
        if None in map(self.table.get, items):
            self.split = False
            return None
        return items, cut

    def _properties(self, pos: int) -> tuple[dict[str, list[bytes]], int]:
        """The properties of a node from ``pos`` (after its ``;``), as sgfmill's parser gives
        them: identifiers without lower-case letters, repeated ones merged."""
        raw = self.raw
        props: dict[str, list[bytes]] = {}
        ident_match = _IDENT_RE.match
        value_match = _VALUE_RE.match
        while (m := ident_match(raw, pos)) is not None:
            ident = m.group(1).translate(None, _LOWER).decode("ascii")
            pos = m.end()
            values = []
            while (v := value_match(raw, pos)) is not None:
                values.append(v.group(1))
                pos = v.end()
            if not values:
                raise _SyntaxFailure
            props.setdefault(ident, []).extend(values)
        return props, pos

    def _node(self, props: dict[str, list[bytes]], number: int, on_main: bool) -> int:
        """Read (and on the main line, play) a node; return the move number along its path."""
        has_move = "B" in props or "W" in props
        if self.failed:
            return number + has_move
        try:
            if self.game is None:
                self.game, move_props = self.builder.root(props)
                self.size = self.game.size
                self.table = _moves(self.size)
                try:
                    record_handicap(self.game)
                except InputError as err:
                    self.refused = err
                self.before_first_move.append(self.game.root)
                if move_props is not None:
                    node = self.builder.node(move_props, _Place(1, True))
                    self._node_on_main(node, 0)
                    return 1
                return 0
            place = _Place(number + has_move, on_main)
            node = self.builder.node(props, place)
            if on_main:
                self._node_on_main(node, number)
        except InputError as err:
            self.out.failure = err
            self.failed = True
        return number + has_move

    def _node_on_main(self, node: SgfNode, number: int) -> None:
        if (
            node.has_setup
            and (node.move is not None or self.board is not None)
            and self.out.error is None  # the replay stops at the first illegal move
            and self.halted is None
        ):
            where = f"move {number + 1}" if node.move is not None else f"node after move {number}"
            self.halted = InputError(
                f"{self.source}, {where}",
                "setup stones (AB/AW/AE) during the game cannot be replayed under the rules",
            )
        move = node.move
        if move is None:
            if self.board is None:
                self.before_first_move.append(node)
            elif self.out.error is None and self.halted is None:
                turn = resumed_turn(node)  # play resumed after a dispute (R-END-3)
                if turn is not None:
                    self.board.give_turn(turn)
            return
        point: Point | None = move.point
        if point is not None and not on_board(point, self.size):
            self._move(move.color, None, off_board=sgf_point(point, self.size))
            return
        self._move(move.color, None if point is None else point[0] * self.size + point[1])

    def _start(self, first: Color | None) -> Board:
        assert self.game is not None
        black, white, player = setup_of(self.before_first_move)
        to_move = choose_first_player(black, white, player, self.game.handicap, first)
        self.board = setup_board(self.size, black, white, to_move, self.source)
        return self.board

    def _play(self, items: list[bytes]) -> None:
        """Replay a run of plain move nodes (``B[pd]`` each) on the main line."""
        entries = list(map(self.table.get, items))
        board = self.board
        first = entries[0]
        if board is None and first is not None and not self.failed and self.halted is None:
            board = self._board_for(first[0])  # the run starts the game
        if (
            board is None
            or None in entries
            or self.failed
            or self.halted is not None
            or self.out.error is not None
            or self.moves + len(entries) > MAX_MOVES
        ):
            self._play_slowly(items, entries)
            return
        # The hot loop of ``weiqi check``: nothing but the board's own calls.
        played = board.move_number
        play, pass_ = board.play, board.pass_
        try:
            for color, point in entries:  # type: ignore[misc]
                if point is None:
                    pass_(color)
                else:
                    play(color, point)
        except IllegalMove as err:
            index = board.move_number - played  # the refused move's place in the run
            color, point = entries[index]  # type: ignore[misc]
            self._refuse(self.moves + index + 1, point, refusal(board, point, err.kind))
        self.moves += len(entries)

    def _refuse(self, number: int, point: int | None, reason: str) -> None:
        self.out.error = ReplayError(number, format_vertex(point, self.size), reason)

    def _play_slowly(
        self, items: list[bytes], entries: list[tuple[Color, int | None] | None]
    ) -> None:
        for item, entry in zip(items, entries, strict=True):
            if entry is None:  # off the board: read as any other node, to say why
                ident, value = item[:1].decode("ascii"), item[2:-1]
                self._node({ident: [value]}, self.moves, True)
                continue
            self._move(*entry)

    def _board_for(self, first: Color) -> Board | None:
        """The start board at the first move (``None`` when the setup is impossible)."""
        try:
            return self._start(first)
        except InputError as err:
            self.halted = err
            return None

    def _move(self, color: Color, point: int | None, off_board: str | None = None) -> None:
        self.moves += 1
        if self.moves > MAX_MOVES:
            raise _TooLong
        if self.out.error is not None or self.failed or self.halted is not None:
            return
        board = self.board if self.board is not None else self._board_for(color)
        if board is None:
            return
        if off_board is not None:
            self.out.error = ReplayError(self.moves, off_board, "off-board")
            return
        why = move_reason(board, color, point)
        if why is not None:
            self._refuse(self.moves, point, why)
