"""The clock as the game record derives it (weiqi.referee keeps a Clock in its GameState)."""

from __future__ import annotations

from weiqi.clock import Color, Status, TimeControl
from weiqi.referee.actors import GameActor
from weiqi.referee.events import ClockAction, ClockEvent
from weiqi.referee.nigiri import ColorAssignment
from weiqi.referee.record import GameRecord
from weiqi.rules.ruleset import Ruleset

B, W = Color.BLACK, Color.WHITE
REF = GameActor.referee("r1")


def test_r_time_5_the_record_derives_the_clock() -> None:
    """R-TIME-5/R-TIME-7: presses and a pause in a real game record give the clock."""
    tc = TimeControl.chinese(limit=600, reserved=3, period=30)
    rec = GameRecord.start(
        Ruleset.chinese(9),
        ColorAssignment.by_organiser("Li", "Wang"),
        referee=REF,
        at=0,
        time_control=tc,
    )
    rec.append(ClockEvent(ClockAction.START), REF, 0)
    rec.play(B, "E5", at=50)
    rec.press_clock(B, 51)
    rec.play(W, "C3", at=110)
    rec.press_clock(W, 112)
    rec.append(ClockEvent(ClockAction.PAUSE), REF, 150)
    rec.append(ClockEvent(ClockAction.RESUME), REF, 4000)
    clock = rec.state.clock
    assert clock is not None and clock.status is Status.RUNNING and clock.running is B
    assert clock.used(4000, B) == 51 + 38
    assert clock.used(4000, W) == 61
    assert clock.remaining(4010, B).main == 510 - 89 - 10
