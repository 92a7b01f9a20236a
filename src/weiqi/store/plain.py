"""The database without SQLAlchemy or Alembic: where its URL comes from, the schema revision this
code ships, and a read-only look into an SQLite file that is already at that revision.

A command that only reads (``weiqi standings --json`` of a 10,000-player event, issue #15) is
mostly start-up and loading when it goes through SQLAlchemy: importing it and Alembic and
checking the migrations cost about as much as the standings themselves. This module imports
neither; what it cannot answer cheaply (a server database, a file behind the code's schema, a
file it cannot open) it declines, and the caller takes the usual path, which migrates and
reports errors as before.

>>> database_url("sqlite:///x.sqlite3")
'sqlite:///x.sqlite3'
>>> code_head() >= "0013"  # the newest migration shipped in ``store/migrations/versions``
True
>>> sqlite_file("sqlite:///events/club.sqlite3"), sqlite_file("postgresql+psycopg://h/db")
('events/club.sqlite3', None)
"""

from __future__ import annotations

import hashlib
import hmac
import os
import sqlite3
from functools import cache
from pathlib import Path
from urllib.parse import quote

DEFAULT_URL = "sqlite:///weiqi.sqlite3"

VERSIONS = Path(__file__).parent / "migrations" / "versions"


def database_url(explicit: str | None = None) -> str:
    """The URL to use: ``explicit`` (``--db``: a URL, or the path of an SQLite file, as every
    command takes it), else ``$WEIQI_DATABASE_URL``, else an SQLite file ``./weiqi.sqlite3``.

    >>> database_url("club/x.sqlite3")
    'sqlite:///club/x.sqlite3'
    >>> database_url(None) == (os.environ.get("WEIQI_DATABASE_URL") or DEFAULT_URL)
    True
    """
    if explicit and "://" not in explicit:
        return f"sqlite:///{explicit}"
    return explicit or os.environ.get("WEIQI_DATABASE_URL") or DEFAULT_URL


@cache
def code_head() -> str | None:
    """The revision of the newest migration this code ships, from the migrations' file names:
    each is ``NNNN_what.py`` with revision ``NNNN`` (``store.migrate.new_revision`` names them
    so; ``tests/store/test_plain.py`` checks it against Alembic's own head)."""
    numbers = [
        p.name[:4] for p in VERSIONS.glob("[0-9][0-9][0-9][0-9]_*.py") if p.name[:4].isdigit()
    ]
    return max(numbers, default=None)


def sqlite_file(url: str) -> str | None:
    """The file of an ``sqlite:///FILE`` URL; None for any other database, an in-memory one, or
    a URL with options (left to SQLAlchemy)."""
    for prefix in ("sqlite:///", "sqlite+pysqlite:///"):
        if url.startswith(prefix):
            path = url[len(prefix) :]
            if not path or path == ":memory:" or "?" in path or path.startswith("file:"):
                return None
            return path
    return None


def schema_revision(connection: sqlite3.Connection) -> str | None:
    """The revision an SQLite database is at (Alembic's ``alembic_version``), None before the
    first migration or when it is no weiqi database."""
    try:
        row = connection.execute("SELECT version_num FROM alembic_version").fetchone()
    except sqlite3.Error:
        return None
    return None if row is None else str(row[0])


def open_at_head(url: str) -> sqlite3.Connection | None:
    """A read-only connection to the SQLite file of ``url`` if it exists and its schema is the
    code's head; None otherwise (the caller then opens it the usual way, which migrates it or
    says why it cannot).

    >>> open_at_head("sqlite:////nonexistent/dir/x.sqlite3") is None
    True
    """
    path = sqlite_file(url)
    if path is None or not os.path.isfile(path):
        return None
    try:
        connection = sqlite3.connect(f"file:{quote(os.path.abspath(path))}?mode=ro", uri=True)
    except sqlite3.Error:
        return None
    if schema_revision(connection) != code_head() or code_head() is None:
        connection.close()
        return None
    return connection


# -- the site key, as ``store.site_key`` places it -------------------------------------------

ENV_KEY = "WEIQI_SECRET_KEY"
ENV_FILE = "WEIQI_SECRET_FILE"
KEY_FILE = "weiqi.key"
"""The default key file's name, in the SQLite database's folder."""

_KEY_ID_LABEL = b"weiqi key id v1"


def key_id(secret: str) -> str:
    """The fingerprint of ``secret`` the database keeps: it names the key, and gives nothing
    of it away.

    >>> key_id("s") == key_id("s") != key_id("t"), len(key_id("s"))
    (True, 32)
    """
    return hmac.new(secret.encode(), _KEY_ID_LABEL, hashlib.sha256).hexdigest()[:32]


def sqlite_key_file(database: str | None) -> Path | None:
    """The key file of the SQLite file ``database``: ``$WEIQI_SECRET_FILE``, else ``weiqi.key``
    beside it (``None``: an in-memory database, whose key lives as long as the process).

    >>> sqlite_key_file("/srv/go/e.sqlite3").as_posix() if not os.environ.get(ENV_FILE) else None
    '/srv/go/weiqi.key'
    """
    explicit = os.environ.get(ENV_FILE)
    if explicit:
        return Path(explicit)
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database).absolute().parent / KEY_FILE


def sqlite_secret(connection: sqlite3.Connection, url: str) -> str | None:
    """The site's secret of the SQLite file of ``url`` where ``store.site_key`` would find it
    (``$WEIQI_SECRET_KEY``, else the key file), if the database names that very key (its
    fingerprint) and keeps no secret of its own any more; None otherwise — no key, another
    key, a database still to settle — and the caller takes the usual path, which settles the
    key or says why it cannot."""
    secret = os.environ.get(ENV_KEY)
    if not secret:
        path = sqlite_key_file(sqlite_file(url))
        if path is None:
            return None
        try:
            secret = path.read_text(encoding="utf-8").strip()
        except OSError:
            return None
        if not secret:
            return None
    try:
        stored = dict(
            connection.execute(
                "SELECT key, value FROM site_settings WHERE key IN ('secret_key', 'secret_key_id')"
            ).fetchall()
        )
    except sqlite3.Error:
        return None
    if "secret_key" in stored or stored.get("secret_key_id") != key_id(secret):
        return None
    return secret
