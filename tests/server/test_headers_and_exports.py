"""What every response carries and what an export may contain (issue 16): a
Content-Security-Policy with no inline script allowed, HSTS behind TLS, ``no-store`` on what a
logged-in session receives, CSV cells that a spreadsheet cannot run as formulas, and an API
documentation page that needs no internet."""

from __future__ import annotations

import csv
import io
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.conftest import ADMIN_PASSWORD, api_login, served
from tests.server.public_pages import small_swiss
from weiqi.services.accounts import ensure_site_admin
from weiqi.store.database import Database

TEMPLATES = Path(__file__).resolve().parents[2] / "src" / "weiqi" / "server" / "templates"


@pytest.fixture
def db(tmp_path: Path, sqlite_template: Path) -> Iterator[Database]:
    path = tmp_path / "headers.sqlite3"
    shutil.copyfile(sqlite_template, path)
    database = Database(f"sqlite:///{path}")
    ensure_site_admin(database, ADMIN_PASSWORD)
    yield database
    database.dispose()


def test_every_page_forbids_inline_script(db: Database) -> None:
    with served(db, secret_key="k") as web:
        for url in ("/", "/login", "/clock", "/docs", "/api/session"):
            policy = web.get(url).headers["content-security-policy"]
            assert "script-src 'self'" in policy and "unsafe-inline" not in policy, url
            assert "frame-ancestors 'none'" in policy


def test_no_template_has_inline_handlers_or_styles() -> None:
    """The policy would silently disable them: behaviour lives in /static/page.js."""
    for template in TEMPLATES.glob("*.html"):
        text = template.read_text()
        assert not re.search(r"\son[a-z]+=", text), template.name
        assert not re.search(r"\sstyle=", text), template.name
        assert not re.search(r"<script(?![^>]*\b(src|type=\"application/json\"))", text), (
            template.name
        )


def test_hsts_only_when_served_over_tls(db: Database) -> None:
    with served(db, secret_key="k") as plain:
        assert "strict-transport-security" not in plain.get("/").headers
    with served(db, secret_key="k", https_only=True, base_url="https://t") as tls:
        assert tls.get("/").headers["strict-transport-security"].startswith("max-age=31536000")


def test_a_logged_in_session_gets_no_store(db: Database) -> None:
    with served(db, secret_key="k") as web:
        assert "no-store" not in web.get("/events").headers.get("cache-control", "")
        api_login(web, "admin", ADMIN_PASSWORD)
        for url in ("/api/session", "/", "/admin"):
            assert web.get(url).headers["cache-control"] == "no-store", url
        assert "no-store" not in web.get("/static/style.css").headers.get("cache-control", "")


def test_csv_cells_cannot_run_as_formulas(db: Database) -> None:
    """A player named like a formula is written with a leading apostrophe, so Excel, which opens
    our BOM'd CSV directly, shows the name instead of running it; numbers stay numbers."""
    names = ["=HYPERLINK(A1)", "@SUM(A1)", "+1+1", "-2+3", "李明", "王伟"]
    ev = small_swiss(db, players=6, rounds=2, names=names)
    with served(db, secret_key="k") as web:
        text = web.get(f"/events/{ev}/standings", params={"format": "csv"}).text
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    cells = {cell for row in rows for cell in row}
    for name in names[:4]:
        assert name not in cells and "'" + name in cells
    assert "李明" in cells
    points = [row[3] for row in rows[1:]]
    assert all(re.fullmatch(r"\d+(\.\d+)?|\d+½?", p) for p in points), points


def test_api_docs_are_served_without_internet(db: Database) -> None:
    with served(db, secret_key="k") as web:
        page = web.get("/docs").text
        assets = re.findall(r'(?:src|href)="([^"]+)"', page)
        assert assets and all(a.startswith("/static/") for a in assets), assets
        for asset in assets:
            assert web.get(asset).status_code == 200, asset
