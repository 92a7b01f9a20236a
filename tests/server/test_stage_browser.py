"""擂台赛 (R-FMT-3) in real headless Chromium against the real server, in Chinese, on a desktop
and a phone (marked ``browser``): the organiser runs a chosen-order 擂台赛 from its round's
page — the teams send their players one by one, each game is a board whose own page takes the
result, a warning, the confirmation and the chief referee's correction (R-REF-7, R-PEN-1), and
the stage follows — and the public page shows the games and where the match stands."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.server import pages, team_pages
from tests.server.conftest import LiveServer, screenshot
from tests.server.test_event_admin_browser import organiser

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1200, "height": 800}
TEAMS_CSV = "队名,姓名,段位\n" + "\n".join(
    f"{team},{team}{i}号,{6 - i}d" for team in ("黑龙", "白虎") for i in (1, 2)
)


def _send(page: Page, player: str) -> None:
    """On the round's page: send the awaited team's next player."""
    form = page.locator("#stage-send")
    form.locator("select[name=player]").select_option(label=player)
    form.get_by_role("button", name="派出该棋手").click()
    expect(page.locator(".notice").first).to_contain_text("已派出棋手")


def test_r_fmt_3_a_winner_stays_on_refereed_game_by_game(
    page: Page, live_server: LiveServer, tmp_path: Path
) -> None:
    password = organiser(live_server, "qian")
    pages.log_in(page, live_server, "qian", password)
    event_id = team_pages.create_team_event(
        page, live_server, "2026 擂台赛", system="擂台赛", boards=2,
        player_order="由派人一方临场选派",
    )  # fmt: skip
    team_pages.paste_teams(page, TEAMS_CSV)
    expect(page.locator(".team-card")).to_have_count(2)
    page.locator("#pair-round").get_by_role("button").click()
    for team in ("黑龙", "白虎"):
        team_pages.submit_lineup(page, live_server, event_id, 1, team, [f"{team}1号", f"{team}2号"])
    page.goto(f"{live_server.url}/events/{event_id}/manage/rounds/1")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="公布出场名单并排定各台").click()
    status = page.locator("#stage-status")
    expect(status).to_contain_text("黑龙必须派出下一名棋手。")
    _send(page, "黑龙2号")
    expect(status).to_contain_text("白虎必须派出下一名棋手。")
    _send(page, "白虎1号")
    expect(status).to_contain_text("第1局正在进行：黑龙2号（擂主）对白虎1号。")
    expect(page.locator("#match-1 h2")).to_contain_text("第1局：黑龙（擂主）")
    screenshot(page, "stage-round-zh", tmp_path)
    page.set_viewport_size(PHONE)
    screenshot(page, "stage-round-zh-phone", tmp_path)
    page.set_viewport_size(DESKTOP)

    # the game's own page: the result, a warning for White, the confirmation
    team_pages.open_board(page, 1, 1)
    expect(page.locator("h1")).to_contain_text("擂台赛第1局")
    expect(page.locator("#black")).to_contain_text("白虎1号")
    team_pages.submit_on_board(page, "enter-result", {"entry": "W+R"})
    team_pages.submit_on_board(
        page, "record-infraction", {"offender": "W", "kind": "phone_ringing"}
    )
    expect(page.locator("#warnings")).to_contain_text("白方 1")
    team_pages.submit_on_board(page, "confirm-result")
    expect(page.locator("#status")).to_contain_text("已确认")
    page.goto(f"{live_server.url}/events/{event_id}/manage/rounds/1")
    expect(status).to_contain_text("白虎必须派出下一名棋手。")  # 黑龙2号 stays on

    # the chief referee corrects it: 白虎1号 won; now 黑龙 sends, and the stage says so
    page.goto(f"{live_server.url}/events/{event_id}/rounds/1/matches/1/boards/1")
    team_pages.submit_on_board(
        page, "correct-result", {"result": "B+R", "reason": "复核记录表：黑方中盘胜"}
    )
    expect(page.locator("#history tbody tr").last).to_contain_text("复核记录表：黑方中盘胜")
    page.set_viewport_size(PHONE)
    screenshot(page, "stage-board-corrected-zh-phone", tmp_path)
    page.set_viewport_size(DESKTOP)
    page.goto(f"{live_server.url}/events/{event_id}/manage/rounds/1")
    expect(status).to_contain_text("黑龙必须派出下一名棋手。")
    expect(page.locator("#stage-teams")).to_contain_text("黑龙2号")

    page.goto(f"{live_server.url}/events/{event_id}")
    expect(page.locator("table.data")).to_contain_text("黑中盘胜")
    expect(page.locator(".legend").first).to_have_text("黑龙必须派出下一名棋手。")
    screenshot(page, "stage-public-zh", tmp_path)
    page.set_viewport_size(PHONE)
    screenshot(page, "stage-public-zh-phone", tmp_path)
