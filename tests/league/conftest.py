"""Small builders shared by the league tests, and a database for the service tests."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.store.conftest import (  # noqa: F401  (the template fixture, used by db)
    postgres_schema,
    sqlite_template,
)
from weiqi.league.team import RosterEntry, Team
from weiqi.store.database import Database
from weiqi.tournament.ranks import Rank


def entry(pid: str, rank: str = "5p", rating: int = 2500, foreign: bool = False) -> RosterEntry:
    return RosterEntry(
        pid, pid.upper(), Rank.parse(rank), rating, "KR" if foreign else "CN", foreign
    )


def team(tid: str, *entries: RosterEntry, order: tuple[str, ...] = ()) -> Team:
    return Team(
        tid, tid.title(), tuple(entries), club=f"{tid} club", coach=f"coach {tid}", order=order
    )


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    sqlite_template: Path,  # noqa: F811
) -> Iterator[Database]:
    """A migrated database for the service tests: an SQLite file, then a fresh PostgreSQL
    schema (marked ``postgres``)."""
    if request.param == "sqlite":  # a copy of the file migrated once per run
        shutil.copyfile(sqlite_template, tmp_path / "teams.sqlite3")
        database = Database(f"sqlite:///{tmp_path / 'teams.sqlite3'}")
        database.upgrade()  # at head already: only checks
        yield database
        database.dispose()
        return
    with postgres_schema() as url:
        database = Database(url)
        database.upgrade()
        yield database
        database.dispose()


@pytest.fixture
def one_command_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    """Build typer's command tree of ``weiqi`` once for a test instead of on every invoke
    (two thirds of a CLI test's time went into rebuilding it)."""
    import typer.testing

    from weiqi.cli import app

    command = typer.main.get_command(app)
    monkeypatch.setattr(typer.testing, "_get_command", lambda _app: command)
