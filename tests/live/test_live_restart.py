"""A server restart loses nothing (issue #11, R-TIME-5): the real server (``weiqi serve`` in a
subprocess) is killed with SIGKILL in the middle of a game and started again on the same
database and port. Every acknowledged move is still there; the time the server was down is a
pause in the game's record (by the system, "server restart"), not thinking time of the player
to move; a player who reconnects gets the exact state — board, clock, the notice — and the game
goes on."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.live.conftest import online_event, reader
from tests.live.test_live_socket import _play, _seq_after, _started
from tests.server.conftest import SRC, LiveServer, _free_port, wait_until_serving
from weiqi.referee.events import ClockAction, ClockEvent
from weiqi.services import games
from weiqi.services.live_recovery import HEARTBEAT_SECONDS
from weiqi.store.database import Database

#: How long before the kill the last heartbeat may be: its period, and a second more for a
#: machine busy with other tests (a beat is a write that waits its turn).
BEAT = HEARTBEAT_SECONDS + 1.0


@contextmanager
def _serve(workdir: Path, db_url: str, port: int, name: str) -> Iterator[subprocess.Popen[bytes]]:
    """``weiqi serve`` on ``port``; killed (SIGKILL) when the block ends if still running."""
    env = {**os.environ, "PYTHONPATH": str(SRC), "PYTHONUNBUFFERED": "1"}
    env.pop("WEIQI_DATABASE_URL", None)
    env["WEIQI_ADMIN_PASSWORD"] = "the site keeper's pass 2026"
    log = workdir / f"{name}.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "weiqi", "serve", "--port", str(port), "--db", db_url],
            stdout=out, stderr=subprocess.STDOUT, cwd=workdir, env=env,
        )  # fmt: skip
    try:
        wait_until_serving(f"http://127.0.0.1:{port}", process, log)
        yield process
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=10)


def _record(db_url: str, event_id: int) -> games.GameView:
    db = Database(db_url)
    try:
        return games.game_view(db, event_id, 1, 1)
    finally:
        db.dispose()


def test_r_time_5_a_killed_server_loses_no_move_and_its_downtime_is_a_pause(
    tmp_path: Path,
) -> None:
    db_url = f"sqlite:///{tmp_path / 'weiqi.sqlite3'}"
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    server = LiveServer(url, "", tmp_path / "first.log", db_url)
    with _serve(tmp_path, db_url, port, "first") as first:
        ev = online_event(server, "restart")
        with (
            reader(server, ev.room(), ev.players["B"]) as black,
            reader(server, ev.room(), ev.players["W"]) as white,
        ):
            for r in (black, white):
                r.until(_started)
            seq = _play({"B": black, "W": white}, [], ["E5", "C3", "G7"])
            white_turn = time.time()
            time.sleep(1.5)  # White thinks; the server notes that it is alive meanwhile
            killed = time.time()
            os.kill(first.pid, signal.SIGKILL)
            first.wait(timeout=10)
    time.sleep(4)  # the server is down
    with _serve(tmp_path, db_url, port, "second"):
        restarted = time.time()
        with reader(server, ev.room(), ev.players["W"]) as white:
            state = white.next()
            snap = state["snapshot"]
            assert state["type"] == "state"
            assert [m["vertex"] for m in snap["moves"]] == ["E5", "C3", "G7"]
            assert snap["stones"] == {"E5": "B", "C3": "W", "G7": "B"}
            assert snap["to_move"] == "W" and snap["clock"]["running"] == "W"
            # White was charged only the time the server was up: at most the 1.5 s before the
            # kill and one heartbeat, never the 4 s and more it was down
            charged = 600 - snap["clock"]["white"]["main"]
            down = restarted - killed
            assert down > 4
            assert charged <= (killed - white_turn) + 1.0 + (time.time() - restarted) + 0.5
            assert charged >= (killed - white_turn) - BEAT
            kinds = [(n["kind"], n["by"], n["reason"]) for n in snap["notices"]]
            assert kinds == [
                ("pause", "system", "server restart"),
                ("resume", "system", "server restart"),
            ]
            assert state["notices_text"] == ["服务器重启期间计时暂停", "服务器已恢复，计时继续"]
            seq = snap["seq"]
            white.act("move", seq, vertex="C7")
            moved = white.until(lambda m: _seq_after(m, seq) or m["type"] == "refused")
            assert moved["type"] == "update", moved
            assert moved["snapshot"]["stones"]["C7"] == "W"
    view = _record(db_url, ev.id)
    assert view.move_number == 4
    db = Database(db_url)
    try:
        record = games.record_json(db, ev.id, 1, 1)
    finally:
        db.dispose()
    assert record is not None
    from weiqi.referee.record import GameRecord

    entries = GameRecord.from_json(record).entries
    pauses = [e for e in entries if isinstance(e.event, ClockEvent)
              and e.event.action in (ClockAction.PAUSE, ClockAction.RESUME)]  # fmt: skip
    assert [e.actor.code for e in pauses] == ["referee:system", "referee:system"]
    pause, resume = pauses
    assert killed - BEAT <= pause.at <= killed  # the last heartbeat before the kill
    assert resume.at == pytest.approx(restarted, abs=5)
    assert resume.at - pause.at > 4


def test_r_time_2_after_a_restart_the_server_flags_a_game_nobody_reconnects_to(
    tmp_path: Path,
) -> None:
    """R-TIME-2, R-TIME-5: the clocks of the games a restart interrupted are watched again at
    once: with 10 s of byo-yomi, Black to move, the server down for 4 s and nobody reconnecting,
    the flag falls at the deadline counted without the downtime (and the lag quota), and is
    recorded."""
    db_url = f"sqlite:///{tmp_path / 'weiqi.sqlite3'}"
    port = _free_port()
    server = LiveServer(f"http://127.0.0.1:{port}", "", tmp_path / "first.log", db_url)
    with _serve(tmp_path, db_url, port, "first") as first:
        ev = online_event(server, "restart-flag", time_control="1x10s")
        with (
            reader(server, ev.room(), ev.players["B"]) as black,
            reader(server, ev.room(), ev.players["W"]) as white,
        ):
            start = black.until(_started)
            white.until(_started)
            left = start["snapshot"]["clock"]["black"]["total"]
            began = start["snapshot"]["clock"]["now"]
            time.sleep(2.5)
            killed = time.time()
            os.kill(first.pid, signal.SIGKILL)
            first.wait(timeout=10)
    time.sleep(4)
    with _serve(tmp_path, db_url, port, "second"):
        restarted = time.time()
        while _record(db_url, ev.id).result is None and time.time() < restarted + 20:
            time.sleep(0.1)
        flagged = time.time()
    assert _record(db_url, ev.id).result == "W+T"
    used_before = killed - began
    quota = 3  # the online event's default lag allowance delays the flag by its full quota
    due = restarted + (left - used_before) + quota
    assert flagged - due < 2.5, (flagged, due)  # at the deadline (+ the beat and the polling)
    assert flagged > restarted + (left - used_before) - 1.5  # the downtime was not charged
