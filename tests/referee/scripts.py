"""Scripted games for the referee tests: small boards, moves in GTP notation."""

from __future__ import annotations

from fractions import Fraction

from weiqi.clock.control import TimeControl
from weiqi.referee.actors import GameActor
from weiqi.referee.events import AgreeDead, MarkDead, Pass
from weiqi.referee.nigiri import ColorAssignment
from weiqi.referee.record import GameRecord
from weiqi.rules.color import Color
from weiqi.rules.ruleset import IllegalMoves, Ruleset
from weiqi.rules.vertex import parse_vertex

B, W = Color.BLACK, Color.WHITE
REF = GameActor.referee("r1")
CHIEF = GameActor.chief_referee("chief")
BLACK = GameActor.player(B)
WHITE = GameActor.player(W)

#: 5×5, Black walls column C, White column D: Black counts 15, White 10. With komi 2¼ the par
#: (12½) plus komi is 14¾, so Black wins on the board by ¼ stone.
WALLS = ["C1", "D1", "C2", "D2", "C3", "D3", "C4", "D4", "C5", "D5"]
KOMI_QUARTER = Fraction(9, 4)

#: 5×5: White takes a ko at A1, capturing B1; Black retaking at B1 at once is the ko.
KO = ["A2", "B2", "B1", "C1", "E5", "A1"]


class Clock:
    """Times for the events: each call is one second later."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1
        return self.now


def new_game(
    size: int = 5,
    komi: Fraction = KOMI_QUARTER,
    mode: IllegalMoves = IllegalMoves.ONLINE,
    colors: ColorAssignment | None = None,
    time_control: TimeControl | None = None,
) -> tuple[GameRecord, Clock]:
    clock = Clock()
    ruleset = Ruleset(board_size=size, komi=komi, play_mode=mode)
    record = GameRecord.start(
        ruleset,
        colors or ColorAssignment.by_organiser("Li", "Wang"),
        referee=REF,
        at=clock(),
        time_control=time_control,
    )
    return record, clock


def pt(vertex: str, size: int = 5) -> int:
    point = parse_vertex(vertex, size)
    assert point is not None
    return point


def play(record: GameRecord, clock: Clock, moves: list[str]) -> None:
    """Alternate moves starting with the player to move."""
    for vertex in moves:
        record.play(record.state.to_move, vertex, clock())


def pass_and_count(record: GameRecord, clock: Clock, dead: tuple[int, ...] = ()) -> None:
    """Both pass, Black marks ``dead``, White agrees."""
    record.append(Pass(), GameActor.player(record.state.to_move), clock())
    record.append(Pass(), GameActor.player(record.state.to_move), clock())
    record.append(MarkDead(dead), BLACK, clock())
    record.append(AgreeDead(), WHITE, clock())
