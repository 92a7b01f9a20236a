"""The player search of a team event's public team list and round pages (issue #13), over HTTP:
the words kept, the CSV of what is shown, a search too long refused as every list refuses it,
and the English page as complete as the Chinese one."""

from __future__ import annotations

from fastapi.testclient import TestClient

from weiqi.league.settings import TeamEventSettings
from weiqi.services import teams
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.store.database import Database

LOCAL = Actor.local()
CSV = "team,name,rank\n黑龙,张伟,5d\n黑龙,李明,4d\n白虎,张伟,3d\n白虎,王芳,2d\n"


def _event(db: Database) -> int:
    ev = create_event(db, LOCAL, "同名", TeamEventSettings(boards=2)).id
    teams.import_teams(db, LOCAL, ev, CSV)
    teams.pair_round(db, LOCAL, ev)
    return ev


def test_the_team_list_search_in_both_languages(client: TestClient, database: Database) -> None:
    ev = _event(database)
    zh = client.get(
        f"/events/{ev}/teams", params={"q": "3段"}, headers={"Accept-Language": "zh-CN"}
    )
    assert zh.status_code == 200 and 'value="3段"' in zh.text and "显示 1 / 共 4" in zh.text
    assert "张伟 (白虎)" in zh.text and "张伟 (黑龙)" not in zh.text and "王芳" not in zh.text
    en = client.get(f"/events/{ev}/teams", params={"q": "3d"}, headers={"Accept-Language": "en"})
    assert "Find a player" in en.text and "1 of 4 shown" in en.text and "张伟 (白虎)" in en.text
    none = client.get(
        f"/events/{ev}/teams", params={"q": "nobody"}, headers={"Accept-Language": "en"}
    )
    assert 'id="no-match"' in none.text and "No player matches “nobody”." in none.text


def test_the_round_search_and_its_csv(client: TestClient, database: Database) -> None:
    ev = _event(database)
    page = client.get(f"/events/{ev}/rounds/1", params={"q": "白虎"})
    assert page.status_code == 200 and 'value="白虎"' in page.text
    csv = client.get(f"/events/{ev}/rounds/1", params={"q": "nobody", "format": "csv"})
    assert "黑龙" not in csv.text  # the CSV holds what the page shows: nothing
    long = client.get(
        f"/events/{ev}/teams", params={"q": "x" * 101}, headers={"Accept-Language": "en"}
    )
    assert long.status_code == 422 and "a search has at most 100 characters" in long.text
