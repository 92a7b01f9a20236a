"""Under the Content-Security-Policy the pages' own scripts still run in real Chromium, and
nothing on them is blocked: the settings form shows only the chosen system's fields, the
withdraw and reveal confirmations still ask, and ``/docs`` renders Swagger UI from our own files
(marked ``browser``)."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, expect

from tests.server.conftest import LiveServer
from weiqi.services import accounts
from weiqi.services.actor import Actor
from weiqi.store.database import Database

pytestmark = pytest.mark.browser

VIEWPORTS = {"desktop": {"width": 1200, "height": 800}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(params=list(VIEWPORTS))
def watched(browser: Browser, request: pytest.FixtureRequest) -> Iterator[tuple[Page, list[str]]]:
    """A Chinese page and the console errors it logs (a CSP violation is one)."""
    context = browser.new_context(locale="zh-CN", viewport=VIEWPORTS[request.param])  # type: ignore[arg-type]
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors: list[str] = []

    def note(message: ConsoleMessage) -> None:
        if message.type == "error":
            errors.append(message.text)

    page.on("console", note)
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page, errors
    context.close()


def test_settings_form_script_runs_under_the_policy(
    watched: tuple[Page, list[str]], live_server: LiveServer
) -> None:
    page, errors = watched
    page.goto(f"{live_server.url}/login")
    username = f"keeper-{uuid.uuid4().hex[:8]}"
    db = Database(live_server.db_url)
    try:
        accounts.create_user(db, Actor.local(), username, "安全策略测试的密码 2026", is_admin=True)
    finally:
        db.dispose()
    page.get_by_label("用户名").fill(username)
    page.get_by_label("密码").fill("安全策略测试的密码 2026")
    page.locator("form").get_by_role("button", name="登录").click()
    page.wait_for_url("**/")
    page.goto(f"{live_server.url}/events/new")
    cycles = page.locator('input[name="cycles"]')
    page.locator('select[name="system"]').select_option("swiss")
    expect(cycles).to_be_hidden()
    page.locator('select[name="system"]').select_option("round_robin")
    expect(cycles).to_be_visible()
    # a team event's form alike (R-FMT-3): its cycles are its round robin's, the order of
    # players its 擂台赛's (tournament.settings.SYSTEM_SETTINGS, the one table of both forms)
    page.goto(f"{live_server.url}/events/new?kind=team")
    cycles, order = (
        page.locator('input[name="cycles"]'),
        page.locator('select[name="player_order"]'),
    )
    expect(cycles).to_be_visible()
    expect(order).to_be_hidden()
    page.locator('select[name="system"]').select_option("winner_stays_on")
    expect(order).to_be_visible()
    expect(cycles).to_be_hidden()
    assert errors == []


def test_api_docs_render_from_our_own_files(
    watched: tuple[Page, list[str]], live_server: LiveServer
) -> None:
    page, errors = watched
    requested: list[str] = []
    page.on("request", lambda r: requested.append(r.url))
    page.goto(f"{live_server.url}/docs")
    expect(page.get_by_role("heading", name=re.compile("weiqi"))).to_be_visible(timeout=30_000)
    expect(page.locator(".opblock").first).to_be_visible()
    assert all(url.startswith(live_server.url) or url.startswith("data:") for url in requested)
    assert errors == []
