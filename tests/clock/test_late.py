"""R-TIME-6: late arrival at the start of a game."""

from __future__ import annotations

import pytest

from weiqi.clock import Clock, Color, LatePolicy, Status, TimeControl, judge_late
from weiqi.rules.result import Outcome, Reason

B, W = Color.BLACK, Color.WHITE
HOUR = 3600.0


@pytest.mark.parametrize(
    ("policy", "late", "forfeit", "deduction"),
    [
        (LatePolicy.separate_venue(), 0, False, 0),
        (LatePolicy.separate_venue(), 600, False, 1200),
        (LatePolicy.separate_venue(), 3600, False, 7200),  # 1 hour inclusive
        (LatePolicy.separate_venue(), 3600.001, True, 0),
        (LatePolicy.same_venue(), 900, False, 1800),  # 15 minutes inclusive
        (LatePolicy.same_venue(), 901, True, 0),
        (LatePolicy(limit=900, double=False), 300, False, 300),
        (LatePolicy.quick(), 5000, False, 5000),  # absent byo-yomi: the clock decides
    ],
)
def test_r_time_6_limit_and_double_deduction(
    policy: LatePolicy, late: float, forfeit: bool, deduction: float
) -> None:
    """R-TIME-6: limit 60 / 15 min inclusive, past it a forfeit; within it, twice the late time."""
    ruling = judge_late(policy, late)
    assert (ruling.forfeit, ruling.deduction) == (forfeit, deduction)


def test_r_time_6_late_black_loses_twice_the_late_time() -> None:
    """R-TIME-6: Black's clock runs from the start; on arrival the same again is deducted."""
    clock = Clock.new(TimeControl.absolute(2 * HOUR), late=LatePolicy.same_venue())
    clock = clock.start(0.0, B, absent=[B])
    with pytest.raises(Exception, match="has not arrived"):
        clock.press(10, B)
    seated = clock.arrive(600, B)
    assert seated.absent == frozenset()
    assert seated.remaining(600, B).main == 2 * HOUR - 1200
    assert seated.used(600, B) == 1200


def test_r_time_6_late_white_loses_twice_the_late_time_even_if_black_moved() -> None:
    clock = Clock.new(TimeControl.absolute(2 * HOUR), late=LatePolicy.same_venue())
    clock = clock.start(0.0, B, absent=[W]).press(30, B)  # White's clock runs from 30 s
    seated = clock.arrive(600, W)
    assert seated.remaining(600, W).main == 2 * HOUR - 1200
    assert seated.running is W


def test_r_time_6_past_the_limit_is_a_forfeit_at_the_exact_instant() -> None:
    """R-TIME-6: 15 min inclusive; the forfeit falls one tick after the limit."""
    clock = Clock.new(TimeControl.absolute(2 * HOUR), late=LatePolicy.same_venue())
    clock = clock.start(1000.0, B, absent=[W]).press(1010, B)
    assert clock.next_deadline() == 1000 + 900.001
    assert clock.advance(1900).status is Status.RUNNING
    gone = clock.advance(1900.001)
    assert gone.status is Status.STOPPED and gone.forfeits == {W}
    result = gone.result()
    assert result is not None and result.winner is B and result.reason is Reason.FORFEIT
    assert gone.arrive(2000, W) == gone.advance(2000)  # too late: nothing changes


def test_r_time_6_both_late_are_judged_separately() -> None:
    """R-TIME-6: both late: each judged alone; both past the limit lose both."""
    tc = TimeControl.absolute(2 * HOUR)
    clock = Clock.new(tc, late=LatePolicy.separate_venue()).start(0.0, B, absent=[B, W])
    one = clock.arrive(1200, B)  # Black 20 min late: 40 min off
    assert one.remaining(1200, B).main == 2 * HOUR - 2400
    two = one.press(1300, B).arrive(1800, W)  # White 30 min late: 60 min off
    assert two.remaining(1800, W).main == HOUR
    both = clock.advance(HOUR + 1)
    result = both.result()
    assert result is not None and result.outcome is Outcome.BOTH_LOSE


def test_r_time_6_late_after_a_pause_only_runs_the_clock() -> None:
    """R-TIME-6: late after a pause: the clock simply runs, no forfeit deadline."""
    clock = Clock.new(TimeControl.absolute(5 * HOUR), late=LatePolicy.same_venue())
    clock = clock.start(0.0).press(60, B).pause(100).resume(10_000)
    assert clock.next_deadline() == 10_000 + 5 * HOUR - 40  # White's flag only
    assert clock.advance(10_000 + 2 * HOUR).status is Status.RUNNING


def test_r_time_6_quick_event_absent_byo_yomi() -> None:
    """R-TIME-6 (Art. 22.4): no main time: the absent player's clock runs in byo-yomi; seated in
    time they play on; when it is exhausted they forfeit."""
    tc = TimeControl.byo_yomi(0, 3, 30)
    clock = Clock.new(tc, late=LatePolicy.quick()).start(0.0, B, absent=[B])
    assert clock.next_deadline() == 90
    seated = clock.arrive(70, B)  # two periods gone, sat down in the third
    assert seated.remaining(70, B).periods == 1
    assert seated.press(75, B).remaining(75, B).periods == 1
    gone = clock.advance(90)
    assert gone.status is Status.STOPPED and gone.forfeits == {B}
    result = gone.result()
    assert result is not None and result.reason is Reason.FORFEIT and result.winner is W


def test_r_time_6_deduction_of_all_the_time_flags() -> None:
    """R-TIME-6: 10 min late with 20 min of absolute time: nothing left, the flag falls."""
    clock = Clock.new(TimeControl.absolute(1200), late=LatePolicy.same_venue())
    clock = clock.start(0.0, B, absent=[B])
    assert clock.arrive(540, B).remaining(540, B).main == 120
    gone = clock.arrive(600, B)
    assert gone.status is Status.FLAGGED and gone.flagged is B
    result = gone.result()
    assert result is not None and result.reason is Reason.TIME


def test_r_time_6_deduction_in_byo_yomi_takes_whole_periods() -> None:
    """R-TIME-6: past the main time the deduction comes out of the reserve, a started period
    counting as used: 5 min main + 5 × 60 s, 3 min late → 6 min off → 5 min + 1 period."""
    tc = TimeControl.chinese(limit=600, reserved=5, period=60)
    clock = Clock.new(tc, late=LatePolicy.same_venue()).start(0.0, W, absent=[B]).press(0, W)
    seated = clock.arrive(180, B)
    assert seated.remaining(180, B).main == 0 and seated.remaining(180, B).periods == 4


def test_r_time_6_late_white_flagged_on_arrival_while_black_thinks() -> None:
    """R-TIME-6: White arrives 10 min late with 15 min of absolute time while Black still thinks
    about the first move: 20 min off is more than White has, the flag falls at once, and Black's
    unfinished move still counts as Black's used time."""
    clock = Clock.new(TimeControl.absolute(900), late=LatePolicy.same_venue())
    clock = clock.start(0.0, B, absent=[W]).arrive(600, W)
    assert clock.status is Status.FLAGGED and clock.flagged is W
    assert clock.used(600, B) == 600
    assert clock.used(600, W) == 1200
    assert clock.next_deadline() is None


def test_r_time_6_single_deduction_policy_never_gives_time_back() -> None:
    policy = LatePolicy(limit=900, double=False)
    clock = Clock.new(TimeControl.absolute(3600), late=policy)
    clock = clock.start(0.0, B, absent=[B], scheduled=30.0).arrive(300, B)
    assert clock.remaining(300, B).main == 3300  # the clock ran 300 s; 270 s late: nothing more


def test_r_time_6_flag_of_one_and_absence_of_the_other_lose_both() -> None:
    """R-TIME-6: both late are judged alone: Black, seated, runs out of time at 60 s; White is
    still absent past the limit one millisecond later and forfeits too: both lose."""
    clock = Clock.new(TimeControl.absolute(60), late=LatePolicy(limit=60))
    clock = clock.start(0.0, B, absent=[B, W]).arrive(0, B)
    flagged = clock.advance(60)
    assert flagged.status is Status.FLAGGED
    result = flagged.result()
    assert result is not None and result.winner is W and result.reason is Reason.TIME
    assert flagged.next_deadline() == 60.001
    both = flagged.advance(60.001)
    assert both.forfeits == {W}
    result = both.result()
    assert result is not None and result.outcome is Outcome.BOTH_LOSE
    assert clock.arrive(60.001, W).result() == result  # arriving then changes nothing
