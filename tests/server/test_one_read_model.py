"""Issue #10, "one read model per view, shared by the JSON API, the templates and ``--json`` of
the command line, so the three cannot drift": the API's round and standings and the command
line's ``round show --json`` and ``standings --json`` of the same event are the same JSON, key
for key and value for value, because both print what one function of ``services.public``
builds (``services.read_models``)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.cli.contracts import weiqi
from tests.server.public_pages import small_swiss
from weiqi.league.settings import TeamEventSettings
from weiqi.server.app import create_app
from weiqi.services import read_models
from weiqi.services.events import create_event
from weiqi.services.read_models import (
    EventRead,
    PairingRead,
    PlayerRead,
    RoundRead,
    StandingRead,
    StandingsRead,
    TieBreakRead,
)
from weiqi.store.database import Database


@pytest.fixture
def swiss(tmp_path: Path) -> tuple[str, int]:
    """A Swiss of nine players (a bye each round), three rounds played and public, in an
    SQLite file the command line opens with ``--db``."""
    path = tmp_path / "e.sqlite3"
    db = Database(f"sqlite:///{path}")
    db.upgrade()
    names = ["张伟", "王磊", "李昊", "古力", "常昊", "Alice", "Bob", "Carol", "Dan"]
    ev = small_swiss(db, players=9, rounds=3, names=names)
    return str(path), ev


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> object:
    run = weiqi(capsys, *args, "--json")
    assert run.code == 0, run.err
    return json.loads(run.out)


def test_the_api_round_and_standings_equal_the_command_line_json(
    swiss: tuple[str, int], capsys: pytest.CaptureFixture[str]
) -> None:
    path, ev = swiss
    with TestClient(create_app(Database(f"sqlite:///{path}"), secret_key="t")) as web:
        for number in (1, 2, 3):
            api = web.get(f"/api/events/{ev}/rounds/{number}").json()
            cli = _cli(capsys, "round", "show", "--db", path, "--event", str(ev),
                       "--round", str(number))  # fmt: skip
            assert api == cli
            assert list(api) == [f.name for f in dataclasses.fields(RoundRead)]
            assert len(api["pairings"]) == 4 and api["bye"] is not None
        table = web.get(f"/api/events/{ev}/standings").json()
        summary = web.get(f"/api/events/{ev}/overview").json()
    assert summary == _cli(capsys, "event", "show", "--db", path, "--event", str(ev))
    assert list(summary) == [f.name for f in dataclasses.fields(EventRead)]
    assert (summary["rounds_paired"], summary["current_round"], summary["entrants"]) == (3, 3, 9)
    # weiqi standings --json prints the rows (issue #5: a list in place order), read from the
    # SQLite file without SQLAlchemy: the same rows as the API's
    rows = _cli(capsys, "standings", "--db", path, "--event", str(ev))
    assert rows == table["rows"] and len(rows) == 9
    assert list(table) == [f.name for f in dataclasses.fields(StandingsRead)]
    assert {r["label"] for r in rows} == {"张伟", "王磊", "李昊", "古力", "常昊", "Alice", "Bob",
                                          "Carol", "Dan"}  # fmt: skip
    assert [r["place"] for r in rows] == sorted(r["place"] for r in rows)


def _player(n: int) -> PlayerRead:
    return PlayerRead(n, f"P{n}", f"P{n} (X)", "5d", "X", "CN", None)


def test_both_print_what_one_function_builds(
    swiss: tuple[str, int], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever the one builder answers — here a round and standings no event has — the API
    and the command line give it whole: a field added to the model reaches both, and neither
    can add one of its own."""
    path, ev = swiss
    won = read_models.ResultRead("W+R", "W+R", "白中盘胜", "White wins by resignation")
    pairing = PairingRead(7, "P1 (X)", "P2 (X)", "W+R", 2, "0", "G1", True, "confirmed", 9,
                          _player(1), _player(2), won)  # fmt: skip
    made = RoundRead(42, [pairing], "P3 (X)", ["P3 (X)"], [_player(3)], 1, 1234, "Made")
    row = StandingRead(1, "P1", "P1 (X)", 6, {"SOS": 3.5}, True, False, True, _player(1))
    sheet = StandingsRead("Made", 3, [TieBreakRead("SOS", "对手分", "SOS")], [row], [_player(4)])

    def round_read(*args: object, **kwargs: object) -> RoundRead:
        return made

    def standings_read(*args: object, **kwargs: object) -> StandingsRead:
        return sheet

    monkeypatch.setattr(read_models, "round_read", round_read)
    monkeypatch.setattr(read_models, "standings_read", standings_read)
    with TestClient(create_app(Database(f"sqlite:///{path}"), secret_key="t")) as web:
        api_round = web.get(f"/api/events/{ev}/rounds/1").json()
        api_table = web.get(f"/api/events/{ev}/standings").json()
    cli_round = _cli(capsys, "round", "show", "--db", path, "--round", "1")
    cli_rows = _cli(capsys, "standings", "--db", path)
    assert api_round == cli_round == json.loads(json.dumps(read_models.as_json(made)))
    assert api_table == json.loads(json.dumps(read_models.as_json(sheet)))
    assert cli_rows == api_table["rows"]


def test_the_organisers_command_line_reads_an_unpublished_round_the_public_cannot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same model, two audiences: the public API answers only public rounds; the command
    line (the organiser's, on the event's own file) shows the round being prepared too."""
    from tests.server.public_pages import play_round
    from weiqi.services.actor import Actor
    from weiqi.services.event_admin import publish_round

    path = tmp_path / "e.sqlite3"
    db = Database(f"sqlite:///{path}")
    db.upgrade()
    ev = small_swiss(db, players=4, rounds=2, played=1)

    def decide(_round: int, black: str, white: str) -> str:
        return "B+R"

    play_round(db, ev, decide)
    publish_round(db, Actor.local(), ev, 2, published=False)
    with TestClient(create_app(db, secret_key="t")) as web:
        assert web.get(f"/api/events/{ev}/rounds/2").status_code == 404
        assert web.get(f"/api/events/{ev}/standings").json()["rounds"] == 1
    shown = _cli(capsys, "round", "show", "--db", str(path))
    assert isinstance(shown, dict) and shown["round"] == 2 and len(shown["pairings"]) == 2


def test_a_team_events_api_round_and_standings_equal_the_command_line_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same for a team event: its round (matches, boards once revealed, lineups) and its
    standings, built through the services, are one object for the API and ``--json``."""
    from weiqi.services.actor import Actor
    from weiqi.services.read_models import MatchRead, TeamRoundRead, TeamStandingRead
    from weiqi.services.teams import (
        import_teams,
        pair_round,
        record_board_result,
        reveal_round,
        submit_lineup,
    )

    local = Actor.local()
    path = tmp_path / "t.sqlite3"
    db = Database(f"sqlite:///{path}")
    db.upgrade()
    ev = create_event(db, local, "杯", TeamEventSettings(boards=2, max_foreign=0)).id
    import_teams(db, local, ev, "team,name,rank\nA,A1,5p\nA,A2,5p\nB,B1,5p\nB,B2,5p\n"
                 "C,C1,4p\nC,C2,4p\n")  # fmt: skip
    pair_round(db, local, ev)
    rnd = _cli(capsys, "round", "show", "--db", str(path))
    assert isinstance(rnd, dict)
    for m in rnd["matches"]:
        for team in (m["home"], m["away"]):
            submit_lineup(db, local, ev, 1, team, [f"{team}1", f"{team}2"])
    reveal_round(db, local, ev, 1)
    playing = next(m for m in rnd["matches"])
    for board in (1, 2):
        record_board_result(db, local, ev, 1, playing["home"], board, "B+R")
    with TestClient(create_app(db, secret_key="t")) as web:
        api_round = web.get(f"/api/events/{ev}/rounds/1").json()
        api_table = web.get(f"/api/events/{ev}/standings").json()
        api_summary = web.get(f"/api/events/{ev}/overview").json()
    cli_round = _cli(capsys, "round", "show", "--db", str(path), "--round", "1")
    cli_table = _cli(capsys, "standings", "--db", str(path))
    assert api_round == cli_round and api_table == cli_table
    assert list(api_round) == [f.name for f in dataclasses.fields(TeamRoundRead)]
    assert list(api_round["matches"][0]) == [f.name for f in dataclasses.fields(MatchRead)]
    assert [b["result"] for b in api_round["matches"][0]["boards"]] == ["B+R", "B+R"]
    assert api_round["bye"] is not None  # three teams: one rests
    assert [list(r) for r in api_table] == [
        [f.name for f in dataclasses.fields(TeamStandingRead)]
    ] * 3
    # the event's summary: the individual event's object (one shape for both kinds), its
    # entrants the teams, ranked by the ranking's codes, the round robin's three rounds planned
    summary = _cli(capsys, "event", "show", "--db", str(path))
    assert api_summary == summary
    assert list(summary) == [f.name for f in dataclasses.fields(EventRead)]
    assert (summary["kind"], summary["system"], summary["system_zh"]) == ("team", "round_robin",
                                                                         "循环制")  # fmt: skip
    assert [t["code"] for t in summary["tiebreaks"]] == ["MP", "GP", "B1", "B2"]
    assert summary["tiebreaks"][2] == {"code": "B1", "zh": "第1台", "en": "Board 1"}
    assert (summary["entrants"], summary["rounds_planned"], summary["current_round"]) == (3, 3, 1)
    assert summary["rounds"] == [{"number": 1, "games": 1, "finished": 1, "byes": 1}]
    assert summary["settings"]["boards"] == 2
