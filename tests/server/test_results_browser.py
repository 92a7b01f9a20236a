"""Results, warnings and corrections in real headless Chromium against the real server, in
Chinese (R-PEN-1, R-REF-7, R-END-4, R-ORG-1). Each test sets up its own event through the
services, so the tests run in any order."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.server.conftest import LiveServer, screenshot
from tests.server.result_pages import (
    correct_result,
    enter_result,
    enter_round_results,
    game_url,
    log_in_as,
    open_game,
    post_form,
    record_infraction,
    upload_round_results,
)
from weiqi.roles import Role
from weiqi.services import accounts, games
from weiqi.services import tournament as t
from weiqi.services.actor import Actor
from weiqi.services.event_admin import publish_round
from weiqi.services.events import create_event
from weiqi.store.database import Database
from weiqi.tournament.settings import EventSettings, System

pytestmark = pytest.mark.browser
LOCAL = Actor.local()
PASSWORD = "裁判的密码 2026"


def setup_event(server: LiveServer, tag: str, *roles: Role) -> tuple[int, dict[str, str]]:
    """A round robin of four, round 1 paired and published (so that a player sees its boards);
    one user per role named ``<role>-<tag>``."""
    db = Database(server.db_url)
    try:
        ev = create_event(db, LOCAL, f"{tag}杯围棋赛", EventSettings(system=System.ROUND_ROBIN)).id
        t.import_players(db, LOCAL, ev, "name,rank\n李明,5d\n王强,4d\n张伟,3d\n刘洋,2d\n")
        t.pair_round(db, LOCAL, ev)
        publish_round(db, LOCAL, ev, 1)
        users = {}
        for role in roles:
            name = f"{role.value}-{tag}"
            user = accounts.create_user(db, LOCAL, name, PASSWORD)
            accounts.grant_role(db, LOCAL, user.id, ev, role)
            users[role.value] = name
        return ev, users
    finally:
        db.dispose()


def view(server: LiveServer, ev: int, board: int) -> games.GameView:
    db = Database(server.db_url)
    try:
        return games.game_view(db, ev, 1, board)
    finally:
        db.dispose()


def points(server: LiveServer, ev: int) -> dict[str, int]:
    db = Database(server.db_url)
    try:
        return {s.name: s.points for s in t.event_standings(db, ev)}
    finally:
        db.dispose()


def test_r_pen_1_a_referee_warning_turns_a_quarter_stone_win(
    page: Page, live_server: LiveServer, tmp_path: Path
) -> None:
    """R-PEN-1 in Chinese: Black counts 184½ (黑胜1/4子); the referee records a warning for
    Black pressing the clock before the stone; the result becomes 白胜3/4子 and the standings'
    points move from Black to White."""
    ev, users = setup_event(live_server, "警告", Role.REFEREE)
    log_in_as(page, live_server.url, users["referee"], PASSWORD)
    enter_result(page, live_server.url, ev, 1, 1, "184.5")
    expect(page.locator("#result")).to_contain_text("黑胜1/4子")
    game = view(live_server, ev, 1)
    assert points(live_server, ev)[game.black] == 2
    record_infraction(page, live_server.url, ev, 1, 1, "B", "clock_before_move")
    expect(page.get_by_role("status")).to_have_text("违规已记录。")
    expect(page.locator("#result")).to_contain_text("白胜3/4子")
    expect(page.locator("#result")).to_contain_text("W+1.5")
    expect(page.locator("#infractions")).to_contain_text("着子前按钟")
    expect(page.locator("#infractions")).to_contain_text("警告")
    expect(page.locator("#warnings")).to_contain_text("黑方 1")
    expect(page.locator("#history")).to_contain_text("警告 黑1/白0 各计一子")
    screenshot(page, "game-warning-zh", tmp_path)
    after = points(live_server, ev)
    assert after[game.black] == 0 and after[game.white] == 2
    page.get_by_role("link", name="English").click()
    expect(page.locator("h1")).to_contain_text("Round 1, board 1")
    expect(page.locator("#infractions")).to_contain_text("pressing the clock before the move")
    screenshot(page, "game-warning-en", tmp_path)


def test_r_ref_7_the_chief_referee_corrects_a_confirmed_result(
    page: Page, live_server: LiveServer, tmp_path: Path
) -> None:
    """R-REF-7, R-END-4: the round sheet confirms the results; the chief referee corrects one
    with a reason; the history shows who, old → new and why."""
    ev, users = setup_event(live_server, "更正", Role.REFEREE, Role.CHIEF_REFEREE)
    log_in_as(page, live_server.url, users["referee"], PASSWORD)
    enter_round_results(page, live_server.url, ev, 1, {1: "B+R", 2: "185"})
    expect(page.locator("#board-2")).to_contain_text("黑胜3/4子")
    expect(page.locator("#board-1")).to_contain_text("已确认")
    screenshot(page, "round-sheet-zh", tmp_path)
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(page, "round-sheet-zh-phone", tmp_path)
    page.set_viewport_size({"width": 1200, "height": 800})
    assert view(live_server, ev, 1).confirmed

    page.context.clear_cookies()
    log_in_as(page, live_server.url, users["chief_referee"], PASSWORD)
    correct_result(page, live_server.url, ev, 1, 1, "W+R", "赛后查实黑方作弊")
    expect(page.get_by_role("status")).to_have_text("结果已更正。")
    expect(page.locator("#result")).to_contain_text("白中盘胜")
    last = page.locator("#history tbody tr").last
    expect(last).to_contain_text("黑中盘胜")
    expect(last).to_contain_text("白中盘胜")
    expect(last).to_contain_text("赛后查实黑方作弊")
    expect(last).to_contain_text(users["chief_referee"])
    screenshot(page, "game-corrected-zh", tmp_path)
    assert view(live_server, ev, 1).result == "W+R"


def test_r_ref_7_a_referee_cannot_correct_a_confirmed_result(
    page: Page, live_server: LiveServer, tmp_path: Path
) -> None:
    ev, users = setup_event(live_server, "裁判", Role.REFEREE)
    db = Database(live_server.db_url)
    games.enter_result(db, LOCAL, ev, 1, 1, "B+R")
    games.confirm_result(db, LOCAL, ev, 1, 1)
    db.dispose()
    log_in_as(page, live_server.url, users["referee"], PASSWORD)
    open_game(page, live_server.url, ev, 1, 1)
    expect(page.locator("#status")).to_have_text("已确认")
    expect(page.locator("#correct-result")).to_have_count(0)
    expect(page.locator("#enter-result")).to_have_count(0)
    url = game_url(live_server.url, ev, 1, 1)
    status = post_form(page, f"{url}/correction", {"result": "W+R", "reason": "想改"})
    assert status == 403
    status = post_form(page, f"{url}/result", {"entry": "W+R"})
    assert status == 409
    assert view(live_server, ev, 1).result == "B+R"
    page.reload()
    screenshot(page, "game-referee-confirmed-zh", tmp_path)


def test_r_org_1_a_player_cannot_enter_results(
    page: Page, live_server: LiveServer, tmp_path: Path
) -> None:
    """R-ORG-1: a player sees the game and the round sheet without forms; posting anyway is
    403 and nothing changes."""
    ev, users = setup_event(live_server, "棋手", Role.PLAYER)
    log_in_as(page, live_server.url, users["player"], PASSWORD)
    open_game(page, live_server.url, ev, 1, 1)
    expect(page.locator("form#enter-result, form#record-infraction")).to_have_count(0)
    url = game_url(live_server.url, ev, 1, 1)
    assert post_form(page, f"{url}/result", {"entry": "B+R"}) == 403
    assert post_form(page, f"{url}/infractions", {"kind": "double_move", "offender": "W"}) == 403
    sheet = f"{live_server.url}/events/{ev}/rounds/1/results"
    page.goto(sheet)
    expect(page.locator("input[name^=result_]")).to_have_count(0)
    assert post_form(page, sheet, {"result_1": "B+R"}) == 403
    game = view(live_server, ev, 1)
    assert game.result is None and game.seq == 0
    page.goto(sheet)
    screenshot(page, "round-sheet-player-zh", tmp_path)


def test_round_sheet_csv_upload_all_or_nothing(
    page: Page, live_server: LiveServer, tmp_path: Path
) -> None:
    """A CSV with one bad row stores nothing and names the line; a good one enters and
    confirms every row."""
    ev, users = setup_event(live_server, "上传", Role.REFEREE)
    log_in_as(page, live_server.url, users["referee"], PASSWORD)
    upload_round_results(page, live_server.url, ev, 1, "board,result\n1,B+R\n2,黑胜了\n")
    expect(page.get_by_role("alert")).to_contain_text("第 3 行")
    screenshot(page, "round-sheet-csv-error-zh", tmp_path)
    assert view(live_server, ev, 1).result is None
    upload_round_results(page, live_server.url, ev, 1, "board,result\n1,B+R\n2,184\n")
    expect(page.get_by_role("status")).to_have_text("已录入并确认 2 个结果。")
    expect(page.locator("#board-2")).to_contain_text("白胜1/4子")


def test_the_sheet_lists_the_codes_and_refuses_an_absurd_margin(
    page: Page, live_server: LiveServer, tmp_path: Path
) -> None:
    """Issue #13: the sheet's legend lists every accepted code with its Chinese notation and
    meaning; W+1000 on 19×19 is refused next to its board, the typed rows kept; 双方均负 and
    无胜负 are told apart (BL and Void)."""
    ev, users = setup_event(live_server, "图例", Role.REFEREE)
    log_in_as(page, live_server.url, users["referee"], PASSWORD)
    page.goto(f"{live_server.url}/events/{ev}/rounds/1/results")
    legend = page.locator("#result-codes")
    for text in ("黑中盘胜", "白超时胜", "双方均负", "无胜负", "B+R", "BL", "Void"):
        expect(legend).to_contain_text(text)
    page.locator("input[name=result_1]").fill("W+1000")
    page.locator("input[name=result_2]").fill("BL")
    page.locator("#round-sheet button[type=submit]").click()
    expect(page.get_by_role("alert")).to_contain_text("超出了 19×19 棋盘")
    expect(page.locator("input[name=result_1]")).to_have_value("W+1000")
    screenshot(page, "round-sheet-margin-zh", tmp_path)
    page.locator("input[name=result_1]").fill("Void")
    page.locator("#round-sheet button[type=submit]").click()
    expect(page.locator("#board-1 td.result")).to_contain_text("Void")
    expect(page.locator("#board-2 td.result")).to_contain_text("BL")
