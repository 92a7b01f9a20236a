"""Online team rounds (issue #11), the services on a manual clock, SQLite and PostgreSQL: a team
event has the individual events' play mode and game start (``PlaySettings``), read by the same
rule of the room (``services.live._start_time``): an over-the-board team event's boards are
refused the room, an online one's played there; a team round's start (``team_rounds.starts_at``,
set as an individual round's, moving a sealed round's lineup deadline with it) starts its boards
with nobody in the room, an absent player's clock running and the lateness judged on arrival
(R-TIME-6, Art. 22). The boards keep the event's colours (R-FMT-1): no nigiri."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.cli.contracts import weiqi
from tests.live.test_team_live import LOCAL, _linked, team_event
from tests.server.conftest import ADMIN_PASSWORD, LiveServer, api_login, csrf
from weiqi.errors import Conflict, InvalidSetting
from weiqi.i18n import render
from weiqi.league.settings import TeamEventSettings, settings_to_dict
from weiqi.server.app import create_app
from weiqi.services import accounts, live, team_admin
from weiqi.services import teams as t
from weiqi.services.events import create_event
from weiqi.services.games import TeamBoard
from weiqi.services.server_clock import ManualClock
from weiqi.store.database import Database
from weiqi.tournament.details import format_local
from weiqi.tournament.settings import GameStart, PlayMode

#: 2026-12-05 09:00 in Shanghai (the events' default time zone).
T0 = datetime(2026, 12, 5, 1, 0, tzinfo=UTC)
LINEUPS = {"龙队": ["龙一", "龙二"], "虎队": ["虎一", "虎二"]}


def test_r_fmt_1_the_play_mode_decides_whether_a_team_board_is_played_in_the_room(
    database: Database,
) -> None:
    """Over the board (the default, kept by the store) the room starts no team board and says
    why, as for an individual event; online it starts one, with the board's colours."""
    assert TeamEventSettings().play is PlayMode.BOARD
    with pytest.raises(InvalidSetting) as bad:
        TeamEventSettings(play="internet")  # type: ignore[arg-type]
    assert bad.value.field == "play"
    board = team_event(database, play=PlayMode.BOARD)
    assert not t.team_event_info(database, board).settings.online
    with pytest.raises(Conflict) as refused:
        live.start_game(database, board, 1, TeamBoard(1, 1))
    assert render(refused.value.msg, "zh_CN") == "本赛事为现场对局，结果由裁判录入"
    assert live.snapshot(database, board, 1, TeamBoard(1, 1)).phase == "not_started"
    played = team_event(database)
    info = t.team_event_info(database, played)
    assert info.settings.online and settings_to_dict(info.settings)["play"] == "online"
    snap = live.start_game(database, played, 1, TeamBoard(1, 1))
    assert snap.started and snap.black == "龙一"  # board 1: the home team's Black (alternate)
    assert not live.to_open(database, played, 1, TeamBoard(1, 2))  # never drawn by nigiri


def test_the_play_mode_changes_until_round_1_the_game_start_at_any_time(
    database: Database,
) -> None:
    """As an individual event's: the play mode is locked once a round is paired (its games
    are played where the event said), when online boards start may change at any time; the
    form and the stored row give the settings back."""
    ev = create_event(database, LOCAL, "网络团体赛", TeamEventSettings(boards=2)).id
    info = t.team_event_info(database, ev)
    online = TeamEventSettings(boards=2, play=PlayMode.ONLINE)
    t.update_team_event(database, LOCAL, ev, info.name, info.details, online)
    assert t.team_event_info(database, ev).settings.online
    assert team_admin.settings_from_form(team_admin.settings_form(online)) == online
    paired = team_event(database)  # online, round 1 paired
    info = t.team_event_info(database, paired)
    later = TeamEventSettings(
        boards=2, board_size=9, play=PlayMode.ONLINE, game_start=GameStart.ROUND_START
    )
    t.update_team_event(database, LOCAL, paired, info.name, info.details, later)
    assert t.team_event_info(database, paired).settings.game_start is GameStart.ROUND_START
    with pytest.raises(InvalidSetting) as locked:
        t.update_team_event(database, LOCAL, paired, info.name, info.details,
                            TeamEventSettings(boards=2, board_size=9))  # fmt: skip
    assert locked.value.field == "play"
    assert render(locked.value.reason, "zh_CN").startswith("第一轮后不能修改")


def test_r_time_6_a_team_board_starts_at_its_round_start_with_nobody_in_the_room(
    database: Database,
) -> None:
    """Boards that start at the round's start time: the round's start set as an individual
    round's (later than now, typed in the event's time zone) moves the sealed round's lineup
    deadline; once the lineups are revealed the server's look finds both boards due, starts
    each then with its players absent; Black of board 1 arrives 10 minutes late and 20 minutes
    are deducted (Art. 22.2); White never comes and loses by forfeit an hour after the start
    (Art. 22.1), recorded by the server with nobody sending anything."""
    ev = team_event(database, reveal=False, game_start=GameStart.ROUND_START, deadline_minutes=10,
                    time_control="1h+3x30s")  # fmt: skip
    clock = ManualClock(T0)
    with pytest.raises(InvalidSetting) as past:
        t.set_round_start(database, LOCAL, ev, 1, "2026-12-05 08:59", clock)
    assert past.value.field == "start"
    view = t.set_round_start(database, LOCAL, ev, 1, "2026-12-05 09:30", clock)
    start = T0 + timedelta(minutes=30)
    assert view.starts_at == start and view.deadline == start - timedelta(minutes=10)
    assert live.scheduled_starts(database, clock, within=3600) == []  # lineups still sealed
    t.submit_lineups(database, LOCAL, ev, 1, LINEUPS, clock=clock)
    clock.set(T0 + timedelta(minutes=25))
    t.reveal_round(database, LOCAL, ev, 1, clock=clock)
    one, two = TeamBoard(1, 1), TeamBoard(1, 2)
    assert live.scheduled_starts(database, clock, within=600) == [(ev, 1, one), (ev, 1, two)]
    assert live.scheduled_starts(database, clock, within=60) == []  # not yet near
    early = live.start_game(database, ev, 1, one, clock)  # both in the room, before the time
    assert not early.started and early.starts_at == start.timestamp()
    assert live.next_wakeup(database, ev, 1, one, clock) == start.timestamp()
    clock.set(start + timedelta(milliseconds=5))
    assert live.wake(database, ev, 1, one, clock).start_due
    started = live.start_game(database, ev, 1, one, clock, present=set())
    assert started.started and started.absent == ["B", "W"]
    assert started.clock is not None and started.clock.running == "B"
    assert live.scheduled_starts(database, clock) == [(ev, 1, two)]
    with pytest.raises(Conflict):  # a board began under this start: it stands
        t.set_round_start(database, LOCAL, ev, 1, "2026-12-05 10:00", clock)
    clock.set(T0 + timedelta(minutes=40))
    arrived = live.arrive(database, ev, 1, one, "B", clock)
    assert [e.kind for e in arrived.events] == ["clock_arrive"] and arrived.absent == ["W"]
    assert arrived.clock is not None
    assert arrived.clock.black.main == pytest.approx(40 * 60, abs=0.01)  # 1 h − 2 × 10 min
    black = _linked(database, ev, "龙一")
    moved = live.act(database, black, ev, 1, one, "move", None, {"vertex": "E5"}, clock)
    assert moved.refused is None
    clock.set(T0 + timedelta(minutes=90, milliseconds=5))
    flagged = live.wake(database, ev, 1, one, clock)
    assert flagged.changed and flagged.snapshot.result == "B+F"
    assert t.list_rounds(database, ev)[0].matches[0].boards[0].result is not None


def test_a_team_board_waits_for_both_players_without_the_round_start_setting(
    database: Database,
) -> None:
    """Online, when both players are in the room (the default): a round's start time starts
    nothing by itself."""
    ev = team_event(database, reveal=False, deadline_minutes=0, time_control="1h")
    clock = ManualClock(T0)
    t.set_round_start(database, LOCAL, ev, 1, "2026-12-05 09:30", clock)
    t.submit_lineups(database, LOCAL, ev, 1, LINEUPS, clock=clock)
    clock.set(T0 + timedelta(hours=2))
    t.reveal_round(database, LOCAL, ev, 1, clock=clock)
    assert live.scheduled_starts(database, clock) == []
    assert live.start_time(database, ev, 1, TeamBoard(1, 1)) is None
    snap = live.start_game(database, ev, 1, TeamBoard(1, 1), clock)
    assert snap.started and snap.absent == []


def test_r_fmt_1_an_online_team_event_and_its_round_start_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``weiqi event create --kind team --play online --game-start round_start`` (a bad value
    named in one line, exit 2), shown by ``event show``; ``weiqi round start`` sets a team
    round's start (a past one refused) and moves its sealed lineups' deadline."""
    db = str(tmp_path / "t.sqlite3")
    base = ("event", "create", "--db", db, "--kind", "team", "--name", "网络团体赛",
            "--system", "round_robin", "--boards", "1", "--deadline-minutes", "15")  # fmt: skip
    weiqi(capsys, *base, "--play", "internet").one_line_error("--play", "internet")
    weiqi(capsys, *base, "--game-start", "later").one_line_error("--game-start")
    made = weiqi(capsys, *base, "--play", "online", "--game-start", "round_start", "--json")
    assert made.code == 0, made.err
    settings = json.loads(made.out)["settings"]
    assert (settings["play"], settings["game_start"]) == ("online", "round_start")
    shown = json.loads(weiqi(capsys, "event", "show", "--db", db, "--json").out)
    assert shown["settings"]["play"] == "online"
    (tmp_path / "t.csv").write_text("team,name,rank\n甲队,张,5d\n乙队,李,5d\n", "utf-8")
    assert weiqi(capsys, "team", "import", "--db", db, str(tmp_path / "t.csv")).code == 0
    assert weiqi(capsys, "round", "pair", "--db", db).code == 0
    past = weiqi(capsys, "round", "start", "--db", db, "--round", "1", "--start", "2020-01-01 9:00")
    past.one_line_error("start")
    good = weiqi(capsys, "round", "start", "--db", db, "--round", "1", "--start",
                 "2030-06-01 09:30", "--json")  # fmt: skip
    assert good.code == 0, good.err
    out = json.loads(good.out)
    assert out["local"] == "2030-06-01 09:30" and out["starts_at"].startswith("2030-06-01T01:30")
    database = Database(f"sqlite:///{db}")
    try:
        rnd = t.list_rounds(database, json.loads(made.out)["id"])[0]
        assert t.iso(rnd.deadline) == "2030-06-01T01:15+00:00"  # 15 minutes before
    finally:
        database.dispose()


def test_r_fmt_1_the_api_and_pages_set_an_online_team_event_and_its_round_start(
    database: Database,
) -> None:
    """``POST /api/events/teams`` takes ``play`` and ``game_start``; ``PUT
    /api/events/{id}/rounds/{n}/start`` sets a team round's start (422 naming ``start``
    for a past one); the settings page offers both settings and the pages say where the boards
    are played, in Chinese."""
    accounts.ensure_site_admin(database, ADMIN_PASSWORD)
    app = create_app(database, secret_key="team online settings")
    with TestClient(app) as client:
        api_login(client, "admin", ADMIN_PASSWORD)
        headers = {"X-CSRF-Token": csrf(client)}
        body = {"name": "网络团体赛", "settings": {"boards": 1, "play": "online",
                                                  "game_start": "round_start"}}  # fmt: skip
        made = client.post("/api/events/teams", json=body, headers=headers)
        assert made.status_code == 201, made.text
        assert made.json()["settings"]["play"] == "online"
        ev = made.json()["id"]
        bad = client.post("/api/events/teams", headers=headers,
                          json={"name": "x", "settings": {"play": "internet"}})  # fmt: skip
        assert bad.status_code == 422 and "play" in bad.text
        t.import_teams(database, LOCAL, ev, "team,name,rank\n甲队,张,5d\n乙队,李,5d\n")
        t.pair_round(database, LOCAL, ev)
        path = f"/api/events/{ev}/rounds/1/start"
        past = client.put(path, json={"start": "2020-01-01 09:00"}, headers=headers)
        assert past.status_code == 422 and "start" in past.text
        good = client.put(path, json={"start": "2030-06-01 09:30"}, headers=headers)
        assert good.status_code == 200, good.text
        assert good.json()["starts_at"].startswith("2030-06-01T01:30")
        settings = client.get(f"/events/{ev}/settings").text
        assert "对局方式" in settings and "网络对局的开始" in settings
        assert "第一轮后不能修改" in settings  # the play mode, once round 1 is paired
        public = client.get(f"/events/{ev}/teams").text
        assert "网络对局" in public and "各台按轮次开始时间开赛" in public


def test_r_time_6_the_server_starts_a_team_board_at_its_round_start_with_nobody_connected(
    live_server: LiveServer,
) -> None:
    """A running server (``LiveRooms.watch_starts``): the team round's start set a few seconds
    ahead once its lineups are revealed, nobody in any room: the server starts both boards at
    the start time by itself, both players absent and Black's clock running (R-TIME-6)."""
    db = Database(live_server.db_url)
    try:
        ev = team_event(db, game_start=GameStart.ROUND_START, deadline_minutes=0,
                        time_control="10m+3x30s")  # fmt: skip
        at = datetime.now(UTC) + timedelta(seconds=3)
        typed = format_local(at, "Asia/Shanghai", "%Y-%m-%d %H:%M:%S")
        starts = t.set_round_start(db, LOCAL, ev, 1, typed).starts_at
        assert starts is not None
        boards = (TeamBoard(1, 1), TeamBoard(1, 2))
        assert not any(live.snapshot(db, ev, 1, b).started for b in boards)
        deadline = time.monotonic() + 20
        snaps = [live.snapshot(db, ev, 1, b) for b in boards]
        while not all(s.started for s in snaps) and time.monotonic() < deadline:
            time.sleep(0.2)
            snaps = [live.snapshot(db, ev, 1, b) for b in boards]
        assert all(s.started for s in snaps), "the server did not start the team boards"
        assert time.time() >= starts.timestamp()
        for snap in snaps:
            assert snap.absent == ["B", "W"] and snap.clock is not None
            assert snap.clock.running == "B"
    finally:
        db.dispose()
