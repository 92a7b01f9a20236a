"""Two players play on 9×9 in the game room, each in their own Chromium context, in Chinese, on
a desktop and on a 390×844 phone (issue #11; R-BOARD-3, R-PLAY-1, R-END-1(b)): Black finds the
game on the home page ("我本轮的对局"), both play a few moves by clicking (on the phone each move
is confirmed), the clocks run, one resigns, and the result is on the round's result sheet."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.live.conftest import PASSWORD, online_event
from tests.server.conftest import LiveServer, screenshot
from tests.server.result_pages import log_in_as

pytestmark = pytest.mark.browser
#: A clock of 10 minutes seen within a minute of its start (a loaded machine takes seconds
#: between a game's start and the look).
WITHIN_ITS_FIRST_MINUTE = re.compile(r"^(10:00|9:[0-5]\d)\b")
VIEWPORTS = {"desktop": {"width": 1200, "height": 800}, "phone": {"width": 390, "height": 844}}


def _context_page(browser: Browser, viewport: dict[str, int]) -> Page:
    context = browser.new_context(locale="zh-CN", viewport=viewport)  # type: ignore[arg-type]
    context.set_default_timeout(15_000)
    return context.new_page()


def _play(page: Page, vertex: str, phone: bool) -> None:
    """Click the point (a star point of 9×9 here); on the phone, confirm the move."""
    page.locator(f"#live-board svg.board circle.star[data-vertex={vertex}]").click(force=True)
    if phone:
        confirm = page.locator("#live-confirm")
        expect(confirm).to_be_visible()
        expect(page.locator(f"svg.board circle.pending[data-vertex={vertex}]")).to_have_count(1)
        confirm.click()


@pytest.mark.parametrize("device", sorted(VIEWPORTS))
def test_r_board_3_two_players_play_in_the_room_and_one_resigns(
    browser: Browser, live_server: LiveServer, tmp_path: Path, device: str
) -> None:
    viewport = VIEWPORTS[device]
    phone = device == "phone"
    ev = online_event(live_server, f"browser-{device}")
    black, white = (_context_page(browser, viewport) for _ in range(2))
    try:
        log_in_as(black, live_server.url, ev.players["B"], PASSWORD)
        black.goto(f"{live_server.url}/")
        mine = black.locator("#my-games a.card-title")
        expect(mine).to_contain_text("第1轮")
        mine.click()
        expect(black).to_have_url(f"{live_server.url}{ev.room()}/play")
        log_in_as(white, live_server.url, ev.players["W"], PASSWORD)
        white.goto(f"{live_server.url}{ev.room()}/play")
        expect(black.locator("#live-you")).to_have_text("你执黑")
        expect(white.locator("#live-you")).to_have_text("你执白")
        expect(black.locator("#live-status")).to_have_text("轮到你落子")
        expect(white.locator("#live-status")).to_have_text("轮黑方落子")
        # the board keeps the rules' proportions (R-BOARD-3): cells 2.3 wide, 2.4 tall
        box = black.locator("#live-board svg.board").bounding_box()
        assert box is not None and box["width"] <= viewport["width"]
        assert box["height"] / box["width"] == pytest.approx(
            (2 * 24 * 1.35 + 8 * 24) / (2 * 23 * 1.35 + 8 * 23), rel=0.02
        )
        expect(black.locator("#clock-B")).to_have_text(WITHIN_ITS_FIRST_MINUTE)  # 10 minutes
        moves = ["E5", "C3", "G7", "C7", "G3"]
        for i, vertex in enumerate(moves):
            mover, other = (black, white) if i % 2 == 0 else (white, black)
            color = "black" if i % 2 == 0 else "white"
            _play(mover, vertex, phone)
            for p in (black, white):
                stone = p.locator(f"svg.board circle.stone.{color}[data-vertex={vertex}]")
                expect(stone).to_have_count(1)
                expect(p.locator("#live-moves li")).to_have_count(i + 1)
            expect(other.locator("#live-status")).to_have_text("轮到你落子")
        expect(white.locator("svg.board circle.last-move[data-vertex=G3]")).to_have_count(1)
        expect(white.locator("#live-moves li").last).to_have_text("黑方 G3")
        # White's turn: Black may not play; the move list and captures are the server's
        expect(black.locator("#live-pass")).to_be_disabled()
        expect(black.locator("#captures-B")).to_have_text("0")
        screenshot(white, f"live-room-{device}", tmp_path)
        white.locator("#live-resign").click()
        white.locator("#live-resign-confirm").click()
        for p in (black, white):
            expect(p.locator("#live-status")).to_have_text("对局结束：黑中盘胜")
        referee = _context_page(browser, viewport)
        try:
            log_in_as(referee, live_server.url, ev.referee, PASSWORD)
            referee.goto(f"{live_server.url}/events/{ev.id}/rounds/1/results")
            expect(referee.locator("#board-1 td.result")).to_contain_text("黑中盘胜")
            screenshot(referee, f"live-result-sheet-{device}", tmp_path)
        finally:
            referee.context.close()
        black.reload()  # a reload restores the game from the record
        expect(black.locator("#live-moves li")).to_have_count(len(moves))
        expect(black.locator("#live-status")).to_have_text("对局结束：黑中盘胜")
    finally:
        black.context.close()
        white.context.close()


def test_r_end_3_two_passes_then_both_accept_the_marking_and_a_spectator_watches(
    browser: Browser, live_server: LiveServer, tmp_path: Path
) -> None:
    """R-END-1(c), R-END-3: after two passes the room shows the server's dead-stone proposal;
    White accepts it (marks it), Black accepts the same marking, and the count is the result —
    on both players' pages, on a spectator's (not logged in) and on the round's sheet."""
    ev = online_event(live_server, "browser-count")
    viewport = VIEWPORTS["desktop"]
    black, white, spectator = (_context_page(browser, viewport) for _ in range(3))
    try:
        log_in_as(black, live_server.url, ev.players["B"], PASSWORD)
        log_in_as(white, live_server.url, ev.players["W"], PASSWORD)
        for p in (spectator, black, white):
            p.goto(f"{live_server.url}{ev.room()}/play")
        expect(spectator.locator("#live-you")).to_have_text("你正在观战")
        expect(spectator.locator("#live-controls")).to_have_count(0)
        for i, vertex in enumerate(["C3", "G7", "G3", "C7"]):
            mover = black if i % 2 == 0 else white
            # a click before the mover's page knows it is their turn is not a move (the game
            # starts once both are in: on a loaded machine, after the first click could come)
            expect(mover.locator("#live-status")).to_have_text("轮到你落子")
            _play(mover, vertex, phone=False)
            expect(spectator.locator("#live-moves li")).to_have_count(i + 1)
        expect(spectator.locator("svg.board circle.stone.white[data-vertex=C7]")).to_have_count(1)
        black.locator("#live-pass").click()
        expect(white.locator("#live-status")).to_have_text("轮到你落子")
        white.locator("#live-pass").click()
        for p in (black, white, spectator):
            expect(p.locator("#live-status")).to_contain_text("数子")
        expect(white.locator("#live-counting")).to_be_visible()
        expect(white.locator("#live-status")).to_contain_text("系统建议的死子")
        white.locator("#live-accept").click()
        expect(black.locator("#live-status")).to_contain_text("白方标记的死子")
        black.locator("#live-accept").click()
        for p in (black, white, spectator):
            expect(p.locator("#live-status")).to_contain_text("对局结束：")
        shown = spectator.locator("#live-status").inner_text().removeprefix("对局结束：")
        referee = _context_page(browser, viewport)
        try:
            log_in_as(referee, live_server.url, ev.referee, PASSWORD)
            referee.goto(f"{live_server.url}/events/{ev.id}/rounds/1/results")
            expect(referee.locator("#board-1 td.result")).to_contain_text(shown)
        finally:
            referee.context.close()
        screenshot(spectator, "live-room-counted", tmp_path)
    finally:
        for p in (black, white, spectator):
            p.context.close()
