"""R-TIME-3: the byo-yomi call-outs, their schedule for other period lengths, and the clock's
announcements due in the current move."""

from __future__ import annotations

import pytest

from weiqi.clock import Clock, Color, Kind, Status, TimeControl, callouts, schedule

B, W = Color.BLACK, Color.WHITE


def test_r_time_3_sixty_second_period_with_periods_to_spare() -> None:
    """R-TIME-3: 30, 40, 50, 55, 58 s, then at 60 s "1分，还剩N分"."""
    calls = schedule(60, 5)
    assert [(c.at, c.zh) for c in calls] == [
        (30, "30秒"),
        (40, "40秒"),
        (50, "50秒"),
        (55, "55秒"),
        (58, "58秒"),
        (60, "1分，还剩4分"),
    ]
    assert [c.en for c in calls][-1] == "1 minute, 4 minutes left"
    assert schedule(60, 2)[-1].en == "1 minute, 1 minute left"
    assert schedule(60, 4)[-1].zh == "1分，还剩3分"


def test_r_time_3_last_period_counts_every_second() -> None:
    """R-TIME-3: in the last minute: 30, 40, 50 s, then 1 … 10 at 51 … 60 s."""
    calls = schedule(60, 1)
    assert [c.at for c in calls] == [30, 40, 50, *range(51, 61)]
    assert [c.zh for c in calls] == ["30秒", "40秒", "50秒", *map(str, range(1, 11))]
    assert [c.en for c in calls][:3] == ["30 seconds", "40 seconds", "50 seconds"]
    assert calls[-1].kind is Kind.COUNT and calls[-1].value == 10


@pytest.mark.parametrize(
    ("period", "left", "times", "last_text"),
    [
        (30, 3, [15, 20, 25, 28, 29, 30], "30秒，还剩2次"),  # 27.5 rounds half up to 28
        (30, 1, [15, 20, *range(21, 31)], "10"),
        (20, 2, [10, 13, 17, 18, 19, 20], "20秒，还剩1次"),
        (20, 1, [10, *range(11, 21)], "10"),
        (10, 3, [5, 7, 8, 9, 10], "10秒，还剩2次"),
        (10, 1, list(range(1, 11)), "10"),
        (5, 1, [1, 2, 3, 4, 5], "5"),
        (120, 2, [60, 80, 100, 110, 116, 120], "120秒，还剩1次"),
        (120, 1, [60, 80, 100, *range(111, 121)], "10"),
    ],
)
def test_r_time_3_shorter_periods_scale_the_schedule(
    period: float, left: int, times: list[float], last_text: str
) -> None:
    """R-TIME-3: shorter periods scale the 60 s schedule (fractions 1/2, 2/3, 5/6, 11/12, 29/30,
    rounded half up to whole seconds; the final count-down stays in real seconds)."""
    calls = schedule(period, left)
    assert [c.at for c in calls] == times
    assert calls[-1].zh == last_text
    assert len({c.at for c in calls}) == len(calls)  # no two calls at once


def test_r_time_3_english_for_other_periods() -> None:
    assert schedule(30, 3)[-1].en == "30 seconds, 2 periods left"
    assert schedule(30, 2)[-1].en == "30 seconds, 1 period left"


def test_r_time_3_calls_due_by_an_instant_are_inclusive() -> None:
    assert [c.zh for c in callouts(29.999, 60, 5)] == []
    assert [c.zh for c in callouts(30, 60, 5)] == ["30秒"]
    assert [c.zh for c in callouts(53, 60, 1)] == ["30秒", "40秒", "50秒", "1", "2", "3"]


def test_r_time_3_announcements_span_the_periods_of_one_move() -> None:
    """R-TIME-3: a move that uses a period hears its whole schedule, then the next period's."""
    clock = Clock.new(TimeControl.byo_yomi(10, 3, 60)).start(0.0)
    assert clock.announcements(39.9) == []  # 10 s main + 29.9 s
    calls = clock.announcements(10 + 60 + 30)
    assert [(a.offset, a.callout.zh) for a in calls] == [
        (40, "30秒"),
        (50, "40秒"),
        (60, "50秒"),
        (65, "55秒"),
        (68, "58秒"),
        (70, "1分，还剩2分"),
        (100, "30秒"),
    ]
    # last period: the count, and "10" is when the flag falls
    end = clock.announcements(10 + 180)
    assert [a.callout.zh for a in end][-3:] == ["8", "9", "10"]
    assert clock.next_deadline() == 190
    assert clock.advance(190).status is Status.FLAGGED


def test_r_time_3_next_callout_gives_the_instant_to_wake_for() -> None:
    clock = Clock.new(TimeControl.byo_yomi(0, 2, 60)).start(100.0)
    assert clock.next_callout(100) == (130.0, schedule(60, 2)[0])
    at, call = clock.next_callout(158.5) or (None, None)
    assert at == 160 and call is not None and call.zh == "1分，还剩1分"
    paused = clock.pause(150).resume(200)  # 50 s into the move; paused time does not count
    assert paused.next_callout(200)[0] == 205  # type: ignore[index]
    assert Clock.new(TimeControl.absolute(60)).start(0).next_callout(0) is None


def test_r_time_3_announcements_restart_with_each_move() -> None:
    clock = Clock.new(TimeControl.byo_yomi(0, 5, 60)).start(0.0).press(45, B)
    assert [a.callout.zh for a in clock.announcements(80)] == ["30秒"]  # White, 35 s in
    clock = clock.press(80, W)
    assert clock.announcements(80) == []
