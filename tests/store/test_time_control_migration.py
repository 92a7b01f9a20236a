"""Migration 0033 on SQLite and PostgreSQL (issue #10: settings carry the time control): an
event's time control moves from the ``events.time_control`` column into its settings, for
either kind; taken back to 0032 it is a column again and the settings hold no such key (which
the code of that time would refuse as an unknown setting), and the way up restores the same
settings."""

from __future__ import annotations

import json

from alembic import command
from sqlalchemy import inspect

from weiqi.clock.control import TimeControl
from weiqi.league.settings import TeamEventSettings
from weiqi.services.actor import Actor
from weiqi.services.events import competition_info, create_event
from weiqi.store.database import Database
from weiqi.store.migrate import alembic_config, current_revision, head_revision
from weiqi.tournament.settings import EventSettings, System

LOCAL = Actor.local()


def _columns(db: Database) -> set[str]:
    return {c["name"] for c in inspect(db.engine).get_columns("events")}


def _stored(db: Database) -> dict[int, tuple[str | None, dict[str, object]]]:
    """Each event's column (``None`` where there is none) and stored settings."""
    column = "time_control" in _columns(db)
    with db.engine.connect() as connection:
        rows = connection.exec_driver_sql(
            "SELECT e.id, s.settings_json"
            + (", e.time_control" if column else "")
            + " FROM events e JOIN event_settings s ON s.event_id = e.id ORDER BY e.id"
        ).all()
    return {int(r[0]): (str(r[2]) if column else None, json.loads(r[1])) for r in rows}


def test_0033_moves_the_time_control_into_the_settings_and_back(database_url: str) -> None:
    db = Database(database_url)
    db.upgrade()
    timed = EventSettings(System.SWISS, rounds=5, time_control=TimeControl.parse("1h incl 5x60s"))
    made = [
        create_event(db, LOCAL, "计时", timed).id,
        create_event(db, LOCAL, "不计时", EventSettings(System.ROUND_ROBIN)).id,
        create_event(
            db, LOCAL, "团体", TeamEventSettings(boards=3, time_control=TimeControl.parse("90m"))
        ).id,
    ]
    before = [competition_info(db, e).settings for e in made]
    now = _stored(db)
    assert "time_control" not in _columns(db)
    assert [now[e][1].get("time_control") for e in made] == ["55m+5x60s", None, "1h30m"]

    with db.engine.begin() as connection:
        command.downgrade(alembic_config(connection), "0032")
    assert current_revision(db.engine) == "0032"
    then = _stored(db)
    assert [then[e][0] for e in made] == ["55m+5x60s", "", "1h30m"]
    assert all("time_control" not in then[e][1] for e in made)

    db.upgrade()
    assert current_revision(db.engine) == head_revision()
    assert "time_control" not in _columns(db)
    assert _stored(db) == now  # the same text as the code writes
    assert [competition_info(db, e).settings for e in made] == before
