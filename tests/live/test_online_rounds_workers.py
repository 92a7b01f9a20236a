"""Online rounds on two workers (PostgreSQL + Redis, issue #11/#12): a game that starts at its
round's start time is started by the servers with nobody connected, once, although both
workers look for it (R-TIME-6)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.live.conftest import online_event
from tests.live.test_online_rounds_server import _set_start, _snapshot
from tests.live.test_workers import pg_url, serve  # noqa: F401  (the fixture)

pytestmark = pytest.mark.postgres


def test_r_time_6_two_workers_start_the_game_once_at_the_round_start(
    tmp_path: Path,
    pg_url: str,  # noqa: F811
) -> None:
    with serve(tmp_path, pg_url) as one, serve(tmp_path, pg_url):
        ev = online_event(one, "两个进程", "10m+3x30s", game_start="round_start")
        start = _set_start(one, ev.id, 3)
        deadline = time.monotonic() + 20
        snap = _snapshot(one, ev.id)
        while not snap.started and time.monotonic() < deadline:
            time.sleep(0.2)
            snap = _snapshot(one, ev.id)
        assert snap.started and time.time() >= start
        assert snap.absent == ["B", "W"]
        time.sleep(1.5)  # the other worker's look, had it started the game too
        kinds = [e.kind for e in _snapshot(one, ev.id).events]
    assert kinds == ["start", "clock_start"], kinds  # started once, by one of the two
