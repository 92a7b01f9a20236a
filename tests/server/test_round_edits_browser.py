"""Editing a paired round by hand in real headless Chromium, in Chinese, on a desktop and a
390×844 phone (marked ``browser``; issue #13, "Pairing"): a manual swap that is refused when it
makes a rematch and accepted with a reason otherwise; the explanation in plain words with its
legend."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.server import pages
from tests.server.conftest import LiveServer, screenshot
from tests.server.test_event_admin_browser import PHONE, organiser
from tests.server.test_event_admin_services import players_csv
from weiqi.services import event_admin, tournament
from weiqi.services.actor import Actor
from weiqi.store.database import Database

pytestmark = pytest.mark.browser
LOCAL = Actor.local()


def _rounds(server: LiveServer, event_id: int) -> tuple[list[object], list[object]]:
    db = Database(server.db_url)
    try:
        one = event_admin.round_detail(db, LOCAL, event_id, 1).pairings
        two = event_admin.round_detail(db, LOCAL, event_id, 2).pairings
    finally:
        db.dispose()
    return list(one), list(two)


def _results(server: LiveServer, event_id: int) -> None:
    db = Database(server.db_url)
    try:
        for p in event_admin.round_detail(db, LOCAL, event_id, 1).pairings:
            tournament.record_result(db, LOCAL, event_id, 1, p.board, "B+R")
    finally:
        db.dispose()


@pytest.mark.parametrize("viewport", [{"width": 1200, "height": 800}, PHONE])
def test_a_manual_swap_refused_for_a_rematch_and_accepted_with_a_reason(
    page: Page, live_server: LiveServer, tmp_path: Path, viewport: dict[str, int]
) -> None:
    """The chief referee checks a swap that would make a rematch: refused by the Swiss rules,
    no way to confirm it. A swap within a score group breaks nothing; confirmed without a
    reason it is refused next to the reason field, with a reason it is made, kept with who and
    why, and the explanation marks the boards changed."""
    phone = viewport == PHONE
    page.set_viewport_size(viewport)
    who = "qian" if phone else "sun"
    password = organiser(live_server, who)
    pages.log_in(page, live_server, who, password)
    event_id = pages.create_event(page, live_server, f"2026 手动调整测试 {who}", rounds=4)
    pages.paste_players(page, players_csv(8))
    expect(page.get_by_role("status")).to_have_text("已导入 8 名棋手。")
    pages.pair_round(page)
    _results(live_server, event_id)
    pages.open_dashboard(page, live_server, event_id)
    assert pages.pair_round(page) == 2
    first, second = _rounds(live_server, event_id)

    # the explanation: a table of plain phrases, with its legend
    expect(page.locator("#why tbody tr")).to_have_count(4)
    expect(page.locator("#why tbody tr").first).to_contain_text("上局执黑")
    expect(page.locator("#why-legend")).to_contain_text("降组对阵")
    expect(page.locator("#why")).not_to_contain_text("float")

    # a swap that makes a rematch: refused outright
    met = first[0]
    game = next(p for p in second if met.black in (p.black, p.white))  # type: ignore[attr-defined]
    seat = game.white if game.black == met.black else game.black  # type: ignore[attr-defined]
    pages.check_pairing_edit(page, "对调两名棋手", seat, met.white)  # type: ignore[attr-defined]
    expect(page.locator("#edit-refused")).to_be_visible()
    expect(page.locator("#edit-problems")).to_contain_text("积分编排制不允许重复对阵")
    expect(page.locator("#confirm-edit")).to_have_count(0)
    screenshot(page, f"round-edit-refused-zh{'-phone' if phone else ''}", tmp_path)

    # a swap within the winners' score group: no problem; a reason is required
    one, two = second[0], second[1]
    pages.check_pairing_edit(page, "对调两名棋手", one.white, two.white)  # type: ignore[attr-defined]
    expect(page.locator("#edit-problems")).to_contain_text("此调整不违反任何编排规则")
    expect(page.locator("#edit-boards tbody tr")).to_have_count(2)
    pages.confirm_pairing_edit(page, "")
    expect(page.locator("#error-reason")).to_have_text("调整对阵须写明理由")
    pages.confirm_pairing_edit(page, "两位棋手同一单位，裁判长对调")
    expect(page.get_by_role("status")).to_have_text("第 2 轮的对阵已调整。")
    rows = page.locator("#pairing tbody tr")
    expect(rows.nth(0)).to_contain_text(two.white)  # type: ignore[attr-defined]
    expect(rows.nth(1)).to_contain_text(one.white)  # type: ignore[attr-defined]
    kept = page.locator("#pairing-edits")
    expect(kept).to_contain_text("两位棋手同一单位，裁判长对调")
    expect(kept).to_contain_text(f"对调 {one.white} 与 {two.white}")  # type: ignore[attr-defined]
    expect(page.locator("#why tbody tr").first).to_contain_text("手动调整")
    screenshot(page, f"round-edit-done-zh{'-phone' if phone else ''}", tmp_path)
    if phone:
        # the edit form fits the phone: nothing wider than the screen but the scrolling tables
        width = page.evaluate("document.querySelector('#edit-form').scrollWidth")
        assert width <= PHONE["width"]
        expect(page.locator("#edit-form").get_by_role("button", name="检查此调整")).to_be_visible()
