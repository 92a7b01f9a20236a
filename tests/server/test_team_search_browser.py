"""Issue #13 on a team event's public pages, in real headless Chromium, in Chinese, on a desktop
and a 390×844 phone (marked ``browser``): two 张伟 of two teams are told apart on the team list
and the round's boards, and the player search every list has finds teams and players there —
by name, by rank as Chinese write it, by team — keeping its words in the box, saying how many
it shows, and saying so when nobody matches."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import quote_plus

import pytest
from playwright.sync_api import Page, expect

from tests.server.conftest import LiveServer, screenshot
from weiqi.league.settings import TeamEventSettings
from weiqi.services import teams
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.store.database import Database

pytestmark = pytest.mark.browser
LOCAL = Actor.local()
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1200, "height": 800}
TEAMS_CSV = (
    "队名,姓名,段位,国籍\n"
    "黑龙,张伟,5d,CN\n黑龙,李明,4d,CN\n"
    "白虎,张伟,3d,CN\n白虎,王芳,2d,KR\n"
    "青龙,赵磊,4d,CN\n青龙,孙杰,3d,CN\n"
    "朱雀,周七,2d,CN\n朱雀,吴八,1d,CN\n"
)


def _event(server: LiveServer) -> int:
    """A 2-board team round robin with round 1 revealed and one match's results."""
    db = Database(server.db_url)
    try:
        ev = create_event(db, LOCAL, "同名团体赛", TeamEventSettings(boards=2)).id
        teams.import_teams(db, LOCAL, ev, TEAMS_CSV, home_nationality="CN")
        teams.pair_round(db, LOCAL, ev)
        # a name typed is taken for the team's own player; the namesake as the pages show it
        teams.submit_lineup(db, LOCAL, ev, 1, "黑龙", ["张伟", "李明"])
        teams.submit_lineup(db, LOCAL, ev, 1, "白虎", ["张伟 (白虎)", "王芳"])
        teams.submit_lineup(db, LOCAL, ev, 1, "青龙", ["赵磊", "孙杰"])
        teams.submit_lineup(db, LOCAL, ev, 1, "朱雀", ["周七", "吴八"])
        teams.reveal_round(db, LOCAL, ev, 1)
        teams.record_results(db, LOCAL, ev, 1, [("黑龙", 1, "B+R"), ("黑龙", 2, "W+R")])
    finally:
        db.dispose()
    return ev


def _search(page: Page, words: str) -> None:
    box = page.locator("#player-search")
    box.get_by_label("查找棋手").fill(words)
    box.get_by_role("button", name="搜索").click()
    expect(page).to_have_url(re.compile(rf"\?q={re.escape(quote_plus(words))}$"))
    expect(page.locator("#player-search").get_by_label("查找棋手")).to_have_value(words)


def _fits_the_phone(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"] + 1, width


def test_team_pages_tell_namesakes_apart_and_search_players(
    page: Page, live_server: LiveServer, tmp_path: Path
) -> None:
    ev = _event(live_server)

    # the public team list: both 张伟 told apart by their teams, ranks as Chinese write them
    page.goto(f"{live_server.url}/events/{ev}/teams")
    cards = page.locator("#team-cards .team-card")
    expect(cards).to_have_count(4)
    expect(cards.nth(0)).to_contain_text("张伟 (黑龙)")
    expect(cards.nth(0)).to_contain_text("业余5段")
    expect(cards.nth(1)).to_contain_text("张伟 (白虎)")
    _search(page, "张伟")
    expect(cards).to_have_count(2)
    expect(page.locator("#team-cards .roster li")).to_have_count(2)
    expect(page.locator("#player-search")).to_contain_text("显示 2 / 共 8")
    _search(page, "黑龙 5段")  # a team's words with a player's rank
    expect(page.locator("#team-cards .roster li")).to_have_count(1)
    expect(page.locator("#team-cards .roster li").first).to_contain_text("张伟 (黑龙)")
    _search(page, "白虎")  # a team found by its name shows its whole roster
    expect(cards).to_have_count(1)
    expect(page.locator("#team-cards .roster li")).to_have_count(2)
    screenshot(page, "team-list-search-zh", tmp_path)
    page.set_viewport_size(PHONE)
    expect(page.locator("#player-search").get_by_label("查找棋手")).to_be_visible()
    expect(cards.first).to_contain_text("王芳")
    screenshot(page, "team-list-search-zh-phone", tmp_path)
    _fits_the_phone(page)
    page.set_viewport_size(DESKTOP)
    _search(page, "无此人")
    expect(page.locator("#no-match")).to_have_text("没有与“无此人”相符的棋手。")
    expect(cards).to_have_count(0)
    page.locator("#player-search").get_by_role("link", name="显示全部").click()
    expect(cards).to_have_count(4)

    # the public round page: the boards name both 张伟 apart; the search finds their match
    page.goto(f"{live_server.url}/events/{ev}/rounds/1")
    table = page.locator("table.data")
    expect(table).to_contain_text("张伟 (黑龙)")
    expect(table).to_contain_text("张伟 (白虎)")
    expect(table).to_contain_text("赵磊")
    # round 1 of four teams (Berger): 黑龙–朱雀 and 白虎–青龙
    _search(page, "王芳")
    expect(table).to_contain_text("张伟 (白虎)")
    expect(table).to_contain_text("赵磊")
    expect(table).not_to_contain_text("周七")
    expect(table).not_to_contain_text("张伟 (黑龙)")
    expect(page.locator("#player-search")).to_contain_text("显示 1 / 共 2")
    _search(page, "4段")  # 李明 and 赵磊: both matches
    expect(table).to_contain_text("周七")
    expect(table).to_contain_text("王芳")
    _search(page, "朱雀")
    expect(table).to_contain_text("张伟 (黑龙)")
    expect(table).not_to_contain_text("赵磊")
    screenshot(page, "team-round-search-zh", tmp_path)
    page.set_viewport_size(PHONE)
    expect(page.locator("#player-search").get_by_label("查找棋手")).to_be_visible()
    expect(table).to_contain_text("周七")
    screenshot(page, "team-round-search-zh-phone", tmp_path)
    _fits_the_phone(page)
    page.set_viewport_size(DESKTOP)
    _search(page, "无此人")
    expect(page.locator("#no-match")).to_have_text("没有与“无此人”相符的棋手。")
    # a board's own page names the player with the team beside them
    page.goto(f"{live_server.url}/events/{ev}/rounds/1/matches/2/boards/1")
    expect(page.locator("#black")).to_have_text("张伟 (白虎)")
    expect(page.locator("#white")).to_have_text("赵磊 (青龙)")
    # the CSV of the page holds what the page shows
    csv = page.request.get(f"{live_server.url}/events/{ev}/rounds/1?format=csv&q=王芳")
    assert "王芳" in csv.text() and "周七" not in csv.text()
