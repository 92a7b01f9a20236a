"""GTP bots as roster players (issue #11): a small online team event — two teams of two boards,
one round on 9×9 — played by ``weiqi bot`` processes on a real ``weiqi serve`` on SQLite, set up
with the ``weiqi`` commands an organiser's script would run (in this process: the Swiss of
``test_bots.py`` runs them as processes) (R-FMT-1, R-SCORE-TEAM-1, R-END-4, R-TIME-1).

The organiser creates the event with its board size and time control, imports the teams, pairs
the round, seals both lineups and reveals them, and invites each roster player
(``weiqi player invite NAME --team T --json``: the token each bot spends). Each bot finds its
team board through the same API as an individual entrant's (``GET /api/live/games``), plays it
in the team board's room to a result both players confirm, and stops by itself (the event has no
more rounds). The referee confirms the round (``weiqi round confirm``); every board was played
move by move, its SGF downloads from the server, and the match score and the team standings
hold the results.
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from tests.live.bots import GNUGO_1, WEIQI_GTP, start_bot, weiqi_here
from tests.server.conftest import run_server
from weiqi.services import games
from weiqi.services import teams as t
from weiqi.services.games import TeamBoard
from weiqi.store.database import Database

pytestmark = pytest.mark.gnugo

ROSTERS = {"龙队": ("龙一", "龙二"), "虎队": ("虎一", "虎二")}
ENGINES = {"龙一": GNUGO_1, "龙二": WEIQI_GTP, "虎一": GNUGO_1, "虎二": GNUGO_1}


def _wait_for_results(db: str, event_id: int, bots: list[subprocess.Popen[str]]) -> None:
    """Until every board of round 1 has a result (read through the services: a command a
    second would take a core of its own); no bot may fail meanwhile."""
    store = Database(db)
    try:
        deadline = time.monotonic() + 300
        while True:
            boards = [b for m in t.show_round(store, event_id, 1).matches for b in m.boards]
            if boards and all(b.result for b in boards):
                return
            assert time.monotonic() < deadline, boards
            assert all(b.poll() in (None, 0) for b in bots), [b.poll() for b in bots]
            time.sleep(0.5)
    finally:
        store.dispose()


def test_r_fmt_1_an_online_team_event_played_by_gtp_bots_to_the_standings(
    tmp_path: Path,
) -> None:
    db = f"sqlite:///{tmp_path / 'teams.sqlite3'}"
    created = json.loads(
        weiqi_here("event", "create", "--db", db, "--kind", "team", "--name", "团体机器人赛",
              "--system", "round_robin", "--boards", "2", "--size", "9", "--play", "online",
              "--time", "1m incl 3x10s", "--json")
    )  # fmt: skip
    assert created["settings"]["board_size"] == 9 and created["settings"]["play"] == "online"
    event_id = created["id"]
    csv = tmp_path / "teams.csv"
    csv.write_text(
        "team,name,rank\n"
        + "".join(f"{team},{p},{i}d\n" for team, ps in ROSTERS.items() for i, p in enumerate(ps, 1))
    )
    weiqi_here("team", "import", "--db", db, str(csv))
    weiqi_here("round", "pair", "--db", db)
    for team, players in ROSTERS.items():
        weiqi_here("team", "lineup", "--db", db, "--round", "1", "--team", team, ",".join(players))
    weiqi_here("round", "reveal", "--db", db, "--round", "1")
    tokens = {}
    for team, players in ROSTERS.items():
        for name in players:
            made = json.loads(
                weiqi_here("player", "invite", "--db", db, name, "--team", team, "--json")
            )
            assert (made["name"], made["team"]) == (name, team) and len(made["token"]) == 14
            tokens[name] = made["token"]
    with run_server(tmp_path, db) as server:
        logs = {name: (tmp_path / f"{i}.log").open("w") for i, name in enumerate(ENGINES)}
        bots = {
            name: start_bot(server.url, tokens[name], engine, logs[name])
            for name, engine in ENGINES.items()
        }
        try:
            _wait_for_results(db, event_id, list(bots.values()))
            for name, bot in bots.items():  # each stops by itself: no more rounds
                out, _ = bot.communicate(timeout=60)
                assert bot.returncode == 0, (name, (tmp_path / "0.log").read_text()[-2000:])
                assert out.strip() == "1 game(s) played", (name, out)
        finally:
            for bot in bots.values():
                if bot.poll() is None:
                    bot.kill()
                    bot.wait()
            for f in logs.values():
                f.close()
        confirmed = weiqi_here("round", "confirm", "--db", db, "--round", "1")
        assert confirmed.count("confirmed") == 2, confirmed
        store = Database(db)
        try:
            (match,) = t.show_round(store, event_id, 1).matches
            for b in match.boards:
                assert b.confirmed and b.result, b
                view = games.game_view(store, event_id, 1, TeamBoard(match.number, b.board))
                assert view.seq > 20 and view.move_number > 10, view  # played, not entered
                sgf = httpx.get(
                    f"{server.url}/events/{event_id}/rounds/1/matches/{match.number}"
                    f"/boards/{b.board}/sgf"
                )
                assert sgf.status_code == 200 and sgf.text.count(";B[") > 5, sgf.text[:200]
                assert "SZ[9]" in sgf.text
            assert match.game_points is not None and sum(match.game_points) > 0
        finally:
            store.dispose()
    standings = json.loads(weiqi_here("standings", "--db", db, "--json"))
    rows = standings if isinstance(standings, list) else standings["standings"]
    assert {r["team"] for r in rows} == set(ROSTERS)
    assert all(r["played"] == 1 for r in rows), rows
    assert sum(r["game_points"] for r in rows) == sum(match.game_points)
