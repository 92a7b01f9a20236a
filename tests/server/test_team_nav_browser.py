"""Issue #10, one set of pages: a team event's public, board and organisers' pages carry every
event's navigation bar, in real headless Chromium, in Chinese, on a desktop and a 390×844 phone
(marked ``browser``). The bar leads from page to page — 对阵 to 名次 to 台次奖 to 队伍, 成绩录入
to the round's page, 赛务 to the organisers' page — and no page scrolls sideways on the phone."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.server.conftest import LiveServer, screenshot
from tests.server.pages import log_in
from weiqi.league.settings import TeamEventSettings
from weiqi.roles import Role
from weiqi.services import accounts, teams
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.store.database import Database

pytestmark = pytest.mark.browser
LOCAL = Actor.local()
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1200, "height": 800}


PASSWORD = "团体赛组委会的密码 2026"


def _event(server: LiveServer, organiser: str) -> int:
    """A 2-board team round robin of four teams, round 1 revealed, one match's results in;
    user ``organiser`` its organiser."""
    db = Database(server.db_url)
    try:
        ev = create_event(db, LOCAL, "导航团体赛", TeamEventSettings(boards=2)).id
        user = accounts.create_user(db, LOCAL, organiser, PASSWORD)
        accounts.grant_role(db, LOCAL, user.id, ev, Role.ORGANISER)
        rows = "".join(
            f"{t},{t}{i}号,{6 - i}d\n" for t in ("黑龙", "白虎", "青龙", "朱雀") for i in (1, 2)
        )
        teams.import_teams(db, LOCAL, ev, "队名,姓名,段位\n" + rows)
        teams.pair_round(db, LOCAL, ev)
        for t in ("黑龙", "白虎", "青龙", "朱雀"):
            teams.submit_lineup(db, LOCAL, ev, 1, t, [f"{t}1号", f"{t}2号"])
        teams.reveal_round(db, LOCAL, ev, 1)
        (first, *_) = teams.show_round(db, ev, 1).matches
        teams.record_results(db, LOCAL, ev, 1, [(first.home, 1, "B+R"), (first.home, 2, "W+R")])
    finally:
        db.dispose()
    return ev


def _fits_the_phone(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"] + 1, (page.url, width)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_team_events_pages_share_the_event_bar(
    page: Page, live_server: LiveServer, tmp_path: Path, viewport: dict[str, int]
) -> None:
    name = f"org{viewport['width']}"
    ev = _event(live_server, name)
    page.set_viewport_size(viewport)
    log_in(page, live_server, name, PASSWORD)
    page.goto(f"{live_server.url}/events/{ev}/rounds/1")
    bar = page.locator("nav.event-nav")
    expect(bar.get_by_role("link", name="对阵")).to_have_attribute("aria-current", "page")
    expect(bar.get_by_role("link", name="交叉表")).to_have_count(0)  # a team event has none
    for link, address, shows in (
        ("名次", f"/events/{ev}/standings", "场分"),
        ("台次奖", f"/events/{ev}/teams/records", "黑龙1号"),
        ("队伍", f"/events/{ev}/teams", "朱雀2号"),
        ("成绩录入", f"/events/{ev}/manage/rounds/1", "黑龙1号"),
        ("赛务", f"/events/{ev}/manage", "朱雀"),
    ):
        page.locator("nav.event-nav").get_by_role("link", name=link, exact=True).click()
        expect(page).to_have_url(f"{live_server.url}{address}")
        expect(page.locator("main")).to_contain_text(shows)
        expect(page.locator("nav.event-nav")).to_be_visible()
        if viewport == PHONE:
            _fits_the_phone(page)
    # a board's page, from the round's page, carries the bar too
    page.goto(f"{live_server.url}/events/{ev}/rounds/1/matches/1/boards/1")
    expect(page.locator("nav.event-nav").get_by_role("link", name="名次")).to_be_visible()
    if viewport == PHONE:
        _fits_the_phone(page)
    screenshot(page, f"team-nav-zh-{'phone' if viewport == PHONE else 'desktop'}", tmp_path)
