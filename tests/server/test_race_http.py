"""Over HTTP, against a real ``weiqi serve`` on SQLite and PostgreSQL: of two requests that
race to store the same thing, the loser gets 409 with the API's error shape, in the language
it asked for — never 500."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing, contextmanager
from pathlib import Path
from threading import Barrier

import httpx

from tests.server.conftest import ADMIN_PASSWORD, SRC, _free_port, wait_until_serving

TRIALS = int(os.environ.get("WEIQI_RACE_TRIALS", "15"))  # 200: issue #16's count


@contextmanager
def _server(db_url: str, workdir: Path) -> Iterator[str]:
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(SRC), "WEIQI_ADMIN_PASSWORD": ADMIN_PASSWORD}
    env.pop("WEIQI_DATABASE_URL", None)
    log_path = workdir / f"server-{port}.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "weiqi", "serve", "--port", str(port), "--db", db_url],
            stdout=log, stderr=log, cwd=workdir, env=env,
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_serving(url, process, log_path)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


def _admin(url: str, language: str) -> httpx.Client:
    client = httpx.Client(base_url=url, timeout=60, headers={"Accept-Language": language})
    token = client.get("/api/session").json()["csrf_token"]
    body = {"username": "admin", "password": ADMIN_PASSWORD}
    assert client.post("/api/session", json=body, headers={"X-CSRF-Token": token}).is_success
    client.headers["X-CSRF-Token"] = client.get("/api/session").json()["csrf_token"]
    return client


def test_the_loser_of_a_race_gets_409_with_the_error_shape(
    database_url: str, tmp_path: Path
) -> None:
    """Two administrators create the same user at the same moment, TRIALS times: one 201, one
    409 ``{error: conflict, code, args, message}``, the message in the loser's language."""
    with (
        _server(database_url, tmp_path) as url,
        closing(_admin(url, "en")) as english,
        closing(_admin(url, "zh-CN")) as chinese,
        ThreadPoolExecutor(2) as pool,
    ):
        for i in range(TRIALS):
            barrier = Barrier(2)
            body = {"username": f"twin-{i}", "password": "quiet tortoise 123"}

            def create(
                client: httpx.Client, body: dict[str, str] = body, barrier: Barrier = barrier
            ) -> httpx.Response:
                barrier.wait()
                return client.post("/api/users", json=body)

            responses = list(pool.map(create, (english, chinese)))
            assert sorted(r.status_code for r in responses) == [201, 409], [
                r.text for r in responses
            ]
            lost = next(r for r in responses if r.status_code == 409)
            error = lost.json()
            assert set(error) == {"error", "code", "args", "message"}
            assert error["error"] == "conflict"
            if lost.request.headers["Accept-Language"] == "zh-CN":
                assert error["message"] != error["code"] % error["args"]  # translated
                assert any("\u4e00" <= ch <= "\u9fff" for ch in error["message"])
        users = english.get("/api/users").json()
        assert sorted(u["username"] for u in users if u["username"].startswith("twin-")) == sorted(
            f"twin-{i}" for i in range(TRIALS)
        )
