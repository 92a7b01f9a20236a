"""``weiqi event|player|round|standings`` as issue #5 writes them, on an SQLite file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from weiqi.cli import app
from weiqi.errors import InvalidSetting, WeiqiError

runner = CliRunner()


def run(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, (result.output, result.exception)
    return result.output


def test_a_whole_swiss_from_the_command_line(tmp_path: Path) -> None:
    db = str(tmp_path / "club.sqlite3")
    players = tmp_path / "players.csv"
    players.write_text(
        "name,rank,rating,club,country,birth_date\n"
        "Li Wei,5d,2400,Beijing,CN,1990-01-02\nWang Fang,4d,,Shanghai,CN,\n"
        "Zhang San,3d,,Beijing,CN,\nZhao Si,2p,,Hangzhou,CN,\n",
        encoding="utf-8",
    )
    out = run("event", "create", "--db", db, "--name", "Club Swiss", "--system", "swiss",
              "--rounds", "2", "--tiebreaks", "SOS,SB,CUSS")  # fmt: skip
    assert "积分编排制" in out
    assert "imported 4 players" in run("player", "import", "--db", db, str(players))
    first = json.loads(run("round", "pair", "--db", db, "--json"))
    assert first["round"] == 1 and first["bye"] is None
    assert [p["board"] for p in first["pairings"]] == [1, 2]
    assert set(first["pairings"][0]) >= {"board", "black", "white"}
    # Zhao Si (2p) is seeded first, Li Wei second: rank halves put them on different boards
    run("round", "result", "--db", db, "--round", "1", "--board", "1", "B+R")
    results = tmp_path / "r1.csv"
    results.write_text("board,result\n2,0\n", encoding="utf-8")
    assert "1 results recorded" in run("round", "results", "--db", db, "--round", "1", str(results))
    shown = json.loads(run("round", "show", "--db", db, "--round", "1", "--json"))
    assert [p["result"] for p in shown["pairings"]] == ["B+R", "0"]
    run("round", "pair", "--db", db)
    table = json.loads(run("standings", "--db", db, "--json"))
    assert [r["place"] for r in table] == sorted(r["place"] for r in table)
    assert set(table[0]) >= {"place", "name", "points", "tiebreaks"}
    assert list(table[0]["tiebreaks"]) == ["SOS", "SB", "CUSS"]
    assert "名次" in run("standings", "--db", db)
    assert "withdrawn after round 2" in run("player", "withdraw", "--db", db, "Li Wei")


def test_errors_are_one_line_and_exit_2(tmp_path: Path) -> None:
    db = str(tmp_path / "x.sqlite3")
    run("event", "create", "--db", db, "--name", "KO", "--system", "knockout")
    bad = tmp_path / "bad.csv"
    bad.write_text("name,rank\nA,5d\nB,99k\n", encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "weiqi", "player", "import", "--db", db, str(bad)],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src"), "WEIQI_LANG": "en"},
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("error: ") and "line 3" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    for args, message in [
        (["round", "result", "--db", db, "--round", "1", "--board", "1", "B+R"], "not paired"),
        (["event", "create", "--db", db, "--name", "S", "--system", "swiss"], "rounds"),
        (["event", "create", "--db", db, "--name", "S", "--system", "ladder"], "unknown system"),
        (["round", "pair", "--db", db], "at least two players"),
    ]:
        result = runner.invoke(app, args)
        assert isinstance(result.exception, WeiqiError), (args, result.output)
        assert message in result.exception.message


def test_r_org_1_a_round_paired_from_the_command_line_keeps_its_explanation(
    tmp_path: Path,
) -> None:
    """R-ORG-1 (the chief referee supervises pairing; issue #10): ``weiqi round pair`` stores
    the same explanation of each pair as the web pairing, so the round page explains it."""
    from weiqi.services.actor import Actor
    from weiqi.services.event_admin import round_detail
    from weiqi.store.database import Database

    db = str(tmp_path / "explained.sqlite3")
    players = tmp_path / "players.csv"
    players.write_text("name,rank\nA,5d\nB,4d\nC,3d\nD,2d\n", encoding="utf-8")
    run("event", "create", "--db", db, "--name", "Explained", "--system", "swiss",
        "--rounds", "2")  # fmt: skip
    run("player", "import", "--db", db, str(players))
    run("round", "pair", "--db", db)
    database = Database(f"sqlite:///{db}")
    try:
        detail = round_detail(database, Actor.local(), 1, 1)
    finally:
        database.dispose()
    assert [(e.board, e.black, e.white) for e in detail.explanations] == [
        (p.board, p.black, p.white) for p in detail.pairings
    ]
    assert detail.totals is not None and detail.totals.games == 2


def test_r_board_1_the_event_settings_carry_the_games_rules(tmp_path: Path) -> None:
    """R-BOARD-1 / R-KO-2 / R-HCP-2 (issue #10): ``weiqi event create`` sets the board size,
    the cycle policy and the handicap placement in the event's settings; a bad one is refused
    with the field's name."""
    db = str(tmp_path / "rules.sqlite3")
    args = ["--board-size", "9", "--cycle-policy", "draw", "--handicap-placement", "free"]
    created = run("event", "create", "--db", db, "--name", "九路", "--system", "round_robin",
                  *args, "--json")  # fmt: skip
    out = json.loads(created)
    settings = out["settings"]
    assert (settings["board_size"], settings["cycle"], settings["handicap_placement"]) == (
        9,
        "draw",
        "free",
    )
    default = json.loads(run("event", "create", "--db", db, "--name", "十九路", "--system",
                             "round_robin", "--json"))["settings"]  # fmt: skip
    assert (default["board_size"], default["cycle"], default["handicap_placement"]) == (
        19,
        "ban",
        "fixed",
    )
    for option, value, field in [
        ("--board-size", "1", "board_size"),
        ("--cycle-policy", "again", "cycle"),
        ("--handicap-placement", "corner", "handicap_placement"),
    ]:
        result = runner.invoke(app, ["event", "create", "--db", db, "--name", "X", "--system",
                                     "round_robin", option, value])  # fmt: skip
        assert isinstance(result.exception, InvalidSetting), (option, result.output)
        assert result.exception.field == field


def test_r_playoff_a_tied_match_is_played_off_from_the_command_line(tmp_path: Path) -> None:
    """R-PLAYOFF (issue #10): ``weiqi round pair`` pairs the playoff game (P1) of a best-of-3
    match drawn 3:3 in an event with no shared places and ties by playoff; its result is
    recorded like any other and the standings show the winner alone in first place."""
    db = str(tmp_path / "match.sqlite3")
    players = tmp_path / "players.csv"
    players.write_text("name,rank\n甲,5d\n乙,5d\n", encoding="utf-8")
    run("event", "create", "--db", db, "--name", "三番棋", "--system", "match", "--best-of", "3",
        "--no-shared-places", "--ties", "playoff")  # fmt: skip
    run("player", "import", "--db", db, str(players))
    for r in (1, 2, 3):
        run("round", "pair", "--db", db)
        run("round", "result", "--db", db, "--round", str(r), "--board", "1", "0")
    tied = json.loads(run("standings", "--db", db, "--json"))
    assert [r["place"] for r in tied] == [1, 1]
    playoff = json.loads(run("round", "pair", "--db", db, "--json"))
    assert playoff["round"] == 4
    black = playoff["pairings"][0]["black"]
    run("round", "result", "--db", db, "--round", "4", "--board", "1", "B+R")
    table = json.loads(run("standings", "--db", db, "--json"))
    assert (table[0]["place"], table[0]["name"]) == (1, black)
    assert [r["place"] for r in table] == [1, 2]
    result = runner.invoke(app, ["round", "pair", "--db", db])
    assert isinstance(result.exception, WeiqiError) and "decided" in result.exception.message


def test_r_fmt_3_a_knockout_final_with_one_player_left_from_the_command_line(
    tmp_path: Path,
) -> None:
    """R-FMT-3 (issue #10): both players of one semi-final lose (BL); ``weiqi round pair``
    then says the knockout is finished instead of pairing an empty final with a bye, and the
    standings show the other semi-final's winner as the champion, alone in first place."""
    db = str(tmp_path / "ko.sqlite3")
    players = tmp_path / "players.csv"
    players.write_text("name,rank\n一,5d\n二,4d\n三,3d\n四,2d\n", encoding="utf-8")
    run("event", "create", "--db", db, "--name", "淘汰赛", "--system", "knockout")
    run("player", "import", "--db", db, str(players))
    first = json.loads(run("round", "pair", "--db", db, "--json"))
    boards = {p["board"]: p for p in first["pairings"]}
    run("round", "result", "--db", db, "--round", "1", "--board", "1", "BL")
    run("round", "result", "--db", db, "--round", "1", "--board", "2", "B+R")
    result = runner.invoke(app, ["round", "pair", "--db", db])
    assert isinstance(result.exception, WeiqiError), result.output
    assert "the knockout is finished" in result.exception.message
    table = json.loads(run("standings", "--db", db, "--json"))
    assert (table[0]["place"], table[0]["name"]) == (1, boards[2]["black"])
    assert [r["place"] for r in table[1:]] == [2, 2, 2]
