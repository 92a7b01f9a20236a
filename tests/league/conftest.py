"""Small builders shared by the league tests, and a database for the service tests."""

from __future__ import annotations

import pytest

from tests.store.conftest import (  # noqa: F401  (the template fixtures, used by db)
    sqlite_template,
)
from tests.tournament.conftest import db  # noqa: F401  (the same fixture on both databases)
from weiqi.league.team import RosterEntry, Team
from weiqi.tournament.ranks import Rank


def entry(pid: str, rank: str = "5p", rating: int = 2500, foreign: bool = False) -> RosterEntry:
    return RosterEntry(
        pid, pid.upper(), Rank.parse(rank), rating, "KR" if foreign else "CN", foreign
    )


def team(tid: str, *entries: RosterEntry, order: tuple[str, ...] = ()) -> Team:
    return Team(
        tid, tid.title(), tuple(entries), club=f"{tid} club", coach=f"coach {tid}", order=order
    )


@pytest.fixture
def one_command_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    """Build typer's command tree of ``weiqi`` once for a test instead of on every invoke
    (two thirds of a CLI test's time went into rebuilding it)."""
    import typer.testing

    from weiqi.cli import app

    command = typer.main.get_command(app)
    monkeypatch.setattr(typer.testing, "_get_command", lambda _app: command)
