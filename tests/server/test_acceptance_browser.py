"""Issue #7's acceptance test in real headless Chromium against the real server, in Chinese:
one 24-player Swiss run from the browser from creation to the printed standings.

R-ORG-1 (roles: organiser, chief referee, referee, player), R-REF-7 (the chief referee corrects
a confirmed result with a reason), R-PEN-1 (a warning after the count changes the result),
R-RANK-SWISS (the printed standings agree with a computation made here from the results).

What runs through services rather than pages, and why: the accounts of the referee and the
player and their roles (the roles page has its own browser test), nothing else. Every round is
paired, published and recorded through the pages, so the flow's pages are proven here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.server import pages
from tests.server.conftest import LiveServer, screenshot
from tests.server.public_pages import browser_table, pdf_pages
from tests.server.result_pages import (
    confirm_result,
    correct_result,
    enter_result,
    enter_round_results,
    game_url,
    log_in_as,
    open_game,
    post_form,
    record_infraction,
)
from tests.server.test_event_admin_browser import organiser
from tests.server.test_event_admin_services import players_csv
from weiqi.roles import Role
from weiqi.services import accounts, games
from weiqi.services import tournament as t
from weiqi.services.actor import Actor
from weiqi.store.database import Database

pytestmark = pytest.mark.browser
LOCAL = Actor.local()
PASSWORD = "比赛用的密码 2026"
PHONE = {"width": 390, "height": 844}
ROUNDS = 5
BOARDS = 12

# Board → entry on the round sheet: codes and Black's counts (185 → 黑胜3/4子, 183½ → 白胜3/4子
# = W+1.5, 184.5 → 黑胜1/4子, 176 → 白胜4又3/4子), a draw, a forfeit and a both-lose.
SHEET = {
    1: "B+R", 2: "W+R", 3: "185", 4: "183.5", 5: "0", 6: "184.5",
    7: "W+R", 8: "B+R", 9: "176", 10: "B+F", 11: "BL", 12: "W+1.5",
}  # fmt: skip
WARNED_ROUND, WARNED_BOARD = 4, 6
CORRECTED_ROUND, CORRECTED_BOARD = 2, 1


def game_points(result: str) -> tuple[int, int]:
    """R-SCORE-IND-1, written out here independently of the core: (Black's, White's) points."""
    if result.startswith("B+"):
        return 2, 0
    if result.startswith("W+"):
        return 0, 2
    if result == "0":
        return 1, 1
    if result == "BL":
        return 0, 0
    raise AssertionError(f"unexpected result {result}")


def expected_standings(db_url: str, event_id: int) -> list[tuple[str, int, int]]:
    """(name, points, 对手分) from the stored results, sorted as R-RANK-SWISS (B) ranks."""
    db = Database(db_url)
    try:
        points: dict[str, int] = {}
        opponents: dict[str, list[str]] = {}
        for number in range(1, ROUNDS + 1):
            for p in t.show_round(db, event_id, number).pairings:
                assert p.result is not None
                b, w = game_points(p.result)
                points[p.black] = points.get(p.black, 0) + b
                points[p.white] = points.get(p.white, 0) + w
                opponents.setdefault(p.black, []).append(p.white)
                opponents.setdefault(p.white, []).append(p.black)
    finally:
        db.dispose()
    sos = {name: sum(points[o] for o in opponents[name]) for name in points}
    return sorted(((n, points[n], sos[n]) for n in points), key=lambda r: (-r[1], -r[2]))


def add_user(server: LiveServer, event_id: int, username: str, role: Role) -> None:
    db = Database(server.db_url)
    try:
        user = accounts.create_user(db, LOCAL, username, PASSWORD)
        accounts.grant_role(db, LOCAL, user.id, event_id, role)
    finally:
        db.dispose()


def view(server: LiveServer, event_id: int, number: int, board: int) -> games.GameView:
    db = Database(server.db_url)
    try:
        return games.game_view(db, event_id, number, board)
    finally:
        db.dispose()


def switch_user(page: Page, server: LiveServer, username: str, password: str) -> None:
    page.context.clear_cookies()
    log_in_as(page, server.url, username, password)


def test_r_org_1_a_24_player_swiss_from_creation_to_printed_standings(
    page: Page, live_server: LiveServer, tmp_path: Path
) -> None:
    """R-ORG-1, R-REF-7, R-PEN-1, R-RANK-SWISS: create, import, 5 × (pair, publish, results),
    a correction, a warning, a refused player, printed standings."""
    base = live_server.url
    password = organiser(live_server, "zuwei")
    pages.log_in(page, live_server, "zuwei", password)
    ev = pages.create_event(page, live_server, "2026 围棋公开赛", rounds=ROUNDS)
    screenshot(page, "e2e-01-dashboard-empty", tmp_path)
    csv_file = tmp_path / "报名表.csv"
    csv_file.write_text(players_csv(24), encoding="utf-8")
    pages.import_players(page, csv_file)
    expect(page.get_by_role("status")).to_have_text("已导入 24 名棋手。")
    add_user(live_server, ev, "caipan", Role.REFEREE)
    add_user(live_server, ev, "qishou", Role.PLAYER)

    for number in range(1, ROUNDS + 1):
        pages.open_dashboard(page, live_server, ev)
        assert pages.pair_round(page) == number
        expect(page.locator("#pairing tbody tr")).to_have_count(BOARDS)
        pages.publish_round(page)
        if number == 1:
            screenshot(page, "e2e-02-round-published", tmp_path)
        sheet = dict(SHEET)
        if number == WARNED_ROUND:
            # R-PEN-1: the referee enters Black's count 184½ (黑胜1/4子) on the game page,
            # records Black's warning for pressing the clock before the stone: White wins by ¾.
            del sheet[WARNED_BOARD]
            switch_user(page, live_server, "caipan", PASSWORD)
            enter_result(page, base, ev, number, WARNED_BOARD, "184.5")
            expect(page.locator("#result")).to_contain_text("黑胜1/4子")
            record_infraction(page, base, ev, number, WARNED_BOARD, "B", "clock_before_move")
            expect(page.locator("#result")).to_contain_text("白胜3/4子")
            expect(page.locator("#warnings")).to_contain_text("黑方 1")
            confirm_result(page, base, ev, number, WARNED_BOARD)
            expect(page.locator("#status")).to_have_text("已确认")
            screenshot(page, "e2e-03-game-warning", tmp_path)
            assert view(live_server, ev, number, WARNED_BOARD).result == "W+1.5"
            switch_user(page, live_server, "zuwei", password)
        if number == ROUNDS:
            # R-ORG-1: a player sees the round sheet without forms; posting anyway is refused
            switch_user(page, live_server, "qishou", PASSWORD)
            sheet_url = f"{base}/events/{ev}/rounds/{number}/results"
            page.goto(sheet_url)
            expect(page.locator("input[name^=result_]")).to_have_count(0)
            assert post_form(page, sheet_url, {"result_1": "B+R"}) == 403
            board_url = game_url(base, ev, number, 1)
            assert post_form(page, f"{board_url}/result", {"entry": "W+R"}) == 403
            untouched = view(live_server, ev, number, 1)
            assert untouched.result is None and untouched.seq == 0
            switch_user(page, live_server, "zuwei", password)
        enter_round_results(page, base, ev, number, sheet)
        expect(page.locator("#board-5")).to_contain_text("和棋")
        if number == 1:
            expect(page.locator("#board-3")).to_contain_text("黑胜3/4子")
            expect(page.locator("#board-4")).to_contain_text("白胜3/4子")
            screenshot(page, "e2e-04-round-sheet", tmp_path)
            page.set_viewport_size(PHONE)
            screenshot(page, "e2e-04-round-sheet-phone", tmp_path)
            page.set_viewport_size({"width": 1200, "height": 800})
        assert view(live_server, ev, number, 4).result == "W+1.5"
        if number == CORRECTED_ROUND:
            # R-REF-7: the creator of the event is its chief referee and corrects a confirmed
            # result with a reason; the history keeps old → new and why
            assert view(live_server, ev, number, CORRECTED_BOARD).confirmed
            correct_result(page, base, ev, number, CORRECTED_BOARD, "W+R", "黑方超时未察觉，更正")
            expect(page.get_by_role("status")).to_have_text("结果已更正。")
            last = page.locator("#history tbody tr").last
            expect(last).to_contain_text("黑中盘胜")
            expect(last).to_contain_text("白中盘胜")
            expect(last).to_contain_text("黑方超时未察觉，更正")
            screenshot(page, "e2e-05-game-corrected", tmp_path)
            assert view(live_server, ev, number, CORRECTED_BOARD).result == "W+R"

    pages.open_dashboard(page, live_server, ev)
    screenshot(page, "e2e-06-dashboard-done", tmp_path)
    open_game(page, base, ev, WARNED_ROUND, WARNED_BOARD)

    # the standings, as the public sees them and as they print on A4
    page.context.clear_cookies()
    page.goto(f"{base}/events/{ev}/standings")
    expect(page.locator("table.standings tbody tr")).to_have_count(24)
    screenshot(page, "e2e-07-standings", tmp_path)
    page.set_viewport_size(PHONE)
    screenshot(page, "e2e-07-standings-phone", tmp_path)
    page.set_viewport_size({"width": 1200, "height": 800})
    expected = expected_standings(live_server.db_url, ev)
    shown = browser_table(page, "table.standings")
    head = shown[0]
    assert head[:2] == ["名次", "姓名"] and "积分" in head and "对手分" in head, head
    pts, sos = head.index("积分"), head.index("对手分")
    assert pts < sos  # R-RANK-SWISS (B): points, then 对手分
    top = [(row[1], int(row[pts]), int(row[sos])) for row in shown[1:7]]
    keys = [(p, s) for _, p, s in top]
    assert keys == [(p, s) for _, p, s in expected[:6]]
    assert {(n, p, s) for n, p, s in top} <= set(expected)
    assert re.fullmatch(r"(并列)?1", shown[1][0])

    page.emulate_media(media="print")
    expect(page.locator(".event-nav")).to_be_hidden()
    screenshot(page, "e2e-08-standings-print", tmp_path)
    pdf = page.pdf(format="A4", prefer_css_page_size=True)
    sizes = pdf_pages(pdf)
    assert 1 <= len(sizes) <= 2 and set(sizes) == {(595, 842)}, sizes
    (tmp_path / "standings.pdf").write_bytes(pdf)
