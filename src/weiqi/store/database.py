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

from sqlalchemy import Engine, create_engine, event, make_url, text
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

from weiqi.errors import InputError
from weiqi.messages import Msg

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


def _without_password(url: str) -> str:
    """``url`` fit for a message: any password masked.

    >>> _without_password("postgresql+nodriver://u:secret@host/db")
    'postgresql+nodriver://u:***@host/db'
    """
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return repr(url) if "@" not in url else "(unparsable URL)"


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
        try:
            self.engine: Engine = create_engine(url, **kwargs)
        except (ArgumentError, NoSuchModuleError, ValueError) as err:
            # A mistyped --db or $WEIQI_DATABASE_URL is bad input: one line, no traceback.
            raise InputError(
                Msg("database %(url)s", url=_without_password(url)),
                Msg("not a usable database URL (%(err)s)", err=err),
            ) from None
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _enable_sqlite_foreign_keys)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """A session in one transaction: committed on success, rolled back on any error."""
        with self.sessions.begin() as session:
            yield session

    def upgrade(self, revision: str = "head") -> None:
        """Run the Alembic migrations up to ``revision``.

        The first thing every command does with a database, so a file that is no database or a
        server that cannot be reached is reported here as an :class:`InputError`:

        >>> try:
        ...     Database("sqlite:////nonexistent/dir/x.sqlite3").upgrade()
        ... except InputError as err:
        ...     print(err.reason)
        cannot be opened (unable to open database file)
        """
        from weiqi.store.migrate import upgrade

        try:
            upgrade(self.engine, revision)
        except DBAPIError as err:
            where = self.engine.url.render_as_string(hide_password=True)
            reason = str(err.orig).splitlines()[0] if err.orig is not None else type(err).__name__
            raise InputError(
                Msg("database %(where)s", where=where),
                Msg("cannot be opened (%(reason)s)", reason=reason),
            ) from None

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
