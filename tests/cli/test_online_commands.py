"""Issue #11 from a script: ``event create --size --time``, ``player invite --json``,
``round publish`` and ``round confirm``, and each board's phase in ``round show --json``; bad
values named in one line (exit 2). The same services as the pages (R-ORG-1, R-END-4)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.contracts import weiqi
from weiqi.errors import InvalidSetting, NotFound
from weiqi.services import games, live_bot
from weiqi.services.actor import Actor
from weiqi.services.public import round_read
from weiqi.store.database import Database


def _event(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    db = str(tmp_path / "e.sqlite3")
    made = weiqi(capsys, "event", "create", "--db", db, "--name", "网络赛", "--system", "swiss",
                 "--rounds", "2", "--size", "9", "--time", "5m incl 3x20s", "--json")  # fmt: skip
    assert made.code == 0, made.err
    out = json.loads(made.out)
    # Chinese byo-yomi: the 3 × 20 s reserve is inside the 5 minutes (R-TIME-2)
    assert out["settings"]["board_size"] == 9 and out["settings"]["time_control"] == "4m+3x20s"
    players = tmp_path / "p.csv"
    players.write_text("name,rank\n甲,3d\n乙,2d\n丙,1d\n丁,1k\n", "utf-8")
    assert weiqi(capsys, "player", "import", "--db", db, str(players)).code == 0
    return db


def test_an_online_event_is_made_and_its_entrants_invited_from_a_script(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = _event(tmp_path, capsys)
    shown = json.loads(weiqi(capsys, "event", "show", "--db", db, "--json").out)
    assert shown["settings"]["time_control"] == "4m+3x20s"
    first = json.loads(weiqi(capsys, "player", "invite", "--db", db, "甲", "--json").out)
    again = json.loads(weiqi(capsys, "player", "invite", "--db", db, "甲", "--json").out)
    assert first["name"] == again["name"] == "甲" and first["token"] != again["token"]
    database = Database(f"sqlite:///{db}")
    try:
        with pytest.raises(InvalidSetting):  # a new code replaces the unspent one
            live_bot.sign_in_with_code(database, first["token"])
        assert live_bot.sign_in_with_code(database, again["token"]).linked.name == "甲"
    finally:
        database.dispose()
    plain = weiqi(capsys, "player", "invite", "--db", db, "乙")
    assert plain.code == 0 and plain.out.startswith("乙: ")
    weiqi(capsys, "player", "invite", "--db", db, "戊").one_line_error("戊")


def test_bad_online_settings_are_named_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "e.sqlite3")
    base = ("event", "create", "--db", db, "--name", "网络赛")
    weiqi(capsys, *base, "--system", "round_robin", "--time", "five minutes").one_line_error(
        "time_control", "five minutes"
    )
    # a team event's boards are played online too: its time control is named the same way
    weiqi(
        capsys, *base, "--kind", "team", "--system", "round_robin", "--time", "five minutes"
    ).one_line_error("time_control", "five minutes")


def test_a_round_is_published_hidden_and_its_results_confirmed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = _event(tmp_path, capsys)
    assert weiqi(capsys, "round", "pair", "--db", db).code == 0
    url = f"sqlite:///{db}"
    database = Database(url)
    try:
        done = weiqi(capsys, "round", "publish", "--db", db, "--round", "1")
        assert done.out.strip() == "round 1: published, 2 board(s)"
        assert len(round_read(database, 1, 1).pairings) == 2
        hidden = weiqi(capsys, "round", "publish", "--db", db, "--round", "1", "--hide")
        assert hidden.out.strip() == "round 1: hidden, 2 board(s)"
        with pytest.raises(NotFound):  # the public, and the rooms' spectators, see it no more
            round_read(database, 1, 1)
        weiqi(capsys, "round", "publish", "--db", db, "--round", "9").one_line_error("9")
        shown = json.loads(weiqi(capsys, "round", "show", "--db", db, "--round", "1", "--json").out)
        assert [p["phase"] for p in shown["pairings"]] == ["not_started", "not_started"]
        games.enter_result(database, Actor.local(), 1, 1, 1, "B+R")  # a referee, not final
        shown = json.loads(weiqi(capsys, "round", "show", "--db", db, "--round", "1", "--json").out)
        one, two = shown["pairings"]
        assert one["result"] == "B+R" and one["phase"] == "finished" and not one["confirmed"]
        assert one["events"] > 0 and two["phase"] == "not_started" and two["events"] == 0
        confirmed = weiqi(capsys, "round", "confirm", "--db", db, "--round", "1")
        assert confirmed.out.strip() == "board 1: B+R confirmed"  # board 2 has no result
        shown = json.loads(weiqi(capsys, "round", "show", "--db", db, "--round", "1", "--json").out)
        assert shown["pairings"][0]["phase"] == "confirmed" and shown["pairings"][0]["confirmed"]
        assert games.game_view(database, 1, 1, 1).confirmed
    finally:
        database.dispose()
