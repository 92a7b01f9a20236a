"""SGF ``OT`` overtime forms (the SGF side of the clock, R-TIME-2 and R-TIME-4)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from weiqi.formats.overtime import Overtime, OvertimeKind, parse_overtime

BYO = OvertimeKind.BYO_YOMI
CANADIAN = OvertimeKind.CANADIAN
FISCHER = OvertimeKind.FISCHER


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5x60 byo-yomi", Overtime(BYO, 60, periods=5)),
        ("3x30 Byo-Yomi", Overtime(BYO, 30, periods=3)),
        ("5x30 byoyomi", Overtime(BYO, 30, periods=5)),
        ("5x60", Overtime(BYO, 60, periods=5)),
        ("5×60", Overtime(BYO, 60, periods=5)),
        ("5*60", Overtime(BYO, 60, periods=5)),
        ("3x30s", Overtime(BYO, 30, periods=3)),
        ("5x1min", Overtime(BYO, 60, periods=5)),
        ("3次30秒", Overtime(BYO, 30, periods=3)),
        ("读秒3次30秒", Overtime(BYO, 30, periods=3)),
        ("30秒3次", Overtime(BYO, 30, periods=3)),
        ("5次1分钟", Overtime(BYO, 60, periods=5)),
        ("1分钟5次", Overtime(BYO, 60, periods=5)),
        ("1分5次读秒", Overtime(BYO, 60, periods=5)),
        ("25/600 Canadian", Overtime(CANADIAN, 600, stones=25)),
        ("25/600", Overtime(CANADIAN, 600, stones=25)),
        ("25手10分钟", Overtime(CANADIAN, 600, stones=25)),
        ("15/600 Canadian carry-over", Overtime(CANADIAN, 600, stones=15, carry_over=True)),
        ("5x7.5 byo-yomi", Overtime(BYO, 7.5, periods=5)),
        ("fischer +10", Overtime(FISCHER, 10)),
        ("加拿大读秒 25步/10分钟", Overtime(CANADIAN, 600, stones=25)),
        ("30 fischer", Overtime(FISCHER, 30)),
        ("+10s fischer", Overtime(FISCHER, 10)),
    ],
)
def test_r_time_2_r_time_4_overtime_forms(text: str, expected: Overtime) -> None:
    """R-TIME-2 (byo-yomi periods) and R-TIME-4 (moves per period) as SGF OT writes them."""
    assert parse_overtime(text) == expected


@pytest.mark.parametrize("text", ["", "none", "hourglass", "0x30", "5x0 byo-yomi", "0/600", "5x"])
def test_unknown_or_empty_forms_are_none(text: str) -> None:
    assert parse_overtime(text) is None


@pytest.mark.parametrize(
    ("overtime", "sgf", "zh"),
    [
        (Overtime(BYO, 60, periods=5), "5x60 byo-yomi", "读秒 5次1分钟"),
        (Overtime(BYO, 30, periods=3), "3x30 byo-yomi", "读秒 3次30秒"),
        (Overtime(CANADIAN, 600, stones=25), "25/600 Canadian", "加拿大读秒 25手/10分钟"),
        (Overtime(FISCHER, 90), "90 fischer", "每步加90秒"),
        (
            Overtime(CANADIAN, 600, stones=15, carry_over=True),
            "15/600 Canadian carry-over",
            "定时限步 15手/10分钟（节余时间累计）",
        ),
    ],
)
def test_written_forms(overtime: Overtime, sgf: str, zh: str) -> None:
    assert (overtime.to_sgf(), overtime.to_zh()) == (sgf, zh)


def test_invalid_overtime_is_refused() -> None:
    with pytest.raises(ValueError, match="positive"):
        Overtime(BYO, 0, periods=5)
    with pytest.raises(ValueError, match="only Canadian"):
        Overtime(BYO, 30, periods=5, carry_over=True)


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from(OvertimeKind),
    st.integers(1, 99999) | st.integers(1, 9999).map(lambda s: s + 0.5),
    st.integers(1, 999),
    st.integers(1, 999),
    st.booleans(),
)
def test_to_sgf_reads_back(
    kind: OvertimeKind, seconds: float, periods: int, stones: int, carry: bool
) -> None:
    overtime = Overtime(
        kind,
        seconds,
        periods=periods if kind is BYO else 1,
        stones=stones if kind is CANADIAN else 1,
        carry_over=carry and kind is CANADIAN,
    )
    assert parse_overtime(overtime.to_sgf()) == overtime
