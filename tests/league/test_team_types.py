"""R-FMT-1: the five team types and the lineup rules each implies."""

from __future__ import annotations

import pytest

from tests.league.conftest import entry, team
from weiqi.errors import InvalidSetting, LineupRejected
from weiqi.league.lineup import LineupSettings, validate_lineup
from weiqi.league.match import rotation_match
from weiqi.league.standings import members_total
from weiqi.league.team import TeamType, event_order, fixed_board_order
from weiqi.rules.color import Color


def test_r_fmt_1_team_types_have_chinese_names_and_rules() -> None:
    """R-FMT-1: each type carries its name and what it implies."""
    assert [t.zh for t in TeamType] == [
        "分台定人制",
        "定台换人制",
        "临场出人制",
        "全队轮赛制",
        "队员总分制",
    ]
    assert TeamType.FIXED_BOARDS.order_from_rank_and_rating
    assert not TeamType.FIXED_BOARDS.substitutes_by_default
    assert (
        TeamType.FIXED_ORDER.order_fixed_for_event and TeamType.FIXED_ORDER.substitutes_by_default
    )
    assert TeamType.PER_ROUND.lineup_each_round and not TeamType.PER_ROUND.order_fixed_for_event
    assert not TeamType.MEMBERS_TOTAL.plays_board_matches


def test_r_fmt_1_fixed_boards_order_by_rank_then_rating() -> None:
    """R-FMT-1 分台定人制: order by rank (pro above amateur above kyu), then recent rating."""
    roster = (
        entry("amateur", "7d", 2800),
        entry("low", "5p", 2400),
        entry("high", "5p", 2600),
        entry("nine", "9p", 2300),
        entry("kyu", "1k", 3000),
    )
    assert fixed_board_order(roster) == ("nine", "high", "low", "amateur", "kyu")


def test_r_fmt_1_fixed_boards_lineup_is_the_order_without_substitutes() -> None:
    """R-FMT-1 分台定人制: the boards, once set, do not change during the event."""
    t = team("t", entry("b", "5p", 2400), entry("a", "9p"), entry("c", "3p"))
    settings = LineupSettings(boards=2, team_type=TeamType.FIXED_BOARDS)
    assert validate_lineup(t, ("a", "b"), settings) == ("a", "b")
    with pytest.raises(LineupRejected, match="the boards are a, b"):
        validate_lineup(t, ("b", "a"), settings)
    with pytest.raises(LineupRejected, match="the boards are a, b"):
        validate_lineup(t, ("a", "c"), settings)


def test_r_fmt_1_fixed_boards_with_substitutes_keep_the_relative_order() -> None:
    """R-FMT-1: substitute rules are event settings; a substitute keeps his place in the order."""
    t = team("t", entry("a", "9p"), entry("b", "7p"), entry("c", "3p"))
    settings = LineupSettings(boards=2, team_type=TeamType.FIXED_BOARDS, substitutes=True)
    assert validate_lineup(t, ("a", "c"), settings) == ("a", "c")
    with pytest.raises(LineupRejected, match="break the order"):
        validate_lineup(t, ("c", "b"), settings)


def test_r_fmt_1_fixed_order_with_substitutions() -> None:
    """R-FMT-1 定台换人制: the declared order holds; substitutes may come in."""
    t = team("t", entry("a"), entry("b"), entry("c"), entry("d"), order=("d", "a", "c", "b"))
    settings = LineupSettings(boards=3, team_type=TeamType.FIXED_ORDER)
    assert event_order(t, TeamType.FIXED_ORDER) == ("d", "a", "c", "b")
    assert validate_lineup(t, ("d", "a", "b"), settings) == ("d", "a", "b")
    assert validate_lineup(t, ("a", "c", "b"), settings) == ("a", "c", "b")
    with pytest.raises(LineupRejected, match="board 1 a and board 2 d break the order"):
        validate_lineup(t, ("a", "d", "b"), settings)


def test_r_fmt_1_fixed_order_not_declared_falls_back_to_rank_and_rating() -> None:
    """R-FMT-1 定台换人制: with no declared order the event uses rank and rating."""
    t = team("t", entry("x", "3p"), entry("y", "8p"))
    assert event_order(t, TeamType.FIXED_ORDER) == ("y", "x")


def test_r_fmt_1_lineup_per_round_free_order_and_substitutes() -> None:
    """R-FMT-1 临场出人制: the coach sets any order, substitutes allowed."""
    t = team("t", entry("a", "9p"), entry("b", "1p"), entry("c", "5p"), entry("d", "2p"))
    settings = LineupSettings(boards=3, team_type=TeamType.PER_ROUND)
    assert validate_lineup(t, ("b", "d", "a"), settings) == ("b", "d", "a")
    assert validate_lineup(t, ("c", "a", "b"), settings) == ("c", "a", "b")


def test_r_fmt_1_substitutes_forbidden_by_setting() -> None:
    """R-FMT-1: an event may forbid substitutes; then only the first registered players play."""
    t = team("t", entry("a"), entry("b"), entry("sub"))
    settings = LineupSettings(boards=2, team_type=TeamType.PER_ROUND, substitutes=False)
    assert validate_lineup(t, ("b", "a"), settings) == ("b", "a")
    with pytest.raises(LineupRejected, match="sub is a substitute"):
        validate_lineup(t, ("a", "sub"), settings)


def test_r_fmt_1_whole_team_rotation_every_member_meets_every_member() -> None:
    """R-FMT-1 全队轮赛制: each of A's players meets each of B's once, colours balanced."""
    a, b = ("a1", "a2", "a3", "a4"), ("b1", "b2", "b3", "b4")
    m = rotation_match("A", "B", a, b)
    meetings = {(g.a_player, g.b_player) for g in m.games}
    assert meetings == {(x, y) for x in a for y in b}
    assert len(m.games) == 16
    for player in a + b:
        blacks = sum(
            1
            for g in m.games
            if player in (g.a_player, g.b_player) and g.player_of(Color.BLACK) == player
        )
        assert blacks == 2
    for s in range(4):  # everyone plays once per sitting
        sitting = [g for g in m.games if g.sitting == s]
        assert {g.a_player for g in sitting} == set(a)
        assert {g.b_player for g in sitting} == set(b)


def test_r_fmt_1_members_total_score() -> None:
    """R-FMT-1 队员总分制: a team's score is its members' total; equal totals share the place."""
    members = {"P": ["p1", "p2", "p3"], "Q": ["q1", "q2", "q3"], "R": ["r1"]}
    points = {"p1": 10, "p2": 6, "p3": 2, "q1": 8, "q2": 8, "q3": 2, "r1": 12}
    table = members_total(members, points)
    assert [(place, t, int(v)) for place, t, v in table] == [
        (1, "P", 18),
        (1, "Q", 18),
        (3, "R", 12),
    ]
    best_two = members_total(members, points, counted=2)
    assert [(place, t, int(v)) for place, t, v in best_two] == [
        (1, "P", 16),
        (1, "Q", 16),
        (3, "R", 12),
    ]


def test_r_fmt_1_members_total_has_no_lineups() -> None:
    """R-FMT-1 队员总分制: members play as individuals, so a lineup setting is refused."""
    with pytest.raises(InvalidSetting, match="no lineups"):
        LineupSettings(team_type=TeamType.MEMBERS_TOTAL)


def test_r_fmt_1_fixed_boards_equal_players_keep_roster_order() -> None:
    """分台定人制: equal rank and rating → the organiser's listing decides, not the software."""
    roster = (entry("x", "5p", 2500), entry("y", "5p", 2500), entry("z", "5p", 2600))
    assert fixed_board_order(roster) == ("z", "x", "y")
    assert fixed_board_order(roster[1::-1] + roster[2:]) == ("z", "y", "x")
