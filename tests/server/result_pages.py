"""Playwright helpers for the game page and the round sheet, for any browser test (the
five-round end-to-end test too). They work in either language: they find forms by id and
fields by name, and wait for the page the form leads to.

Typical use::

    enter_round_results(page, server.url, event_id, 1, {1: "B+R", 2: "184.5"})
    record_infraction(page, server.url, event_id, 1, 2, "B", "clock_before_move")
    correct_result(page, server.url, event_id, 1, 1, "W+R", "黑方作弊")
"""

from __future__ import annotations

from collections.abc import Mapping

from playwright.sync_api import Page, expect


def log_in_as(page: Page, base: str, username: str, password: str) -> None:
    """Log in through the form and wait until the page shows the account (the session cookie
    is set before the next ``goto``)."""
    page.goto(f"{base}/login")
    page.locator("input[name=username]").fill(username)
    page.locator("input[name=password]").fill(password)
    with page.expect_navigation():
        page.locator("main form button[type=submit]").click()
    expect(page.locator(".site-tools .account")).to_be_visible()


def game_url(base: str, event_id: int, number: int, board: int) -> str:
    return f"{base}/events/{event_id}/rounds/{number}/boards/{board}"


def open_game(page: Page, base: str, event_id: int, number: int, board: int) -> None:
    page.goto(game_url(base, event_id, number, board))
    expect(page.locator("#game-facts")).to_be_visible()


def _submit(page: Page, form_id: str) -> None:
    form = page.locator(f"#{form_id}")
    with page.expect_navigation():
        form.locator("button[type=submit]").click()


def enter_round_results(
    page: Page, base: str, event_id: int, number: int, results: Mapping[int, str]
) -> None:
    """Fill the round sheet (board → result code or Black's count) and send it: the results
    are entered and confirmed. Fails if the page answers with an error."""
    page.goto(f"{base}/events/{event_id}/rounds/{number}/results")
    for board, result in results.items():
        page.locator(f"input[name=result_{board}]").fill(result)
    _submit(page, "round-sheet")
    expect(page.get_by_role("status")).to_be_visible()
    for board in results:
        expect(page.locator(f"#board-{board} td.result")).not_to_have_text("—")


def upload_round_results(page: Page, base: str, event_id: int, number: int, csv: str) -> None:
    """Upload a ``board,result`` CSV on the round sheet (nothing is stored if a row is bad)."""
    page.goto(f"{base}/events/{event_id}/rounds/{number}/results")
    page.locator("#results-csv input[type=file]").set_input_files(
        {"name": "results.csv", "mimeType": "text/csv", "buffer": csv.encode()}
    )
    _submit(page, "results-csv")


def enter_result(page: Page, base: str, event_id: int, number: int, board: int, entry: str) -> None:
    """Enter a result code or Black's count on the game page (not yet confirmed)."""
    open_game(page, base, event_id, number, board)
    page.locator("#enter-result input[name=entry]").fill(entry)
    _submit(page, "enter-result")


def confirm_result(page: Page, base: str, event_id: int, number: int, board: int) -> None:
    open_game(page, base, event_id, number, board)
    _submit(page, "confirm-result")


def record_infraction(
    page: Page,
    base: str,
    event_id: int,
    number: int,
    board: int,
    offender: str,
    kind: str,
    penalty: str = "",
) -> None:
    """Record an infraction (``kind`` as ``InfractionKind`` values, ``offender`` B or W)."""
    open_game(page, base, event_id, number, board)
    form = page.locator("#record-infraction")
    form.locator("select[name=offender]").select_option(offender)
    form.locator("select[name=kind]").select_option(kind)
    form.locator("select[name=penalty]").select_option(penalty)
    _submit(page, "record-infraction")


def correct_result(
    page: Page, base: str, event_id: int, number: int, board: int, result: str, reason: str
) -> None:
    """The chief referee corrects a confirmed result with a reason (R-REF-7)."""
    open_game(page, base, event_id, number, board)
    form = page.locator("#correct-result")
    form.locator("input[name=result]").fill(result)
    form.locator("input[name=reason]").fill(reason)
    _submit(page, "correct-result")


def post_form(page: Page, url: str, fields: Mapping[str, str]) -> int:
    """POST a form as the logged-in page would (with its CSRF token), bypassing the page's own
    forms; returns the status — for proving that a role without the form is refused."""
    token = page.locator("meta[name=csrf-token]").get_attribute("content") or ""
    response = page.request.post(url, form={"csrf_token": token, **fields}, max_redirects=0)
    return response.status
