"""R-SCORE-TEAM-1: game points per board, match points 2/1/0; colours; board prizes."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from weiqi.errors import InputError
from weiqi.league.match import (
    BoardColors,
    TeamMatch,
    board_colors,
    board_records,
    game_points,
    player_records,
)
from weiqi.rules.color import Color
from weiqi.rules.result import Reason, Result

B, W = Color.BLACK, Color.WHITE


def bwin() -> Result:
    return Result.win(B, Reason.RESIGNATION)


def wwin() -> Result:
    return Result.by_count(W, Fraction(1, 4))


def four_boards() -> TeamMatch:
    return TeamMatch.pair("A", "B", ("a1", "a2", "a3", "a4"), ("b1", "b2", "b3", "b4"))


def test_r_score_team_1_colors_alternate_by_board() -> None:
    """R-SCORE-TEAM-1 setting: team A black on the odd boards, white on the even ones."""
    m = four_boards()
    assert [g.a_color for g in m.games] == [B, W, B, W]
    assert [g.player_of(B) for g in m.games] == ["a1", "b2", "a3", "b4"]


def test_r_score_team_1_colors_by_nigiri_are_reproducible() -> None:
    """Colours by nigiri come from the seeded source: same seed, same colours, still alternating."""
    one = board_colors(4, BoardColors.NIGIRI, random.Random(7))
    assert one == board_colors(4, BoardColors.NIGIRI, random.Random(7))
    assert [c.opponent for c in one[:-1]] == list(one[1:])
    firsts = {board_colors(2, BoardColors.NIGIRI, random.Random(s))[0] for s in range(20)}
    assert firsts == {B, W}


def test_r_score_team_1_hand_checked_3_to_1() -> None:
    """R-SCORE-TEAM-1: A wins boards 1 and 3 (black), B wins board 2 (black), board 4 drawn:
    game points 5–3, match points 2–0."""
    m = four_boards().record(1, bwin()).record(2, bwin()).record(3, bwin()).record(4, Result.draw())
    assert m.board_points() == ((2, 0), (0, 2), (2, 0), (1, 1))
    s = m.score()
    assert (s.game_points_a, s.game_points_b, s.match_points_a, s.match_points_b) == (5, 3, 2, 0)
    assert s.winner == "A"


def test_r_score_team_1_equal_game_points_draw_the_match() -> None:
    """R-SCORE-TEAM-1: 2–2 on boards → 4–4 game points → match points 1–1."""
    m = four_boards().record(1, bwin()).record(2, bwin()).record(3, wwin()).record(4, wwin())
    s = m.score()
    assert (s.game_points_a, s.game_points_b, s.match_points_a, s.match_points_b) == (4, 4, 1, 1)
    assert s.winner is None and not s.decided_by_board_one


def test_r_score_team_1_both_lose_scores_nothing() -> None:
    """R-SCORE-TEAM-1: a board where both lose gives 0 to each; 3 boards to 2 with both-lose."""
    m = four_boards().record(1, bwin()).record(2, Result.both_lose())
    m = m.record(3, Result.both_lose()).record(4, Result.both_lose())
    s = m.score()
    assert (s.game_points_a, s.game_points_b, s.match_points_a) == (2, 0, 2)


def test_r_score_team_1_board_one_decides_a_drawn_match_setting() -> None:
    """Some leagues give a drawn match to the winner of board 1 (a setting)."""
    m = four_boards().record(1, wwin()).record(2, bwin()).record(3, bwin()).record(4, wwin())
    # board 1: B wins (white), board 2: B wins, board 3: A wins, board 4: A wins (white) → 4–4
    assert m.score().winner is None
    s = m.score(board_one_decides=True)
    assert (s.match_points_a, s.match_points_b, s.winner, s.decided_by_board_one) == (
        0,
        2,
        "B",
        True,
    )
    level = four_boards().record(1, Result.draw()).record(2, bwin()).record(3, bwin())
    level = level.record(4, Result.draw())
    assert level.score(board_one_decides=True).winner is None


def test_r_score_team_1_empty_board_is_a_forfeit() -> None:
    """A team without a lineup loses every board by forfeit; both empty → both lose."""
    m = TeamMatch.pair("A", "B", ("a1", "a2"), None)
    assert m.finished
    assert [g.result for g in m.games] == [
        Result.win(B, Reason.FORFEIT),
        Result.win(W, Reason.FORFEIT),
    ]
    assert m.score().match_points_a == 2
    empty = TeamMatch.pair("A", "B", None, None, boards=2)
    assert empty.score().game_points_a == empty.score().game_points_b == 0
    with pytest.raises(InputError, match="already a forfeit"):
        m.record(1, bwin())


def test_r_score_team_1_unfinished_or_replay_is_not_scored() -> None:
    """A board without a result, or a replay, cannot be scored yet."""
    m = four_boards().record(1, bwin())
    with pytest.raises(InputError, match="board 2: no result recorded yet"):
        m.score()
    with pytest.raises(InputError, match="replay"):
        game_points(Result.replay(), B)


def test_board_and_player_records_for_board_prizes() -> None:
    """Per-player and per-board records: who won most on each board."""
    m1 = (
        four_boards().record(1, bwin()).record(2, bwin()).record(3, bwin()).record(4, Result.draw())
    )
    m2 = TeamMatch.pair("C", "A", ("c1", "c2", "c3", "c4"), ("a1", "a2", "a5", "a4"))
    m2 = m2.record(1, wwin()).record(2, wwin()).record(3, bwin()).record(4, bwin())
    recs = player_records([m1, m2])
    assert (recs["a1"].games, recs["a1"].wins, recs["a1"].game_points) == (2, 2, 4)
    assert (recs["a4"].draws, recs["a4"].losses, recs["a4"].game_points) == (
        1,
        0,
        3,
    )  # W on board 4 of C–A, black wins
    assert recs["b2"].team == "B" and recs["a5"].boards == (3,)
    first = board_records([m1, m2], 1)
    assert [(r.player_id, r.game_points) for r in first] == [("a1", 4), ("b1", 0), ("c1", 0)]


results = st.sampled_from(
    [bwin(), wwin(), Result.draw(), Result.both_lose(), Result.win(W, Reason.TIME)]
)


@settings(max_examples=60, deadline=None)
@given(st.lists(results, min_size=1, max_size=6))
def test_r_score_team_1_points_are_consistent(board_results: list[Result]) -> None:
    """R-SCORE-TEAM-1 property: match points total 2 and follow the game points."""
    n = len(board_results)
    m = TeamMatch.pair("A", "B", [f"a{i}" for i in range(n)], [f"b{i}" for i in range(n)])
    for i, r in enumerate(board_results, start=1):
        m = m.record(i, r)
    s = m.score()
    assert s.match_points_a + s.match_points_b == 2
    assert s.game_points_a + s.game_points_b <= 2 * n
    assert (s.match_points_a > s.match_points_b) == (s.game_points_a > s.game_points_b)
