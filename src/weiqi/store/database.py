"""The engine and session factory of one database, and where its URL comes from.

>>> from sqlalchemy import select
>>> from weiqi.store.models import EventRow
>>> db = Database("sqlite://")
>>> db.upgrade()
>>> with db.transaction() as session:
...     session.add(EventRow(name="Club championship"))
>>> with db.transaction() as session:
...     [e.name for e in session.scalars(select(EventRow))]
['Club championship']
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event, make_url, text
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

from weiqi.errors import Conflict, InputError
from weiqi.messages import Msg
from weiqi.store import versions
from weiqi.store.plain import DEFAULT_URL, code_head, database_url

__all__ = ["DEFAULT_URL", "Database", "database_url", "lost_race"]

#: What the drivers call the errors of a write that lost a race: another transaction stored the
#: same unique key first, or deleted the row a new one refers to (PostgreSQL's SQLSTATE, the
#: sqlite3 module's extended result code); on PostgreSQL also a deadlock or a serialization
#: failure, after which the database has rolled the transaction back.
_RACE_SQLSTATES = frozenset({"23505", "23503", "40P01", "40001"})
_RACE_SQLITE_CODES = frozenset(
    {"SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY", "SQLITE_CONSTRAINT_FOREIGNKEY"}
)

#: What they call a lock held too long by others: SQLite's busy timeout ran out (another
#: writer had the file), PostgreSQL's lock_not_available.
_BUSY_SQLSTATES = frozenset({"55P03"})
_BUSY_SQLITE_CODES = frozenset({"SQLITE_BUSY", "SQLITE_LOCKED"})
BUSY = Msg(
    "the database was busy with other changes for too long; nothing of yours was stored: try again"
)

#: The conflict of a write that lost such a race; nothing of it was stored.
LOST_RACE = Msg(
    "somebody else changed the same thing at the same moment and was first; nothing of "
    "yours was stored: reload the page and try again"
)


def lost_race(err: DBAPIError) -> bool:
    """Whether ``err`` says that another transaction was first (a unique key it stored, a row it
    deleted, a deadlock with it) — not a bug such as a missing value."""
    orig = err.orig
    return (
        getattr(orig, "sqlstate", None) in _RACE_SQLSTATES
        or getattr(orig, "sqlite_errorname", None) in _RACE_SQLITE_CODES
    )


def busy(err: DBAPIError) -> bool:
    """Whether ``err`` says the database's lock stayed with other writers past the timeout."""
    orig = err.orig
    return (
        getattr(orig, "sqlstate", None) in _BUSY_SQLSTATES
        or getattr(orig, "sqlite_errorname", None) in _BUSY_SQLITE_CODES
    )


def _enable_sqlite_foreign_keys(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    # Write-ahead logging: readers never wait for the writer, and a commit appends to the log
    # instead of rewriting pages through a rollback journal. ``synchronous=NORMAL`` syncs at
    # checkpoints, not at every commit: a killed process loses nothing it committed (a live
    # move's acknowledgement stays true across kill -9); only a power cut may undo the last
    # commits, never corrupt the file. A live move took 18-28 ms in-process before, 8-9 after
    # (bench/live_act.py). A file that cannot be switched (read-only) keeps its journal.
    try:
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
    except sqlite3.OperationalError:
        pass
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


POOL_SIZE = 40
"""Connections a server process holds to PostgreSQL at most, unless told: one for each of the
server's threads (anyio's 40), which each hold one for a transaction."""

#: Connections of PostgreSQL's ``max_connections`` that ``weiqi serve`` leaves to others by
#: default (``psql``, a backup, the CLI on the same database, the monitor).
SPARE_CONNECTIONS = 10


def connection_share(workers: int, allowed: int | None, asked: int | None = None) -> int:
    """Connections each of a ``weiqi serve``'s ``workers`` processes may hold to PostgreSQL:
    ``asked`` (``--db-connections``, the whole command's) split evenly, else what the server
    ``allowed`` (``max_connections`` less its reserved ones, or None when unknown) less
    :data:`SPARE_CONNECTIONS`, and never more than :data:`POOL_SIZE` nor fewer than 2. Four
    workers of 40 opened more connections than PostgreSQL's default 100 allows and every one
    past it failed (a socket refused with HTTP 500, a game never started: ``bench/live.py``);
    a thread that finds its worker's share in use waits for a connection instead.

    >>> connection_share(1, 97)
    40
    >>> connection_share(4, 97)  # (97 - 10) // 4
    21
    >>> connection_share(4, 97, asked=40)
    10
    >>> connection_share(8, None)
    40
    >>> connection_share(64, 97)
    2
    """
    if asked is None:
        if allowed is None:
            return POOL_SIZE
        asked = allowed - SPARE_CONNECTIONS
    return max(2, min(POOL_SIZE, asked // workers))


#: The reading session of the snapshot this thread's page reads from (``Database.snapshot``).
_SNAPSHOT: ContextVar[tuple[Database, Session] | None] = ContextVar("weiqi_snapshot", default=None)


def in_snapshot(connection: Connection) -> bool:
    """Whether ``connection`` is the one this thread's :meth:`Database.snapshot` reads on (a
    read-only transaction that holds no lock: another connection may write meanwhile)."""
    shared = _SNAPSHOT.get()
    return shared is not None and shared[1].get_bind() is connection


class Database:
    """One database: its engine and the session factory everybody uses."""

    def __init__(self, url: str, connections: int = POOL_SIZE) -> None:
        self.url = url
        kwargs: dict[str, Any] = {}
        if url.startswith("sqlite"):
            # The server answers requests from a thread pool; an in-memory database must be
            # one shared connection or each thread would see its own empty database.
            kwargs["connect_args"] = {"check_same_thread": False}
            if url in ("sqlite://", "sqlite:///:memory:"):
                kwargs["poolclass"] = StaticPool
        else:
            # The server's threads (up to 40) each hold a connection for a transaction: with
            # SQLAlchemy's default 5 kept, every connection above them was opened for one
            # transaction and closed after it — a new PostgreSQL backend (a process) per live
            # move under load. Keep every connection a worker may hold (its share of the
            # server's, :func:`connection_share`) open once opened; past it, a thread waits.
            kwargs["pool_size"] = connections
            kwargs["max_overflow"] = 0
        try:
            if not url.startswith("sqlite") and "application_name" not in make_url(url).query:
                # how pg_stat_activity names our backends, unless the URL names them itself
                kwargs["connect_args"] = {"application_name": "weiqi"}
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
        # Every transaction that writes an event changes the event's version (pages kept under
        # the old one are out of date): watched here, so no write can forget it.
        versions.install(self.sessions)

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """A session in one transaction: committed on success, rolled back on any error.

        The one place where a write that lost a race (:func:`lost_race`: a unique key another
        transaction stored first, whether found at a flush or at the commit) becomes what it
        is for the user: a ``Conflict`` (HTTP 409), in their language, and not a server error;
        the same for a write that waited past the database's lock timeout (:func:`busy`).

        >>> from weiqi.store.models import User
        >>> db = Database("sqlite://"); db.upgrade()
        >>> with db.transaction() as session:
        ...     session.add(User(username="li", display_name="Li", password_hash="-"))
        >>> with db.transaction() as session:
        ...     session.add(User(username="li", display_name="Li", password_hash="-"))
        Traceback (most recent call last):
        ...
        weiqi.errors.Conflict: somebody else changed the same thing at the same moment ...
        """
        reading = self._reading()
        if reading is not None:
            yield reading  # inside :meth:`snapshot`: its reading session, committed by it
            return
        try:
            with self.sessions.begin() as session:
                yield session
        except DBAPIError as err:
            if busy(err):  # a crowd of writers on one SQLite file: 409, not a server error
                raise Conflict(BUSY) from err
            if not lost_race(err):
                raise
            raise Conflict(LOST_RACE) from err

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
        from weiqi.store.site_key import settle

        try:
            # the usual case is nothing to migrate, found with one query: Alembic not imported
            if not (revision == "head" and self.at_head()):
                from weiqi.store.migrate import upgrade

                upgrade(self.engine, revision)
            if revision == "head":  # the site's key, found or made (``store.site_key``)
                settle(self.engine)
        except DBAPIError as err:
            where = self.engine.url.render_as_string(hide_password=True)
            reason = str(err.orig).splitlines()[0] if err.orig is not None else type(err).__name__
            raise InputError(
                Msg("database %(where)s", where=where),
                Msg("cannot be opened (%(reason)s)", reason=reason),
            ) from None

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """Every :meth:`transaction` opened inside (by this thread) reads from one snapshot of
        the database, in one read-only transaction: a page that asks several services reads
        one state of it, not a write's before and after. PostgreSQL: ``REPEATABLE READ, READ
        ONLY`` (each statement of ``READ COMMITTED`` sees a new snapshot); SQLite: one
        transaction begun at once, which in WAL mode reads the database as of its first read,
        with writes refused (``query_only``). A snapshot inside a snapshot is the same one.

        >>> from sqlalchemy import select
        >>> from weiqi.store.models import EventRow
        >>> db = Database("sqlite://"); db.upgrade()
        >>> with db.snapshot():
        ...     with db.transaction() as one, db.transaction() as two:
        ...         one is two
        True
        >>> try:
        ...     with db.snapshot(), db.transaction() as session:
        ...         session.add(EventRow(name="written while reading")); session.flush()
        ... except DBAPIError as err:
        ...     print(err.orig)
        attempt to write a readonly database
        """
        if _SNAPSHOT.get() is not None:
            yield
            return
        sqlite = self.engine.dialect.name == "sqlite"
        with self.engine.connect() as connection:
            try:
                with connection.begin():
                    if sqlite:  # (the driver begins only before a write: begun here, now)
                        connection.exec_driver_sql("PRAGMA query_only = ON")
                        connection.exec_driver_sql("BEGIN")
                    else:
                        connection.exec_driver_sql(
                            "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY"
                        )
                    session = self.sessions(bind=connection)
                    token = _SNAPSHOT.set((self, session))
                    try:
                        yield
                    finally:
                        _SNAPSHOT.reset(token)
                        session.close()
            finally:
                if sqlite:  # the connection goes back to the pool writable (on the driver's
                    # connection: no transaction begun for it)
                    driver = connection.connection.driver_connection
                    assert isinstance(driver, sqlite3.Connection)
                    driver.execute("PRAGMA query_only = OFF")

    def _reading(self) -> Session | None:
        """The session of this thread's :meth:`snapshot` of this database, if it is in one."""
        shared = _SNAPSHOT.get()
        return shared[1] if shared is not None and shared[0] is self else None

    @contextmanager
    def connection(self) -> Iterator[Connection]:
        """A plain connection for a query or two, rolled back when done: inside this thread's
        :meth:`snapshot`, the snapshot's own (a page holds one connection at a time, and
        reads one state of the database), else one of the pool's."""
        reading = self._reading()
        if reading is not None:
            yield reading.connection()
            return
        with self.engine.connect() as connection:
            yield connection

    def at_head(self) -> bool:
        """Whether the database is at the newest revision this code ships, read with one query
        (``alembic_version``) instead of Alembic's migration context (0.15–0.3 s of a command's
        start, issue #15). False for a new, older or unreadable database: :meth:`upgrade` then
        runs the migrations, which report any error.

        >>> db = Database("sqlite://")
        >>> db.at_head()
        False
        >>> db.upgrade(); db.at_head()
        True
        """
        try:
            with self.engine.connect() as connection:
                current = connection.execute(text("SELECT version_num FROM alembic_version"))
                versions_found = [row[0] for row in current]
        except DBAPIError:
            return False
        return versions_found == [code_head()] and code_head() is not None

    def ping(self) -> bool:
        """Whether the database answers a trivial query."""
        try:
            with self.connection() as connection:
                connection.execute(text("SELECT 1"))
        except Exception:
            return False
        return True

    def allowed_connections(self) -> int | None:
        """How many connections PostgreSQL lets users like us open at once (its
        ``max_connections`` less ``superuser_reserved_connections``); None for SQLite, which
        has no such limit.

        >>> Database("sqlite://").allowed_connections() is None
        True
        """
        if self.engine.dialect.name != "postgresql":
            return None
        with self.engine.connect() as connection:
            allowed = connection.execute(
                text(
                    "SELECT current_setting('max_connections')::int"
                    " - current_setting('superuser_reserved_connections')::int"
                )
            ).scalar_one()
        return int(allowed)

    def dispose(self) -> None:
        self.engine.dispose()
