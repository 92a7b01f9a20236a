"""The result value and its notations (R-SCORE-3, R-SCORE-4)."""

from fractions import Fraction

import pytest

from weiqi.errors import InputError
from weiqi.rules.color import Color
from weiqi.rules.result import Outcome, Reason, Result


@pytest.mark.parametrize(
    ("margin", "zh", "sgf"),
    [
        (Fraction(3, 4), "黑胜3/4子", "B+1.5"),
        (Fraction(1, 4), "黑胜1/4子", "B+0.5"),
        (Fraction(5, 4), "黑胜1又1/4子", "B+2.5"),
        (Fraction(2), "黑胜2子", "B+4"),
        (Fraction(1, 2), "黑胜1/2子", "B+1"),
    ],
)
def test_r_score_4_count_notations(margin: Fraction, zh: str, sgf: str) -> None:
    """R-SCORE-4: stones with quarter fractions in Chinese, points (×2) in SGF."""
    r = Result.by_count(Color.BLACK, margin)
    assert r.to_zh() == zh
    assert r.to_sgf() == sgf
    assert Result.parse(sgf) == r


def test_r_score_3_examples_from_the_rules() -> None:
    """R-SCORE-3: with komi 3¾ Black needs more than 184.25: 185 wins by ¾, 184 loses by ¼,
    184.5 wins by ¼."""
    threshold = Fraction(361, 2) + Fraction(15, 4)
    assert Result.from_counts(Fraction(185) - threshold).to_zh() == "黑胜3/4子"
    assert Result.from_counts(Fraction(184) - threshold).to_zh() == "白胜1/4子"
    assert Result.from_counts(Fraction(369, 2) - threshold).to_zh() == "黑胜1/4子"


@pytest.mark.parametrize(
    ("code", "zh", "sgf", "en"),
    [
        ("B+R", "黑中盘胜", "B+R", "Black wins by resignation"),
        ("W+T", "白超时胜", "W+T", "White wins on time"),
        ("W+F", "白不战胜", "W+F", "White wins by forfeit"),
        ("B+J", "黑胜(白判负)", "B+F", "Black wins by ruling (White loses)"),
        ("0", "和棋", "0", "Draw"),
        ("Void", "无胜负", "Void", "No result"),
        ("BL", "双方均负", "Void", "Both lose"),
        ("Replay", "重赛", "Void", "Replay"),
    ],
)
def test_r_score_4_other_results(code: str, zh: str, sgf: str, en: str) -> None:
    """R-SCORE-4 / R-END-1: every way a game ends renders in Chinese, SGF and English, and our
    own code round-trips."""
    r = Result.parse(code)
    assert (r.to_zh(), r.to_sgf(), r.to_en()) == (zh, sgf, en)
    assert Result.parse(r.to_code()) == r


def test_english_margin_in_stones() -> None:
    assert Result.parse("W+2.5").to_en() == "White wins by 1 1/4 stones"
    assert Result.parse("B+1.5").to_en() == "Black wins by 3/4 stone"


def test_long_sgf_forms() -> None:
    assert Result.parse("W+Resign").reason is Reason.RESIGNATION
    assert Result.parse("b+time") == Result.win(Color.BLACK, Reason.TIME)
    assert Result.parse("Draw").outcome is Outcome.DRAW


@pytest.mark.parametrize("bad", ["", "X+1", "B+abc", "B+0", "B+-1", "B+0.3"])
def test_bad_results_name_the_problem(bad: str) -> None:
    with pytest.raises(InputError) as info:
        Result.parse(bad)
    assert repr(bad.strip()) in info.value.message


def test_invariants_are_enforced() -> None:
    with pytest.raises(ValueError):
        Result(Outcome.WIN)
    with pytest.raises(ValueError):
        Result(Outcome.DRAW, Color.BLACK)
    with pytest.raises(ValueError):
        Result.win(Color.BLACK, Reason.COUNT)


def test_a_win_whose_reason_is_not_said() -> None:
    """Result files of other programs (OpenGotha, EGF) say who won, not how: SGF's ``B+``."""
    for text in ("B+", "黑胜"):
        result = Result.parse(text)
        assert result.winner is Color.BLACK and result.reason is Reason.UNSPECIFIED
        assert result.to_code() == result.to_sgf() == "B+"
    assert Result.parse("W+").to_zh() == "白胜" and Result.parse("W+").to_en() == "White wins"
