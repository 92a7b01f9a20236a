"""``weiqi bot`` in an event whose even games take their colours by nigiri (issue #11;
R-COLOR-1): the first bot in the room opens the game and the server draws the nigiri; each bot
plays the colour the room gives it (which may not be the pairing's), the game is played to its
result, and the board and the SGF name the drawn Black."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from tests.live.bots import play_one_game_each, two_player_event, weiqi_here_json
from tests.server.conftest import run_server
from weiqi.services import live
from weiqi.store.database import Database

pytestmark = pytest.mark.gnugo


def test_r_color_1_bots_play_the_colors_the_nigiri_gave(tmp_path: Path) -> None:
    db, ev, tokens = two_player_event(tmp_path, "猜先网络赛", "--online-colors", "nigiri")
    with run_server(tmp_path, db) as server:
        play_one_game_each(server.url, tokens, tmp_path)
        sgf = httpx.get(f"{server.url}/events/{ev}/rounds/1/boards/1/sgf").text
    store = Database(db)
    try:
        drawn = live.snapshot(store, ev, 1, 1).nigiri
    finally:
        store.dispose()
    assert drawn is not None and drawn["holder"] == "甲" and drawn["guesser"] == "乙"
    (played,) = weiqi_here_json("round", "show", "--db", db, "--round", "1")["pairings"]
    assert played["black"] == drawn["black"] and played["result"], json.dumps(played)
    assert f"PB[{drawn['black']}]" in sgf
