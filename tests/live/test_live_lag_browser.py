"""The game room's page measures the player's think time (issue #11, the lag allowance): in
Chromium, each move and pass says how long the player thought, from the arrival of the push
that gave them the turn — never more than the server measured — and a turn the page did not
see begin (reloaded during it) says nothing."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.live.conftest import PASSWORD, online_event
from tests.server.conftest import LiveServer
from tests.server.result_pages import log_in_as
from weiqi.services import games
from weiqi.store.database import Database

pytestmark = pytest.mark.browser


def _page(browser: Browser) -> Page:
    context = browser.new_context(locale="zh-CN", viewport={"width": 1200, "height": 800})
    context.set_default_timeout(15_000)
    return context.new_page()


def _click(page: Page, vertex: str) -> None:
    page.locator(f"#live-board svg.board circle.star[data-vertex={vertex}]").click(force=True)


def test_the_room_sends_the_think_time_of_each_turn_it_saw_begin(
    browser: Browser, live_server: LiveServer
) -> None:
    ev = online_event(live_server, "lag-browser")
    black, white = _page(browser), _page(browser)
    try:
        for page, color in ((black, "B"), (white, "W")):
            log_in_as(page, live_server.url, ev.players[color], PASSWORD)
            page.goto(f"{live_server.url}{ev.room()}/play")  # Black's in first: the start
        expect(black.locator("#live-status")).to_have_text("轮到你落子")  # pushed to Black
        black.wait_for_timeout(300)
        _click(black, "E5")
        expect(white.locator("#live-status")).to_have_text("轮到你落子")
        white.wait_for_timeout(300)
        _click(white, "C3")
        expect(black.locator("#live-status")).to_have_text("轮到你落子")
        black.reload()  # the turn began before this page: its think time is unknown
        expect(black.locator("#live-status")).to_have_text("轮到你落子")
        # the page says whose turn it is before its socket is open: a click sooner is lost
        expect(black.locator("body")).to_have_attribute("data-live", "open")
        _click(black, "G7")
        expect(white.locator("#live-status")).to_have_text("轮到你落子")
        white.locator("#live-pass").click()
        expect(black.locator("#live-status")).to_have_text("轮到你落子")
    finally:
        black.context.close()
        white.context.close()
    db = Database(live_server.db_url)
    try:
        text = games.record_json(db, ev.id, 1, 1)
    finally:
        db.dispose()
    assert text is not None
    entries = json.loads(text)["entries"]
    started = next(e["at"] for e in entries if e["event"].get("action") == "start")
    presses = [e for e in entries if e["event"].get("action") == "press"]
    assert len(presses) == 4
    thinks = [p["event"].get("think") for p in presses]
    assert thinks[2] is None  # Black's turn seen only after the reload
    since = [started, *(p["at"] for p in presses)]
    assert thinks[0] is not None and thinks[1] is not None and thinks[3] is not None
    assert thinks[0] >= 0.3 and thinks[1] >= 0.3  # each waited that long before clicking
    for think, press, began in zip(thinks, presses, since, strict=False):
        if think is not None:  # within what the server measured (the network's share on top)
            assert 0 <= think <= press["at"] - began + 0.05, (think, press["at"] - began)
