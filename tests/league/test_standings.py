"""R-RANK-TEAM: match points, game points, board 1, board 2, …; shared places; team Swiss."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Literal

from weiqi.league.match import TeamMatch
from weiqi.league.standings import TeamRanking, team_competitors, team_rows, team_standings
from weiqi.rules.color import Color
from weiqi.rules.result import Reason, Result
from weiqi.tournament.standings import Value, function, tiebreak, tiebreak_values

BW = Result.win(Color.BLACK, Reason.RESIGNATION)
WW = Result.win(Color.WHITE, Reason.RESIGNATION)
D = Result.draw()


def match(a: str, b: str, *results: Result) -> TeamMatch:
    """A match whose boards end with ``results`` (board 1 first; A black on odd boards)."""
    n = len(results)
    m = TeamMatch.pair(
        a, b, [f"{a}{i}" for i in range(1, n + 1)], [f"{b}{i}" for i in range(1, n + 1)]
    )
    for i, r in enumerate(results, start=1):
        m = m.record(i, r)
    return m


def values(
    code: str,
    matches: list[TeamMatch],
    teams: Iterable[str] = (),
    top_score: int | Literal["achieved"] | None = None,
    rounds: int | None = None,
) -> dict[str, Value]:
    """The registry's ``code`` for every team of ``matches`` (and ``teams``)."""
    competitors = team_competitors(matches, teams)
    return tiebreak_values(competitors, (code,), top_score=top_score, rounds=rounds)[code]


def a_wins(board: int) -> Result:
    return BW if board % 2 else WW


def b_wins(board: int) -> Result:
    return WW if board % 2 else BW


def test_r_rank_team_match_points_first_then_game_points() -> None:
    """R-RANK-TEAM: P beats Q 3–1 and R 4–0 on boards; Q beats R 2–1–(draw); hand-checked."""
    pq = match("P", "Q", a_wins(1), a_wins(2), a_wins(3), b_wins(4))
    pr = match("P", "R", a_wins(1), a_wins(2), a_wins(3), a_wins(4))
    qr = match("Q", "R", a_wins(1), a_wins(2), b_wins(3), D)
    table = team_standings([pq, pr, qr])
    rows = [(s.place, s.team, s.row.match_points, s.row.game_points, s.row.won) for s in table]
    assert rows == [(1, "P", 4, 14, 2), (2, "Q", 2, 7, 1), (3, "R", 0, 3, 0)]


def test_r_rank_team_game_points_break_match_point_ties() -> None:
    """R-RANK-TEAM: three teams each win once; game points order them."""
    xy = match("X", "Y", a_wins(1), a_wins(2), a_wins(3), a_wins(4))  # X 8–0
    yz = match("Y", "Z", a_wins(1), a_wins(2), a_wins(3), b_wins(4))  # Y 6–2
    zx = match("Z", "X", a_wins(1), a_wins(2), a_wins(3), b_wins(4))  # Z 6–2
    table = team_standings([xy, yz, zx])
    assert [(s.team, s.row.match_points, s.row.game_points) for s in table] == [
        ("X", 2, 10),
        ("Z", 2, 8),
        ("Y", 2, 6),
    ]
    assert [s.place for s in table] == [1, 2, 3]


def test_r_rank_team_board_one_then_board_two() -> None:
    """R-RANK-TEAM: three 4–4 draws leave K, L, M level on match and game points; board 1's game
    points order them (M 4, K 2, L 0)."""
    kl = match("K", "L", a_wins(1), a_wins(2), b_wins(3), b_wins(4))
    km = match("K", "M", b_wins(1), b_wins(2), a_wins(3), a_wins(4))
    lm = match("L", "M", b_wins(1), a_wins(2), b_wins(3), a_wins(4))
    rows = team_rows([kl, km, lm])
    assert rows["K"].board_points == [2, 2, 2, 2]
    assert rows["L"].board_points == [0, 2, 2, 4]
    assert rows["M"].board_points == [4, 2, 2, 0]
    assert {(r.match_points, r.game_points) for r in rows.values()} == {(2, 8)}
    table = team_standings([kl, km, lm])
    assert [(s.place, s.team) for s in table] == [(1, "M"), (2, "K"), (3, "L")]


def test_r_rank_team_later_boards_break_what_board_one_leaves() -> None:
    """R-RANK-TEAM: level on boards 1 and 2, S and T are split by board 3."""
    st = match("S", "T", a_wins(1), b_wins(2), a_wins(3), b_wins(4))
    ts = match("T", "S", a_wins(1), b_wins(2), b_wins(3), a_wins(4))
    rows = team_rows([st, ts])
    assert rows["S"].board_points == [2, 2, 4, 0]
    assert rows["T"].board_points == [2, 2, 0, 4]
    table = team_standings([st, ts])
    assert [(s.place, s.team) for s in table] == [(1, "S"), (2, "T")]
    assert table[0].keys == tuple(Fraction(k) for k in (2, 8, 2, 2, 4, 0))


def test_r_rank_team_all_equal_share_the_place() -> None:
    """R-RANK-TEAM: all keys equal → a shared place; the next place is skipped."""
    ab = match("A", "B", a_wins(1), b_wins(2))  # 2–2 draw, A board 1, B board 2
    ba = match("B", "A", a_wins(1), b_wins(2))  # return: B board 1, A board 2
    cd = match("C", "D", a_wins(1), a_wins(2))
    table = team_standings([ab, ba, cd], teams=["A", "B", "C", "D"])
    # A and B: two draws, 2 match points, 4 game points, [2, 2] by board; C: one win, the same.
    assert [(s.place, s.team) for s in table] == [(1, "A"), (1, "B"), (1, "C"), (4, "D")]


def test_r_rank_team_swiss_total_score() -> None:
    """R-RANK-TEAM team Swiss, method A (R-RANK-SWISS A): total score on match points.

    Two rounds, top score 4. A beat B then C; B beat D; C beat D; D lost both.
    MP: A 4, B 2, C 2, D 0. SOS: A 2+2=4, B 4+0=4, C 0+4... hand-checked below.
    """
    r1 = [match("A", "B", a_wins(1), a_wins(2)), match("C", "D", a_wins(1), a_wins(2))]
    r2 = [match("A", "C", a_wins(1), a_wins(2)), match("B", "D", a_wins(1), a_wins(2))]
    # SOS: A meets B (2) and C (2) = 4; B meets A (4), D (0) = 4; C meets D, A = 4; D meets C, B = 4
    assert values("SOS", r1 + r2) == {t: Fraction(4) for t in "ABCD"}
    # total = MP + (SOS / 2 − 2) = MP + 0
    assert values("TOTAL", r1 + r2, top_score=4) == {"A": 4, "B": 2, "C": 2, "D": 0}
    table = team_standings(r1 + r2, ranking=TeamRanking.SWISS_TOTAL_SCORE, top_score=4)
    assert [(s.place, s.team) for s in table] == [(1, "A"), (2, "B"), (2, "C"), (4, "D")]


def test_r_rank_team_swiss_points_then_opponents_points() -> None:
    """R-RANK-TEAM team Swiss, method B: match points, then opponents' match points (SOS)."""
    r1 = [match("A", "B", a_wins(1), a_wins(2)), match("C", "D", a_wins(1), a_wins(2))]
    r2 = [match("A", "C", a_wins(1), a_wins(2)), match("D", "B", a_wins(1), a_wins(2))]
    # MP: A 4, B 0, C 2, D 2. SOS: C = D(2) + A(4) = 6, D = C(2) + B(0) = 2.
    table = team_standings(r1 + r2, ranking=TeamRanking.SWISS_POINTS)
    assert [s.team for s in table] == ["A", "C", "D", "B"]
    sos = values("SOS", r1 + r2)
    assert (sos["C"], sos["D"]) == (Fraction(6), Fraction(2))


def test_tie_break_functions_are_named_by_code() -> None:
    codes = ("MP", "GP", "B1", "B3", "SOS", "TOTAL")
    assert [tiebreak(c).code for c in codes] == list(codes)
    assert all(callable(function(c)) for c in codes)


def test_unfinished_matches_do_not_count() -> None:
    m = TeamMatch.pair("A", "B", ("a1", "a2"), ("b1", "b2")).record(1, BW)
    table = team_standings([m], teams=["A", "B"])
    assert all(s.row.played == 0 for s in table) and [s.place for s in table] == [1, 1]


def test_r_rank_team_swiss_top_score_full_or_achieved() -> None:
    """R-RANK-SWISS A on teams: the top score is the full score (2 × rounds) unless the event
    takes the highest achieved. One round: A beat B, C drew D."""
    r1 = [match("A", "B", a_wins(1), a_wins(2)), match("C", "D", a_wins(1), b_wins(2))]
    # full: top 2 → A = 2 + (0 / 1 − 1) = 1; C = 1 + (1 / 1 − 1) = 1; B = 0 + (2 − 1) = 1
    assert values("TOTAL", r1) == {"A": 1, "B": 1, "C": 1, "D": 1}
    # achieved is also 2 here; with 2 given explicitly the same
    assert values("TOTAL", r1, top_score=2)["A"] == values("TOTAL", r1, top_score="achieved")["A"]
    assert values("TOTAL", r1, top_score=2)["A"] == 1
    # a top score of 4 (two rounds planned): A = 2 + (0 / 2 − 1) = 1, B = 0 + (2 / 2 − 1) = 0
    four = values("TOTAL", r1, top_score=4)
    assert (four["A"], four["B"]) == (Fraction(1), Fraction(0))


def test_r_rank_team_swiss_total_subtracts_the_rounds_not_a_teams_own_matches() -> None:
    """R-RANK-TEAM / Art. 27.2(2): 团体总得分 "计算办法与个人积分编排制比赛相同" —
    总得分=个人积分+(对手积分总和/(最高积分/2)-轮次): 轮次 is the same for every team.

    Two rounds. Round 1: A beat B, C beat D. Round 2: A beat C; B withdrew, so D plays nobody
    and B's row has one match. Top score 4 (2 × 2 rounds).
    B: MP 0, SOS = A's 4 → 0 + (4 / 2 − 2) = 0 (with B's own 1 match it would wrongly be 1).
    """
    r1 = [match("A", "B", a_wins(1), a_wins(2)), match("C", "D", a_wins(1), a_wins(2))]
    r2 = [match("A", "C", a_wins(1), a_wins(2))]
    rows = team_rows(r1 + r2, teams="ABCD")
    assert rows["B"].played == 1 and rows["A"].played == 2
    total = values("TOTAL", r1 + r2, teams="ABCD")
    assert total["B"] == 0
    assert values("TOTAL", r1 + r2, teams="ABCD", rounds=2)["D"] == 0 + (Fraction(2) / 2 - 2)
    # A: 4 + ((0 + 2) / 2 − 2) = 3
    assert total["A"] == 3
    # an explicit round count wins over the most matches played
    assert values("TOTAL", r1 + r2, rounds=3)["A"] == 4 + (Fraction(2) / 3 - 3)


def test_r_rank_team_swiss_by_total_points_literal_reading_has_no_sos() -> None:
    """Art. 27.2(2): "根据总得分或总积分的高低区分名次……若相同则依循环赛顺序区分名次" — by total
    points, ties in the round-robin order (局分, board 1, …), no 对手分:
    the ``round_robin`` ranking.

    C and D both have 2 MP and 4 GP and 2 on board 1: the literal reading shares their place,
    the SOS reading (``swiss_points``) puts C (SOS 6) above D (SOS 2)."""
    r1 = [match("A", "B", a_wins(1), a_wins(2)), match("C", "D", a_wins(1), a_wins(2))]
    r2 = [match("A", "C", a_wins(1), a_wins(2)), match("D", "B", a_wins(1), a_wins(2))]
    literal = team_standings(r1 + r2, ranking=TeamRanking.ROUND_ROBIN)
    assert [(s.place, s.team) for s in literal] == [(1, "A"), (2, "C"), (2, "D"), (4, "B")]
    with_sos = team_standings(r1 + r2, ranking=TeamRanking.SWISS_POINTS)
    assert [(s.place, s.team) for s in with_sos] == [(1, "A"), (2, "C"), (3, "D"), (4, "B")]
