"""GTP bots as entrants (issue #11): a whole online Swiss played by ``weiqi bot`` processes on a
real ``weiqi serve``, everything set up and run from the command line as an organiser's script
would (R-PLAY-1, R-END-1, R-END-3, R-END-4, R-TIME-2, R-RANK-SWISS).

GNU Go at levels 1 and 3 and ``weiqi gtp`` (our weak player) play four entrants of a 2-round
Swiss on 9×9 under "1m incl 3x10s" (Chinese byo-yomi: 30 s main time and 3 × 10 s), on
PostgreSQL with every command a process of its own, and on SQLite with the same commands run in
this process (``weiqi_here``: a command's start is about 1 s on the shared cores). The
organiser invites each entrant (``weiqi player invite --json``: the token each bot spends),
pairs and publishes the rounds, watches them with ``weiqi round show --json`` and confirms the
results the players confirmed (``weiqi round confirm``). Every game must end with a confirmed
result, every stored record must verify (hash chain, every event replayed by the rules), every
game's SGF from the server must replay legally, and the standings must hold all four with two
games each; each bot exits by itself when the event has no more rounds for it.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.live.bots import GNUGO_1, GNUGO_3, WEIQI_GTP, players_csv, start_bot, weiqi, weiqi_here
from tests.server.conftest import LiveServer, run_server
from tests.store.conftest import postgres_schema
from weiqi.services.live_bot import board_states
from weiqi.store.database import Database

pytestmark = pytest.mark.gnugo

ENGINES = {"GNU Go 1": GNUGO_1, "GNU Go 3": GNUGO_3, "weiqi": WEIQI_GTP, "GNU Go 1b": GNUGO_1}
Weiqi = Callable[..., str]


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def bot_event(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[LiveServer, str, Weiqi]]:
    """The event created from the command line, then the server started on its database (a
    new PostgreSQL schema, the commands run as processes; or a SQLite file, the commands run in
    this process); how the test runs a command."""
    workdir = tmp_path_factory.mktemp("bots")
    with ExitStack() as stack:
        if request.param == "postgres":
            db, run = stack.enter_context(postgres_schema()), weiqi
        else:
            db, run = f"sqlite:///{workdir / 'weiqi.sqlite3'}", weiqi_here
        server, _ = stack.enter_context(_served_event(workdir, db, run))
        yield server, db, run


@contextmanager
def _served_event(workdir: Path, db: str, weiqi: Weiqi) -> Iterator[tuple[LiveServer, str]]:
    created = json.loads(
        weiqi("event", "create", "--db", db, "--name", "机器人网络赛", "--system", "swiss",
              "--play", "online", "--rounds", "2", "--size", "9", "--time", "1m incl 3x10s",
              "--json")
    )  # fmt: skip
    assert (
        created["settings"]["board_size"] == 9
        and created["settings"]["time_control"] == "30s+3x10s"
    )
    weiqi("player", "import", "--db", db, str(players_csv(workdir / "p.csv", list(ENGINES))))
    with run_server(workdir, db) as server:
        yield server, db


def _round(weiqi: Weiqi, db: str, number: int) -> dict[str, Any]:
    shown: dict[str, Any] = json.loads(weiqi("round", "show", "--db", db, "--round", str(number),
                                             "--json"))  # fmt: skip
    return shown


def _wait_for_results(
    weiqi: Weiqi, db: str, event_id: int, number: int, bots: list[subprocess.Popen[str]]
) -> dict[str, Any]:
    """The round (``weiqi round show --json``) once every board has a result, watched through
    the services meanwhile (a command a second would take a core of its own); no bot may fail
    meanwhile (one whose last game is over has stopped by itself)."""
    store = Database(db)
    try:
        deadline = time.monotonic() + 240
        while not all(
            b["phase"] == "finished" for b in board_states(store, event_id, number).values()
        ):
            assert time.monotonic() < deadline, board_states(store, event_id, number)
            assert all(b.poll() in (None, 0) for b in bots), [b.poll() for b in bots]
            time.sleep(0.5)
    finally:
        store.dispose()
    return _round(weiqi, db, number)


def test_r_play_1_an_online_swiss_played_by_gtp_bots_to_confirmed_results(
    bot_event: tuple[LiveServer, str, Weiqi], tmp_path: Path
) -> None:
    server, db, weiqi = bot_event
    event_id = json.loads(weiqi("event", "show", "--db", db, "--json"))["id"]
    tokens = {}
    for name in ENGINES:
        made = json.loads(weiqi("player", "invite", "--db", db, name, "--json"))
        assert made["name"] == name and len(made["token"]) == 14
        tokens[name] = made["token"]
    weiqi("round", "pair", "--db", db)
    assert "published" in weiqi("round", "publish", "--db", db, "--round", "1")
    logs = {name: (tmp_path / f"{i}.log").open("w") for i, name in enumerate(ENGINES)}
    bots = {
        name: start_bot(server.url, tokens[name], engine, logs[name])
        for name, engine in ENGINES.items()
    }
    try:
        first = _round(weiqi, db, 1)
        assert {p["phase"] for p in first["pairings"]} <= {"not_started", "playing"}
        for number in (1, 2):
            shown = _wait_for_results(weiqi, db, event_id, number, list(bots.values()))
            assert all(p["phase"] == "finished" for p in shown["pairings"]), shown
            confirmed = weiqi("round", "confirm", "--db", db, "--round", str(number))
            assert confirmed.count("confirmed") == len(shown["pairings"]) == 2
            if number == 1:
                weiqi("round", "pair", "--db", db)
                weiqi("round", "publish", "--db", db, "--round", "2")
        for name, bot in bots.items():  # each stops by itself: the event has no more rounds
            out, _ = bot.communicate(timeout=30)
            assert bot.returncode == 0, name
            assert out.strip() == "2 game(s) played", (name, out)
    finally:
        for bot in bots.values():
            if bot.poll() is None:
                bot.kill()
                bot.wait()
        for f in logs.values():
            f.close()
    games = []
    for number in (1, 2):
        for p in _round(weiqi, db, number)["pairings"]:
            assert p["confirmed"] and p["phase"] == "confirmed", p
            assert p["events"] > 20, p  # played move by move, not entered
            games.append((number, p))
            sgf = httpx.get(
                f"{server.url}/events/{event_id}/rounds/{number}/boards/{p['board']}/sgf"
            )
            assert sgf.status_code == 200
            (tmp_path / f"r{number}b{p['board']}.sgf").write_text(sgf.text)
            assert f"RE[{p['result']}]" in sgf.text
    # Every record replays by the rules (hash chain, every event, the stored result) …
    assert "4 of 4 stored records and boards verify" in weiqi("record", "check", "--db", db)
    # … and so does its SGF, every game: where play resumed after a dispute with the claimant
    # to move (R-END-3), who may have passed last, the turn is given in a node of its own (PL)
    files = [str(tmp_path / f) for f in sorted(os.listdir(tmp_path)) if f.endswith(".sgf")]
    replayed = [json.loads(line) for line in weiqi("check", *files, "--json").splitlines()]
    assert len(replayed) == len(files) == 4 and all(c["legal"] for c in replayed), replayed
    standings = json.loads(weiqi("standings", "--db", db, "--json"))
    assert sorted(s["name"] for s in standings) == sorted(ENGINES)
    assert sum(s["points"] for s in standings) == 2 * len(games)  # 2 a win, 1 each a jigo
    met = {(p["black"], p["white"]) for _, p in games}
    for name in ENGINES:  # two games each, two different opponents (a Swiss)
        opponents = [w if b == name else b for b, w in met if name in (b, w)]
        assert len(opponents) == len(set(opponents)) == 2, (name, met)
