"""Counting and results (R-SCORE-1…5, R-HCP-1/2, R-PEN-1, R-END-4 counting part)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from weiqi.errors import InputError
from weiqi.rules.board import Board, neighbour_table
from weiqi.rules.color import Color
from weiqi.rules.counting import count
from weiqi.rules.playout import random_game
from weiqi.rules.ruleset import Ruleset
from weiqi.rules.vertex import parse_vertex

B, W = Color.BLACK, Color.WHITE


def split_position(size: int, black_points: int, dame: int = 0) -> bytes:
    """A finished position: Black's area is the first ``black_points`` points (row by row from
    A1), then ``dame`` neutral points, then White's area; walls of stones along the borders,
    empty territory inside."""
    n = size * size
    area = ["B"] * black_points + ["D"] * dame + ["W"] * (n - black_points - dame)
    nbrs = neighbour_table(size)
    stones = bytearray(n)
    for p in range(n):
        if area[p] == "D":
            continue
        if any(area[q] != area[p] for q in nbrs[p]):
            stones[p] = 1 if area[p] == "B" else 2
    return bytes(stones)


@pytest.mark.parametrize(
    ("black_area", "dame", "black", "white", "zh", "sgf"),
    [
        (185, 0, Fraction(185), Fraction(176), "黑胜3/4子", "B+1.5"),
        (184, 0, Fraction(184), Fraction(177), "白胜1/4子", "W+0.5"),
        (184, 1, Fraction(369, 2), Fraction(353, 2), "黑胜1/4子", "B+0.5"),
    ],
)
def test_r_score_3_worked_examples(
    black_area: int, dame: int, black: Fraction, white: Fraction, zh: str, sgf: str
) -> None:
    """R-SCORE-3: komi 3¾, Black wins above 184.25: Black 185 → 黑胜3/4子; Black 184 (White 177)
    → 白胜1/4子; Black 184.5 → 黑胜1/4子."""
    c = count(split_position(19, black_area, dame), set(), Ruleset.chinese())
    assert (c.black, c.white) == (black, white)
    assert c.threshold == Fraction(737, 4)  # 184¼
    assert c.result.to_zh() == zh and c.result.to_sgf() == sgf


def test_r_score_1_dead_stones_removed_territory_counted() -> None:
    """R-SCORE-1, R-END-3 (counting part): the dead stones the players agreed on come off, each
    side counts live stones + its surrounded empty points; naming one stone of a dead group
    takes off the whole group."""
    b = Board.from_diagram(
        """
        . . X O .
        O O X O .
        . X X O O
        X X O O .
        . X O . .
        """,
    )
    rules = Ruleset.no_komi(size=5)
    alive = count(b, set(), rules)
    assert alive.shared == 3  # A5, B5, A3 touch the white stones while they live
    dead = count(b, {parse_vertex("A4", 5)}, rules)  # A4 and B4 are dead in Black's area
    assert (dead.dead_white, dead.dead_black) == (2, 0)
    assert dead.black == 13 and dead.white == 12
    assert dead.black_stones == 7 and dead.black_territory == 6
    assert dead.result.to_zh() == "黑胜1/2子"
    with pytest.raises(InputError, match="holds no stone"):
        count(b, {parse_vertex("A5", 5)}, rules)


def test_r_score_1_r_end_4_dame_and_seki_liberties_count_half() -> None:
    """R-SCORE-1, R-END-4: empty points touching both colours (dame, seki liberties, neutral
    points left open) count half to each side."""
    b = Board.from_diagram(
        """
        . X . O .
        . X . O .
        . X . O .
        . X . O .
        . X . O .
        """,
    )
    c = count(b, set(), Ruleset.no_komi(size=5))
    assert c.shared == 5
    assert c.black == c.white == Fraction(25, 2)
    assert c.result.to_zh() == "和棋"
    assert set(c.ownership[2::5]) == {3}


def test_r_score_2_par_and_draw_at_par() -> None:
    """R-SCORE-2: par is n²/2 (180.5 on 19×19); without compensation a count of exactly par
    draws, more wins."""
    assert Ruleset.chinese().par == Fraction(361, 2)
    assert Ruleset.chinese(13).par == Fraction(169, 2)
    rules = Ruleset.no_komi()
    at_par = count(split_position(19, 180, 1), set(), rules)
    assert at_par.black == Fraction(361, 2) and at_par.result.to_zh() == "和棋"
    assert count(split_position(19, 181), set(), rules).result.to_zh() == "黑胜1/2子"
    assert count(split_position(19, 180), set(), rules).result.to_zh() == "白胜1/2子"


def test_r_score_4_results_in_stones_and_points() -> None:
    """R-SCORE-4: a margin of 1¼ stones is 白胜1又1/4子 and W+2.5 in SGF."""
    c = count(split_position(19, 183), set(), Ruleset.chinese().with_(komi=Fraction(3, 4)))
    # Black 183 − (180.5 + ¾) = 1¾ stones
    assert c.result.to_zh() == "黑胜1又3/4子" and c.result.to_sgf() == "B+3.5"
    c = count(split_position(19, 182), set(), Ruleset.chinese())
    assert c.result.to_zh() == "白胜2又1/4子" and c.result.to_sgf() == "W+4.5"
    c = count(split_position(9, 41), set(), Ruleset.chinese(9).with_(komi=Fraction(7, 4)))
    assert c.result.to_zh() == "白胜1又1/4子" and c.result.to_sgf() == "W+2.5"


@settings(max_examples=25, deadline=None)
@given(size=st.integers(2, 9), seed=st.integers(0, 2**32))
def test_r_score_5_one_side_determines_the_other(size: int, seed: int) -> None:
    """R-SCORE-5: the two counts always add up to the number of points, so counting one side
    is enough."""
    board = Board(size)
    random_game(size, seed, max_moves=size * size * 2, board=board)
    c = count(board, set(), Ruleset.chinese(size))
    assert c.black + c.white == size * size
    assert c.black_stones + c.black_territory + c.white_stones + c.white_territory + c.shared == (
        size * size
    )


def test_r_hcp_1_no_komi_game() -> None:
    """R-HCP-1: 让先 has komi 0: exactly par is a draw."""
    c = count(split_position(19, 180, 1), set(), Ruleset.no_komi())
    assert c.komi == 0 and c.result.to_zh() == "和棋"


def test_r_hcp_2_handicap_compensation() -> None:
    """R-HCP-2: with N handicap stones Black gives back N/2 stones: with 4 stones Black needs
    more than 182.5."""
    rules = Ruleset.handicap_game(4)
    assert count(split_position(19, 182, 1), set(), rules).result.to_zh() == "和棋"
    c = count(split_position(19, 183), set(), rules)
    assert c.handicap_compensation == 2 and c.result.to_zh() == "黑胜1/2子"
    c = count(split_position(19, 183), set(), Ruleset.handicap_game(9))
    assert c.threshold == Fraction(185) and c.result.to_zh() == "白胜2子"


def test_r_pen_1_each_warning_costs_one_stone() -> None:
    """R-PEN-1: each warning costs the warned player one stone at counting, on top of komi."""
    position = split_position(19, 185)
    rules = Ruleset.chinese()
    assert count(position, set(), rules, {B: 1}).result.to_zh() == "白胜1/4子"
    assert count(position, set(), rules, {W: 1}).result.to_zh() == "黑胜1又3/4子"
    assert count(position, set(), rules, {B: 1, W: 1}).result.to_zh() == "黑胜3/4子"
    with pytest.raises(InputError):
        count(position, set(), rules, {B: -1})


def test_count_json_shape() -> None:
    """The ``weiqi score --json`` object."""
    c = count(split_position(19, 185), set(), Ruleset.chinese())
    assert c.to_json() == {
        "black": 185.0,
        "white": 176.0,
        "shared": 0,
        "komi": 3.75,
        "handicap_compensation": 0.0,
        "penalties": {"B": 0, "W": 0},
        "winner": "B",
        "margin": 0.75,
        "result": "B+1.5",
        "result_zh": "黑胜3/4子",
    }


def test_count_rejects_a_position_of_the_wrong_size() -> None:
    with pytest.raises(InputError):
        count(bytes(80), set(), Ruleset.chinese(9))
    with pytest.raises(InputError):
        count(Board(9), set(), Ruleset.chinese(13))
