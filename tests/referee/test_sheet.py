"""Results entered from the result sheet of a physical board: a referee keeps the record beside
the board (no moves in it), enters the result or Black's count, records the infractions ruled
at the board, and confirms the signed sheet (R-SCORE-3, R-PEN-1, R-REF-7, R-END-4)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.referee.scripts import BLACK, CHIEF, REF, B, Clock, W, new_game
from weiqi.errors import Conflict, InvalidSetting, PermissionDenied
from weiqi.referee.events import (
    Confirm,
    InfractionRuled,
    RequestRecount,
    ResultCorrected,
    ResultEntered,
    SheetConfirmed,
)
from weiqi.referee.infractions import Infraction, InfractionKind
from weiqi.referee.record import GameRecord
from weiqi.referee.state import Phase
from weiqi.rules.color import Color
from weiqi.rules.result import Reason, Result

CHINESE = Fraction(15, 4)


def board19() -> tuple[GameRecord, Clock]:
    return new_game(size=19, komi=CHINESE)


def warn(
    kind: InfractionKind = InfractionKind.CLOCK_BEFORE_MOVE, who: Color = B
) -> InfractionRuled:
    return InfractionRuled(Infraction(kind, who))


def test_r_score_3_black_count_gives_the_result_with_komi() -> None:
    """R-SCORE-3: Black 185 wins by ¾, 184 loses by ¼, 184.5 wins by ¼."""
    for count, expected in [("185", "黑胜3/4子"), ("184", "白胜1/4子"), ("184.5", "黑胜1/4子")]:
        rec, clock = board19()
        rec.append(ResultEntered(black_count=Fraction(count)), REF, clock())
        assert rec.state.result is not None and rec.state.result.to_zh() == expected
        assert rec.state.phase is Phase.FINISHED and rec.state.from_sheet


def test_r_pen_1_a_warning_entered_after_the_count_turns_the_result() -> None:
    """R-PEN-1: Black won by ¼ stone on the count; a warning for Black ruled at the board and
    entered before confirmation makes it 白胜3/4子; a second warning loses at once."""
    rec, clock = board19()
    rec.append(ResultEntered(black_count=Fraction(369, 2)), REF, clock())
    assert rec.state.result == Result.by_count(B, Fraction(1, 4))
    rec.append(warn(), REF, clock())
    assert rec.state.result is not None and rec.state.result.to_zh() == "白胜3/4子"
    assert rec.state.warnings == (1, 0)
    rec.append(warn(InfractionKind.DOUBLE_MOVE), REF, clock())
    assert rec.state.result == Result.win(W, Reason.RULING)
    again = GameRecord.from_json(rec.to_json(), rec.head)
    assert again.state == rec.state


def test_r_pen_1_a_warning_before_the_count_is_one_stone_at_counting() -> None:
    rec, clock = board19()
    rec.append(warn(who=W), REF, clock())
    rec.append(ResultEntered(black_count=Fraction(184)), REF, clock())
    assert rec.state.result == Result.by_count(B, Fraction(3, 4))


def test_capture_errors_and_take_backs_need_no_recorded_board() -> None:
    """R-REF-2, R-REF-4 on a physical board: the record cannot check the points, the referee did."""
    rec, clock = board19()
    rec.append(warn(InfractionKind.TAKE_BACK, W), REF, clock())
    rec.append(
        InfractionRuled(Infraction(InfractionKind.CAPTURE_LIVE_STONES, B, points=(60,))),
        REF,
        clock(),
    )
    assert rec.state.warnings == (1, 1)


def test_r_ref_7_sheet_confirmed_is_final_and_only_the_chief_corrects() -> None:
    """R-REF-7, R-END-4: confirmed on the signed sheet, nobody but the chief referee changes it."""
    rec, clock = board19()
    rec.append(ResultEntered(result=Result.parse("B+R")), REF, clock())
    with pytest.raises(PermissionDenied):
        rec.append(SheetConfirmed(), BLACK, clock())
    rec.append(SheetConfirmed(), REF, clock())
    assert rec.state.phase is Phase.CONFIRMED
    with pytest.raises(Conflict, match="is confirmed and can no longer be changed"):
        rec.append(ResultEntered(result=Result.parse("W+R")), REF, clock())
    with pytest.raises(Conflict, match="is confirmed and can no longer be changed"):
        rec.append(warn(), REF, clock())
    with pytest.raises(PermissionDenied):
        rec.append(ResultCorrected(Result.parse("W+R"), "wrong sheet"), REF, clock())
    rec.append(ResultCorrected(Result.parse("W+R"), "wrong sheet"), CHIEF, clock())
    assert rec.state.result == Result.parse("W+R")
    assert [str(h.reason) for h in rec.history()][-1] == "corrected: wrong sheet"


def test_r_ref_7_a_player_asks_for_a_recount_before_confirmation() -> None:
    rec, clock = board19()
    rec.append(ResultEntered(black_count=Fraction(185)), REF, clock())
    rec.append(Confirm(), BLACK, clock())
    rec.append(RequestRecount(), BLACK, clock())
    assert rec.state.phase is Phase.COUNTING and rec.state.result is None
    rec.append(ResultEntered(black_count=Fraction(184)), REF, clock())
    assert rec.state.result == Result.by_count(W, Fraction(1, 4))
    assert rec.state.confirmations == ()


def test_an_entry_names_the_result_or_the_count() -> None:
    rec, clock = board19()
    with pytest.raises(InvalidSetting, match="either"):
        rec.append(ResultEntered(), REF, clock())
    with pytest.raises(InvalidSetting, match="black count"):
        rec.append(ResultEntered(black_count=Fraction(400)), REF, clock())
    with pytest.raises(PermissionDenied):
        rec.append(ResultEntered(black_count=Fraction(180)), BLACK, clock())


@settings(max_examples=40, deadline=None)
@given(
    halves=st.integers(min_value=0, max_value=722),
    black_warned=st.booleans(),
    white_warned=st.booleans(),
)
def test_r_pen_1_warnings_before_or_after_the_count_give_the_same_result(
    halves: int, black_warned: bool, white_warned: bool
) -> None:
    """R-PEN-1: a warning is one stone at counting whether the referee enters it before the
    count or after it (before confirmation)."""
    count = Fraction(halves, 2)
    warnings = [c for c, on in ((B, black_warned), (W, white_warned)) if on]
    first, clock = board19()
    for who in warnings:
        first.append(warn(who=who), REF, clock())
    first.append(ResultEntered(black_count=count), REF, clock())
    later, clock = board19()
    later.append(ResultEntered(black_count=count), REF, clock())
    for who in warnings:
        later.append(warn(who=who), REF, clock())
    assert first.state.result == later.state.result
    threshold = Fraction(361, 2) + CHINESE + black_warned - white_warned
    assert first.state.result == Result.from_counts(count - threshold)
