"""``weiqi gtp``: the rules engine as a GTP v2 engine, so any GTP program or GUI can use it as a
referee or an opponent.

Moves are checked under the Chinese rules (suicide forbidden, situational superko); either
colour may play at any time, as GTP wants. ``komi`` is in points, as in GTP (7.5 points = 3¾
stones); ``final_score`` counts area with the dead-stone proposal given to the engine (by
default every stone counts as alive).

>>> e = GtpEngine()
>>> e.handle("boardsize 9")
'= \\n\\n'
>>> e.handle("play black E5")
'= \\n\\n'
>>> e.handle("2 play white E5")
'?2 illegal move\\n\\n'
>>> e.handle("is_legal w D5")
'= 1\\n\\n'
>>> e.handle("list_stones black")
'= E5\\n\\n'
>>> e.handle("final_score")
'= B+73.5\\n\\n'
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import TextIO

from weiqi import __version__
from weiqi.engines.policy import choose_move
from weiqi.errors import IllegalMove, InputError, InvalidSetting
from weiqi.rules.board import Board
from weiqi.rules.color import Color
from weiqi.rules.counting import count
from weiqi.rules.handicap import fixed_handicap_points, max_fixed_handicap
from weiqi.rules.ruleset import HandicapPlacement, Ruleset
from weiqi.rules.vertex import MAX_SIZE, MIN_SIZE, format_vertex, parse_vertex

#: Finds the dead stones of a finished position (R-END-3); the default finds none.
DeadStones = Callable[[Board], set[int]]


class GtpError(Exception):
    """A GTP failure answer (``? message``)."""


def _no_dead_stones(board: Board) -> set[int]:
    return set()


def _sorted_top_down(points: Iterable[int], size: int) -> list[int]:
    return sorted(points, key=lambda p: (-(p // size), p % size))


class GtpEngine:
    """A GTP v2 engine over :class:`~weiqi.rules.board.Board`.

    ``handle`` answers one command line; ``run`` serves a whole session. ``seed`` makes
    ``genmove`` reproducible; ``dead_stones`` is the proposal ``final_score`` and
    ``final_status_list`` use.
    """

    def __init__(
        self,
        ruleset: Ruleset | None = None,
        *,
        seed: int = 0,
        dead_stones: DeadStones = _no_dead_stones,
    ) -> None:
        self.ruleset = (ruleset or Ruleset.chinese()).with_(handicap=0)
        self.seed = seed
        self.rng = random.Random(seed)
        self.dead_stones = dead_stones
        self.finished = False
        self.board = self._new_board()
        self._commands: dict[str, Callable[[list[str]], str]] = {
            "protocol_version": lambda args: "2",
            "name": lambda args: "weiqi",
            "version": lambda args: __version__,
            "known_command": self._known_command,
            "list_commands": lambda args: "\n".join(sorted(self._commands)),
            "quit": self._quit,
            "boardsize": self._boardsize,
            "clear_board": self._clear_board,
            "komi": self._komi,
            "play": self._play,
            "genmove": self._genmove,
            "undo": self._undo,
            "is_legal": self._is_legal,
            "list_stones": self._list_stones,
            "captures": self._captures,
            "final_score": self._final_score,
            "final_status_list": self._final_status_list,
            "fixed_handicap": self._fixed_handicap,
            "place_free_handicap": self._place_free_handicap,
            "set_free_handicap": self._set_free_handicap,
            "showboard": self._showboard,
        }

    # -- protocol -----------------------------------------------------------------------------

    def handle(self, line: str) -> str | None:
        """The full answer to one command line (ending in a blank line), or ``None`` for a
        line that holds no command (empty, comment)."""
        text = "".join(ch for ch in line if ch in "\t\n" or (ord(ch) >= 32 and ord(ch) != 127))
        text = text.split("#", 1)[0].replace("\t", " ").strip()
        if not text:
            return None
        words = text.split()
        ident = ""
        if words[0].isdigit():
            ident = words.pop(0)
            if not words:
                return f"?{ident} missing command\n\n"
        name, args = words[0], words[1:]
        command = self._commands.get(name)
        if command is None:
            return f"?{ident} unknown command\n\n"
        try:
            answer = command(args)
        except GtpError as err:
            return f"?{ident} {err}\n\n"
        return f"={ident} {answer}\n\n"

    def run(self, stdin: TextIO, stdout: TextIO) -> None:
        """Serve commands from ``stdin`` until ``quit`` or the end of input."""
        for line in stdin:
            answer = self.handle(line)
            if answer is not None:
                stdout.write(answer)
                stdout.flush()
            if self.finished:
                break

    # -- helpers ------------------------------------------------------------------------------

    def _new_board(self) -> Board:
        return Board(self.ruleset.board_size, cycle=self.ruleset.cycle, enforce_turn=False)

    def _color(self, word: str) -> Color:
        key = word.lower()
        if key in ("b", "black"):
            return Color.BLACK
        if key in ("w", "white"):
            return Color.WHITE
        raise GtpError("invalid color")

    def _vertex(self, word: str) -> int | None:
        try:
            return parse_vertex(word, self.board.size)
        except InputError:
            raise GtpError("invalid coordinate") from None

    def _int(self, args: list[str], what: str) -> int:
        if len(args) != 1 or not re.fullmatch(r"[0-9]+", args[0]):
            raise GtpError(f"{what} not an integer")
        return int(args[0])

    def _vertices(self, points: Iterable[int]) -> str:
        size = self.board.size
        return " ".join(format_vertex(p, size) for p in _sorted_top_down(points, size))

    def _counting_rules(self) -> Ruleset:
        handicap = self._handicap_stones()
        return self.ruleset.with_(
            handicap=handicap if handicap >= 2 else 0,
            handicap_placement=HandicapPlacement.FREE,
        )

    def _handicap_stones(self) -> int:
        """Black stones set up before the first move."""
        return sum(1 for v in self.board.start_stones() if v == 1)

    def _dead(self) -> set[int]:
        return self.dead_stones(self.board)

    # -- commands -----------------------------------------------------------------------------

    def _known_command(self, args: list[str]) -> str:
        return "true" if len(args) == 1 and args[0] in self._commands else "false"

    def _quit(self, args: list[str]) -> str:
        self.finished = True
        return ""

    def _boardsize(self, args: list[str]) -> str:
        size = self._int(args, "boardsize")
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise GtpError("unacceptable size")
        self.ruleset = self.ruleset.with_(board_size=size)
        self.board = self._new_board()
        return ""

    def _clear_board(self, args: list[str]) -> str:
        self.board = self._new_board()
        return ""

    def _komi(self, args: list[str]) -> str:
        if len(args) != 1:
            raise GtpError("komi not a float")
        try:
            points = Fraction(args[0])
        except (ValueError, ZeroDivisionError):
            raise GtpError("komi not a float") from None
        try:
            self.ruleset = self.ruleset.with_(komi=points / 2)
        except InvalidSetting as err:
            raise GtpError(f"komi {err.reason} (a multiple of 0.5 points)") from None
        return ""

    def _play(self, args: list[str]) -> str:
        if len(args) != 2:
            raise GtpError("invalid color or coordinate")
        color = self._color(args[0])
        point = self._vertex(args[1])
        try:
            self.board.move(color, point)
        except IllegalMove:
            raise GtpError("illegal move") from None
        return ""

    def _genmove(self, args: list[str]) -> str:
        if len(args) != 1:
            raise GtpError("invalid color")
        color = self._color(args[0])
        if self.board.cycle_result is not None:
            return "pass"
        point = choose_move(self.board, color, self.rng)
        self.board.move(color, point)
        return format_vertex(point, self.board.size)

    def _undo(self, args: list[str]) -> str:
        try:
            self.board.undo()
        except InputError:
            raise GtpError("cannot undo") from None
        return ""

    def _is_legal(self, args: list[str]) -> str:
        if len(args) != 2:
            raise GtpError("invalid color or coordinate")
        color = self._color(args[0])
        point = self._vertex(args[1])
        return "1" if self.board.is_legal(color, point) else "0"

    def _list_stones(self, args: list[str]) -> str:
        if len(args) != 1:
            raise GtpError("invalid color")
        return self._vertices(self.board.list_stones(self._color(args[0])))

    def _captures(self, args: list[str]) -> str:
        if len(args) != 1:
            raise GtpError("invalid color")
        return str(self.board.captures[self._color(args[0])])

    def _final_score(self, args: list[str]) -> str:
        result = count(self.board, self._dead(), self._counting_rules()).result
        return result.to_sgf()

    def _final_status_list(self, args: list[str]) -> str:
        if len(args) != 1 or args[0] not in ("alive", "dead", "seki"):
            raise GtpError("invalid status")
        dead = self._dead()
        if args[0] == "seki":
            return ""  # seki is not told apart from life yet
        size = self.board.size
        wanted = [
            _sorted_top_down(group.stones, size)
            for group in self.board.groups()
            if (group.stones <= dead) == (args[0] == "dead")
        ]
        wanted.sort(key=lambda stones: (-(stones[0] // size), stones[0] % size))
        return "\n".join(self._vertices(stones) for stones in wanted)

    def _check_handicap(self, args: list[str]) -> int:
        stones = self._int(args, "handicap")
        if (
            self.board.move_number
            or self.board.list_stones(Color.BLACK)
            or self.board.list_stones(Color.WHITE)
        ):
            raise GtpError("board not empty")
        if not 2 <= stones <= 9:
            raise GtpError("invalid handicap")
        return stones

    def _fixed_handicap(self, args: list[str]) -> str:
        stones = self._check_handicap(args)
        if stones > max_fixed_handicap(self.board.size):
            raise GtpError("invalid handicap")
        points = fixed_handicap_points(stones, self.board.size)
        self.board.place_handicap(points)
        return self._vertices(points)

    def _place_free_handicap(self, args: list[str]) -> str:
        stones = self._check_handicap(args)
        size = self.board.size
        if stones <= max_fixed_handicap(size):
            points = fixed_handicap_points(stones, size)
        else:
            if stones >= size * size:
                raise GtpError("invalid handicap")
            # Small boards: spread the stones over a seeded shuffle of the points.
            order = list(range(size * size))
            random.Random(self.seed).shuffle(order)
            points = order[:stones]
        self.board.place_handicap(points)
        return self._vertices(points)

    def _set_free_handicap(self, args: list[str]) -> str:
        if (
            self.board.move_number
            or self.board.list_stones(Color.BLACK)
            or self.board.list_stones(Color.WHITE)
        ):
            raise GtpError("board not empty")
        points = [self._vertex(word) for word in args]
        if any(p is None for p in points) or len(set(points)) != len(points):
            raise GtpError("bad vertex list")
        if not 2 <= len(points) <= 9:
            raise GtpError("bad vertex list")
        try:
            self.board.place_handicap([p for p in points if p is not None])
        except InvalidSetting:
            raise GtpError("bad vertex list") from None
        return ""

    def _showboard(self, args: list[str]) -> str:
        b = self.board
        return (
            f"\n{b}\n"
            f"Black has captured {b.captures[Color.BLACK]} stones, "
            f"White has captured {b.captures[Color.WHITE]} stones; "
            f"{b.to_move.en} to move"
        )
