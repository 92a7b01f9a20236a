"""Migration 0029 on SQLite and PostgreSQL (issue #10: one competition model): an event that
was created by its name alone — it had no settings, and its organisers' and settings pages
were not found — gets the new-event form's first settings, a 5-round Swiss, and is then set up
like any other; an event with settings keeps its own."""

from __future__ import annotations

from alembic import command
from fastapi.testclient import TestClient

from weiqi.league.settings import TeamEventSettings
from weiqi.server.app import create_app
from weiqi.services import event_admin, tournament
from weiqi.services.accounts import ensure_site_admin
from weiqi.services.actor import Actor
from weiqi.services.events import create_event, event_kind
from weiqi.store.database import Database
from weiqi.store.migrate import alembic_config, current_revision, head_revision
from weiqi.store.models import EventRow
from weiqi.tournament.records import EventKind
from weiqi.tournament.settings import EventSettings, System

LOCAL = Actor.local()


def test_0029_gives_an_event_made_by_name_only_the_new_event_forms_swiss(
    database_url: str,
) -> None:
    db = Database(database_url)
    db.upgrade()
    robin = create_event(db, LOCAL, "循环赛", EventSettings(System.ROUND_ROBIN)).id
    league = create_event(db, LOCAL, "团体赛", TeamEventSettings(boards=3)).id
    with db.engine.begin() as connection:
        command.downgrade(alembic_config(connection), "0028")
    with db.transaction() as session:  # as the administration page made it before 0029
        bare = EventRow(name="只有名称")
        session.add(bare)
        session.flush()
        named = bare.id
    db.upgrade()
    assert current_revision(db.engine) == head_revision()
    info = tournament.tournament_info(db, named)
    assert info.settings == EventSettings(System.SWISS, rounds=5) == event_admin.DEFAULT_SWISS
    assert (info.name, info.entrants, info.rounds) == ("只有名称", 0, 0)
    assert tournament.tournament_info(db, robin).settings == EventSettings(System.ROUND_ROBIN)
    assert event_kind(db, league) is EventKind.TEAM
    # its organisers set it up as they like before round 1: here a round robin
    changed = event_admin.update_settings(
        db, LOCAL, named, "只有名称", EventSettings(System.ROUND_ROBIN)
    )
    assert changed.settings.system is System.ROUND_ROBIN
    ensure_site_admin(db, "correct horse battery")
    with TestClient(create_app(db, secret_key="k")) as web:
        assert web.get(f"/events/{named}").status_code == 200
        assert web.get(f"/api/events/{named}/settings").json()["system"] == "round_robin"
