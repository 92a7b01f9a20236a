"""Issue #5, ``weiqi round result`` / ``round results``: recording a result for a round not yet
paired, a board that does not exist, or over a confirmed result fails with a clear message and
changes nothing; ``round results`` is all or nothing. Every failure is one line and exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.contracts import weiqi

PLAYERS = (
    "name,rank,rating,club,country,birth_date\n"
    "常昊,9p,2800,上海,CN,1976-11-07\n古力,9p,2790,重庆,CN,1983-02-05\n"
    "Alice,5d,2400,Club A,DE,1990-01-01\nBob,3k,1800,Club B,FR,\nCarol,2d,2200,Club A,DE,\n"
)


@pytest.fixture
def swiss(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """A paired first round of a 5-player Swiss (two boards and a bye)."""
    db = str(tmp_path / "t.sqlite3")
    players = tmp_path / "players.csv"
    players.write_text(PLAYERS, encoding="utf-8")
    assert weiqi(capsys, "event", "create", "--db", db, "--name", "S", "--system", "swiss",
                 "--rounds", "3").code == 0  # fmt: skip
    assert weiqi(capsys, "player", "import", "--db", db, str(players)).code == 0
    assert weiqi(capsys, "round", "pair", "--db", db).code == 0
    return db


def _round(capsys: pytest.CaptureFixture[str], db: str) -> object:
    run = weiqi(capsys, "round", "show", "--db", db, "--round", "1", "--json")
    assert run.code == 0, run.err
    return json.loads(run.out)


@pytest.mark.parametrize(
    ("round_", "board", "result", "fragments"),
    [
        ("2", "1", "B+R", ("round 2", "not paired")),
        ("0", "1", "B+R", ("round 0", "not paired")),
        ("-1", "1", "B+R", ("round -1", "not paired")),
        ("1", "3", "B+R", ("no board 3",)),
        ("1", "-1", "B+R", ("no board -1",)),
        ("1", "1", "B+X", ("B+X",)),
        ("1", "1", "", ("result ''",)),
        # A margin no board allows was stored as a 1,000-digit number, then confirmed for good.
        ("1", "1", "W+1e999", ("W+1e999", "at most")),
        # Beyond any database integer: named, not an OverflowError traceback.
        ("99999999999999999999", "1", "B+R", ("--round", "out of range")),
        ("1", "99999999999999999999", "B+R", ("--board", "out of range")),
    ],
)
def test_round_result_that_cannot_be_recorded_changes_nothing(
    swiss: str,
    capsys: pytest.CaptureFixture[str],
    round_: str,
    board: str,
    result: str,
    fragments: tuple[str, ...],
) -> None:
    before = _round(capsys, swiss)
    run = weiqi(capsys, "round", "result", "--db", swiss, "--round", round_, "--board", board,
                result)  # fmt: skip
    run.one_line_error(*fragments)
    assert _round(capsys, swiss) == before


def test_round_result_over_a_confirmed_result_fails_and_keeps_it(
    swiss: str, capsys: pytest.CaptureFixture[str]
) -> None:
    ok = weiqi(capsys, "round", "result", "--db", swiss, "--round", "1", "--board", "1", "B+R")
    assert ok.code == 0, ok.err
    before = _round(capsys, swiss)
    run = weiqi(capsys, "round", "result", "--db", swiss, "--round", "1", "--board", "1", "W+R")
    run.one_line_error("already confirmed", "B+R")
    assert _round(capsys, swiss) == before


@pytest.mark.parametrize(
    ("csv", "fragment"),
    [
        ("board,result\n1,B+R\n2,XX\n", "line 3"),
        ("board,result\n1,B+R\n1,W+R\n", "board 1 appears twice"),
        ("board,result\n1,B+R\n5,W+R\n", "no board 5"),
        ("", "'board' and 'result'"),
        ("name,rank\nA,5d\n", "'board' and 'result'"),
    ],
)
def test_round_results_csv_is_all_or_nothing(
    swiss: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], csv: str, fragment: str
) -> None:
    path = tmp_path / "r1.csv"
    path.write_text(csv, encoding="utf-8")
    before = _round(capsys, swiss)
    weiqi(capsys, "round", "results", "--db", swiss, "--round", "1", str(path)).one_line_error(
        fragment
    )
    assert _round(capsys, swiss) == before


@pytest.mark.parametrize(
    ("data", "fragment"),
    [(bytes(range(256)) * 4, "not UTF-8"), (b"\xff\xfe\x00", "not valid UTF-16")],
)
def test_round_results_csv_in_an_unknown_encoding_is_named(
    swiss: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], data: bytes, fragment: str
) -> None:
    path = tmp_path / "r1.csv"
    path.write_bytes(data)
    before = _round(capsys, swiss)
    weiqi(capsys, "round", "results", "--db", swiss, "--round", "1", str(path)).one_line_error(
        fragment
    )
    assert _round(capsys, swiss) == before


@pytest.mark.parametrize("codec", ["gbk", "utf-16"])
def test_round_results_csv_from_chinese_excel_is_read(
    swiss: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], codec: str
) -> None:
    path = tmp_path / "r1.csv"
    path.write_bytes("board,result\n1,和棋\n2,B+R\n".encode(codec))
    run = weiqi(capsys, "round", "results", "--db", swiss, "--round", "1", str(path))
    assert run.code == 0, run.err
    shown = _round(capsys, swiss)
    assert isinstance(shown, dict)
    assert [p["result"] for p in shown["pairings"]] == ["0", "B+R"]


def test_every_result_code_of_the_issue_is_recorded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue #5: RESULT as SGF RE (B+R, W+1.5, B+T, 0) or BL, B+F/W+F, Void, Replay."""
    codes = ["B+R", "W+1.5", "B+T", "0", "BL", "B+F", "W+F", "Void", "Replay"]
    db = str(tmp_path / "rr.sqlite3")
    players = tmp_path / "p.csv"
    players.write_text("name\n" + "".join(f"P{i}\n" for i in range(18)), encoding="utf-8")
    assert weiqi(capsys, "event", "create", "--db", db, "--name", "R", "--system", "swiss",
                 "--rounds", "2").code == 0  # fmt: skip
    assert weiqi(capsys, "player", "import", "--db", db, str(players)).code == 0
    assert weiqi(capsys, "round", "pair", "--db", db).code == 0
    for board, code in enumerate(codes, start=1):
        run = weiqi(capsys, "round", "result", "--db", db, "--round", "1", "--board", str(board),
                    code)  # fmt: skip
        assert run.code == 0, (code, run.err)
    shown = _round(capsys, db)
    assert isinstance(shown, dict)
    assert [p["result"] for p in shown["pairings"]] == codes
