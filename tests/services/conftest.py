"""A migrated database for the service tests: an SQLite file and a fresh PostgreSQL schema."""

from __future__ import annotations

from tests.store.conftest import sqlite_template  # noqa: F401  (a fixture of db)
from tests.tournament.conftest import db  # noqa: F401  (the same fixture on both databases)
