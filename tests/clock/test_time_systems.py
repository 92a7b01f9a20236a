"""Worked examples for each time system: R-TIME-1, R-TIME-2, R-TIME-4, Fischer, untimed."""

from __future__ import annotations

import pytest

from weiqi.clock import Clock, Color, Status, TimeControl
from weiqi.errors import Conflict
from weiqi.rules.result import Reason

B, W = Color.BLACK, Color.WHITE


def black_moves(tc: TimeControl, durations: list[float]) -> tuple[Clock, float]:
    """Black plays moves of the given lengths, White answering instantly; (clock, now)."""
    clock = Clock.new(tc).start(0.0, B)
    now = 0.0
    for d in durations:
        now += d
        clock = clock.press(now, B)
        if clock.status is not Status.RUNNING:
            break
        clock = clock.press(now, W)
    return clock, now


# -- R-TIME-1 absolute time ------------------------------------------------------------------------


def test_r_time_1_absolute_time_runs_down_and_loses_at_zero() -> None:
    """R-TIME-1: a fixed main time; running out loses."""
    tc = TimeControl.absolute(600)
    clock, now = black_moves(tc, [100, 200, 250])
    assert clock.remaining(now, B).main == 50
    assert clock.next_deadline() == now + 50
    assert clock.advance(now + 49.999).status is Status.RUNNING
    flagged = clock.advance(now + 50)
    assert flagged.status is Status.FLAGGED and flagged.flagged is B
    result = flagged.result()
    assert result is not None and result.winner is W and result.reason is Reason.TIME
    # a press exactly at the deadline is too late
    assert clock.press(now + 50, B).status is Status.FLAGGED


def test_r_time_1_giving_up_contesting_stops_both_clocks() -> None:
    """R-TIME-1 (Art. 12.4(4)): a player who gives up contesting the board may stop the clocks."""
    clock = Clock.new(TimeControl.absolute(600)).start(0.0).press(10, B)
    stopped = clock.stop(20)
    assert stopped.status is Status.STOPPED and stopped.running is None
    assert stopped.next_deadline() is None
    assert stopped.remaining(5000, W).main == 590  # frozen: nothing runs any more
    assert stopped.result() is None  # the count decides, not the clock


# -- R-TIME-2 byo-yomi ----------------------------------------------------------------------------

CHINESE = TimeControl.chinese(limit=3600, reserved=5, period=60)


@pytest.mark.parametrize(
    ("move", "periods_left"),
    [
        (0, 5),
        (1, 5),
        (59, 5),
        (59.999, 5),
        (60, 4),
        (61, 4),
        (119.999, 4),
        (120, 3),
        (130, 3),
        (299.999, 1),
    ],
)
def test_r_time_2_a_move_costs_one_period_per_full_period(move: float, periods_left: int) -> None:
    """R-TIME-2: 60 min with 5 reserved: in byo-yomi a 59 s move costs nothing, 60 s one period,
    130 s two."""
    clock, now = black_moves(CHINESE, [3300, move])
    assert clock.status is Status.RUNNING
    assert clock.remaining(now, B).periods == periods_left
    assert clock.remaining(now, B).period == 60.0


def test_r_time_2_main_time_runs_into_byo_yomi_within_a_move() -> None:
    """R-TIME-2: a move that starts in main time continues into byo-yomi."""
    clock, now = black_moves(CHINESE, [3200, 159])  # 100 s main + 59 s: nothing from the reserve
    assert clock.remaining(now, B).periods == 5 and clock.remaining(now, B).main == 0
    clock, now = black_moves(CHINESE, [3200, 160])  # 100 s main + 60 s: one period
    assert clock.remaining(now, B).periods == 4


def test_r_time_2_last_period_running_out_loses() -> None:
    """R-TIME-2: when the last period runs out without a move, the player loses (超时负)."""
    clock, now = black_moves(CHINESE, [3300, 60, 60, 60, 60])  # one period left
    assert clock.remaining(now, B).periods == 1
    assert clock.next_deadline() == now + 60
    assert clock.press(now + 59.999, B).status is Status.RUNNING
    late = clock.press(now + 60, B)  # "10" said as the stone lands: the minute is used
    assert late.status is Status.FLAGGED and late.flagged is B
    result = late.result()
    assert result is not None and result.to_zh() == "白超时胜"


def test_r_time_2_forfeited_turn_on_request_keeps_the_last_period() -> None:
    """R-TIME-2 (Art. 22.5): on the player's request (event allows it), a pass instead, and the
    same byo-yomi continues with the last period kept."""
    tc = TimeControl.chinese(limit=120, reserved=2, period=60, timeout_pass=True)
    clock = Clock.new(tc).start(0.0).advance(120)
    assert clock.status is Status.FLAGGED and clock.flagged is B
    passed = clock.forfeit_turn(125)
    assert passed.status is Status.RUNNING and passed.running is W
    assert passed.result() is None
    view = passed.remaining(125, B)
    assert (view.periods, view.period) == (1, 60)
    assert passed.used(125, B) == 120
    # White moves; Black's byo-yomi continues as before: the last period again
    again = passed.press(130, W)
    assert again.next_deadline() == 190
    assert again.press(189, B).remaining(189, B).periods == 1


def test_r_time_2_forfeited_turn_needs_the_event_setting() -> None:
    """R-TIME-2: without the event setting, the flag is a loss; the request is refused."""
    clock = Clock.new(TimeControl.byo_yomi(0, 1, 30)).start(0.0).advance(30)
    with pytest.raises(Conflict, match="timeout_pass"):
        clock.forfeit_turn(31)


@pytest.mark.parametrize("period", [30, 20, 10])
def test_r_time_2_quick_forms_work_the_same_way(period: int) -> None:
    """R-TIME-2: quick events use 30/20/10 s periods the same way."""
    tc = TimeControl.byo_yomi(0, 3, period)
    clock, now = black_moves(tc, [period - 1, period])  # costs 0, then 1
    assert clock.remaining(now, B).periods == 2
    clock, now = black_moves(tc, [period - 1, period, 2 * period])  # the last two used up
    assert clock.status is Status.FLAGGED and clock.remaining(now, B).periods == 0


def test_r_time_2_quick_form_without_main_time() -> None:
    """R-TIME-2: 3 × 30 s, no main time: 29 s costs nothing, 30 s one period."""
    clock, now = black_moves(TimeControl.byo_yomi(0, 3, 30), [29, 30, 45])
    assert clock.remaining(now, B).periods == 1
    assert clock.next_deadline() == now + 30


# -- R-TIME-4 moves per period --------------------------------------------------------------------


def test_r_time_4_leftover_time_is_carried_into_the_next_period() -> None:
    """R-TIME-4: 15 moves per 10 minutes after the main time; leftover carried over."""
    tc = TimeControl.moves_per_period(3600, 15, 600)
    clock, now = black_moves(tc, [3600] + [30] * 14)  # 15 moves in 420 s: 180 s left over
    view = clock.remaining(now, B)
    assert (view.main, view.moves, view.period) == (0, 15, 780)
    clock, now = black_moves(tc, [3600] + [30] * 14 + [700])
    assert clock.remaining(now, B).period == 80 and clock.remaining(now, B).moves == 14


def test_r_time_4_running_out_within_a_period_loses() -> None:
    """R-TIME-4: the moves must be made within the period, else the flag falls."""
    tc = TimeControl.moves_per_period(0, 15, 600)
    clock, now = black_moves(tc, [500, 99])
    assert clock.next_deadline() == now + 1
    assert clock.advance(now + 1).flagged is B


def test_canadian_does_not_carry_over() -> None:
    """Canadian byo-yomi (GTP): like R-TIME-4 but each period starts afresh."""
    tc = TimeControl.canadian(0, 2, 300)
    clock, now = black_moves(tc, [10, 10])
    assert clock.remaining(now, B).period == 300 and clock.remaining(now, B).moves == 2


def test_r_time_4_the_move_that_ends_main_time_is_the_first_of_the_period() -> None:
    """R-TIME-4: the period starts when the main time is used up, within the move."""
    tc = TimeControl.moves_per_period(100, 2, 60)
    clock, now = black_moves(tc, [130])
    assert (clock.remaining(now, B).period, clock.remaining(now, B).moves) == (30, 1)


# -- Fischer, untimed ------------------------------------------------------------------------------


def test_fischer_adds_the_increment_after_each_move() -> None:
    tc = TimeControl.fischer(300, 10)
    clock, now = black_moves(tc, [30, 5])
    assert clock.remaining(now, B).main == 300 - 30 + 10 - 5 + 10
    assert clock.next_deadline() == now + 285


def test_untimed_never_flags_but_counts_used_time() -> None:
    clock, now = black_moves(TimeControl.untimed(), [1e6, 2e6])
    assert clock.next_deadline() is None
    assert clock.advance(1e9).status is Status.RUNNING
    assert clock.used(now, B) == 3e6


# -- R-TIME-7 press ends the move ------------------------------------------------------------------


def test_r_time_7_capturing_time_belongs_to_the_move() -> None:
    """R-TIME-7: a move is complete when captured stones are removed; the clock runs until the
    press, also in byo-yomi (here: 55 s to place, 6 s to remove the stones → one period)."""
    clock = Clock.new(TimeControl.byo_yomi(0, 5, 60)).start(0.0)
    placed_at, pressed_at = 55.0, 61.0
    assert clock.remaining(placed_at, B).periods == 5
    after = clock.press(pressed_at, B)
    assert after.remaining(pressed_at, B).periods == 4
    assert after.running is W


def test_r_time_7_only_the_player_to_move_may_press() -> None:
    clock = Clock.new(TimeControl.absolute(60)).start(0.0)
    with pytest.raises(Conflict, match="Black's turn"):
        clock.press(1, W)
    with pytest.raises(Conflict, match="ready"):
        Clock.new(TimeControl.absolute(60)).press(1, B)
