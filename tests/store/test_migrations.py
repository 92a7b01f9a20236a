"""The packaged Alembic migrations on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import delete, inspect, select, text
from sqlalchemy.exc import IntegrityError

from weiqi.store import load_models
from weiqi.store.base import Base
from weiqi.store.database import Database
from weiqi.store.migrate import current_revision, head_revision, upgrade
from weiqi.store.models import EventRole, EventRow, User


def test_upgrade_creates_the_tables_at_head(database: Database) -> None:
    tables = set(inspect(database.engine).get_table_names())
    assert {"users", "events", "event_roles", "site_settings", "alembic_version"} <= tables
    assert current_revision(database.engine) == head_revision()


def test_models_and_migrations_agree(database: Database) -> None:
    """A model change without a migration fails here: write one with ``weiqi db revision``."""
    load_models()
    with database.engine.connect() as connection:
        diff = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    assert diff == []


def test_downgrade_to_base_and_up_again(database_url: str) -> None:
    db = Database(database_url)
    db.upgrade()
    upgrade_to = head_revision()
    from alembic import command

    from weiqi.store.migrate import alembic_config

    with db.engine.begin() as connection:
        command.downgrade(alembic_config(connection), "base")
    assert "users" not in inspect(db.engine).get_table_names()
    upgrade(db.engine)
    assert current_revision(db.engine) == upgrade_to
    db.dispose()


def test_upgrade_twice_is_harmless(database: Database) -> None:
    database.upgrade()
    assert current_revision(database.engine) == head_revision()


def _user(session_db: Database, name: str) -> int:
    with session_db.transaction() as s:
        user = User(username=name, display_name=name, password_hash="x")
        s.add(user)
        s.flush()
        return user.id


def test_r_org_1_public_is_never_stored_as_a_role(database: Database) -> None:
    """R-ORG-1: the database refuses a role outside organiser/chief referee/referee/player."""
    uid = _user(database, "li")
    with database.transaction() as s:
        event = EventRow(name="e")
        s.add(event)
        s.flush()
        eid = event.id
    with pytest.raises(IntegrityError), database.transaction() as s:
        s.add(EventRole(user_id=uid, event_id=eid, role="public"))


def test_deleting_an_event_deletes_its_roles(database: Database) -> None:
    uid = _user(database, "wang")
    with database.transaction() as s:
        event = EventRow(name="e")
        s.add(event)
        s.flush()
        s.add(EventRole(user_id=uid, event_id=event.id, role="referee"))
    with database.transaction() as s:
        s.execute(delete(EventRow))
    with database.transaction() as s:
        assert s.scalars(select(EventRole)).all() == []
        assert s.execute(text("SELECT count(*) FROM users")).scalar_one() == 1
