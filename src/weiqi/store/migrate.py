"""Alembic, driven from code: the migrations ship inside the package (``store/migrations``), so
an installed ``weiqi`` can upgrade its database without an ``alembic.ini``.

>>> from sqlalchemy import create_engine, inspect
>>> engine = create_engine("sqlite://")
>>> upgrade(engine)
>>> {"users", "events", "event_roles"} <= set(inspect(engine).get_table_names())
True
>>> current_revision(engine) == head_revision()
True
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, text

MIGRATIONS = Path(__file__).parent / "migrations"


def alembic_config(connection: Connection | None = None) -> Config:
    """A Config pointing at the packaged migrations; ``connection`` is handed to ``env.py``."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Upgrade the database of ``engine`` to ``revision`` in one transaction.

    Two servers started at once on a fresh database must not both create the tables: each
    upgrade holds a lock for its whole transaction (PostgreSQL: an advisory lock on the schema;
    an SQLite file: an exclusive lock on a file beside it), so the second finds the database at
    head and does nothing.
    """
    with _migration_lock(engine), engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(hashtext(current_schema()))"))
        command.upgrade(alembic_config(connection), revision)


@contextmanager
def _migration_lock(engine: Engine) -> Iterator[None]:
    """An exclusive lock between the processes that migrate one SQLite file (else nothing)."""
    path = engine.url.database
    if (
        engine.dialect.name != "sqlite"
        or not path
        or path == ":memory:"
        or path.startswith("file:")
    ):
        yield
        return
    try:
        import fcntl
    except ImportError:  # not on a POSIX system: SQLite's own locking is all there is
        yield
        return
    lock = Path(path).with_name(Path(path).name + ".migrating")
    try:
        handle = lock.open("a")
    except OSError:  # a read-only folder: nobody can migrate there anyway
        yield
        return
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at (``None`` before the first migration)."""
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def head_revision() -> str | None:
    """The newest revision shipped with this version of weiqi."""
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def new_revision(engine: Engine, message: str) -> Path:
    """Autogenerate the next numbered migration by comparing the models with a database that is
    upgraded to head first (use an empty scratch database)."""
    upgrade(engine)
    head = head_revision()
    number = int(head) + 1 if head and head.isdigit() else 1
    with engine.begin() as connection:
        script = command.revision(
            alembic_config(connection),
            message=message,
            autogenerate=True,
            rev_id=f"{number:04d}",
        )
    assert script is not None and not isinstance(script, list)
    return Path(script.path)
