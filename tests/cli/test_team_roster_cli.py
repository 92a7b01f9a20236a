"""``weiqi team edit-player``, ``team rename`` and ``team delete`` (issue #13): the services the
team pages call, from the command line — a namesake named as the pages show it, ``--json``
output, and refusals as one line naming the field (no traceback)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from weiqi.cli import app
from weiqi.errors import WeiqiError
from weiqi.services import team_admin
from weiqi.store.database import Database

runner = CliRunner()
TEAMS = (
    "team,name,rank,nationality\n"
    "黑龙,张伟,5d,CN\n黑龙,李明,4d,CN\n白虎,张伟,3d,CN\n白虎,王芳,2d,CN\n"
)


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "teams.sqlite3")
    (tmp_path / "teams.csv").write_text(TEAMS, encoding="utf-8")
    run("event", "create", "--kind", "team", "--db", path, "--name", "市团体赛",
        "--system", "round_robin", "--boards", "2")  # fmt: skip
    run("team", "import", "--db", path, str(tmp_path / "teams.csv"))
    return path


def run(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, (args, result.output, result.exception)
    return result.output


def refused(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert isinstance(result.exception, WeiqiError), (args, result.output)
    return result.exception.message


def roster(db: str) -> dict[str, tuple[str, str, bool]]:
    database = Database(f"sqlite:///{db}")
    try:
        cards = team_admin.team_cards(database, 1)
    finally:
        database.dispose()
    return {p.shown: (t.code, p.rank, p.foreign) for t in cards for p in t.roster}


def test_a_namesake_is_edited_as_the_pages_show_them(db: str) -> None:
    """Two 张伟 of two teams: the bare name is refused with both labels, the label or the team
    finds one; what is not given stays, ``--json`` says the whole player."""
    assert "张伟 (黑龙), 张伟 (白虎)" in refused("team", "edit-player", "--db", db, "张伟")
    edit = ["team", "edit-player", "--db", db, "张伟 (白虎)", "--rank", "6段", "--rating", "2300"]
    out = json.loads(run(*edit, "--nationality", "KR", "--foreign", "--json"))
    assert out == {
        "id": out["id"], "team": "白虎", "player": "张伟 (白虎)", "name": "张伟",
        "label": "张伟 (白虎)", "rank": "6d", "rating": 2300, "nationality": "KR",
        "foreign": True, "birth_date": None,
    }  # fmt: skip
    line = run("team", "edit-player", "--db", db, "张伟", "--team", "黑龙", "--name", "张伟明")
    assert line.strip() == "黑龙 · 张伟明: 5d, -, CN, -"
    shown = roster(db)
    assert shown["张伟明"] == ("黑龙", "5d", False)  # the rank kept, the name changed
    assert shown["张伟"] == ("白虎", "6d", True)  # no namesake left: the bare name again
    back = json.loads(
        run("team", "edit-player", "--db", db, "张伟", "--not-foreign", "--rating", "", "--json")
    )
    assert (back["foreign"], back["rating"], back["rank"]) == (False, None, "6d")


def test_a_teammate_namesake_needs_another_birth_date(db: str) -> None:
    """The same name twice in one team is the same player twice (409, as on the pages) unless
    a birth date tells them apart; a bad date is refused naming the field, nothing stored."""
    message = refused("team", "edit-player", "--db", db, "李明", "--name", "张伟", "--team", "黑龙")
    assert message.startswith("name: another player of the team is already called 张伟")
    bad = refused("team", "edit-player", "--db", db, "李明", "--birth-date", "1990-13-01")
    assert bad == "birth_date: birth date '1990-13-01' is not YYYY-MM-DD"
    edit = ["team", "edit-player", "--db", db, "李明", "--name", "张伟"]
    out = json.loads(run(*edit, "--birth-date", "1995-07-02", "--json"))
    assert (out["label"], out["birth_date"], out["player"]) == (
        "张伟 (黑龙, 1995)",
        "1995-07-02",
        "李明",
    )
    assert set(roster(db)) == {"张伟 (黑龙)", "张伟 (黑龙, 1995)", "张伟 (白虎)", "王芳"}


def test_rename_and_delete_a_team_before_round_1(db: str) -> None:
    """A team is renamed by its code or name at any time (its code stays); deleted before round
    1, refused after it with what to do instead."""
    assert json.loads(run("team", "rename", "--db", db, "白虎", "天津白虎", "--json")) == {
        "id": 2, "code": "白虎", "name": "天津白虎"
    }  # fmt: skip
    assert refused("team", "rename", "--db", db, "天津白虎", "黑龙") == (
        "name: another team of the event is already called 黑龙"
    )
    assert run("team", "rename", "--db", db, "黑龙", "天津黑龙").strip() == "黑龙: 黑龙 → 天津黑龙"
    assert refused("team", "delete", "--db", db, "青龙") == "no team '青龙' in event 1"
    run("event", "create", "--kind", "team", "--db", db, "--name", "另一赛",
        "--system", "round_robin", "--boards", "2")  # fmt: skip
    gone = json.loads(run("team", "delete", "--db", db, "--event", "1", "天津白虎", "--json"))
    assert gone == {"id": 2, "code": "白虎", "name": "天津白虎", "deleted": True}
    assert set(roster(db)) == {"张伟", "李明"}  # the namesake went with its team
    run("team", "import", "--db", db, "--event", "1", _csv(db, "白虎,赵磊,3d\n白虎,孙杰,2d\n"))
    run("round", "pair", "--db", db, "--event", "1")
    message = refused("team", "delete", "--db", db, "--event", "1", "白虎")
    assert message.startswith("白虎 can no longer be deleted: round 1 is paired")


def _csv(db: str, rows: str) -> str:
    path = Path(db).with_name("more.csv")
    path.write_text("team,name,rank\n" + rows, encoding="utf-8")
    return str(path)


def test_a_refusal_is_one_line_without_a_traceback(db: str) -> None:
    """The ``weiqi`` script itself: exit status 2 and one ``error:`` line on stderr."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2] / "src")}
    done = subprocess.run(
        [sys.executable, "-m", "weiqi", "team", "edit-player", "--db", db, "张伟", "--rank", "12d"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "error: player: 张伟 is the name of 2 players: 张伟 (黑龙), 张伟 (白虎); type one of "
        "them as shown"
    ]
    done = subprocess.run(
        [sys.executable, "-m", "weiqi", "team", "edit-player", "--db", db, "王芳", "--rank", "12d"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.splitlines() == ["error: rank: level must be 1..9"]


def test_a_winner_stays_on_sends_a_namesake_by_label(tmp_path: Path) -> None:
    """擂台赛 in chosen order: the team sends its 张伟 typed as the pages show him; the games
    name both 张伟 apart."""
    path = str(tmp_path / "stage.sqlite3")
    (tmp_path / "teams.csv").write_text(TEAMS, encoding="utf-8")
    run("event", "create", "--kind", "team", "--db", path, "--name", "擂台赛",
        "--system", "winner_stays_on", "--boards", "2", "--order", "chosen")  # fmt: skip
    run("team", "import", "--db", path, str(tmp_path / "teams.csv"))
    run("round", "pair", "--db", path)
    run("team", "lineup", "--db", path, "--round", "1", "--team", "黑龙", "张伟,李明")
    run("team", "lineup", "--db", path, "--round", "1", "--team", "白虎", "张伟 (白虎),王芳")
    run("round", "reveal", "--db", path, "--round", "1")
    shown = json.loads(run("team", "winner-stays-on", "show", "--db", path, "--json"))
    sender = shown["awaiting"]
    assert sender in ("黑龙", "白虎")
    label = f"张伟 ({sender})"
    assert run("team", "winner-stays-on", "send", "--db", path, "--team", sender, label) == (
        f"{sender} sends {label}\n"
    )
    other = "白虎" if sender == "黑龙" else "黑龙"
    run("team", "winner-stays-on", "send", "--db", path, "--team", other, f"张伟 ({other})")
    table = run("team", "winner-stays-on", "show", "--db", path)
    assert "张伟 (黑龙)" in table and "张伟 (白虎)" in table
