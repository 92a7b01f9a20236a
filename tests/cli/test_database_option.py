"""Issue #5: ``--db FILE`` — a path that is no database, or a URL that cannot be used, is bad
input: one line naming the database and exit 2, never a traceback (issue #2's rule for all
unreadable input)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.contracts import weiqi


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (lambda d: d / "missing-dir" / "x.sqlite3", "cannot be opened"),
        (lambda d: _write(d / "text.sqlite3", b"junk\n"), "file is not a database"),
        (lambda d: _write(d / "random.sqlite3", bytes(range(256)) * 20), "not a database"),
    ],
)
def test_db_that_cannot_be_opened_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], make: object, reason: str
) -> None:
    path = make(tmp_path)  # type: ignore[operator]
    run = weiqi(capsys, "event", "create", "--db", str(path), "--name", "X", "--system", "swiss",
                "--rounds", "3")  # fmt: skip
    run.one_line_error("database", reason)


def test_db_url_that_cannot_be_used_hides_its_password(
    capsys: pytest.CaptureFixture[str],
) -> None:
    run = weiqi(capsys, "standings", "--db", "postgresql+nodriver://u:secret@host/x")
    line = run.one_line_error("not a usable database URL")
    assert "secret" not in line


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path
