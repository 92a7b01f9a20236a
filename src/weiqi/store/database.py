"""The engine and session factory of one database, and where its URL comes from.

>>> from sqlalchemy import select
>>> from weiqi.store.models import Event
>>> db = Database("sqlite://")
>>> db.upgrade()
>>> with db.transaction() as session:
...     session.add(Event(name="Club championship"))
>>> with db.transaction() as session:
...     [e.name for e in session.scalars(select(Event))]
['Club championship']
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

DEFAULT_URL = "sqlite:///weiqi.sqlite3"


def database_url(explicit: str | None = None) -> str:
    """The URL to use: ``explicit`` (``--db``), else ``$WEIQI_DATABASE_URL``, else an SQLite file
    ``./weiqi.sqlite3``.

    >>> database_url("sqlite:///x.sqlite3")
    'sqlite:///x.sqlite3'
    """
    return explicit or os.environ.get("WEIQI_DATABASE_URL") or DEFAULT_URL


def _enable_sqlite_foreign_keys(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


class Database:
    """One database: its engine and the session factory everybody uses."""

    def __init__(self, url: str) -> None:
        self.url = url
        kwargs: dict[str, Any] = {}
        if url.startswith("sqlite"):
            # The server answers requests from a thread pool; an in-memory database must be
            # one shared connection or each thread would see its own empty database.
            kwargs["connect_args"] = {"check_same_thread": False}
            if url in ("sqlite://", "sqlite:///:memory:"):
                kwargs["poolclass"] = StaticPool
        self.engine: Engine = create_engine(url, **kwargs)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _enable_sqlite_foreign_keys)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """A session in one transaction: committed on success, rolled back on any error."""
        with self.sessions.begin() as session:
            yield session

    def upgrade(self, revision: str = "head") -> None:
        """Run the Alembic migrations up to ``revision``."""
        from weiqi.store.migrate import upgrade

        upgrade(self.engine, revision)

    def ping(self) -> bool:
        """Whether the database answers a trivial query."""
        try:
            with self.engine.connect() as connection:
                connection.execute(text("SELECT 1"))
        except Exception:
            return False
        return True

    def dispose(self) -> None:
        self.engine.dispose()
