"""Issue #13: two different players of one name (two 张伟 from different clubs) in one event —
told apart by club, birth date or licence wherever a name is shown or typed; the same player
twice is still refused, naming the row or field; a shared name typed alone is refused with the
candidates, never guessed. Also the player search of every list, the public player list and
the withdraw confirm step (R-WD-1, 第28条). Services, pages, the JSON API and the command line
on the real database."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from tests.server.test_event_admin_pages import admin, create
from weiqi.cli import app
from weiqi.errors import FieldsRejected, InputError, RowsRejected
from weiqi.services import event_admin, games, public, tournament
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.store.database import Database
from weiqi.tournament.settings import EventSettings, System

LOCAL = Actor.local()

FIELD = "姓名,段位,俱乐部,出生日期,证号\n" + "\n".join(
    [
        "张伟,5d,北京,,",
        "张伟,3d,上海,,",
        "李明,4d,北京,,",
        "王芳,2d,天津,1990-03-01,",
        "王芳,1k,天津,1995-07-02,",
        "赵磊,1d,,,CN-001",
    ]
)


def swiss_with_namesakes(db: Database) -> int:
    info = create_event(db, LOCAL, "2026 同名测试赛", EventSettings(System.SWISS, rounds=3))
    assert event_admin.import_players(db, LOCAL, info.id, FIELD + "\n") == 6
    return info.id


def test_namesakes_register_and_are_labelled_by_club_or_birth_year(database: Database) -> None:
    """Two 张伟 of two clubs and two 王芳 of one club and two birth years all enter; each list
    shows them apart, a unique name stays bare."""
    event_id = swiss_with_namesakes(database)
    labels = [p.label for p in event_admin.dashboard(database, LOCAL, event_id).players]
    assert labels == ["张伟 (北京)", "张伟 (上海)", "李明", "王芳 (1990)", "王芳 (1995)", "赵磊"]
    event_admin.pair_next_round(database, LOCAL, event_id)
    shown = tournament.show_round(database, event_id, 1)
    names = {n for p in shown.pairings for n in (p.black, p.white)} | set(shown.byes)
    assert {"张伟 (北京)", "张伟 (上海)", "王芳 (1990)", "王芳 (1995)"} <= names
    assert {s.label for s in tournament.event_standings(database, event_id)} == set(labels)
    sheet = games.round_sheet(database, event_id, 1)
    assert {"张伟 (北京)", "张伟 (上海)"} <= {n for g in sheet.boards for n in (g.black, g.white)}
    detail = event_admin.round_detail(database, LOCAL, event_id, 1)
    assert {"张伟 (北京)", "张伟 (上海)"} <= {
        n for e in detail.explanations for n in (e.black, e.white)
    }


def test_the_same_player_twice_is_refused_naming_the_row_or_field(database: Database) -> None:
    event_id = swiss_with_namesakes(database)
    with pytest.raises(RowsRejected) as rows:  # already entered: the file's line
        event_admin.import_players(database, LOCAL, event_id, "姓名,俱乐部\n孙六,\n张伟,北京\n")
    assert [line for line, _ in rows.value.problems] == [3]
    assert "张伟" in str(rows.value.problems[0][1])
    with pytest.raises(RowsRejected) as rows:  # twice in one file: both lines named
        event_admin.import_players(database, LOCAL, event_id, "姓名,俱乐部\n周七,广州\n周七,广州\n")
    assert [(line, str(why)) for line, why in rows.value.problems] == [
        (3, "周七 already on line 2")
    ]
    with pytest.raises(InputError) as err:  # one form: the name field
        event_admin.register_player(database, LOCAL, event_id, "张伟", club="上海")
    assert err.value.where == "name"
    # a licence tells a third 张伟 of 北京 apart
    third = event_admin.register_player(
        database, LOCAL, event_id, "张伟", club="北京", licence="BJ-77"
    )
    assert third.label == "张伟 (北京, BJ-77)"
    # editing into a duplicate is refused on the name field; into a namesake accepted
    li = next(
        p for p in event_admin.dashboard(database, LOCAL, event_id).players if p.name == "李明"
    )
    with pytest.raises(FieldsRejected) as fields:
        event_admin.edit_player(database, LOCAL, event_id, li.id, "张伟", club="上海")
    assert list(fields.value.problems) == ["name"]
    done = event_admin.edit_player(database, LOCAL, event_id, li.id, "张伟", club="广州")
    assert done.label == "张伟 (广州)"


def test_a_shared_name_typed_alone_lists_the_candidates(database: Database) -> None:
    event_id = swiss_with_namesakes(database)
    with pytest.raises(InputError) as err:
        event_admin.player_named(database, event_id, "张伟")
    assert err.value.reason.args["candidates"] == "张伟 (北京), 张伟 (上海)"
    assert err.value.where == "player"
    shanghai = event_admin.player_named(database, event_id, "张伟 (上海)")
    done = event_admin.withdraw(database, LOCAL, event_id, "张伟 (上海)")
    assert done.name == "张伟 (上海)"
    rows = event_admin.dashboard(database, LOCAL, event_id).players
    assert [p.id for p in rows if p.withdrawn_after is not None] == [shanghai]
    with pytest.raises(InputError):
        tournament.add_warning(database, LOCAL, event_id, "王芳")
    assert tournament.add_warning(database, LOCAL, event_id, "王芳 (1995)") == 1


def test_search_filters_every_list_by_name_club_or_rank(database: Database) -> None:
    event_id = swiss_with_namesakes(database)
    board = event_admin.dashboard(database, LOCAL, event_id, "北京")
    assert [p.label for p in board.shown] == ["张伟 (北京)", "李明"] and len(board.players) == 6
    assert [p.label for p in event_admin.dashboard(database, LOCAL, event_id, "5段").shown] == [
        "张伟 (北京)"
    ]
    assert [p.label for p in event_admin.dashboard(database, LOCAL, event_id, "张 上海").shown] == [
        "张伟 (上海)"
    ]
    assert public.player_list(database, event_id, "天津").total == 6
    assert [p.label for p in public.player_list(database, event_id, "天津").players] == [
        "王芳 (1990)",
        "王芳 (1995)",
    ]
    rnd = event_admin.pair_next_round(database, LOCAL, event_id)
    event_admin.publish_round(database, LOCAL, event_id, rnd.number)
    found = public.round_read(database, event_id, 1, "上海")
    assert len(found.pairings) + len(found.byes) == 1
    sheet = games.round_sheet(database, event_id, 1, "上海")
    assert sheet.total == 3 and len(sheet.boards) == 1
    standing = public.standings_read(database, event_id, "王芳")
    assert [r.player.label for r in standing.rows] == ["王芳 (1990)", "王芳 (1995)"] or [
        r.player.label for r in standing.rows
    ] == ["王芳 (1995)", "王芳 (1990)"]
    with pytest.raises(InputError):
        public.player_list(database, event_id, "x" * 101)


def test_the_withdraw_confirm_step_says_what_it_means_in_a_round_robin(
    client: TestClient, database: Database
) -> None:
    """R-WD-1 (第28条): before anything is done, the page says the player is not paired from
    the next round, how many games are played, and what a round robin makes of it."""
    token = admin(client)
    event_id = create_event(database, LOCAL, "2026 循环赛", EventSettings(System.ROUND_ROBIN)).id
    event_admin.import_players(database, LOCAL, event_id, FIELD + "\n")
    event_admin.pair_next_round(database, LOCAL, event_id)
    p = event_admin.dashboard(database, LOCAL, event_id).players[0]
    preview = event_admin.withdrawal_preview(database, LOCAL, event_id, p.id)
    assert preview.round_robin and preview.next_round == 2 and preview.scheduled == 5
    assert preview.consequence == event_admin.CONSEQUENCE_RR_VOID
    page = client.get(f"/events/{event_id}/manage/players/{p.id}/withdraw").text
    assert "退赛即停止编排：从第2轮起，张伟 (北京) 不再参加编排。" in page
    assert "《中国围棋竞赛规则》第28条" in page and "应赛 5 局，已赛 1 局。" in page
    assert "确认退赛" in page
    assert event_admin.dashboard(database, LOCAL, event_id).players[0].withdrawn_after is None
    english = client.get(
        f"/events/{event_id}/manage/players/{p.id}/withdraw", headers={"Accept-Language": "en"}
    ).text
    assert (
        "Confirm the withdrawal" in english
        and "Chinese Weiqi Competition Rules, article 28" in english
    )
    done = client.post(
        f"/events/{event_id}/manage/players/{p.id}/withdraw", data={"csrf_token": token}
    )
    assert done.status_code == 200 and "张伟 (北京) 已退赛。" in done.text


def test_pages_and_api_show_namesakes_apart_and_search(
    client: TestClient, database: Database
) -> None:
    token = admin(client)
    h = {"X-CSRF-Token": token}
    event_id = create(client, token)
    event_admin.import_players(database, LOCAL, event_id, FIELD + "\n")
    manage = client.get(f"/events/{event_id}/manage", params={"q": "上海"}).text
    assert "张伟 (上海)" in manage and "张伟 (北京)" not in manage
    assert 'value="上海"' in manage  # the search stays in the box
    added = client.post(
        f"/api/events/{event_id}/players",
        json={"name": "李明", "club": "广州", "licence": "GZ-1"},
        headers=h,
    )
    assert added.status_code == 201 and added.json()["label"] == "李明 (广州)"
    again = client.post(
        f"/api/events/{event_id}/players", json={"name": "李明", "club": "广州", "licence": "GZ-1"},
        headers=h,
    )  # fmt: skip
    assert (
        again.status_code == 409
        and again.json()["error"] == "duplicate"
        and again.json()["args"]["field"]["code"] == "name"
    )
    assert "李明" in again.json()["message"]
    listed = client.get(f"/api/events/{event_id}/players", params={"q": "李明"}).json()
    assert listed["total"] == 7
    assert [(p["label"], p["club"]) for p in listed["players"]] == [
        ("李明 (北京)", "北京"),
        ("李明 (广州)", "广州"),
    ]
    dash = client.get(f"/api/events/{event_id}/manage", params={"q": "广州"}).json()
    assert [p["licence"] for p in dash["players"]] == ["GZ-1"]
    event_page = client.get(f"/events/{event_id}").text
    assert f'href="/events/{event_id}/players"' in event_page and "棋手名单" in event_page
    page = client.get(f"/events/{event_id}/players", params={"q": "天津"}).text
    assert "王芳 (1990)" in page and "王芳 (1995)" in page and "张伟" not in page
    assert "显示 2 / 共 7" in page
    csv = client.get(f"/events/{event_id}/players", params={"format": "csv"}).text
    assert "张伟 (北京),5段,北京" in csv
    nothing = client.get(f"/events/{event_id}/players", params={"q": "无此人"}).text
    assert "没有与“无此人”相符的棋手。" in nothing
    assert client.get(f"/events/{event_id}/players", params={"q": "x" * 101}).status_code == 422


def test_the_command_line_tells_namesakes_apart(tmp_path: Path) -> None:
    runner = CliRunner()
    db = str(tmp_path / "club.sqlite3")

    def run(*args: str) -> str:
        result = runner.invoke(app, [*args, "--db", db])
        assert result.exit_code == 0, (result.output, result.exception)
        return result.output

    csv = tmp_path / "players.csv"
    csv.write_text(FIELD + "\n", encoding="utf-8")
    run("event", "create", "--name", "同名赛", "--system", "swiss", "--rounds", "3")
    run("player", "import", str(csv))
    refused = runner.invoke(app, ["player", "withdraw", "张伟", "--db", db])
    assert isinstance(refused.exception, InputError)  # `weiqi` prints it as one line, exit 2
    assert "张伟 (北京), 张伟 (上海)" in refused.exception.message
    assert "withdrawn" in run("player", "withdraw", "张伟 (上海)")
    assert "张伟 (北京): 5d, 北京" in run("player", "edit", "张伟 (北京)", "--licence", "BJ-1")
    standings = run("standings", "--json")
    assert '"label": "张伟 (北京)"' in standings  # the withdrawn 张伟 (上海) has no place
