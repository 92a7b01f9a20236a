"""Properties over random sequences of presses, pauses and resumes (R-TIME-1, 2, 4, 5)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from weiqi.clock import Clock, Color, LagPolicy, LatePolicy, Status, TimeControl, TimeSystem

CONTROLS = [
    TimeControl.untimed(),
    TimeControl.absolute(300),
    TimeControl.chinese(limit=300, reserved=3, period=60),
    TimeControl.byo_yomi(0, 3, 30),
    TimeControl.byo_yomi(45.5, 2, 10, timeout_pass=True),
    TimeControl.moves_per_period(60, 3, 40),
    TimeControl.canadian(0, 2, 30),
    TimeControl.fischer(120, 5),
]

ops = st.lists(
    st.tuples(
        st.sampled_from(["press", "press", "press", "pause", "resume", "wait"]),
        st.integers(min_value=0, max_value=90_000),
    ),
    max_size=40,
)


def total_used_ms(clock: Clock, now: float) -> int:
    return round(1000 * (clock.used(now, Color.BLACK) + clock.used(now, Color.WHITE)))


@settings(max_examples=150, deadline=None)
@given(tc=st.sampled_from(CONTROLS), steps=ops, start=st.integers(0, 10**9))
def test_random_sequences_keep_the_invariants(
    tc: TimeControl, steps: list[tuple[str, int]], start: int
) -> None:
    """R-TIME-5 and the clock's bookkeeping: used time equals running time, nothing runs while
    paused, at most one side runs, and next_deadline() is exactly when the flag falls."""
    now_ms = start
    clock = Clock.new(tc).start(now_ms / 1000, Color.BLACK)
    ran_ms = 0  # time during which some clock ran, as the test itself measures it
    for op, delta in steps:
        before = clock
        now = (now_ms + delta) / 1000
        deadline = clock.next_deadline()
        clock = clock.advance(now)
        # the flag falls exactly at next_deadline(), and not a millisecond before
        if deadline is not None and before.status is Status.RUNNING:
            if now >= deadline:
                assert clock.status is Status.FLAGGED
                assert clock.flag_at == round(deadline * 1000)
                assert before.advance(deadline).status is Status.FLAGGED
                assert before.advance(deadline).remaining(deadline, before.to_move).flagged
                ran_ms += round(deadline * 1000) - now_ms
            else:
                assert clock.status is Status.RUNNING
                ran_ms += delta
            just_before = deadline - 0.001
            if just_before * 1000 >= now_ms:
                view = before.remaining(just_before, before.to_move)  # type: ignore[arg-type]
                assert not view.flagged and view.total == 0.001
        elif before.status is Status.RUNNING:
            ran_ms += delta
        now_ms += delta
        # at most one side's clock runs, and it is the side to move
        assert clock.running in (None, clock.to_move)
        # used + left is conserved: all the running time is somebody's used time
        assert total_used_ms(clock, now) == ran_ms
        # every state is plain data
        assert Clock.from_dict(json.loads(json.dumps(clock.to_dict()))) == clock
        if clock.status is Status.FLAGGED:
            if not tc.timeout_pass:
                return
            clock = clock.forfeit_turn(now)
            continue
        if op == "press" and clock.status is Status.RUNNING:
            assert clock.to_move is not None
            clock = clock.press(now, clock.to_move)
        elif op == "pause" and clock.status is Status.RUNNING:
            paused = clock.pause(now)
            later = now + 3600
            # nothing runs while paused
            for color in Color:
                assert paused.remaining(later, color) == paused.remaining(now, color)
            assert paused.next_deadline() is None and paused.running is None
            clock = paused
        elif op == "resume" and clock.status is Status.PAUSED:
            clock = clock.resume(now)
        # the waiting side's clock does not move
        if clock.status is Status.RUNNING and clock.to_move is not None:
            idle = clock.to_move.opponent
            assert clock.remaining(now + 5, idle) == clock.remaining(now, idle)
        assert total_used_ms(clock, now) == ran_ms


@settings(max_examples=100, deadline=None)
@given(
    tc=st.sampled_from(
        [c for c in CONTROLS if c.system in (TimeSystem.ABSOLUTE, TimeSystem.FISCHER)]
    ),
    moves=st.lists(st.integers(0, 40_000), max_size=30),
)
def test_r_time_1_used_plus_left_is_the_time_given(tc: TimeControl, moves: list[int]) -> None:
    """R-TIME-1: in main time, used + left = main time (+ increments) exactly."""
    clock = Clock.new(tc).start(0.0)
    now_ms = 0
    pressed = {Color.BLACK: 0, Color.WHITE: 0}
    for d in moves:
        now_ms += d
        mover = clock.to_move
        assert mover is not None
        clock = clock.press(now_ms / 1000, mover)
        if clock.status is not Status.RUNNING:
            return
        pressed[mover] += 1
        for color in Color:
            given_ms = round(1000 * (tc.main_time + tc.increment * pressed[color]))
            left = clock.remaining(now_ms / 1000, color).main
            assert round(1000 * (clock.used(now_ms / 1000, color) + left)) == given_ms


@settings(max_examples=100, deadline=None)
@given(moves=st.lists(st.integers(0, 200_000), min_size=1, max_size=20))
def test_r_time_2_periods_spent_are_the_full_periods_of_each_move(moves: list[int]) -> None:
    """R-TIME-2: in byo-yomi every move costs floor(time / period) periods, nothing else."""
    tc = TimeControl.byo_yomi(0, 5, 60)
    clock = Clock.new(tc).start(0.0)
    now_ms, left = 0, 5
    for d in moves:
        now_ms += d
        clock = clock.press(now_ms / 1000, Color.BLACK)
        if d >= left * 60_000:
            assert clock.status is Status.FLAGGED
            return
        left -= d // 60_000
        assert clock.remaining(now_ms / 1000, Color.BLACK).periods == left
        clock = clock.press(now_ms / 1000, Color.WHITE)


@settings(max_examples=100, deadline=None)
@given(
    steps=st.lists(
        st.tuples(st.integers(0, 20_000), st.integers(0, 5_000)), min_size=1, max_size=30
    )
)
def test_lag_forgiveness_is_bounded_by_the_quota(steps: list[tuple[int, int]]) -> None:
    """Whatever clients claim, no more is forgiven than the initial quota plus one gain a move."""
    lag = LagPolicy(gain=0.5, cap=2.0)
    clock = Clock.new(TimeControl.absolute(10**5), lag=lag).start(0.0)
    now_ms = 0
    for presses, (think, claimed_lag) in enumerate(steps, start=1):
        now_ms += think + claimed_lag
        mover = clock.to_move
        assert mover is not None
        clock = clock.press(now_ms / 1000, mover, client_think=think / 1000)
        used = total_used_ms(clock, now_ms / 1000)
        assert used <= now_ms
        assert now_ms - used <= 2 * 2000 + 500 * presses


@settings(max_examples=100, deadline=None)
@given(
    limit=st.integers(0, 3600),
    absent=st.sets(st.sampled_from(list(Color))),
    arrivals=st.lists(st.integers(0, 5000_000), min_size=2, max_size=2),
    main=st.integers(60, 7200),
)
def test_r_time_6_the_late_limit_is_an_exact_deadline(
    limit: int, absent: set[Color], arrivals: list[int], main: int
) -> None:
    """R-TIME-6: arriving at the limit is in time; one millisecond later is a forfeit; within it
    the player has lost twice the late time (or everything, and the flag has fallen)."""
    tc = TimeControl.absolute(main)
    clock = Clock.new(tc, late=LatePolicy(limit=limit)).start(0.0, Color.BLACK, absent=absent)
    for color, at_ms in sorted(zip(Color, arrivals, strict=True), key=lambda p: p[1]):
        if color not in absent or clock.status is not Status.RUNNING:
            continue
        at = at_ms / 1000
        due = clock.next_deadline()
        assert due is not None
        clock = clock.arrive(at, color)
        late_ms = at_ms
        if late_ms > limit * 1000:
            assert color in clock.forfeits
            assert clock.result() is not None
        elif clock.status is Status.RUNNING:
            assert round(clock.used(at, color) * 1000) == 2 * late_ms
        else:
            assert clock.status is Status.FLAGGED and 2 * late_ms >= main * 1000
