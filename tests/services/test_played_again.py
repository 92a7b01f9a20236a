"""A game played again after a confirmed replay ruling (重赛, R-REF-3, R-END-1(d)) or as the
playoff (加赛, R-PLAYOFF) of a knockout game without a winner: its result is recorded on the
same board, after the ruling in the record's history, and the event goes on (R-REF-7)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from weiqi.cli import app
from weiqi.errors import Conflict
from weiqi.i18n import render
from weiqi.services import games
from weiqi.services import tournament as t
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.store.database import Database
from weiqi.tournament.settings import EventSettings, System

LOCAL = Actor.local()


def _event(db: Database, settings: EventSettings, players: int) -> int:
    ev = create_event(db, LOCAL, "重赛杯", settings).id
    names = "\n".join(f"P{i}" for i in range(1, players + 1))
    t.import_players(db, LOCAL, ev, f"name\n{names}\n")
    t.pair_round(db, LOCAL, ev)
    return ev


def test_r_ref_3_the_replays_result_follows_the_replay_ruling(db: Database) -> None:
    """R-REF-3, R-END-1(d): Replay, then the replayed game's result on the same board; the
    history keeps both and the next round pairs."""
    ev = _event(db, EventSettings(system=System.ROUND_ROBIN), 4)
    assert t.record_result(db, LOCAL, ev, 1, 1, "Replay").result == "Replay"
    assert t.record_result(db, LOCAL, ev, 1, 1, "W+R").result == "W+R"
    t.record_result(db, LOCAL, ev, 1, 2, "B+R")
    view = games.game_view(db, ev, 1, 1)
    assert view.confirmed and view.played_again is None
    assert [h.result for h in view.history] == [
        "Replay",
        "Replay",
        "W+R",
    ]
    assert render(view.history[-1].reason, "zh_CN").startswith("重赛结果")
    with pytest.raises(Conflict, match="already confirmed"):  # the replay's result is final
        t.record_result(db, LOCAL, ev, 1, 1, "B+R")
    assert t.pair_round(db, LOCAL, ev).number == 2
    assert sorted(s.points for s in t.event_standings(db, ev)) == [0, 0, 2, 2]


def test_r_ref_3_a_referees_replay_ruling_then_the_result_on_the_page_workflow(
    db: Database,
) -> None:
    """R-REF-3: the chief referee rules a replay; the web workflow's entry (a count) records
    the replayed game's result, confirmed from its sheet; the ruling stays in the record."""
    ev = _event(db, EventSettings(system=System.ROUND_ROBIN), 2)
    games.record_ruling(db, LOCAL, ev, 1, 1, "replay", "the clock failed")
    games.confirm_result(db, LOCAL, ev, 1, 1)
    assert games.game_view(db, ev, 1, 1).played_again == "replay"
    view = games.enter_result(db, LOCAL, ev, 1, 1, "185")  # 185 - 184.25 = B+3/4 stone
    assert view.confirmed and view.result == "B+1.5"
    assert [r.kind for r in view.rulings] == ["replay"]
    assert games.record_json(db, ev, 1, 1) is not None
    assert "重赛" in games.game_sgf(db, ev, 1, 1)


def test_r_score_ind_1_replay_points_still_score_a_replay_without_replaying(
    db: Database,
) -> None:
    """R-SCORE-IND-1: with ``replay_points`` the replay ruling is final and scores."""
    ev = _event(db, EventSettings(system=System.ROUND_ROBIN, replay_points=1), 2)
    t.record_result(db, LOCAL, ev, 1, 1, "Replay")
    assert games.game_view(db, ev, 1, 1).played_again is None
    with pytest.raises(Conflict, match="already confirmed"):
        t.record_result(db, LOCAL, ev, 1, 1, "B+R")
    assert [s.points for s in t.event_standings(db, ev)] == [1, 1]


def test_r_playoff_a_knockout_draw_is_settled_by_a_playoff_on_the_board(db: Database) -> None:
    """R-PLAYOFF: a drawn knockout game gets its playoff's result on the board and the
    bracket advances the playoff's winner."""
    ev = _event(db, EventSettings(system=System.KNOCKOUT), 4)
    first = t.record_result(db, LOCAL, ev, 1, 1, "0")
    t.record_result(db, LOCAL, ev, 1, 2, "B+R")
    with pytest.raises(Conflict, match="playoff"):
        t.pair_round(db, LOCAL, ev)
    assert games.game_view(db, ev, 1, 1).played_again == "playoff"
    assert t.record_result(db, LOCAL, ev, 1, 1, "W+R").result == "W+R"
    view = games.game_view(db, ev, 1, 1)
    assert [h.result for h in view.history][-1] == "W+R"
    assert "加赛结果" in render(view.history[-1].reason, "zh_CN")
    final = t.pair_round(db, LOCAL, ev)
    assert first.white in {final.pairings[0].black, final.pairings[0].white}
    assert first.black not in {final.pairings[0].black, final.pairings[0].white}


def test_r_playoff_a_win_needs_no_playoff(db: Database) -> None:
    """R-PLAYOFF: a decided knockout game's result stays final."""
    ev = _event(db, EventSettings(system=System.KNOCKOUT), 2)
    t.record_result(db, LOCAL, ev, 1, 1, "B+R")
    with pytest.raises(Conflict, match="already confirmed"):
        t.record_result(db, LOCAL, ev, 1, 1, "W+R")


def test_r_ref_3_the_command_line_reproduction(tmp_path: Path) -> None:
    """R-REF-3: the QA reproduction — Replay, then B+R on board 1, then the next round."""
    runner = CliRunner()
    db = str(tmp_path / "r.db")
    players = tmp_path / "ab.csv"
    players.write_text("name\nA\nB\nC\n", encoding="utf-8")

    def run(*args: str) -> str:
        result = runner.invoke(app, list(args))
        assert result.exit_code == 0, result.output
        return result.output

    run("event", "create", "--db", db, "--name", "R", "--system", "round_robin")
    run("player", "import", "--db", db, str(players))
    run("round", "pair", "--db", db)
    run("round", "result", "--db", db, "--round", "1", "--board", "1", "Replay")
    assert "B+R" in run("round", "result", "--db", db, "--round", "1", "--board", "1", "B+R")
    assert "2" in run("round", "pair", "--db", db)
