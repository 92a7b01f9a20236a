"""The referee console with several workers on PostgreSQL + Redis (issues #11, #12): the players
are connected to one ``weiqi serve``, the referee's console to another; the console still says
who is connected, shows White's call and its leaving, and its pause reaches the players on the
other worker at once (R-TIME-5)."""

from __future__ import annotations

import json
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest

from tests.live.conftest import PASSWORD, online_event, reader
from tests.live.test_live_referee import _round_reader
from tests.live.test_live_socket import _seq_after, _started
from tests.live.test_workers import pg_url, serve  # noqa: F401  (the fixture)

pytestmark = pytest.mark.postgres


def test_the_console_on_one_worker_sees_and_pauses_a_game_played_on_another(
    tmp_path: Path,
    pg_url: str,  # noqa: F811
) -> None:
    with ExitStack() as stack:
        one = stack.enter_context(serve(tmp_path, pg_url))
        two = stack.enter_context(serve(tmp_path, pg_url))
        ev = online_event(one, "workers-console")
        with (
            _round_reader(two, ev, ev.referee) as console,
            reader(one, ev.room(), ev.players["B"]) as black,
        ):
            console.until(lambda m: m["type"] == "round")
            with reader(one, ev.room(), ev.players["W"]) as white:
                start = black.until(_started)
                white.until(_started)
                both = console.until(
                    lambda m: m["type"] == "board" and m["board"]["present"] == ["B", "W"]
                    and m["board"]["started"]
                )  # fmt: skip
                assert both["board"]["clock"]["running"] == "B"
                white.ws.send(json.dumps({"type": "call_referee"}))
                called = console.until(
                    lambda m: m["type"] == "board" and "call:W" in m["board"]["alerts"]
                )
                assert called["board"]["board"] == 1
                with httpx.Client(base_url=two.url, follow_redirects=True) as referee:
                    token = referee.get("/api/session").json()["csrf_token"]
                    referee.post(
                        "/api/session",
                        json={"username": ev.referee, "password": PASSWORD},
                        headers={"X-CSRF-Token": token},
                    ).raise_for_status()
                    token = referee.get("/api/session").json()["csrf_token"]
                    seq = start["snapshot"]["seq"]
                    answer = referee.post(
                        f"/api/events/{ev.id}/rounds/1/boards/1/live/pause",
                        json={"seq": seq, "reason": "网络故障"},
                        headers={"X-CSRF-Token": token},
                    )
                    assert answer.status_code == 200, answer.text
                for r in (black, white):
                    paused = r.until(lambda m: _seq_after(m, seq))
                    assert paused["snapshot"]["paused"]
                answered = console.until(
                    lambda m: m["type"] == "board" and m["board"]["paused"]
                    and "call:W" not in m["board"]["alerts"]
                )  # fmt: skip
                assert "paused" in answered["board"]["alerts"]
            gone = console.until(lambda m: m["type"] == "board" and m["board"]["present"] == ["B"])
            assert gone["board"]["paused"]
