"""Issue #5, ``weiqi event create --db FILE --name NAME --system SYSTEM [--rounds N]
[--tiebreaks CODES]``: the eight SYSTEM names, the tie-break CODES, and hostile values named in
one line (exit 2) instead of a traceback or a silently odd event."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.contracts import weiqi

SYSTEMS = {
    "round_robin": [],
    "double_round_robin": [],
    "knockout": [],
    "double_elimination": [],
    "swiss": ["--rounds", "5"],
    "swiss_knockout": ["--rounds", "5", "--losses", "2"],
    "mcmahon": ["--rounds", "5", "--mcmahon-bar", "3d"],
    "match": ["--best-of", "5"],
}
CODES = ["SB", "WARN", "SOS", "TOTAL", "CUSS", "SOS-1", "SOSOS", "DE", "RATING"]


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_every_system_name_of_the_issue_creates_an_event(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], system: str
) -> None:
    db = str(tmp_path / "e.sqlite3")
    run = weiqi(capsys, "event", "create", "--db", db, "--name", "围棋赛", "--system", system,
                *SYSTEMS[system], "--json")  # fmt: skip
    assert run.code == 0, run.err
    out = json.loads(run.out)
    assert out["name"] == "围棋赛" and out["settings"]["system"] == system


def test_every_tiebreak_code_of_the_issue_is_accepted_in_the_given_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "e.sqlite3")
    codes = ["TOTAL", *[c for c in CODES if c != "TOTAL"]]  # TOTAL ranks before points
    run = weiqi(capsys, "event", "create", "--db", db, "--name", "S", "--system", "swiss",
                "--rounds", "3", "--tiebreaks", ",".join(codes), "--json")  # fmt: skip
    assert run.code == 0, run.err
    assert json.loads(run.out)["settings"]["tiebreaks"] == codes
    standings = weiqi(capsys, "standings", "--db", db, "--json")
    assert standings.code == 0 and json.loads(standings.out) == []


@pytest.mark.parametrize(
    ("extra", "fragments"),
    [
        (["--system", "ladder"], ("unknown system", "round_robin", "mcmahon")),
        (["--system", "swiss"], ("rounds",)),
        (["--system", "swiss", "--rounds", "-1"], ("rounds",)),
        (["--system", "swiss", "--rounds", "99999999999999999999"], ("rounds",)),
        (["--system", "swiss", "--rounds", "3", "--tiebreaks", "SOS,FOO"], ("FOO",)),
        (["--system", "swiss", "--rounds", "3", "--tiebreaks", "SOS,SOS"], ("twice",)),
        (["--system", "swiss", "--rounds", "3", "--tiebreaks", ","], ("tiebreaks", "no code")),
        (["--system", "swiss", "--rounds", "3", "--tiebreaks", ""], ("tiebreaks", "no code")),
        (["--system", "swiss", "--rounds", "3", "--komi", "1e999"], ("komi",)),
        # The seed is stored with every round: beyond 64 bits it crashed the first pairing.
        (["--system", "swiss", "--rounds", "3", "--seed", "9" * 26], ("seed",)),
        (["--system", "match", "--best-of", "4"], ("best_of",)),
    ],
)
def test_event_create_with_a_bad_setting_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], fragments: tuple[str]
) -> None:
    db = str(tmp_path / "e.sqlite3")
    weiqi(capsys, "event", "create", "--db", db, "--name", "X", *extra).one_line_error(*fragments)


def test_round_robin_without_players_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It said "the round robin is finished" before any game was played."""
    db = str(tmp_path / "e.sqlite3")
    assert weiqi(capsys, "event", "create", "--db", db, "--name", "RR", "--system",
                 "round_robin").code == 0  # fmt: skip
    weiqi(capsys, "round", "pair", "--db", db).one_line_error("at least two players")


def test_replay_and_no_result_points_are_event_settings_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue #5: "no result and replay (event setting)" feed scoring. Without the options a CLI
    event could only wait for a replay that ``round result`` cannot record (see the report)."""
    db = str(tmp_path / "e.sqlite3")
    players = tmp_path / "p.csv"
    players.write_text("name\n甲\n乙\n丙\n丁\n", encoding="utf-8")
    run = weiqi(capsys, "event", "create", "--db", db, "--name", "RR", "--system", "round_robin",
                "--replay-points", "1", "--no-result-points", "1", "--json")  # fmt: skip
    assert run.code == 0, run.err
    settings = json.loads(run.out)["settings"]
    assert (settings["replay_points"], settings["no_result_points"]) == (1, 1)
    assert weiqi(capsys, "player", "import", "--db", db, str(players)).code == 0
    assert weiqi(capsys, "round", "pair", "--db", db).code == 0
    for board, code in [("1", "Replay"), ("2", "Void")]:
        run = weiqi(capsys, "round", "result", "--db", db, "--round", "1", "--board", board, code)
        assert run.code == 0, run.err
    standings = json.loads(weiqi(capsys, "standings", "--db", db, "--json").out)
    assert [r["points"] for r in standings] == [1, 1, 1, 1]
    assert weiqi(capsys, "round", "pair", "--db", db).code == 0  # the replay did not block it
    bad = weiqi(capsys, "event", "create", "--db", db, "--name", "X", "--system", "round_robin",
                "--replay-points", "3")  # fmt: skip
    bad.one_line_error("replay_points")
