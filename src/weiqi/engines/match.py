"""A refereed game between two GTP engines: our rules judge every move, our count ends it.

Each engine is asked ``genmove`` in turn and told the opponent's moves with ``play``; every move
is played on our :class:`~weiqi.rules.board.Board` first, so an engine that answers an illegal
move (occupied, suicide, ko, superko) loses by ruling, whatever the engine itself believes.
``resign`` ends the game 中盘胜; two passes in a row end it by count with the dead-stone
proposal (R-END-3); a repetition under a cycle policy other than ``ban`` ends it with that
policy's result (R-KO-2). The same engine may play both colours (self-play).

    with SimpleEngine.popen(gnugo_command) as black, SimpleEngine.popen(other) as white:
        game = referee_game(black, white, Ruleset.chinese(size=9))
        print(game.result.to_zh(), game.ended_by)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from weiqi.engines.gtp import EngineError, SimpleEngine
from weiqi.errors import IllegalMove, InputError
from weiqi.formats.sgf import SgfGame
from weiqi.rules.board import Board
from weiqi.rules.color import Color
from weiqi.rules.counting import Count, count
from weiqi.rules.dead_stones import propose_dead
from weiqi.rules.result import Reason, Result
from weiqi.rules.ruleset import Ruleset
from weiqi.rules.vertex import format_vertex, parse_vertex

#: How a refereed game ended.
ENDINGS = ("passes", "resignation", "illegal-move", "cycle", "move-limit")


@dataclass(frozen=True)
class EngineGame:
    """A finished engine game: its moves (``None`` = pass), result and how it ended.

    ``count`` and ``dead`` are set when the game ended by two passes; ``note`` names the illegal
    move or the resignation."""

    ruleset: Ruleset
    moves: tuple[tuple[Color, int | None], ...]
    result: Result
    ended_by: str
    dead: frozenset[int] = frozenset()
    count: Count | None = None
    note: str = ""

    def vertices(self) -> list[str]:
        """The moves as GTP vertices."""
        return [format_vertex(p, self.ruleset.board_size) for _, p in self.moves]

    def vertices_of(self, points: Iterable[int]) -> list[str]:
        """GTP names of ``points`` on this game's board."""
        return [format_vertex(p, self.ruleset.board_size) for p in points]

    def to_sgf_game(self, black_name: str = "", white_name: str = "") -> SgfGame:
        """The record as an :class:`SgfGame` (handicap stones as ``AB``, the ending as a
        comment on the last node)."""
        size = self.ruleset.board_size
        board = Board.from_ruleset(self.ruleset)
        game = SgfGame(
            size=size,
            komi=self.ruleset.komi,
            handicap=self.ruleset.handicap or None,
            result=self.result,
            result_text=self.result.to_sgf(),
            black_player=black_name or None,
            white_player=white_name or None,
        )
        game.root.setup_black = [divmod(p, size) for p in board.list_stones(Color.BLACK)]
        for color, point in self.moves:
            game.play(color, None if point is None else divmod(point, size))
        note = f"{self.ended_by}: {self.note}" if self.note else self.ended_by
        game.last_node().add_comment(f"{note}; {self.result.to_zh()}")
        return game


def _setup(engine: SimpleEngine, ruleset: Ruleset, handicap: list[int]) -> None:
    size = ruleset.board_size
    engine.boardsize(size)
    engine.clear_board()
    engine.komi(float(ruleset.komi * 2))
    if handicap:
        engine.set_free_handicap([format_vertex(p, size) for p in handicap])


def referee_game(
    black: SimpleEngine,
    white: SimpleEngine,
    ruleset: Ruleset,
    *,
    max_moves: int | None = None,
    dead_stone_seed: int = 0,
    move_timeout: float | None = None,
) -> EngineGame:
    """Play one game between two engines under ``ruleset`` and return it, refereed.

    ``max_moves`` (default 4·size²) ends a game that does not end by itself with no result.
    Engine failures (``? message``, a dead process, a timeout) raise :class:`EngineError`; they
    are not the rules' business.
    """
    size = ruleset.board_size
    board = Board.from_ruleset(ruleset)
    handicap = board.list_stones(Color.BLACK)
    engines = {Color.BLACK: black, Color.WHITE: white}
    for engine in {id(black): black, id(white): white}.values():
        _setup(engine, ruleset, handicap)
    limit = max_moves if max_moves is not None else 4 * size * size
    moves: list[tuple[Color, int | None]] = []

    def ended(result: Result, how: str, note: str = "") -> EngineGame:
        return EngineGame(ruleset, tuple(moves), result, how, note=note)

    while len(moves) < limit:
        color = board.to_move
        engine = engines[color]
        answer = engine.genmove(color, timeout=move_timeout)
        if answer == "resign":
            return ended(
                Result.win(color.opponent, Reason.RESIGNATION), "resignation", f"{color.en} resigns"
            )
        try:
            point = parse_vertex(answer, size)
            board.move(color, point)
        except (IllegalMove, InputError) as exc:
            reason = exc.kind if isinstance(exc, IllegalMove) else "not a vertex"
            note = f"move {len(moves) + 1}: {color.en} {answer}: {reason}"
            return ended(Result.win(color.opponent, Reason.RULING), "illegal-move", note)
        moves.append((color, point))
        other = engines[color.opponent]
        if other is not engine:
            other.play(color, answer)
        if board.cycle_result is not None:
            return ended(board.cycle_result, "cycle", f"move {len(moves)} repeats a position")
        if board.passes_in_a_row >= 2:
            dead = propose_dead(board, seed=dead_stone_seed)
            counted = count(board, dead, ruleset)
            return EngineGame(
                ruleset, tuple(moves), counted.result, "passes", frozenset(dead), counted
            )
    return ended(Result.no_result(), "move-limit", f"no end after {limit} moves")


def engine_name(engine: SimpleEngine) -> str:
    """``name version`` of an engine, or what it answers of it."""
    try:
        return f"{engine.name()} {engine.version()}".strip()
    except EngineError:
        return "unknown engine"
