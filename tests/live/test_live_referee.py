"""Spectators and the referee console of a live round, against the real server (``weiqi serve``
in a subprocess) over real WebSockets (issue #11): the round page and its socket show every
board live, the SGF has the moves so far; a referee pauses and resumes a game (R-TIME-5),
records a warning (R-REF-6, R-PEN-1), corrects a clock as the chief referee (R-TIME-8) and
rules (R-END-1(d)) — each in the game's record and pushed to the players; players and
spectators are refused; the console's alerts say who is disconnected and who is short of time.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from tests.live.conftest import PASSWORD, OnlineEvent, Reader, online_event, reader, session_cookie
from tests.live.test_live_socket import _play, _seq_after, _started
from tests.server.conftest import LiveServer
from weiqi.roles import Role
from weiqi.services import accounts, games
from weiqi.services.events import create_event
from weiqi.store.database import Database

LOCAL_ROLE = Role.CHIEF_REFEREE


def _client(server: LiveServer, username: str | None) -> httpx.Client:
    """A logged-in (or anonymous) client with its CSRF token at hand, in Chinese."""
    client = httpx.Client(
        base_url=server.url, headers={"Accept-Language": "zh-CN"}, follow_redirects=True
    )
    token = client.get("/api/session").json()["csrf_token"]
    if username is not None:
        answer = client.post(
            "/api/session",
            json={"username": username, "password": PASSWORD},
            headers={"X-CSRF-Token": token},
        )
        assert answer.status_code == 200, answer.text
        token = client.get("/api/session").json()["csrf_token"]
    client.headers["X-CSRF-Token"] = token
    return client


def _form(client: httpx.Client, path: str, **data: Any) -> httpx.Response:
    return client.post(path, data={"csrf_token": client.headers["X-CSRF-Token"], **data})


def _chief(server: LiveServer, ev: OnlineEvent) -> str:
    db = Database(server.db_url)
    try:
        name = f"chief-{ev.id}"
        user = accounts.create_user(db, accounts.Actor.local(), name, PASSWORD)
        accounts.grant_role(db, accounts.Actor.local(), user.id, ev.id, LOCAL_ROLE)
        return name
    finally:
        db.dispose()


@contextmanager
def _round_reader(server: LiveServer, ev: OnlineEvent, username: str | None) -> Iterator[Reader]:
    """A reader of the round's socket (the round page's and the console's)."""
    url = server.url.replace("http://", "ws://") + f"/events/{ev.id}/rounds/1/live/socket"
    headers = {"Cookie": session_cookie(server, username), "Accept-Language": "zh-CN"}
    with connect(url, additional_headers=headers, open_timeout=20) as ws:
        yield Reader(ws)


def _update(r: Reader, seq: int) -> dict[str, Any]:
    return r.until(lambda m: _seq_after(m, seq))


def test_spectators_see_every_board_live_and_download_the_sgf_so_far(
    live_server: LiveServer,
) -> None:
    """The round page lists the board with both players; the round socket sends every board on
    connecting and the board again after each move; the SGF has the moves played so far; the
    room of a player's game is read-only for a spectator (no controls)."""
    ev = online_event(live_server, "watch")
    anon = _client(live_server, None)
    page = anon.get(f"/events/{ev.id}/rounds/1/live")
    assert page.status_code == 200, page.text
    assert "实况" in page.text and ev.names["B"] in page.text and 'id="board-1"' in page.text
    with (
        _round_reader(live_server, ev, None) as watcher,
        reader(live_server, ev.room(), ev.players["B"]) as black,
        reader(live_server, ev.room(), ev.players["W"]) as white,
    ):
        first = watcher.until(lambda m: m["type"] == "round")
        assert [b["board"] for b in first["boards"]] == [1]
        assert "alerts" not in first["boards"][0]  # the referees' alerts are theirs
        for r in (black, white):
            r.until(_started)
        _play({"B": black, "W": white}, [], ["E5", "C3", "G7"])
        seen = watcher.until(
            lambda m: m["type"] == "board" and m["board"]["stones"].get("G7") == "B"
        )
        assert seen["board"]["move_number"] == 3 and seen["board"]["to_move"] == "W"
        assert seen["board"]["clock"]["running"] == "W"
        sgf = anon.get(f"/events/{ev.id}/rounds/1/boards/1/sgf")
        assert sgf.status_code == 200
        assert re.findall(r";([BW])\[([a-z]{2})\]", sgf.text) == [
            ("B", "ee"),
            ("W", "cg"),
            ("B", "gc"),
        ]
    room = anon.get(f"/events/{ev.id}/rounds/1/boards/1/play")
    assert "你正在观战" in room.text and 'id="live-controls"' not in room.text
    assert 'id="live-sgf"' in room.text


def test_r_time_5_a_referee_pauses_warns_corrects_the_clock_and_rules_live(
    live_server: LiveServer,
) -> None:
    """R-TIME-5, R-REF-6, R-PEN-1, R-TIME-8, R-END-1(d): every action of the console goes into
    the game's record and reaches both players and the spectator at once, with its notice in
    Chinese; while paused no move is accepted and no clock runs."""
    ev = online_event(live_server, "referee")
    chief = _chief(live_server, ev)
    referee = _client(live_server, ev.referee)
    boss = _client(live_server, chief)
    console = f"/events/{ev.id}/rounds/1/boards/1/referee"
    with (
        reader(live_server, ev.room(), None) as spectator,
        reader(live_server, ev.room(), ev.players["B"]) as black,
        reader(live_server, ev.room(), ev.players["W"]) as white,
    ):
        for r in (spectator, black, white):
            r.until(_started)
        seq = _play({"B": black, "W": white}, [spectator], ["E5", "C3"])
        page = referee.get(console)
        assert page.status_code == 200 and "暂停对局" in page.text
        done = _form(referee, console + "/pause", seq=seq, reason="网络故障")
        assert done.status_code == 200 and "对局已暂停" in done.text, done.text
        for r in (spectator, black, white):
            got = _update(r, seq)
            assert got["snapshot"]["paused"] and got["snapshot"]["clock"]["running"] is None
            assert got["notices_text"][-1] == f"裁判 {ev.referee} 暂停对局：网络故障"
        seq = got["snapshot"]["seq"]
        black.act("move", seq, vertex="G7")
        refused = black.until(lambda m: m["type"] == "refused")
        assert "暂停" in refused["message"]
        # a warning: a ringing phone, the first in this game (R-REF-6)
        done = _form(referee, console + "/infraction", seq=seq, kind="phone_ringing",
                     offender="W")  # fmt: skip
        assert done.status_code == 200, done.text
        got = _update(white, seq)
        assert got["snapshot"]["warnings"] == {"B": 0, "W": 1}
        assert "手机发出响声" in got["notices_text"][-1] and "警告" in got["notices_text"][-1]
        seq = got["snapshot"]["seq"]
        # the clock correction is the chief referee's (R-TIME-8)
        refused_page = _form(referee, console + "/clock", seq=seq, color="B", seconds="-30",
                             reason="时钟故障")  # fmt: skip
        assert refused_page.status_code == 403
        done = _form(boss, console + "/clock", seq=seq, color="B", seconds="-30", reason="时钟故障")
        assert done.status_code == 200, done.text
        got = _update(black, seq)
        assert got["snapshot"]["clock"]["black"]["main"] > 600 - 1  # given back, paused
        assert "时钟故障" in got["notices_text"][-1]
        seq = got["snapshot"]["seq"]
        done = _form(referee, console + "/resume", seq=seq)
        assert done.status_code == 200
        got = _update(black, seq)
        assert not got["snapshot"]["paused"] and got["snapshot"]["clock"]["running"] == "B"
        seq = _play({"B": black, "W": white}, [spectator], ["G7"])
        # a bad ruling is refused next to its field, what was typed kept
        bad = _form(referee, console + "/ruling", seq=seq, kind="forfeit", reason="掉线不归")
        assert bad.status_code == 422
        assert 'id="record-ruling-loser-error"' in bad.text and 'value="掉线不归"' in bad.text
        done = _form(referee, console + "/ruling", seq=seq, kind="forfeit", loser="W",
                     reason="掉线不归")  # fmt: skip
        assert done.status_code == 200, done.text
        for r in (spectator, black, white):
            got = _update(r, seq)
            assert got["snapshot"]["result"] == "B+F" and got["result_text"] == "黑不战胜"
    db = Database(live_server.db_url)
    try:
        view = games.game_view(db, ev.id, 1, 1)
    finally:
        db.dispose()
    assert view.result == "B+F" and view.warnings == (0, 1)
    record = view.history
    assert record  # the ruling is in the result's history
    kinds = [i.kind for i in view.infractions]
    assert "phone_ringing" in kinds
    sgf = referee.get(f"/events/{ev.id}/rounds/1/boards/1/sgf").text  # the notes go along
    assert f"暂停计时（裁判 {ev.referee}：网络故障）" in sgf
    assert f"更正计时：黑方 -30秒（裁判长 {chief}：时钟故障）" in sgf
    assert "警告：白方手机发出响声" in sgf and "RE[B+F]" in sgf


def test_players_and_spectators_may_not_referee(live_server: LiveServer) -> None:
    """The console, its forms and its API refuse the game's own players, a spectator and a
    visitor: nothing is stored, nothing pushed."""
    ev = online_event(live_server, "refuse")
    db = Database(live_server.db_url)
    try:
        accounts.create_user(db, accounts.Actor.local(), "spectator-refuse", PASSWORD)
    finally:
        db.dispose()
    with (
        reader(live_server, ev.room(), ev.players["B"]) as black,
        reader(live_server, ev.room(), ev.players["W"]) as white,
    ):
        start = black.until(_started)
        white.until(_started)
        seq = start["snapshot"]["seq"]
        api = f"/api/events/{ev.id}/rounds/1/boards/1/live"
        for who in (ev.players["B"], ev.players["W"], "spectator-refuse", None):
            client = _client(live_server, who)
            console = client.get(f"/events/{ev.id}/rounds/1/referee", follow_redirects=False)
            assert console.status_code in (303, 403), (who, console.status_code)
            form = client.post(
                f"/events/{ev.id}/rounds/1/boards/1/referee/pause",
                data={"csrf_token": client.headers["X-CSRF-Token"], "seq": seq},
                follow_redirects=False,
            )
            assert form.status_code in (303, 403), (who, form.status_code)
            for what, body in (
                ("pause", {}),
                ("infraction", {"kind": "disturbing", "offender": "B", "penalty": "loss"}),
                ("ruling", {"kind": "loss", "loser": "B", "reason": "x"}),
                ("clock", {"color": "B", "seconds": "30", "reason": "x"}),
            ):
                answer = client.post(f"{api}/{what}", json=body)
                assert answer.status_code == 403, (who, what)
        with reader(live_server, ev.room(), ev.players["B"]) as again:
            state = again.next()
            assert state["snapshot"]["seq"] == seq and not state["snapshot"]["notices"]


def _disconnect_alert(server: LiveServer, event_id: int, seconds: int | None) -> None:
    """Set the event's disconnection setting (as the settings page stores it)."""
    import json

    from weiqi.store.tournament import EventSettingsRow

    db = Database(server.db_url)
    try:
        with db.transaction() as session:
            row = session.get(EventSettingsRow, event_id)
            assert row is not None
            row.settings_json = json.dumps(
                {**json.loads(row.settings_json), "disconnect_alert": seconds}
            )
    finally:
        db.dispose()


def test_the_console_shows_disconnections_and_time_trouble(live_server: LiveServer) -> None:
    """The referee's round socket gives every board's alerts and who is connected: Black with
    less than a minute is in time trouble; by default (the clock simply runs) White's leaving
    shows as not connected but is no alert; with the event's setting of 1 s it is an alert a
    second later. A spectator's round socket gets neither."""
    ev = online_event(live_server, "alerts", time_control="50s")
    page = _client(live_server, ev.referee).get(f"/events/{ev.id}/rounds/1/referee")
    assert page.status_code == 200 and "裁判台" in page.text and "计时照常进行" in page.text
    with (
        _round_reader(live_server, ev, ev.referee) as console,
        reader(live_server, ev.room(), ev.players["B"]) as black,
    ):
        first = console.until(lambda m: m["type"] == "round")
        assert first["boards"][0]["alerts"] == []  # not started: nothing to look at
        with reader(live_server, ev.room(), ev.players["W"]) as white:
            black.until(_started)
            white.until(_started)
            live = console.until(
                lambda m: m["type"] == "board" and m["board"]["started"]
                and m["board"]["present"] == ["B", "W"]
            )  # fmt: skip
            assert live["board"]["alerts"] == ["time_trouble:B", "time_trouble:W"]
        gone = console.until(lambda m: m["type"] == "board" and m["board"]["present"] == ["B"])
        assert gone["board"]["alerts"] == ["time_trouble:B", "time_trouble:W"]
    _disconnect_alert(live_server, ev.id, 1)
    page = _client(live_server, ev.referee).get(f"/events/{ev.id}/rounds/1/referee")
    assert "断线1秒及以上" in page.text
    with (
        _round_reader(live_server, ev, ev.referee) as console,
        reader(live_server, ev.room(), ev.players["B"]),
    ):
        alerted = console.until(
            lambda m: (
                m["type"] in ("round", "board")
                and (m.get("board") or m["boards"][0])["present"] == ["B"]
                and "disconnected:W" in (m.get("board") or m["boards"][0])["alerts"]
            )
        )
        board = alerted.get("board") or alerted["boards"][0]
        assert "disconnected:B" not in board["alerts"]
    with _round_reader(live_server, ev, None) as watcher:
        board = watcher.until(lambda m: m["type"] == "round")["boards"][0]
        assert "alerts" not in board and "present" not in board


@pytest.mark.parametrize("path", ["live", "referee"])
def test_an_unpublished_round_is_not_shown(live_server: LiveServer, path: str) -> None:
    """A round not published is nobody's to watch but its referees'."""
    from weiqi.services import tournament as t
    from weiqi.tournament.settings import EventSettings, System

    db = Database(live_server.db_url)
    try:
        local = accounts.Actor.local()
        settings = EventSettings(system=System.ROUND_ROBIN, board_size=9, play="online")
        ev = create_event(db, local, f"未公布-{path}", settings).id
        t.import_players(db, local, ev, "name\n甲\n乙\n")
        t.pair_round(db, local, ev)  # not published
        referee = accounts.create_user(db, local, f"ref-hidden-{path}", PASSWORD)
        accounts.grant_role(db, local, referee.id, ev, Role.REFEREE)
    finally:
        db.dispose()
    anon = _client(live_server, None)
    answer = anon.get(f"/events/{ev}/rounds/1/{path}", follow_redirects=False)
    assert answer.status_code in (303, 404)
    referee_client = _client(live_server, f"ref-hidden-{path}")
    assert referee_client.get(f"/events/{ev}/rounds/1/{path}").status_code == 200


def test_r_end_3_a_disputed_ending_is_an_alert_on_the_console(live_server: LiveServer) -> None:
    """R-END-3: after two passes White marks Black's H5 dead, Black disputes it and play
    resumes: the console's board has the ``dispute`` alert until the game is over."""
    ev = online_event(live_server, "dispute")
    with (
        _round_reader(live_server, ev, ev.referee) as console,
        reader(live_server, ev.room(), ev.players["B"]) as black,
        reader(live_server, ev.room(), ev.players["W"]) as white,
    ):
        for r in (black, white):
            r.until(_started)
        players = {"B": black, "W": white}
        walls = [v for row in range(1, 10) for v in (f"E{row}", f"F{row}")]
        seq = _play(players, [], [*walls, "H5"])

        def step(mover: Reader, action: str, **data: Any) -> None:
            nonlocal seq
            mover.act(action, seq, **data)
            got = white.until(lambda m: _seq_after(m, seq) or m["type"] == "refused")
            assert got["type"] == "update", got
            seq = got["snapshot"]["seq"]

        step(white, "pass")
        step(black, "pass")
        step(white, "mark_dead", stones=["H5"])
        step(black, "dispute")
        disputed = console.until(lambda m: m["type"] == "board" and m["board"]["seq"] == seq)
        assert "dispute" in disputed["board"]["alerts"]
        assert disputed["board"]["phase"] == "playing" and disputed["board"]["to_move"] == "W"
        step(white, "resign")
        over = console.until(lambda m: m["type"] == "board" and m["board"]["result"])
        assert over["board"]["alerts"] == [] and over["board"]["result_text"] == "黑中盘胜"


def test_a_player_calls_the_referee_and_the_console_shows_it_until_answered(
    live_server: LiveServer,
) -> None:
    """White calls the referee from the room: the console's board has the call at once, the
    game page says who calls; a spectator may not call; the referee's answer clears it."""
    ev = online_event(live_server, "call")
    referee = _client(live_server, ev.referee)
    with (
        _round_reader(live_server, ev, ev.referee) as console,
        reader(live_server, ev.room(), None) as spectator,
        reader(live_server, ev.room(), ev.players["W"]) as white,
    ):
        console.until(lambda m: m["type"] == "round")
        spectator.next()
        spectator.ws.send(json.dumps({"type": "call_referee"}))
        refused = spectator.until(lambda m: m["type"] == "refused")
        assert refused["message"] == "只有本局棋手可以呼叫裁判"
        white.next()
        white.ws.send(json.dumps({"type": "call_referee"}))
        called = console.until(lambda m: m["type"] == "board" and m["board"]["alerts"])
        assert called["board"]["alerts"] == ["call:W"]
        told = white.until(lambda m: m["type"] == "call")
        assert list(told["calls"]) == ["W"]
        page = referee.get(f"/events/{ev.id}/rounds/1/boards/1/referee")
        assert "白方呼叫裁判" in page.text
        done = _form(referee, f"/events/{ev.id}/rounds/1/boards/1/referee/answer")
        assert done.status_code == 200 and "白方呼叫裁判" not in done.text
        answered = console.until(lambda m: m["type"] == "board" and not m["board"]["alerts"])
        assert answered["board"]["alerts"] == []
