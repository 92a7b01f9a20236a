"""Issue #13, "Player search on every list": the organisers' round pages (an individual
event's and a team event's) take the same ``?q=`` search as the player list, the standings,
the pairings and the result sheet — the same box (``form_macros.player_search``) and the same
matching (``player_names``: name, club, rank)."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tests.server.conftest import ADMIN_PASSWORD, api_login
from weiqi.league.settings import TeamEventSettings
from weiqi.services import event_admin, teams
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.store.database import Database
from weiqi.tournament.settings import EventSettings, System

LOCAL = Actor.local()
PLAYERS = "姓名,段位,俱乐部\n李明,5d,北京\n王芳,4d,上海\n张伟,3d,成都\n赵磊,2d,杭州\n孙丽,1d,北京\n"


def _rows(page: str) -> list[str]:
    table = page.split('id="pairing"')[1].split("</table>")[0]
    return re.findall(r"<tr>\s*<td class=\"num\"><a[^>]*>(\d+)</a>", table)


def test_the_round_page_searches_its_boards_by_name_club_and_rank(
    client: TestClient, database: Database
) -> None:
    api_login(client, "admin", ADMIN_PASSWORD)
    info = create_event(database, LOCAL, "春季赛", EventSettings(System.SWISS, rounds=3))
    event_admin.import_players(database, LOCAL, info.id, PLAYERS)
    rnd = event_admin.pair_next_round(database, LOCAL, info.id)
    path = f"/events/{info.id}/manage/rounds/1"
    everything = client.get(path).text
    assert 'id="player-search"' in everything and len(_rows(everything)) == 2
    board = next(p.board for p in rnd.pairings if "张伟" in (p.black, p.white))
    found = client.get(path, params={"q": "张伟"}).text
    assert _rows(found) == [str(board)] and 'value="张伟"' in found
    assert "显示 1 / 共 2" in found
    why = found.split('id="why"')[1].split("</table>")[0]  # the explanation follows the search
    assert "张伟" in why and why.count("<tr>") == 2  # its head and the one board
    bye = next(iter(rnd.byes))
    by_club = client.get(path, params={"q": "北京"}).text  # 李明 and 孙丽: one may sit out
    assert all(
        any(n in row for n in ("李明", "孙丽"))
        for row in by_club.split('id="pairing"')[1].split("</table>")[0].split("<tr>")[2:]
    )
    assert (bye in by_club.split('id="byes"')[1].split("</p>")[0]) == (bye in ("李明", "孙丽"))
    by_rank = client.get(path, params={"q": "3段"}).text
    assert _rows(by_rank) == [str(board)]
    nobody = client.get(path, params={"q": "无此人"}).text
    assert 'id="no-match"' in nobody and _rows(nobody) == []


TEAMS = "队名,姓名,段位,俱乐部\n" + "\n".join(
    f"{t},{t}{i},{6 - i}d,{c}" for t, c in (("黑龙", "天津"), ("白虎", "北京"), ("青龙", "上海"),
                                           ("朱雀", "成都")) for i in (1, 2)
)  # fmt: skip


def _matches(page: str) -> list[str]:
    return re.findall(r'<section class="match" id="match-(\d+)">', page)


def test_the_team_round_page_searches_its_matches(client: TestClient, database: Database) -> None:
    """A team or a player seated for it: the matches it finds; before the lineups are
    revealed, the teams."""
    api_login(client, "admin", ADMIN_PASSWORD)
    event_id = create_event(database, LOCAL, "团体赛", TeamEventSettings(boards=2)).id
    teams.import_teams(database, LOCAL, event_id, TEAMS)
    rnd = teams.pair_round(database, LOCAL, event_id)
    path = f"/events/{event_id}/manage/rounds/1"
    sealed = client.get(path, params={"q": "黑龙"}).text
    rows = sealed.split('id="lineup-status"')[1].split("</table>")[0]
    assert "黑龙" in rows and rows.count("<tr><td") == 1
    for m in rnd.matches:
        for t in (m.home, m.away):
            teams.submit_lineup(database, LOCAL, event_id, 1, t, [f"{t}1", f"{t}2"])
    teams.reveal_round(database, LOCAL, event_id, 1)
    assert len(_matches(client.get(path).text)) == 2
    match = next(m.number for m in rnd.matches if "白虎" in (m.home, m.away))
    assert _matches(client.get(path, params={"q": "白虎2"}).text) == [str(match)]
    assert _matches(client.get(path, params={"q": "北京"}).text) == [str(match)]  # the club
    found = client.get(path, params={"q": "白虎 4段"}).text  # 白虎2 is 4d
    assert _matches(found) == [str(match)] and 'id="player-search"' in found
    nobody = client.get(path, params={"q": "无此人"}).text
    assert _matches(nobody) == [] and 'id="no-match"' in nobody
