"""Entry claims in real Chromium, in Chinese, on a desktop and a 390×844 phone (issue #11):
a user claims an entrant of an online event from /join, the organiser approves it on the
invitation page, and the player's home page shows the game of the published round; a second
user's claim to the same entrant ends declined, the reason shown to them."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.live.conftest import LOCAL, PASSWORD
from tests.server.conftest import LiveServer
from tests.server.result_pages import log_in_as
from weiqi.roles import Role
from weiqi.services import accounts
from weiqi.services import tournament as t
from weiqi.services.event_admin import publish_round
from weiqi.services.events import create_event
from weiqi.store.database import Database
from weiqi.tournament.settings import EventSettings, PlayMode, System

pytestmark = pytest.mark.browser
VIEWPORTS = {"desktop": {"width": 1200, "height": 800}, "phone": {"width": 390, "height": 844}}


def _page(browser: Browser, server: LiveServer, username: str, device: str) -> Page:
    context = browser.new_context(locale="zh-CN", viewport=VIEWPORTS[device])  # type: ignore[arg-type]
    context.set_default_timeout(20_000)
    page = context.new_page()
    log_in_as(page, server.url, username, PASSWORD)
    return page


def _claim(page: Page, server: LiveServer, event: str, player: str, note: str) -> None:
    page.goto(f"{server.url}/join")
    page.get_by_role("link", name="认领你的报名，由组委会批准").click()
    page.get_by_role("link", name=event).click()
    page.get_by_label("我是").select_option(label=player)
    page.get_by_label("给组委会的附言").fill(note)
    page.get_by_role("button", name="认领此报名").click()
    expect(page.locator("#my-claims tr[data-state='pending']")).to_contain_text(player)


@pytest.mark.parametrize("device", sorted(VIEWPORTS))
def test_a_claim_is_approved_on_the_invitation_page_and_the_rival_claim_declined(
    browser: Browser, live_server: LiveServer, device: str
) -> None:
    db = Database(live_server.db_url)
    try:
        name = f"{device}认领赛"
        settings = EventSettings(System.ROUND_ROBIN, board_size=9, play=PlayMode.ONLINE)
        ev = create_event(db, LOCAL, name, settings).id
        t.import_players(db, LOCAL, ev, "name\n李明\n王强\n")
        t.pair_round(db, LOCAL, ev)
        publish_round(db, LOCAL, ev, 1)
        users = {r: f"{r}-{device}" for r in ("organiser", "claimant", "rival")}
        for role, username in users.items():
            user = accounts.create_user(db, LOCAL, username, PASSWORD)
            if role == "organiser":
                accounts.grant_role(db, LOCAL, user.id, ev, Role.ORGANISER)
    finally:
        db.dispose()
    claimant = _page(browser, live_server, users["claimant"], device)
    _claim(claimant, live_server, name, "李明", "EGF PIN 12345678")
    rival = _page(browser, live_server, users["rival"], device)
    _claim(rival, live_server, name, "李明", "我才是李明")
    organiser = _page(browser, live_server, users["organiser"], device)
    organiser.goto(f"{live_server.url}/events/{ev}/invites")
    row = organiser.locator(f"#pending-claims tr[data-user='{users['claimant']}']")
    expect(row).to_contain_text("EGF PIN 12345678")
    expect(organiser.locator("#invites tr[data-player='李明']")).to_contain_text("已有人认领")
    row.get_by_role("button", name="批准").click()
    expect(organiser.locator("#invites tr[data-player='李明']")).to_contain_text(users["claimant"])
    expect(organiser.locator("#pending-claims")).to_have_count(0)
    claimant.goto(f"{live_server.url}/")
    expect(claimant.locator("#my-games")).to_contain_text(f"{name} · 第1轮")
    rival.goto(f"{live_server.url}/claims")
    declined = rival.locator("#my-claims tr[data-state='declined']")
    expect(declined).to_contain_text("已拒绝")
    expect(declined).to_contain_text("另一位用户对该参赛者的认领已获批准")
    for page in (claimant, rival, organiser):
        page.context.close()
