"""Editing, deleting and reinstating the players of an individual event: services, pages in
Chinese, the JSON API and the command line (R-ORG-1, R-WD-1)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from tests.server.test_event_admin_pages import admin, create
from tests.server.test_event_admin_services import players_csv, swiss, user
from weiqi.cli import app
from weiqi.errors import Conflict, FieldsRejected, PermissionDenied
from weiqi.services import event_admin, tournament
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.store.database import Database
from weiqi.tournament.settings import EventSettings, System

LOCAL = Actor.local()


def first(db: Database, event_id: int) -> event_admin.PlayerView:
    return event_admin.dashboard(db, LOCAL, event_id).players[0]


def test_a_renamed_player_keeps_results_and_records(database: Database) -> None:
    """Games point at the player's id: after a rename every round, result and standing shows
    the new name, and the old one is gone."""
    event_id = swiss(database, players=8)
    p = first(database, event_id)
    event_admin.pair_next_round(database, LOCAL, event_id)
    board = next(
        g
        for g in tournament.show_round(database, event_id, 1).pairings
        if p.name in (g.black, g.white)
    )
    tournament.record_result(database, LOCAL, event_id, 1, board.board, "B+R")
    done = event_admin.edit_player(
        database, LOCAL, event_id, p.id, "李明", "3段", "2100", "天津棋院", "中国", "1999-05-06"
    )
    assert (done.name, done.rank, done.rating, done.club, done.country) == (
        "李明",
        "3d",
        2100.0,
        "天津棋院",
        "中国",
    )
    assert str(done.birth_date) == "1999-05-06"
    after = next(
        g for g in tournament.show_round(database, event_id, 1).pairings if g.board == board.board
    )
    assert "李明" in (after.black, after.white) and p.name not in (after.black, after.white)
    assert after.result == "B+R"
    names = [s.name for s in tournament.event_standings(database, event_id)]
    assert "李明" in names and p.name not in names


def test_editing_reports_every_bad_field_and_a_taken_name(database: Database) -> None:
    """Issue #13: a name taken by another player with the same club, birth date and licence
    is refused (the same player twice); a namesake of another club is not."""
    event_id = swiss(database, players=4)
    p, q = event_admin.dashboard(database, LOCAL, event_id).players[:2]
    with pytest.raises(FieldsRejected) as err:
        event_admin.edit_player(database, LOCAL, event_id, p.id, "", "12d", "abc", birth_date="1.2")
    assert list(err.value.problems) == ["name", "rank", "rating", "birth_date"]
    with pytest.raises(FieldsRejected) as err:
        event_admin.edit_player(database, LOCAL, event_id, p.id, q.name, club=q.club)
    assert list(err.value.problems) == ["name"]
    assert first(database, event_id) == p  # nothing changed
    with pytest.raises(PermissionDenied):
        event_admin.edit_player(database, user(database, "wang"), event_id, p.id, "x")


def test_delete_only_before_round_1(database: Database) -> None:
    event_id = swiss(database, players=5)
    p = first(database, event_id)
    assert event_admin.delete_player(database, LOCAL, event_id, p.id) == p.name
    assert len(event_admin.dashboard(database, LOCAL, event_id).players) == 4
    event_admin.pair_next_round(database, LOCAL, event_id)
    q = first(database, event_id)
    with pytest.raises(Conflict) as err:
        event_admin.delete_player(database, LOCAL, event_id, q.id)
    assert "Withdraw the player instead" in err.value.msg.id
    assert len(event_admin.dashboard(database, LOCAL, event_id).players) == 4


def test_r_wd_1_reinstate_only_before_the_next_round_is_paired(database: Database) -> None:
    """R-WD-1 undone: a player withdrawn after round 1 and reinstated before round 2 is
    paired in round 2; once round 2 is paired without them, the withdrawal stands."""
    event_id = swiss(database, players=8)
    event_admin.pair_next_round(database, LOCAL, event_id)
    p, q = event_admin.dashboard(database, LOCAL, event_id).players[:2]
    event_admin.withdraw(database, LOCAL, event_id, p.name)
    back = event_admin.reinstate(database, LOCAL, event_id, p.id)
    assert (back.from_round, back.consequence) == (2, event_admin.REINSTATED)
    with pytest.raises(Conflict):
        event_admin.reinstate(database, LOCAL, event_id, p.id)  # not withdrawn any more
    for g in tournament.show_round(database, event_id, 1).pairings:
        tournament.record_result(database, LOCAL, event_id, 1, g.board, "B+R")
    event_admin.withdraw(database, LOCAL, event_id, q.name)
    round2 = event_admin.pair_next_round(database, LOCAL, event_id)
    playing = {n for g in round2.pairings for n in (g.black, g.white)} | set(round2.byes)
    assert p.name in playing and q.name not in playing
    with pytest.raises(Conflict) as err:
        event_admin.reinstate(database, LOCAL, event_id, q.id)
    assert err.value.msg.args["paired"] == 2


def test_r_wd_1_reinstating_a_round_robin_player_restores_the_voided_results(
    database: Database,
) -> None:
    """R-WD-1: fewer than half the games played voids them; reinstated, they count again."""
    rr = create_event(database, LOCAL, "循环赛", EventSettings(System.ROUND_ROBIN))
    event_admin.import_players(database, LOCAL, rr.id, players_csv(6))
    event_admin.pair_next_round(database, LOCAL, rr.id)
    for g in tournament.show_round(database, rr.id, 1).pairings:
        tournament.record_result(database, LOCAL, rr.id, 1, g.board, "B+R")
    winner = tournament.show_round(database, rr.id, 1).pairings[0].black
    pid = event_admin.player_named(database, rr.id, winner)
    points = {s.name: s.points for s in tournament.event_standings(database, rr.id)}
    event_admin.withdraw(database, LOCAL, rr.id, winner)
    event_admin.reinstate(database, LOCAL, rr.id, pid)
    assert {s.name: s.points for s in tournament.event_standings(database, rr.id)} == points


def test_the_edit_page_in_chinese(client: TestClient, database: Database) -> None:
    """Errors next to their field with the input kept; a rename redirects to the list."""
    token = admin(client)
    event_id = create(client, token)
    event_admin.import_players(database, LOCAL, event_id, players_csv(4))
    p = first(database, event_id)
    manage = client.get(f"/events/{event_id}/manage").text
    assert f"/events/{event_id}/manage/players/{p.id}" in manage and "编辑" in manage
    assert "在下一轮编排之前，可以恢复该棋手参赛。" in manage  # the withdraw dialog
    page = client.get(f"/events/{event_id}/manage/players/{p.id}").text
    assert "编辑棋手" in page and f'value="{p.name}"' in page and 'value="业余5段"' in page
    form = {"name": "张伟", "rank": "12d", "rating": "abc", "club": "北京棋院", "country": "",
            "birth_date": "", "csrf_token": token}  # fmt: skip
    bad = client.post(f"/events/{event_id}/manage/players/{p.id}", data=form)
    assert bad.status_code == 422
    assert (
        "未保存" in bad.text and 'id="error-rank"' in bad.text and 'id="error-rating"' in bad.text
    )
    assert 'value="张伟"' in bad.text and 'value="abc"' in bad.text
    good = client.post(
        f"/events/{event_id}/manage/players/{p.id}", data={**form, "rank": "2段", "rating": "2000"}
    )
    assert good.status_code == 200 and "张伟 的信息已保存。" in good.text
    assert first(database, event_id).name == "张伟"
    gone = client.post(
        f"/events/{event_id}/manage/players/{p.id}/delete", data={"csrf_token": token}
    )
    assert "已删除 张伟。" in gone.text


def test_delete_and_reinstate_pages_say_why(client: TestClient, database: Database) -> None:
    """R-WD-1: after round 1 deletion is refused with a pointer to withdrawal; a withdrawn
    player is reinstated until the next round is paired."""
    token = admin(client)
    event_id = create(client, token)
    event_admin.import_players(database, LOCAL, event_id, players_csv(6))
    event_admin.pair_next_round(database, LOCAL, event_id)
    p = first(database, event_id)
    page = client.get(f"/events/{event_id}/manage/players/{p.id}").text
    assert "第1轮已编排：棋手不能再删除，只能退赛。" in page and "delete-player" not in page
    refused = client.post(
        f"/events/{event_id}/manage/players/{p.id}/delete", data={"csrf_token": token}
    )
    assert refused.status_code == 200 and "请改为办理退赛" in refused.text
    client.post(f"/events/{event_id}/manage/players/{p.id}/withdraw", data={"csrf_token": token})
    back = client.post(
        f"/events/{event_id}/manage/players/{p.id}/reinstate", data={"csrf_token": token}
    )
    assert f"已恢复 {p.name} 参赛。 未缺赛任何一轮" in back.text
    assert first(database, event_id).withdrawn_after is None


def test_the_api_edits_deletes_and_reinstates(client: TestClient, database: Database) -> None:
    token = admin(client)
    h = {"X-CSRF-Token": token}
    event_id = create(client, token)
    event_admin.import_players(database, LOCAL, event_id, players_csv(4))
    p, q = event_admin.dashboard(database, LOCAL, event_id).players[:2]
    body = {
        "name": "李明",
        "rank": "3段",
        "rating": 2100,
        "club": "天津",
        "birth_date": "2001-02-03",
    }
    put = client.put(f"/api/events/{event_id}/players/{p.id}", json=body, headers=h)
    assert put.status_code == 200 and put.json()["rank"] == "3d" and put.json()["name"] == "李明"
    clash = client.put(f"/api/events/{event_id}/players/{q.id}", json=body, headers=h)
    assert clash.status_code == 409 and clash.json()["code"] == "%(field)s: %(reason)s"
    assert client.delete(f"/api/events/{event_id}/players/{q.id}", headers=h).status_code == 204
    event_admin.pair_next_round(database, LOCAL, event_id)
    assert client.delete(f"/api/events/{event_id}/players/{p.id}", headers=h).status_code == 409
    client.post(f"/api/events/{event_id}/players/{p.id}/withdraw", headers=h)
    back = client.post(f"/api/events/{event_id}/players/{p.id}/reinstate", headers=h)
    assert back.status_code == 200 and back.json()["from_round"] == 2


def test_the_command_line_edits_deletes_and_reinstates(tmp_path: Path) -> None:
    runner = CliRunner()

    def run(*args: str) -> str:
        result = runner.invoke(app, [*args, "--db", str(tmp_path / "club.sqlite3")])
        assert result.exit_code == 0, (result.output, result.exception)
        return result.output

    csv = tmp_path / "players.csv"
    csv.write_text(players_csv(5), encoding="utf-8")
    run("event", "create", "--name", "俱乐部赛", "--system", "swiss", "--rounds", "3")
    run("player", "import", str(csv))
    assert "李明: 3d, 北京棋院" in run(
        "player", "edit", "选手00", "--name", "李明", "--rank", "3段"
    )
    assert "选手04 deleted" in run("player", "delete", "选手04")
    run("round", "pair")
    run("player", "withdraw", "李明")
    assert "paired again from round 2" in run("player", "reinstate", "李明")
