"""``weiqi clock show`` and ``weiqi clock callouts``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from weiqi.cli import app

runner = CliRunner()


def test_show_reads_the_rules_form_and_prints_sgf_and_gtp() -> None:
    result = runner.invoke(app, ["clock", "show", "60m incl 5x60s", "--json"])
    assert result.exit_code == 0, result.output
    facts = json.loads(result.output)
    assert facts["setting"] == "55m+5x60s"
    assert facts["sgf"] == {"TM": "3300", "OT": "5x60 byo-yomi"}
    assert facts["kgs_time_settings"] == "byoyomi 3300 60 5"
    table = runner.invoke(app, ["clock", "show", "3x30s"])
    assert table.exit_code == 0 and "读秒3次，每次30秒" in table.output


def test_callouts_prints_the_schedule_the_voice_clock_mirrors() -> None:
    """R-TIME-3 on the command line."""
    result = runner.invoke(app, ["clock", "callouts", "60", "--periods", "1", "--json"])
    assert result.exit_code == 0, result.output
    calls = json.loads(result.output)
    assert [c["zh"] for c in calls][:4] == ["30秒", "40秒", "50秒", "1"]
    assert calls[-1] == {"at": 60.0, "kind": "count", "value": 10, "zh": "10", "en": "10"}


def test_a_bad_setting_is_one_line_and_exit_2() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "weiqi", "clock", "show", "60m incl 70x60s"],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src"), "WEIQI_LANG": "en"},
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        "error: reserved: 70 × 60 s = 4200 s is more than the time limit of 3600 s"
    ]
