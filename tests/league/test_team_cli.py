"""``weiqi team …`` end to end on an SQLite file: a 4-team round robin on 3 boards with sealed
lineups (one of them refused for each reason), results, and standings checked by hand. The
commands read the time from the system clock; in-process runs give them a ``ManualClock`` as the
context object (no option sets "now")."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from weiqi.cli import app
from weiqi.errors import WeiqiError
from weiqi.services.server_clock import ManualClock

runner = CliRunner()
pytestmark = pytest.mark.usefixtures("one_command_tree")
SRC = str(Path(__file__).resolve().parents[2] / "src")

# Four players a team; x3 and x4 are Korean, so foreign with --home-nationality CN.
TEAMS = "team,name,rank,rating,nationality\n" + "\n".join(
    f"{t},{t}{i},{8 - i}p,{2700 - 10 * i},{'KR' if i >= 3 else 'CN'}"
    for t in "ABCD"
    for i in range(1, 5)
)


def run(*args: str, clock: ManualClock | None = None) -> str:
    result = runner.invoke(app, list(args), obj=clock)
    assert result.exit_code == 0, (args, result.output, result.exception)
    return result.output


def refused(*args: str, clock: ManualClock | None = None) -> str:
    result = runner.invoke(app, list(args), obj=clock)
    assert isinstance(result.exception, WeiqiError), (args, result.output)
    return result.exception.message


def at(text: str) -> ManualClock:
    """A clock standing at ``text`` (ISO 8601, UTC)."""
    return ManualClock(datetime.fromisoformat(text).replace(tzinfo=UTC))


def test_r_fmt_1_r_score_team_1_r_rank_team_round_robin_from_the_command_line(
    tmp_path: Path,
) -> None:
    """R-FMT-1 (临场出人制, sealed lineups, a foreign limit, previous lineup as fallback),
    R-SCORE-TEAM-1 (game and match points) and R-RANK-TEAM (MP, GP, board 1, board 2 …)."""
    db = str(tmp_path / "teams.sqlite3")
    csv = tmp_path / "teams.csv"
    csv.write_text(TEAMS, encoding="utf-8")
    out = run("event", "create", "--kind", "team", "--db", db, "--name", "City teams",
              "--system", "round_robin", "--boards", "3",
              "--max-foreign", "1", "--missing", "previous",
              "--deadline-minutes", "30")  # fmt: skip
    assert "临场出人制" in out and "3 boards" in out
    assert "imported 4 teams" in run("team", "import", "--db", db, str(csv),
                                     "--home-nationality", "CN")  # fmt: skip

    starts = ["2026-05-01T09:00", "2026-05-02T09:00", "2026-05-03T09:00"]
    before = ["2026-05-01T08:00", "2026-05-02T08:00", "2026-05-03T08:00"]
    deadline = ["2026-05-01T08:30", "2026-05-02T08:30", "2026-05-03T08:30"]
    # Berger for 4 teams: A–D, B–C | D–C, A–B | B–D, C–A (home black on boards 1 and 3)
    fixtures = [[("A", "D"), ("B", "C")], [("D", "C"), ("A", "B")], [("B", "D"), ("C", "A")]]
    results = {
        # round 1: A–D 4:2 (A, D, A), B–C 4:2 (B, B, C)
        1: {"A": ["B+R", "B+R", "B+R"], "B": ["B+R", "W+R", "W+R"]},
        # round 2: D–C 2:4 (D, C, C), A–B 2:4 (B, A, B)
        2: {"D": ["B+R", "B+R", "W+R"], "A": ["W+R", "W+R", "W+R"]},
        # round 3: B–D 2:4 (D, B, D), C–A 2:4 (A, C, A)
        3: {"B": ["W+R", "W+R", "W+R"], "C": ["W+R", "W+R", "W+R"]},
    }
    for r in (1, 2, 3):
        paired = json.loads(run("round", "pair", "--db", db, "--start", starts[r - 1],
                                "--json"))  # fmt: skip
        assert [(m["home"], m["away"]) for m in paired["matches"]] == fixtures[r - 1]
        assert paired["deadline"] == deadline[r - 1] + "+00:00"
        if r == 1:  # two foreign players (A3, A4) for a limit of one: refused, nothing sealed
            assert "2 foreign players (A3, A4)" in refused(
                "team", "lineup", "--db", db, "--round", "1", "--team", "A", "A1,A3,A4",
                clock=at(before[0]))  # fmt: skip
            shown = json.loads(run("round", "show", "--db", db, "--json"))
            assert shown["matches"][0]["submitted"]["A"] is False
        for t in "ABCD":
            if r == 3 and t == "D":
                continue  # D sends nothing in round 3: its round-2 lineup plays again
            lineup = f"{t}1,{t}2,{t}3" if r != 2 else f"{t}2,{t}1,{t}4"
            run("team", "lineup", "--db", db, "--round", str(r), "--team", t, lineup,
                clock=at(before[r - 1]))  # fmt: skip
        shown = json.loads(run("round", "show", "--db", db, "--json"))
        assert shown["lineups"] == {} and all(m["boards"] == [] for m in shown["matches"])
        assert shown["matches"][0]["submitted"] == {h: not (r == 3 and h == "D")
                                                    for h in fixtures[r - 1][0]}  # fmt: skip
        assert "sealed until" in refused("round", "reveal", "--db", db, "--round", str(r),
                                         clock=at(before[r - 1]))  # fmt: skip
        view = json.loads(run("round", "reveal", "--db", db, "--round", str(r),
                              "--json", clock=at(deadline[r - 1])))  # fmt: skip
        lineups = view["lineups"]
        assert lineups["A"] == (["A1", "A2", "A3"] if r != 2 else ["A2", "A1", "A4"])
        if r == 3:
            assert lineups["D"] == ["D2", "D1", "D4"]  # previous lineup
        if r < 3:
            for team, codes in results[r].items():
                for board, code in enumerate(codes, start=1):
                    run("round", "result", "--db", db, "--round", str(r), "--team", team,
                        "--board", str(board), code)  # fmt: skip
            continue
        rows = [f"{t},{b},{c}" for t, codes in results[r].items()
                for b, c in enumerate(codes, start=1)]  # fmt: skip
        sheet = tmp_path / "r3.csv"
        sheet.write_text("team,board,result\n" + "\n".join([*rows, "A,4,B+R"]), "utf-8")
        assert "line 8: round 3: A's match has no board 4" in refused(
            "round", "results", "--db", db, "--round", "3", str(sheet)
        )
        sheet.write_text("team,board,result\n" + "\n".join(rows), "utf-8")
        assert "6 results recorded" in run("round", "results", "--db", db, "--round", "3",
                                           str(sheet))  # fmt: skip
    r1 = json.loads(run("round", "show", "--db", db, "--round", "1", "--json"))
    ad = r1["matches"][0]
    assert [b["home_color"] for b in ad["boards"]] == ["B", "W", "B"]
    assert [(b["home_player"], b["away_player"]) for b in ad["boards"]] == [
        ("A1", "D1"), ("A2", "D2"), ("A3", "D3")]  # fmt: skip
    assert ad["game_points"] == [4, 2] and ad["match_points"] == [2, 0] and ad["winner"] == "A"

    table = json.loads(run("standings", "--db", db, "--json"))
    # by hand: A and B 4 MP 10 GP, level on board 1 (4), B ahead on board 2 (4 to 2);
    # C and D 2 MP 8 GP, D ahead on board 1 (4 to 0)
    assert [(r["place"], r["team"], r["match_points"], r["game_points"], r["board_points"])
            for r in table] == [
        (1, "B", 4, 10, [4, 4, 2]),
        (2, "A", 4, 10, [4, 2, 4]),
        (3, "D", 2, 8, [4, 2, 2]),
        (4, "C", 2, 8, [0, 4, 4]),
    ]  # fmt: skip
    assert [(r["won"], r["drawn"], r["lost"]) for r in table] == [(2, 0, 1)] * 2 + [(1, 0, 2)] * 2
    assert "团体名次" in run("standings", "--db", db)
    board1 = json.loads(run("team", "records", "--db", db, "--board", "1", "--json"))
    # board 1: A1 won rounds 1 and 3 (B1 won rounds 1 and 2, D2 and D1 one each)
    assert {r["player"]: r["game_points"] for r in board1}["A1"] == 4
    players = json.loads(run("team", "records", "--db", db, "--json"))
    assert sum(p["game_points"] for p in players) == 10 + 10 + 8 + 8


def test_illegal_lineups_are_refused_with_the_reason_and_nothing_is_stored(tmp_path: Path) -> None:
    """R-FMT-1 / R-LEAGUE-1: not on the roster, too many foreign players, after the deadline
    (by the system clock in a real process; no ``--at`` says otherwise), the order of a
    定台换人制 team broken — each refused with its reason, exit 2."""
    db = str(tmp_path / "teams.sqlite3")
    csv = tmp_path / "teams.csv"
    csv.write_text(TEAMS, encoding="utf-8")
    run("event", "create", "--kind", "team", "--db", db, "--name", "Cup", "--boards", "3",
        "--system", "round_robin", "--type", "fixed_order", "--max-foreign", "1")  # fmt: skip
    run("team", "import", "--db", db, str(csv), "--home-nationality", "CN")
    run("round", "pair", "--db", db, "--start", "2026-05-01T09:00")
    base = ["team", "lineup", "--db", db, "--round", "1", "--team", "A"]
    # a real process reads the system clock: today is long after this round's deadline
    proc = subprocess.run(
        [sys.executable, "-m", "weiqi", *base, "A1,A2,A3"],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": SRC, "WEIQI_LANG": "en"},
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("error: lineup of A: submitted at "), proc.stderr
    assert proc.stderr.endswith(", after the deadline (2026-05-01 16:30:00)\n"), proc.stderr
    early = at("2026-05-01T08:00")
    assert refused(*base, "A1,B2,A3", clock=early) == (
        "lineup of A: board 2: player B2 is not on the roster"
    )
    assert "2 foreign players (A3, A4)" in refused(*base, "A1,A3,A4", clock=early)
    assert "break the order" in refused(*base, "A2,A1,A3", clock=early)
    assert "after the deadline (2026-05-01 16:30:00)" in refused(
        *base, "A1,A2,A3", clock=at("2026-05-01T08:45")
    )
    shown = json.loads(run("round", "show", "--db", db, "--json"))
    assert shown["matches"][0]["submitted"]["A"] is False
    # no option says what time it is: a back-dated --at is an unknown option, nothing stored
    back_dated = runner.invoke(app, [*base, "A1,A2,A4", "--at", "2026-05-01T08:00"])
    assert back_dated.exit_code == 2 and "No such option: --at" in back_dated.output
    shown = json.loads(run("round", "show", "--db", db, "--json"))
    assert shown["matches"][0]["submitted"]["A"] is False
    run(*base, "A1,A2,A4", clock=at("2026-05-01T08:29"))  # a substitute, order kept
    shown = json.loads(run("round", "show", "--db", db, "--json"))
    assert shown["matches"][0]["submitted"]["A"] is True
    assert "--system" in refused("event", "create", "--kind", "team", "--db", db, "--name", "X",
                                 "--system", "ladder")  # fmt: skip


def test_r_fmt_1_team_coach_assigns_an_account_to_a_team(tmp_path: Path) -> None:
    """R-FMT-1: ``weiqi team coach`` stores which team an account coaches; a coach of A is
    refused B's lineup."""
    from weiqi.errors import PermissionDenied
    from weiqi.services.accounts import create_user
    from weiqi.services.actor import Actor
    from weiqi.services.events import EventKind, latest_event
    from weiqi.services.teams import submit_lineup
    from weiqi.store.database import Database

    db = str(tmp_path / "teams.sqlite3")
    csv = tmp_path / "teams.csv"
    csv.write_text(TEAMS, encoding="utf-8")
    run(
        "event",
        "create",
        "--kind",
        "team",
        "--db",
        db,
        "--name",
        "Coached",
        "--boards",
        "2",
        "--system",
        "round_robin",
    )
    run("team", "import", "--db", db, str(csv))
    run("round", "pair", "--db", db)
    database = Database(f"sqlite:///{db}")
    wang = create_user(database, Actor.local(), "wang", "correct horse")
    assert refused("team", "coach", "--db", db, "--team", "A", "--user", "li") == (
        "user 'li' does not exist"
    )
    assert "wang is now coach of A" in run("team", "coach", "--db", db, "--team", "A",
                                           "--user", "wang")  # fmt: skip
    out = run("team", "coach", "--db", db, "--team", "B", "--user", "wang", "--captain", "--json")
    assert json.loads(out) == {"team": "B", "username": "wang", "role": "captain"}
    zhao = create_user(database, Actor.local(), "zhao", "correct horse")
    run("team", "coach", "--db", db, "--team", "C", "--user", "zhao")
    ev = latest_event(database, EventKind.TEAM)
    with pytest.raises(PermissionDenied):
        submit_lineup(database, Actor(zhao.id, "zhao"), ev, 1, "A", ["A1", "A2"])
    submit_lineup(database, Actor(wang.id, "wang"), ev, 1, "A", ["A1", "A2"])
    database.dispose()


def test_r_fmt_1_a_player_id_with_a_comma_is_quoted_on_the_command_line(tmp_path: Path) -> None:
    """Issue #16 (R-FMT-1): ``team lineup`` reads its argument as one CSV row, so a player id
    that holds a comma is quoted as the teams CSV quotes it (``'"Li, Wei",A2'``) and is sealed,
    revealed and seated as one player. Unquoted, ``Li, Wei`` is two ids, not on the roster
    (refused with that reason); an unclosed quote is refused at input, naming the fix. Neither
    refusal stores anything."""
    db = str(tmp_path / "comma.sqlite3")
    csv = tmp_path / "teams.csv"
    csv.write_text('team,name,rank\nA,"Li, Wei",5p\nA,A2,4p\nB,B1,5p\nB,B2,4p\n', "utf-8")
    run("event", "create", "--kind", "team", "--db", db, "--name", "Comma cup",
        "--system", "round_robin", "--boards", "2")  # fmt: skip
    run("team", "import", "--db", db, str(csv))
    run("round", "pair", "--db", db)
    assert "player Li is not on the roster" in refused(
        "team", "lineup", "--db", db, "--round", "1", "--team", "A", "Li, Wei"
    )
    unclosed = refused("team", "lineup", "--db", db, "--round", "1", "--team", "A", '"Li, Wei,A2')
    assert unclosed.startswith("PLAYERS: ") and """e.g. '"Li, Wei",P2'""" in unclosed
    shown = json.loads(run("round", "show", "--db", db, "--json"))
    assert shown["matches"][0]["submitted"] == {"A": False, "B": False}
    out = run("team", "lineup", "--db", db, "--round", "1", "--team", "A", '"Li, Wei", A2')
    assert "lineup of A sealed (2 boards)" in out
    run("team", "lineup", "--db", db, "--round", "1", "--team", "B", "B1,B2")
    view = json.loads(run("round", "reveal", "--db", db, "--round", "1", "--json"))
    assert view["lineups"] == {"A": ["Li, Wei", "A2"], "B": ["B1", "B2"]}
    board = view["matches"][0]["boards"][0]
    assert "Li, Wei" in (board["home_player"], board["away_player"])


def test_team_coach_json_prints_a_chinese_team_as_itself(tmp_path: Path) -> None:
    """``weiqi team coach --json`` prints the team 黑龙 as 黑龙, as every other ``--json``
    does, not as ``\\u9ed1\\u9f99``."""
    from weiqi.services.accounts import create_user
    from weiqi.services.actor import Actor
    from weiqi.store.database import Database

    db = str(tmp_path / "teams.sqlite3")
    csv = tmp_path / "teams.csv"
    csv.write_text("team,name,rank\n黑龙,李一,5d\n黑龙,李二,4d\n白虎,王一,5d\n白虎,王二,4d\n")
    run("event", "create", "--kind", "team", "--db", db, "--name", "团体赛", "--boards", "2",
        "--system", "round_robin")  # fmt: skip
    run("team", "import", "--db", db, str(csv))
    database = Database(f"sqlite:///{db}")
    create_user(database, Actor.local(), "wang", "correct horse")
    database.dispose()
    out = run("team", "coach", "--db", db, "--team", "黑龙", "--user", "wang", "--json")
    assert out.strip() == '{"team": "黑龙", "username": "wang", "role": "coach"}'
