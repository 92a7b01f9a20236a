"""Teams and rosters from CSV: bad rows reported by line, all or nothing (issue #6 import)."""

from __future__ import annotations

import pytest

from weiqi.errors import InputError, RowsRejected
from weiqi.formats.team_csv import parse_team_csv
from weiqi.league.lineup import LineupSettings, validate_lineup
from weiqi.league.season import Season, SeasonSettings
from weiqi.tournament.ranks import Rank

GOOD = """\ufeffteam,name,rank,rating,nationality,id,foreign,protected,captain,club,coach
Jiangsu,Mi Yuting,9p,2750,CN,js1,no,yes,yes,Jiangsu Club,Zhang
Jiangsu,Kim Jiseok,9p,2720,KR,js2,yes,yes,,,Zhang
Jiangsu,Li Qincheng,9p,2700,CN,js3,,,,Jiangsu Club,
Jiangsu,Yang Dingxin,9p,2690,CN,js4,0,1,,,
Jiangsu,"Zhao, Chenyu",8p,2600,CN,js5,,,,,

Tianjin,Tang Weixing,9p,2650,CN,tj1,,,,,Liu
Tianjin,Shin Minjun,9p,2700,KR,tj2,是,,,,
Tianjin,Wang Xinghao,6p,2600,CN,tj3,否,,,,
Tianjin,Ding Hao,9p,2710,CN,tj4,,,,,
"""


def test_import_teams_and_rosters() -> None:
    teams = parse_team_csv(GOOD)
    assert [t.team_id for t in teams] == ["Jiangsu", "Tianjin"]
    js, tj = teams
    assert (js.club, js.coach, js.captain) == ("Jiangsu Club", "Zhang", "js1")
    assert [e.player_id for e in js.roster] == ["js1", "js2", "js3", "js4", "js5"]
    kim = js.entry("js2")
    assert kim is not None and (kim.name, kim.rank, kim.rating, kim.nationality) == (
        "Kim Jiseok",
        Rank.parse("9p"),
        2720,
        "KR",
    )
    assert kim.foreign and kim.protected
    assert js.entry("js5") is not None and js.entry("js5").name == "Zhao, Chenyu"  # type: ignore[union-attr]
    assert [e.foreign for e in tj.roster] == [False, True, False, False]
    assert tj.coach == "Liu" and tj.captain == ""


def test_imported_teams_play_a_season() -> None:
    """The import feeds the league core: rosters of 4–6, the foreign flag limits lineups."""
    teams = parse_team_csv(GOOD)
    season = Season("甲", teams, SeasonSettings(max_foreign=1))
    assert season.rounds == 2
    js = season.team("Jiangsu")
    assert validate_lineup(js, ("js1", "js2", "js3", "js4"), LineupSettings(max_foreign=1))


def test_chinese_headers_and_home_nationality() -> None:
    text = "队名,姓名,段位,等级分,国籍\n江苏,芈昱廷,九段,2750,CN\n江苏,金志锡,九段,2720,KR\n"
    [js] = parse_team_csv(text, home_nationality="CN")
    assert [(e.player_id, e.rank.code, e.foreign) for e in js.roster] == [
        ("芈昱廷", "9p", False),
        ("金志锡", "9p", True),
    ]


def test_bad_rows_reported_by_line_all_or_nothing() -> None:
    text = (
        "team,name,rank,rating,foreign,captain,coach\n"
        "A,a1,9p,2700,,yes,Zhang\n"  # 2 good
        ",a2,9p,2700,,,\n"  # 3 no team
        "A,a3,10p,2700,,,\n"  # 4 bad rank
        "A,a4,9p,strong,,,\n"  # 5 bad rating
        "A,a5,9p,2700,maybe,,\n"  # 6 bad flag
        "A,a1,9p,2700,,,\n"  # 7 duplicate
        "A,a6,9p,2700,,yes,\n"  # 8 second captain
        "A,a7,9p,2700,,,Wang\n"  # 9 other coach
        "A,a8,9p,-5,,,\n"  # 10 negative rating
        "A,a9,9p,1,,,,extra\n"  # 11 too many cells
    )
    with pytest.raises(RowsRejected) as err:
        parse_team_csv(text, source="clubs.csv")
    assert [(n, str(w)) for n, w in err.value.problems] == [
        (3, "no team"),
        (4, "rank 10p: level must be 1..9"),
        (5, "rating 'strong' is not a whole number"),
        (6, "foreign 'maybe': expected yes or no"),
        (7, "player a1 already on line 2"),
        (8, "A already has captain a1"),
        (9, "coach 'Wang' differs from 'Zhang' given for A"),
        (10, "rating -5 is negative"),
        (11, "8 cells for 7 columns"),
    ]
    assert isinstance(err.value, InputError)
    assert err.value.message.startswith("clubs.csv, line 3: no team; line 4: rank")


def test_quoted_newline_keeps_line_numbers() -> None:
    text = 'team,name,rank\nA,"two\nlines",9p\nA,b,99p\n'
    with pytest.raises(RowsRejected) as err:
        parse_team_csv(text)
    # the quoted newline is read as one cell of line 2 (and refused: a name is one line)
    assert [(n, str(w)) for n, w in err.value.problems] == [
        (2, "name: must be one line without control characters"),
        (4, "rank 99p: level must be 1..9"),
    ]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", (1, "the file is empty; expected a header row")),
        ("team,name\n", (1, "missing column 'rank'")),
        ("team,name,rank,shoe\n", (1, "unknown column 'shoe'")),
        ("team,name,rank,段位\n", (1, "column 'rank' given twice")),
        ("team,name,rank\n\n", (2, "no players")),
    ],
)
def test_header_problems(text: str, problem: tuple[int, str]) -> None:
    with pytest.raises(RowsRejected) as err:
        parse_team_csv(text)
    assert [(n, str(w)) for n, w in err.value.problems] == [problem]
