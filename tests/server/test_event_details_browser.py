"""Issue #13 in real headless Chromium, in Chinese, on a desktop and a 390×844 phone: an
organiser gives an event its dates, venue and time control, changes the tie-breaks and the
number of rounds after round 1, sees why a locked field cannot change, and finds the venue,
dates and time control on the printed result sheet (marked ``browser``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.server import pages
from tests.server.conftest import LiveServer, screenshot
from tests.server.test_event_admin_browser import PHONE, organiser

pytestmark = pytest.mark.browser

PLAYERS = "姓名,段位,俱乐部\n李明,5d,北京\n王芳,4d,上海\n张伟,3d,成都\n赵磊,2d,杭州\n"


def test_issue_13_settings_after_round_1_and_details_on_the_sheet(
    page: Page, live_server: LiveServer, tmp_path: Path
) -> None:
    password = organiser(live_server, "qian")
    pages.log_in(page, live_server, "qian", password)
    page.goto(f"{live_server.url}/events/new")
    form = page.locator("#event-settings")
    expect(form.get_by_label("时区")).to_have_value("Asia/Shanghai")  # a Chinese page's default
    form.get_by_label("赛事名称").fill("2027 春季积分编排赛")
    form.get_by_label("轮数").fill("5")
    form.get_by_label("开始日期").fill("2027-05-01")
    form.get_by_label("结束日期").fill("2027-05-03")
    form.get_by_label("地点").fill("北京棋院")
    form.get_by_label("用时").fill("1h incl 5x60s")
    form.get_by_role("button", name="创建赛事").click()
    expect(page).to_have_url(re.compile(r"/events/\d+/manage$"))
    found = re.search(r"/events/(\d+)/manage", page.url)
    assert found
    event_id = int(found.group(1))
    pages.paste_players(page, PLAYERS)
    pages.open_dashboard(page, live_server, event_id)
    assert pages.pair_round(page) == 1

    page.goto(f"{live_server.url}/events/{event_id}/settings")
    form = page.locator("#event-settings")
    expect(page.locator("#settings-locked")).to_be_visible()
    komi = form.get_by_label("贴子（子）")
    expect(komi).to_be_disabled()
    expect(page.locator("#locked-komi")).to_contain_text("已下的对局")
    expect(page.locator("#locked-system")).to_contain_text("已做的编排")
    expect(form.get_by_label("轮数")).to_be_editable()
    expect(form.get_by_label("用时")).to_have_value("55m+5x60s")  # a setting, still editable
    expect(form.get_by_label("用时")).to_be_editable()
    page.set_viewport_size(PHONE)
    page.locator("#locked-komi").scroll_into_view_if_needed()
    expect(page.locator("#locked-komi")).to_be_in_viewport()
    screenshot(page, "settings-after-round-1-zh-phone", tmp_path)
    page.set_viewport_size({"width": 1200, "height": 800})

    form.get_by_label("轮数").fill("7")
    form.get_by_label(re.compile("采用规则规定的小分")).uncheck()
    form.get_by_label("第 1 项小分").select_option("SOS")
    form.get_by_label("第 2 项小分").select_option("SB")
    form.get_by_role("button", name="保存设置").click()
    expect(page.get_by_role("status")).to_contain_text("设置已保存。")
    page.goto(f"{live_server.url}/events/{event_id}/settings")
    expect(page.locator("#event-settings").get_by_label("轮数")).to_have_value("7")
    expect(page.locator("#event-settings").get_by_label("第 2 项小分")).to_have_value("SB")
    screenshot(page, "settings-after-round-1-zh", tmp_path)

    # the printed result sheet carries the venue, the dates and the time control
    page.goto(f"{live_server.url}/events/{event_id}/rounds/1/results")
    page.emulate_media(media="print")
    details = page.locator("#event-details")
    expect(details).to_be_visible()
    expect(details).to_contain_text("北京棋院")
    expect(details).to_contain_text("2027-05-01 – 2027-05-03")
    expect(details).to_contain_text("基本时限55分，读秒5次，每次60秒")
    pdf = page.pdf(format="A4")
    assert pdf.startswith(b"%PDF")
    page.set_viewport_size(PHONE)
    expect(details).to_be_visible()
    screenshot(page, "result-sheet-details-zh-phone", tmp_path)
    page.emulate_media(media="screen")
