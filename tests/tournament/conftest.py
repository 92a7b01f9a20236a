"""A migrated database for the tournament service tests: an SQLite file, and a fresh
PostgreSQL schema (marked ``postgres``)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.store.conftest import (  # noqa: F401  (the template fixtures, used by db)
    migrated_postgres_schema,
    sqlite_template,
)
from weiqi.store.database import Database


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    sqlite_template: Path,  # noqa: F811
) -> Iterator[Database]:
    if request.param == "sqlite":  # a copy of the file migrated once per run
        shutil.copyfile(sqlite_template, tmp_path / "event.sqlite3")
        database = Database(f"sqlite:///{tmp_path / 'event.sqlite3'}")
        database.upgrade()  # at head already: only checks
        yield database
        database.dispose()
        return
    with migrated_postgres_schema(request) as url:
        database = Database(url)
        database.upgrade()  # at head already: only checks
        yield database
        database.dispose()
