"""R-TIME-8 clock faults and lost records; R-TIME-9 remaining time and the restarted count."""

from __future__ import annotations

import pytest

from weiqi.clock import Clock, Color, Status, TimeControl, correct_readings, split_lost_record
from weiqi.errors import Conflict, InputError, PermissionDenied

B, W = Color.BLACK, Color.WHITE


@pytest.mark.parametrize(
    ("black", "white", "actual", "corrected", "new_black", "new_white"),
    [
        # 2 min per hour inclusive: 2 h of play, readings 116 min in total → corrected
        (3600, 3360, 7200, True, 3600 * 7200 / 6960, 3360 * 7200 / 6960),
        (3600, 3480, 7200, False, 3600, 3480),  # 2 min off in 2 h: 1 min per hour
        (1800, 1680, 3600, True, 1800 * 3600 / 3480, 1680 * 3600 / 3480),  # exactly 2 min
        (1800, 1681, 3600, False, 1800, 1681),  # 119 s off: replace, do not correct
        (1800, 1920, 3600, True, 1800 * 3600 / 3720, 1920 * 3600 / 3720),  # fast clock
        (900, 0, 1000, True, 1000, 0),  # all of it one side's
        (0, 0, 600, True, 300, 300),  # nothing read at all: split
        (0, 0, 0, False, 0, 0),
    ],
)
def test_r_time_8_proportional_correction(
    black: float,
    white: float,
    actual: float,
    corrected: bool,
    new_black: float,
    new_white: float,
) -> None:
    """R-TIME-8: off by 2 min per hour or more in total → corrected in proportion to the time
    each side used; less → no correction."""
    c = correct_readings(black, white, actual)
    assert c.corrected is corrected
    assert c.black_used == pytest.approx(new_black)
    assert c.white_used == pytest.approx(new_white)
    if corrected:
        assert c.black_used + c.white_used == pytest.approx(actual)


def test_r_time_8_one_sided_correction_needs_the_chief_referee() -> None:
    with pytest.raises(PermissionDenied):
        correct_readings(1800, 1500, 3600, one_side=W)
    c = correct_readings(1800, 1500, 3600, one_side=W, chief_referee=True)
    assert (c.black_used, c.white_used, c.corrected) == (1800, 1800, True)
    # below the threshold even the chief referee's one-sided correction changes nothing
    assert not correct_readings(1800, 1750, 3600, one_side=W, chief_referee=True).corrected


def test_r_time_8_lost_record_splits_equally() -> None:
    """R-TIME-8 (Art. 22.9): lost records of used time before a pause: split equally."""
    assert split_lost_record(7000) == (3500, 3500)
    with pytest.raises(InputError):
        split_lost_record(-1)


def test_r_time_8_corrected_readings_are_set_on_the_clock() -> None:
    clock = Clock.new(TimeControl.absolute(3 * 3600)).start(0.0).press(1800, B).press(3300, W)
    clock = clock.pause(3300)
    assert (clock.used(3300, B), clock.used(3300, W)) == (1800, 1500)
    c = correct_readings(clock.used(3300, B), clock.used(3300, W), 3600)
    fixed = clock.set_used(3300, B, c.black_used).set_used(3300, W, c.white_used)
    assert fixed.used(3300, B) == pytest.approx(1963.636, abs=0.001)
    assert fixed.remaining(3300, W).main == pytest.approx(10800 - 1636.364, abs=0.001)
    # giving time back works too (a clock that ran fast)
    back = clock.adjust(3300, W, -100)
    assert back.remaining(3300, W).main == 10800 - 1400


def test_r_time_9_remaining_at_any_instant() -> None:
    """R-TIME-9: a player may ask for their remaining time at any time."""
    clock = Clock.new(TimeControl.chinese(limit=600, reserved=3, period=60)).start(0.0)
    v = clock.remaining(400, B)  # 420 s main: 20 s left
    assert (v.main, v.periods, v.period, v.in_overtime, v.total) == (20, 3, 60, False, 200)
    v = clock.remaining(500, B)  # 80 s into byo-yomi
    assert (v.main, v.periods, v.period, v.in_overtime, v.total) == (0, 2, 40, True, 100)
    v = clock.remaining(600, B)
    assert v.flagged and v.total == 0
    assert clock.remaining(500, W).total == 600  # White's clock has not run


def test_r_time_9_misread_count_restarts_from_the_error() -> None:
    """R-TIME-9 (Art. 16.2): the referee misread the last minute's count at 52 s; the player
    asks, and the count restarts from 52 s."""
    clock = Clock.new(TimeControl.byo_yomi(0, 1, 60)).start(0.0)
    fixed = clock.restart_count(57, at=52)
    assert fixed.remaining(57, B).period == 8
    assert [a.callout.zh for a in fixed.announcements(57)][-2:] == ["1", "2"]
    assert fixed.next_deadline() == 65
    assert fixed.advance(64.999).status is Status.RUNNING
    with pytest.raises(InputError):
        clock.restart_count(57, at=58)
    with pytest.raises(Conflict):
        Clock.new(TimeControl.absolute(60)).start(0).restart_count(10, at=5)
    with pytest.raises(Conflict, match="main time"):
        Clock.new(TimeControl.byo_yomi(60, 1, 60)).start(0).restart_count(10, at=5)
