"""A round entered as given, for events paired elsewhere (issue #14): every row or none, each
refusal with its line; what the event's own pairing would have avoided is noted, not refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from weiqi.cli import app
from weiqi.errors import NotFound, RowsRejected
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.services.tournament import (
    enter_round,
    event_standings,
    import_players,
    record_result,
    show_round,
)
from weiqi.store.database import Database
from weiqi.tournament.settings import EventSettings, System

LOCAL = Actor.local()
PLAYERS = "name,rank\n" + "\n".join(f"P{i},{6 - i}d" for i in range(1, 6))


def _event(db: Database) -> int:
    event = create_event(
        db, LOCAL, "Paired elsewhere", EventSettings(system=System.SWISS, rounds=3)
    ).id
    import_players(db, LOCAL, event, PLAYERS)
    return event


def test_a_round_as_given_with_a_bye_and_a_handicap(db: Database) -> None:
    event = _event(db)
    done = enter_round(
        db, LOCAL, event, "board,black,white,handicap\n1,P2,P1,0\n2,P4,P3,2\n3,P5,\n"
    )
    assert done.notes == ()
    rnd = show_round(db, event, 1)
    assert [(p.board, p.black, p.white, p.handicap) for p in rnd.pairings] == [
        (1, "P2", "P1", 0),
        (2, "P4", "P3", 2),
    ]
    assert rnd.byes == ("P5",) and rnd.pairings[1].komi == 0
    for board in (1, 2):
        record_result(db, LOCAL, event, 1, board, "W+R")
    again = enter_round(db, LOCAL, event, "board,black,white\n1,P1,P2\n2,P3,P5\n3,P4,\n")
    assert [str(n) for n in again.notes] == ["board 1: P1 and P2 have met before"]
    assert {s.name for s in event_standings(db, event)} == {f"P{i}" for i in range(1, 6)}


def test_every_problem_with_its_line_and_nothing_stored(db: Database) -> None:
    event = _event(db)
    bad = "board,black,white\n1,P1,P9\n1,P2,P3\n2,P2,P4\nx,P5,P1\n3,P4,P5\ny,,\n"
    with pytest.raises(RowsRejected) as err:
        enter_round(db, LOCAL, event, bad)
    assert [(line, str(why)) for line, why in err.value.problems] == [
        (2, "no player 'P9'"),
        (4, "P2 is already on line 3"),
        (5, "P1 is already on line 2"),
        (6, "P4 is already on line 4"),
        (6, "P5 is already on line 5"),
        (7, "black is empty"),
    ]
    with pytest.raises(NotFound, match="round 1 is not paired"):
        show_round(db, event, 1)


def test_the_command_line(tmp_path: Path) -> None:
    runner = CliRunner()
    db = str(tmp_path / "club.sqlite3")
    (tmp_path / "p.csv").write_text(PLAYERS, encoding="utf-8")
    (tmp_path / "r1.csv").write_text("board,black,white\n1,P1,P2\n2,P3,P4\n3,P5,\n")
    for args in (
        ["event", "create", "--db", db, "--name", "C", "--system", "swiss", "--rounds", "3"],
        ["player", "import", "--db", db, str(tmp_path / "p.csv")],
    ):
        assert runner.invoke(app, args).exit_code == 0
    done = runner.invoke(app, ["round", "enter", str(tmp_path / "r1.csv"), "--db", db, "--json"])
    assert done.exit_code == 0, done.output
    assert '"notes": []' in done.output and '"bye": "P5"' in done.output
