"""Page objects for team events in the Chinese interface: what an organiser, a coach and a
referee do, step by step. Each leaves the browser on the page the action led to."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.server.conftest import LiveServer


def create_team_event(
    page: Page,
    server: LiveServer,
    name: str,
    *,
    system: str = "循环制",
    team_type: str = "临场出人制",
    boards: int = 3,
    max_foreign: int | None = None,
    player_order: str | None = None,
) -> int:
    """Fill the new-team-event form and return the event's id (on its dashboard);
    ``player_order`` is a 擂台赛's (the option's label)."""
    page.goto(f"{server.url}/events/new?kind=team")
    form = page.locator("#team-event-settings")
    form.get_by_label("赛事名称").fill(name)
    form.locator("select[name=system]").select_option(label=system)
    form.locator("select[name=team_type]").select_option(label=team_type)
    form.get_by_label("每场台数").fill(str(boards))
    if max_foreign is not None:
        form.get_by_label("每轮外援上场人数上限").fill(str(max_foreign))
    if player_order is not None:
        form.locator("select[name=player_order]").select_option(label=player_order)
    form.get_by_role("button", name="创建赛事").click()
    expect(page).to_have_url(re.compile(r"/events/\d+/manage$"))
    found = re.search(r"/events/(\d+)/manage", page.url)
    assert found
    return int(found.group(1))


def paste_teams(page: Page, text: str) -> None:
    """Paste a teams CSV on the dashboard and import it (the outcome is the caller's to check)."""
    form = page.locator("#import-teams")
    form.get_by_label("或粘贴 CSV 内容").fill(text)
    form.get_by_role("button", name="导入").click()


def pair_team_round(page: Page, number: int) -> None:
    """Pair the next round from the dashboard; the browser lands on the round's page."""
    page.locator("#pair-round").get_by_role("button", name=f"编排第 {number} 轮").click()
    expect(page).to_have_url(re.compile(rf"/manage/rounds/{number}$"))


def assign_coach(page: Page, server: LiveServer, event_id: int, team: str, username: str) -> None:
    """As an organiser: make an account the coach of a team on the dashboard."""
    page.goto(f"{server.url}/events/{event_id}/manage")
    form = page.locator("#assign-coach")
    form.get_by_label("队名").select_option(label=team)
    form.get_by_label("用户名").fill(username)
    form.get_by_role("button", name="指定").click()
    expect(page.locator(".notice").first).to_contain_text(f"{username} 现为 {team}")


def submit_lineup(
    page: Page, server: LiveServer, event_id: int, number: int, team: str, players: list[str]
) -> None:
    """As a coach: open the lineup page, choose the team, one player per board, seal it."""
    page.goto(f"{server.url}/events/{event_id}/rounds/{number}/lineup")
    page.locator("#choose-team select[name=team]").select_option(label=team)
    expect(page.locator("#lineup")).to_be_visible()
    for board, player in enumerate(players, start=1):
        page.locator("#lineup").get_by_label(f"第{board}台").select_option(value=player)
    page.get_by_role("button", name="密封提交出场名单").click()


def reveal_lineups(page: Page, server: LiveServer, event_id: int, number: int) -> None:
    page.goto(f"{server.url}/events/{event_id}/manage/rounds/{number}")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="公布出场名单并排定各台").click()
    expect(page.locator("section.match").first).to_be_visible()


def enter_match_results(page: Page, match: int, results: dict[int, str]) -> None:
    """On the round's page, type each board's result of one match and record them."""
    section = page.locator(f"#match-{match}")
    for board, code in results.items():
        section.get_by_label(f"第{board}台").fill(code)
    section.get_by_role("button", name="记录这些结果").click()
    expect(page.locator(".notice").first).to_contain_text("已记录")


def open_board(page: Page, match: int, board: int) -> None:
    """From the team round page, follow a board's link to its game page."""
    page.locator(f"#board-{match}-{board} td.num a").click()
    expect(page.locator("#game-facts")).to_be_visible()


def submit_on_board(page: Page, form_id: str, fields: dict[str, str] | None = None) -> None:
    """Fill a form of the open game page (inputs and selects by name) and send it."""
    form = page.locator(f"#{form_id}")
    for name, value in (fields or {}).items():
        field = form.locator(f"[name={name}]")
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    with page.expect_navigation():
        form.locator("button[type=submit]").click()
