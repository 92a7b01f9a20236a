"""The options spelled ``colour`` in earlier releases still run (issue #10: one spelling of
colour/color — the code says ``color``; a script written for ``--colours`` is not broken)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.contracts import weiqi
from weiqi.services import events, teams, tournament
from weiqi.store.database import Database


def test_the_earlier_spelling_of_an_option_sets_the_same_setting(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = str(tmp_path / "spelling.sqlite3")
    for options in (
        ("--colours", "handicap", "--online-colours", "nigiri"),
        ("--colors", "handicap", "--online-colors", "nigiri"),
    ):
        run = weiqi(capsys, "event", "create", "--db", db, "--name", "拼写", "--system", "swiss",
                    "--rounds", "3", "--play", "online", *options)  # fmt: skip
        assert run.code == 0, run.err
    for options in (("--board-colours", "nigiri"), ("--board-colors", "nigiri")):
        run = weiqi(capsys, "event", "create", "--kind", "team", "--db", db, "--name", "团体",
                    "--system", "round_robin", "--boards", "2", *options)  # fmt: skip
        assert run.code == 0, run.err
    database = Database(f"sqlite:///{db}")
    made = [tournament.tournament_info(database, e).settings for e in (1, 2)]
    assert [(s.color_policy, s.online_colors) for s in made] == [("handicap", "nigiri")] * 2
    boards = [teams.team_event_info(database, e).settings.board_colors.value for e in (3, 4)]
    assert boards == ["nigiri", "nigiri"]
    assert events.event_kind(database, 3) is events.EventKind.TEAM
