"""``weiqi bot`` in a handicap game (issue #11; R-HCP-1, R-HCP-2): the event gives handicap by
rank; the bots put the rules' fixed placement on their engines (GTP ``fixed_handicap``, the same
points) and White moves first: no move of either engine is refused as occupied, and the game is
played to its result, its SGF replaying legally with the three stones."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from tests.live.bots import play_one_game_each, weiqi_here, weiqi_here_json
from tests.server.conftest import run_server

pytestmark = pytest.mark.gnugo


def test_r_hcp_2_bots_play_a_handicap_game_with_the_fixed_placement(tmp_path: Path) -> None:
    _bots_play_a_handicap_game(tmp_path, "fixed")


def test_r_hcp_2_bots_play_a_handicap_game_placing_the_stones_freely(tmp_path: Path) -> None:
    """Free placement (R-HCP-2, ``--handicap-placement free``): the Black bot has its engine
    choose the three points (GTP ``place_free_handicap``) and places them in the room; the
    White bot gives them to its engine (``set_free_handicap``); the game is played out and the
    SGF holds the stones where Black put them."""
    sgf = _bots_play_a_handicap_game(tmp_path, "free")
    assert "AB[" in sgf


def _bots_play_a_handicap_game(tmp_path: Path, placement: str) -> str:
    db = f"sqlite:///{tmp_path / 'weiqi.sqlite3'}"
    ev = weiqi_here_json(
        "event", "create", "--db", db, "--name", "让子网络赛", "--system", "round_robin",
        "--play", "online", "--size", "9", "--colors", "handicap", "--time", "2m+3x10s",
        "--handicap-placement", placement,
    )["id"]  # fmt: skip
    (tmp_path / "p.csv").write_text("name,rank\n强,5d\n弱,2d\n", "utf-8")
    weiqi_here("player", "import", "--db", db, str(tmp_path / "p.csv"))
    (board,) = weiqi_here_json("round", "pair", "--db", db)["pairings"]
    assert board["handicap"] == 3 and board["komi"] == "0", board
    weiqi_here("round", "publish", "--db", db, "--round", "1")
    tokens = [weiqi_here_json("player", "invite", "--db", db, n)["token"] for n in ("强", "弱")]
    with run_server(tmp_path, db) as server:
        play_one_game_each(server.url, tokens, tmp_path)
        sgf = httpx.get(f"{server.url}/events/{ev}/rounds/1/boards/1/sgf").text
    for i in range(2):
        assert "occupied" not in (tmp_path / f"bot{i}.log").read_text()
        assert "此处已有棋子" not in (tmp_path / f"bot{i}.log").read_text()
    (played,) = weiqi_here_json("round", "show", "--db", db, "--round", "1")["pairings"]
    assert played["result"] and played["phase"] == "finished"
    assert f"HA[{board['handicap']}]" in sgf
    (tmp_path / "game.sgf").write_text(sgf)
    assert '"legal": true' in weiqi_here("check", str(tmp_path / "game.sgf"), "--json")
    assert "1 of 1 stored records and boards verify" in weiqi_here("record", "check", "--db", db)
    return sgf
