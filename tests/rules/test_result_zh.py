"""R-SCORE-4: the Chinese notation the results are shown in parses back to the same result —
what a referee copies from a page or a printed sheet is accepted as entered."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from weiqi.errors import InputError
from weiqi.rules.color import Color
from weiqi.rules.result import Reason, Result

COLORS = st.sampled_from([Color.BLACK, Color.WHITE])
RESULTS = st.one_of(
    st.sampled_from([Result.draw(), Result.both_lose(), Result.no_result(), Result.replay()]),
    st.builds(
        Result.win,
        COLORS,
        st.sampled_from([Reason.RESIGNATION, Reason.TIME, Reason.FORFEIT, Reason.RULING]),
    ),
    st.builds(Result.by_count, COLORS, st.integers(1, 2000).map(lambda q: Fraction(q, 4))),
)


@settings(max_examples=200)
@given(RESULTS)
def test_r_score_4_every_result_round_trips_through_chinese(result: Result) -> None:
    """R-SCORE-4: ``Result.parse(r.to_zh()) == r`` for every kind of result."""
    assert Result.parse(result.to_zh()) == result


@pytest.mark.parametrize(
    ("zh", "code"),
    [
        ("黑中盘胜", "B+R"),
        ("白胜1又1/4子", "W+2.5"),
        ("黑超时胜", "B+T"),
        ("白不战胜", "W+F"),
        ("黑胜(白判负)", "B+J"),
        ("白胜（黑判负）", "W+J"),
        ("黑胜3/4子", "B+1.5"),
    ],
)
def test_r_score_4_the_notations_qa_named(zh: str, code: str) -> None:
    """R-SCORE-4: the notations of the acceptance report."""
    assert Result.parse(zh).to_code() == code


@pytest.mark.parametrize(
    ("bad", "why"),
    [
        ("黑胜(黑判负)", "expected"),
        ("黑胜1/3子", "1/4 stone"),
        ("白胜0子", "positive"),
        ("黑胜1/0子", "zero"),
        ("白胜9999子", "at most"),
    ],
)
def test_r_score_4_bad_chinese_results_name_the_problem(bad: str, why: str) -> None:
    """R-SCORE-4: a wrong Chinese result is refused with its reason."""
    with pytest.raises(InputError, match=why):
        Result.parse(bad)
