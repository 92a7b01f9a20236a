"""A player with an invitation code but no account signs up from ``/join`` (issue #11), in
Chinese, in real Chromium on a desktop and on a 390×844 phone, against ``weiqi serve`` as
``make run`` starts it (sign-up open by default): the logged-out ``/join`` leads on to the
sign-up form with the code filled in, a weak password is refused beside its field with the
input kept, the new account lands on the home page showing its game of the published online
round, and it logs out and back in with its password."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.live.conftest import LOCAL, PASSWORD
from tests.server.conftest import LiveServer, screenshot
from tests.server.result_pages import log_in_as
from weiqi.services import accounts, live
from weiqi.services import tournament as t
from weiqi.services.event_admin import publish_round
from weiqi.services.events import create_event
from weiqi.store.database import Database
from weiqi.tournament.settings import EventSettings, PlayMode, System

pytestmark = pytest.mark.browser
VIEWPORTS = {"desktop": {"width": 1200, "height": 800}, "phone": {"width": 390, "height": 844}}


def _context_page(browser: Browser, viewport: dict[str, int]) -> Page:
    context = browser.new_context(locale="zh-CN", viewport=viewport)  # type: ignore[arg-type]
    context.set_default_timeout(15_000)
    return context.new_page()


def _event_with_a_code(server: LiveServer, tag: str) -> tuple[int, str]:
    """An online round robin of 李明 and 王强 on 9×9, round 1 published; 王强 plays from an
    account he had, 李明 has only the invitation code returned."""
    db = Database(server.db_url)
    try:
        settings = EventSettings(System.ROUND_ROBIN, board_size=9, play=PlayMode.ONLINE)
        ev = create_event(db, LOCAL, f"{tag}网络赛", settings).id
        t.import_players(db, LOCAL, ev, "name,rank\n李明,5d\n王强,4d\n")
        t.pair_round(db, LOCAL, ev)
        publish_round(db, LOCAL, ev, 1)
        wang = accounts.create_user(db, LOCAL, f"wang-{tag}", PASSWORD)
        code = live.create_invite(db, LOCAL, ev, live.player_id(db, ev, "王强")).code
        live.redeem_invite(db, wang.actor(), code)
        return ev, live.create_invite(db, LOCAL, ev, live.player_id(db, ev, "李明")).code
    finally:
        db.dispose()


def _fits(page: Page, width: int) -> None:
    """Nothing runs off the side of the screen."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("device", sorted(VIEWPORTS))
def test_a_player_with_a_code_signs_up_from_join_and_finds_the_game(
    browser: Browser, live_server: LiveServer, tmp_path: Path, device: str
) -> None:
    viewport = VIEWPORTS[device]
    base = live_server.url
    ev, code = _event_with_a_code(live_server, f"signup-{device}")
    username = f"liming-{device}"
    page = _context_page(browser, viewport)
    try:
        page.goto(f"{base}/join")  # not logged in: the code, then log in or sign up with it
        expect(page.locator("h1")).to_have_text("以棋手身份加入赛事")
        expect(page.locator("#join-log-in")).to_have_text("登录后加入")
        page.locator("#join-code").fill(code)
        _fits(page, viewport["width"])
        page.locator("#join-sign-up").click()
        expect(page).to_have_url(re.compile(r"/signup\?code="))
        expect(page.locator("h1")).to_have_text("注册账号")
        expect(page.locator("#signup-code")).to_have_value(code)
        page.locator("#signup-username").fill(username)
        page.locator("#signup-password").fill("12345678")
        page.locator("#signup-password_again").fill("12345678")
        page.locator("#signup-form button[type=submit]").click()
        expect(page.locator("#error-password")).to_have_text("是最常见的密码之一，请另选一个")
        expect(page.locator("#signup-username")).to_have_value(username)  # the input kept
        expect(page.locator("#signup-code")).to_have_value(code)
        expect(page.locator("#signup-password")).to_have_value("")  # never a password
        _fits(page, viewport["width"])
        screenshot(page, f"signup-refused-{device}", tmp_path)
        page.locator("#signup-password").fill(PASSWORD)
        page.locator("#signup-password_again").fill(PASSWORD)
        page.locator("#signup-form button[type=submit]").click()
        expect(page).to_have_url(f"{base}/")
        expect(page.locator(".notice")).to_contain_text("你现在以李明的身份参加")
        expect(page.locator(".site-tools .account")).to_have_text("李明")
        mine = page.locator("#my-games a.card-title")
        expect(mine).to_contain_text(f"signup-{device}网络赛")
        expect(mine).to_contain_text("第1轮")
        expect(page.locator("#my-games")).to_contain_text("王强")
        _fits(page, viewport["width"])
        screenshot(page, f"signup-home-{device}", tmp_path)
        page.locator("form[action='/logout'] button").click()
        expect(page.locator(".site-tools .account")).to_have_count(0)
        expect(page.locator("#my-games")).to_have_count(0)
        log_in_as(page, base, username, PASSWORD)
        page.goto(f"{base}/")
        expect(page.locator("#my-games a.card-title")).to_contain_text("第1轮")
        mine = page.locator("#my-games a.card-title")
        mine.click()
        expect(page).to_have_url(re.compile(rf"/events/{ev}/rounds/1/boards/\d+/play$"))
    finally:
        page.context.close()
