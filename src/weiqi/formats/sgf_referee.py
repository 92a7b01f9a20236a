"""The referee's game record as SGF: moves and passes on the main line, forfeited turns as
passes, stones moved by a ruling as set-up nodes, warnings, void moves, rulings and result
changes as comments on the node where they happened, and ``RE`` from the result.

>>> from weiqi.referee.record import GameRecord
>>> from weiqi.referee.actors import GameActor
>>> from weiqi.referee.events import Resign
>>> from weiqi.referee.nigiri import ColorAssignment
>>> from weiqi.rules.color import Color
>>> from weiqi.rules.ruleset import Ruleset
>>> rec = GameRecord.start(Ruleset.chinese(9), ColorAssignment.by_organiser("Li", "Wang"),
...                        referee=GameActor.referee("r1"), at=0)
>>> _ = rec.play(Color.BLACK, "E5", at=1)
>>> _ = rec.append(Resign(), GameActor.player(Color.WHITE), at=2)
>>> game = record_to_sgf(rec)
>>> game.result.to_sgf(), game.black_player, [str(m) for m in game.moves()]
('B+R', 'Li', ['B E5'])
>>> b"RE[B+R]" in write_sgf(game)
True
"""

from __future__ import annotations

from weiqi.clock.control import TimeControl
from weiqi.clock.notation import sgf_properties
from weiqi.formats.sgf import Point, SgfGame, SgfNode, write_sgf
from weiqi.referee.annotations import timeline
from weiqi.referee.record import GameRecord

__all__ = ["record_to_sgf", "write_record_sgf", "write_sgf"]


def _point(p: int, size: int) -> Point:
    row, col = divmod(p, size)
    return (row, col)


def record_to_sgf(
    record: GameRecord,
    *,
    event: str | None = None,
    round: str | None = None,
    time_control: TimeControl | None = None,
) -> SgfGame:
    """The record as an :class:`~weiqi.formats.sgf.SgfGame` (main line only). ``time_control``:
    the event's, written (``TM``, ``OT``) for a record that keeps no clock of its own (a game
    over the board, its clock on the table)."""
    line = timeline(record)
    size = line.ruleset.board_size
    game = SgfGame(
        size=size,
        komi=line.ruleset.komi,
        handicap=line.ruleset.handicap or None,
        rules="Chinese",
        result=line.result,
        black_player=line.black,
        white_player=line.white,
        event=event,
        round=round,
    )
    game.root.setup_black = [_point(p, size) for p in line.start_black]
    for text in line.root_comments:
        game.root.add_comment(text)
    played_under = line.time_control or time_control
    if played_under is not None:
        timing = sgf_properties(played_under)
        if "TM" in timing:
            game.time_limit = float(timing["TM"])
        game.overtime = timing.get("OT")
    last = None  # the colour of the last move or pass on the line
    for node in line.nodes:
        if node.move is not None:
            color, p = node.move
            if color is last:
                # Play resumed after a dispute with the claimant to move, who also moved last
                # (R-END-3): the turn is given in a node of its own, as SGF says it (PL).
                turn = SgfNode(extra={"PL": [color.value]})
                side = "黑" if color.value == "B" else "白"
                turn.add_comment(f"对死活有异议，续弈：{side}方先走（第21条第4款）")
                game.last_node().add_child(turn)
            last = color
            sgf_node = game.play(
                color,
                None if p is None else _point(p, size),
                time_left=node.time_left,
                overtime_left=node.overtime_left,
            )
        else:
            sgf_node = game.last_node().add_child(
                SgfNode(
                    setup_black=[_point(p, size) for p in node.add_black],
                    setup_white=[_point(p, size) for p in node.add_white],
                    setup_empty=[_point(p, size) for p in node.clear],
                )
            )
        for text in node.comments:
            sgf_node.add_comment(text)
    return game


def write_record_sgf(record: GameRecord, *, encoding: str = "UTF-8") -> bytes:
    """The record as SGF bytes."""
    return write_sgf(record_to_sgf(record), encoding=encoding)
