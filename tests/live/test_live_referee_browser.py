"""The spectators' round page and the referee console in Chromium, in Chinese, on a desktop and
on a 390×844 phone (issue #11; R-TIME-5, R-END-1(d)): while two players (WebSocket clients of
the real server) play, a visitor's round page shows each stone as it is played and both clocks;
the referee's console shows who is connected and the time trouble; the referee opens the game,
pauses it (the players' and the visitor's pages say so at once), is refused a ruling without
its loser next to the field with the reason typed kept, and resumes it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.live.conftest import PASSWORD, online_event, reader
from tests.live.test_live_socket import _play, _seq_after, _started
from tests.server.conftest import LiveServer, screenshot
from tests.server.result_pages import log_in_as

pytestmark = pytest.mark.browser
VIEWPORTS = {"desktop": {"width": 1200, "height": 800}, "phone": {"width": 390, "height": 844}}


def _context_page(browser: Browser, viewport: dict[str, int]) -> Page:
    context = browser.new_context(locale="zh-CN", viewport=viewport)  # type: ignore[arg-type]
    context.set_default_timeout(15_000)
    return context.new_page()


def _fits(page: Page, width: int) -> None:
    """Nothing wider than the screen (no sideways scrolling on a phone)."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("device", sorted(VIEWPORTS))
def test_a_visitor_watches_the_round_and_the_referee_pauses_a_game(
    browser: Browser, live_server: LiveServer, tmp_path: Path, device: str
) -> None:
    viewport = VIEWPORTS[device]
    ev = online_event(live_server, f"console-{device}", time_control="50s")
    visitor, referee = (_context_page(browser, viewport) for _ in range(2))
    try:
        visitor.goto(f"{live_server.url}/events/{ev.id}/rounds/1/live")
        expect(visitor.locator("h1")).to_contain_text("实况")
        board = visitor.locator("#board-1")
        expect(board).to_contain_text(ev.names["B"])
        expect(board.locator('[data-field="state"]')).to_have_text("未开始")
        log_in_as(referee, live_server.url, ev.referee, PASSWORD)
        referee.goto(f"{live_server.url}/events/{ev.id}/rounds/1/referee")
        expect(referee.locator("h1")).to_contain_text("裁判台")
        with (
            reader(live_server, ev.room(), ev.players["B"]) as black,
            reader(live_server, ev.room(), ev.players["W"]) as white,
        ):
            for r in (black, white):
                r.until(_started)
            seq = _play({"B": black, "W": white}, [], ["E5", "C3"])
            expect(board.locator("circle.stone.black[data-vertex=E5]")).to_have_count(1)
            expect(board.locator("circle.stone.white[data-vertex=C3]")).to_have_count(1)
            expect(board.locator('[data-field="state"]')).to_have_text("第2手")
            expect(board.locator('[data-clock="B"]')).to_contain_text("0:4")
            console = referee.locator("#board-1")
            expect(console.locator('[data-presence="B"]')).to_have_attribute("data-online", "yes")
            expect(console.locator('[data-alert="time_trouble:B"]')).to_have_text("黑方时间紧张")
            white.ws.send(json.dumps({"type": "call_referee"}))  # White's button in the room
            expect(console.locator('[data-alert="call:W"]')).to_have_text("白方呼叫裁判")
            _fits(visitor, viewport["width"])
            _fits(referee, viewport["width"])
            screenshot(visitor, f"live-round-{device}", tmp_path)
            screenshot(referee, f"live-console-{device}", tmp_path)
            console.locator("a", has_text="裁判处理").click()
            expect(referee.locator("#live-referee")).to_be_visible()
            expect(referee.locator("#form-answer")).to_contain_text("白方呼叫裁判")
            referee.locator("#form-pause input[name=reason]").fill("棋手网络故障")
            referee.locator("#form-pause button").click()
            expect(referee.locator("p.notice")).to_contain_text("对局已暂停")
            got = black.until(lambda m: _seq_after(m, seq))
            assert got["snapshot"]["paused"]
            expect(board.locator('[data-field="state"]')).to_have_text("已暂停")
            expect(referee.locator("#live-status")).to_have_text("裁判已暂停对局")
            expect(referee.locator("#live-notices-list li").last).to_contain_text("棋手网络故障")
            expect(referee.locator("#form-resume")).to_be_visible()
            expect(referee.locator("#form-pause")).to_be_hidden()
            # a forfeit names its loser: refused beside the field, the reason kept
            referee.locator("#record-ruling select[name=kind]").select_option("forfeit")
            referee.locator("#record-ruling input[name=reason]").fill("掉线超过十分钟")
            referee.locator("#record-ruling button").click()
            expect(referee.locator("#record-ruling-loser-error")).to_have_text("请选择黑方或白方")
            expect(referee.locator("#record-ruling input[name=reason]")).to_have_value(
                "掉线超过十分钟"
            )
            _fits(referee, viewport["width"])
            screenshot(referee, f"live-console-game-{device}", tmp_path)
            referee.locator("#form-resume button").click()
            expect(referee.locator("p.notice")).to_contain_text("对局继续")
            expect(board.locator('[data-field="state"]')).to_have_text("第2手")
    finally:
        visitor.context.close()
        referee.context.close()
