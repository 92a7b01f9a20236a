"""Editing a roster player and deleting a team in real headless Chromium, in Chinese, on a
desktop and a phone viewport (marked ``browser``; issue #13, R-ORG-1, R-FMT-1)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.server import pages, team_pages
from tests.server.conftest import LiveServer, screenshot
from tests.server.test_event_admin_browser import PHONE, organiser

pytestmark = pytest.mark.browser
DESKTOP = {"width": 1200, "height": 800}
TEAMS_CSV = "队名,姓名,段位,等级分\n" + "\n".join(
    f"{t},{t}{i}号,{6 - i}d,{2500 - 10 * i}"
    for t in ("黑龙", "白虎", "青龙", "朱雀")
    for i in (1, 2)
)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_an_organiser_edits_a_roster_player_and_deletes_a_team_before_round_1(
    page: Page, live_server: LiveServer, tmp_path: Path, viewport: dict[str, int]
) -> None:
    """A player's name on the dashboard opens their form; a bad rank is refused next to its
    field with everything typed kept; a good edit shows on the team's page. Deleting a team
    asks first and says what it removes; once round 1 is paired, the team's page says it can
    no longer be deleted and what can still be done."""
    page.set_viewport_size(viewport)
    name = "phone" if viewport == PHONE else "desktop"
    password = organiser(live_server, f"zhao-{name}")  # the server outlives one test
    pages.log_in(page, live_server, f"zhao-{name}", password)
    event_id = team_pages.create_team_event(page, live_server, "2026 团体赛编辑测试", boards=2)
    team_pages.paste_teams(page, TEAMS_CSV)
    expect(page.locator(".team-card")).to_have_count(4)

    page.locator("#team-1").get_by_role("link", name="黑龙1号").click()
    form = page.locator("#edit-roster-player")
    form.get_by_label("姓名").fill("李明远")
    form.get_by_label("段位").fill("12d")
    form.get_by_role("button", name="保存").click()
    expect(page.locator("#player-errors")).to_be_visible()
    expect(page.locator("#error-rank")).to_have_text("级别必须在 1 到 9 之间")
    expect(form.get_by_label("姓名")).to_have_value("李明远")
    expect(form.get_by_label("段位")).to_have_value("12d")
    screenshot(page, f"roster-player-error-zh-{name}", tmp_path)
    form.get_by_label("段位").fill("4段")
    form.get_by_role("button", name="保存").click()
    expect(page.get_by_role("status")).to_contain_text("李明远 的信息已保存。")
    expect(page.locator("#roster-list tbody tr", has_text="李明远")).to_contain_text("4段")

    page.locator("#delete-team").click()  # the confirm step says what it means first
    expect(page.locator("#delete-meaning")).to_contain_text("如同从未报名")
    page.locator("#confirm-delete-team").get_by_role("button", name="删除该队").click()
    expect(page.get_by_role("status")).to_contain_text("已删除 黑龙。")
    expect(page.locator(".team-card")).to_have_count(3)
    screenshot(page, f"team-deleted-zh-{name}", tmp_path)

    team_pages.pair_team_round(page, 1)
    page.goto(f"{live_server.url}/events/{event_id}/manage")
    page.locator("#team-1 h3").get_by_role("link", name="白虎").click()
    expect(page.locator("#delete-team")).to_have_count(0)
    expect(page.locator("#delete-refused")).to_contain_text("第1轮已编排")
    expect(page.locator("#delete-refused")).to_contain_text("队名和队员仍可更正")
    screenshot(page, f"team-delete-refused-zh-{name}", tmp_path)
