"""One command tree for both kinds of event (issue #10): ``event create --kind team``, and
``event show``, ``round …`` and ``standings`` acting on whichever kind ``--event`` names (or the
newest event). An option of the other kind is refused by its name, never silently ignored."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from weiqi.cli import app, error_line
from weiqi.errors import WeiqiError

runner = CliRunner()
TEAMS = "team,name,rank\n" + "\n".join(f"{t},{t}{i},{5 - i}d" for t in "AB" for i in (1, 2))
PLAYERS = "name,rank\n" + "\n".join(f"P{i},{i}d" for i in range(1, 5))


def run(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, (args, result.output, result.exception)
    return result.output


def refused(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert isinstance(result.exception, WeiqiError), (args, result.output)
    return result.exception.message


def test_both_kinds_in_one_database_through_the_same_commands(tmp_path: Path) -> None:
    """An individual round robin (event 1) and a team round robin (event 2) side by side: the
    same ``event show``, ``round pair``, ``round result``, ``round show`` and ``standings``
    serve both; without ``--event`` the newest (the team event) is meant."""
    db = str(tmp_path / "both.sqlite3")
    (tmp_path / "players.csv").write_text(PLAYERS, encoding="utf-8")
    (tmp_path / "teams.csv").write_text(TEAMS, encoding="utf-8")
    run("event", "create", "--db", db, "--name", "Club", "--system", "round_robin")
    run("player", "import", "--db", db, str(tmp_path / "players.csv"))
    out = run("event", "create", "--db", db, "--kind", "team", "--name", "Teams",
              "--system", "round_robin", "--boards", "2",
              "--board-colors", "alternate")  # fmt: skip
    assert "team event 2" in out
    run("team", "import", "--db", db, str(tmp_path / "teams.csv"))

    assert json.loads(run("event", "show", "--db", db, "--json"))["kind"] == "team"
    shown = json.loads(run("event", "show", "--db", db, "--event", "1", "--json"))
    assert shown["kind"] == "individual" and shown["entrants"] == 4

    individual = json.loads(run("round", "pair", "--db", db, "--event", "1", "--json"))
    assert len(individual["pairings"]) == 2
    team_round = json.loads(run("round", "pair", "--db", db, "--json"))
    assert [(m["home"], m["away"]) for m in team_round["matches"]] == [("A", "B")]

    run("team", "lineup", "--db", db, "--round", "1", "--team", "A", "A1,A2")
    run("team", "lineup", "--db", db, "--round", "1", "--team", "B", "B1,B2")
    run("round", "reveal", "--db", db, "--round", "1")
    run("round", "result", "--db", db, "--round", "1", "--team", "A", "--board", "1", "B+R")
    run("round", "result", "--db", db, "--round", "1", "--team", "B", "--board", "2", "B+R")
    run("round", "result", "--db", db, "--event", "1", "--round", "1", "--board", "1", "B+R")

    teams = json.loads(run("standings", "--db", db, "--json"))
    assert [(r["team"], r["match_points"]) for r in teams] == [("A", 1), ("B", 1)]
    players = json.loads(run("standings", "--db", db, "--event", "1", "--json"))
    assert len(players) == 4 and players[0]["points"] == 2
    shown_round = json.loads(run("round", "show", "--db", db, "--round", "1", "--json"))
    assert shown_round["matches"][0]["boards"][0]["result"] == "B+R"


def test_round_pair_takes_a_start_for_either_kind(tmp_path: Path) -> None:
    """``round pair --start`` stores the round's start for an individual event as for a team
    one (it was refused for an individual event): ``round show --json`` gives it back in the
    event's zone, and a time that cannot be read is refused by the option's name."""
    db = str(tmp_path / "start.sqlite3")
    (tmp_path / "players.csv").write_text(PLAYERS, encoding="utf-8")
    run("event", "create", "--db", db, "--name", "Solo", "--system", "swiss", "--rounds", "3")
    run("player", "import", "--db", db, str(tmp_path / "players.csv"))
    assert refused("round", "pair", "--db", db, "--start", "next tuesday").startswith("--start:")
    run("round", "pair", "--db", db, "--start", "2026-05-01T09:00+08:00")
    shown = json.loads(run("round", "show", "--db", db, "--round", "1", "--json"))
    assert shown["starts_at"] == "2026-05-01T09:00+08:00"


def test_an_option_of_the_other_kind_is_refused_by_name(tmp_path: Path) -> None:
    """``--boards`` makes no sense for an individual event, nor ``--handicap-placement`` for
    a team one (its boards have no handicap), a team board needs ``--team``, and ``round
    reveal`` has no individual meaning: each is refused, naming the option, with nothing
    created. ``round pair --explain`` means both: why each pair, why each match."""
    db = str(tmp_path / "refused.sqlite3")
    assert refused("event", "create", "--db", db, "--name", "X", "--system", "swiss",
                   "--boards", "3") == "--boards: applies to team events only"  # fmt: skip
    assert refused("event", "create", "--db", db, "--kind", "team", "--name", "X",
                   "--system", "swiss", "--handicap-placement", "free") == (
        "--handicap-placement: applies to individual events only")  # fmt: skip
    assert "--kind" in refused("event", "create", "--db", db, "--kind", "club", "--name", "X",
                               "--system", "swiss")  # fmt: skip
    assert "no event in this database" in refused("event", "show", "--db", db)

    run("event", "create", "--db", db, "--name", "Solo", "--system", "swiss", "--rounds", "3")
    message = refused("round", "reveal", "--db", db, "--round", "1")
    assert message.startswith("round reveal: event 1 is an individual event")
    (tmp_path / "teams.csv").write_text(TEAMS, encoding="utf-8")
    run("event", "create", "--db", db, "--kind", "team", "--name", "T", "--system", "swiss",
        "--rounds", "1", "--boards", "2")  # fmt: skip
    run("team", "import", "--db", db, str(tmp_path / "teams.csv"))
    # a team Swiss's round says why each match, as an individual one says why each pair
    explained = json.loads(run("round", "pair", "--db", db, "--explain", "--json"))
    (why,) = explained["explanations"]
    assert (why["board"], why["black"]["name"], why["white"]["name"]) == (1, "A", "B")
    assert (why["black"]["points"], why["ideal"]) == (0, True)
    assert explained["totals"]["games"] == 1 and explained["totals"]["floats"] == 0
    assert refused("round", "result", "--db", db, "--round", "1", "--board", "1", "B+R") == (
        "--team: a team event's board needs the team"
    )


def test_r_score_3_a_team_events_komi_and_repetition_rule_from_the_command_line(
    tmp_path: Path,
) -> None:
    """R-SCORE-3, R-KO-2: ``--komi`` and ``--cycle-policy`` set a team event's boards' rules
    as they set an individual event's; a komi that is not a number is refused by name."""
    db = str(tmp_path / "komi.sqlite3")
    team = ("event", "create", "--db", db, "--kind", "team", "--system", "swiss", "--rounds", "2")
    made = json.loads(run(*team, "--name", "T", "--boards", "2", "--komi", "7/2",
                          "--cycle-policy", "draw", "--json"))  # fmt: skip
    assert (made["settings"]["komi"], made["settings"]["cycle"]) == ("7/2", "draw")
    assert refused(*team, "--name", "U", "--komi", "three") == (
        "--komi: 'three' is not a number of stones"
    )


def test_r_fmt_3_a_team_round_pair_explains_in_chinese(tmp_path: Path) -> None:
    """``round pair --explain`` of a team Swiss prints why each match in Chinese, in a team's
    words (match points, home and away), with the legend."""
    db = str(tmp_path / "why.sqlite3")
    (tmp_path / "teams.csv").write_text(TEAMS, encoding="utf-8")
    run("event", "create", "--db", db, "--kind", "team", "--name", "T", "--system", "swiss",
        "--rounds", "2", "--boards", "2")  # fmt: skip
    run("team", "import", "--db", db, str(tmp_path / "teams.csv"))
    result = runner.invoke(
        app,
        ["round", "pair", "--db", db, "--explain"],
        env={"WEIQI_LANG": "zh_CN", "COLUMNS": "200"},
    )
    assert result.exit_code == 0, result.output
    assert "主队" in result.output and "场分 0" in result.output and "理想对阵" in result.output
    assert "违反主客场规则：" in result.output and "执黑" not in result.output
    assert "对阵 1；分差（总和 / 最大） 0 / 0；降组对阵 0；违反主客场规则 0" in result.output


def test_r_org_1_event_set_changes_either_kinds_settings_as_the_page_does(tmp_path: Path) -> None:
    """``event set KEY=VALUE …`` changes an individual or a team event's settings through the
    service the settings page and the API use: a setting that cannot change now is refused
    naming it and why (in the reader's language), and nothing is stored."""
    db = str(tmp_path / "set.sqlite3")
    (tmp_path / "players.csv").write_text(PLAYERS, encoding="utf-8")
    run("event", "create", "--db", db, "--name", "Club", "--system", "swiss", "--rounds", "3")
    out = run("event", "set", "--db", db, "rounds=5", "tiebreaks=SOS,SB", "--name", "Club 2027")
    assert "rounds: 3 → 5" in out and "name: Club → Club 2027" in out
    shown = json.loads(run("event", "set", "--db", db, "komi=7/2", "--json"))
    assert (shown["settings"]["rounds"], shown["tiebreaks"], shown["settings"]["komi"]) == (
        5, ["SOS", "SB"], "7/2")  # fmt: skip
    run("player", "import", "--db", db, str(tmp_path / "players.csv"))
    run("round", "pair", "--db", db)
    assert refused("event", "set", "--db", db, "komi=15/4").startswith("komi: cannot change")
    assert refused("event", "set", "--db", db, "rounds") == "KEY=VALUE: 'rounds' is not KEY=VALUE"
    caught = runner.invoke(app, ["event", "set", "--db", db, "komi=15/4"])
    assert isinstance(caught.exception, WeiqiError)
    zh = error_line(caught.exception, {"WEIQI_LANG": "zh_CN"})
    assert zh == "错误：贴子：第一轮后不能修改：已下的对局是按此设置进行的"
    assert json.loads(run("event", "set", "--db", db, "rounds=6", "--json"))["rounds"] == 1
    (tmp_path / "teams.csv").write_text(TEAMS, encoding="utf-8")
    run("event", "create", "--db", db, "--kind", "team", "--name", "T", "--system", "round_robin",
        "--boards", "2")  # fmt: skip
    assert refused("event", "set", "--db", db, "boards=3") == (
        "boards: set when the event was created"
    )
    team = json.loads(run("event", "set", "--db", db, "deadline_minutes=45", "--json"))
    assert (team["kind"], team["settings"]["deadline_minutes"]) == ("team", 45)


def test_a_system_refused_is_named_as_the_events_system_in_chinese(tmp_path: Path) -> None:
    """Issue #10, one name per idea: an event's system (赛制) and a clock's time system (计时方式)
    are two fields; a team event refusing an individual system names the event's."""
    db = str(tmp_path / "s.sqlite3")
    caught = runner.invoke(app, ["event", "create", "--db", db, "--kind", "team", "--name", "杯",
                                 "--system", "mcmahon", "--boards", "2"])  # fmt: skip
    assert isinstance(caught.exception, WeiqiError)
    zh = error_line(caught.exception, {"WEIQI_LANG": "zh_CN"})
    assert zh.startswith("错误：赛制：团体赛的赛制须为round_robin") and zh.endswith("不能是mcmahon")


def test_r_fmt_3_a_setting_only_another_system_reads_is_refused_where_it_is_typed(
    tmp_path: Path,
) -> None:
    """``--best-of 5`` for a Swiss, ``mcmahon_bar=3d`` for a match, two cycles for a team
    Swiss: settings only other systems read (tournament.settings.SYSTEM_SETTINGS) are refused
    naming them and the systems of the event's kind that read them, in the reader's language,
    and nothing is created; for the system that reads it the same setting is taken."""
    db = str(tmp_path / "a.sqlite3")
    swiss = ("event", "create", "--db", db, "--name", "Open", "--system", "swiss", "--rounds", "3")
    assert refused(*swiss, "--best-of", "5") == "best_of: applies to match only, not to swiss"
    caught = runner.invoke(app, [*swiss, "--best-of", "5"])
    assert isinstance(caught.exception, WeiqiError)
    zh = error_line(caught.exception, {"WEIQI_LANG": "zh_CN"})
    assert zh == "错误：局数：只适用于match，不适用于swiss"
    run("event", "create", "--db", db, "--name", "Duel", "--system", "match", "--best-of", "5")
    assert json.loads(run("event", "show", "--db", db, "--json"))["settings"]["best_of"] == 5
    assert refused("event", "set", "--db", db, "mcmahon_bar=3d") == (
        "mcmahon_bar: applies to mcmahon only, not to match"
    )
    # a team event's alike: its cycles are its round robin's, its order its 擂台赛's
    team = ("event", "create", "--db", db, "--kind", "team", "--name", "T", "--boards", "2")
    assert refused(*team, "--system", "swiss", "--rounds", "3", "--cycles", "2") == (
        "cycles: applies to round_robin only, not to swiss"
    )
    assert refused(*team, "--system", "round_robin", "--order", "chosen") == (
        "player_order: applies to winner_stays_on only, not to round_robin"
    )
    run(*team, "--system", "round_robin", "--cycles", "2")
