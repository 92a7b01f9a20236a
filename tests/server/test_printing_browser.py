"""Printing and display (issue #13, "Printing and display"), in real headless Chromium against
the real server, in Chinese, on a desktop and a 390×844 phone: the round's result sheet prints
with every board and a signature column (it printed as a blank page when print.css hid every
form), the slips print five to an A4 page with cut lines, the standings print with the event's
name, the round, page numbers and the chief referee's signature line, the crosstable of 100
players fits A4 landscape, the projector view pages through pairings and standings, and the
result sheet's inputs are in view on a phone.

Set ``WEIQI_SCREENSHOTS=/some/dir`` to keep the screenshots.
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from pypdf import PdfReader

from tests.server.conftest import LiveServer, screenshot, wait_until
from tests.server.public_pages import (
    GIVEN,
    LOCAL,
    SURNAMES,
    pdf_pages,
    play_round,
    team_round_robin,
)
from tests.server.result_pages import log_in_as
from weiqi.roles import Role
from weiqi.services import accounts
from weiqi.services import tournament as t
from weiqi.services.event_admin import publish_round
from weiqi.services.events import create_event
from weiqi.store.database import Database
from weiqi.tournament.settings import EventSettings, System

pytestmark = pytest.mark.browser

PASSWORD = "裁判的密码 2026"
A4_LANDSCAPE_CONTENT = round((297 - 2 * 10) / 25.4 * 96)
# The font draws 长 and the radical ⻓ with one glyph, and Chromium's PDF may name the radical:
# the simplified radicals that are characters of their own, back to those characters.
RADICALS = str.maketrans(
    "\u2ec5\u2ec9\u2ecb\u2ed3\u2ed4\u2ed9\u2eda\u2edb\u2edc\u2ee2"
    "\u2ee5\u2ee6\u2ee7\u2ee9\u2eea\u2eec\u2eee\u2ef0\u2ef3",
    "见贝车长门韦页风飞马鱼鸟卤黄黾齐齿龙龟",
)


def names(count: int) -> list[str]:
    """``count`` distinct Chinese names (up to 288).

    >>> names(26)[0], names(26)[25]
    ('王明', '李伟')
    >>> len(set(names(288)))
    288
    """
    return [SURNAMES[i % 24] + GIVEN[(i // 24) % 12] for i in range(count)]


def pdf_text(pdf: bytes) -> list[str]:
    """The text of each page of a PDF without spaces or line breaks, radicals read as the
    characters they stand for (NFKC: a Kangxi radical ⼈ is 人; ``RADICALS``: ⻓ is 长).

    >>> "".join(unicodedata.normalize("NFKC", "裁判\u2ed3\u2f08").translate(RADICALS))
    '裁判长人'
    """
    pages = PdfReader(io.BytesIO(pdf)).pages
    return [
        "".join(unicodedata.normalize("NFKC", p.extract_text()).translate(RADICALS).split())
        for p in pages
    ]


def swiss(db: Database, title: str, players: int, rounds: int, played: int) -> int:
    """A Swiss of ``players`` (9段 down to 级位), ``played`` rounds finished (the stronger
    player wins) and the next one paired and published without results."""
    who = names(players)
    ranks = [f"{9 - i // 10}d" if i < 90 else f"{i - 89}k" for i in range(players)]
    ev = create_event(db, LOCAL, title, EventSettings(system=System.SWISS, rounds=rounds))
    rows = "".join(f"{n},{r}\n" for n, r in zip(who, ranks, strict=True))
    t.import_players(db, LOCAL, ev.id, "name,rank\n" + rows)
    for _ in range(played):
        play_round(db, ev.id, lambda _r, b, w: "B+7.5" if who.index(b) < who.index(w) else "W+R")
    if played < rounds:
        t.pair_round(db, LOCAL, ev.id)
        publish_round(db, LOCAL, ev.id, played + 1)
    return ev.id


@pytest.fixture(scope="module")
def events(live_server: LiveServer) -> dict[str, int]:
    """A 12-player Swiss with round 2 open, a 100-player Swiss of 7 finished rounds, a team
    round robin; a referee of the small Swiss."""
    db = Database(live_server.db_url)
    try:
        small = swiss(db, "2026年春季围棋公开赛", players=12, rounds=3, played=1)
        user = accounts.create_user(db, LOCAL, "referee-print", PASSWORD)
        accounts.grant_role(db, LOCAL, user.id, small, Role.REFEREE)
        return {
            "small": small,
            "hundred": swiss(db, "百人围棋赛", players=100, rounds=7, played=7),
            "teams": team_round_robin(db),
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


def boards_of(page: Page) -> list[tuple[str, str]]:
    """(black, white) of every row of the round sheet on the page."""
    rows: list[tuple[str, str]] = page.locator("#boards tbody tr").evaluate_all(
        "rs => rs.map(r => [r.cells[1].innerText.trim(), r.cells[2].innerText.trim()])"
    )
    return [tuple(r) for r in rows]  # type: ignore[misc]


def test_issue_13_result_sheet_prints_every_board_with_a_signature_column(
    page: Page, live_server: LiveServer, events: dict[str, int], tmp_path: Path
) -> None:
    """The referee's round sheet in print: 台次, 黑方, 白方, 结果, 签字 for every board, the
    chief referee's line to sign; no inputs or buttons. Its PDF holds every board's names."""
    log_in_as(page, live_server.url, "referee-print", PASSWORD)
    page.goto(f"{live_server.url}/events/{events['small']}/rounds/2/results")
    expect(page.locator("input[name=result_1]")).to_be_visible()
    expect(page.locator("th.sign")).to_be_hidden()  # on screen: the form, no signature column
    boards = boards_of(page)
    assert len(boards) == 6
    page.emulate_media(media="print")
    expect(page.locator("#boards")).to_be_visible()
    heads = page.locator("#boards thead th:visible")
    expect(heads).to_have_text(["台次", "黑方", "白方", "结果", "签字"])
    expect(page.locator("#round-sheet input:visible, #round-sheet button:visible")).to_have_count(0)
    expect(page.locator(".signature-line")).to_contain_text("裁判长签字")
    screenshot(page, "print-result-sheet", tmp_path)

    pdf = page.pdf(format="A4", prefer_css_page_size=True)
    (tmp_path / "result-sheet.pdf").write_bytes(pdf)
    assert pdf_pages(pdf) == [(595, 842)]
    [text] = pdf_text(pdf)
    assert "2026年春季围棋公开赛" in text and "第2轮成绩" in text
    assert "台次黑方白方结果签字" in text
    for board, (black, white) in enumerate(boards, start=1):
        assert f"{board}{black}{white}" in text, (board, black, white)
    assert "裁判长签字" in text and "1/1" in text  # the page number at its foot


def test_issue_13_slips_five_to_an_a4_page_with_cut_lines(
    page: Page, live_server: LiveServer, events: dict[str, int], tmp_path: Path
) -> None:
    """One slip per board — event, round, board, both players, komi, boxes for the result and
    three signatures — five to an A4 page between dashed cut lines: 50 boards, 10 pages."""
    page.goto(f"{live_server.url}/events/{events['hundred']}/rounds/7/results")
    boards = boards_of(page)
    assert len(boards) == 50
    page.get_by_role("link", name="对阵成绩条").click()
    expect(page.locator(".slip")).to_have_count(50)
    first = page.locator("#slip-1")
    expect(first).to_contain_text("百人围棋赛 · 第7轮")
    expect(first).to_contain_text("第1台")
    expect(first).to_contain_text(f"黑方 {boards[0][0]}")
    expect(first).to_contain_text("贴3¾子")
    for words in ("黑胜", "白胜", "和棋", "黑方签字", "白方签字", "裁判签字"):
        expect(first).to_contain_text(words)
    page.emulate_media(media="print")
    style = first.evaluate("s => getComputedStyle(s).borderBottomStyle")
    assert style == "dashed"
    screenshot(page, "print-slips", tmp_path)

    pdf = page.pdf(format="A4", prefer_css_page_size=True)
    (tmp_path / "slips.pdf").write_bytes(pdf)
    assert pdf_pages(pdf) == [(595, 842)] * 10
    texts = pdf_text(pdf)
    for board, (black, white) in enumerate(boards, start=1):
        text = texts[(board - 1) // 5]
        assert f"第{board}台黑方{black}白方{white}" in text, (board, black, white)


def test_issue_13_standings_print_with_name_round_page_numbers_and_signature(
    page: Page, live_server: LiveServer, events: dict[str, int], tmp_path: Path
) -> None:
    """Printed standings: the event's name and the round on the first page, "n / N" at every
    page's foot, the chief referee's line to sign after the table (team standings too)."""
    page.goto(f"{live_server.url}/events/{events['hundred']}/standings")
    expect(page.locator(".signature-line")).to_be_hidden()
    page.emulate_media(media="print")
    expect(page.locator(".signature-line")).to_be_visible()
    pdf = page.pdf(format="A4", prefer_css_page_size=True)
    (tmp_path / "standings.pdf").write_bytes(pdf)
    texts = pdf_text(pdf)
    assert len(texts) > 1
    assert "百人围棋赛" in texts[0] and "第7轮后名次" in texts[0]
    for n, text in enumerate(texts, start=1):
        assert f"{n}/{len(texts)}" in text, n
    assert "裁判长签字" in texts[-1] and "日期" in texts[-1]
    assert "王明" in texts[0]

    page.goto(f"{live_server.url}/events/{events['teams']}/standings")
    page.emulate_media(media="print")
    [text] = pdf_text(page.pdf(format="A4", prefer_css_page_size=True))
    assert "2026年城市围棋团体赛" in text and "裁判长签字" in text and "1/1" in text


def test_issue_13_crosstable_of_100_players_fits_a4_landscape(
    page: Page, live_server: LiveServer, events: dict[str, int], tmp_path: Path
) -> None:
    """100 players × 7 rounds: every column within the width of an A4 landscape page, every
    page landscape and numbered."""
    page.set_viewport_size({"width": A4_LANDSCAPE_CONTENT, "height": 700})
    page.goto(f"{live_server.url}/events/{events['hundred']}/crosstable")
    page.emulate_media(media="print")
    table = page.locator("table.crosstable")
    expect(table.locator("tbody tr")).to_have_count(100)
    width = table.evaluate("t => t.scrollWidth")
    assert width <= A4_LANDSCAPE_CONTENT, width
    assert page.evaluate("document.documentElement.scrollWidth") <= A4_LANDSCAPE_CONTENT
    screenshot(page, "print-crosstable-100", tmp_path)
    pdf = page.pdf(format="A4", prefer_css_page_size=True)
    sizes = pdf_pages(pdf)
    assert set(sizes) == {(842, 595)}
    texts = pdf_text(pdf)
    assert all(f"{n}/{len(texts)}" in text for n, text in enumerate(texts, start=1))
    assert "100100" in texts[-1]  # the last row: row 100, place 100


def test_issue_13_projector_pages_through_standings_and_pairings(
    page: Page, live_server: LiveServer, events: dict[str, int], tmp_path: Path
) -> None:
    """The standings page links the projector; at 1280×720 its large rows come a screenful at
    a time (every row once), the arrow key turns the screen, and with ``?seconds=1`` the
    screens turn by themselves. The round's and the team pages' projectors show their tables."""
    base = f"{live_server.url}/events/{events['hundred']}"
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"{base}/standings")
    page.get_by_role("link", name="投影").click()
    expect(page).to_have_url(f"{base}/standings/projector")
    expect(page.locator(".projector-title")).to_have_text("第7轮后名次")
    expect(page.locator("h1")).to_have_text("百人围棋赛")
    # the module runs after the page has loaded: wait for it (a loaded machine is slow)
    screens: list[int] = wait_until(page, "window.weiqiProjector?.screens")
    assert len(screens) > 2 and sum(screens) == 100, screens
    rows = page.locator("table.standings tbody tr")
    expect(rows.locator("visible=true")).to_have_count(screens[0])
    expect(page.locator("#projector-page")).to_have_text(f"1 / {len(screens)}")
    size = rows.first.locator("td").nth(1).evaluate("c => parseFloat(getComputedStyle(c).fontSize)")
    assert size >= 24, size
    last = rows.nth(screens[0] - 1).bounding_box()
    assert last is not None and last["y"] + last["height"] <= 720
    screenshot(page, "projector-standings", tmp_path)
    page.keyboard.press("ArrowRight")
    expect(page.locator("#projector-page")).to_have_text(f"2 / {len(screens)}")
    expect(rows.nth(0)).to_be_hidden()
    expect(rows.nth(screens[0])).to_be_visible()

    page.goto(f"{base}/rounds/7?sgf=true")
    page.get_by_role("link", name="投影").click()
    expect(page.locator(".projector-title")).to_have_text("第7轮")
    expect(page.locator("table.round tbody tr")).to_have_count(50)
    page.goto(f"{base}/rounds/7/projector?seconds=1")
    expect(page.locator("#projector-page")).to_have_text(
        f"2 / {len(wait_until(page, 'window.weiqiProjector?.screens'))}", timeout=5_000
    )
    screenshot(page, "projector-round", tmp_path)

    teams = f"{live_server.url}/events/{events['teams']}/teams"
    page.goto(f"{teams}/standings")
    page.get_by_role("link", name="投影").click()
    expect(page.locator(".projector-title")).to_have_text("团体名次")
    expect(page.locator("table.standings tbody tr")).to_have_count(4)
    page.goto(f"{teams}/rounds/1")
    page.get_by_role("link", name="投影").click()
    expect(page.locator("table.teamround tbody tr").first).to_be_visible()
    assert page.request.get(f"{base}/standings/projector?seconds=-1").status == 422


def test_issue_13_result_sheet_on_a_phone_keeps_the_inputs_in_view(
    phone: Page, live_server: LiveServer, events: dict[str, int], tmp_path: Path
) -> None:
    """390×844: the sheet does not scroll sideways, every result input is inside the screen,
    and a result typed on the phone is entered and confirmed."""
    log_in_as(phone, live_server.url, "referee-print", PASSWORD)
    phone.goto(f"{live_server.url}/events/{events['small']}/rounds/2/results")
    inputs = phone.locator("#boards input")
    expect(inputs).to_have_count(6)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    frame = phone.locator(".table-scroll")
    assert frame.evaluate("f => f.scrollWidth <= f.clientWidth")
    for i in range(6):
        box = inputs.nth(i).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, (i, box)
    screenshot(phone, "phone-result-sheet", tmp_path)
    inputs.first.fill("B+R")
    with phone.expect_navigation():
        phone.get_by_role("button", name="录入并确认结果").click()
    expect(phone.get_by_role("status")).to_contain_text("1")
    expect(phone.locator("#board-1 td.result")).to_contain_text("黑中盘胜")
