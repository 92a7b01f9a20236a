"""A player sits out one round, on the organisers' pages in real headless Chromium, in Chinese,
on a desktop and a phone viewport (marked ``browser``; issue #13): the player's page ticks the
round, the pairing leaves the player out, the player is back the round after."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.server import pages
from tests.server.conftest import LiveServer, screenshot
from tests.server.result_pages import enter_round_results
from tests.server.test_event_admin_browser import PHONE, organiser

pytestmark = pytest.mark.browser


def test_a_player_sits_out_round_2_and_is_paired_again_in_round_3(
    page: Page, live_server: LiveServer, tmp_path: Path
) -> None:
    password = organiser(live_server, "qian")
    pages.log_in(page, live_server, "qian", password)
    event = pages.create_event(page, live_server, "2026 缺席测试", rounds=3)
    for name, rank in (("赵一", "5d"), ("钱二", "4d"), ("孙三", "3d"), ("李四", "2d")):
        pages.register_player(page, name, rank=rank)

    page.locator("#player-list").get_by_role("link", name="孙三").click()
    section = page.locator("#player-absences")
    expect(section).to_contain_text("不是退赛")
    section.get_by_label("第 2 轮").check()
    section.get_by_role("button", name="保存缺席轮次").click()
    expect(page.get_by_role("status")).to_contain_text("缺席轮次：2")
    expect(page.locator("#absent-2")).to_be_checked()
    page.set_viewport_size(PHONE)
    screenshot(page, "player-absences-zh-phone", tmp_path)
    page.locator("#absences-form button").scroll_into_view_if_needed()
    expect(page.locator("#absences-form button")).to_be_in_viewport()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.set_viewport_size({"width": 1200, "height": 800})

    pages.open_dashboard(page, live_server, event)
    assert pages.pair_round(page) == 1
    expect(page.locator("main")).to_contain_text("孙三")
    enter_round_results(page, live_server.url, event, 1, {1: "B+R", 2: "W+R"})
    pages.open_dashboard(page, live_server, event)
    assert pages.pair_round(page) == 2
    expect(page.locator("main")).not_to_contain_text("孙三")
    screenshot(page, "round-2-without-the-absent-player-zh", tmp_path)
