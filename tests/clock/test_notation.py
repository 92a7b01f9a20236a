"""SGF and GTP notation of time controls and clock readings."""

from __future__ import annotations

import pytest

from weiqi.clock import Clock, Color, TimeControl
from weiqi.clock.notation import (
    apply_time_left,
    from_gtp_time_settings,
    from_kgs_time_settings,
    from_sgf,
    gtp_time_left,
    gtp_time_settings,
    kgs_time_settings,
    sgf_move_times,
    sgf_properties,
)
from weiqi.errors import InputError

B, W = Color.BLACK, Color.WHITE

SETTINGS = [
    "untimed",
    "90m",
    "55m+5x60s",
    "3x30s",
    "60m+15/10m",
    "1h+25/10m canadian",
    "5m+10s/move",
]


@pytest.mark.parametrize("text", SETTINGS)
def test_sgf_round_trip(text: str) -> None:
    tc = TimeControl.parse(text)
    props = sgf_properties(tc)
    assert from_sgf(props.get("TM"), props.get("OT")) == tc


@pytest.mark.parametrize(
    ("tm", "ot", "expected"),
    [
        ("3300", "5x60 byo-yomi", "55m+5x60s"),
        ("0", "3x30 byo-yomi", "3x30s"),
        ("1800", "25/600 Canadian", "30m+25/10m canadian"),
        ("1800.0", "5x30", "30m+5x30s"),
        ("300", "+10 fischer", "5m+10s/move"),
        ("300", "fischer 10", "5m+10s/move"),
        ("600", "", "10m"),
    ],
)
def test_sgf_values_from_other_programs(tm: str, ot: str, expected: str) -> None:
    assert from_sgf(tm, ot).format() == expected


@pytest.mark.parametrize(("tm", "ot"), [("ten", None), ("60", "0x30 byo-yomi"), ("60", "??")])
def test_bad_sgf_values_are_input_errors(tm: str, ot: str | None) -> None:
    with pytest.raises(InputError):
        from_sgf(tm, ot)


def test_sgf_move_times_through_a_game() -> None:
    clock = Clock.new(TimeControl.byo_yomi(60, 3, 30)).start(0.0)
    clock = clock.press(20.5, B)
    assert sgf_move_times(clock, 20.5, B) == {"BL": "39.5"}
    clock = clock.press(25, W).press(100, B)  # 39.5 s main then 35.5 s: one period
    assert sgf_move_times(clock, 100, B) == {"BL": "30", "OB": "2"}
    moves = Clock.new(TimeControl.canadian(0, 25, 600)).start(0.0).press(45, B)
    assert sgf_move_times(moves, 45, B) == {"BL": "555", "OB": "24"}
    assert sgf_move_times(Clock.new(TimeControl.untimed()).start(0).press(3, B), 3, B) == {}


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ("300 0 0", "5m"),
        ("0 0 0", "untimed"),
        ("0 60 0", "untimed"),
        ("600 300 25", "10m+25/5m canadian"),
        ("0 30 1", "1/30s canadian"),
    ],
)
def test_gtp_time_settings(args: str, expected: str) -> None:
    assert from_gtp_time_settings(args.split()).format() == expected


def test_gtp_settings_out() -> None:
    assert gtp_time_settings(TimeControl.parse("55m+5x60s")) == "3300 60 1"
    assert gtp_time_settings(TimeControl.parse("90m")) == "5400 0 0"
    assert gtp_time_settings(TimeControl.parse("5m+10s/move")) == "300 0 0"


@pytest.mark.parametrize("text", ["untimed", "90m", "55m+5x60s", "3x30s", "1h+25/10m canadian"])
def test_kgs_time_settings_round_trip(text: str) -> None:
    tc = TimeControl.parse(text)
    assert from_kgs_time_settings(kgs_time_settings(tc).split()) == tc


@pytest.mark.parametrize(
    "args",
    [[], ["hourglass"], ["byoyomi", "1", "2"], ["absolute", "-5"], ["byoyomi", "0", "30", "0"]],
)
def test_bad_gtp_arguments_are_input_errors(args: list[str]) -> None:
    with pytest.raises(InputError):
        from_kgs_time_settings(args)


def test_gtp_time_left_and_its_mirror() -> None:
    tc = TimeControl.byo_yomi(60, 3, 30)
    clock = Clock.new(tc).start(0.0).press(20.5, B)
    assert gtp_time_left(clock, 21, B) == (39, 0)
    clock = clock.press(25, W).press(100, B)
    assert gtp_time_left(clock, 100, B) == (30, 2)
    mirror = apply_time_left(Clock.new(tc), B, 30, 2)
    assert mirror.remaining(0, B).periods == 2 and mirror.remaining(0, B).main == 0
    mirror = apply_time_left(Clock.new(tc), B, 12, 0)
    assert mirror.remaining(0, B).main == 12
    canadian = apply_time_left(Clock.new(TimeControl.canadian(0, 25, 600)), W, 300, 7)
    view = canadian.remaining(0, W)
    assert (view.period, view.moves) == (300, 7)
    assert gtp_time_left(Clock.new(TimeControl.untimed()), 0, B) is None
    with pytest.raises(InputError):
        apply_time_left(Clock.new(tc), B, -1, 0)


def test_gtp_time_keeps_what_the_controller_said() -> None:
    from weiqi.clock.notation import GTP_TIME_COMMANDS, GtpTime

    assert GTP_TIME_COMMANDS == ("time_settings", "kgs-time_settings", "time_left")
    t = GtpTime()
    assert t.clock.tc.format() == "untimed"
    t = t.apply("time_settings", ["1800", "300", "25"])
    assert t.clock.tc.format() == "30m+25/5m canadian"
    t = t.apply("time_left", ["b", "1200", "0"]).apply("time_left", ["W", "250", "12"])
    assert t.remaining(B).main == 1200
    white = t.remaining(W)
    assert (white.main, white.period, white.moves) == (0, 250, 12)
    for command, args in [
        ("time_left", ["b", "1"]),
        ("time_left", ["b", "1", "2.5"]),
        ("time_settings", ["a", "b", "c"]),
        ("genmove", ["b"]),
    ]:
        with pytest.raises(InputError):
            t.apply(command, args)
