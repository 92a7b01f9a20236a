"""Migration 0012 on SQLite and PostgreSQL (issue #13: namesakes told apart): a database of the
revision before it, with players, a paired round and a result, keeps every player, game and
standing; the unique name per event becomes a unique identity (name, club, birth date,
licence), so two 张伟 of two clubs can then enter and the same player twice still cannot.
Downgrading is refused while an event has namesakes."""

from __future__ import annotations

import datetime

import pytest
from alembic import command
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from weiqi.services import event_admin, tournament
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.store.database import Database
from weiqi.store.migrate import alembic_config, current_revision, head_revision
from weiqi.tournament.namesakes import identity_key
from weiqi.tournament.settings import EventSettings, System

LOCAL = Actor.local()
BEFORE = ScriptDirectory.from_config(alembic_config()).get_revision("0012").down_revision


def _downgrade(db: Database, revision: str) -> None:
    with db.engine.begin() as connection:
        command.downgrade(alembic_config(connection), revision)


def test_0012_keeps_players_games_and_standings_and_lets_namesakes_in(database_url: str) -> None:
    assert isinstance(BEFORE, str)
    db = Database(database_url)
    db.upgrade()
    ev = create_event(db, LOCAL, "迁移测试", EventSettings(System.SWISS, rounds=3))
    csv = "姓名,段位,俱乐部,出生日期\n张伟,5d,北京,1990-03-01\n李明,4d,上海,\n"
    csv += "王芳,3d,,\n赵磊,2d,天津,\n"
    event_admin.import_players(db, LOCAL, ev.id, csv)
    rnd = tournament.pair_round(db, LOCAL, ev.id)
    tournament.record_result(db, LOCAL, ev.id, 1, 1, "B+R")
    before = (tournament.show_round(db, ev.id, 1), tournament.event_standings(db, ev.id))

    _downgrade(db, BEFORE)
    with db.engine.connect() as connection:
        names = connection.execute(text("SELECT name FROM event_players ORDER BY id")).scalars()
        assert list(names) == ["张伟", "李明", "王芳", "赵磊"]
    db.upgrade()
    assert current_revision(db.engine) == head_revision()
    with db.engine.connect() as connection:
        rows = connection.execute(
            text("SELECT name, club, identity_key, licence FROM event_players ORDER BY id")
        ).all()
    assert [r[0] for r in rows] == ["张伟", "李明", "王芳", "赵磊"]
    assert rows[0][2] == identity_key("张伟", "北京", datetime.date(1990, 3, 1))
    assert all(r[3] == "" for r in rows)
    assert (tournament.show_round(db, ev.id, 1), tournament.event_standings(db, ev.id)) == before
    assert len(rnd.pairings) == 2

    # now a namesake of another club enters; the same player twice is refused by the database
    event_admin.register_player(db, LOCAL, ev.id, "张伟", club="上海")
    with pytest.raises(IntegrityError), db.engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO event_players (event_id, identity_key, name, licence, club, country, "
                "region, extra_json, joined_round, warnings) VALUES (:e, :k, '张伟', '', '上海', "
                "'', '', '{}', 2, 0)"
            ),
            {"e": ev.id, "k": identity_key("张伟", "上海")},
        )
    with pytest.raises(RuntimeError, match="张伟"):
        _downgrade(db, BEFORE)
    assert current_revision(db.engine) == head_revision()
    db.dispose()
