"""Issue #5, ``weiqi player import --db FILE players.csv``: columns
``name,rank,rating,club,country,birth_date`` (rank like ``5d``, ``2p``, ``3k``); extra columns
are kept; bad rows are reported by line number and nothing from a bad file is half-imported.
``weiqi player withdraw --db FILE NAME``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import select

from tests.cli.contracts import Run, weiqi
from weiqi.store.database import Database
from weiqi.store.tournament import PlayerRow

HEADER = "name,rank,rating,club,country,birth_date"


@pytest.fixture
def db(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    path = str(tmp_path / "p.sqlite3")
    assert weiqi(capsys, "event", "create", "--db", path, "--name", "P", "--system", "swiss",
                 "--rounds", "3").code == 0  # fmt: skip
    return path


def _players(db: str) -> dict[str, PlayerRow]:
    with Database(f"sqlite:///{db}").transaction() as session:
        return {p.name: p for p in session.scalars(select(PlayerRow))}


def _import(capsys: pytest.CaptureFixture[str], db: str, path: Path, data: bytes) -> Run:
    path.write_bytes(data)
    return weiqi(capsys, "player", "import", "--db", db, str(path))


def test_player_import_keeps_extra_columns_and_chinese_names(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    csv = f"{HEADER},email,段位证书\n常昊,9p,2800,上海,CN,1976-11-07,c@x.cn,甲\nBob,3k,,,,,b@x,\n"
    run = _import(capsys, db, tmp_path / "p.csv", csv.encode())
    assert run.code == 0, run.err
    players = _players(db)
    assert players["常昊"].rank == "9p" and players["常昊"].rating == 2800
    assert json.loads(players["常昊"].extra_json) == {"email": "c@x.cn", "段位证书": "甲"}
    assert json.loads(players["Bob"].extra_json) == {"email": "b@x", "段位证书": ""}


@pytest.mark.parametrize(
    ("rows", "fragments"),
    [
        ("A,5d,,,,\nB,99d,,,,\nC,5x,,,,\n", ("line 3", "line 4")),
        ("A,5d,,,,\nA,4d,,,,\n", ("line 3", "A already on line 2")),
        ("A,5d,abc,,,\n", ("line 2", "rating 'abc'")),
        ("A,5d,,,,1990-13-45\n", ("line 2", "birth date")),
        ("A,5d,,,,\n   ,1d,,,,\n", ("line 3", "name is empty")),
        # Numbers no rating list has: inf and 1e999 sorted first and broke the JSON output.
        ("A,5d,1e999,,,\n", ("line 2", "rating", "out of range")),
        ("A,5d,inf,,,\nB,5d,nan,,,\n", ("line 2", "line 3", "out of range")),
        ("A,5d,99999999999999999999999,,,\n", ("line 2", "out of range")),
        # An unclosed quote used to swallow the rest of the file into one player's name.
        ('A,5d,,,,\n"B,1d,,,,\nC,2d,,,,\n', ("not CSV",)),
        ("A\x00B,5d,,,,\n", ("line 2", "control character")),
        # A cell beyond the header is a shifted row, not something to drop silently.
        ("A,5d,2000,,,,surplus\n", ("line 2", "7 cells", "6 columns")),
    ],
)
def test_player_import_rejects_the_whole_file_naming_each_bad_line(
    db: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    rows: str,
    fragments: tuple[str, ...],
) -> None:
    run = _import(capsys, db, tmp_path / "bad.csv", f"{HEADER}\n{rows}".encode())
    run.one_line_error("bad.csv", *fragments)
    assert _players(db) == {}


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        (b"", "empty"),
        (bytes(range(256)) * 8, "not UTF-8"),
        (b"\xff\xfe(\x00;\x00\x00\xd8", "not valid UTF-16"),
        (b"rank,rating\n5d,2000\n", "'name' column"),
    ],
)
def test_player_import_of_an_unreadable_file_is_one_line(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], data: bytes, fragment: str
) -> None:
    run = _import(capsys, db, tmp_path / "bad.csv", data)
    run.one_line_error(fragment)
    assert _players(db) == {}


@pytest.mark.parametrize("codec", ["utf-8-sig", "gb18030", "gbk", "utf-16"])
def test_player_import_reads_what_chinese_excel_saves(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], codec: str
) -> None:
    """Excel on a Chinese Windows saves "CSV" as GBK and "Unicode text" as UTF-16; both were
    refused as "not UTF-8", while the SGF reader already read GB18030."""
    run = _import(capsys, db, tmp_path / "p.csv", f"{HEADER}\n常昊,9p,,上海,CN,\n".encode(codec))
    assert run.code == 0, run.err
    assert _players(db)["常昊"].club == "上海"
    assert ("GB18030" in run.err) == codec.startswith("gb")


def test_player_import_of_a_name_already_entered_imports_nothing(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _import(capsys, db, tmp_path / "a.csv", b"name\nA\n").code == 0
    run = _import(capsys, db, tmp_path / "b.csv", b"name\nB\nA\n")
    run.one_line_error("line 3", "already entered")
    assert set(_players(db)) == {"A"}


def test_player_withdraw(db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _import(capsys, db, tmp_path / "a.csv", "name\n古力\n".encode()).code == 0
    run = weiqi(capsys, "player", "withdraw", "--db", db, "古力")
    assert run.code == 0 and "古力 withdrawn after round 0" in run.out
    weiqi(capsys, "player", "withdraw", "--db", db, "古力").one_line_error("already")
    weiqi(capsys, "player", "withdraw", "--db", db, "Nobody").one_line_error("no player 'Nobody'")
