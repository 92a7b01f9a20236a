"""Network lag allowance; plain-dict states and the replay of logged clock events."""

from __future__ import annotations

import json

import pytest

from weiqi.clock import Clock, Color, LagPolicy, LatePolicy, Status, TimeControl, replay
from weiqi.errors import InputError, InvalidSetting

B, W = Color.BLACK, Color.WHITE


def test_lag_within_the_quota_is_forgiven() -> None:
    clock = Clock.new(TimeControl.absolute(600), lag=LagPolicy(gain=1.0, cap=3.0)).start(0.0)
    after = clock.press(10.8, B, client_think=10.0)  # 0.8 s of network forgiven
    assert after.remaining(10.8, B).main == 590
    assert after.quota == (3000, 3000)  # 3 − 0.8 + 1, capped at 3
    no_report = clock.press(10.8, B)
    assert no_report.remaining(10.8, B).main == 589.2


def test_lag_quota_is_spent_and_regenerates_per_move() -> None:
    lag = LagPolicy(gain=0.5, cap=2.0, initial=1.0)
    clock = Clock.new(TimeControl.absolute(600), lag=lag).start(0.0)
    clock = clock.press(15.0, B, client_think=10.0)  # 5 s claimed lag, only 1 s forgiven
    assert clock.remaining(15, B).main == 586
    assert clock.quota[0] == 500
    clock = clock.press(16, W).press(26, B, client_think=9.0)  # 0.5 s available now
    assert clock.remaining(26, B).main == 586 - 9.5
    # a client claiming more than the server measured is charged the server's time
    clock = clock.press(27, W).press(30, B, client_think=10.0)
    assert clock.remaining(30, B).main == 586 - 9.5 - 3


def test_lag_quota_delays_the_flag_by_as_much() -> None:
    clock = Clock.new(TimeControl.absolute(60), lag=LagPolicy(gain=1, cap=2)).start(0.0)
    assert clock.next_deadline() == 62
    assert clock.press(61, B, client_think=59.5).status is Status.RUNNING
    assert clock.press(61, B).status is Status.FLAGGED  # no report: nothing forgiven
    assert clock.advance(62).status is Status.FLAGGED


def test_lag_policy_rejects_bad_settings() -> None:
    with pytest.raises(InvalidSetting, match=r"lag\.gain"):
        LagPolicy(gain=-1)
    with pytest.raises(InvalidSetting, match=r"lag\.initial"):
        LagPolicy(cap=1, initial=2)


def test_every_state_survives_json() -> None:
    tc = TimeControl.parse("5m incl 2x30s pass")
    clock = Clock.new(tc, lag=LagPolicy(), late=LatePolicy.same_venue())
    states = [clock]
    clock = clock.start(0.0, B, absent=[W])
    states.append(clock)
    clock = clock.press(5, B).arrive(20, W)
    states.append(clock)
    clock = clock.pause(30).resume(40).seal(70, W)
    states.append(clock)
    clock = clock.resume(100).advance(1000)
    states.append(clock)
    assert clock.status is Status.FLAGGED
    clock = clock.forfeit_turn(1001)
    states.append(clock.stop(1010))
    for state in states:
        data = json.loads(json.dumps(state.to_dict()))
        assert Clock.from_dict(data) == state


def test_replay_of_a_logged_game_gives_the_same_clock() -> None:
    tc = TimeControl.chinese(limit=600, reserved=3, period=30)
    log = [
        {"op": "start", "now": 0, "color": "B"},
        {"op": "press", "now": 100, "color": "B"},
        {"op": "press", "now": 250.5, "color": "W"},
        {"op": "pause", "now": 300},
        {"op": "resume", "now": 900},
        {"op": "press", "now": 1200, "color": "B", "client_think": 400},
        {"op": "adjust", "now": 1210, "color": "B", "seconds": 20},
        {"op": "seal", "now": 1300, "color": "W"},
        {"op": "resume", "now": 5000},
        {"op": "advance", "now": 5100},
        {"op": "stop", "now": 5200},
    ]
    direct = (
        Clock.new(tc)
        .start(0, B)
        .press(100, B)
        .press(250.5, W)
        .pause(300)
        .resume(900)
        .press(1200, B)
        .adjust(1210, B, 20)
        .seal(1300, W)
        .resume(5000)
        .stop(5200)
    )
    replayed = replay(Clock.new(tc), log)
    assert replayed == direct
    assert replayed.moves == 4


def test_bad_events_and_states_are_input_errors() -> None:
    clock = Clock.new(TimeControl.absolute(60))
    with pytest.raises(InputError, match="unknown op"):
        clock.apply({"op": "explode", "now": 1})
    with pytest.raises(InputError, match="now"):
        clock.apply({"op": "start"})
    with pytest.raises(InputError, match="color"):
        clock.start(0).apply({"op": "press", "now": 1})
    with pytest.raises(InputError, match="backwards"):
        clock.start(10).press(5, B)
    with pytest.raises(InputError, match="clock state"):
        Clock.from_dict({"tc": {"system": "absolute", "main_time": 60}})
