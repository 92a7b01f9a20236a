"""Integer options that name database rows (round, board, event, season) are checked in one
place (``weiqi.cli.inputs``) for every command group: a number no database integer can hold is
one error line naming the option, never the driver's OverflowError."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.contracts import weiqi

HUGE = "100000000000000000000"


@pytest.fixture
def teams(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    db = str(tmp_path / "t.sqlite3")
    roster = tmp_path / "teams.csv"
    roster.write_text("team,name,rank\nA,a1,5d\nA,a2,4d\nB,b1,5d\nB,b2,4d\n")
    create = ("event", "create", "--kind", "team", "--db", db, "--name", "T",
              "--system", "round_robin", "--boards", "2")  # fmt: skip
    assert weiqi(capsys, *create).code == 0
    assert weiqi(capsys, "team", "import", "--db", db, str(roster)).code == 0
    return db


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (("round", "result", "--round", HUGE, "--team", "A", "--board", "1", "B+R"),
         "--round"),
        (("round", "result", "--round", "1", "--team", "A", "--board", HUGE, "B+R"),
         "--board"),
        (("standings", "--event", HUGE), "--event"),
        (("league", "table", "--season", HUGE), "--season"),
    ],
)  # fmt: skip
def test_numbers_beyond_the_database_are_named(
    teams: str, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], option: str
) -> None:
    run = weiqi(capsys, *args[:2], *args[2:], "--db", teams)
    run.one_line_error(option, "out of range")
