"""``weiqi record sgf --db F --round N --board B``: a stored game's record as SGF straight from
the database, as the board's page downloads it (issue #11: a live game's record with the moves
so far); bad input is one line naming what is wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.contracts import weiqi
from weiqi.formats.sgf import read_sgf


def _event(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> str:
    db = str(tmp_path / "e.sqlite3")
    players = tmp_path / "players.csv"
    players.write_text("name,rank\n李明,5d\n王强,4d\n", encoding="utf-8")
    for args in (
        ("event", "create", "--db", db, "--name", "网络赛", "--system", "round_robin"),
        ("player", "import", "--db", db, str(players)),
        ("round", "pair", "--db", db),
        ("round", "result", "--db", db, "--round", "1", "--board", "1", "W+R"),
    ):
        run = weiqi(capsys, *args)
        assert run.code == 0, (args, run.err)
    return db


def test_a_stored_games_sgf_comes_from_the_database(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = _event(capsys, tmp_path)
    run = weiqi(capsys, "record", "sgf", "--db", db, "--round", "1", "--board", "1")
    assert run.code == 0, run.err
    game = read_sgf(run.out.encode())
    assert game.result is not None and game.result.to_sgf() == "W+R"
    assert {game.black_player, game.white_player} == {"李明", "王强"}
    out = tmp_path / "r1b1.sgf"
    args = ("--db", db, "--round", "1", "--board", "1", "-o", str(out))
    again = weiqi(capsys, "record", "sgf", *args)
    assert again.code == 0 and out.read_text(encoding="utf-8") == run.out


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("record", "sgf"), "give a record file, or --db with --round and --board"),
        (("record", "sgf", "--round", "1"), "give a record file, or --db"),
        (("record", "sgf", "--db", "DB", "--round", "1"), "name the stored game with --round"),
        (("record", "sgf", "--db", "DB", "--round", "1", "--board", "9"), "no board 9"),
        (("record", "sgf", "x.json", "--db", "DB"), "not both"),
    ],
)
def test_what_is_missing_or_wrong_is_named(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: tuple[str, ...], said: str
) -> None:
    db = _event(capsys, tmp_path)
    run = weiqi(capsys, *[db if a == "DB" else a for a in args])
    assert run.code != 0 and said in run.err, run.err
    assert "Traceback" not in run.err and len(run.err.strip().splitlines()) == 1, run.err


def test_a_team_boards_sgf_is_named_by_its_team(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A team board as ``round result`` names it (``--team``, either team of the match); a team
    board without ``--team`` is refused naming it."""
    db = str(tmp_path / "t.sqlite3")
    teams = tmp_path / "teams.csv"
    teams.write_text("team,name,rank\nA,A1,5d\nA,A2,4d\nB,B1,5d\nB,B2,4d\n", encoding="utf-8")
    for args in (
        ("event", "create", "--db", db, "--kind", "team", "--name", "Teams",
         "--system", "round_robin", "--boards", "2"),
        ("team", "import", "--db", db, str(teams)),
        ("round", "pair", "--db", db),
        ("team", "lineup", "--db", db, "--round", "1", "--team", "A", "A1,A2"),
        ("team", "lineup", "--db", db, "--round", "1", "--team", "B", "B1,B2"),
        ("round", "reveal", "--db", db, "--round", "1"),
        ("round", "result", "--db", db, "--round", "1", "--team", "A", "--board", "2", "W+3.5"),
    ):  # fmt: skip
        run = weiqi(capsys, *args)
        assert run.code == 0, (args, run.err)
    run = weiqi(capsys, "record", "sgf", "--db", db, "--round", "1", "--team", "B", "--board", "2")
    assert run.code == 0, run.err
    game = read_sgf(run.out.encode())
    assert game.result is not None and game.result.to_sgf() == "W+3.5"
    assert {game.black_player, game.white_player} == {"A2", "B2"}
    missing = weiqi(capsys, "record", "sgf", "--db", db, "--round", "1", "--board", "2")
    assert missing.code != 0 and "--team" in missing.err and "Traceback" not in missing.err
