"""The site's secret: what signs the game records, the boards' seals and the session cookies —
kept outside the database it protects.

Whoever can write the database can rewrite a record; with the key beside it (the old
``site_settings`` row) they could also re-sign it. So the secret is, in this order:

1. ``$WEIQI_SECRET_KEY`` when set (every worker of a site sets the same);
2. else the key file ``$WEIQI_SECRET_FILE``, by default ``weiqi.key`` in the SQLite database's
   folder, or ``weiqi/secret.key`` in the user's data directory (``$XDG_DATA_HOME``, else
   ``~/.local/share``) for PostgreSQL; an in-memory SQLite database keeps it in memory.

A new key file is written whole, mode 0600, and appears at once or not at all (a hard link of
a finished temporary file): of two servers starting at once on a fresh database one writes it
and the other reads it. The database keeps only the key's fingerprint (``secret_key_id``), so
a server started with another key (or none) for a database whose records are signed says so
instead of refusing every record as forged — and never signs with a key the records do not
know.

A database from before this version has its secret in ``site_settings``: on the first start it
is written to the key file (or checked against ``$WEIQI_SECRET_KEY``) and removed from the
database, so every signature stays valid.

>>> import tempfile, os
>>> from sqlalchemy import create_engine
>>> from weiqi.store.migrate import upgrade
>>> folder = tempfile.mkdtemp()
>>> engine = create_engine(f"sqlite:///{folder}/e.sqlite3"); upgrade(engine)
>>> key = settle(engine)
>>> key.problem is None and key.source == os.path.join(folder, "weiqi.key")
True
>>> oct(os.stat(key.source).st_mode & 0o777), settle(engine).secret == key.secret
('0o600', True)
"""

from __future__ import annotations

import contextlib
import os
import secrets
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from weakref import WeakKeyDictionary

from sqlalchemy import Connection, Engine, text
from sqlalchemy.exc import DBAPIError

from weiqi.errors import InputError
from weiqi.messages import Msg
from weiqi.store.plain import ENV_FILE, ENV_KEY, key_id, sqlite_key_file


@dataclass(frozen=True)
class SiteKey:
    """The site's secret as this process found it.

    ``secret`` is ``None`` when the database's records are signed with a key this process does
    not have (``problem`` says why, for every refused record); ``source`` names where the key
    is (the key file, ``$WEIQI_SECRET_KEY`` or ``memory``)."""

    secret: str | None
    source: str
    problem: Msg | None = None
    session_secret: str = ""
    """What signs the session cookies: the secret, or — without it — a key of this process
    (sessions then end with it; the records stay refused until the key is back)."""


_keys: WeakKeyDictionary[Engine, SiteKey] = WeakKeyDictionary()
_settling = threading.Lock()


def key_path(engine: Engine) -> Path | None:
    """The key file of ``engine``'s database (``None``: an in-memory database, whose key lives
    as long as the process).

    >>> from sqlalchemy import create_engine
    >>> key_path(create_engine("sqlite:////srv/go/e.sqlite3")).as_posix()
    '/srv/go/weiqi.key'
    >>> key_path(create_engine("sqlite://")) is None
    True
    """
    if engine.dialect.name == "sqlite":
        return sqlite_key_file(engine.url.database)
    explicit = os.environ.get(ENV_FILE)
    if explicit:
        return Path(explicit)
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "weiqi" / "secret.key"


def existing_secret(engine: Engine) -> str | None:
    """The site's secret if there is one outside the database (``$WEIQI_SECRET_KEY``, the key
    file, this process's memory), without making one: what a migration that signs needs."""
    env = os.environ.get(ENV_KEY)
    if env:
        return env
    path = key_path(engine)
    if path is not None:
        return _read(path)
    known = _keys.get(engine)
    return known.secret if known is not None else None


def _read(path: Path) -> str | None:
    try:
        value = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return None
    except OSError as err:
        raise InputError(
            Msg("key file %(path)s", path=str(path)),
            Msg("cannot be read (%(reason)s)", reason=err.strerror or str(err)),
        ) from None
    if not value:
        raise InputError(Msg("key file %(path)s", path=str(path)), Msg("is empty"))
    return value


def _create(path: Path, secret: str) -> str:
    """Write ``secret`` to ``path`` unless it exists: whole, mode 0600, at once (a hard link of
    a finished temporary file, so no reader sees half a key); the key the file holds after."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.{secrets.token_hex(8)}")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
                handle.write(secret + "\n")
                handle.flush()
                os.fsync(handle.fileno())
            with contextlib.suppress(FileExistsError):  # another server was first: its key
                os.link(temporary, path)
        finally:
            temporary.unlink(missing_ok=True)
    except OSError as err:
        raise InputError(
            Msg("key file %(path)s", path=str(path)),
            Msg("cannot be written (%(reason)s)", reason=err.strerror or str(err)),
        ) from None
    stored = _read(path)
    assert stored is not None
    return stored


def site_setting(connection: Connection, key: str) -> str | None:
    """The value stored under ``key`` in ``site_settings`` (``None``: none)."""
    value = connection.execute(
        text("SELECT value FROM site_settings WHERE key = :key"), {"key": key}
    ).scalar()
    return str(value) if value is not None else None


def _holds_signatures(connection: Connection) -> bool:
    """Whether anything in the database is signed (a record, a board's seal)."""
    for query in (
        "SELECT 1 FROM game_records",
        "SELECT 1 FROM event_games WHERE seal IS NOT NULL",
    ):
        if connection.execute(text(query + " LIMIT 1")).first() is not None:
            return True
    return False


def settle(engine: Engine, connection: Connection | None = None) -> SiteKey:
    """Find (or make) the site's key for ``engine``'s database, move a secret still stored in
    the database out to the key file, and remember the key for this process. Run once a
    database is migrated (``Database.upgrade``); :func:`site_key` after.

    A database whose secret differs from ``$WEIQI_SECRET_KEY`` or the key file is an
    ``InputError``: one of the two is not this site's, and signing with the wrong one would
    make every record look forged."""
    with _settling:
        found = _settle(engine, connection)
        _keys[engine] = found
        return found


@contextmanager
def _writing(engine: Engine, connection: Connection | None) -> Iterator[Connection]:
    """``connection`` (the caller's transaction: on SQLite a second connection could not
    write while it holds the lock), else a transaction of its own."""
    if connection is not None:
        yield connection
        return
    with engine.begin() as own:
        yield own


def _settle(engine: Engine, given: Connection | None) -> SiteKey:
    path = key_path(engine)
    env = os.environ.get(ENV_KEY) or None
    with _writing(engine, given) as connection:
        legacy = site_setting(connection, "secret_key")
        stored_id = site_setting(connection, "secret_key_id")
        signed = _holds_signatures(connection)
    known = _keys.get(engine)
    source = ENV_KEY if env else str(path) if path else "memory"
    secret = env or (_read(path) if path else known.secret if known else None)
    if legacy is not None:
        if secret is None:  # a database from before: its secret moves out to the key file
            secret = _create(path, legacy) if path else legacy
        if secret != legacy and signed:
            raise InputError(
                Msg("site secret"),
                Msg(
                    "the database holds a secret of its own that is not the one in %(source)s; "
                    "its records are signed with the database's: put that one in %(source)s "
                    "(or remove %(source)s) and start again",
                    source=source,
                ),
            )
        # (nothing signed with the database's own secret: the key found serves as well)
    elif secret is None and (stored_id is None or not signed):
        # a new database, or one holding nothing signed: a new key loses nothing
        fresh = secrets.token_urlsafe(48)
        secret = _create(path, fresh) if path else fresh
    if secret is None:
        return SiteKey(
            None,
            source,
            Msg(
                "this server does not have the site key this database was signed with (it is "
                "not in %(source)s): copy the key file that belongs with the database, or set "
                "WEIQI_SECRET_KEY",
                source=source,
            ),
            session_secret=secrets.token_urlsafe(48),
        )
    if stored_id is not None and stored_id != key_id(secret) and signed:
        return SiteKey(
            None,
            source,
            Msg(
                "the site key in %(source)s is not the one this database was signed with: "
                "copy the key file that belongs with the database, or set WEIQI_SECRET_KEY",
                source=source,
            ),
            session_secret=secret,
        )
    if legacy is not None or stored_id != key_id(secret):
        _record_key_id(engine, given, key_id(secret))
    from weiqi.store.stored_seals import (  # (seals find their key through here)
        reseal_moved_games,
        seal_stage_boards,
        seal_stored_boards,
    )

    try:
        # once: first the boards 0031 and 0032 moved, checked at their old ids before anything
        # signs or seals them at the new ones; then those of 0014 and 0026, which read the
        # moved records at their new ids
        with _writing(engine, given) as connection:
            reseal_moved_games(connection, secret)
            seal_stored_boards(connection, secret)
            seal_stage_boards(connection, secret)
    except DBAPIError as err:  # two servers starting at once: the first one sealed them
        from weiqi.store.database import lost_race

        if not lost_race(err):
            raise
    return SiteKey(secret, source, session_secret=secret)


def _record_key_id(engine: Engine, given: Connection | None, fingerprint: str) -> None:
    """Store the key's fingerprint and remove a secret still in the database (two servers
    starting at once both may: the second finds the first's row)."""
    try:
        with _writing(engine, given) as connection:
            connection.execute(
                text("DELETE FROM site_settings WHERE key IN ('secret_key', 'secret_key_id')")
            )
            connection.execute(
                text("INSERT INTO site_settings (key, value) VALUES ('secret_key_id', :value)"),
                {"value": fingerprint},
            )
    except DBAPIError as err:
        from weiqi.store.database import lost_race  # (database.py settles through here)

        if not lost_race(err):
            raise


def site_key(engine: Engine, connection: Connection | None = None) -> SiteKey:
    """The key :func:`settle` found for ``engine`` (settling it now if nobody has: a database
    this process did not upgrade, in the caller's ``connection`` when it is in a transaction)."""
    found = _keys.get(engine)
    if found is not None:
        return found
    from weiqi.store.database import in_snapshot  # (database.py settles through here)

    if connection is not None and in_snapshot(connection):
        connection = None  # a page's read-only snapshot: settled in a transaction of its own
    return settle(engine, connection)
