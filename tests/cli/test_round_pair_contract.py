"""Issue #5, ``weiqi round pair --db FILE --json``:
``{"round": 1, "pairings": [{"board": 1, "black": "NAME", "white": "NAME"}], "bye": "NAME"}``
with ``bye`` null when none; ``round show --json`` the same; ``standings --json`` a list of
``{"place": 1, "name": "…", "points": 10, "tiebreaks": {"SOS": 40, "SB": 28}}`` in place order
with the event's codes as keys."""

from __future__ import annotations

import json
import re
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
    assert weiqi(capsys, "event", "create", "--db", db, "--name", "E", "--system", "round_robin",
                 "--tiebreaks", "SB,WARN,SOS,CUSS,SOS-1,SOSOS,DE,RATING").code == 0  # fmt: skip
    assert weiqi(capsys, "player", "import", "--db", db, str(players)).code == 0
    run = weiqi(capsys, "standings", "--db", db)
    assert run.code == 0, run.err
    for whole in ("Carolina Marín", "欧阳慕容", "2800", "2790", "SOSOS", "RATING"):
        assert whole in run.out, whole
    assert "…" not in run.out


@pytest.fixture
def english(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEIQI_LANG", "en")
    monkeypatch.setenv("COLUMNS", "200")  # a wide terminal: no phrase wrapped in its cell


@pytest.fixture
def chinese(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("WEIQI_LANG", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")  # names no language: the default, Chinese
    monkeypatch.setenv("COLUMNS", "200")


def test_round_pair_explain_gives_the_round_totals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], english: None
) -> None:
    """Issue #5: "for a round, its totals (score gaps, colour violations, same-club games)";
    --explain printed only the pairs although the Swiss computes the totals."""
    db = _event(tmp_path, capsys, ["A", "B", "C", "D", "E"], "swiss", "--rounds", "3")
    first = _json(capsys, "round", "pair", "--db", db, "--explain")
    assert isinstance(first, dict) and len(first["explanations"]) == 2
    assert first["totals"] == {"games": 2, "score_gap_sum": 0, "score_gap_max": 0, "floats": 0,
                               "color_violations": 0, "same_club_games": 0}  # fmt: skip
    for p in first["pairings"]:
        run = weiqi(capsys, "round", "result", "--db", db, "--round", "1", "--board",
                    str(p["board"]), "B+R")  # fmt: skip
        assert run.code == 0, run.err
    run = weiqi(capsys, "round", "pair", "--db", db, "--explain")
    assert run.code == 0, run.err
    assert "Score gaps (sum / largest) 2 / 2" in run.out and "Colour rule broken 0" in run.out


def _played_round_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """Five players of two clubs, round 1 played (Black wins every board)."""
    db = str(tmp_path / "e.sqlite3")
    players = tmp_path / "players.csv"
    players.write_text("name,rank,club\nA,5d,X\nB,4d,Y\nC,3d,X\nD,2d,Z\nE,1d,Y\n")
    assert weiqi(capsys, "event", "create", "--db", db, "--name", "E", "--system", "swiss",
                 "--rounds", "3").code == 0  # fmt: skip
    assert weiqi(capsys, "player", "import", "--db", db, str(players)).code == 0
    first = _json(capsys, "round", "pair", "--db", db)
    assert isinstance(first, dict)
    for p in first["pairings"]:
        assert weiqi(capsys, "round", "result", "--db", db, "--round", "1", "--board",
                     str(p["board"]), "B+R").code == 0  # fmt: skip
    return db


def test_issue_13_explain_speaks_plain_chinese_by_default(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], chinese: None
) -> None:
    """Issue #13: "the pairing explanation in plain words, in the page's language, with a
    legend (no ``4float: White down``, no ``WBW / BWB``)" — the command line prints the round
    page's phrases (``services.pair_explanation``), in Chinese when no locale says otherwise."""
    from weiqi.i18n import translations
    from weiqi.services import pair_explanation

    db = _played_round_one(tmp_path, capsys)
    run = weiqi(capsys, "round", "pair", "--db", db, "--explain")
    assert run.code == 0, run.err
    out = run.out
    assert "每台对阵的依据" in out and "与理想对手的偏差" in out and "降组对阵" in out
    assert "排位第 1" in out and "上局执黑" in out and "执黑 1 局" in out
    zh = translations("zh_CN").gettext
    for term, meaning in pair_explanation.LEGEND:  # the page's legend, word for word
        assert f"{zh(term)}：{zh(meaning)}" in out, term
    assert "float" not in out and "down" not in out  # no core note in English
    assert not re.search(r"\b[BW]{2,3}\b", out)  # no colour strings


def test_issue_13_explain_in_english_and_as_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], english: None
) -> None:
    db = _played_round_one(tmp_path, capsys)
    run = weiqi(capsys, "round", "pair", "--db", db, "--explain")
    assert run.code == 0, run.err
    assert "Why each pair" in run.out and "Distance from the ideal opponent" in run.out
    assert "seeding place 1" in run.out and "paired down" in run.out
    assert "Seeding place: the player's place in this round's order" in run.out


def test_issue_13_explain_json_gives_structured_values(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], chinese: None
) -> None:
    """``--json``: per board the two players' points, seeding place, colours so far and last
    colour, the score gap, the distance and the notes as codes — no English text to parse."""
    db = _played_round_one(tmp_path, capsys)
    out = _json(capsys, "round", "pair", "--db", db, "--explain")
    assert isinstance(out, dict)
    rows = out["explanations"]
    assert [r["board"] for r in rows] == [p["board"] for p in out["pairings"]]
    for r, p in zip(rows, out["pairings"], strict=True):
        assert (r["black"]["name"], r["white"]["name"]) == (p["black"], p["white"])
        for side in (r["black"], r["white"]):
            assert set(side) == {"name", "points", "seeding_place", "black_games",
                                 "white_games", "last_color"}  # fmt: skip
            assert side["last_color"] in ("B", "W", None)
        assert r["score_gap"] == abs(r["black"]["points"] - r["white"]["points"])
        assert set(r["notes"]) <= {"paired_down_black", "paired_down_white", "handicap",
                                   "color_rule_broken", "same_club", "by_hand"}  # fmt: skip
    assert any(n.startswith("paired_down") for r in rows for n in r["notes"])
