"""The public pages in real headless Chromium (marked ``browser``): Chinese columns, A4 print
and PDF, and screenshots on a desktop and a phone (set ``WEIQI_SCREENSHOTS`` to keep them)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server.conftest import LiveServer, screenshot
from tests.server.public_pages import (
    browser_table,
    chinese_names,
    pdf_pages,
    round_robin_with_draw_and_withdrawal,
    small_swiss,
    team_round_robin,
)
from weiqi.store.database import Database

pytestmark = pytest.mark.browser

# A4 in CSS pixels (96 per inch) less the print.css / public.css margins
A4_PORTRAIT_CONTENT = round((210 - 2 * 12) / 25.4 * 96)
A4_LANDSCAPE_CONTENT = round((297 - 2 * 10) / 25.4 * 96)


@pytest.fixture(scope="module")
def events(live_server: LiveServer) -> dict[str, int]:
    """A 6-player round robin and a 24-player Swiss of 9 rounds, built through the services."""
    db = Database(live_server.db_url)
    try:
        return {
            "rr": round_robin_with_draw_and_withdrawal(db),
            "teams": team_round_robin(db),
            "swiss": small_swiss(
                db, players=24, rounds=9, names=chinese_names(24), title="2026年全国业余围棋公开赛"
            ),
        }
    finally:
        db.dispose()


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(
        locale="zh-CN", viewport={"width": 390, "height": 844}, device_scale_factor=2,
        is_mobile=True, has_touch=True,
    )  # fmt: skip
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


def test_r_rank_swiss_standings_in_chinese_show_the_tiebreak_columns(
    page: Page, live_server: LiveServer, events: dict[str, int], tmp_path: Path
) -> None:
    """R-RANK-SWISS: points, 对手分, 警告次数 — as column heads a Chinese reader sees."""
    page.goto(f"{live_server.url}/events/{events['swiss']}/standings")
    expect(page.locator("h2")).to_have_text("第9轮后名次")
    heads = page.locator("table.standings thead th")
    expect(heads).to_have_text(["名次", "姓名", "段位", "积分", "对手分", "警告次数", "备注"])
    expect(page.locator("abbr", has_text="对手分")).to_have_attribute(
        "title", "SOS · 所有对手的积分之和"
    )
    expect(page.locator("table.standings tbody tr")).to_have_count(24)
    assert browser_table(page)[1][:4] == ["1", "王明", "7段", "18"]
    screenshot(page, "public-standings-zh", tmp_path)
    page.get_by_role("link", name="English").click()
    expect(heads.nth(4)).to_have_text("SOS")
    expect(page.locator("abbr", has_text="SOS")).to_have_attribute(
        "title", "sum of opponents' points"
    )
    expect(page.locator("table.standings tbody tr").nth(14).locator("td").first).to_have_text("15=")
    screenshot(page, "public-standings-en", tmp_path)


def test_r_rank_rr_print_standings_and_crosstable_on_a4(
    page: Page, live_server: LiveServer, events: dict[str, int], tmp_path: Path
) -> None:
    """Standings print on one A4 portrait page; the 24 × 9 crosstable fits one A4 landscape
    page; no navigation prints."""
    page.goto(f"{live_server.url}/events/{events['rr']}/standings")
    page.emulate_media(media="print")
    expect(page.locator(".event-nav")).to_be_hidden()
    expect(page.locator(".sheet-tools")).to_be_hidden()
    screenshot(page, "public-rr-standings-print", tmp_path)
    assert pdf_pages(page.pdf(format="A4", prefer_css_page_size=True)) == [(595, 842)]

    page.goto(f"{live_server.url}/events/{events['swiss']}/standings")
    assert pdf_pages(page.pdf(format="A4", prefer_css_page_size=True)) == [(595, 842)]

    page.goto(f"{live_server.url}/events/{events['swiss']}/rounds/9")  # pairings for the wall
    table = page.locator("table.round")
    assert table.evaluate("t => t.scrollWidth") <= table.evaluate(
        "t => t.parentElement.clientWidth"
    )
    screenshot(page, "public-round-print", tmp_path)
    assert pdf_pages(page.pdf(format="A4", prefer_css_page_size=True)) == [(595, 842)]

    page.set_viewport_size({"width": A4_LANDSCAPE_CONTENT, "height": 700})
    page.goto(f"{live_server.url}/events/{events['swiss']}/crosstable")
    page.emulate_media(media="print")
    table = page.locator("table.crosstable")
    expect(table.locator("tbody tr")).to_have_count(24)
    width = table.evaluate("t => t.scrollWidth")
    assert width <= A4_LANDSCAPE_CONTENT, width
    screenshot(page, "public-crosstable-print", tmp_path)
    assert pdf_pages(page.pdf(format="A4", prefer_css_page_size=True)) == [(842, 595)]


def test_the_pages_on_a_desktop_and_a_phone(
    page: Page, phone: Page, live_server: LiveServer, events: dict[str, int], tmp_path: Path
) -> None:
    """Screenshots of every public page (look at them); on a phone wide tables scroll inside
    their frame instead of widening the page."""
    base = f"{live_server.url}/events"
    rr, swiss = events["rr"], events["swiss"]
    pages = {
        "overview": f"{base}/{swiss}",
        "round": f"{base}/{swiss}/rounds/9?sgf=true",
        "crosstable": f"{base}/{swiss}/crosstable",
        "player": f"{base}/{rr}/players/3",
        "rr-crosstable": f"{base}/{rr}/crosstable",
        "team-standings": f"{base}/{events['teams']}/standings",
        "team-round": f"{base}/{events['teams']}/rounds/1",
    }
    for name, url in pages.items():
        page.goto(url)
        expect(page.locator("h1")).to_be_visible()
        screenshot(page, f"public-{name}-desktop", tmp_path)
    for name in ("overview", "round", "crosstable", "team-round"):
        phone.goto(pages[name])
        screenshot(phone, f"public-{name}-phone", tmp_path)
        overflow = phone.evaluate("document.documentElement.scrollWidth")
        assert overflow <= 390, (name, overflow)
    phone.goto(pages["overview"])
    expect(phone.locator(".round-link.current")).to_have_text("9")
