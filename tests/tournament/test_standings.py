"""Scoring (R-SCORE-IND-1), tie-breaks (R-RANK-RR, R-RANK-SWISS, R-RANK-TEAM) and ties
(R-PLAYOFF), by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest

from weiqi.errors import InvalidSetting
from weiqi.league.match import TeamMatch
from weiqi.league.standings import TeamRanking, team_competitors, team_standings
from weiqi.messages import Msg
from weiqi.rules.color import Color
from weiqi.rules.result import Reason, Result
from weiqi.tournament.scoring import game_points
from weiqi.tournament.settings import EventSettings, System
from weiqi.tournament.standings import (
    TIEBREAKS,
    Competitor,
    Encounter,
    rank,
    tiebreak,
    tiebreak_values,
)

B, W = Color.BLACK, Color.WHITE


def test_r_score_ind_1_every_result_kind_scores() -> None:
    """R-SCORE-IND-1: win 2, draw 1, loss 0 — whatever the reason; both lose 0 each; no result
    and replay per the event."""
    s = EventSettings(system=System.SWISS, rounds=5)
    for reason in (Reason.RESIGNATION, Reason.TIME, Reason.FORFEIT, Reason.RULING):
        assert game_points(Result.win(B, reason), s) == (2, 0)
        assert game_points(Result.win(W, reason), s) == (0, 2)
    assert game_points(Result.by_count(W, Fraction(1, 4)), s) == (0, 2)
    assert game_points(Result.draw(), s) == (1, 1)
    assert game_points(Result.both_lose(), s) == (0, 0)
    assert game_points(Result.no_result(), s) == (0, 0)
    assert game_points(Result.replay(), s) is None  # outstanding until the replay is played
    assert game_points(None, s) is None
    other = EventSettings(system=System.SWISS, rounds=5, no_result_points=1, replay_points=1)
    assert game_points(Result.no_result(), other) == (1, 1)
    assert game_points(Result.replay(), other) == (1, 1)


# A 3-round example: a beat b and c, drew d; b beat d, c; c beat d; d had a bye in round 3.
E = Encounter
EXAMPLE = [
    Competitor("a", "A", (E(1, "b", 2, "W"), E(2, "c", 2, "W"), E(3, "d", 1, "D"))),
    Competitor("b", "B", (E(1, "a", 0, "L"), E(2, "d", 2, "W"), E(3, "c", 2, "W"))),
    Competitor("c", "C", (E(1, "d", 2, "W"), E(2, "a", 0, "L"), E(3, "b", 0, "L"))),
    Competitor("d", "D", (E(1, "c", 0, "L"), E(2, "b", 0, "L"), E(3, "a", 1, "D"))),
]


def test_r_rank_swiss_tiebreak_values_by_hand() -> None:
    """R-RANK-SWISS, R-RANK-RR: points a 5, b 4, c 2, d 1.

    SOS: a = 4 + 2 + 1 = 7; b = 5 + 1 + 2 = 8; c = 1 + 5 + 4 = 10; d = 2 + 4 + 5 = 11.
    SB: a = 4 + 2 + 1/2 = 6.5; b = 1 + 2 = 3; c = 1; d = 5/2 = 2.5.
    TOTAL (top score 6, 3 rounds): a = 5 + (7/3 − 3) = 13/3; b = 4 + 8/3 − 3 = 11/3;
    c = 2 + 10/3 − 3 = 7/3; d = 1 + 11/3 − 3 = 5/3.
    CUSS: a = 2 + 4 + 5 = 11; b = 0 + 2 + 4 = 6; c = 2 + 2 + 2 = 6; d = 0 + 0 + 1 = 1.
    SOS-1: a = 7 − 1 = 6; b = 8 − 1 = 7; c = 10 − 1 = 9; d = 11 − 2 = 9.
    SOSOS: a = 8 + 10 + 11 = 29; b = 7 + 11 + 10 = 28; c = 11 + 7 + 8 = 26; d = 10 + 8 + 7 = 25.
    """
    codes = ("SOS", "SB", "TOTAL", "CUSS", "SOS-1", "SOSOS")
    v = tiebreak_values(EXAMPLE, codes)
    assert v["SOS"] == {"a": 7, "b": 8, "c": 10, "d": 11}
    assert v["SB"] == {"a": Fraction(13, 2), "b": 3, "c": 1, "d": Fraction(5, 2)}
    assert v["TOTAL"] == {
        "a": Fraction(13, 3), "b": Fraction(11, 3), "c": Fraction(7, 3), "d": Fraction(5, 3),
    }  # fmt: skip
    assert v["CUSS"] == {"a": 11, "b": 6, "c": 6, "d": 1}
    assert v["SOS-1"] == {"a": 6, "b": 7, "c": 9, "d": 9}
    assert v["SOSOS"] == {"a": 29, "b": 28, "c": 26, "d": 25}


def test_r_rank_swiss_top_score_achieved() -> None:
    """R-RANK-SWISS (A): with "top score = highest achieved" (5 here), TOTAL = points +
    SOS / 2.5 − rounds: a = 5 + 7/2.5 − 3 = 4.8."""
    v = tiebreak_values(EXAMPLE, ("TOTAL",), top_score="achieved")
    assert v["TOTAL"]["a"] == Fraction(24, 5)


def test_r_rank_swiss_total_ranks_before_points() -> None:
    """R-RANK-SWISS (A): total score decides before points — a strong schedule can lift a
    player with fewer points."""
    cs = [
        Competitor("x", "X", (Encounter(1, "o1", 2, "W"),)),
        Competitor("y", "Y", (Encounter(1, "o2", 0, "L"),), initial_points=1),
        Competitor("o1", "O1", (Encounter(1, "x", 0, "L"),)),
        Competitor("o2", "O2", (Encounter(1, "y", 2, "W"),), initial_points=10),
    ]
    by_points = [s.id for s in rank(cs, ("SOS",), rounds=1)]
    by_total = [s.id for s in rank(cs, ("TOTAL",), rounds=1)]
    assert by_points.index("x") < by_points.index("y")
    assert by_total.index("y") < by_total.index("x")


def test_direct_encounter_and_rating_and_warnings() -> None:
    """DE: among players still tied, points against each other; RATING; WARN fewer first."""
    cs = [
        Competitor("a", "A", (Encounter(1, "b", 0, "L"), Encounter(2, "z", 2, "W")), rating=1),
        Competitor("b", "B", (Encounter(1, "a", 2, "W"), Encounter(2, "y", 0, "L")), rating=2),
    ]
    assert [s.id for s in rank(cs, ("DE",))] == ["b", "a"]
    assert [s.id for s in rank(cs, ("RATING",))] == ["b", "a"]
    warned = [Competitor("a", "A", warnings=0), Competitor("b", "B", warnings=2)]
    assert [s.id for s in rank(warned, ("WARN",))] == ["a", "b"]


def test_r_playoff_lot_or_playoff_when_shared_places_are_not_allowed() -> None:
    """R-PLAYOFF: equal competitors share a place; when that is not allowed, a seeded lot
    orders them (same seed → same order), or they are marked for playoff games."""
    cs = [Competitor(c, c.upper()) for c in "abcdef"]
    shared = rank(cs, ("SOS",))
    assert {s.place for s in shared} == {1} and all(s.shared for s in shared)
    lot1 = rank(cs, ("SOS",), shared_places=False, seed=1)
    lot2 = rank(cs, ("SOS",), shared_places=False, seed=1)
    lot3 = rank(cs, ("SOS",), shared_places=False, seed=2)
    assert [s.place for s in lot1] == [1, 2, 3, 4, 5, 6] and all(s.by_lot for s in lot1)
    assert [s.id for s in lot1] == [s.id for s in lot2]
    assert [s.id for s in lot1] != [s.id for s in lot3]
    playoff = rank(cs, ("SOS",), shared_places=False, tie_resolution="playoff")
    assert all(s.playoff for s in playoff)


def test_every_code_has_chinese_and_english_names() -> None:
    for code in ("SB", "WARN", "SOS", "TOTAL", "CUSS", "SOS-1", "SOSOS", "DE", "RATING"):
        t = TIEBREAKS[code]
        assert t.zh and t.en
    assert TIEBREAKS["SB"].zh == "胜者小分" and TIEBREAKS["SOS"].zh == "对手分"
    assert TIEBREAKS["TOTAL"].zh == "总得分" and TIEBREAKS["CUSS"].zh == "累进分"


def test_r_rank_defaults_and_invalid_settings() -> None:
    """R-RANK-RR / R-RANK-SWISS defaults; invalid settings name their field."""
    assert EventSettings(system=System.ROUND_ROBIN).tiebreak_codes == ("SB", "WARN")
    assert EventSettings(system=System.SWISS, rounds=5).tiebreak_codes == ("SOS", "WARN")
    assert EventSettings(system=System.SWISS, rounds=5, swiss_method="A").tiebreak_codes == (
        "TOTAL",
        "WARN",
    )
    bad = [
        ({"system": System.SWISS}, "rounds"),
        ({"system": System.SWISS, "rounds": 5, "tiebreaks": ("XYZ",)}, "tiebreaks"),
        ({"system": System.SWISS, "rounds": 5, "tiebreaks": ("SOS", "TOTAL")}, "tiebreaks"),
        ({"system": System.SWISS, "rounds": 5, "points_win": 1, "points_draw": 1}, "points"),
        ({"system": System.SWISS, "rounds": 5, "bye_points": 3}, "bye_points"),
        ({"system": System.MATCH, "best_of": 4}, "best_of"),
        ({"system": System.MCMAHON, "rounds": 5}, "mcmahon_bar"),
        ({"system": System.SWISS_KNOCKOUT, "rounds": 5}, "elimination_losses"),
        ({"system": System.SWISS, "rounds": 5, "first_round": "random"}, "first_round"),
    ]
    for kwargs, fld in bad:
        with pytest.raises(InvalidSetting) as err:
            EventSettings(**kwargs)  # type: ignore[arg-type]
        assert err.value.field == fld
    with pytest.raises(InvalidSetting, match="known"):
        EventSettings.parse_tiebreaks("SOS,FOO")


def _team_match(a: str, b: str, *a_points: int) -> TeamMatch:
    """A finished match whose board ``i`` gives team A ``a_points[i]`` game points (2 a win, 1
    a draw, 0 a loss); A is black on the odd boards."""
    m = TeamMatch.pair(a, b, [f"{a}{i}" for i in a_points], [f"{b}{i}" for i in a_points])
    for board, pts in enumerate(a_points, start=1):
        a_color = B if board % 2 else W
        result = Result.draw() if pts == 1 else Result.win(a_color if pts else a_color.opponent,
                                                           Reason.RESIGNATION)  # fmt: skip
        m = m.record(board, result)
    return m


def test_r_rank_team_one_registry_ranks_teams_and_players() -> None:
    """R-RANK-TEAM, R-RANK-SWISS: one registry and one ``rank`` for both kinds. Teams are
    competitors whose encounters carry match points, game points and board points; GP, B1,
    B2, … rank them in any order, and the players' codes (SOS) work on match points.

    Four 2:2 draws, all on 2 match points and 4 game points. Board 1: A 2+2 = 4, B 0+1 = 1,
    C 1+0 = 1, D 1+1 = 2; board 2: A 0, B 2+1 = 3, C 1+2 = 3, D 2."""
    draws = [
        _team_match("A", "B", 2, 0),
        _team_match("C", "D", 1, 1),
        _team_match("A", "C", 2, 0),
        _team_match("B", "D", 1, 1),
    ]
    teams = team_competitors(draws)
    by_boards = rank(teams, ("GP", "B1", "B2"))
    assert [(s.place, s.id, s.points, s.tiebreaks["B1"], s.shared) for s in by_boards] == [
        (1, "A", 2, 4, False),
        (2, "D", 2, 2, False),
        (3, "B", 2, 1, True),
        (3, "C", 2, 1, True),
    ]
    assert {s.tiebreaks["GP"] for s in by_boards} == {4}
    by_board_two = rank(teams, ("B2", "B1"))
    assert [(s.place, s.id) for s in by_board_two] == [(1, "B"), (1, "C"), (3, "D"), (4, "A")]

    # Swiss, two rounds: A beats B, C beats D; A beats C, D beats B. MP A 4, C 2, D 2, B 0;
    # SOS (opponents' match points): A = B 0 + C 2 = 2, C = D 2 + A 4 = 6, D = C 2 + B 0 = 2,
    # B = A 4 + D 2 = 6.
    swiss = [
        _team_match("A", "B", 2, 2),
        _team_match("C", "D", 2, 2),
        _team_match("A", "C", 2, 2),
        _team_match("D", "B", 2, 2),
    ]
    table = rank(team_competitors(swiss), ("SOS",))
    assert [(s.id, s.points, s.tiebreaks["SOS"]) for s in table] == [
        ("A", 4, 2),
        ("C", 2, 6),
        ("D", 2, 2),
        ("B", 0, 6),
    ]
    # the players' SOS is the same code over their points (EXAMPLE above)
    assert tiebreak_values(EXAMPLE, ("SOS",))["SOS"] == {"a": 7, "b": 8, "c": 10, "d": 11}
    # the team event's table is this rank with its ranking's codes
    assert TeamRanking.SWISS_POINTS.codes(2) == ("MP", "SOS", "GP", "B1", "B2")
    assert [s.team for s in team_standings(swiss, ranking=TeamRanking.SWISS_POINTS)] == [
        s.id for s in table
    ]
    assert (tiebreak("B2").zh, tiebreak("B2").en, tiebreak("B2").board) == ("第2台", "Board 2", 2)
    assert (TIEBREAKS["MP"].zh, TIEBREAKS["GP"].zh) == ("场分", "局分")


def test_r_rank_team_an_unknown_code_is_refused_with_a_message() -> None:
    """R-RANK-TEAM: a code outside the registry (and ``B<n>`` without a board) is refused,
    naming the code, for teams as for players."""
    teams = team_competitors([_team_match("A", "B", 2, 0)])
    for code in ("XYZ", "B0", "B01", "B", "BGP1"):
        for competitors in (teams, EXAMPLE):
            with pytest.raises(InvalidSetting) as err:
                rank(competitors, ("GP", code))
            assert err.value.field == "tiebreaks"
            assert err.value.reason == Msg("unknown code %(code)s", code=repr(code))
        with pytest.raises(InvalidSetting):
            tiebreak(code)
