"""Issue #13, "Pairing", in real headless Chromium (marked ``browser``), in Chinese on a desktop
and a 390×844 phone: the organiser publishes a round robin's schedule (轮次表) from the
organisers' page and the public reads it; the N×N round-robin grid (循环赛对阵表) on screen and
printed on A4; a knockout's bracket."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.server import pages
from tests.server.conftest import LiveServer, screenshot
from tests.server.public_pages import (
    LOCAL,
    browser_table,
    chinese_names,
    pdf_pages,
    play_round,
    round_robin_with_draw_and_withdrawal,
    stronger_wins,
)
from tests.server.test_event_admin_browser import PHONE, organiser
from tests.server.test_printing_browser import pdf_text
from weiqi.services.events import create_event
from weiqi.services.tournament import import_players
from weiqi.store.database import Database
from weiqi.tournament.settings import EventSettings, System

pytestmark = pytest.mark.browser
DESKTOP = {"width": 1200, "height": 800}


def _knockout(server: LiveServer, players: int) -> int:
    db = Database(server.db_url)
    try:
        ev = create_event(db, LOCAL, "2026年淘汰赛", EventSettings(System.KNOCKOUT))
        names = chinese_names(players)
        rows = "\n".join(f"{n},{max(1, 9 - i)}d" for i, n in enumerate(names))
        import_players(db, LOCAL, ev.id, "name,rank\n" + rows)
        play_round(db, ev.id, stronger_wins(names))
        return ev.id
    finally:
        db.dispose()


def _round_robin(server: LiveServer, players: int) -> int:
    db = Database(server.db_url)
    try:
        ev = create_event(db, LOCAL, "2026年大循环", EventSettings(System.ROUND_ROBIN))
        names = chinese_names(players)
        rows = "\n".join(f"{n},{max(1, 9 - i)}d" for i, n in enumerate(names))
        import_players(db, LOCAL, ev.id, "name,rank\n" + rows)
        for _ in range(3):
            play_round(db, ev.id, stronger_wins(names))
        return ev.id
    finally:
        db.dispose()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE])
def test_issue_13_organiser_publishes_the_schedule_and_the_public_reads_every_round(
    page: Page, live_server: LiveServer, tmp_path: Path, viewport: dict[str, int]
) -> None:
    """Before publishing the public page says 轮次表尚未公布 and shows no board; the organiser
    presses 公布轮次表 on the organisers' page; then the public sees all 5 rounds of a 5-player
    round robin with a bye each, linked from the event page."""
    phone = viewport == PHONE
    page.set_viewport_size(viewport)
    who = "rrzhou" if phone else "rrwu"
    password = organiser(live_server, who)
    pages.log_in(page, live_server, who, password)
    event_id = pages.create_event(page, live_server, f"2026 循环赛轮次表 {who}", "循环制", None)
    pages.paste_players(page, "name,rank\n" + "\n".join(
        f"{n},{5 - i}d" for i, n in enumerate(chinese_names(5))))  # fmt: skip
    expect(page.get_by_role("status")).to_have_text("已导入 5 名棋手。")

    public = page.context.browser.new_page(locale="zh-CN", viewport=viewport)  # type: ignore[union-attr]
    public.goto(f"{live_server.url}/events/{event_id}/schedule")
    expect(public.locator("#schedule-unpublished")).to_have_text("轮次表尚未公布。")
    expect(public.locator("table")).to_have_count(0)

    page.locator("#publish-schedule").get_by_role("button", name="公布轮次表").click()
    expect(page.get_by_role("status")).to_have_text("轮次表已公布。")
    expect(page.locator("#schedule .tag")).to_have_text("已公布")

    public.goto(f"{live_server.url}/events/{event_id}")
    public.locator("#schedule-link").click()
    expect(public).to_have_url(f"{live_server.url}/events/{event_id}/schedule")
    expect(public.locator(".schedule-round")).to_have_count(5)
    expect(public.locator(".schedule-round h3").first).to_contain_text("第1轮")
    expect(public.locator("tr.bye")).to_have_count(5)
    first = browser_table(public, "section.schedule-round table")
    assert first[0] == ["台次", "黑方", "白方", "结果"]
    assert [r[0] for r in first[1:3]] == ["1", "2"]
    if phone:  # the cards stack: nothing wider than the screen
        width = public.evaluate("document.documentElement.scrollWidth")
        assert width <= 390
    screenshot(public, f"schedule-{'phone' if phone else 'desktop'}", tmp_path)
    public.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE])
def test_issue_13_grid_in_chinese_with_the_diagonal_blacked_out(
    page: Page, live_server: LiveServer, tmp_path: Path, viewport: dict[str, int]
) -> None:
    """The 6-player round robin's grid, reached from the standings: 胜/和/负 from the row
    player's side, six black diagonal cells, points and place on the right."""
    event_id = _rr_event(live_server)
    page.set_viewport_size(viewport)
    page.goto(f"{live_server.url}/events/{event_id}/standings")
    page.locator("#grid-link").click()
    expect(page.locator("h2")).to_have_text("循环赛对阵表")
    rows = browser_table(page, "table.grid")
    assert rows[0] == ["序号", "姓名", "1", "2", "3", "4", "5", "6", "积分", "名次"]
    assert rows[1] == ["1", "李明", "", "胜", "胜", "胜", "胜", "胜", "10", "1"]
    assert rows[3][:5] == ["3", "张三", "负", "和", ""]
    diag = page.locator("td.diag")
    expect(diag).to_have_count(6)
    color = diag.first.evaluate("e => getComputedStyle(e).backgroundColor")
    assert color not in ("rgba(0, 0, 0, 0)", "rgb(255, 255, 255)")
    page.locator("#grid-points").click()
    assert browser_table(page, "table.grid")[2][:5] == ["2", "王伟", "0", "", "1"]
    screenshot(page, f"grid-{'phone' if viewport == PHONE else 'desktop'}", tmp_path)


_RR: dict[str, int] = {}


def _rr_event(server: LiveServer) -> int:
    if server.url not in _RR:
        db = Database(server.db_url)
        try:
            _RR[server.url] = round_robin_with_draw_and_withdrawal(db)
        finally:
            db.dispose()
    return _RR[server.url]


def test_issue_13_grid_prints_on_a4_and_a_wide_grid_in_landscape(
    page: Page, live_server: LiveServer, tmp_path: Path
) -> None:
    """Print media: the 6-player grid on one A4 portrait page with every name and the
    signature line, no navigation; a 16-player grid on one A4 landscape page."""
    page.goto(f"{live_server.url}/events/{_rr_event(live_server)}/grid")
    page.emulate_media(media="print")
    expect(page.locator(".event-nav")).to_be_hidden()
    expect(page.locator(".sheet-tools")).to_be_hidden()
    expect(page.locator(".signature-line")).to_be_visible()
    pdf = page.pdf(format="A4", prefer_css_page_size=True)
    (tmp_path / "grid.pdf").write_bytes(pdf)
    assert pdf_pages(pdf) == [(595, 842)]
    [text] = pdf_text(pdf)
    for name in ("李明", "王伟", "张三", "赵四", "钱五", "孙六", "循环赛对阵表"):
        assert name in text

    wide = _round_robin(live_server, 16)
    page.emulate_media(media="screen")
    page.goto(f"{live_server.url}/events/{wide}/grid")
    page.emulate_media(media="print")
    pdf = page.pdf(format="A4", prefer_css_page_size=True)
    (tmp_path / "grid-16.pdf").write_bytes(pdf)
    assert pdf_pages(pdf) == [(842, 595)]
    [text] = pdf_text(pdf)
    assert all(name in text for name in chinese_names(16))


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE])
def test_issue_13_bracket_shows_rounds_side_by_side_with_byes_and_winners(
    page: Page, live_server: LiveServer, tmp_path: Path, viewport: dict[str, int]
) -> None:
    """A 6-player knockout after round 1, reached from the event page: 4 quarter-final
    matches, two of them byes, 2 semi-finals with the winners in, the final to be decided;
    the columns stand left to right (on a phone the bracket scrolls sideways)."""
    event_id = _knockout(live_server, 6)
    page.set_viewport_size(viewport)
    page.goto(f"{live_server.url}/events/{event_id}")
    page.locator("#bracket-link").click()
    expect(page.locator("h2")).to_have_text("对阵图")
    heads = page.locator(".bracket-column h4")
    expect(heads).to_have_text(["四分之一决赛", "半决赛", "决赛"])
    expect(page.locator(".bracket-column").nth(0).locator(".match")).to_have_count(4)
    expect(page.locator(".match.walkover")).to_have_count(2)
    expect(page.locator(".match.walkover .side.won")).to_have_count(2)
    names = chinese_names(6)
    semis = page.locator(".bracket-column").nth(1).locator(".side")
    expect(semis).to_have_text([names[0], names[3], names[1], names[2]])
    expect(page.locator(".bracket-column").nth(2).locator(".side")).to_have_text(["待定", "待定"])
    boxes = [heads.nth(i).bounding_box() for i in range(3)]
    assert all(b is not None for b in boxes)
    assert boxes[0]["x"] < boxes[1]["x"] < boxes[2]["x"]  # type: ignore[index]
    if viewport == PHONE:
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, f"bracket-{'phone' if viewport == PHONE else 'desktop'}", tmp_path)
