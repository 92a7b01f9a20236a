"""``weiqi bot`` after a network error (issue #11): the server is killed (``kill -9``) in the
middle of a game between two bots and started again on the same address; both bots reconnect by
themselves, the record kept every move the server had acknowledged (the record before the kill is
the start of the record after it), and the game is played to its result; a bot process killed
and started again with its session file and no code takes up the entrant's session and plays
on (R-PLAY-1, R-END-1)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.live.bots import ENV, GNUGO_1, players_csv, start_bot, weiqi_here, weiqi_here_json
from tests.server.conftest import _free_port, wait_until_serving
from weiqi.services.games import record_json
from weiqi.store.database import Database

pytestmark = pytest.mark.gnugo


@contextmanager
def serving(workdir: Path, db: str, port: int, tag: str) -> Iterator[subprocess.Popen[bytes]]:
    """``weiqi serve`` on ``port`` until the block ends (or the test kills it)."""
    log = workdir / f"server-{tag}.log"
    with log.open("wb") as err:
        process = subprocess.Popen(
            [sys.executable, "-m", "weiqi", "serve", "--port", str(port), "--db", db],
            stdout=subprocess.DEVNULL, stderr=err, cwd=workdir, env=ENV,
        )  # fmt: skip
    try:
        wait_until_serving(f"http://127.0.0.1:{port}", process, log)
        yield process
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait(timeout=10)


def _events(db: Database, event_id: int) -> list[dict[str, object]]:
    text = record_json(db, event_id, 1, 1)
    if text is None:
        return []
    events: list[dict[str, object]] = json.loads(text)["entries"]
    return events


def _event(tmp_path: Path) -> tuple[str, int, list[str]]:
    """A round robin of two on 9×9, round 1 published: the database, the event, the codes."""
    db = f"sqlite:///{tmp_path / 'weiqi.sqlite3'}"
    created = weiqi_here_json(
        "event", "create", "--db", db, "--name", "断线重连", "--system", "round_robin",
        "--play", "online", "--size", "9", "--time", "2m+3x10s",
    )  # fmt: skip
    weiqi_here(
        "player", "import", "--db", db, str(players_csv(tmp_path / "p.csv", ["黑机", "白机"]))
    )
    tokens = [weiqi_here_json("player", "invite", "--db", db, n)["token"] for n in ("黑机", "白机")]
    weiqi_here("round", "pair", "--db", db)
    weiqi_here("round", "publish", "--db", db, "--round", "1")
    return db, int(created["id"]), tokens


def _wait_for_events(store: Database, event_id: int, count: int, bots: list[Any]) -> None:
    deadline = time.monotonic() + 60
    while len(_events(store, event_id)) < count:
        assert time.monotonic() < deadline and all(b.poll() is None for b in bots)
        time.sleep(0.2)


def test_r_play_1_bots_reconnect_after_the_server_is_killed_and_lose_no_move(
    tmp_path: Path,
) -> None:
    db, event_id, tokens = _event(tmp_path)
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    store = Database(db)
    logs = [(tmp_path / f"bot{i}.log").open("w") for i in range(2)]
    bots: list[subprocess.Popen[str]] = []
    try:
        with serving(tmp_path, db, port, "first") as first:
            bots = [
                start_bot(url, token, GNUGO_1, log) for token, log in zip(tokens, logs, strict=True)
            ]
            _wait_for_events(store, event_id, 16, bots)  # a few moves in
            os.kill(first.pid, signal.SIGKILL)
            first.wait()
        before = _events(store, event_id)
        assert weiqi_here_json("round", "show", "--db", db, "--round", "1")["pairings"][0][
            "result"
        ] is None  # fmt: skip
        time.sleep(1.5)  # the bots find the server gone and keep trying
        with serving(tmp_path, db, port, "again"):
            for bot in bots:
                out, _ = bot.communicate(timeout=120)
                assert bot.returncode == 0 and out.strip() == "1 game(s) played"
    finally:
        for bot in bots:
            if bot.poll() is None:
                bot.kill()
                bot.wait()
        for f in logs:
            f.close()
        store.dispose()
    after = _events(Database(db), event_id)
    assert after[: len(before)] == before and len(after) > len(before)
    for i in range(2):
        assert "reconnecting" in (tmp_path / f"bot{i}.log").read_text()
    (board,) = weiqi_here_json("round", "show", "--db", db, "--round", "1")["pairings"]
    assert board["result"] and board["phase"] == "finished"
    assert "1 of 1 stored records and boards verify" in weiqi_here("record", "check", "--db", db)


def test_r_play_1_a_bot_killed_and_started_again_takes_up_its_session(tmp_path: Path) -> None:
    """The bot process itself is killed (``kill -9``) mid-game; started again with its
    ``--session`` file and no code (spent by the first run), it takes up the entrant's
    session, reconnects to the room and plays the game to its end."""
    db, event_id, tokens = _event(tmp_path)
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    kept = tmp_path / "black.session"
    store = Database(db)
    logs = [(tmp_path / f"bot{i}.log").open("w") for i in range(3)]
    bots: list[subprocess.Popen[str]] = []
    try:
        with serving(tmp_path, db, port, "one"):
            bots = [
                start_bot(url, tokens[0], GNUGO_1, logs[0], "--session", str(kept)),
                start_bot(url, tokens[1], GNUGO_1, logs[1]),
            ]
            _wait_for_events(store, event_id, 12, bots)
            bots[0].kill()
            bots[0].wait()
            assert kept.stat().st_mode & 0o777 == 0o600  # a credential: its owner's only
            bots.append(start_bot(url, "", GNUGO_1, logs[2], "--session", str(kept)))
            for bot in bots[1:]:
                out, _ = bot.communicate(timeout=120)
                assert bot.returncode == 0 and out.strip() == "1 game(s) played"
    finally:
        for bot in bots:
            if bot.poll() is None:
                bot.kill()
                bot.wait()
        for f in logs:
            f.close()
        store.dispose()
    assert "session taken up" in (tmp_path / "bot2.log").read_text()
    (board,) = weiqi_here_json("round", "show", "--db", db, "--round", "1")["pairings"]
    assert board["result"] and board["phase"] == "finished"


def test_a_bot_waits_for_its_round_and_stops_when_told(tmp_path: Path) -> None:
    """Before the round is published the bot has no game and waits for one; ``SIGTERM`` stops
    it at once, cleanly (exit 0, the games it played counted, its engine closed)."""
    db, _event_id, tokens = _event(tmp_path)
    weiqi_here("round", "publish", "--db", db, "--round", "1", "--hide")
    port = _free_port()
    with (tmp_path / "bot.log").open("w") as log, serving(tmp_path, db, port, "wait"):
        bot = start_bot(f"http://127.0.0.1:{port}", tokens[0], GNUGO_1, log)
        try:
            signed_in = time.monotonic() + 30
            while "signed in" not in (tmp_path / "bot.log").read_text():
                assert bot.poll() is None and time.monotonic() < signed_in
                time.sleep(0.1)
            time.sleep(2.5)  # looking for its game every second: two looks and more
            assert bot.poll() is None
            bot.send_signal(signal.SIGTERM)
            out, _ = bot.communicate(timeout=10)
        finally:
            if bot.poll() is None:
                bot.kill()
                bot.wait()
    assert bot.returncode == 0 and out.strip() == "0 game(s) played"
    assert "signed in" in (tmp_path / "bot.log").read_text()
