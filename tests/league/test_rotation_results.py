"""A 全队轮赛制 (rotation) match's results are one batch: the service, ``weiqi round
results`` (a ``sitting`` column), the round page and the API store every board of the batch or,
when one is refused, none (R-FMT-1, R-SCORE-TEAM-1; issue #10)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from tests.server.conftest import ADMIN_PASSWORD, api_login, csrf
from tests.store.conftest import CHEAP_HASHER
from weiqi.cli import app as cli_app
from weiqi.errors import Conflict, WeiqiError
from weiqi.league.settings import TeamEventSettings
from weiqi.league.team import TeamType
from weiqi.server.app import create_app
from weiqi.services import accounts
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.services.server_clock import ManualClock
from weiqi.services.teams import (
    import_teams,
    pair_round,
    record_results,
    reveal_round,
    show_round,
    submit_lineup,
)
from weiqi.store.database import Database

LOCAL = Actor.local()
T0 = datetime(2026, 5, 1, 8, 0, tzinfo=UTC)
# sitting 0: A1–B1, A2–B2 (A black); sitting 1: A1–B2, A2–B1 (A white)
GOOD = [("A", 1, "B+R", 0), ("A", 2, "W+R", 0), ("A", 1, "W+R", 1), ("A", 2, "B+R", 1)]


def rotation_round(db: Database) -> int:
    """Two teams of two, one rotation match of four games, lineups revealed."""
    ev = create_event(
        db, LOCAL, "Rotation", TeamEventSettings(boards=2, team_type=TeamType.ROTATION)
    ).id
    import_teams(db, LOCAL, ev, "team,name,rank\nA,A1,5p\nA,A2,4p\nB,B1,5p\nB,B2,4p\n")
    pair_round(db, LOCAL, ev)
    submit_lineup(db, LOCAL, ev, 1, "A", ["A1", "A2"], clock=ManualClock(T0))
    submit_lineup(db, LOCAL, ev, 1, "B", ["B1", "B2"], clock=ManualClock(T0))
    reveal_round(db, LOCAL, ev, 1, clock=ManualClock(T0))
    return ev


def results(db: Database, ev: int) -> list[str | None]:
    return [b.result for b in show_round(db, ev, 1).matches[0].boards]


def test_r_fmt_1_rotation_batch_in_the_service_is_all_or_nothing(db: Database) -> None:
    """R-FMT-1 全队轮赛制: a batch naming sittings is one transaction; a refused last row
    (board 3 does not exist) leaves the three good rows unstored."""
    ev = rotation_round(db)
    with pytest.raises(WeiqiError, match="no board 3"):
        record_results(db, LOCAL, ev, 1, [*GOOD[:3], ("A", 3, "B+R", 1)])
    assert results(db, ev) == [None] * 4
    assert record_results(db, LOCAL, ev, 1, GOOD) == 4
    assert results(db, ev) == ["B+R", "W+R", "W+R", "B+R"]
    m = show_round(db, ev, 1).matches[0]
    assert m.game_points == (4, 4) and m.match_points == (1, 1)
    with pytest.raises(Conflict, match="is confirmed"):
        record_results(db, LOCAL, ev, 1, [GOOD[0]])


def test_r_fmt_1_rotation_results_csv_from_the_command_line(
    tmp_path: Path, one_command_tree: None
) -> None:
    """``weiqi round results`` reads a ``sitting`` column (from 1): all or nothing."""
    db = Database(f"sqlite:///{tmp_path / 'cli.sqlite3'}")
    db.upgrade()
    ev = rotation_round(db)
    runner = CliRunner()
    sheet = tmp_path / "r1.csv"
    sheet.write_text(
        "team,board,sitting,result\nA,1,1,B+R\nA,2,1,W+R\nA,1,2,W+R\nA,2,2,B+Q\n",
        encoding="utf-8",
    )
    args = ["round", "results", "--db", db.url, "--event", str(ev), "--round", "1"]
    bad = runner.invoke(cli_app, [*args, str(sheet)])
    assert isinstance(bad.exception, WeiqiError) and "line 5" in bad.exception.message
    assert results(db, ev) == [None] * 4
    sheet.write_text(
        "team,board,sitting,result\nA,1,1,B+R\nA,2,1,W+R\nA,1,2,W+R\nA,2,2,B+R\n",
        encoding="utf-8",
    )
    done = runner.invoke(cli_app, [*args, str(sheet)])
    assert done.exit_code == 0, (done.output, done.exception)
    assert "4 results recorded" in done.output
    assert results(db, ev) == ["B+R", "W+R", "W+R", "B+R"]


@pytest.fixture
def client(db: Database) -> Iterator[TestClient]:
    previous = accounts.set_password_hasher(CHEAP_HASHER)
    try:
        accounts.ensure_site_admin(db, ADMIN_PASSWORD)
        with TestClient(create_app(db, secret_key="rotation")) as c:
            api_login(c, "admin", ADMIN_PASSWORD)
            yield c
    finally:
        accounts.set_password_hasher(previous)


def test_r_fmt_1_rotation_sheet_on_the_round_page_is_all_or_nothing(
    db: Database, client: TestClient
) -> None:
    """The round page's match form with sittings: a refused board (a replay scores nothing)
    stores no other board of the match."""
    ev = rotation_round(db)
    url = f"/events/{ev}/manage/rounds/1/matches/1/results"
    form = {f"result_{b}_{s}": code for _, b, code, s in GOOD}
    bad = client.post(url, data={**form, "result_2_1": "Replay", "csrf_token": csrf(client)})
    assert bad.status_code == 422
    assert results(db, ev) == [None] * 4
    done = client.post(url, data={**form, "csrf_token": csrf(client)}, follow_redirects=False)
    assert done.status_code == 303, done.text
    assert results(db, ev) == ["B+R", "W+R", "W+R", "B+R"]


def test_r_fmt_1_rotation_batch_through_the_api_is_all_or_nothing(
    db: Database, client: TestClient
) -> None:
    """``POST /api/events/{id}/rounds/{n}/results``, a team event's rows naming their teams:
    one transaction. The old batch address (``…/teams/rounds/{n}/results/batch``, rows as
    ``results``) is repeated there (308) and still works."""
    ev = rotation_round(db)
    url = f"/api/events/{ev}/rounds/1/results"
    headers = {"X-CSRF-Token": csrf(client)}
    rows = [{"team": t, "board": b, "result": c, "sitting": s} for t, b, c, s in GOOD]
    bad = client.post(
        url,
        json={"rows": [*rows[:3], {"team": "A", "board": 2, "result": "B+R", "sitting": 7}]},
        headers=headers,
    )
    assert bad.status_code == 404, bad.text
    assert results(db, ev) == [None] * 4
    nameless = client.post(url, json={"rows": [{"board": 1, "result": "B+R"}]}, headers=headers)
    assert nameless.status_code == 422, nameless.text
    assert nameless.json()["args"]["field"]["code"] == "rows.0.team", nameless.text
    assert results(db, ev) == [None] * 4
    old = f"/api/events/{ev}/teams/rounds/1/results/batch"
    done = client.post(old, json={"results": rows}, headers=headers)
    assert done.status_code == 200, done.text
    assert done.json()["matches"][0]["game_points"] == [4, 4]
    assert results(db, ev) == ["B+R", "W+R", "W+R", "B+R"]
