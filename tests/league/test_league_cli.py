"""``weiqi league …`` and ``weiqi draft …`` on an SQLite file: a small season from CSV (甲 with
4 clubs, 乙 with 2), lineups with a foreign limit, the table, relegation and the draft."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from weiqi.cli import app
from weiqi.errors import WeiqiError

runner = CliRunner()
pytestmark = pytest.mark.usefixtures("one_command_tree")


def run(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, (args, result.output, result.exception)
    return result.output


def refused(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert isinstance(result.exception, WeiqiError), (args, result.output)
    return result.exception.message


def clubs_csv(path: Path, clubs: str) -> str:
    """Three players a club, the third Korean (foreign with --home-nationality CN)."""
    rows = [f"{c},{c}{i},{9 - i}p,{'KR' if i == 3 else 'CN'}" for c in clubs for i in range(1, 4)]
    path.write_text("team,name,rank,nationality\n" + "\n".join(rows), encoding="utf-8")
    return str(path)


def test_r_league_1_r_league_2_a_small_season_from_the_command_line(tmp_path: Path) -> None:
    db = str(tmp_path / "league.sqlite3")
    jia = clubs_csv(tmp_path / "jia.csv", "ABCD")
    yi = clubs_csv(tmp_path / "yi.csv", "EF")
    created = json.loads(run(
        "league", "create", "--db", db, "--name", "2026", "--division", f"甲={jia}",
        "--division", f"乙={yi}", "--start", "2026-03-07", "--boards", "2", "--min-roster", "2",
        "--max-roster", "4", "--max-foreign", "0", "--promoted", "1", "--relegated", "1",
        "--home-nationality", "CN", "--json",
    ))  # fmt: skip
    assert [(d["division"], d["clubs"], d["rounds"]) for d in created["divisions"]] == [
        ("甲", 4, 6), ("乙", 2, 2)]  # fmt: skip
    calendar = json.loads(run("league", "calendar", "--db", db, "--json"))
    assert [r["date"] for r in calendar] == [
        "2026-03-07", "2026-03-14", "2026-03-21", "2026-03-28", "2026-04-04",
        "2026-04-11"]  # fmt: skip
    assert "赛程" in run("league", "calendar", "--db", db, "--division", "乙")
    assert "foreign" in refused("league", "lineup", "--db", db, "--round", "1", "--club", "A",
                                "A1,A3")  # fmt: skip
    # every round: club X fields X1, X2; the earlier club in the alphabet wins both boards
    for division, rounds in (("甲", calendar), ("乙", [{"round": 1}, {"round": 2}])):
        for r in rounds:
            shown = json.loads(run("round", "show", "--db", db, "--event",
                                   str(created["divisions"][0 if division == "甲" else 1]["event"]),
                                   "--round", str(r["round"]), "--json"))  # fmt: skip
            for m in shown["matches"]:
                for club in (m["home"], m["away"]):
                    run("league", "lineup", "--db", db, "--division", division, "--round",
                        str(r["round"]), "--club", club, f"{club}1,{club}2")  # fmt: skip
            seated = json.loads(run("league", "reveal", "--db", db, "--division", division,
                                    "--round", str(r["round"]), "--json"))  # fmt: skip
            lines = ["club,board,result"]
            for m in seated["matches"]:
                home_wins = m["home"] < m["away"]
                for b in m["boards"]:
                    black_wins = (b["home_color"] == "B") == home_wins
                    lines.append(f"{m['home']},{b['board']},{'B+R' if black_wins else 'W+R'}")
            results = tmp_path / "results.csv"
            results.write_text("\n".join(lines), encoding="utf-8")
            run("league", "results", "--db", db, "--division", division, "--round",
                str(r["round"]), str(results))  # fmt: skip
    assert "is confirmed; only the chief referee" in refused(
        "league", "result", "--db", db, "--round", "1", "--club", "A", "--board", "1",
        "B+R")  # fmt: skip
    table = json.loads(run("league", "table", "--db", db, "--json"))
    # by hand: A beats everybody twice (6 wins, 12 MP, 24 GP) … D loses all
    assert [(r["team"], r["match_points"], r["game_points"]) for r in table] == [
        ("A", 12, 24), ("B", 8, 16), ("C", 4, 8), ("D", 0, 0)]  # fmt: skip
    assert "积分榜" in run("league", "table", "--db", db, "--division", "乙")
    end = json.loads(run("league", "close-season", "--db", db, "--json"))
    assert end["next"] == {"甲": ["A", "B", "C", "E"], "乙": ["D", "F"]}

    draft = json.loads(run("draft", "start", "--db", db, "--base", "2", "--json"))
    # reverse combined standing (A B C D E F) among next season's 甲: E, C, B, A
    assert draft["order"] == ["E", "C", "B", "A"]
    for club in "ABCDEF":
        run("draft", "protect", "--db", db, "--club", club, f"{club}1,{club}2")
    assert "E picks A3 (from A)" in run("draft", "pick", "--db", db, "--club", "E", "A3")
    assert "not E's" in refused("draft", "pass", "--db", db, "--club", "E")
    for club in "CBA":
        run("draft", "pass", "--db", db, "--club", club)
    for club in "ECBA":
        run("draft", "pass", "--db", db, "--club", club)
    shown = json.loads(run("draft", "show", "--db", db, "--json"))
    assert shown["finished"] and len(shown["log"]) == 8
    assert shown["rosters"]["E"] == ["E1", "E2", "A3", "E3"]
    assert "摘牌结束" in run("draft", "show", "--db", db)


def test_a_season_played_online_gives_its_divisions_the_play_settings(tmp_path: Path) -> None:
    """``league create --play online --game-start round_start --size 13 --lag 0.5/2 --komi 7/2
    --cycle-policy draw --time …``: every division's team event is played online in the game
    room, on 13×13, starting at its round's start time, with that lag allowance, komi
    (R-SCORE-3), repetition rule (R-KO-2) and time control; a season made without them (or
    stored before they existed) plays over the board on 19×19 with the rules' 3¾ and ban,
    untimed."""
    from weiqi.services.league import season_settings_from_dict
    from weiqi.services.teams import event_row, settings_of
    from weiqi.store.database import Database
    from weiqi.store.teams import LeagueDivisionRow
    from weiqi.tournament.settings import GameStart, PlayMode

    db = str(tmp_path / "league.sqlite3")
    jia = clubs_csv(tmp_path / "jia.csv", "ABCD")
    made = json.loads(run("league", "create", "--db", db, "--name", "2027", "--division",
                          f"甲={jia}", "--start", "2027-03-06", "--boards", "2", "--min-roster",
                          "2", "--play", "online", "--game-start", "round_start", "--size",
                          "13", "--lag", "0.5/2", "--komi", "7/2", "--cycle-policy", "draw",
                          "--time", "1h incl 5x60s", "--json"))  # fmt: skip
    assert made["divisions"]
    with Database(f"sqlite:///{db}").transaction() as session:
        divisions = session.query(LeagueDivisionRow).all()
        assert divisions and all(d.season_id == made["id"] for d in divisions)
        for division in divisions:
            s = settings_of(event_row(session, division.event_id))
            assert s.online and s.play is PlayMode.ONLINE
            assert s.game_start is GameStart.ROUND_START and s.board_size == 13
            assert s.lag is not None and (s.lag.gain, s.lag.cap) == (0.5, 2.0)
            assert (s.ruleset.komi, s.ruleset.cycle.value) == (Fraction(7, 2), "draw")
            assert s.time_control is not None and s.time_control.format() == "55m+5x60s"
    assert "--play" in refused("league", "create", "--db", str(tmp_path / "x.sqlite3"),
                               "--name", "2028", "--division", f"甲={jia}", "--start",
                               "2028-03-04", "--play", "internet")  # fmt: skip
    old = season_settings_from_dict({"boards": 4})  # a season stored before play settings
    assert old.play is PlayMode.BOARD and old.board_size == 19
    assert old.division.ruleset.komi == Fraction(15, 4) and old.cycle.value == "ban"
    assert old.time_control is None
