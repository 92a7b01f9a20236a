"""A player absent from one round, not withdrawn (issues #13 and #14): not paired in it, scored
the event's absent-round points (0 unless the event says otherwise; EGF events give half a
win), back in the next round. Only later rounds of Swiss-type events; refusals say why."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from weiqi.cli import app
from weiqi.errors import Conflict, InvalidSetting
from weiqi.services.actor import Actor
from weiqi.services.event_admin import player_named
from weiqi.services.events import create_event
from weiqi.services.tournament import (
    event_standings,
    import_players,
    pair_round,
    record_result,
    set_absent,
    show_round,
)
from weiqi.store.database import Database
from weiqi.tournament.settings import EventSettings, System

LOCAL = Actor.local()
PLAYERS = "name,rank\n" + "\n".join(f"P{i},{7 - i}d" for i in range(1, 7))


def _event(db: Database, **settings: object) -> int:
    values: dict[str, object] = {"system": System.SWISS, "rounds": 3, **settings}
    event = create_event(db, LOCAL, "Club", EventSettings(**values)).id  # type: ignore[arg-type]
    import_players(db, LOCAL, event, PLAYERS)
    return event


def _finish(db: Database, event: int, number: int) -> None:
    for p in show_round(db, event, number).pairings:
        record_result(db, LOCAL, event, number, p.board, "B+R")


def test_an_absent_player_sits_out_one_round_and_comes_back(db: Database) -> None:
    event = _event(db, absent_points=1)
    p3 = player_named(db, event, "P3")
    assert set_absent(db, LOCAL, event, p3, [2]) == frozenset({2})
    pair_round(db, LOCAL, event)
    _finish(db, event, 1)
    second = pair_round(db, LOCAL, event)
    names = {n for p in second.pairings for n in (p.black, p.white)} | set(second.byes)
    assert "P3" not in names and len(names) == 5
    _finish(db, event, 2)
    third = pair_round(db, LOCAL, event)
    assert "P3" in {n for p in third.pairings for n in (p.black, p.white)} | set(third.byes)
    _finish(db, event, 3)
    scores = {s.name: s.points for s in event_standings(db, event)}
    # P3 played rounds 1 and 3 and scored the absent round's point in round 2
    assert scores["P3"] % 2 == 1


def test_absent_points_default_to_none(db: Database) -> None:
    event = _event(db)
    set_absent(db, LOCAL, event, player_named(db, event, "P6"), [1])
    pair_round(db, LOCAL, event)
    _finish(db, event, 1)
    assert {s.name: s.points for s in event_standings(db, event)}["P6"] == 0


def test_only_later_rounds_of_a_swiss(db: Database) -> None:
    event = _event(db)
    p1 = player_named(db, event, "P1")
    pair_round(db, LOCAL, event)
    with pytest.raises(Conflict, match="round 1 is paired already"):
        set_absent(db, LOCAL, event, p1, [1])
    with pytest.raises(InvalidSetting, match="the event has 3 rounds"):
        set_absent(db, LOCAL, event, p1, [4])
    assert set_absent(db, LOCAL, event, p1, [2, 3]) == frozenset({2, 3})
    assert set_absent(db, LOCAL, event, p1, [3], absent=False) == frozenset({2})
    robin = create_event(db, LOCAL, "RR", EventSettings(system=System.ROUND_ROBIN)).id
    import_players(db, LOCAL, robin, PLAYERS)
    with pytest.raises(Conflict, match="a missed game is a forfeit"):
        set_absent(db, LOCAL, robin, player_named(db, robin, "P1"), [2])


def test_the_command_line(tmp_path: Path) -> None:
    runner = CliRunner()
    db = str(tmp_path / "club.sqlite3")
    (tmp_path / "p.csv").write_text(PLAYERS, encoding="utf-8")
    for args in (
        ["event", "create", "--db", db, "--name", "C", "--system", "swiss", "--rounds", "3"],
        ["player", "import", "--db", db, str(tmp_path / "p.csv")],
    ):
        assert runner.invoke(app, args).exit_code == 0
    done = runner.invoke(
        app, ["player", "absent", "P2", "--round", "2", "--round", "3", "--db", db]
    )
    assert done.exit_code == 0, done.output
    assert done.output.strip() == "P2: absent from rounds 2, 3"
    back = runner.invoke(app, ["player", "absent", "P2", "--round", "3", "--back", "--db", db])
    assert back.output.strip() == "P2: absent from rounds 2"
