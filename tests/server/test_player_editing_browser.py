"""Editing, withdrawing, reinstating and deleting a player in real headless Chromium, in
Chinese, on a desktop and a phone viewport (marked ``browser``; issue #13, R-WD-1)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.server import pages
from tests.server.conftest import LiveServer, screenshot
from tests.server.test_event_admin_browser import PHONE, organiser

pytestmark = pytest.mark.browser


def test_r_wd_1_an_organiser_edits_withdraws_reinstates_and_deletes_a_player(
    page: Page, live_server: LiveServer, tmp_path: Path
) -> None:
    """The name on the dashboard opens the player's page; a bad rank is refused next to its
    field with everything typed kept; a good edit shows on the dashboard; withdrawing (R-WD-1)
    asks first and, before the next round, can be undone; before round 1 the entry can be
    deleted."""
    password = organiser(live_server, "zhao")
    pages.log_in(page, live_server, "zhao", password)
    pages.create_event(page, live_server, "2026 棋手编辑测试", rounds=3)
    pages.register_player(page, "李明", rank="3d", club="北京")
    pages.register_player(page, "王强", rank="2d", club="上海")

    page.locator("#player-list").get_by_role("link", name="李明").click()
    expect(page).to_have_url(re.compile(r"/manage/players/\d+$"))
    form = page.locator("#edit-player")
    form.get_by_label("姓名").fill("李明远")
    form.get_by_label("段位").fill("12d")
    form.get_by_role("button", name="保存").click()
    expect(page.locator("#player-errors")).to_be_visible()
    expect(page.locator("#error-rank")).to_have_text("级别必须在 1 到 9 之间")
    expect(form.get_by_label("姓名")).to_have_value("李明远")
    expect(form.get_by_label("段位")).to_have_value("12d")
    screenshot(page, "player-edit-error-zh", tmp_path)
    page.set_viewport_size(PHONE)
    screenshot(page, "player-edit-error-zh-phone", tmp_path)
    page.set_viewport_size({"width": 1200, "height": 800})

    form.get_by_label("段位").fill("4d")
    form.get_by_role("button", name="保存").click()
    expect(page.get_by_role("status")).to_contain_text("李明远 的信息已保存。")
    pages.open_dashboard(page, live_server, _event_id(page))
    row = page.locator("#player-list tbody tr", has_text="李明远")
    expect(row).to_contain_text("4段")

    row.get_by_role("link", name="李明远").click()
    page.locator("#withdraw-player").click()  # the confirm step says what it means first
    expect(page.locator("#withdraw-meaning")).to_contain_text("赛前退赛")
    page.locator("#confirm-withdraw").get_by_role("button", name="确认退赛").click()
    expect(page.get_by_role("status")).to_contain_text("李明远 已退赛。")
    # back on the dashboard: the withdrawn player's row offers to reinstate
    row = page.locator("#player-list tbody tr", has_text="李明远")
    page.once("dialog", lambda dialog: dialog.accept())
    row.get_by_role("button", name="恢复参赛").click()
    expect(page.get_by_role("status")).to_contain_text("已恢复 李明远 参赛。")
    expect(row.get_by_role("link", name="退赛")).to_be_visible()

    row.get_by_role("link", name="李明远").click()

    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#delete-player").get_by_role("button", name="删除").click()
    expect(page.get_by_role("status")).to_contain_text("已删除 李明远。")
    expect(page.locator("#player-list tbody tr")).to_have_count(1)
    screenshot(page, "player-deleted-zh", tmp_path)


def _event_id(page: Page) -> int:
    found = re.search(r"/events/(\d+)/", page.url)
    assert found
    return int(found.group(1))
