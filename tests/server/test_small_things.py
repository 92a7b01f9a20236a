"""The small things a user notices (issue #13): ``weiqi serve --db FILE`` takes a file like
every other command, the site has a favicon, ``/docs`` needs no internet, and the home page's
event cards say the system, where the event stands and its current round."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
from fastapi.testclient import TestClient

from tests.server.conftest import ADMIN_PASSWORD, api_login, run_server
from weiqi.services import tournament as t
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.store.database import Database
from weiqi.tournament.settings import EventSettings, System

LOCAL = Actor.local()


def test_serve_takes_a_file_like_every_other_command(tmp_path: Path) -> None:
    """``weiqi serve --db events.sqlite3`` (a path, not a URL) creates and migrates that file
    and serves it; ``/`` answers."""
    file = tmp_path / "events.sqlite3"
    with run_server(tmp_path, str(file)) as server:
        home = httpx.get(f"{server.url}/", timeout=10)
        assert home.status_code == 200 and "weiqi" in home.text
    assert file.exists() and file.stat().st_size > 0
    db = Database(f"sqlite:///{file}")
    try:
        assert create_event(db, LOCAL, "春季赛", EventSettings(System.SWISS, 3)).id
    finally:
        db.dispose()


def test_favicon_is_ours_and_every_frame_links_it(client: TestClient) -> None:
    icon = client.get("/static/favicon.svg")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
    assert icon.text.lstrip().startswith("<svg")
    for url in ("/", "/login", "/clock", "/leagues/1/calendar"):
        page = client.get(url)
        if page.status_code == 200:
            assert '<link rel="icon" href="/static/favicon.svg"' in page.text, url
    docs = client.get("/docs").text
    assets = re.findall(r'(?:src|href)="([^"]+)"', docs)
    assert assets and all(a.startswith("/static/") for a in assets)  # no CDN


def test_event_cards_show_system_status_and_current_round(
    client: TestClient, database: Database
) -> None:
    swiss = create_event(database, LOCAL, "春季赛", EventSettings(System.SWISS, 5)).id
    create_event(database, LOCAL, "秋季循环赛", EventSettings(System.ROUND_ROBIN))
    t.import_players(database, LOCAL, swiss, "name\n李明\n王强\n张伟\n刘洋\n")
    t.pair_round(database, LOCAL, swiss)
    api_login(client, "admin", ADMIN_PASSWORD)
    client.cookies.set("lang", "zh_CN")
    page = client.get("/").text
    cards = re.findall(r'<li class="card event-card">(.*?)</li>', page, re.S)
    text = [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", c)) for c in cards]
    assert "秋季循环赛" in text[0] and "未开始" in text[0] and "循环" in text[0]
    assert "春季赛" in text[1] and "进行中" in text[1] and "第1轮（共5轮）" in text[1]
    client.cookies.set("lang", "en")
    english = client.get("/").text
    assert "Round 1 of 5" in english and "In progress" in english and "Swiss" in english
