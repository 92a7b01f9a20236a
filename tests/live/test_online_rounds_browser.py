"""What a player sees of a round's start time in the game room, in Chinese, on a desktop and a
390×844 phone (issue #11; R-TIME-6): before the start the room says when the round starts and
counts down to it; at the start the server starts the game and Black's clock runs although
White is not in the room (an absent player is late from the start time)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.live.conftest import PASSWORD, online_event
from tests.server.conftest import LiveServer, screenshot
from tests.server.result_pages import log_in_as
from weiqi.services import event_admin, live
from weiqi.services.actor import Actor
from weiqi.store.database import Database
from weiqi.tournament.details import format_local

pytestmark = pytest.mark.browser
VIEWPORTS = {"desktop": {"width": 1200, "height": 800}, "phone": {"width": 390, "height": 844}}


def _player(browser: Browser, server: LiveServer, username: str, device: str) -> Page:
    """A page of its own browser context, in Chinese at the device's size, logged in."""
    context = browser.new_context(locale="zh-CN", viewport=VIEWPORTS[device])  # type: ignore[arg-type]
    context.set_default_timeout(20_000)
    page = context.new_page()
    log_in_as(page, server.url, username, PASSWORD)
    return page


@pytest.mark.parametrize("device", sorted(VIEWPORTS))
def test_r_time_6_the_room_counts_down_to_the_round_start_then_the_clock_runs(
    browser: Browser, live_server: LiveServer, tmp_path: Path, device: str
) -> None:
    ev = online_event(live_server, f"倒计时-{device}", "10m+3x30s", game_start="round_start")
    at = datetime.now(UTC) + timedelta(seconds=12)
    db = Database(live_server.db_url)
    try:
        typed = format_local(at, "Asia/Shanghai", "%Y-%m-%d %H:%M:%S")
        event_admin.set_round_start(db, Actor.local(), ev.id, 1, typed)
    finally:
        db.dispose()
    black = _player(browser, live_server, ev.players["B"], device)
    context = black.context
    try:
        black.goto(f"{live_server.url}{ev.room()}/play")
        expect(black.locator("#live-you")).to_have_text("你执黑")
        shown = format_local(at, "Asia/Shanghai")
        expect(black.locator("#live-starts")).to_have_text(f"本轮开始时间：{shown} (Asia/Shanghai)")
        # the time control it will start with, before it starts: its event's
        expect(black.locator("#live-time-control")).to_have_text(
            "用时: 基本时限10分，读秒3次，每次30秒"
        )
        status = black.locator("#live-status")
        expect(status).to_have_text(
            re.compile(r"^对局将在0:\d\d后开始：届时开钟，无论棋手是否在场$")
        )
        first = status.text_content()
        black.wait_for_timeout(1500)
        assert status.text_content() != first  # it counts down
        screenshot(black, f"online-start-countdown-{device}", tmp_path)
        # the start time comes: the server starts the game, White absent; Black's clock runs
        expect(status).to_have_text("轮到你落子", timeout=30_000)
        expect(black.locator("#player-B")).to_have_class(re.compile(r"\bto-move\b"))
        clock = black.locator("#clock-B")
        expect(clock).to_have_text(re.compile(r"^9:[0-5]\d\b"))  # running, within its first minute
        black.reload()  # started: the time control its clock runs
        expect(black.locator("#live-time-control")).to_contain_text("读秒3次，每次30秒")
        screenshot(black, f"online-start-running-{device}", tmp_path)
    finally:
        context.close()


@pytest.mark.parametrize("device", sorted(VIEWPORTS))
def test_r_color_1_the_players_see_the_nigiri_before_the_clock_starts(
    browser: Browser, live_server: LiveServer, tmp_path: Path, device: str
) -> None:
    """R-COLOR-1: colours by nigiri. 王强 opens the room first: the server draws the nigiri
    then, and the room shows who held, the guess, the handful and who plays Black, and which
    colour 王强 plays — before the clock starts (waiting for both players). 李明 comes in: the
    game starts with the drawn colours, Black to move."""
    ev = online_event(live_server, f"猜先-{device}", "10m+3x30s", online_colors="nigiri")
    user = {ev.names[c]: ev.players[c] for c in ("B", "W")}
    pages = []
    try:
        pages = [_player(browser, live_server, user[n], device) for n in ("王强", "李明")]
        wang, li = pages
        wang.goto(f"{live_server.url}{ev.room()}/play")
        nigiri = wang.locator("#live-nigiri")
        expect(nigiri).to_be_visible()
        db = Database(live_server.db_url)
        try:
            drawn = live.snapshot(db, ev.id, 1, 1).nigiri
        finally:
            db.dispose()
        assert drawn is not None and drawn["holder"] == "李明" and drawn["guesser"] == "王强"
        guess = "单" if drawn["guess"] == "odd" else "双"
        expect(nigiri).to_have_text(
            f"猜先：李明握子，王强猜{guess}，抓出{drawn['count']}子：{drawn['black']}执黑"
            f"（种子{drawn['seed']}）"
        )
        wang_black = drawn["black"] == "王强"
        expect(wang.locator("#live-you")).to_have_text("你执黑" if wang_black else "你执白")
        expect(wang.locator("#live-status")).to_have_text("等待双方棋手入座")
        screenshot(wang, f"online-nigiri-{device}", tmp_path)
        li.goto(f"{live_server.url}{ev.room()}/play")
        expect(li.locator("#live-you")).to_have_text("你执白" if wang_black else "你执黑")
        black_page = wang if wang_black else li
        expect(black_page.locator("#live-status")).to_have_text("轮到你落子")
        expect(li.locator("#live-nigiri")).to_contain_text(f"{drawn['black']}执黑")
    finally:
        for page in pages:
            page.context.close()


@pytest.mark.parametrize("device", sorted(VIEWPORTS))
def test_r_hcp_2_black_places_the_handicap_stones_by_clicking_then_white_moves(
    browser: Browser, live_server: LiveServer, tmp_path: Path, device: str
) -> None:
    """R-HCP-2, free placement: 王强 (2d) takes Black with three stones against 李明 (5d). Black
    is asked to place them and taps three points (one tapped twice is taken back), the count
    shown as it goes; the button places them; White, who meanwhile was told Black is placing,
    then has the move."""
    ev = online_event(
        live_server, f"自由让子-{device}", "10m+3x30s", ("5d", "2d"),
        color_policy="handicap", handicap_placement="free",
    )  # fmt: skip
    assert ev.names["B"] == "王强"
    pages = []
    try:
        pages = [_player(browser, live_server, ev.players[c], device) for c in ("B", "W")]
        for page in pages:
            page.goto(f"{live_server.url}{ev.room()}/play")
        black, white = pages
        status = black.locator("#live-status")
        expect(status).to_have_text("请放置让子：已选0子，共3子")
        expect(white.locator("#live-status")).to_have_text("黑方正在放置让子")
        place = black.locator("#live-place-handicap")
        expect(place).to_be_disabled()
        for vertex in ("C3", "G7", "E5", "E5", "C7"):
            black.locator(f"#live-board svg.board circle.star[data-vertex={vertex}]").click(
                force=True
            )
        expect(status).to_have_text("请放置让子：已选3子，共3子")
        expect(black.locator("svg.board circle.placing")).to_have_count(3)
        screenshot(black, f"online-free-handicap-{device}", tmp_path)
        expect(place).to_be_enabled()
        place.click()
        for page in (black, white):
            for vertex in ("C3", "G7", "C7"):
                stone = page.locator(f"svg.board circle.stone.black[data-vertex={vertex}]")
                expect(stone).to_have_count(1)
        expect(white.locator("#live-status")).to_have_text("轮到你落子")
        expect(place).to_be_hidden()
        white.locator("#live-board svg.board circle.star[data-vertex=G3]").click(force=True)
        if device == "phone":
            white.locator("#live-confirm").click()
        expect(black.locator("svg.board circle.stone.white[data-vertex=G3]")).to_have_count(1)
    finally:
        for page in pages:
            page.context.close()
