"""Issue #13 in real headless Chromium, in Chinese, on a desktop and a 390×844 phone (marked
``browser``): two 张伟 of two clubs register and are told apart on every list, the same player
twice is refused next to the form with the input kept; the player search of the dashboard, the
result sheet, the public pairings and standings keeps its words in the box; the public player
list is linked from the event page; the withdraw confirm step says what 退赛 means in a round
robin (第28条, R-WD-1) before anything is done."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.server import pages
from tests.server.conftest import LiveServer, screenshot
from tests.server.test_event_admin_browser import PHONE, organiser
from weiqi.roles import Role
from weiqi.services import accounts, event_admin, tournament
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.store.database import Database
from weiqi.tournament.settings import EventSettings, System

pytestmark = pytest.mark.browser
LOCAL = Actor.local()
DESKTOP = {"width": 1200, "height": 800}


def _event_id(page: Page) -> int:
    found = re.search(r"/events/(\d+)/", page.url)
    assert found
    return int(found.group(1))


def _fits_the_phone(page: Page) -> None:
    """At 390 px the page itself does not scroll sideways (wide tables scroll in their box)."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"] + 1, width


def test_two_zhang_wei_register_are_told_apart_and_searched(
    page: Page, live_server: LiveServer, tmp_path: Path
) -> None:
    password = organiser(live_server, "sun")
    pages.log_in(page, live_server, "sun", password)
    event_id = pages.create_event(page, live_server, "2026 同名棋手测试", rounds=3)
    pages.register_player(page, "张伟", rank="5d", club="北京")
    pages.register_player(page, "张伟", rank="3d", club="上海")
    pages.register_player(page, "李明", rank="4d", club="北京")
    pages.register_player(page, "王芳", rank="2d", club="天津")
    rows = page.locator("#player-list tbody tr")
    expect(rows).to_have_count(4)
    expect(rows.nth(0)).to_contain_text("张伟 (北京)")
    expect(rows.nth(1)).to_contain_text("张伟 (上海)")

    # the same player twice: refused next to the form, what was typed kept
    pages.register_player(page, "张伟", rank="3d", club="上海")
    expect(page.locator("#player-error")).to_contain_text("已报名，俱乐部、出生日期和证号都相同")
    expect(page.locator("#register-player").get_by_label("俱乐部")).to_have_value("上海")
    expect(rows).to_have_count(4)

    # the dashboard's search: by club, the words kept in the box; by rank as Chinese write it
    search = page.locator("#player-search")
    search.get_by_label("查找棋手").fill("北京")
    search.get_by_role("button", name="搜索").click()
    expect(page).to_have_url(re.compile(r"\?q=%E5%8C%97%E4%BA%AC$"))
    expect(rows).to_have_count(2)
    expect(page.locator("#player-search").get_by_label("查找棋手")).to_have_value("北京")
    expect(page.locator("#player-search")).to_contain_text("显示 2 / 共 4")
    screenshot(page, "namesakes-dashboard-search-zh", tmp_path)
    page.set_viewport_size(PHONE)
    expect(page.locator("#player-search").get_by_label("查找棋手")).to_be_visible()
    screenshot(page, "namesakes-dashboard-search-zh-phone", tmp_path)
    _fits_the_phone(page)
    page.set_viewport_size(DESKTOP)
    page.locator("#player-search").get_by_label("查找棋手").fill("5段")
    page.locator("#player-search").get_by_role("button", name="搜索").click()
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("张伟 (北京)")
    page.locator("#player-search").get_by_role("link", name="显示全部").click()
    expect(rows).to_have_count(4)

    pages.pair_round(page)
    expect(page.locator("main")).to_contain_text("张伟 (上海)")
    pages.publish_round(page)

    # the result sheet's search
    page.goto(f"{live_server.url}/events/{event_id}/rounds/1/results")
    page.locator("#player-search").get_by_label("查找棋手").fill("上海")
    page.locator("#player-search").get_by_role("button", name="搜索").click()
    expect(page.locator("#boards tbody tr")).to_have_count(1)
    expect(page.locator("#boards tbody tr").first).to_contain_text("张伟 (上海)")
    expect(page.locator("#player-search").get_by_label("查找棋手")).to_have_value("上海")

    # the public event page links the player list: club, rank, country; searchable
    page.goto(f"{live_server.url}/events/{event_id}")
    page.locator("#player-list-link").click()
    expect(page).to_have_url(re.compile(rf"/events/{event_id}/players$"))
    expect(page.locator("h2.sheet-title")).to_have_text("棋手")
    table = page.locator("table.data.players")
    expect(table.locator("thead")).to_contain_text("俱乐部")
    expect(table.locator("thead")).to_contain_text("段位")
    expect(table.locator("tbody tr")).to_have_count(4)
    expect(table.locator("tbody tr").first).to_contain_text("张伟 (北京)")
    expect(table.locator("tbody tr").first).to_contain_text("5段")
    page.locator("#player-search").get_by_label("查找棋手").fill("天津")
    page.locator("#player-search").get_by_role("button", name="搜索").click()
    expect(table.locator("tbody tr")).to_have_count(1)
    expect(page.locator("#player-search").get_by_label("查找棋手")).to_have_value("天津")
    screenshot(page, "public-players-zh", tmp_path)
    page.set_viewport_size(PHONE)
    expect(table.locator("tbody tr").first).to_contain_text("王芳")
    screenshot(page, "public-players-zh-phone", tmp_path)
    _fits_the_phone(page)
    page.set_viewport_size(DESKTOP)

    # public pairings and standings: namesakes apart, search kept
    page.goto(f"{live_server.url}/events/{event_id}/rounds/1")
    expect(page.locator("table.data")).to_contain_text("张伟 (北京)")
    boards = page.locator("table.data tbody tr", has_text="张伟").count()  # 1 if they meet
    page.locator("#player-search").get_by_label("查找棋手").fill("张伟")
    page.locator("#player-search").get_by_role("button", name="搜索").click()
    expect(page.locator("table.data tbody tr")).to_have_count(boards)
    expect(page.locator("#player-search").get_by_label("查找棋手")).to_have_value("张伟")
    page.goto(f"{live_server.url}/events/{event_id}/standings?q=%E5%BC%A0%E4%BC%9F")
    expect(page.locator("table.data tbody tr")).to_have_count(2)
    expect(page.locator("#player-search").get_by_label("查找棋手")).to_have_value("张伟")
    page.set_viewport_size(PHONE)
    screenshot(page, "public-standings-search-zh-phone", tmp_path)
    _fits_the_phone(page)


def test_the_withdraw_confirm_step_in_a_round_robin(
    page: Page, live_server: LiveServer, tmp_path: Path
) -> None:
    """R-WD-1, 第28条: 退赛 from the dashboard opens a confirm step that says the player is
    not paired from round 2 on, that 1 of 3 games is played, and what a round robin does with
    fewer than half; nothing is done until it is confirmed."""
    password = organiser(live_server, "zhou")
    db = Database(live_server.db_url)
    try:
        ev = create_event(db, LOCAL, "2026 循环赛退赛测试", EventSettings(System.ROUND_ROBIN))
        event_admin.import_players(
            db, LOCAL, ev.id, "姓名,段位,俱乐部\n张伟,5d,北京\n张伟,3d,上海\n李明,4d,\n王芳,2d,\n"
        )
        tournament.pair_round(db, LOCAL, ev.id)
        zhou = accounts.user_named(db, "zhou")
        accounts.grant_role(db, LOCAL, zhou.id, ev.id, Role.ORGANISER)
    finally:
        db.dispose()
    pages.log_in(page, live_server, "zhou", password)
    pages.open_dashboard(page, live_server, ev.id)
    row = page.locator("#player-list tbody tr", has_text="张伟 (上海)")
    row.get_by_role("link", name="退赛").click()
    expect(page).to_have_url(re.compile(r"/manage/players/\d+/withdraw$"))
    meaning = page.locator("#withdraw-meaning")
    expect(page.locator("h1")).to_have_text("确定让 张伟 (上海) 退赛？")
    expect(meaning).to_contain_text("退赛即停止编排：从第2轮起，张伟 (上海) 不再参加编排。")
    expect(meaning).to_contain_text("应赛 3 局，已赛 1 局。")
    expect(meaning).to_contain_text("《中国围棋竞赛规则》第28条")
    expect(meaning).to_contain_text("全部成绩无效")
    screenshot(page, "withdraw-confirm-rr-zh", tmp_path)
    page.set_viewport_size(PHONE)
    expect(page.locator("#confirm-withdraw").get_by_role("button", name="确认退赛")).to_be_visible()
    screenshot(page, "withdraw-confirm-rr-zh-phone", tmp_path)
    _fits_the_phone(page)
    page.set_viewport_size(DESKTOP)

    page.locator("#cancel-withdraw").click()  # nothing done
    expect(page.locator("#player-list tbody tr", has_text="张伟 (上海)")).not_to_contain_text(
        "退赛后"
    )
    pages.withdraw_player(page, "张伟 (上海)")
    expect(page.locator("#player-list tbody tr", has_text="张伟 (上海)")).to_have_class(
        re.compile("withdrawn")
    )
    assert _event_id(page) == ev.id
