"""The links that tie the event's pages into one product: the shared sub-navigation (概况 /
对阵 / 成绩录入 / 名次 / 交叉表 / 棋手 / 赛务, by role — R-ORG-1), boards linking to their game
page, the organisers' round page to the round sheet, the administration to the new-event form, the
home page to each event. Every link is followed and must answer 200."""

from __future__ import annotations

import re
from html import unescape

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import ADMIN_PASSWORD, api_login
from tests.server.test_event_admin_services import players_csv
from weiqi.roles import Role
from weiqi.services import accounts, event_admin, games
from weiqi.services.actor import ANONYMOUS, Actor
from weiqi.services.events import create_event
from weiqi.services.navigation import event_navigation
from weiqi.store.database import Database
from weiqi.tournament.settings import EventSettings, System

LOCAL = Actor.local()
PASSWORD = "导航测试的密码 2026"
NAV = re.compile(r'<nav class="event-nav[^"]*"[^>]*>(.*?)</nav>', re.S)
LINK = re.compile(r'<a\b[^>]*?\bhref="([^"]+)"[^>]*>(.*?)</a>', re.S)


def links(html: str) -> list[tuple[str, str]]:
    """(href, text) of every link in ``html``."""
    return [(unescape(h), re.sub(r"<[^>]+>|\s+", "", t)) for h, t in LINK.findall(html)]


def nav_of(html: str) -> list[tuple[str, str]]:
    found = NAV.search(html)
    assert found, "the page has no event navigation"
    return links(found.group(1))


def same_bar_everywhere(
    client: TestClient, urls: list[str], expected: list[str]
) -> list[tuple[str, str]]:
    """Each of ``urls`` answers 200 with the event's bar, its links named ``expected`` and
    the same on every page; every link of it answers 200. The bar's (href, text) links."""
    first: list[tuple[str, str]] = []
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        nav = nav_of(response.text)
        assert [text for _, text in nav] == expected, url
        first = first or nav
        assert nav == first, url  # the same links on every page
    for href, text in first:
        assert client.get(href).status_code == 200, (text, href)
    return first


@pytest.fixture
def event(database: Database) -> int:
    """A 6-player Swiss: round 1 published with results, round 2 paired and not published;
    users ``org``, ``ref`` and ``player`` in those roles."""
    settings = EventSettings(System.SWISS, rounds=3)
    ev = create_event(database, LOCAL, "导航杯", settings)
    event_admin.import_players(database, LOCAL, ev.id, players_csv(6))
    event_admin.pair_next_round(database, LOCAL, ev.id)
    event_admin.publish_round(database, LOCAL, ev.id, 1)
    games.enter_round_results(
        database, LOCAL, ev.id, 1, [(1, 1, "B+R"), (2, 2, "W+R"), (3, 3, "0")]
    )
    event_admin.pair_next_round(database, LOCAL, ev.id)
    for name, role in (("org", Role.ORGANISER), ("ref", Role.REFEREE), ("player", Role.PLAYER)):
        user = accounts.create_user(database, LOCAL, name, PASSWORD)
        accounts.grant_role(database, LOCAL, user.id, ev.id, role)
    return ev.id


def pages_of(ev: int) -> list[str]:
    return [
        f"/events/{ev}",
        f"/events/{ev}/rounds/1",
        f"/events/{ev}/standings",
        f"/events/{ev}/crosstable",
        f"/events/{ev}/rounds/1/results",
        f"/events/{ev}/rounds/1/boards/1",
    ]


@pytest.mark.parametrize(
    ("who", "expected"),
    [
        (None, ["概况", "对阵", "1", "名次", "交叉表", "棋手"]),
        ("player", ["概况", "对阵", "1", "名次", "交叉表", "棋手"]),
        ("ref", ["概况", "对阵", "1", "成绩录入", "名次", "交叉表", "棋手"]),
        ("org", ["概况", "对阵", "1", "成绩录入", "名次", "交叉表", "棋手", "赛务"]),
    ],
)
def test_r_org_1_every_event_page_has_the_same_navigation_by_role(
    client: TestClient, event: int, who: str | None, expected: list[str]
) -> None:
    """R-ORG-1: the public and players see the public pages; referees also 成绩录入 (the
    latest round's sheet, published or not); organisers also 赛务. Every link answers 200."""
    if who:
        api_login(client, who, PASSWORD)
    urls = pages_of(event)
    if who == "org":
        urls += [f"/events/{event}/manage", f"/events/{event}/manage/rounds/2"]
        urls += [f"/events/{event}/settings", f"/events/{event}/roles"]
    first = same_bar_everywhere(client, urls, expected)
    if "成绩录入" in expected:
        assert (f"/events/{event}/rounds/2/results", "成绩录入") in first


def test_the_current_page_is_marked(client: TestClient, event: int) -> None:
    html = client.get(f"/events/{event}/standings").text
    assert re.search(r'href="/events/\d+/standings" aria-current="page">名次<', html)
    api_login(client, "org", PASSWORD)
    html = client.get(f"/events/{event}/manage").text
    assert re.search(r'href="/events/\d+/manage" class="nav-manage" aria-current="page">', html)


def test_every_board_links_to_its_game_page(client: TestClient, event: int) -> None:
    """The public round, a player's games, the round sheet and the organisers' round page link
    each board to ``/events/{id}/rounds/{n}/boards/{b}``."""
    api_login(client, "org", PASSWORD)
    board = re.compile(rf"^/events/{event}/rounds/(\d)/boards/(\d)$")
    pages = {
        f"/events/{event}/rounds/1": 3,
        f"/events/{event}/rounds/1/results": 3,
        f"/events/{event}/manage/rounds/1": 3,
        f"/events/{event}/rounds/2/results": 3,
        f"/events/{event}/manage/rounds/2": 3,
        f"/events/{event}/players/1": 1,
    }
    for url, count in pages.items():
        found = [h for h, _ in links(client.get(url).text) if board.match(h)]
        assert len(set(found)) == count, (url, found)
        for href in set(found):
            assert client.get(href).status_code == 200, href


def test_the_round_page_links_to_its_round_sheet(client: TestClient, event: int) -> None:
    api_login(client, "org", PASSWORD)
    for n in (1, 2):
        html = client.get(f"/events/{event}/manage/rounds/{n}").text
        assert (f"/events/{event}/rounds/{n}/results", "本轮成绩表") in links(html)
    html = client.get(f"/events/{event}/manage").text
    assert f'href="/events/{event}/rounds/1/results"' in html


def test_the_administrations_new_event_opens_the_full_form(client: TestClient) -> None:
    api_login(client, "admin", ADMIN_PASSWORD)
    html = client.get("/admin").text
    assert ("/events/new", "新建赛事→") in links(html)
    assert 'action="/admin/events"' not in html
    assert client.get("/events/new").status_code == 200


def test_the_home_page_lists_events_with_links(client: TestClient, event: int) -> None:
    home = links(client.get("/").text)
    assert (f"/events/{event}", "导航杯") in home
    for href, _ in home:
        if href.startswith("/events/"):
            assert client.get(href).status_code == 200, href


def test_navigation_reads_rounds_and_roles(database: Database, event: int) -> None:
    nav = event_navigation(database, ANONYMOUS, event)
    assert (nav.published, nav.paired, nav.results, nav.manage) == ((1,), 2, False, False)
    assert event_navigation(database, LOCAL, event).manage


def test_a_game_marks_its_round_for_the_public_and_result_entry_for_referees(
    client: TestClient, event: int
) -> None:
    game = f"/events/{event}/rounds/1/boards/1"
    html = client.get(game).text
    assert re.search(rf'href="/events/{event}/rounds/1" [^>]*aria-current="page"', html)
    api_login(client, "ref", PASSWORD)
    html = client.get(game).text
    assert re.search(r'class="nav-results" aria-current="page">成绩录入<', html)


@pytest.fixture
def team_event(database: Database) -> int:
    """A team round robin of four 1-board teams: round 1 paired, its lineups revealed; users
    ``org``, ``ref`` and ``player`` in those roles."""
    from datetime import UTC, datetime

    from weiqi.league.settings import TeamEventSettings
    from weiqi.services import teams
    from weiqi.services.server_clock import ManualClock

    ev = create_event(database, LOCAL, "团体导航杯", TeamEventSettings(boards=1)).id
    rows = "".join(f"{t},{t}1,5d\n" for t in "ABCD")
    teams.import_teams(database, LOCAL, ev, "team,name,rank\n" + rows)
    teams.pair_round(database, LOCAL, ev)
    for t in "ABCD":
        teams.submit_lineup(database, LOCAL, ev, 1, t, [f"{t}1"])
    teams.reveal_round(database, LOCAL, ev, 1, clock=ManualClock(datetime(2030, 1, 1, tzinfo=UTC)))
    for name, role in (("org", Role.ORGANISER), ("ref", Role.REFEREE), ("player", Role.PLAYER)):
        user = accounts.create_user(database, LOCAL, name, PASSWORD)
        accounts.grant_role(database, LOCAL, user.id, ev, role)
    return ev


@pytest.mark.parametrize(
    ("who", "expected"),
    [
        (None, ["对阵", "1", "名次", "台次奖", "队伍"]),
        ("ref", ["对阵", "1", "成绩录入", "名次", "台次奖", "队伍"]),
        ("org", ["对阵", "1", "成绩录入", "名次", "台次奖", "队伍", "赛务"]),
    ],
)
def test_r_org_1_a_team_events_pages_have_the_same_navigation(
    client: TestClient, team_event: int, who: str | None, expected: list[str]
) -> None:
    """Issue #10, one set of templates: a team event's public pages, its board pages and its
    organisers' pages carry every event's navigation bar, with a team event's parts (台次奖 and
    队伍 for 交叉表 and 棋手; 成绩录入 opens the round's page, a sheet a match), by role
    (R-ORG-1). Before, the public pages had a bar of their own and the others none."""
    ev = team_event
    if who:
        api_login(client, who, PASSWORD)
    urls = [
        f"/events/{ev}/rounds/1",
        f"/events/{ev}/standings",
        f"/events/{ev}/teams",
        f"/events/{ev}/teams/records",
        f"/events/{ev}/rounds/1/matches/1/boards/1",
    ]
    if who == "org":
        urls += [f"/events/{ev}/manage", f"/events/{ev}/manage/rounds/1"]
        urls += [f"/events/{ev}/settings", f"/events/{ev}/manage/teams/1"]
    first = same_bar_everywhere(client, urls, expected)
    if "成绩录入" in expected:
        assert (f"/events/{ev}/manage/rounds/1", "成绩录入") in first
        # and there the results are entered, by an organiser as by a referee (an organiser
        # was refused this page, a dead end from the organisers' own round list)
        assert 'name="result_1_0"' in client.get(f"/events/{ev}/manage/rounds/1").text
