"""R-TIME-5: pauses and the sealed move at an adjournment."""

from __future__ import annotations

import pytest

from weiqi.clock import Clock, Color, Status, TimeControl
from weiqi.errors import Conflict

B, W = Color.BLACK, Color.WHITE


def test_r_time_5_paused_time_is_not_counted() -> None:
    """R-TIME-5: time during a scheduled pause is not counted."""
    clock = Clock.new(TimeControl.absolute(3600)).start(0.0).press(100, B)
    paused = clock.pause(400)  # White thought 300 s
    assert paused.running is None and paused.next_deadline() is None
    assert paused.remaining(5000, W).main == 3300
    resumed = paused.resume(5000)
    assert resumed.remaining(5060, W).main == 3240
    assert resumed.next_deadline() == 5000 + 3300


def test_r_time_5_a_move_spanning_a_pause_keeps_its_byo_yomi_time() -> None:
    """R-TIME-5: the part of a byo-yomi move before the pause counts with the part after."""
    clock = Clock.new(TimeControl.byo_yomi(0, 3, 60)).start(0.0)
    clock = clock.pause(40).resume(1000)
    assert clock.remaining(1019.999, B).periods == 3
    assert clock.press(1020, B).remaining(1020, B).periods == 2


def test_r_time_5_sealed_move_the_sealer_clock_runs_until_sealing() -> None:
    """R-TIME-5: at an adjournment the player to move seals; their clock runs until sealing; at
    resumption the sealed move is played and the opponent's clock runs."""
    clock = Clock.new(TimeControl.absolute(7200)).start(0.0).press(600, B)
    adjourned = clock.seal(1500, W)  # White thinks 900 s, then seals
    assert adjourned.status is Status.PAUSED and adjourned.sealed
    assert adjourned.remaining(1500, W).main == 7200 - 900
    assert adjourned.remaining(90_000, B).main == 7200 - 600  # nothing runs overnight
    resumed = adjourned.resume(90_000)
    assert resumed.running is B and not resumed.sealed
    assert resumed.remaining(90_100, B).main == 7200 - 700


def test_r_time_5_sealing_in_byo_yomi_is_a_timed_move() -> None:
    clock = Clock.new(TimeControl.byo_yomi(0, 3, 60)).start(0.0)
    assert clock.seal(61, B).remaining(61, B).periods == 2
    assert clock.seal(180, B).status is Status.FLAGGED


def test_r_time_5_pause_and_resume_only_in_order() -> None:
    clock = Clock.new(TimeControl.absolute(60)).start(0.0)
    with pytest.raises(Conflict):
        clock.resume(1)
    with pytest.raises(Conflict):
        clock.pause(1).pause(2)
    with pytest.raises(Conflict):
        clock.pause(1).press(2, B)
