"""A league season run from the pages in real headless Chromium, in Chinese, on a desktop and a
390×844 phone (issue #13, R-LEAGUE-1, R-LEAGUE-2): an organiser creates a two-division season
with its dated calendar (a bad CSV row refused by division and line, the typed input kept), a
coach sees the lineup they sealed (R-FMT-1), closing too early is refused with the reason, the
season is closed once played, and the 摘牌 draft is opened and run — protected bases, a pick,
a pass — from the pages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.league.test_season_pages_service import clubs, play_season
from tests.server import pages, team_pages
from tests.server.conftest import LiveServer, screenshot
from tests.server.test_event_admin_browser import organiser
from weiqi.services import accounts, league
from weiqi.services.actor import Actor
from weiqi.services.team_coaches import CoachRole, assign_coach
from weiqi.store.database import Database

pytestmark = pytest.mark.browser
LOCAL = Actor.local()
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1200, "height": 800}


def _fill_season(page: Page, jia: str, yi: str) -> None:
    form = page.locator("#season-settings")
    form.get_by_label("赛季名称").fill("2026 围甲联赛")
    form.get_by_label("第1轮日期").fill("2026-03-07")
    form.get_by_label("每场台数").fill("2")
    form.get_by_label("每队人数下限").fill("2")
    form.get_by_label("每个下级别升级队数").fill("1")
    form.get_by_label("每个上级别降级队数").fill("1")
    form.locator("#division-1 textarea").fill(jia)
    form.locator("#division-2 textarea").fill(yi)
    form.get_by_role("button", name="创建赛季").click()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_r_league_1_season_created_closed_and_drafted_from_the_pages(
    page: Page, live_server: LiveServer, tmp_path: Path, viewport: dict[str, int]
) -> None:
    phone = viewport == PHONE
    name = "wang-phone" if phone else "wang"
    page.set_viewport_size(viewport)
    password = organiser(live_server, name)
    pages.log_in(page, live_server, name, password)
    page.goto(live_server.url)
    page.locator("#new-season-link").click()
    expect(page.locator("h1")).to_have_text("新建联赛赛季")
    expect(page.locator("#division-1 input[name=label_1]")).to_have_value("甲")

    bad = "队名,姓名,段位\n川队,川1,12d\n"
    _fill_season(page, clubs("江浙沪"), bad)
    problems = page.locator("#season-problems")
    expect(problems).to_be_visible()
    expect(problems).to_contain_text("乙")
    expect(problems).to_contain_text("第2行")
    expect(page.locator("#division-2 textarea")).to_have_value(bad)  # the typed input kept
    expect(page.locator("input[name=name]")).to_have_value("2026 围甲联赛")
    screenshot(page, f"league-new-refused-zh-{'phone' if phone else 'desktop'}", tmp_path)

    page.locator("#division-2 textarea").fill(clubs("川渝闽"))
    page.locator("#season-settings").get_by_role("button", name="创建赛季").click()
    expect(page).to_have_url(re.compile(r"/leagues/\d+/manage$"))
    found = re.search(r"/leagues/(\d+)/manage", page.url)
    assert found
    season_id = int(found.group(1))
    expect(page.get_by_role("status")).to_contain_text("2026 围甲联赛")
    rows = page.locator("#division-list tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("0 / 6")
    screenshot(page, f"league-manage-zh-{'phone' if phone else 'desktop'}", tmp_path)

    # the calendar and the table from the season's page; the division's pages link back
    page.get_by_role("link", name="赛程").first.click()
    expect(page.locator("article.division").first).to_contain_text("2026-03-07")
    expect(page.locator("article.division").first).to_contain_text("2026-04-11")
    page.goto(f"{live_server.url}/leagues/{season_id}")
    expect(page.locator("article.sheet")).to_have_count(2)
    page.get_by_role("link", name="管理赛季").click()
    expect(page).to_have_url(re.compile(rf"/leagues/{season_id}/manage$"))

    db = Database(live_server.db_url)
    try:
        season = league.season_info(db, season_id)
        top = season.divisions[0].event_id
        page.goto(f"{live_server.url}/events/{top}/standings")
        page.locator(".event-nav").locator("a.league-link").first.click()
        expect(page).to_have_url(re.compile(rf"/leagues/{season_id}$"))

        # a coach seals a lineup and sees it
        coach = f"coach-{name}"
        accounts.create_user(db, LOCAL, coach, password)
        assign_coach(db, LOCAL, top, "江队", coach, CoachRole.COACH)
        rnd = next(
            r for r in league.season_calendar(db, season_id, "甲")
            if any("江队" in (m.home, m.away) for m in r.matches)
        )  # fmt: skip
        coach_page = page.context.browser.new_context(locale="zh-CN", viewport=viewport)  # type: ignore[union-attr]
        cp = coach_page.new_page()
        pages.log_in(cp, live_server, coach, password)
        team_pages.submit_lineup(cp, live_server, top, rnd.number, "江队", ["江2", "江1"])
        sealed = cp.locator("#sealed .sealed-lineup li")
        expect(sealed).to_have_count(2)
        expect(sealed.nth(0)).to_contain_text("江2")
        expect(sealed.nth(1)).to_contain_text("江1")
        expect(cp.locator("#lineup").get_by_label("第1台")).to_have_value("江2")
        screenshot(cp, f"league-lineup-sealed-zh-{'phone' if phone else 'desktop'}", tmp_path)
        coach_page.close()

        # closing before the matches are played is refused with the reason, on the page
        page.goto(f"{live_server.url}/leagues/{season_id}/manage")
        page.once("dialog", lambda dialog: dialog.accept())
        page.locator("#close-season").get_by_role("button", name="结束赛季").click()
        expect(page.locator("#season-problem")).to_contain_text("尚未结束")

        play_season(db, season)
    finally:
        db.dispose()
    page.goto(f"{live_server.url}/leagues/{season_id}/manage")
    expect(page.locator("#division-list tbody tr").nth(0)).to_contain_text("6 / 6")
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#close-season").get_by_role("button", name="结束赛季").click()
    expect(page.get_by_role("status")).to_contain_text("赛季已结束")
    final = page.locator("#season-end .final-order").first
    expect(final.locator("li").first).to_have_text("江队")

    form = page.locator("#start-draft")
    form.get_by_label("每队保护人数").fill("2")
    form.get_by_role("button", name="开始摘牌").click()
    expect(page).to_have_url(re.compile(r"/drafts/\d+/manage$"))
    screenshot(page, f"draft-protect-zh-{'phone' if phone else 'desktop'}", tmp_path)

    # a base of the wrong size is refused, then every club protects its players 1 and 2
    first = page.locator("form.protect-form").first
    first.locator("input[type=checkbox]").first.check()
    first.get_by_role("button").click()
    expect(page.locator("#draft-problem")).to_be_visible()
    while page.locator("form.protect-form").count():
        form = page.locator("form.protect-form").first
        boxes = form.locator("input[type=checkbox]")
        boxes.nth(0).check()
        boxes.nth(1).check()
        form.get_by_role("button").click()
        expect(page.get_by_role("status")).to_contain_text("保护2名棋手")
    clock = page.locator("#on-the-clock")
    expect(clock).to_contain_text("轮到")
    on_the_clock = clock.inner_text()
    page.locator("#pick").get_by_role("button", name="摘牌").click()
    expect(page.get_by_role("status")).to_contain_text("摘得")
    expect(page.locator("#draft-log table tbody tr")).to_have_count(1)
    page.locator("#pass").get_by_role("button").click()
    expect(page.get_by_role("status")).to_contain_text("放弃本轮")
    expect(page.locator("#draft-log table tbody tr")).to_have_count(2)
    assert on_the_clock
    screenshot(page, f"draft-picking-zh-{'phone' if phone else 'desktop'}", tmp_path)
    page.get_by_role("link", name="公开页面").click()
    expect(page.locator("table.data tbody tr")).to_have_count(2)
    if phone:  # the phone shows the pages without sideways scrolling
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"] + 1, width
