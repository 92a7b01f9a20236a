"""The command line's errors are in its user's language (issue #10: a message is translated
in one place for pages, API and command line): ``WEIQI_LANG``, else the locale's, else
Chinese — the language ``round pair --explain`` already spoke, while an error said English."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.contracts import weiqi

SRC = Path(__file__).resolve().parents[2] / "src"


def _event(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    db = str(tmp_path / "e.sqlite3")
    made = weiqi(capsys, "event", "create", "--db", db, "--name", "空赛", "--system", "swiss",
                 "--rounds", "3")  # fmt: skip
    assert made.code == 0, made.err
    return db


def test_an_error_is_in_chinese_when_the_locale_names_no_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = _event(tmp_path, capsys)
    for name in ("WEIQI_LANG", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    run = weiqi(capsys, "round", "pair", "--db", db)
    assert (run.code, run.err.strip()) == (2, "错误：第1轮：待编排的棋手不足两人")


def test_an_error_follows_weiqi_lang_and_the_locale(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = _event(tmp_path, capsys)
    monkeypatch.delenv("WEIQI_LANG")
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    assert weiqi(capsys, "round", "pair", "--db", db).err.strip() == (
        "error: round 1: fewer than two players left to pair"
    )
    monkeypatch.setenv("WEIQI_LANG", "zh_CN")
    assert (
        weiqi(capsys, "round", "pair", "--db", db).err.strip()
        == "错误：第1轮：待编排的棋手不足两人"
    )


def test_the_installed_command_says_it_in_chinese_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Through ``python -m weiqi``, as a user runs it: one line on standard error, exit 2."""
    db = _event(tmp_path, capsys)
    env = {k: v for k, v in os.environ.items() if k not in ("WEIQI_LANG", "LC_ALL")}
    done = subprocess.run(
        [sys.executable, "-m", "weiqi", "round", "pair", "--db", db],
        capture_output=True,
        text=True,
        env={**env, "LANG": "zh_CN.UTF-8", "PYTHONPATH": str(SRC)},
        check=False,
    )
    assert (done.returncode, done.stderr.strip()) == (2, "错误：第1轮：待编排的棋手不足两人")
