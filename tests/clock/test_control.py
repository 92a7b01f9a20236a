"""TimeControl settings: constructors, settings strings, invalid settings naming the field."""

from __future__ import annotations

import json

import pytest

from weiqi.clock import TimeControl, TimeSystem
from weiqi.errors import InvalidSetting


@pytest.mark.parametrize(
    ("text", "system", "main", "periods", "period", "moves", "increment", "canonical"),
    [
        ("untimed", TimeSystem.UNTIMED, 0, 0, 0, 0, 0, "untimed"),
        ("none", TimeSystem.UNTIMED, 0, 0, 0, 0, 0, "untimed"),
        ("90m", TimeSystem.ABSOLUTE, 5400, 0, 0, 0, 0, "1h30m"),
        ("1h30m", TimeSystem.ABSOLUTE, 5400, 0, 0, 0, 0, "1h30m"),
        ("300", TimeSystem.ABSOLUTE, 300, 0, 0, 0, 0, "5m"),
        ("55m+5x60s", TimeSystem.BYO_YOMI, 3300, 5, 60, 0, 0, "55m+5x60s"),
        ("60m incl 5x60s", TimeSystem.BYO_YOMI, 3300, 5, 60, 0, 0, "55m+5x60s"),
        ("1h incl. 1x1m", TimeSystem.BYO_YOMI, 3540, 1, 60, 0, 0, "59m+1x60s"),
        ("3x30s", TimeSystem.BYO_YOMI, 0, 3, 30, 0, 0, "3x30s"),
        ("0+3x20s", TimeSystem.BYO_YOMI, 0, 3, 20, 0, 0, "3x20s"),
        ("10m+3x10s", TimeSystem.BYO_YOMI, 600, 3, 10, 0, 0, "10m+3x10s"),
        ("60m+15/10m", TimeSystem.MOVES_PER_PERIOD, 3600, 0, 600, 15, 0, "1h+15/10m"),
        (
            "60m+25/10m canadian",
            TimeSystem.MOVES_PER_PERIOD,
            3600,
            0,
            600,
            25,
            0,
            "1h+25/10m canadian",
        ),
        ("5m+10s/move", TimeSystem.FISCHER, 300, 0, 0, 0, 10, "5m+10s/move"),
    ],
)
def test_parse_and_format(
    text: str,
    system: TimeSystem,
    main: float,
    periods: int,
    period: float,
    moves: int,
    increment: float,
    canonical: str,
) -> None:
    tc = TimeControl.parse(text)
    assert (tc.system, tc.main_time, tc.periods, tc.period_time, tc.moves, tc.increment) == (
        system,
        main,
        periods,
        period,
        moves,
        increment,
    )
    assert tc.format() == canonical
    assert TimeControl.parse(tc.format()) == tc


def test_r_time_2_reserve_is_taken_out_of_the_limit() -> None:
    """R-TIME-2: 60 min with 5 reserved → 55 min main, then 5 × 60 s; the time limit stays 60."""
    tc = TimeControl.chinese(limit=3600, reserved=5, period=60)
    assert (tc.main_time, tc.periods, tc.period_time, tc.time_limit) == (3300, 5, 60, 3600)
    assert TimeControl.chinese(limit=300, reserved=5).main_time == 0  # all of it reserved


@pytest.mark.parametrize(
    ("make", "field"),
    [
        (lambda: TimeControl.absolute(-1), "main_time"),
        (lambda: TimeControl.absolute(0), "main_time"),
        (lambda: TimeControl.byo_yomi(600, 0, 60), "periods"),
        (lambda: TimeControl.byo_yomi(600, -2, 60), "periods"),
        (lambda: TimeControl.byo_yomi(600, 5, 0), "period_time"),
        (lambda: TimeControl.byo_yomi(-5, 5, 30), "main_time"),
        (lambda: TimeControl.byo_yomi(float("inf"), 5, 30), "main_time"),
        (lambda: TimeControl.chinese(limit=240, reserved=5, period=60), "reserved"),
        (lambda: TimeControl.chinese(limit=3600, reserved=0), "reserved"),
        (lambda: TimeControl.chinese(limit=-1, reserved=1), "limit"),
        (lambda: TimeControl.moves_per_period(0, 0, 600), "moves"),
        (lambda: TimeControl.moves_per_period(0, 15, -600), "period_time"),
        (lambda: TimeControl.fischer(300, 0), "increment"),
        (lambda: TimeControl(TimeSystem.ABSOLUTE, main_time=60, periods=3), "periods"),
        (lambda: TimeControl(TimeSystem.UNTIMED, main_time=60), "main_time"),
        (lambda: TimeControl(TimeSystem.ABSOLUTE, main_time=60, timeout_pass=True), "timeout_pass"),
        (lambda: TimeControl(TimeSystem.BYO_YOMI, 0, 1, 30, carry_over=True), "carry_over"),
        (lambda: TimeControl.byo_yomi(0, 2.5, 30), "periods"),  # type: ignore[arg-type]
        (lambda: TimeControl.absolute("1h"), "main_time"),  # type: ignore[arg-type]
        (lambda: TimeControl.parse("5x"), "time control"),
        (lambda: TimeControl.parse("soon"), "time control"),
        (lambda: TimeControl.parse("10m canadian"), "time control"),
        (lambda: TimeControl.parse("3x30s canadian"), "time control"),
        (lambda: TimeControl.from_dict({"system": "hourglass"}), "time_system"),
        (lambda: TimeControl.from_dict({"system": "absolute", "main": 3}), "main"),
    ],
)
def test_invalid_settings_name_the_field(make: object, field: str) -> None:
    assert callable(make)
    with pytest.raises(InvalidSetting) as info:
        make()
    assert info.value.field == field
    assert info.value.message.startswith(field + ":")


def test_dict_round_trip_through_json() -> None:
    for text in ("untimed", "90m", "60m incl 5x60s pass", "60m+15/10m", "5m+10s/move"):
        tc = TimeControl.parse(text)
        assert TimeControl.from_dict(json.loads(json.dumps(tc.to_dict()))) == tc


def test_descriptions() -> None:
    tc = TimeControl.parse("60m incl 5x60s pass")
    assert tc.describe_zh() == "基本时限55分，读秒5次，每次60秒（超时可申请弃权一次）"
    assert tc.describe_en() == (
        "55 min main time, then 5 × 60 s byo-yomi (a forfeited turn on request)"
    )
    assert TimeControl.parse("3x30s").describe_zh() == "读秒3次，每次30秒"
    assert TimeControl.parse("90m").describe_zh() == "包干用时制，基本时限90分"
