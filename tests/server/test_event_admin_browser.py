"""The organisers' pages in real headless Chromium against the real server, in Chinese
(marked ``browser``): R-ORG-1, R-FMT-3, R-WD-1."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.server import pages
from tests.server.conftest import LiveServer, screenshot
from tests.server.test_event_admin_services import players_csv
from weiqi.roles import Role
from weiqi.services import accounts, event_admin
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.store.database import Database
from weiqi.tournament.settings import EventSettings, System

pytestmark = pytest.mark.browser
LOCAL = Actor.local()
PHONE = {"width": 390, "height": 844}


def organiser(server: LiveServer, username: str) -> str:
    """A user who organised an earlier event (so may create the next one); returns the password."""
    password = "组委会的密码 2026"
    db = Database(server.db_url)
    try:
        user = accounts.create_user(db, LOCAL, username, password, display_name="王组委")
        earlier = create_event(
            db, LOCAL, f"2025 秋季赛 ({username})", EventSettings(System.ROUND_ROBIN)
        )
        accounts.grant_role(db, LOCAL, user.id, earlier.id, Role.ORGANISER)
    finally:
        db.dispose()
    return password


def test_r_org_1_organiser_creates_a_swiss_imports_pairs_and_publishes(
    page: Page, live_server: LiveServer, tmp_path: Path
) -> None:
    """In Chinese: an organiser creates a 24-player Swiss (R-FMT-3), a CSV with a bad row is
    refused row by row with nothing imported, the good file enters 24 players, round 1 is
    paired with its explanation and published (R-ORG-1)."""
    password = organiser(live_server, "wang")
    pages.log_in(page, live_server, "wang", password)
    page.goto(live_server.url)
    page.locator("#new-event-link").click()
    expect(page.locator("h1")).to_have_text("新建赛事")
    expect(page.get_by_label("贴子（子）")).to_have_value("3¾")
    screenshot(page, "event-new-zh", tmp_path)
    page.set_viewport_size(PHONE)
    screenshot(page, "event-new-zh-phone", tmp_path)
    page.set_viewport_size({"width": 1200, "height": 800})

    # the core refuses a McMahon event without a bar: the reason stands next to the field
    page.get_by_label("赛事名称").fill("2026 麦克马洪赛")
    page.get_by_label("赛制").select_option(label="麦克马洪制")
    page.get_by_role("button", name="创建赛事").click()
    expect(page.locator("#error-mcmahon_bar")).to_have_text("麦克马洪制需要设定上限段位")
    expect(page.get_by_label("赛事名称")).to_have_value("2026 麦克马洪赛")
    expect(page.get_by_label("赛制")).to_have_value("mcmahon")
    screenshot(page, "event-new-error-zh", tmp_path)

    event_id = pages.create_event(page, live_server, "2026 俱乐部积分编排赛", rounds=5)
    expect(page.get_by_role("status")).to_have_text("已创建赛事 2026 俱乐部积分编排赛。")
    expect(page.locator(".facts-line")).to_contain_text("积分编排制")

    bad = tmp_path / "报名表-有错.csv"
    bad.write_text(players_csv(24).replace("选手03,2d", "选手03,12d"), encoding="utf-8")
    pages.import_players(page, bad)
    errors = page.locator("#import-errors")
    expect(errors).to_contain_text("未导入任何棋手")
    expect(errors.locator("li")).to_have_text(["第 5 行: 段位 12d：级别必须在 1 到 9 之间"])
    expect(page.locator("#player-list")).to_have_count(0)
    screenshot(page, "event-import-errors-zh", tmp_path)

    good = tmp_path / "报名表.csv"
    good.write_text(players_csv(24), encoding="utf-8")
    pages.import_players(page, good)
    expect(page.get_by_role("status")).to_have_text("已导入 24 名棋手。")
    expect(page.locator("#player-list tbody tr")).to_have_count(24)
    screenshot(page, "event-dashboard-zh", tmp_path)

    number = pages.pair_round(page)
    assert number == 1
    rows = page.locator("#pairing tbody tr")
    expect(rows).to_have_count(12)
    why = page.locator("#why tbody tr")  # why each pair, in plain words (issue #13)
    expect(why).to_have_count(12)
    expect(why.first).to_contain_text("排位第")
    expect(page.locator("#why-legend")).to_contain_text("与理想对手的偏差")
    expect(page.locator("#round-totals")).to_contain_text("同俱乐部对局")
    expect(page.locator("h1 .tag")).to_have_text("未公布")
    pages.publish_round(page)
    expect(page.get_by_role("status")).to_have_text("第 1 轮已公布。")
    screenshot(page, "event-round-zh", tmp_path)
    page.set_viewport_size(PHONE)
    screenshot(page, "event-round-zh-phone", tmp_path)

    page.goto(live_server.url)
    card = page.locator(".card", has_text="2026 俱乐部积分编排赛")
    card.get_by_role("link", name="赛务").click()
    expect(page).to_have_url(f"{live_server.url}/events/{event_id}/manage")
    expect(page.locator("#rounds tbody tr")).to_have_text([re.compile("第 1 轮.*已公布", re.S)])
    screenshot(page, "event-dashboard-zh-phone", tmp_path)


def test_r_org_1_a_player_may_not_create_an_event_or_pair(
    page: Page, live_server: LiveServer, tmp_path: Path
) -> None:
    """R-ORG-1: a player gets 403 for the new-event page and for pairing; nothing is paired."""
    db = Database(live_server.db_url)
    try:
        event = create_event(db, LOCAL, "2026 棋手不能编排", EventSettings(System.SWISS, rounds=3))
        event_admin.import_players(db, LOCAL, event.id, players_csv(8))
        player = accounts.create_user(db, LOCAL, "zhao", "赵磊的密码 2026")
        accounts.grant_role(db, LOCAL, player.id, event.id, Role.PLAYER)
    finally:
        db.dispose()
    pages.log_in(page, live_server, "zhao", "赵磊的密码 2026")
    expect(page.locator("#new-event-link")).to_have_count(0)
    response = page.goto(f"{live_server.url}/events/new")
    assert response is not None and response.status == 403
    expect(page.locator("main")).to_contain_text("无权创建赛事")
    screenshot(page, "event-new-403-zh", tmp_path)
    token = page.locator('meta[name="csrf-token"]').get_attribute("content")
    refused = page.request.post(
        f"{live_server.url}/events/{event.id}/manage/rounds", form={"csrf_token": token or ""}
    )
    assert refused.status == 403
    db = Database(live_server.db_url)
    try:
        assert event_admin.dashboard(db, LOCAL, event.id).rounds == ()
    finally:
        db.dispose()


def test_r_wd_1_withdraw_in_the_browser(
    page: Page, live_server: LiveServer, tmp_path: Path
) -> None:
    """R-WD-1: the dashboard explains a withdrawal; after withdrawing, the consequence shows
    and the player is left out of the draw; the draw can be undone."""
    password = organiser(live_server, "li")
    pages.log_in(page, live_server, "li", password)
    event_id = pages.create_event(page, live_server, "2026 退赛测试", rounds=3)
    pages.paste_players(page, players_csv(6))
    page.locator("details.rule summary").click()
    expect(page.locator("details.rule")).to_contain_text("赛前退赛：该棋手不参加抽签编排。")
    pages.withdraw_player(page, "选手00")
    expect(page.locator("#player-list tbody tr").first).to_contain_text("赛前退赛")
    screenshot(page, "event-withdrawn-zh", tmp_path)
    assert pages.pair_round(page) == 1
    expect(page.locator("#pairing")).not_to_contain_text("选手00")
    pages.unpair_round(page)
    expect(page.get_by_role("status")).to_have_text("第 1 轮编排已撤销。")
    pages.open_dashboard(page, live_server, event_id)
    expect(page.locator("#pair-round button")).to_have_text("编排第 1 轮")


def test_r_rank_rr_the_form_shows_the_servers_default_tiebreaks_per_system(
    page: Page, live_server: LiveServer
) -> None:
    """R-RANK-RR / R-RANK-SWISS (issue #10): with the rules' tie-breaks ticked, the form shows
    the server's defaults of the chosen system — none for a knockout (a bracket ranks by how
    far players came), SB and warnings once it is out after 2 losses, SOS or TOTAL for a
    Swiss — read from ``tournament.settings``, not a copy in the page's script."""
    password = organiser(live_server, "liu")
    pages.log_in(page, live_server, "liu", password)
    page.goto(f"{live_server.url}/events/new")
    first, second = page.locator("select[name=tiebreak_1]"), page.locator("select[name=tiebreak_2]")
    page.get_by_label("赛制").select_option("knockout")
    expect(first).to_have_value("")
    expect(second).to_have_value("")
    expect(first).to_be_disabled()
    page.locator("input[name=elimination_losses]").fill("2")
    expect(first).to_have_value("SB")
    expect(second).to_have_value("WARN")
    page.get_by_label("赛制").select_option("double_elimination")
    expect(first).to_have_value("")
    page.get_by_label("赛制").select_option("swiss")
    expect(first).to_have_value("SOS")
    page.locator("select[name=swiss_method]").select_option("A")
    expect(first).to_have_value("TOTAL")
