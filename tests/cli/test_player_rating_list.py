"""Issue #14, ``weiqi player rating-list FILE --format egd|ffg|tou [--by pin|name|both]
[--dry-run] [--json]``: the event's players filled from a rating list, with a report of who
was matched, who is ambiguous and who is not in the list; bad input is one line of error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import select

from tests.cli.contracts import weiqi
from weiqi.store.database import Database
from weiqi.store.tournament import PlayerRow

DATA = Path(__file__).parent.parent / "data" / "rating_lists"
PLAYERS = "name,rank,club\n欧阳修,1d,\n张伟,3k,\nJörg Müller,10k,\nNobody Known,5k,\n"


@pytest.fixture
def db(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    path = str(tmp_path / "r.sqlite3")
    assert weiqi(capsys, "event", "create", "--db", path, "--name", "R", "--system", "swiss",
                 "--rounds", "3").code == 0  # fmt: skip
    csv = tmp_path / "players.csv"
    csv.write_text(PLAYERS, encoding="utf-8")
    assert weiqi(capsys, "player", "import", "--db", path, str(csv)).code == 0
    return path


def _ranks(db: str) -> dict[str, str | None]:
    with Database(f"sqlite:///{db}").transaction() as session:
        return {p.name: p.rank for p in session.scalars(select(PlayerRow))}


def test_rating_list_json_reports_and_fills(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    run = weiqi(capsys, "player", "rating-list", str(DATA / "allworld_lp.html"), "--format",
                "egd", "--db", db, "--json")  # fmt: skip
    assert run.code == 0, run.err
    out = json.loads(run.out)
    assert out["list"] == {
        "format": "egd",
        "date": "12 Mar 2025",
        "players": 25,
        "skipped": 5,
        "skipped_lines": [27, 32, 41, 47, 56],
    }
    assert [(m["player"], m["entry"], m["by"]) for m in out["matched"]] == [
        ("欧阳修", "Ouyang Xiu", "name"),
        ("Jörg Müller", "Müller Jörg", "name"),
    ]
    assert {"field": "rank", "before": "1d", "after": "3d"} in out["matched"][0]["changes"]
    assert [a["player"] for a in out["ambiguous"]] == ["张伟"]
    assert out["not_found"] == ["Nobody Known"]
    assert _ranks(db) == {"欧阳修": "3d", "张伟": "3k", "Jörg Müller": "5k", "Nobody Known": "5k"}


def test_rating_list_dry_run_prints_and_changes_nothing(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    run = weiqi(capsys, "player", "rating-list", str(DATA / "ech_ffg_V3.txt"), "--format",
                "ffg", "--by", "name", "--dry-run", "--db", db)  # fmt: skip
    assert run.code == 0, run.err
    lines = run.out.splitlines()
    assert lines[0].endswith("ech_ffg_V3.txt: 24 players (10/03/2025 07:09:39)")
    assert lines[1] == "note: 2 odd lines skipped (lines 8, 14)"
    assert lines[2] == "matched 2 (by PIN 0, by name 2), 2 changed; ambiguous 0; not found 2"
    assert lines[3].startswith("  欧阳修: rank 1d → 2d, rating - → 2240, club - → 38Gr")
    assert lines[-1] == "dry run: nothing changed"
    assert _ranks(db)["欧阳修"] == "1d"


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (("--format", "pdf"), ("--format", "'pdf' is not one of egd, ffg, tou")),
        (("--format", "egd", "--by", "club"), ("--by", "'club' is not one of pin, name, both")),
        (("--format", "ffg"), ("allworld_lp.html", "no player line in the FFG list's layout")),
    ],
)
def test_rating_list_bad_input_is_one_line(
    db: str, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], fragments: tuple[str, ...]
) -> None:
    run = weiqi(capsys, "player", "rating-list", str(DATA / "allworld_lp.html"), *args, "--db", db)
    run.one_line_error(*fragments)
    assert _ranks(db)["欧阳修"] == "1d"


def test_rating_list_missing_file_is_one_line(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = str(tmp_path / "nope.txt")
    run = weiqi(capsys, "player", "rating-list", missing, "--format", "egd", "--db", db)
    run.one_line_error("nope.txt")
