"""A database written by the code of commit 022978f — every individual system, a team round
robin, Swiss and 擂台赛, a league season closed and its 摘牌 draft, a referee's ruling and the
chief referee's correction — upgraded by today's migrations reads the same: standings, results,
records and their histories (issue #10: "an Alembic migration carries every existing database
into the new schema without loss").

``tests/store/legacy/`` holds that database as 022978f's command line left it and what 022978f's
code read from it; ``build_022978f.py`` there says how both were made. Each comparison is a
subset one: every field the old code printed must be printed again with the same value (today's
output may add fields, such as a player's label).
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.cli.contracts import weiqi
from weiqi.cli import app
from weiqi.services.games import TeamBoard, check_records, game_view
from weiqi.store.database import Database
from weiqi.store.migrate import current_revision, head_revision

LEGACY = Path(__file__).parent / "legacy"
BEFORE: dict[str, Any] = json.loads((LEGACY / "legacy_022978f.json").read_text(encoding="utf-8"))
EVENTS: dict[str, int] = BEFORE["events"]


def _differences(old: Any, new: Any, path: str = "") -> list[str]:
    """Where ``new`` does not hold ``old``: a missing key, another value, a list of another
    length (lists compare item by item, in order)."""
    if isinstance(old, dict):
        if not isinstance(new, dict):
            return [f"{path}: {new!r} is no object"]
        out: list[str] = []
        for key, value in old.items():
            if key not in new:
                out.append(f"{path}.{key}: missing")
            else:
                out += _differences(value, new[key], f"{path}.{key}")
        return out
    if isinstance(old, list):
        if not isinstance(new, list) or len(new) != len(old):
            return [f"{path}: {old!r} became {new!r}"]
        return [
            d
            for i, (o, n) in enumerate(zip(old, new, strict=True))
            for d in _differences(o, n, f"{path}[{i}]")
        ]
    return [] if old == new else [f"{path}: {old!r} became {new!r}"]


def test_differences_finds_a_changed_value() -> None:
    """The comparison itself can fail (a test that cannot fail proves nothing)."""
    assert _differences({"a": [1, {"b": 2}]}, {"a": [1, {"b": 3}], "c": 0}) == [
        ".a[1].b: 2 became 3"
    ]
    assert _differences({"a": 1}, {}) == [".a: missing"]
    assert _differences([1, 2], [1]) == [": [1, 2] became [1]"]


@pytest.fixture(scope="module")
def upgraded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the old database, upgraded by ``weiqi db upgrade`` as a user would."""
    path = tmp_path_factory.mktemp("legacy") / "club.sqlite3"
    shutil.copyfile(LEGACY / "legacy_022978f.sqlite3", path)
    with sqlite3.connect(path) as con:
        (old,) = con.execute("SELECT version_num FROM alembic_version").fetchone()
    assert old == "0006"  # the schema 022978f wrote, before every later migration
    # Upgraded here, not by the first test: pytest-xdist may run this module's tests on two
    # workers, each with its own copy, and every test reads the upgraded database.
    run = CliRunner().invoke(app, ["db", "upgrade", "--db", str(path)])
    assert run.exit_code == 0, run.output
    return path


def _json(capsys: pytest.CaptureFixture[str], db: Path, *args: str) -> Any:
    run = weiqi(capsys, *args, "--db", str(db), "--json")
    assert run.code == 0, (args, run.err)
    return json.loads(run.out)


def test_r_fmt_1_upgrade_reaches_the_newest_revision(
    upgraded: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = weiqi(capsys, "db", "upgrade", "--db", str(upgraded))  # again: nothing left to do
    assert run.code == 0, run.err
    db = Database(f"sqlite:///{upgraded}")
    try:
        assert current_revision(db.engine) == head_revision()
    finally:
        db.dispose()


@pytest.mark.parametrize("kind", [k for k in EVENTS if k != "winner_stays_on"])
def test_r_rank_rr_r_rank_swiss_r_rank_team_standings_and_rounds_read_the_same(
    upgraded: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    """Every system's standings (places, points, every tie-break) and every round's pairings,
    byes and results, individual and team, as 022978f printed them."""
    event = str(EVENTS[kind])
    old = BEFORE[kind]
    problems = _differences(
        old["standings"], _json(capsys, upgraded, "standings", "--event", event)
    )
    for number, rnd in enumerate(old["rounds"], start=1):
        now = _json(capsys, upgraded, "round", "show", "--event", event, "--round", str(number))
        problems += _differences(rnd, now, f"round {number}")
    assert problems == []
    assert old["rounds"], kind  # the event was played, so the comparison compared something


def test_r_fmt_3_winner_stays_on_reads_the_same(
    upgraded: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = BEFORE["winner_stays_on"]["show"]
    event = str(EVENTS["winner_stays_on"])
    now = _json(capsys, upgraded, "team", "winner-stays-on", "show", "--event", event)
    assert _differences(old, now) == []
    assert len(old["games"]) == 2


def test_r_league_1_league_tables_and_draft_read_the_same(
    upgraded: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    problems = []
    for label in ("甲", "乙"):
        now = _json(capsys, upgraded, "league", "table", "--division", label)
        problems += _differences(BEFORE[f"league_{label}"], now, label)
    problems += _differences(BEFORE["draft"], _json(capsys, upgraded, "draft", "show"), "draft")
    assert problems == []


def test_r_ref_7_records_keep_their_events_and_every_board_now_verifies(upgraded: Path) -> None:
    """The individual boards' records keep every event; the team boards, which had no record at
    022978f, have one now; every record verifies under the site's key."""
    with sqlite3.connect(upgraded) as con:
        # the individual boards keep their ids; the team boards joined them (migration 0032)
        individual = "SELECT id FROM event_games WHERE match_id IS NULL"
        stored = dict(
            con.execute(
                f"SELECT game_id, record_json FROM game_records WHERE game_id IN ({individual})"
            ).fetchall()
        )
        team_boards = con.execute(
            "SELECT count(*) FROM event_games WHERE match_id IS NOT NULL"
            " AND black_id IS NOT NULL AND white_id IS NOT NULL"
        ).fetchone()[0]
    old = BEFORE["game_records"]
    assert {str(k) for k in stored} == set(old)
    for game_id, record in stored.items():
        assert json.loads(record) == json.loads(old[str(game_id)]["record_json"]), game_id
    db = Database(f"sqlite:///{upgraded}")
    try:
        checks = check_records(db)
        assert [c for c in checks if c.problem is not None] == []
        assert sum(isinstance(c.board, TeamBoard) for c in checks) == team_boards > 0
        assert len(checks) == len(old) + team_boards
    finally:
        db.dispose()


def test_r_ref_7_r_pen_1_correction_and_ruling_keep_who_and_why(upgraded: Path) -> None:
    """The chief referee's correction and the referee's ruling, made through 022978f's pages,
    keep their author, reason and effect."""
    db = Database(f"sqlite:///{upgraded}")
    try:
        corrected = game_view(db, EVENTS["swiss"], 2, 1)
        ruled = game_view(db, EVENTS["swiss"], 4, 1)
    finally:
        db.dispose()
    assert corrected.result == "W+2.5" and corrected.confirmed
    last = corrected.history[-1]
    assert (last.who_name, last.who_role, last.result, last.previous) == (
        "chief1",
        "chief_referee",
        "W+2.5",
        "B+R",
    )
    assert "记录员记错了结果" in str(last.reason.args)
    (infraction,) = ruled.infractions
    assert (infraction.kind, infraction.offender, infraction.note) == (
        "phone_ringing",
        "B",
        "手机响了",
    )
    assert infraction.ruled_by_name == "referee1"
