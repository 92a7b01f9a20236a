"""Issue #13 ("Settings and results") in real headless Chromium, in Chinese, on a desktop and a
390×844 phone: a drawn knockout game links at once to its playoff (加赛, R-PLAYOFF) and the
referee records it there; the manage page says why the next round cannot be paired instead of
a button that fails; two stale second tabs (a result on a board confirmed meanwhile, a round
paired meanwhile) end on the page they came from with the reason."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.server.conftest import LiveServer, screenshot
from tests.server.result_pages import confirm_result, enter_result, game_url, log_in_as
from weiqi.roles import Role
from weiqi.services import accounts
from weiqi.services import tournament as t
from weiqi.services.actor import Actor
from weiqi.services.event_admin import publish_round
from weiqi.services.events import create_event
from weiqi.store.database import Database
from weiqi.tournament.settings import EventSettings, System

pytestmark = pytest.mark.browser
LOCAL = Actor.local()
PASSWORD = "裁判长的密码 2026"
VIEWPORTS = {"desktop": {"width": 1200, "height": 800}, "phone": {"width": 390, "height": 844}}


def _event(
    server: LiveServer, tag: str, settings: EventSettings, *, pair: bool = True, draw: bool = False
) -> tuple[int, str]:
    """An event of four with a chief referee ``chief-<tag>``; round 1 paired and published
    (with a draw on board 1 and a win on board 2 when ``draw``)."""
    db = Database(server.db_url)
    try:
        ev = create_event(db, LOCAL, f"{tag}杯", settings).id
        t.import_players(db, LOCAL, ev, "name,rank\n李明,5d\n王强,4d\n张伟,3d\n刘洋,2d\n")
        if pair:
            t.pair_round(db, LOCAL, ev)
            publish_round(db, LOCAL, ev, 1)
        if draw:
            t.record_result(db, LOCAL, ev, 1, 1, "0")
            t.record_result(db, LOCAL, ev, 1, 2, "B+R")
        name = f"chief-{tag}"
        user = accounts.create_user(db, LOCAL, name, PASSWORD)
        accounts.grant_role(db, LOCAL, user.id, ev, Role.CHIEF_REFEREE)
        return ev, name
    finally:
        db.dispose()


@pytest.fixture(params=list(VIEWPORTS))
def viewport(request: pytest.FixtureRequest, page: Page) -> str:
    page.set_viewport_size(VIEWPORTS[request.param])
    return str(request.param)


def test_r_playoff_a_drawn_knockout_game_links_to_its_playoff(
    page: Page, live_server: LiveServer, viewport: str, tmp_path: Path
) -> None:
    """R-PLAYOFF: the chief referee confirms a draw from the knockout's round sheet; the sheet
    says at once that a playoff decides board 1 and links to where its result is entered; the
    playoff's result recorded there, the notice is gone and the board has its winner."""
    ev, chief = _event(live_server, f"加赛{viewport}", EventSettings(system=System.KNOCKOUT))
    log_in_as(page, live_server.url, chief, PASSWORD)
    page.goto(f"{live_server.url}/events/{ev}/rounds/1/results")
    page.locator("input[name=result_1]").fill("0")
    page.locator("input[name=result_2]").fill("B+R")
    with page.expect_navigation():
        page.locator("#round-sheet button[type=submit]").click()
    notice = page.locator("#playoffs-due")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("加赛")
    expect(page.locator("#board-1 .playoff-due")).to_have_text("需加赛")
    screenshot(page, f"knockout-draw-sheet-{viewport}", tmp_path)
    with page.expect_navigation():
        notice.get_by_role("link", name="第1台").click()
    assert page.url.endswith("/boards/1#played-again")
    expect(page.locator("#playoff-due")).to_contain_text("加赛")
    entry = page.locator("#played-again input[name=entry]")
    expect(entry).to_be_in_viewport()
    screenshot(page, f"knockout-draw-game-{viewport}", tmp_path)
    entry.fill("W+R")
    with page.expect_navigation():
        page.locator("#played-again button[type=submit]").click()
    expect(page.locator("#result")).to_contain_text("白中盘胜")
    expect(page.locator("#playoff-due")).to_have_count(0)
    page.goto(f"{live_server.url}/events/{ev}/rounds/1/results")
    expect(page.locator("#playoffs-due")).to_have_count(0)


def test_the_manage_page_says_why_the_next_round_cannot_be_paired(
    page: Page, live_server: LiveServer, viewport: str, tmp_path: Path
) -> None:
    """A knockout waiting for board 1's playoff: the manage page names the reason and links to
    the round sheet, and offers no "pair round 2" that would fail."""
    ev, chief = _event(
        live_server, f"编排{viewport}", EventSettings(system=System.KNOCKOUT), draw=True
    )
    log_in_as(page, live_server.url, chief, PASSWORD)
    page.goto(f"{live_server.url}/events/{ev}/manage")
    blocked = page.locator("#pair-blocked")
    expect(blocked).to_be_visible()
    expect(blocked).to_contain_text("第2轮")
    expect(blocked).to_contain_text("加赛")
    expect(page.locator("#pair-round")).to_have_count(0)
    screenshot(page, f"manage-pair-blocked-{viewport}", tmp_path)
    with page.expect_navigation():
        blocked.get_by_role("link").click()
    expect(page.locator("#playoffs-due")).to_be_visible()


def test_a_stale_tab_entering_a_confirmed_boards_result_stays_on_the_game_page(
    page: Page, live_server: LiveServer, viewport: str, tmp_path: Path
) -> None:
    """Two tabs on board 1: the first enters and confirms B+R; the second, loaded before,
    sends W+R — it comes back to the game page as the board is now, the reason at its top and
    in view, the confirmed result untouched."""
    ev, chief = _event(live_server, f"旧页{viewport}", EventSettings(system=System.ROUND_ROBIN))
    log_in_as(page, live_server.url, chief, PASSWORD)
    stale = page.context.new_page()
    stale.set_viewport_size(VIEWPORTS[viewport])
    stale.goto(game_url(live_server.url, ev, 1, 1))
    enter_result(page, live_server.url, ev, 1, 1, "B+R")
    confirm_result(page, live_server.url, ev, 1, 1)
    stale.locator("#enter-result input[name=entry]").fill("W+R")
    with stale.expect_navigation():
        stale.locator("#enter-result button[type=submit]").click()
    refused = stale.locator("#refused")
    expect(refused).to_be_visible()
    expect(refused).to_be_in_viewport()
    expect(refused).to_have_attribute("role", "alert")
    # at the game page's own address, not the form's POST address: a reload asks for the page
    expect(stale).to_have_url(game_url(live_server.url, ev, 1, 1))
    expect(stale.locator("#game-facts")).to_be_visible()
    expect(stale.locator("#result")).to_contain_text("黑中盘胜")
    expect(stale.locator("#enter-result")).to_have_count(0)
    screenshot(stale, f"stale-result-{viewport}", tmp_path)
    reloaded = stale.reload()
    assert reloaded is not None and reloaded.request.method == "GET" and reloaded.status == 200
    expect(stale.locator("#result")).to_contain_text("黑中盘胜")


def test_a_stale_tab_pairing_a_round_again_ends_on_the_manage_page(
    page: Page, live_server: LiveServer, viewport: str, tmp_path: Path
) -> None:
    """Two tabs on the manage page: the first pairs round 1; the second's "pair round 1"
    ends on the manage page with the reason (round 1 has no results yet) and no button."""
    settings = EventSettings(system=System.SWISS, rounds=3)
    ev, chief = _event(live_server, f"重复编排{viewport}", settings, pair=False)
    log_in_as(page, live_server.url, chief, PASSWORD)
    stale = page.context.new_page()
    stale.set_viewport_size(VIEWPORTS[viewport])
    manage = f"{live_server.url}/events/{ev}/manage"
    stale.goto(manage)
    page.goto(manage)
    with page.expect_navigation():
        page.locator("#pair-round button[type=submit]").click()
    expect(page.locator("#pairing")).to_be_visible()
    with stale.expect_navigation():
        stale.locator("#pair-round button[type=submit]").click()
    assert stale.url == manage + "#rounds"
    expect(stale.get_by_role("status")).to_contain_text("第1轮")
    expect(stale.locator("#round-open")).to_be_visible()  # round 1 waits for its results
    expect(stale.locator("#pair-round")).to_have_count(0)
    screenshot(stale, f"stale-pair-{viewport}", tmp_path)
