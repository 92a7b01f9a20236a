"""The clock derived from a real game record's clock entries (weiqi.referee)."""

from __future__ import annotations

from weiqi.clock import Clock, Color, Status, TimeControl, replay_record
from weiqi.referee.actors import Actor
from weiqi.referee.events import ClockAction, ClockEvent
from weiqi.referee.nigiri import ColorAssignment
from weiqi.referee.record import GameRecord
from weiqi.rules.ruleset import Ruleset

B, W = Color.BLACK, Color.WHITE
REF = Actor.referee("r1")


def test_clock_replays_from_the_game_record() -> None:
    """R-TIME-5/R-TIME-7: presses, a pause and a sealed move in the record give the clock."""
    rec = GameRecord.start(
        Ruleset.chinese(9), ColorAssignment.by_organiser("Li", "Wang"), referee=REF, at=0
    )
    rec.append(ClockEvent(ClockAction.START), REF, 0)
    rec.play(B, "E5", at=50)
    rec.press_clock(B, 51)
    rec.play(W, "C3", at=110)
    rec.press_clock(W, 112)
    rec.append(ClockEvent(ClockAction.PAUSE), REF, 150)
    rec.append(ClockEvent(ClockAction.RESUME), REF, 4000)
    tc = TimeControl.chinese(limit=600, reserved=3, period=30)
    clock = replay_record(Clock.new(tc), rec.state.clock)
    assert clock.status is Status.RUNNING and clock.running is B
    assert clock.used(4000, B) == 51 + 38
    assert clock.used(4000, W) == 61
    assert clock.remaining(4010, B).main == 510 - 89 - 10
