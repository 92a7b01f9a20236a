"""The site's key outside the database, and boards sealed with it (issue #16), on SQLite and
PostgreSQL: a fresh start writes a key file of mode 0600 (one key when two servers start at
once); an old database's secret moves out of ``site_settings`` and its records still verify;
a database copied without its key is reported, record by record and page by page, as signed
with a key this server does not have — never a 500; a result, a warning count or a pairing
rewritten in the database behind the application's back counts as not played and is named by
``weiqi record check`` and on the chief referee's dashboard."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from alembic import command
from fastapi.testclient import TestClient
from sqlalchemy import text
from typer.testing import CliRunner

from tests.server.conftest import ADMIN_PASSWORD, SRC, api_login
from weiqi.cli import app as cli
from weiqi.errors import InputError, RecordRefused
from weiqi.league.settings import TeamEventSettings
from weiqi.server.app import create_app
from weiqi.services import games, teams
from weiqi.services import tournament as t
from weiqi.services.accounts import ensure_site_admin
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.services.games import TeamBoard
from weiqi.services.server_clock import ManualClock
from weiqi.services.site import secret_key
from weiqi.store.database import Database
from weiqi.store.migrate import alembic_config
from weiqi.store.site_key import ENV_FILE, ENV_KEY, key_id
from weiqi.tournament.settings import EventSettings, System

LOCAL = Actor.local()


@pytest.fixture
def key_file(database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Where the site's key of ``database_url`` is: next to an SQLite file, else (PostgreSQL)
    the file ``$WEIQI_SECRET_FILE`` names."""
    monkeypatch.delenv(ENV_KEY, raising=False)
    if database_url.startswith("sqlite:///"):
        monkeypatch.delenv(ENV_FILE, raising=False)
        return Path(database_url.removeprefix("sqlite:///")).parent / "weiqi.key"
    path = tmp_path / "keys" / "site.key"
    monkeypatch.setenv(ENV_FILE, str(path))
    return path


def _setting(db: Database, key: str) -> str | None:
    with db.engine.connect() as connection:
        value = connection.execute(
            text("SELECT value FROM site_settings WHERE key = :key"), {"key": key}
        ).scalar()
    return str(value) if value is not None else None


def _played(db: Database) -> int:
    """A round robin of four, round 1 with B+R on board 1 (confirmed) and W+R on board 2."""
    ev = create_event(db, LOCAL, "俱乐部赛", EventSettings(system=System.ROUND_ROBIN)).id
    t.import_players(db, LOCAL, ev, "name\n甲\n乙\n丙\n丁\n")
    t.pair_round(db, LOCAL, ev)
    t.record_results(db, LOCAL, ev, 1, "board,result\n1,B+R\n2,W+R\n")
    return ev


def _points(db: Database, ev: int) -> dict[str, object]:
    return {s.name: s.points for s in t.event_standings(db, ev)}


def test_a_fresh_start_writes_a_key_file_of_mode_0600_and_keeps_it_out_of_the_database(
    database_url: str, key_file: Path
) -> None:
    db = Database(database_url)
    db.upgrade()
    assert key_file.exists()
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    secret = key_file.read_text().strip()
    assert secret_key(db) == secret and len(secret) >= 32
    assert _setting(db, "secret_key") is None  # not in the database
    assert _setting(db, "secret_key_id") == key_id(secret)
    ev = _played(db)
    assert all(c.problem is None for c in games.check_records(db, ev))
    db.dispose()


def test_two_servers_starting_at_once_on_a_fresh_database_share_one_key(
    database_url: str, key_file: Path
) -> None:
    """Two processes migrate a fresh database and find the site key at the same moment: both
    print the same key, the one the file holds."""
    script = (
        "import sys; from weiqi.store.database import Database; "
        "from weiqi.services.site import secret_key; "
        "db = Database(sys.argv[1]); db.upgrade(); print(secret_key(db))"
    )
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", script, database_url], stdout=subprocess.PIPE, env=env
        )
        for _ in range(2)
    ]
    printed = {run.communicate(timeout=120)[0].decode().strip() for run in runs}
    assert all(run.returncode == 0 for run in runs)
    assert printed == {key_file.read_text().strip()}
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600


def test_an_old_database_keeps_every_signature_its_secret_moving_out(
    database_url: str, key_file: Path
) -> None:
    """A database of before (its secret in ``site_settings``, no seals): on start the secret
    is written to the key file and deleted from the database; every record still verifies,
    the boards stored before are sealed, and the standings count them."""
    db = Database(database_url)
    db.upgrade()
    ev = _played(db)
    before = _points(db, ev)
    secret = key_file.read_text().strip()
    with db.engine.begin() as connection:  # as version 0013 left it
        command.downgrade(alembic_config(connection), "0013")
        connection.execute(text("DELETE FROM site_settings"))
        connection.execute(
            text("INSERT INTO site_settings (key, value) VALUES ('secret_key', :s)"), {"s": secret}
        )
    db.dispose()
    key_file.unlink()

    db = Database(database_url)
    db.upgrade()
    assert key_file.read_text().strip() == secret
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert _setting(db, "secret_key") is None
    checks = games.check_records(db, ev)
    assert len(checks) == 2 and all(c.problem is None for c in checks), checks
    assert _points(db, ev) == before
    assert games.game_view(db, ev, 1, 1).result == "B+R"
    db.dispose()


def test_an_old_database_whose_secret_is_not_the_configured_key_is_refused_at_start(
    database_url: str, key_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = Database(database_url)
    db.upgrade()
    _played(db)
    secret = key_file.read_text().strip()
    with db.engine.begin() as connection:
        connection.execute(
            text("INSERT INTO site_settings (key, value) VALUES ('secret_key', :s)"), {"s": secret}
        )
    monkeypatch.setenv(ENV_KEY, "another site's key, not this one")
    with pytest.raises(InputError, match="holds a secret of its own"):
        Database(database_url).upgrade()
    monkeypatch.setenv(ENV_KEY, secret)  # the same key given by the environment: accepted
    again = Database(database_url)
    again.upgrade()
    assert _setting(again, "secret_key") is None
    db.dispose()
    again.dispose()


def test_a_database_copied_without_its_key_is_reported_unverifiable_not_a_500(
    database_url: str, key_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = Database(database_url)
    db.upgrade()
    ev = _played(db)
    db.dispose()
    if database_url.startswith("sqlite:///"):  # the file copied to another folder, alone
        copy = tmp_path / "elsewhere" / "copy.sqlite3"
        copy.parent.mkdir()
        shutil.copyfile(database_url.removeprefix("sqlite:///"), copy)
        url = f"sqlite:///{copy}"
    else:  # the same database served with a key file that is not its own
        url = database_url
        monkeypatch.setenv(ENV_FILE, str(tmp_path / "empty" / "site.key"))
    copied = Database(url)
    copied.upgrade()
    checks = games.check_records(copied, ev)
    assert len(checks) == 2
    assert all(c.problem is not None and "site key" in str(c.problem) for c in checks)
    with pytest.raises(RecordRefused, match="does not have the site key"):
        games.game_view(copied, ev, 1, 1)
    runner = CliRunner()
    out = runner.invoke(cli, ["record", "check", "--db", url])
    assert out.exit_code == 1 and "site key" in out.output
    ensure_site_admin(copied, ADMIN_PASSWORD)
    with TestClient(create_app(copied)) as client:
        client.headers["Accept-Language"] = "zh-CN"
        page = client.get(f"/events/{ev}/standings")
        assert page.status_code == 409 and "密钥" in page.text, page.text[:500]
        api_login(client, "admin", ADMIN_PASSWORD)
        board = client.get(f"/api/events/{ev}/rounds/1/boards/1")
        assert board.status_code == 409 and board.json()["error"] == "record_refused"
    copied.dispose()


def test_a_result_rewritten_in_the_database_counts_as_not_played_and_is_named(
    database_url: str, key_file: Path
) -> None:
    """Board 1's B+R rewritten to W+R, board 2's warnings raised, behind the application's
    back: neither board counts (the standings as if unplayed), the round shows no result,
    ``weiqi record check`` names both and the chief referee's dashboard lists them; the chief
    referee's correction seals the board again."""
    db = Database(database_url)
    db.upgrade()
    ev = _played(db)
    fresh = {name: 0 for name in _points(db, ev)}
    with db.engine.begin() as connection:
        connection.execute(
            text(
                "UPDATE event_games SET result = 'W+R' WHERE board = 1 AND round_id = "
                "(SELECT id FROM event_rounds WHERE event_id = :ev)"
            ),
            {"ev": ev},
        )
        connection.execute(
            text(
                "UPDATE game_records SET black_warnings = 3 WHERE game_id = (SELECT g.id FROM "
                "event_games g JOIN event_rounds r ON r.id = g.round_id "
                "WHERE r.event_id = :ev AND g.board = 2)"
            ),
            {"ev": ev},
        )
    assert _points(db, ev) == fresh
    assert [p.result for p in t.show_round(db, ev, 1).pairings] == [None, None]
    problems = [c for c in games.check_records(db, ev) if c.problem is not None]
    assert [(c.board, c.problem) for c in problems] == [(1, games.UNSEALED), (2, games.UNSEALED)]
    out = CliRunner().invoke(cli, ["record", "check", "--db", database_url, "--event", str(ev)])
    assert out.exit_code == 1 and "changed outside weiqi" in out.output
    ensure_site_admin(db, ADMIN_PASSWORD)
    with TestClient(create_app(db)) as client:
        client.headers["Accept-Language"] = "zh-CN"
        api_login(client, "admin", ADMIN_PASSWORD)
        manage = client.get(f"/events/{ev}/manage")
        assert manage.status_code == 200
        banner = manage.text.split('id="broken-boards"', 1)[1].split("</div>", 1)[0]
        assert banner.count("<li>") == 2 and "按未进行计算" in banner
    # the chief referee puts board 1 right: sealed again, counted again
    games.correct_result(db, LOCAL, ev, 1, 1, "B+R", "数据库被改动，按记录恢复")
    assert [c.board for c in games.check_records(db, ev) if c.problem is not None] == [2]
    assert t.show_round(db, ev, 1).pairings[0].result == "B+R"
    db.dispose()


def test_a_team_board_rewritten_or_its_players_swapped_counts_as_not_played(
    database_url: str, key_file: Path
) -> None:
    db = Database(database_url)
    db.upgrade()
    ev = create_event(db, LOCAL, "团体赛", TeamEventSettings(boards=2)).id
    teams.import_teams(db, LOCAL, ev, "team,name,rank\nA,A1,3d\nA,A2,2d\nB,B1,3d\nB,B2,2d\n")
    teams.pair_round(db, LOCAL, ev)
    lineups = {c: [f"{c}1", f"{c}2"] for c in "AB"}
    teams.submit_lineups(db, LOCAL, ev, 1, lineups, clock=ManualClock(teams_t0()))
    seated = teams.reveal_round(db, LOCAL, ev, 1, clock=ManualClock(teams_t0()))
    home = seated.matches[0].home
    teams.record_results(db, LOCAL, ev, 1, [(home, 1, "B+R"), (home, 2, "B+R")])
    assert all(c.problem is None for c in games.check_records(db, ev))
    with db.engine.begin() as connection:
        team_board = "match_id IS NOT NULL AND board"
        connection.execute(text(f"UPDATE event_games SET result = 'W+R' WHERE {team_board} = 1"))
        connection.execute(
            text(
                "UPDATE event_games SET home_color = CASE home_color WHEN 'B' THEN 'W' ELSE 'B' "
                f"END WHERE {team_board} = 2"
            )
        )
    shown = teams.show_round(db, ev, 1).matches[0]
    assert [b.result for b in shown.boards] == [None, None]
    broken = [c.board for c in games.check_records(db, ev) if c.problem is not None]
    assert broken == [TeamBoard(1, 1), TeamBoard(1, 2)]
    assert all(s.match_points == 0 for s in teams.standings(db, ev))  # the match is unplayed
    ensure_site_admin(db, ADMIN_PASSWORD)
    with TestClient(create_app(db)) as client:
        client.headers["Accept-Language"] = "zh-CN"
        api_login(client, "admin", ADMIN_PASSWORD)
        manage = client.get(f"/events/{ev}/manage")
        assert manage.status_code == 200 and 'id="broken-boards"' in manage.text
    db.dispose()


def teams_t0() -> object:
    from datetime import UTC, datetime

    return datetime(2026, 5, 1, 8, 0, tzinfo=UTC)
