"""R-TIME-1…4: a time control beyond 100 hours for its main time, a period or an increment is a
typo (``99999999999999999999m``) and is refused naming the field."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from weiqi.clock import TimeControl
from weiqi.errors import InvalidSetting


@pytest.mark.parametrize(
    ("setting", "field"),
    [
        ("99999999999999999999m", "main_time"),
        ("101h", "main_time"),
        ("55m+5x99999999s", "period_time"),
        ("60m+99999999s/move", "increment"),
        ("3x400000s", "period_time"),
    ],
)
def test_r_time_1_absurd_times_are_refused_naming_the_field(setting: str, field: str) -> None:
    """R-TIME-1/2: an absurd time names its field and the limit."""
    with pytest.raises(InvalidSetting, match=f"^{field}: must be at most 100 hours"):
        TimeControl.parse(setting)


def test_r_time_1_a_hundred_hours_is_still_a_setting() -> None:
    """R-TIME-1: the limit itself is allowed (long adjourned games)."""
    assert TimeControl.parse("100h").main_time == 360000


def test_r_time_1_clock_show_refuses_in_one_line() -> None:
    """R-TIME-1: ``weiqi clock show 99999999999999999999m`` — one line, exit 2."""
    proc = subprocess.run(
        [sys.executable, "-m", "weiqi", "clock", "show", "99999999999999999999m"],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src"), "WEIQI_LANG": "en"},
    )
    assert proc.returncode == 2
    assert proc.stderr == "error: main_time: must be at most 100 hours, not 6e+21 s\n"
