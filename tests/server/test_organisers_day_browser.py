"""Issue #13 in real headless Chromium, in Chinese, on a desktop and a 390×844 phone (marked
``browser``): a team event's details on its pages, the team dashboard saying why a round
cannot be paired, the organisers' round pages' search, the projector's clock in the event's
zone (the browser being elsewhere), and a reload after a refused form."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server import pages
from tests.server.conftest import LiveServer, screenshot
from tests.server.test_event_admin_browser import PHONE, organiser
from weiqi.league.settings import TeamEventSettings
from weiqi.roles import Role
from weiqi.services import accounts, event_admin, teams, tournament
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.store.database import Database
from weiqi.tournament.details import EventDetails
from weiqi.tournament.settings import EventSettings, System

pytestmark = pytest.mark.browser

LOCAL = Actor.local()
PASSWORD = "裁判长的密码 2027"
TEAMS = "队名,姓名,段位,俱乐部\n" + "\n".join(
    f"{t},{t}{i},{6 - i}d,{c}" for t, c in (("黑龙", "天津"), ("白虎", "北京"), ("青龙", "上海"),
                                           ("朱雀", "成都")) for i in (1, 2)
)  # fmt: skip


@pytest.fixture
def new_york(browser: Browser) -> Iterator[Page]:
    """A Chinese-speaking browser whose computer is set to New York time."""
    context = browser.new_context(
        locale="zh-CN", timezone_id="America/New_York", viewport={"width": 1280, "height": 720}
    )
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


def _db(server: LiveServer) -> Database:
    return Database(server.db_url)


def test_issue_13_team_event_details_edited_on_its_settings_page(
    page: Page, live_server: LiveServer, tmp_path: Path
) -> None:
    """The new team event's form has the dates, venue, Asia/Shanghai and the time control; its
    settings page changes them (the team settings shown 🔒); a refused save keeps the input
    beside its error at the page's own address, and a reload asks for that page (GET, 200)."""
    password = organiser(live_server, "zhao")
    pages.log_in(page, live_server, "zhao", password)
    page.goto(f"{live_server.url}/events/new?kind=team")
    form = page.locator("#team-event-settings")
    expect(form.get_by_label("时区")).to_have_value("Asia/Shanghai")
    form.get_by_label("赛事名称").fill("2027 天津市围棋团体赛")
    form.get_by_label("开始日期").fill("2027-05-01")
    form.get_by_label("结束日期").fill("2027-05-03")
    form.get_by_label("地点").fill("天津棋院")
    form.get_by_label("用时").fill("1h incl 5x60s")
    form.get_by_label("每场台数").fill("2")
    form.get_by_label("对局方式").select_option("online")  # its boards played in the room
    form.get_by_label("网络对局的开始").select_option("round_start")
    form.get_by_role("button", name="创建赛事").click()
    expect(page).to_have_url(re.compile(r"/events/\d+/manage$"))
    expect(page.locator(".facts-line")).to_contain_text("网络对局")
    expect(page.locator(".facts-line")).to_contain_text("各台按轮次开始时间开赛")
    found = re.search(r"/events/(\d+)/manage", page.url)
    assert found
    event_id = int(found.group(1))
    expect(page.locator("#manage-details")).to_contain_text("天津棋院")
    # a refused import (its POST address has no page) ends on the dashboard's address
    page.locator("#import-teams").get_by_label("或粘贴 CSV 内容").fill("队名,姓名\n黑龙,\n")
    page.locator("#import-teams").get_by_role("button", name="导入").click()
    expect(page.locator("#import-teams")).to_contain_text("黑龙")
    expect(page).to_have_url(f"{live_server.url}/events/{event_id}/manage")
    reloaded = page.reload()
    assert reloaded is not None and reloaded.request.method == "GET" and reloaded.status == 200
    page.locator("#settings-link").click()
    expect(page).to_have_url(f"{live_server.url}/events/{event_id}/settings")
    form = page.locator("#team-event-settings")
    expect(form.get_by_label("每场台数")).to_be_disabled()
    expect(page.locator("#locked-boards")).to_contain_text("创建赛事时已确定")
    expect(form.get_by_label("对局方式")).to_have_value("online")  # no round yet: it may change
    expect(form.get_by_label("对局方式")).to_be_enabled()

    form.get_by_label("地点").fill("天津棋院二楼")
    form.get_by_label("结束日期").fill("2027-04-30")  # before the first day: refused
    form.get_by_role("button", name="保存设置").click()
    expect(page.locator("#error-end_date")).to_be_visible()
    expect(page.locator("#team-event-settings").get_by_label("地点")).to_have_value("天津棋院二楼")
    expect(page).to_have_url(f"{live_server.url}/events/{event_id}/settings")
    page.set_viewport_size(PHONE)
    expect(page.locator("#error-end_date")).to_be_in_viewport()
    screenshot(page, "team-settings-refused-zh-phone", tmp_path)
    page.set_viewport_size({"width": 1200, "height": 800})
    reloaded = page.reload()
    assert reloaded is not None and reloaded.request.method == "GET" and reloaded.status == 200
    expect(page.locator("#team-event-settings").get_by_label("地点")).to_have_value("天津棋院")

    form = page.locator("#team-event-settings")
    form.get_by_label("地点").fill("天津棋院二楼")
    form.get_by_label("时区").fill("Europe/Paris")
    form.get_by_label("用时").fill("90m")
    form.get_by_role("button", name="保存设置").click()
    expect(page.get_by_role("status")).to_contain_text("设置已保存。")
    page.goto(f"{live_server.url}/events/{event_id}/teams")
    details = page.locator("#event-details")
    expect(page.get_by_text("网络对局", exact=False).first).to_be_visible()
    expect(details).to_contain_text("天津棋院二楼")
    expect(details).to_contain_text("2027-05-01 – 2027-05-03")
    expect(details).to_contain_text("基本时限90分")
    page.set_viewport_size(PHONE)
    expect(details).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, "team-public-details-zh-phone", tmp_path)


def test_issue_13_team_dashboard_says_why_and_round_pages_search(
    page: Page, live_server: LiveServer, tmp_path: Path
) -> None:
    """No pairing button while round 1's lineups are sealed: the reason instead (a Swiss); the
    team round page and the individual round page find a player by name, club or rank; the
    team round page says why each match was paired (R-FMT-3)."""
    db = _db(live_server)
    try:
        settings = TeamEventSettings(boards=2, system=System.SWISS, rounds=3)
        event_id = create_event(db, LOCAL, "团体积分编排赛", settings).id
        teams.import_teams(db, LOCAL, event_id, TEAMS)
        teams.pair_round(db, LOCAL, event_id)
        solo = create_event(db, LOCAL, "个人积分编排赛", EventSettings(System.SWISS, rounds=3)).id
        event_admin.import_players(
            db,
            LOCAL,
            solo,
            "姓名,段位,俱乐部\n李明,5d,北京\n王芳,4d,上海\n张伟,3d,成都\n赵磊,2d,杭州\n",
        )
        event_admin.pair_next_round(db, LOCAL, solo)
        user = accounts.create_user(db, LOCAL, "sun", PASSWORD, display_name="孙裁判长")
        for ev in (event_id, solo):
            for role in (Role.ORGANISER, Role.CHIEF_REFEREE):
                accounts.grant_role(db, LOCAL, user.id, ev, role)
    finally:
        db.dispose()
    pages.log_in(page, live_server, "sun", PASSWORD)
    for size in ({"width": 1200, "height": 800}, PHONE):
        page.set_viewport_size(size)
        page.goto(f"{live_server.url}/events/{event_id}/manage")
        blocked = page.locator("#pair-blocked")
        expect(blocked).to_contain_text("第2轮暂不能编排")
        expect(blocked).to_contain_text("出场名单未公开")
        expect(page.locator("#pair-round")).to_have_count(0)
        blocked.scroll_into_view_if_needed()
        expect(blocked).to_be_in_viewport()
    screenshot(page, "team-pair-blocked-zh-phone", tmp_path)

    page.set_viewport_size({"width": 1200, "height": 800})
    page.goto(f"{live_server.url}/events/{event_id}/manage/rounds/1")
    search = page.locator("#player-search")
    search.get_by_label("查找棋手").fill("北京")  # 白虎's club
    search.get_by_role("button", name="搜索").click()
    rows = page.locator("#lineup-status tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("白虎")
    expect(page.locator("#player-search").get_by_label("查找棋手")).to_have_value("北京")
    # why each match was paired, in a team's words, and found by the same search
    why = page.locator("#why tbody tr")
    expect(why).to_have_count(1)
    expect(why.first).to_contain_text("白虎")
    expect(why.first).to_contain_text("场分 0")
    expect(page.locator("#why thead")).to_contain_text("主队")
    expect(page.locator("#why-legend")).to_contain_text("违反主客场规则")

    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/events/{solo}/manage/rounds/1")
    search = page.locator("#player-search")
    expect(search).to_be_in_viewport()
    search.get_by_label("查找棋手").fill("3段")
    search.get_by_role("button", name="搜索").click()
    boards = page.locator("#pairing tbody tr")
    expect(boards).to_have_count(1)
    expect(boards.first).to_contain_text("张伟")
    expect(page.locator("#why tbody tr")).to_have_count(1)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, "round-search-zh-phone", tmp_path)
    page.get_by_role("link", name="显示全部").click()
    expect(page.locator("#pairing tbody tr")).to_have_count(2)

    # the team round's start, set on its page as an individual round's (a past one refused
    # beside the field, the input kept); on a phone too
    page.goto(f"{live_server.url}/events/{event_id}/manage/rounds/1")
    page.locator("#round-start").fill("2020-01-01T09:00")
    page.locator("#round-start-form").get_by_role("button", name="保存开始时间").click()
    expect(page.locator("#error-start")).to_contain_text("开始时间须晚于现在")
    expect(page.locator("#error-start")).to_be_in_viewport()
    expect(page.locator("#round-start")).to_have_value("2020-01-01T09:00")
    page.locator("#round-start").fill("2030-06-01T09:30")
    page.locator("#round-start-form").get_by_role("button", name="保存开始时间").click()
    expect(page.locator("#round-starts")).to_contain_text("2030-06-01 09:30")
    expect(page.locator(".facts-line")).to_contain_text("2030-06-01 09:00")  # lineups: 30 min
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, "team-round-start-zh-phone", tmp_path)


def test_issue_13_the_projector_clock_is_in_the_event_zone(
    new_york: Page, live_server: LiveServer, tmp_path: Path
) -> None:
    """The projector's clock (drawn by projector.js) reads the event's local time — Beijing,
    then Paris once the organiser changes the zone — never the computer's New York time."""
    db = _db(live_server)
    try:
        info = create_event(db, LOCAL, "投影赛", EventSettings(System.SWISS, rounds=3))
        event_admin.import_players(db, LOCAL, info.id, "姓名,段位\n甲,5d\n乙,4d\n")
        event_admin.pair_next_round(db, LOCAL, info.id)
        event_admin.publish_round(db, LOCAL, info.id, 1)
    finally:
        db.dispose()
    page = new_york
    assert page.evaluate("Intl.DateTimeFormat().resolvedOptions().timeZone") == "America/New_York"
    for zone in ("Asia/Shanghai", "Europe/Paris"):
        if zone != "Asia/Shanghai":
            db = _db(live_server)
            try:
                current = tournament.tournament_info(db, info.id)
                event_admin.update_settings(
                    db, LOCAL, info.id, current.name, current.settings, EventDetails(time_zone=zone)
                )
            finally:
                db.dispose()
        page.goto(f"{live_server.url}/events/{info.id}/rounds/1/projector?seconds=0")
        clock = page.locator("#projector-clock")
        expect(clock).to_have_text(re.compile(r"^\d\d:\d\d$"))
        at = datetime.fromisoformat(clock.get_attribute("datetime") or "").astimezone(UTC)
        shown = clock.inner_text()
        assert shown == at.astimezone(ZoneInfo(zone)).strftime("%H:%M"), (zone, shown, at)
        assert shown != at.astimezone(ZoneInfo("America/New_York")).strftime("%H:%M")
        assert clock.get_attribute("title") == zone
    screenshot(page, "projector-clock-paris", tmp_path)
    page.set_viewport_size(PHONE)
    expect(page.locator("#projector-clock")).to_be_in_viewport()
