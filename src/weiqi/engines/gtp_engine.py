"""``weiqi gtp``: the rules engine as a GTP v2 engine, so any GTP program or GUI can use it as a
referee or an opponent.

Moves are checked under the Chinese rules (suicide forbidden, situational superko); either
colour may play at any time, as GTP wants. ``komi`` is in points, as in GTP (7.5 points = 3¾
stones); ``final_score`` and ``final_status_list`` count area with the dead-stone proposal of
:mod:`weiqi.rules.dead_stones` (or another one given to the engine); handicap stones give back
half a stone each (R-HCP-2). After a cycle that a supplementary rule ends (``--cycle draw``,
R-KO-2), ``final_score`` answers that outcome (``0``, or ``Void``) instead of a count.
``loadsgf``/``printsgf`` read and write SGF records.

>>> e = GtpEngine(dead_stones=lambda board: set())
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
from pathlib import Path
from typing import TextIO

from weiqi import __version__
from weiqi.clock.notation import GTP_TIME_COMMANDS, GtpTime
from weiqi.engines.policy import choose_move
from weiqi.errors import IllegalMove, InputError, InvalidSetting, WeiqiError
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


def proposed_dead(board: Board) -> set[int]:
    """The dead-stone proposal of :mod:`weiqi.rules.dead_stones` (seeded, reproducible)."""
    from weiqi.rules.dead_stones import propose_dead  # imported when asked: a fast start

    return propose_dead(board)


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
        dead_stones: DeadStones = proposed_dead,
    ) -> None:
        self.ruleset = (ruleset or Ruleset.chinese()).with_(handicap=0)
        self.seed = seed
        self.rng = random.Random(seed)
        self.dead_stones = dead_stones
        self.finished = False
        self.handicap = 0
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
            "loadsgf": self._loadsgf,
            "printsgf": self._printsgf,
        }
        # time_settings, kgs-time_settings, time_left: kept as weiqi.clock reads them.
        self.time = GtpTime()
        for name in GTP_TIME_COMMANDS:
            self._commands[name] = self._time_command(name)

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
        except WeiqiError as err:  # a refusal of the core that no command turned into words
            return f"?{ident} {err.message}\n\n"
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
        self.handicap = 0
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

    def _move_args(self, args: list[str]) -> tuple[Color, int | None]:
        """The colour and point of a move's two arguments (``play`` and ``is_legal``:
        ``b D4``, ``white pass``); ``None`` for a pass."""
        if len(args) != 2:
            raise GtpError("invalid color or coordinate")
        return self._color(args[0]), self._vertex(args[1])

    def _int(self, args: list[str], what: str) -> int:
        if len(args) != 1 or not re.fullmatch(r"[0-9]+", args[0]):
            raise GtpError(f"{what} not an integer")
        return int(args[0])

    def _vertices(self, points: Iterable[int]) -> str:
        size = self.board.size
        return " ".join(format_vertex(p, size) for p in _sorted_top_down(points, size))

    def _counting_rules(self) -> Ruleset:
        return self.ruleset.with_(
            handicap=self.handicap,
            handicap_placement=HandicapPlacement.FREE,
        )

    def _dead(self) -> set[int]:
        return self.dead_stones(self.board)

    # -- commands -----------------------------------------------------------------------------

    def _time_command(self, name: str) -> Callable[[list[str]], str]:
        def command(args: list[str]) -> str:
            self.time = self.time.apply(name, args)
            return ""

        return command

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
        color, point = self._move_args(args)
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
        color, point = self._move_args(args)
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
        # A cycle under a supplementary rule (R-KO-2) ended the game with its own outcome: 0
        # for a draw, Void for no result or a replay; nothing is counted.
        result = self.board.cycle_result
        if result is None:
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
        self.handicap = stones
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
        self.handicap = stones
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
        self.handicap = len(points)
        return ""

    def _showboard(self, args: list[str]) -> str:
        b = self.board
        return (
            f"\n{b}\n"
            f"Black has captured {b.captures[Color.BLACK]} stones, "
            f"White has captured {b.captures[Color.WHITE]} stones; "
            f"{b.to_move.en} to move"
        )

    def _loadsgf(self, args: list[str]) -> str:
        if not 1 <= len(args) <= 2 or (len(args) == 2 and not args[1].isdigit()):
            raise GtpError("syntax error")
        until = int(args[1]) if len(args) == 2 else None
        from weiqi.formats.sgf import read_sgf  # the SGF reader only for loadsgf
        from weiqi.formats.sgf_replay import record_handicap, start_board

        try:
            game = read_sgf(Path(args[0]).read_bytes(), source=args[0])
        except OSError:
            raise GtpError("cannot open or parse file") from None
        except InputError as err:
            raise GtpError(f"cannot load file: {err.message}") from None
        size = game.size
        komi = game.komi if game.komi is not None else self.ruleset.komi
        try:
            ruleset = self.ruleset.with_(board_size=size, komi=komi)
        except InvalidSetting as err:
            raise GtpError(f"cannot load file: {err.message}") from None
        # The start position as ``weiqi check`` sees it: setup stones before the first move,
        # and PL (else the first move's colour after setup stones; HA[1] is no handicap).
        try:
            board = start_board(game, cycle=ruleset.cycle, enforce_turn=False)
        except InputError as err:
            raise GtpError(f"cannot load file: {err.message}") from None
        number = 0
        started = False
        for node in game.main_line():
            if node.has_setup and (started or node.move is not None):
                raise GtpError("cannot load file: setup stones between moves")
            if node.move is None:
                continue
            started = True
            number += 1
            if until is not None and number >= until:
                break
            point = node.move.point
            try:
                board.move(node.move.color, None if point is None else point[0] * size + point[1])
            except IllegalMove as err:
                raise GtpError(f"cannot load file: {err.message}") from None
        self.ruleset = ruleset
        self.board = board
        try:
            self.handicap = record_handicap(game)
        except InputError as err:
            raise GtpError(f"cannot load file: {err.message}") from None
        return ""

    def _printsgf(self, args: list[str]) -> str:
        if len(args) > 1:
            raise GtpError("syntax error")
        from weiqi.formats.sgf import SgfGame, write_sgf

        size = self.board.size
        game = SgfGame(size=size, komi=self.ruleset.komi, handicap=self.handicap or None)
        start = self.board.start_stones()
        game.root.setup_black = [divmod(p, size) for p, v in enumerate(start) if v == 1]
        game.root.setup_white = [divmod(p, size) for p, v in enumerate(start) if v == 2]
        for color, point in self.board.history:
            game.play(color, None if point is None else divmod(point, size))
        text = write_sgf(game).decode("utf-8").strip()
        if args:
            try:
                Path(args[0]).write_text(text + "\n", encoding="utf-8")
            except OSError:
                raise GtpError("cannot write file") from None
            return ""
        return text
