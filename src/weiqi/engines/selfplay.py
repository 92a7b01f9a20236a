"""Reproducible GNU Go self-play: finished games with GNU Go's own verdict on the end position.

Each game is played by a fresh GNU Go process (``--chinese-rules --situational-superko
--never-resign``) seeded with ``set_random_seed``, so a game depends only on its
``(size, komi, level, seed)`` and the GNU Go version. Play stops at two consecutive passes; then
GNU Go is asked for ``final_status_list dead`` and ``seki``, ``final_score`` and ``list_stones``.
The corpus is a JSON lines file, one :class:`SelfPlayGame` per line
(``bench/make_gnugo_games.py`` writes ``tests/data/gnugo/selfplay.jsonl``).

>>> game = SelfPlayGame(size=9, komi=7.5, level=1, seed=3, moves=["E5", "pass", "pass"],
...     dead=[], seki=[], black=["E5"], white=[], score="B+73.5", gnugo="3.8")
>>> SelfPlayGame.from_json(game.to_json()) == game
True
>>> game.colored_moves()[:2]
[(<Color.BLACK: 'B'>, 'E5'), (<Color.WHITE: 'W'>, 'pass')]
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from weiqi.engines.gtp import SimpleEngine
from weiqi.errors import InputError
from weiqi.messages import Msg
from weiqi.rules.color import Color
from weiqi.rules.vertex import parse_vertex

GNUGO = "/usr/games/gnugo"

_SGF_LETTERS = "abcdefghijklmnopqrstuvwxy"

#: GNU Go as our rules want it: area counting, situational superko, and games played to the end.
GNUGO_ARGS = ("--mode", "gtp", "--chinese-rules", "--situational-superko", "--never-resign")


@dataclass(frozen=True)
class SelfPlayGame:
    """One finished self-play game: its settings, moves (Black first, alternating, ``pass``
    included) and GNU Go's statement on the final position (vertices GTP style)."""

    size: int
    komi: float
    level: int
    seed: int
    moves: list[str]
    dead: list[str]
    seki: list[str]
    black: list[str]
    white: list[str]
    score: str
    gnugo: str = field(default="")

    def colored_moves(self) -> list[tuple[Color, str]]:
        """The moves with their colours."""
        return [
            (Color.BLACK if i % 2 == 0 else Color.WHITE, move) for i, move in enumerate(self.moves)
        ]

    def final_stones(self) -> bytes:
        """The final position from GNU Go's ``list_stones``: one byte per point (0 empty, 1 black,
        2 white), point = row·size + col with row 0 at the bottom."""
        stones = bytearray(self.size * self.size)
        for code, vertices in ((1, self.black), (2, self.white)):
            for vertex in vertices:
                point = parse_vertex(vertex, self.size)
                if point is None:
                    raise InputError(
                        Msg("game seed %(seed)s", seed=self.seed), Msg("a stone on 'pass'")
                    )
                stones[point] = code
        return bytes(stones)

    def to_sgf(self) -> str:
        """The game as a small SGF FF[4] record (Chinese rules, komi in points).

        >>> SelfPlayGame(size=9, komi=7.5, level=1, seed=3, moves=["A1", "pass"], dead=[],
        ...     seki=[], black=["A1"], white=[], score="B+73.5").to_sgf()[-20:]
        'level 1];B[ai];W[])\\n'
        """
        head = (
            f"(;GM[1]FF[4]CA[UTF-8]SZ[{self.size}]KM[{self.komi:g}]RU[Chinese]"
            f"PB[GNU Go]PW[GNU Go]RE[{self.score}]GN[seed {self.seed} level {self.level}]"
        )
        nodes = []
        for color, vertex in self.colored_moves():
            point = parse_vertex(vertex, self.size)
            where = ""
            if point is not None:
                row, col = divmod(point, self.size)
                where = (
                    "abcdefghijklmnopqrstuvwxy"[col]
                    + "abcdefghijklmnopqrstuvwxy"[self.size - 1 - row]
                )
            nodes.append(f";{color.value}[{where}]")
        return head + "".join(nodes) + ")\n"

    def to_json(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"))

    @classmethod
    def from_json(cls, line: str) -> SelfPlayGame:
        data = json.loads(line)
        return cls(**data)


def load_games(path: str | Path) -> list[SelfPlayGame]:
    """Read a corpus written by :func:`save_games`."""
    games = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                games.append(SelfPlayGame.from_json(line))
            except (ValueError, TypeError) as exc:
                raise InputError(
                    Msg("%(path)s, line %(number)s", path=path, number=number),
                    Msg("not a self-play game: %(exc)s", exc=exc),
                ) from None
    return games


def save_games(path: str | Path, games: Iterable[SelfPlayGame]) -> None:
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        for game in games:
            handle.write(game.to_json() + "\n")


def play_game(
    *,
    size: int,
    komi: float,
    level: int,
    seed: int,
    max_moves: int | None = None,
    gnugo: str = GNUGO,
    timeout: float = 120.0,
) -> SelfPlayGame | None:
    """Let GNU Go play itself to two passes; ``None`` if ``max_moves`` (default 3·size²) ran out.

    >>> import shutil, pytest
    >>> if not shutil.which(GNUGO):
    ...     pytest.skip("needs GNU Go")
    >>> game = play_game(size=5, komi=0.5, level=1, seed=1)
    >>> game.moves[-2:], game.score == play_game(size=5, komi=0.5, level=1, seed=1).score
    (['pass', 'pass'], True)
    """
    limit = max_moves if max_moves is not None else 3 * size * size
    with SimpleEngine.popen([gnugo, *GNUGO_ARGS], timeout=timeout) as engine:
        engine.boardsize(size)
        engine.clear_board()
        engine.komi(komi)
        engine.command(f"level {level}")
        engine.command(f"set_random_seed {seed}")
        moves: list[str] = []
        color = Color.BLACK
        while len(moves) < limit:
            moves.append(engine.genmove(color))
            color = color.opponent
            if moves[-2:] == ["pass", "pass"]:
                return SelfPlayGame(
                    size=size,
                    komi=komi,
                    level=level,
                    seed=seed,
                    moves=moves,
                    dead=sorted(engine.final_status_list("dead")),
                    seki=sorted(engine.final_status_list("seki")),
                    black=sorted(engine.list_stones(Color.BLACK)),
                    white=sorted(engine.list_stones(Color.WHITE)),
                    score=engine.command("final_score"),
                    gnugo=engine.version(),
                )
    return None


@dataclass(frozen=True)
class PlanItem:
    """``count`` games on ``size``×``size`` with levels cycling through ``levels``; game ``i``
    gets seed ``first_seed + i``."""

    size: int
    count: int
    levels: Sequence[int]
    komi: float = 7.5
    first_seed: int = 1

    def settings(self) -> list[tuple[int, float, int, int]]:
        """``(size, komi, level, seed)`` of each game."""
        return [
            (self.size, self.komi, self.levels[i % len(self.levels)], self.first_seed + i)
            for i in range(self.count)
        ]

    @classmethod
    def parse(cls, text: str) -> PlanItem:
        """``SIZE:COUNT:LEVELS[:FIRST_SEED]`` with levels ``1-5`` or ``1,3``.

        >>> PlanItem.parse("9:120:1-5").settings()[:2]
        [(9, 7.5, 1, 1), (9, 7.5, 2, 2)]
        >>> PlanItem.parse("13:2:1:1001").settings()
        [(13, 7.5, 1, 1001), (13, 7.5, 1, 1002)]
        """
        try:
            size, count, levels, *first = text.split(":")
            if len(first) > 1:
                raise ValueError("too many fields")
            if "-" in levels:
                low, high = (int(part) for part in levels.split("-"))
                level_list = list(range(low, high + 1))
            else:
                level_list = [int(part) for part in levels.split(",")]
            seed = int(first[0]) if first else 1
            item = cls(int(size), int(count), level_list, first_seed=seed)
        except ValueError:
            raise InputError(
                Msg("plan %(text)s", text=repr(text)),
                Msg("expected SIZE:COUNT:LEVELS[:FIRST_SEED], e.g. 9:120:1-5"),
            ) from None
        if not level_list or not 2 <= item.size <= 19 or item.count < 0:
            raise InputError(
                Msg("plan %(text)s", text=repr(text)),
                Msg("size 2–19, count ≥ 0, at least one level"),
            )
        return item
