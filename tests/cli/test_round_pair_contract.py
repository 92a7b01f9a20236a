"""Issue #5, ``weiqi round pair --db FILE --json``:
``{"round": 1, "pairings": [{"board": 1, "black": "NAME", "white": "NAME"}], "bye": "NAME"}``
with ``bye`` null when none; ``round show --json`` the same; ``standings --json`` a list of
``{"place": 1, "name": "…", "points": 10, "tiebreaks": {"SOS": 40, "SB": 28}}`` in place order
with the event's codes as keys."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.contracts import weiqi


def _event(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], names: list[str], *system: str
) -> str:
    db = str(tmp_path / "e.sqlite3")
    players = tmp_path / "players.csv"
    players.write_text("name,rank\n" + "".join(f"{n},{7 - i}d\n" for i, n in enumerate(names)))
    assert (
        weiqi(capsys, "event", "create", "--db", db, "--name", "E", "--system", *system).code == 0
    )
    assert weiqi(capsys, "player", "import", "--db", db, str(players)).code == 0
    return db


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> object:
    run = weiqi(capsys, *args, "--json")
    assert run.code == 0, run.err
    lines = run.out.strip().splitlines()
    assert len(lines) == 1, run.out
    return json.loads(lines[0])


def test_swiss_round_pair_json_has_the_issue_shape_with_a_single_bye(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = _event(
        tmp_path, capsys, ["常昊", "古力", "Alice", "Bob", "Carol"], "swiss", "--rounds", "3"
    )
    out = _json(capsys, "round", "pair", "--db", db)
    assert isinstance(out, dict)
    assert out["round"] == 1
    assert isinstance(out["bye"], str) and out["bye"] == "Carol"  # the lowest-placed player
    for i, pairing in enumerate(out["pairings"], start=1):
        assert pairing["board"] == i
        assert isinstance(pairing["black"], str) and isinstance(pairing["white"], str)
    named = {p[c] for p in out["pairings"] for c in ("black", "white")} | {out["bye"]}
    assert named == {"常昊", "古力", "Alice", "Bob", "Carol"}
    assert _json(capsys, "round", "show", "--db", db) == out


def test_round_pair_json_bye_is_null_when_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = _event(tmp_path, capsys, ["A", "B", "C", "D"], "swiss", "--rounds", "2")
    out = _json(capsys, "round", "pair", "--db", db)
    assert isinstance(out, dict) and out["bye"] is None and len(out["pairings"]) == 2


def test_knockout_with_several_byes_keeps_bye_a_name_and_lists_byes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Five players in a bracket of eight: the top three seeds get byes. ``bye`` was a list
    here, against the issue's ``"bye": "NAME"``; now it is the first of ``byes``."""
    db = _event(tmp_path, capsys, ["S1", "S2", "S3", "S4", "S5"], "knockout")
    out = _json(capsys, "round", "pair", "--db", db)
    assert isinstance(out, dict)
    assert out["byes"] == ["S1", "S2", "S3"]
    assert out["bye"] == "S1"
    assert [(p["black"], p["white"]) in {("S4", "S5"), ("S5", "S4")} for p in out["pairings"]] == [
        True
    ]


def test_standings_json_is_a_list_in_place_order_with_the_event_codes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = _event(tmp_path, capsys, ["A", "B", "C", "D"], "swiss", "--rounds", "2",
                "--tiebreaks", "SOS,SB,CUSS")  # fmt: skip
    out = _json(capsys, "round", "pair", "--db", db)
    assert isinstance(out, dict)
    for p in out["pairings"]:
        run = weiqi(capsys, "round", "result", "--db", db, "--round", "1", "--board",
                    str(p["board"]), "B+R")  # fmt: skip
        assert run.code == 0, run.err
    table = _json(capsys, "standings", "--db", db)
    assert isinstance(table, list) and len(table) == 4
    assert [r["place"] for r in table] == sorted(r["place"] for r in table)
    for row in table:
        assert {"place", "name", "points", "tiebreaks"} <= set(row)
        assert list(row["tiebreaks"]) == ["SOS", "SB", "CUSS"]
        assert all(isinstance(v, int | float) for v in row["tiebreaks"].values())
    assert [r["points"] for r in table] == [2, 2, 0, 0]


def test_standings_table_shows_every_name_and_value_whole_on_80_columns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With all nine tie-breaks rich cut "Carol" to "Car…" and ratings to "280…"."""
    monkeypatch.setenv("COLUMNS", "80")
    db = str(tmp_path / "e.sqlite3")
    players = tmp_path / "players.csv"
    players.write_text("name,rank,rating\nCarolina Marín,5d,2800\n欧阳慕容,4d,2790\n", "utf-8")
    assert weiqi(capsys, "event", "create", "--db", db, "--name", "E", "--system", "round-robin",
                 "--tiebreaks", "SB,WARN,SOS,CUSS,SOS-1,SOSOS,DE,RATING").code == 0  # fmt: skip
    assert weiqi(capsys, "player", "import", "--db", db, str(players)).code == 0
    run = weiqi(capsys, "standings", "--db", db)
    assert run.code == 0, run.err
    for whole in ("Carolina Marín", "欧阳慕容", "2800", "2790", "SOSOS", "RATING"):
        assert whole in run.out, whole
    assert "…" not in run.out


def test_round_pair_explain_gives_the_round_totals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue #5: "for a round, its totals (score gaps, colour violations, same-club games)";
    --explain printed only the pairs although the Swiss computes the totals."""
    db = _event(tmp_path, capsys, ["A", "B", "C", "D", "E"], "swiss", "--rounds", "3")
    first = _json(capsys, "round", "pair", "--db", db, "--explain")
    assert isinstance(first, dict) and len(first["explanations"]) == 2
    assert first["totals"] == {"games": 2, "score_gap_sum": 0, "score_gap_max": 0, "floats": 0,
                               "colour_violations": 0, "same_club_games": 0}  # fmt: skip
    for p in first["pairings"]:
        run = weiqi(capsys, "round", "result", "--db", db, "--round", "1", "--board",
                    str(p["board"]), "B+R")  # fmt: skip
        assert run.code == 0, run.err
    run = weiqi(capsys, "round", "pair", "--db", db, "--explain")
    assert run.code == 0, run.err
    assert "score gap sum 2" in run.out and "colour violations" in run.out
