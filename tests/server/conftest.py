"""The app on a real database, a test client, and logged-in helpers."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from playwright.sync_api import Browser, Page, expect, sync_playwright

from tests.programs import CHROMIUM
from tests.store.conftest import (  # noqa: F401  (fixtures shared with the store tests)
    cheap_password_hashes,
    database,
    database_url,
    postgres_url,
    sqlite_template,
    sqlite_url,
)
from weiqi.server.app import create_app
from weiqi.services.accounts import ensure_site_admin
from weiqi.store.database import Database

ADMIN_PASSWORD = "keeper of the site 2026"


_FREE_APPS: dict[tuple[str, bool], list[FastAPI]] = {}


@contextmanager
def served(
    db: Database,
    *,
    secret_key: str = "test secret",
    https_only: bool = False,
    base_url: str = "http://testserver",
    **options: Any,
) -> Iterator[TestClient]:
    """A client of ``create_app(db, secret_key=…, https_only=…, **options)`` while the block
    runs (the application started and stopped with it, as ``with TestClient(app)``).

    FastAPI builds an application's routes (each parameter's pydantic adapter) on the first
    request that reaches them, again for every new application: 0.15-0.5 s of each test that
    makes one. So the client gets the state of a new application on ``db`` — everything
    ``create_app`` keeps per site: the database, clock, login limits, page cache, live rooms
    (made on first use) — in an application of this process not in use, made with the same
    secret key and TLS setting (all its middleware is made of), whose routes keep no state."""
    fresh = create_app(db, secret_key=secret_key, https_only=https_only, **options)
    free = _FREE_APPS.setdefault((secret_key, https_only), [])
    app = free.pop() if free else fresh
    app.state = fresh.state
    try:
        with TestClient(app, base_url=base_url) as client:
            yield client
    finally:
        free.append(app)


@pytest.fixture
def client(database: Database) -> Iterator[TestClient]:  # noqa: F811
    """A client of the app on a fresh database whose administrator is ``admin``."""
    ensure_site_admin(database, ADMIN_PASSWORD)
    with served(database) as c:
        yield c


def csrf(client: TestClient) -> str:
    """The session's CSRF token (as a script would fetch it)."""
    token: str = client.get("/api/session").json()["csrf_token"]
    return token


def api_login(client: TestClient, username: str, password: str) -> None:
    response = client.post(
        "/api/session",
        json={"username": username, "password": password},
        headers={"X-CSRF-Token": csrf(client)},
    )
    assert response.status_code == 200, response.text


# --- the real server and a real browser (tests marked ``browser``) ---------------------------

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SRC = Path(__file__).resolve().parents[2] / "src"


@dataclass(frozen=True)
class LiveServer:
    url: str
    admin_password: str
    """The one-time password the first run printed."""
    log: Path
    db_url: str
    """The server's database, for setting up a test through the services directly."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_until_serving(
    url: str, process: subprocess.Popen[bytes], log: Path, seconds: float = 90
) -> None:
    """Wait for ``/health`` of a ``weiqi serve`` just started (generous: the cores are shared);
    ``RuntimeError`` with the server's log if it dies or never answers."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"server did not start:\n{log.read_text()}")
        time.sleep(0.1)


@contextmanager
def run_server(workdir: Path, db_url: str) -> Iterator[LiveServer]:
    """``weiqi serve`` in a subprocess on a free port, as a user starts it, until the block ends."""
    port = _free_port()
    out, log = workdir / "stdout.txt", workdir / "server.log"
    env = {**os.environ, "PYTHONPATH": str(SRC), "PYTHONUNBUFFERED": "1"}
    env.pop("WEIQI_ADMIN_PASSWORD", None)
    env.pop("WEIQI_DATABASE_URL", None)
    with out.open("wb") as stdout, log.open("wb") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", "weiqi", "serve", "--port", str(port), "--db", db_url],
            stdout=stdout, stderr=stderr, cwd=workdir, env=env,
        )  # fmt: skip
    try:
        url = f"http://127.0.0.1:{port}"
        wait_until_serving(url, process, log)
        printed = re.search(r"one-time password (\S+)", out.read_text())
        assert printed, out.read_text()
        yield LiveServer(url, printed.group(1), log, db_url)
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture(scope="module")
def live_server(
    tmp_path_factory: pytest.TempPathFactory,
    sqlite_template: Path,  # noqa: F811
) -> Iterator[LiveServer]:
    """The real server on a new SQLite file (one per test module): a copy of the one migrated
    once per run, as the database fixture's. ``weiqi serve`` migrating a new file of its own
    is tested by ``test_small_things``, a fresh site's first start by every module here."""
    workdir = tmp_path_factory.mktemp("server")
    shutil.copyfile(sqlite_template, workdir / "weiqi.sqlite3")
    with run_server(workdir, f"sqlite:///{workdir / 'weiqi.sqlite3'}") as server:
        yield server


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    # A busy machine (two test workers, several browsers, the servers) can take more than the
    # 5 s Playwright waits by default for a page to reach what a test expects; a failing
    # expectation still fails, only later.
    expect.set_options(timeout=15_000)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A fresh page whose browser asks for Chinese, like most of our users'."""
    context = browser.new_context(locale="zh-CN", viewport={"width": 1200, "height": 800})
    context.set_default_timeout(10_000)
    p = context.new_page()
    yield p
    context.close()


def wait_until(page: Page, expression: str, timeout: float = 10.0) -> Any:
    """The value of the JavaScript ``expression`` in ``page`` once it is truthy, polled every
    50 ms for at most ``timeout`` seconds. Not ``page.wait_for_function``: its predicate is
    evaluated with ``eval`` inside the page, which our pages' Content-Security-Policy refuses
    whenever the first look finds it false (a module not yet run on a loaded machine)."""
    deadline = time.monotonic() + timeout
    while not (value := page.evaluate(expression)):
        assert time.monotonic() < deadline, f"still false after {timeout} s: {expression}"
        page.wait_for_timeout(50)
    return value


def screenshot(page: Page, name: str, tmp_path: Path) -> Path:
    """Save a full-page screenshot into ``$WEIQI_SCREENSHOTS`` (if set) or ``tmp_path``."""
    folder = Path(os.environ.get("WEIQI_SCREENSHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
