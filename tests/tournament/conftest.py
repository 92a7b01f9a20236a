"""A migrated database for the tournament service tests: an SQLite file, and a fresh
PostgreSQL schema (marked ``postgres``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.store.conftest import postgres_schema
from weiqi.store.database import Database


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    if request.param == "sqlite":
        database = Database(f"sqlite:///{tmp_path / 'event.sqlite3'}")
        database.upgrade()
        yield database
        database.dispose()
        return
    with postgres_schema() as url:
        database = Database(url)
        database.upgrade()
        yield database
        database.dispose()
