"""Two servers started at the same moment on one fresh database both come up (issue 16): the
migrations run once, under a lock, and one of them creates the administrator."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.server.conftest import SRC, _free_port, wait_until_serving


def _start_two(db_url: str, workdir: Path) -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    env.pop("WEIQI_ADMIN_PASSWORD", None)
    ports = [_free_port(), _free_port()]
    outs = [workdir / f"out-{p}.txt" for p in ports]
    processes = [
        subprocess.Popen(
            [sys.executable, "-m", "weiqi", "serve", "--port", str(port), "--db", db_url],
            stdout=out.open("wb"),
            stderr=subprocess.STDOUT,
            cwd=workdir,
            env=env,
        )
        for port, out in zip(ports, outs, strict=True)
    ]
    try:
        for port, process, out in zip(ports, processes, outs, strict=True):
            wait_until_serving(f"http://127.0.0.1:{port}", process, out)
        return [out.read_text() for out in outs]
    finally:
        for process in processes:
            process.terminate()
            process.wait(timeout=10)


def _one_password_printed(outputs: list[str]) -> None:
    printed = [re.findall(r"one-time password (\S+)", text) for text in outputs]
    assert sorted(len(p) for p in printed) == [0, 1], outputs


def test_two_servers_start_at_once_on_a_fresh_sqlite_file(tmp_path: Path) -> None:
    _one_password_printed(_start_two(f"sqlite:///{tmp_path / 'fresh.sqlite3'}", tmp_path))


@pytest.mark.postgres
def test_two_servers_start_at_once_on_a_fresh_postgres_schema(
    postgres_url: str, tmp_path: Path
) -> None:
    _one_password_printed(_start_two(postgres_url, tmp_path))
