"""An event's name is one line without control characters, refused with a clear message
wherever an event is created (issue #5: ``weiqi event create --name``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from weiqi.errors import InvalidSetting
from weiqi.services import events
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.store.database import Database
from weiqi.tournament.settings import EventSettings, System

SWISS = EventSettings(System.SWISS, rounds=5)


LOCAL = Actor.local()
BAD = ["Spring\nOpen", "Spring\rOpen", "Spring\x00Open", "Tab\there", "Bell\x07", "A\u2028B"]


@pytest.mark.parametrize("name", BAD)
def test_r_fmt_3_event_names_with_control_characters_are_refused(db: Database, name: str) -> None:
    """R-FMT-3 (event create): a newline or control character in the name is refused."""
    with pytest.raises(InvalidSetting, match="name: must be one line without control"):
        create_event(db, LOCAL, name, EventSettings(system=System.ROUND_ROBIN))
    with pytest.raises(InvalidSetting, match="name: must be one line without control"):
        events.create_event(db, LOCAL, name, SWISS)
    assert events.list_events(db) == []


def test_r_fmt_3_a_chinese_name_with_spaces_is_fine(db: Database) -> None:
    """R-FMT-3: ordinary names (Chinese, inner spaces, surrounding blanks) still work."""
    info = create_event(db, LOCAL, " 2026 春季 围棋赛 ", EventSettings(System.SWISS, 5))
    assert info.name == "2026 春季 围棋赛"


def test_r_fmt_3_the_cli_says_what_is_wrong_in_one_line(tmp_path: Path) -> None:
    """R-FMT-3: ``event create --name`` with a newline: one line, exit 2, nothing stored."""
    db = str(tmp_path / "e.db")
    proc = subprocess.run(
        [sys.executable, "-m", "weiqi", "event", "create", "--db", db, "--name", "A\nB",
         "--system", "round_robin"],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src"), "WEIQI_LANG": "en"},
    )  # fmt: skip
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr == "error: name: must be one line without control characters\n"
