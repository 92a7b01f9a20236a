"""Network lag through the game room's WebSocket against the real server (``weiqi serve`` in a
subprocess, its own clock): a move's ``think`` reaches the game's record, the event's
allowance forgives the network's share of what the server measured (within the quota), and a
think time that is not seconds is ignored while the move stands (issue #11)."""

from __future__ import annotations

import json
import time
from typing import Any

from tests.live.conftest import online_event, reader
from tests.server.conftest import LiveServer
from weiqi.services import games
from weiqi.store.database import Database


def _update_after(seq: int) -> Any:
    return lambda m: (
        m["type"] == "refused" or (m["type"] == "update" and m["snapshot"]["seq"] > seq)
    )


def test_a_moves_think_time_reaches_the_record_and_is_charged_within_the_quota(
    live_server: LiveServer,
) -> None:
    """10 minutes + byo-yomi, the default allowance (1 s a move, at most 3 s). Black waits a
    little, then says it thought 0 s: what the server measured is all lag, within the quota,
    so Black's main time is whole. White says nothing: every millisecond the server measured is
    charged. Black then sends a think time that is text: ignored, the move stands."""
    ev = online_event(live_server, "lag")
    with (
        reader(live_server, ev.room(), ev.players["B"]) as black,
        reader(live_server, ev.room(), ev.players["W"]) as white,
    ):
        start = black.until(lambda m: m["type"] in ("state", "update") and m["snapshot"]["started"])
        white.until(lambda m: m["type"] in ("state", "update") and m["snapshot"]["started"])
        seq = start["snapshot"]["seq"]
        time.sleep(0.3)
        black.act("move", seq, vertex="E5", think=0)
        moved = black.until(_update_after(seq))
        assert moved["type"] == "update", moved
        clock = moved["snapshot"]["clock"]
        assert clock["black"]["main"] == 600  # 0.3 s and more measured, all forgiven
        seq = moved["snapshot"]["seq"]
        white.until(_update_after(seq - 1))
        time.sleep(0.3)
        white.act("move", seq, vertex="C3")
        answered = white.until(_update_after(seq))
        assert answered["type"] == "update", answered
        assert answered["snapshot"]["clock"]["white"]["main"] <= 600 - 0.3
        seq = answered["snapshot"]["seq"]
        black.until(_update_after(seq - 1))
        black.act("move", seq, vertex="G7", think="soon")
        again = black.until(_update_after(seq))
        assert again["type"] == "update" and again["snapshot"]["stones"]["G7"] == "B"
    db = Database(live_server.db_url)
    try:
        text = games.record_json(db, ev.id, 1, 1)
    finally:
        db.dispose()
    assert text is not None
    events = [e["event"] for e in json.loads(text)["entries"]]
    assert events[0]["lag"] == {"gain": 1.0, "cap": 3.0, "initial": None}
    presses = [e for e in events if e.get("action") == "press"]
    assert [p.get("think") for p in presses] == [0.0, None, None]
