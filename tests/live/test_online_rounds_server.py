"""Online rounds (issue #11) over HTTP and the WebSocket: the play mode and the games' start on
the settings form and the event's pages; the round's start time on the round page (refused
beside its field, in Chinese, with what was typed kept), the JSON API and the command line; and
against the real server (``weiqi serve``) a game that starts at its round's start time with
nobody connected, the late player's arrival recorded when they come in (R-TIME-6)."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.cli.contracts import weiqi
from tests.live.conftest import online_event, reader
from tests.server.conftest import (  # noqa: F401  (the fixtures)
    ADMIN_PASSWORD,
    LiveServer,
    api_login,
    client,
    csrf,
)
from weiqi.services import event_admin, live, tournament
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.store.database import Database
from weiqi.tournament.details import details_form, format_local

LOCAL = Actor.local()
ZH = {"Accept-Language": "zh-CN"}


def _paired(database: Database, **settings: str) -> int:
    made = event_admin.settings_from_form({"system": "round_robin", **settings})
    ev = create_event(database, LOCAL, "网络赛", made).id
    event_admin.import_players(database, LOCAL, ev, "name,rank\n甲,1d\n乙,2d\n")
    event_admin.pair_next_round(database, LOCAL, ev)
    return ev


def test_the_play_mode_is_set_on_the_settings_form_and_shown_on_the_event_pages(
    client: TestClient,  # noqa: F811
    database: Database,
) -> None:
    """Over the board by default; the form sets online and the games' start; the organisers'
    page and the public page say how the event is played, in Chinese and in English."""
    ev = create_event(
        database, LOCAL, "网络赛", event_admin.settings_from_form({"system": "round_robin"})
    ).id
    api_login(client, "admin", ADMIN_PASSWORD)
    page = client.get(f"/events/{ev}/settings", headers=ZH)
    assert "对局方式" in page.text and "现场对局：由裁判录入结果" in page.text
    info = tournament.tournament_info(database, ev)
    form = {
        **event_admin.settings_form(info.settings),
        **details_form(info.details),
        "name": "网络赛",
        "csrf_token": csrf(client),
    }
    bad = client.post(f"/events/{ev}/settings", data={**form, "play": "internet"}, headers=ZH)
    assert bad.status_code == 422 and 'id="error-play"' in bad.text
    saved = client.post(
        f"/events/{ev}/settings", data={**form, "play": "online", "game_start": "round_start"}
    )
    assert saved.status_code == 200, saved.text
    settings = tournament.tournament_info(database, ev).settings
    assert settings.online and settings.game_start.value == "round_start"
    assert "网络对局" in client.get(f"/events/{ev}/manage", headers=ZH).text
    event_admin.import_players(database, LOCAL, ev, "name\n甲\n乙\n")
    event_admin.pair_next_round(database, LOCAL, ev)
    event_admin.publish_round(database, LOCAL, ev, 1)
    public = client.get(f"/events/{ev}", headers=ZH).text
    assert "网络对局：每轮公布后在对局室对弈。" in public
    english = client.get(f"/events/{ev}", headers={"Accept-Language": "en"}).text
    assert "Played online: each published round's games are played in the game room." in english
    api = client.get(f"/api/events/{ev}/settings").json()
    assert api["settings"]["play"] == "online"


def test_the_round_start_is_refused_beside_its_field_then_saved_on_the_round_page(
    client: TestClient,  # noqa: F811
    database: Database,
) -> None:
    """A start in the past and one that cannot be read are refused next to the field in
    Chinese, the typed text kept; a good one is saved and shown in the event's time zone."""
    ev = _paired(database, play="online", game_start="round_start")
    api_login(client, "admin", ADMIN_PASSWORD)
    url = f"/events/{ev}/manage/rounds/1"
    page = client.get(url, headers=ZH)
    assert 'id="round-start-form"' in page.text and "本轮开始时间（Asia/Shanghai）" in page.text
    token = csrf(client)
    past = client.post(url + "/start", data={"start": "2020-01-01T09:00", "csrf_token": token})
    assert past.status_code == 422
    assert 'id="error-start"' in past.text and "开始时间须晚于现在" in past.text
    assert 'value="2020-01-01T09:00"' in past.text
    garbled = client.post(url + "/start", data={"start": "明天", "csrf_token": token})
    assert garbled.status_code == 422 and "日期时间应写作 2027-05-01 09:30" in garbled.text
    assert 'value="明天"' in garbled.text
    saved = client.post(url + "/start", data={"start": "2030-06-01T09:30", "csrf_token": token})
    assert saved.status_code == 200, saved.text  # the redirect followed
    assert "本轮开始时间：2030-06-01 09:30 (Asia/Shanghai)" in client.get(url, headers=ZH).text
    detail = event_admin.round_detail(database, LOCAL, ev, 1)
    assert detail.starts_at == datetime(2030, 6, 1, 1, 30, tzinfo=UTC)


def test_the_round_start_over_the_json_api_never_takes_the_time_from_the_body(
    client: TestClient,  # noqa: F811
    database: Database,
) -> None:
    """``PUT /api/events/{id}/rounds/{n}/start``: 422 naming ``start`` for the past, in the
    reader's language; a body saying what time it is refused; a good start in the answer."""
    ev = _paired(database, play="online")
    api_login(client, "admin", ADMIN_PASSWORD)
    headers = {"X-CSRF-Token": csrf(client), **ZH}
    url = f"/api/events/{ev}/rounds/1/start"
    past = client.put(url, json={"start": "2020-01-01 09:00"}, headers=headers)
    assert past.status_code == 422 and "start" in past.text and "开始时间须晚于现在" in past.text
    told = client.put(url, json={"start": "2030-06-01 09:30", "now": "2020"}, headers=headers)
    assert told.status_code == 422 and "now" in told.text
    good = client.put(url, json={"start": "2030-06-01 09:30"}, headers=headers)
    assert good.status_code == 200, good.text
    assert good.json()["starts_at"].startswith("2030-06-01T01:30:00")
    # the public round says it too, in the event's zone: its JSON and its page
    event_admin.publish_round(database, LOCAL, ev, 1)
    public = client.get(f"/api/events/{ev}/rounds/1").json()
    assert public["starts_at"] == "2030-06-01T09:30+08:00"
    page = client.get(f"/events/{ev}/rounds/1", headers=ZH).text
    assert "本轮开始时间：2030-06-01 09:30 (Asia/Shanghai)" in page


def test_the_round_start_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``weiqi event create --play online --game-start round_start`` and ``weiqi round start``:
    a past start refused in one line (exit 2), a future one printed in the event's zone."""
    db = str(tmp_path / "e.sqlite3")
    made = weiqi(capsys, "event", "create", "--db", db, "--name", "网络赛", "--system",
                 "round_robin", "--play", "online", "--game-start", "round_start",
                 "--json")  # fmt: skip
    assert made.code == 0, made.err
    assert json.loads(made.out)["settings"]["play"] == "online"
    (tmp_path / "p.csv").write_text("name\n甲\n乙\n", "utf-8")
    assert weiqi(capsys, "player", "import", "--db", db, str(tmp_path / "p.csv")).code == 0
    assert weiqi(capsys, "round", "pair", "--db", db).code == 0
    past = weiqi(capsys, "round", "start", "--db", db, "--round", "1", "--start", "2020-01-01 9:00")
    assert past.code == 2 and "start" in past.err and past.out == ""
    bad = weiqi(capsys, "event", "create", "--db", db, "--name", "x", "--system", "round_robin",
                "--play", "internet")  # fmt: skip
    assert bad.code == 2 and "play" in bad.err
    good = weiqi(capsys, "round", "start", "--db", db, "--round", "1", "--start",
                 "2030-06-01 09:30", "--json")  # fmt: skip
    assert good.code == 0, good.err
    out = json.loads(good.out)
    assert out["local"] == "2030-06-01 09:30" and out["zone"] == "Asia/Shanghai"
    assert out["starts_at"].startswith("2030-06-01T01:30:00")


def _set_start(server: LiveServer, event_id: int, seconds: float) -> float:
    """Set round 1's start ``seconds`` from now (the server runs on the system clock)."""
    at = datetime.now(UTC) + timedelta(seconds=seconds)
    db = Database(server.db_url)
    try:
        typed = format_local(at, "Asia/Shanghai", "%Y-%m-%d %H:%M:%S")
        detail = event_admin.set_round_start(db, LOCAL, event_id, 1, typed)
        assert detail.starts_at is not None
        return detail.starts_at.timestamp()
    finally:
        db.dispose()


def _snapshot(server: LiveServer, event_id: int) -> live.Snapshot:
    db = Database(server.db_url)
    try:
        return live.snapshot(db, event_id, 1, 1)
    finally:
        db.dispose()


def _started(m: dict[str, Any]) -> bool:
    return m["type"] in ("state", "update") and m["snapshot"]["started"]


def test_r_time_6_the_server_starts_the_game_at_the_round_start_with_nobody_connected(
    live_server: LiveServer,
) -> None:
    """The round's start time set a few seconds ahead, nobody in the room: the server starts
    the clock at the start time by itself (both players absent, Black's clock running). Black
    then comes in: the arrival is recorded and pushed; White is still absent (R-TIME-6)."""
    ev = online_event(live_server, "准时", "10m+3x30s", game_start="round_start")
    start = _set_start(live_server, ev.id, 3)
    before = _snapshot(live_server, ev.id)
    assert not before.started and before.starts_at == pytest.approx(start, abs=1)
    deadline = time.monotonic() + 15
    snap = before
    while not snap.started and time.monotonic() < deadline:
        time.sleep(0.2)
        snap = _snapshot(live_server, ev.id)
    assert snap.started, "the server did not start the game at the round's start time"
    assert time.time() >= start
    assert snap.absent == ["B", "W"] and snap.clock is not None and snap.clock.running == "B"
    with reader(live_server, ev.room(), ev.players["B"]) as black:
        first = black.next()
        assert first["type"] == "state" and first["snapshot"]["started"]
        arrived = black.until(lambda m: m["type"] == "update" and m["snapshot"]["absent"] == ["W"])
        assert any(e["kind"] == "clock_arrive" for e in arrived["snapshot"]["events"])


def test_both_players_in_the_room_before_the_start_wait_for_it(live_server: LiveServer) -> None:
    """Both players in the room before the round's start: the game does not start early; at
    the start it starts with nobody absent (the room counts down to it meanwhile)."""
    ev = online_event(live_server, "候场", "10m+3x30s", game_start="round_start")
    start = _set_start(live_server, ev.id, 12)  # time enough to connect on a busy machine
    with (
        reader(live_server, ev.room(), ev.players["B"]) as black,
        reader(live_server, ev.room(), ev.players["W"]) as white,
    ):
        state = black.next()
        assert state["type"] == "state" and not state["snapshot"]["started"]
        assert state["snapshot"]["starts_in"] > 0
        assert not white.next()["snapshot"]["started"]
        assert time.time() < start, "both players were not in the room before the start"
        got = white.until(_started, timeout=30)
        assert time.time() >= start - 0.05
        assert got["snapshot"]["absent"] == []
        black.until(_started, timeout=10)


def test_r_color_1_a_player_opening_the_room_draws_the_nigiri_for_everyone(
    live_server: LiveServer,
) -> None:
    """R-COLOR-1 over the WebSocket: a spectator already watching gets the opened game (the
    nigiri, the clock not started) when the first player comes in; that player's ``color`` is
    the drawn one; a second connection draws nothing again."""
    ev = online_event(live_server, "猜先", "10m+3x30s", online_colors="nigiri")
    with reader(live_server, ev.room(), None) as spectator:
        assert spectator.next()["snapshot"]["nigiri"] is None
        with reader(live_server, ev.room(), ev.players["B"]) as first:
            state = first.next()
            drawn = state["snapshot"]["nigiri"]
            assert drawn is not None and not state["snapshot"]["started"]
            assert drawn["holder"] == "李明" and drawn["black"] == state["snapshot"]["black"]
            mine = "B" if drawn["black"] == ev.names["B"] else "W"
            assert state["color"] == mine
            seen = spectator.until(lambda m: m["type"] == "update")
            assert seen["snapshot"]["nigiri"] == drawn
            with reader(live_server, ev.room(), ev.players["B"]) as again:
                assert again.next()["snapshot"]["nigiri"] == drawn
    assert _snapshot(live_server, ev.id).nigiri == drawn


def test_r_hcp_2_placing_out_of_turn_or_a_wrong_count_is_refused_in_chinese(
    live_server: LiveServer,
) -> None:
    """R-HCP-2 over the WebSocket, free placement: White placing stones is refused (only Black
    places them), so is Black placing two of three; each refusal goes to the sender only with
    its reason in Chinese and nothing is stored; three stones are placed and pushed to both."""
    ev = online_event(
        live_server, "放子", "10m+3x30s", ("5d", "2d"),
        color_policy="handicap", handicap_placement="free",
    )  # fmt: skip
    with (
        reader(live_server, ev.room(), ev.players["B"]) as black,
        reader(live_server, ev.room(), ev.players["W"]) as white,
    ):
        started = black.until(_started)
        assert started["snapshot"]["handicap_to_place"] == 3
        white.until(_started)
        seq = started["snapshot"]["seq"]
        white.act("place_handicap", seq, stones=["C3", "G7", "E5"])
        refused = white.until(lambda m: m["type"] == "refused")
        assert refused["message"] == "只有黑方放置让子"
        black.act("place_handicap", seq, stones=["C3", "G7"])
        short = black.until(lambda m: m["type"] == "refused")
        assert "应放3子，给出了2子" in short["message"]
        black.act("place_handicap", seq, stones=["C3", "G7", "E5"])
        for r in (black, white):
            placed = r.until(lambda m: m["type"] == "update")
            assert placed["snapshot"]["handicap_stones"] == ["C3", "G7", "E5"]
            assert placed["snapshot"]["to_move"] == "W"
    assert _snapshot(live_server, ev.id).stones == {"C3": "B", "G7": "B", "E5": "B"}
