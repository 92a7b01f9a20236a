"""Editing a team event's roster players, renaming a team and deleting one before round 1:
services, pages in Chinese and the JSON API (issue #13, R-ORG-1, R-FMT-1)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.server.test_team_pages import TEAMS_CSV, admin, create, import_csv
from weiqi.errors import Conflict, Duplicate, FieldsRejected, PermissionDenied
from weiqi.league.settings import TeamEventSettings
from weiqi.services import accounts, team_admin, team_coaches, teams
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.store.database import Database
from weiqi.store.teams import TeamCoachRow
from weiqi.store.tournament import PlayerRow

LOCAL = Actor.local()
ROSTER = "team,name,rank,rating,nationality\n" + "\n".join(
    f"{t},{t}{i},{6 - i}d,{2400 - i},CN" for t in ("黑龙", "白虎", "青龙", "朱雀") for i in (1, 2)
)


def event(db: Database) -> int:
    ev = create_event(db, LOCAL, "团体赛", TeamEventSettings(boards=2)).id
    teams.import_teams(db, LOCAL, ev, ROSTER, home_nationality="CN")
    return ev


def play_round_1(db: Database, ev: int) -> None:
    teams.pair_round(db, LOCAL, ev)
    for t in ("黑龙", "白虎", "青龙", "朱雀"):
        teams.submit_lineup(db, LOCAL, ev, 1, t, [f"{t}1", f"{t}2"])
    teams.reveal_round(db, LOCAL, ev, 1)
    for m in teams.show_round(db, ev, 1).matches:
        teams.record_results(db, LOCAL, ev, 1, [(m.home, 1, "B+R"), (m.home, 2, "W+R")])


def test_a_renamed_roster_player_shows_on_the_boards_played(database: Database) -> None:
    """Issue #13: a roster player is edited after round 1 (rank parsed as the import does);
    the boards already played show the new name, the code and the results stay."""
    ev = event(database)
    play_round_1(database, ev)
    team = team_admin.team_cards(database, ev)[0]
    p = team.roster[0]
    done = team_admin.edit_roster_player(
        database, LOCAL, ev, team.id, p.id, "李明", "3段", "2100", "KR", foreign=True
    )
    assert (done.player, done.name, done.rank, done.rating, done.nationality, done.foreign) == (
        "黑龙1", "李明", "3d", 2100, "KR", True
    )  # fmt: skip
    boards = [b for m in teams.show_round(database, ev, 1).matches for b in m.boards]
    mine = [b for b in boards if "黑龙1" in (b.home_player, b.away_player)]
    assert mine and all("李明" in (b.home_name, b.away_name) for b in mine)
    assert all(b.result for b in mine)


def test_editing_reports_every_bad_field_and_a_name_taken(database: Database) -> None:
    ev = event(database)
    team = team_admin.team_cards(database, ev)[0]
    p = team.roster[0]
    with pytest.raises(FieldsRejected) as err:
        team_admin.edit_roster_player(database, LOCAL, ev, team.id, p.id, "", "12d", "abc")
    assert list(err.value.problems) == ["name", "rank", "rating"]
    with pytest.raises(Duplicate) as dup:  # a teammate's name, nothing to tell them apart
        team_admin.edit_roster_player(database, LOCAL, ev, team.id, p.id, "黑龙2", "5d")
    assert list(dup.value.problems) == ["name"]
    assert team_admin.team_cards(database, ev)[0].roster[0] == p  # nothing changed
    # another team's player's name: a namesake, told apart by the team
    named = team_admin.edit_roster_player(database, LOCAL, ev, team.id, p.id, "白虎1", "5d")
    assert (named.player, named.shown) == ("黑龙1", "白虎1 (黑龙)")
    # a teammate's name with another birth date: a namesake too
    born = team_admin.edit_roster_player(
        database, LOCAL, ev, team.id, p.id, "黑龙2", "5d", birth_date="1990-03-01"
    )
    assert born.shown == "黑龙2 (黑龙, 1990)" and born.birth_date is not None
    stranger = accounts.create_user(database, LOCAL, "wang", "a good password").actor()
    with pytest.raises(PermissionDenied):
        team_admin.edit_roster_player(database, stranger, ev, team.id, p.id, "李明", "5d")


def test_a_team_is_renamed_at_any_time_and_its_code_stays(database: Database) -> None:
    ev = event(database)
    play_round_1(database, ev)
    team = team_admin.team_cards(database, ev)[0]
    assert team_admin.rename_team(database, LOCAL, ev, team.id, "天津黑龙") == "天津黑龙"
    again = team_admin.team_cards(database, ev)[0]
    assert (again.code, again.name) == ("黑龙", "天津黑龙")
    with pytest.raises(Duplicate):
        team_admin.rename_team(database, LOCAL, ev, team.id, "白虎")
    with pytest.raises(FieldsRejected):
        team_admin.rename_team(database, LOCAL, ev, team.id, " ")


def test_a_team_is_deleted_with_its_roster_and_coaches_only_before_round_1(
    database: Database,
) -> None:
    ev = event(database)
    accounts.create_user(database, LOCAL, "coach", "a good password")
    team_coaches.assign_coach(database, LOCAL, ev, "黑龙", "coach")
    first, second = team_admin.team_cards(database, ev)[:2]
    assert team_admin.delete_team(database, LOCAL, ev, first.id) == "黑龙"
    assert [t.code for t in team_admin.team_cards(database, ev)] == ["白虎", "青龙", "朱雀"]
    with database.transaction() as session:
        assert session.query(TeamCoachRow).count() == 0
        assert session.query(PlayerRow).filter(PlayerRow.team_id.is_not(None)).count() == 6
    teams.pair_round(database, LOCAL, ev)
    with pytest.raises(Conflict) as err:
        team_admin.delete_team(database, LOCAL, ev, second.id)
    assert "correct its name or players instead" in err.value.msg.id
    assert len(team_admin.team_cards(database, ev)) == 3


def test_the_team_pages_in_chinese(client: TestClient, database: Database) -> None:
    """The dashboard links each team and player; errors sit next to their field with the
    input kept; deleting asks first and, after round 1, is refused with what to do instead."""
    token = admin(client)
    ev = create(client, token)
    assert import_csv(client, token, ev, TEAMS_CSV).status_code == 303
    team = team_admin.team_cards(database, ev)[0]
    p = team.roster[0]
    manage = client.get(f"/events/{ev}/manage").text
    assert f"/events/{ev}/manage/teams/{team.id}/players/{p.id}" in manage
    url = f"/events/{ev}/manage/teams/{team.id}/players/{p.id}"
    page = client.get(url).text
    assert "编辑棋手" in page and f'value="{p.name}"' in page and 'value="业余5段"' in page
    form = {"name": "黑龙2", "rank": "12d", "rating": "abc", "nationality": "CN",
            "csrf_token": token}  # fmt: skip
    bad = client.post(url, data=form)
    assert bad.status_code == 422 and 'id="error-rank"' in bad.text
    assert 'id="error-rating"' in bad.text and 'value="abc"' in bad.text and "未保存" in bad.text
    taken = client.post(url, data={**form, "rank": "5段", "rating": "2400"})
    assert taken.status_code == 409 and 'id="error-name"' in taken.text
    assert 'value="黑龙2"' in taken.text
    born = {**form, "rank": "5段", "rating": "2400", "birth_date": "1990-13-01"}
    bad_date = client.post(url, data=born)
    assert bad_date.status_code == 422 and 'id="error-birth_date"' in bad_date.text
    assert 'value="1990-13-01"' in bad_date.text
    namesake = client.post(url, data={**born, "birth_date": "1990-03-01"})
    assert (
        namesake.status_code == 200 and "未保存" not in namesake.text
    )  # a teammate's name, told apart by the birth date
    assert "黑龙2 (黑龙, 1990)" in client.get(f"/events/{ev}/teams").text
    good = client.post(url, data={**form, "name": "李明", "rank": "5段", "rating": "2400"})
    assert good.status_code == 200 and "李明 的信息已保存。" in good.text
    renamed = client.post(
        f"/events/{ev}/manage/teams/{team.id}", data={"name": "天津黑龙", "csrf_token": token}
    )
    assert "天津黑龙 的信息已保存。" in renamed.text
    confirm = client.get(f"/events/{ev}/manage/teams/{team.id}/delete").text
    assert "确定删除 天津黑龙？" in confirm and 'id="delete-meaning"' in confirm
    gone = client.post(f"/events/{ev}/manage/teams/{team.id}/delete", data={"csrf_token": token})
    assert "已删除 天津黑龙。" in gone.text
    client.post(f"/events/{ev}/manage/rounds", data={"csrf_token": token})
    other = team_admin.team_cards(database, ev)[0]
    refused_page = client.get(f"/events/{ev}/manage/teams/{other.id}").text
    assert "delete-team" not in refused_page and "第1轮已编排" in refused_page
    refused = client.post(
        f"/events/{ev}/manage/teams/{other.id}/delete", data={"csrf_token": token}
    )
    assert refused.status_code == 200 and "改为更正队名或队员" in refused.text
    assert len(team_admin.team_cards(database, ev)) == 3


def test_the_api_edits_renames_and_deletes(client: TestClient, database: Database) -> None:
    token = admin(client)
    h = {"X-CSRF-Token": token}
    ev = event(database)
    a, b = team_admin.team_cards(database, ev)[:2]
    body = {"name": "李明", "rank": "3段", "rating": 2100, "nationality": "CN"}
    url = f"/api/events/{ev}/teams/{a.id}/players/{a.roster[0].id}"
    put = client.put(url, json=body, headers=h)
    assert put.status_code == 200 and put.json()["rank"] == "3d"
    assert put.json()["player"] == "黑龙1"
    namesake = client.put(
        f"/api/events/{ev}/teams/{b.id}/players/{b.roster[0].id}", json=body, headers=h
    )
    assert namesake.status_code == 200  # another team's 李明: told apart by the team
    assert namesake.json()["label"] != namesake.json()["name"] == "李明"
    assert "shown" not in namesake.json()
    clash = client.put(
        f"/api/events/{ev}/teams/{b.id}/players/{b.roster[1].id}", json=body, headers=h
    )
    assert clash.status_code == 409  # a teammate's name and no birth date to tell them apart
    bad = client.put(
        f"/api/events/{ev}/teams/{b.id}/players/{b.roster[0].id}",
        json={**body, "name": "王", "rank": "12d"},
        headers=h,
    )
    assert bad.status_code == 422
    renamed = client.put(f"/api/events/{ev}/teams/{a.id}", json={"name": "天津"}, headers=h)
    assert renamed.status_code == 200
    assert renamed.json() == {"id": a.id, "code": "黑龙", "name": "天津"}
    assert client.delete(f"/api/events/{ev}/teams/{b.id}", headers=h).status_code == 204
    teams.pair_round(database, LOCAL, ev)
    assert client.delete(f"/api/events/{ev}/teams/{a.id}", headers=h).status_code == 409


def test_the_public_round_page_shows_the_edited_name(
    client: TestClient, database: Database
) -> None:
    """Issue #13: the boards already played show a roster player's edited name, and a renamed
    team's new name, on the public pages."""
    ev = event(database)
    play_round_1(database, ev)
    assert ">黑龙1<" in client.get(f"/events/{ev}/rounds/1").text  # kept by the cache
    team = team_admin.team_cards(database, ev)[0]
    team_admin.edit_roster_player(database, LOCAL, ev, team.id, team.roster[0].id, "李明远", "5d")
    team_admin.rename_team(database, LOCAL, ev, team.id, "天津黑龙")
    page = client.get(f"/events/{ev}/rounds/1").text
    assert "李明远" in page and ">黑龙1<" not in page and "天津黑龙" in page
    overview = client.get(f"/events/{ev}/teams").text
    assert "李明远" in overview and "天津黑龙" in overview
    records = client.get(f"/events/{ev}/teams/records").text
    assert "李明远" in records and ">黑龙1<" not in records
