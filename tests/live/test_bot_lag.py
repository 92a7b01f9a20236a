"""``weiqi bot`` says how long its engine thought (issue #11, the lag allowance): in an event
created with ``--lag 0.5/2``, two GNU Go bots play one game; the record starts with that
allowance, and the bots' moves and passes carry their think times — each within what the
server measured — so that only the network's share is forgiven."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.live.bots import play_one_game_each, two_player_event, weiqi_here
from tests.server.conftest import run_server
from weiqi.services import games
from weiqi.store.database import Database

pytestmark = pytest.mark.gnugo


def test_the_bots_send_their_think_times(tmp_path: Path) -> None:
    db, ev, tokens = two_player_event(tmp_path, "延时网络赛", "--lag", "0.5/2")
    with run_server(tmp_path, db) as server:
        play_one_game_each(server.url, tokens, tmp_path)
    store = Database(db)
    try:
        text = games.record_json(store, ev, 1, 1)
    finally:
        store.dispose()
    assert text is not None
    entries = json.loads(text)["entries"]
    assert entries[0]["event"]["lag"] == {"gain": 0.5, "cap": 2.0, "initial": None}
    began = next(e["at"] for e in entries if e["event"].get("action") == "start")
    for entry in entries:
        if entry["event"].get("action") != "press":
            continue
        think = entry["event"].get("think")
        if think is not None:
            assert 0 <= think <= entry["at"] - began + 0.05, (think, entry["at"] - began)
        began = entry["at"]
    presses = [e for e in entries if e["event"].get("action") == "press"]
    unseen = [(e["seq"], e["actor"]["color"]) for e in presses if "think" not in e["event"]]
    assert len(presses) >= 2 and len(unseen) <= 1, (unseen, len(presses))  # a short game too
    assert "1 of 1 stored records and boards verify" in weiqi_here("record", "check", "--db", db)
