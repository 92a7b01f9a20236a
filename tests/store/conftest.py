"""Databases for tests: a fresh SQLite file, or a fresh schema in PostgreSQL's ``test`` database
(so concurrent runs never collide). ``database`` is parametrised over both; the PostgreSQL case
is marked ``postgres``."""

from __future__ import annotations

import os
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from argon2 import PasswordHasher
from sqlalchemy import create_engine, make_url, text

from weiqi.services.accounts import set_password_hasher
from weiqi.store.database import Database

CHEAP_HASHER = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
POSTGRES_SERVER = os.environ.get(
    "WEIQI_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)


@contextmanager
def postgres_schema() -> Iterator[str]:
    """The URL of a new, empty schema (dropped afterwards), chosen through ``search_path``."""
    schema = f"t_{uuid.uuid4().hex[:16]}"
    admin = create_engine(POSTGRES_SERVER, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield f"{POSTGRES_SERVER}?options=-csearch_path%3D{schema}"
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture
def postgres_url() -> Iterator[str]:
    with postgres_schema() as url:
        yield url


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'weiqi.sqlite3'}"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest) -> str:
    url: str = request.getfixturevalue(f"{request.param}_url")
    return url


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An SQLite file migrated once per run; each test starts from a copy of it."""
    path = tmp_path_factory.mktemp("template") / "migrated.sqlite3"
    db = Database(f"sqlite:///{path}")
    db.upgrade()
    db.dispose()
    return path


@pytest.fixture(scope="session")
def postgres_template() -> tuple[str, str] | None:
    """The SQL that makes a schema migrated once per run (``pg_dump`` of it: its tables,
    sequences and rows), and the schema's name in it; each test's schema is made by it, as
    each SQLite test starts from a copy of a file. None without a ``pg_dump`` that can dump
    it: each test then migrates its own schema. Alembic's run takes some 0.7 s a schema,
    this 0.1 s."""
    dump = shutil.which("pg_dump")
    if dump is None:
        return None
    with postgres_schema() as url:
        db = Database(url)
        db.upgrade()
        db.dispose()
        name = url.rsplit("%3D", 1)[1]
        server = make_url(POSTGRES_SERVER)
        dumped = subprocess.run(
            [dump, "--schema", name, "--no-owner", "--no-privileges", "--inserts",
             "-h", server.host or "127.0.0.1", "-p", str(server.port or 5432),
             "-U", server.username or "postgres", server.database or "test"],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
    if dumped.returncode != 0:  # (a pg_dump older than the server, say): migrate each one
        return None
    sql = dumped.stdout
    # psql's own commands (\restrict) are not SQL
    return "\n".join(line for line in sql.splitlines() if not line.startswith("\\")), name


@contextmanager
def migrated_postgres_schema(request: pytest.FixtureRequest) -> Iterator[str]:
    """The URL of a new schema at the head of the migrations (dropped afterwards), made from
    the run's template (:func:`postgres_template`)."""
    with postgres_schema() as url:
        template = request.getfixturevalue("postgres_template")
        if template is not None:
            _made_from_template(url, template)
        yield url


def _made_from_template(url: str, template: tuple[str, str]) -> None:
    """Make the (empty) schema of ``url`` as the migrated template is."""
    sql, name = template
    schema = url.rsplit("%3D", 1)[1]
    admin = create_engine(POSTGRES_SERVER, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}"'))
            connection.exec_driver_sql(sql.replace(name, schema))
    finally:
        admin.dispose()


@pytest.fixture
def database(
    database_url: str, sqlite_template: Path, request: pytest.FixtureRequest
) -> Iterator[Database]:
    """A migrated database, SQLite and PostgreSQL in turn."""
    if database_url.startswith("sqlite:///"):
        shutil.copyfile(sqlite_template, database_url.removeprefix("sqlite:///"))
    else:
        template = request.getfixturevalue("postgres_template")
        if template is not None:
            _made_from_template(database_url, template)
    db = Database(database_url)
    db.upgrade()  # at head already for SQLite: only checks
    yield db
    db.dispose()


@pytest.fixture(autouse=True)
def cheap_password_hashes() -> Iterator[None]:
    """Argon2id with small parameters: the tests hash many passwords on shared cores."""
    previous = set_password_hasher(CHEAP_HASHER)
    yield
    set_password_hasher(previous)
