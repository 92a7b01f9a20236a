"""``weiqi serve`` and ``weiqi db`` as a user runs them."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from tests.server.conftest import LiveServer, run_server
from tests.store.conftest import postgres_schema
from weiqi.cli import app
from weiqi.errors import NotFound
from weiqi.store.database import DEFAULT_URL, database_url
from weiqi.store.migrate import head_revision
from weiqi.tournament.settings import EventSettings, System

SWISS = EventSettings(System.SWISS, rounds=5)


def check_first_run(server: LiveServer) -> None:
    with httpx.Client(base_url=server.url) as client:
        assert client.get("/health").json()["status"] == "ok"
        token = client.get("/api/session").json()["csrf_token"]
        login = client.post(
            "/api/session",
            json={"username": "admin", "password": server.admin_password},
            headers={"X-CSRF-Token": token},
        )
        assert login.status_code == 200
        assert login.json()["user"]["must_change_password"] is True
        headers = client.get("/").headers
        assert headers["x-frame-options"] == "DENY"
        assert headers["x-content-type-options"] == "nosniff"


def test_serve_migrates_prints_the_one_time_password_and_answers(live_server: LiveServer) -> None:
    """The first run prints a one-time password that logs the administrator in."""
    check_first_run(live_server)


@pytest.mark.postgres
def test_serve_on_postgresql(tmp_path: Path) -> None:
    """The same application on PostgreSQL, chosen by ``--db`` alone."""
    with postgres_schema() as url, run_server(tmp_path, url) as server:
        check_first_run(server)


def test_serve_on_an_in_memory_database(tmp_path: Path) -> None:
    """``--db sqlite://``: a database that lives as long as the process (a demonstration, a
    try-out) is the one migrated and served, not a second, empty one."""
    with run_server(tmp_path, "sqlite://") as server:
        check_first_run(server)


def test_database_url_precedence(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WEIQI_DATABASE_URL", raising=False)
    assert database_url() == DEFAULT_URL == "sqlite:///weiqi.sqlite3"
    monkeypatch.setenv("WEIQI_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
    assert database_url().startswith("postgresql+psycopg://")
    assert database_url("sqlite:///given.sqlite3") == "sqlite:///given.sqlite3"


def test_db_upgrade_command(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["db", "upgrade", "--db", f"sqlite:///{tmp_path / 'x.sqlite3'}"]
    )
    assert result.exit_code == 0, result.output
    assert f"database at revision {head_revision()}" in result.output


def test_users_commands(tmp_path: Path) -> None:
    """Accounts and roles from the command line, through the same services."""
    db = ["--db", f"sqlite:///{tmp_path / 'x.sqlite3'}"]
    run = CliRunner().invoke
    assert (
        run(
            app, ["users", "add", "Li", "--name", "李明", "--password", "correct horse", *db]
        ).exit_code
        == 0
    )
    from weiqi.services.actor import Actor
    from weiqi.services.events import create_event
    from weiqi.store.database import Database

    event = create_event(Database(db[1]), Actor.local(), "春季赛", SWISS)
    granted = run(app, ["users", "grant", "li", str(event.id), "chief_referee", *db])
    assert granted.exit_code == 0 and "chief referee of 春季赛" in granted.output
    listed = run(app, ["users", "list", "--json", *db])
    assert '"role": "chief_referee"' in listed.output and "李明" in listed.output
    assert (
        run(app, ["users", "set-password", "li", "--password", "another one", *db]).exit_code == 0
    )
    assert run(app, ["users", "revoke", "li", str(event.id), "chief_referee", *db]).exit_code == 0
    missing = run(app, ["users", "grant", "nobody", str(event.id), "referee", *db])
    assert missing.exit_code != 0 and isinstance(missing.exception, NotFound)
