"""A page reads from one snapshot (issue #10), on SQLite and PostgreSQL: inside
``Database.snapshot`` every transaction reads the database as it was at the snapshot's first
read — a write another connection commits meanwhile is not half seen — and writing is refused."""

from __future__ import annotations

import pytest
from sqlalchemy import select
from sqlalchemy.exc import DBAPIError

from weiqi.store.database import Database
from weiqi.store.models import EventRow


def _names(db: Database) -> list[str]:
    with db.transaction() as session:
        return list(session.scalars(select(EventRow.name).order_by(EventRow.id)))


def test_every_read_of_a_snapshot_sees_one_state_of_the_database(database_url: str) -> None:
    db, writer = Database(database_url), Database(database_url)
    db.upgrade()
    try:
        with db.transaction() as session:
            session.add(EventRow(name="甲级联赛"))
        with db.snapshot():
            first = _names(db)
            with writer.transaction() as session:  # another connection, committed
                session.add(EventRow(name="乙级联赛"))
                session.scalars(select(EventRow)).first().name = "甲级联赛（改）"  # type: ignore[union-attr]
            assert _names(db) == first == ["甲级联赛"]
        assert _names(db) == ["甲级联赛（改）", "乙级联赛"]
        with pytest.raises(DBAPIError), db.snapshot(), db.transaction() as session:
            session.add(EventRow(name="written while reading"))
            session.flush()
        assert _names(db) == ["甲级联赛（改）", "乙级联赛"]
        with db.transaction() as session:  # the pooled connection writes again afterwards
            session.add(EventRow(name="丙级联赛"))
        assert len(_names(db)) == 3
    finally:
        writer.dispose()
        db.dispose()
