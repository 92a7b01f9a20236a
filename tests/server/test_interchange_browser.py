"""OpenGotha in and out on the organisers' pages, in real headless Chromium, in Chinese, on a
desktop and a phone viewport (marked ``browser``; issue #14): a real OpenGotha event uploaded
becomes an event with OpenGotha's places; it downloads as an OpenGotha file and as its EGF
results; a file that is not OpenGotha's is refused on the page, the name typed kept."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.server import pages
from tests.server.conftest import LiveServer, screenshot
from tests.server.test_event_admin_browser import PHONE, organiser
from weiqi.formats.opengotha import read_gotha

pytestmark = pytest.mark.browser

DATA = Path(__file__).parent.parent / "data" / "opengotha"


def test_an_opengotha_event_uploaded_and_downloaded(
    page: Page, live_server: LiveServer, tmp_path: Path
) -> None:
    password = organiser(live_server, "sun")
    pages.log_in(page, live_server, "sun", password)
    page.goto(live_server.url)
    page.locator("#import-opengotha-link").click()
    form = page.locator("#import-opengotha")
    bad = tmp_path / "not-gotha.xml"
    bad.write_text("<Event/>", encoding="utf-8")
    form.get_by_label("OpenGotha 文件（.xml）").set_input_files(str(bad))
    form.get_by_label("赛事名称（默认用文件中的名称）").fill("朱维西公开赛")
    form.get_by_role("button", name="导入").click()
    expect(page.locator("#import-error")).to_contain_text("不是 OpenGotha 赛事文件")
    expect(form.get_by_label("赛事名称（默认用文件中的名称）")).to_have_value("朱维西公开赛")
    page.set_viewport_size(PHONE)
    screenshot(page, "import-opengotha-error-zh-phone", tmp_path)
    page.set_viewport_size({"width": 1200, "height": 800})

    form.get_by_label("OpenGotha 文件（.xml）").set_input_files(str(DATA / "juvisy-2019.xml"))
    form.get_by_role("button", name="导入").click()
    status = page.get_by_role("status")
    expect(status).to_contain_text("已从 juvisy-2019.xml 导入：19 名棋手、4 轮、36 盘。")
    expect(status).to_contain_text("6 支队伍未导入")
    event = int(page.url.split("/events/")[1].split("/")[0])
    page.goto(f"{live_server.url}/events/{event}/standings")
    first = page.locator("table tbody tr").first
    expect(first).to_contain_text("Minieri Davide")  # OpenGotha's first place

    pages.open_dashboard(page, live_server, event)
    with page.expect_download() as got:
        page.locator("#export-opengotha").click()
    back = read_gotha(Path(got.value.path()).read_bytes())
    assert len(back.players) == 19 and len(back.games) == 36
    with page.expect_download() as got:
        page.locator("#export-egf").click()
    text = Path(got.value.path()).read_bytes().decode("iso-8859-15")
    lines = [line for line in text.splitlines() if not line.startswith(";")]
    assert "Minieri Davide" in lines[0] and len(lines) == 19
