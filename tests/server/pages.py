"""Page objects for the browser tests: what an organiser or chief referee does, step by step, in
the Chinese interface. Reusable by the end-to-end flow (create → import → pair → results …).

Each helper starts from wherever the page is and leaves the browser on the page the action led
to; they assert only that the action succeeded, so tests state what they expect themselves.
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.server.conftest import LiveServer


def log_in(page: Page, server: LiveServer, username: str, password: str) -> None:
    page.goto(f"{server.url}/login")
    page.get_by_label("用户名").fill(username)
    page.get_by_label("密码").fill(password)
    page.locator("form").get_by_role("button", name="登录").click()
    expect(page.locator(".site-tools .account")).to_be_visible()


def create_event(
    page: Page,
    server: LiveServer,
    name: str,
    system: str = "积分编排制",
    rounds: int | None = 5,
    *,
    avoid_same_club: bool = False,
) -> int:
    """Fill the new-event form (the rules' defaults stay: 3¾, 2/1/0, default tie-breaks) and
    return the new event's id; the browser is on its dashboard."""
    page.goto(f"{server.url}/events/new")
    form = page.locator("#event-settings")
    form.get_by_label("赛事名称").fill(name)
    form.get_by_label("赛制").select_option(label=system)
    if rounds is not None:
        form.get_by_label("轮数").fill(str(rounds))
    if avoid_same_club:
        form.get_by_label("尽量避免同一俱乐部棋手相遇").check()
    form.get_by_role("button", name="创建赛事").click()
    expect(page).to_have_url(re.compile(r"/events/\d+/manage$"))
    found = re.search(r"/events/(\d+)/manage", page.url)
    assert found
    return int(found.group(1))


def import_players(page: Page, csv_file: Path) -> None:
    """Upload a CSV file on the dashboard (the outcome — imported or rows listed — is left to
    the caller to check)."""
    form = page.locator("#import-players")
    form.get_by_label("CSV 文件").set_input_files(str(csv_file))
    form.get_by_role("button", name="导入").click()


def paste_players(page: Page, text: str) -> None:
    form = page.locator("#import-players")
    form.get_by_label("或粘贴 CSV 内容").fill(text)
    form.get_by_role("button", name="导入").click()


def register_player(page: Page, name: str, rank: str = "", club: str = "") -> None:
    form = page.locator("#register-player")
    form.get_by_label("姓名").fill(name)
    form.get_by_label("段位").fill(rank)
    form.get_by_label("俱乐部").fill(club)
    form.get_by_role("button", name="报名").click()


def pair_round(page: Page) -> int:
    """Press "pair round N" on the dashboard; returns N (the browser is on the round's page)."""
    button = page.locator("#pair-round button")
    found = re.search(r"\d+", button.inner_text())
    assert found
    number = int(found.group(0))
    button.click()
    expect(page).to_have_url(re.compile(rf"/events/\d+/manage/rounds/{number}$"))
    return number


def publish_round(page: Page) -> None:
    """On a round's page: publish it."""
    page.locator("#publish-round").get_by_role("button", name="公布本轮").click()
    expect(page.locator("h1 .tag")).to_have_text("已公布")


def open_dashboard(page: Page, server: LiveServer, event_id: int) -> None:
    page.goto(f"{server.url}/events/{event_id}/manage")


def open_round(page: Page, server: LiveServer, event_id: int, number: int) -> None:
    """The organisers' page of round ``number`` (pairing, explanation, publish, unpair)."""
    page.goto(f"{server.url}/events/{event_id}/manage/rounds/{number}")


def check_pairing_edit(
    page: Page, kind: str, player: str, other: str = "", board: int | None = None
) -> None:
    """On an unpublished round's page: choose an edit by hand (``kind`` as the menu says it,
    e.g. "对调两名棋手") and have it checked; the page then says what it breaks."""
    form = page.locator("#edit-form")
    # by name: a label's name includes its menu's options
    form.locator("select[name=kind]").select_option(label=kind)
    form.locator("select[name=player]").select_option(label=player)
    if other:
        form.locator("select[name=other]").select_option(label=other)
    if board is not None:
        form.locator("input[name=board]").fill(str(board))
    form.get_by_role("button", name="检查此调整").click()
    expect(page.locator("#edit-preview, #edit-error").first).to_be_visible()


def confirm_pairing_edit(page: Page, reason: str) -> None:
    """After :func:`check_pairing_edit`: confirm the edit with ``reason`` (which may be empty:
    the page then refuses and says so next to the field)."""
    form = page.locator("#confirm-edit")
    form.get_by_label("调整理由（随本轮保存）").fill(reason)
    form.get_by_role("button", name="确认调整").click()


def unpair_round(page: Page) -> None:
    """On the latest round's page: delete its pairing (confirming the question)."""
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#unpair-round").get_by_role("button", name="撤销编排").click()
    expect(page).to_have_url(re.compile(r"/events/\d+/manage$"))


def withdraw_player(page: Page, name: str) -> None:
    """On the dashboard: withdraw ``name`` through the confirm step that says what it means."""
    row = page.locator("#player-list tbody tr", has_text=name)
    row.get_by_role("link", name="退赛").click()
    expect(page.locator("#withdraw-meaning")).to_be_visible()
    page.locator("#confirm-withdraw").get_by_role("button", name="确认退赛").click()
    expect(page.get_by_role("status")).to_contain_text(f"{name} 已退赛。")
