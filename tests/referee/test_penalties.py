"""Infractions and penalties: R-REF-1, R-REF-2, R-REF-4, R-REF-5, R-REF-6, R-TIME-7, R-PEN-1."""

from __future__ import annotations

from fractions import Fraction

import pytest

from weiqi.clock.control import TimeControl
from weiqi.errors import Conflict, IllegalMove, InvalidSetting, PermissionDenied
from weiqi.referee.events import ClockAction, ClockEvent, InfractionRuled, Move
from weiqi.referee.infractions import Infraction, InfractionKind, Penalty
from weiqi.referee.state import Phase
from weiqi.rules.result import Outcome, Reason, Result
from weiqi.rules.ruleset import IllegalMoves

from .scripts import (
    BLACK,
    CHIEF,
    KO,
    REF,
    WALLS,
    WHITE,
    B,
    W,
    new_game,
    pass_and_count,
    play,
    pt,
)


def warn(kind: InfractionKind, offender=B, **kw: object) -> InfractionRuled:
    return InfractionRuled(Infraction(kind, offender, reported_by=WHITE, **kw))  # type: ignore[arg-type]


def test_r_pen_1_one_warning_turns_a_quarter_stone_win_into_a_loss() -> None:
    """R-PEN-1: Black wins on the board by ¼ stone; with one warning Black loses by ¾."""
    rec, clock = new_game()
    play(rec, clock, WALLS)
    pass_and_count(rec, clock)
    assert rec.state.result == Result.by_count(B, Fraction(1, 4))

    rec, clock = new_game()
    play(rec, clock, WALLS[:4])
    rec.append(warn(InfractionKind.CLOCK_BEFORE_MOVE), REF, clock())
    play(rec, clock, WALLS[4:])
    pass_and_count(rec, clock)
    assert rec.state.warnings == (1, 0)
    assert rec.state.result == Result.by_count(W, Fraction(3, 4))
    assert rec.state.result.to_zh() == "白胜3/4子"


def test_r_pen_1_a_warning_of_white_is_a_stone_for_black() -> None:
    """R-PEN-1: White's warning costs White one stone: Black wins by 1¼."""
    rec, clock = new_game()
    play(rec, clock, WALLS)
    rec.append(warn(InfractionKind.CLOCK_BEFORE_MOVE, offender=W), REF, clock())
    pass_and_count(rec, clock)
    assert rec.state.result == Result.by_count(B, Fraction(5, 4))


def test_r_pen_1_second_warning_loses_the_game_at_once() -> None:
    """R-PEN-1: the second warning in one game ends it at once: a loss by ruling."""
    rec, clock = new_game()
    play(rec, clock, ["C3"])
    rec.append(warn(InfractionKind.TAKE_BACK, points=(pt("D4"),)), REF, clock())
    assert rec.state.phase is Phase.PLAYING and rec.state.warnings == (1, 0)
    play(rec, clock, ["D3"])
    rec.append(warn(InfractionKind.CLOCK_BEFORE_MOVE), REF, clock())
    assert rec.state.phase is Phase.FINISHED
    assert rec.state.result == Result.win(W, Reason.RULING)
    assert rec.state.result.to_zh() == "白胜(黑判负)"
    with pytest.raises(Conflict):
        rec.play(B, "C2", clock())


def test_r_ref_1_double_move_in_strict_mode_is_void_with_a_warning() -> None:
    """R-REF-1: a second move without the opponent passing is void + warning (strict mode);
    the turn is not forfeited: it was not the player's turn anyway."""
    rec, clock = new_game(mode=IllegalMoves.STRICT)
    play(rec, clock, ["C3"])
    before = rec.state.stones
    entry = rec.append(Move(pt("C4")), BLACK, clock())
    s = rec.state
    assert s.stones == before and s.to_move is W and s.move_number == 1
    assert [v.reason for v in s.void_moves] == ["double_move"]
    assert s.void_moves[0].seq == entry.seq
    assert s.forfeited_turns == ()
    assert s.warnings == (1, 0)
    assert s.infractions[-1].ruled_by is None and s.infractions[-1].penalty is Penalty.WARNING


def test_r_ref_1_double_move_online_is_refused_and_nothing_changes() -> None:
    """R-REF-1 (online play mode): the move out of turn is refused, nothing is recorded."""
    rec, clock = new_game()
    play(rec, clock, ["C3"])
    before, length = rec.state, len(rec)
    with pytest.raises(IllegalMove, match="wrong-turn"):
        rec.append(Move(pt("C4")), BLACK, clock())
    assert rec.state == before and len(rec) == length


def test_r_ref_2_take_back_puts_the_stone_back_with_a_warning() -> None:
    """R-REF-2: a take-back claimed before the opponent's next move: the stone stays where it
    was first placed, plus a warning; the point it was moved to is recorded."""
    rec, clock = new_game()
    play(rec, clock, ["C3"])
    before = rec.state.stones
    rec.append(warn(InfractionKind.TAKE_BACK, points=(pt("D4"),)), REF, clock())
    s = rec.state
    assert s.stones == before and s.color_at(pt("C3")) is B and s.color_at(pt("D4")) is None
    assert s.warnings == (1, 0) and s.to_move is W
    assert s.infractions[-1].infraction.reported_by == WHITE


def test_r_ref_2_take_back_claimed_too_late_is_refused() -> None:
    """R-REF-2: once the opponent has moved, the claim is no longer valid."""
    rec, clock = new_game()
    play(rec, clock, ["C3", "D3"])
    with pytest.raises(Conflict, match="before the opponent's next move"):
        rec.append(warn(InfractionKind.TAKE_BACK), REF, clock())


def test_r_ref_4_capture_errors_warn_and_are_corrected_against_the_record() -> None:
    """R-REF-4: removing live stones or leaving dead ones: warning; the record's board (kept
    right by the rules) is what the physical board is corrected to."""
    rec, clock = new_game()
    play(rec, clock, KO)  # White's A1 captured B1
    rec.append(warn(InfractionKind.DEAD_STONES_LEFT, offender=W, points=(pt("B1"),)), REF, clock())
    assert rec.state.warnings == (0, 1) and rec.state.color_at(pt("B1")) is None
    rec.append(
        warn(InfractionKind.CAPTURE_LIVE_STONES, offender=W, points=(pt("A2"),)), REF, clock()
    )
    assert rec.state.phase is Phase.FINISHED  # the second warning
    rec, clock = new_game()
    play(rec, clock, KO)
    with pytest.raises(InvalidSetting, match="A2 should hold no stone"):
        rec.append(
            warn(InfractionKind.DEAD_STONES_LEFT, offender=W, points=(pt("A2"),)), REF, clock()
        )
    with pytest.raises(InvalidSetting, match="name the stones"):
        warn(InfractionKind.CAPTURE_LIVE_STONES)


def test_r_ref_5_ko_without_threat_in_strict_mode_is_void_forfeits_the_turn_and_warns() -> None:
    """R-REF-5: taking the ko back at once is void, the turn is forfeited (a pass) + warning."""
    rec, clock = new_game(mode=IllegalMoves.STRICT)
    play(rec, clock, KO)
    before = rec.state
    rec.append(Move(pt("B1")), BLACK, clock())
    s = rec.state
    assert s.stones == before.stones
    assert s.to_move is W and s.move_number == before.move_number + 1
    assert s.passes_in_a_row == 1
    assert [v.reason for v in s.void_moves] == ["ko_without_threat"]
    assert [f.color for f in s.forfeited_turns] == [B]
    assert s.warnings == (1, 0)
    # After the forfeited turn the ko is no longer hot: White may fill or play elsewhere,
    # and Black may then take the ko.
    play(rec, clock, ["E1", "B1"])
    assert rec.state.color_at(pt("A1")) is None and rec.state.color_at(pt("B1")) is B


def test_r_ref_5_ko_online_is_refused() -> None:
    """R-REF-5 (online play mode): the ko capture is refused and nothing is recorded."""
    rec, clock = new_game()
    play(rec, clock, KO)
    length = len(rec)
    with pytest.raises(IllegalMove, match="move 7 at B1: ko"):
        rec.play(B, "B1", clock())
    assert len(rec) == length


def test_r_ref_5_forbidden_point_in_strict_mode_is_void_and_forfeits_without_warning() -> None:
    """R-REF-5 / Art. 19: a move on a forbidden point: void, turn forfeited, no warning."""
    rec, clock = new_game(mode=IllegalMoves.STRICT)
    play(rec, clock, ["B1", "E5", "A2"])  # A1 is now a forbidden point for White
    rec.append(Move(pt("A1")), WHITE, clock())
    s = rec.state
    assert s.color_at(pt("A1")) is None and s.to_move is B
    assert [v.reason for v in s.void_moves] == ["forbidden_point"]
    assert [f.color for f in s.forfeited_turns] == [W]
    assert s.warnings == (0, 0)
    assert s.infractions[-1].penalty is Penalty.NONE


def test_r_ref_5_forfeited_turns_count_as_passes_and_can_end_play() -> None:
    """R-REF-5: a forfeited turn counts as a pass: with the opponent's pass play ends."""
    rec, clock = new_game(mode=IllegalMoves.STRICT)
    play(rec, clock, ["B1", "E5", "A2", "E4", "pass"])
    assert rec.state.passes_in_a_row == 1
    rec.append(Move(pt("A1")), WHITE, clock())  # forbidden: White's turn forfeited
    assert rec.state.phase is Phase.COUNTING


def test_r_ref_5_refereed_ko_is_not_an_infraction_to_enter_by_hand() -> None:
    """R-REF-5: void moves follow from the move itself; a referee does not enter them."""
    rec, clock = new_game()
    with pytest.raises(InvalidSetting, match="strict play mode"):
        rec.append(warn(InfractionKind.KO_WITHOUT_THREAT), REF, clock())


def test_r_time_7_clock_pressed_before_the_move_warns_and_leaves_the_clock() -> None:
    """R-TIME-7: pressing the clock before placing the stone: warning, readings unchanged."""
    rec, clock = new_game(time_control=TimeControl.absolute(600))
    rec.append(ClockEvent(ClockAction.START), REF, clock())
    rec.press_clock(B, clock())  # before placing the stone
    before = rec.state.clock
    assert before is not None
    rec.append(warn(InfractionKind.CLOCK_BEFORE_MOVE), REF, clock())
    after = rec.state.clock
    assert after is not None
    for color in (B, W):
        assert after.remaining(10, color) == before.remaining(10, color)
    assert rec.state.warnings == (1, 0)
    assert rec.state.infractions[-1].infraction.kind.requirement == "R-TIME-7"


def test_r_ref_6_phone_ringing_first_warning_then_loss() -> None:
    """R-REF-6: a ringing phone: first a warning, the second time the game is lost."""
    rec, clock = new_game()
    rec.append(warn(InfractionKind.PHONE_RINGING, offender=W), REF, clock())
    assert rec.state.warnings == (0, 1) and rec.state.phase is Phase.PLAYING
    rec.append(warn(InfractionKind.PHONE_RINGING, offender=W), REF, clock())
    assert rec.state.result == Result.win(B, Reason.RULING)
    assert rec.state.infractions[-1].penalty is Penalty.LOSS


def test_r_ref_6_phone_ringing_again_in_the_event_loses() -> None:
    """R-REF-6: where the event counts repeats over the whole event, a ringing phone after one
    in an earlier game loses at once."""
    rec, clock = new_game()
    rec.append(warn(InfractionKind.PHONE_RINGING, offender=W, earlier_in_event=1), REF, clock())
    assert rec.state.result == Result.win(B, Reason.RULING)


def test_r_ref_6_looking_at_a_phone_loses() -> None:
    """R-REF-6: looking at a phone loses at once, whatever came before."""
    rec, clock = new_game()
    rec.append(warn(InfractionKind.PHONE_LOOKING), REF, clock())
    assert rec.state.result == Result.win(W, Reason.RULING)
    assert rec.state.warnings == (0, 0)


def test_r_ref_6_disturbing_is_warning_or_loss_by_the_referee() -> None:
    """R-REF-6: disturbing, discussing, consulting, talking: the referee chooses warning or
    loss; other penalties are refused."""
    rec, clock = new_game()
    with pytest.raises(InvalidSetting, match="the referee chooses"):
        rec.append(warn(InfractionKind.DISTURBING), REF, clock())
    with pytest.raises(InvalidSetting, match="not both_lose"):
        rec.append(warn(InfractionKind.TALKING, penalty=Penalty.BOTH_LOSE), REF, clock())
    rec.append(warn(InfractionKind.CONSULTING_MATERIAL, penalty=Penalty.WARNING), REF, clock())
    assert rec.state.warnings == (1, 0)
    rec.append(warn(InfractionKind.DISCUSSING_GAME, penalty=Penalty.LOSS), REF, clock())
    assert rec.state.result == Result.win(W, Reason.RULING)


def test_r_ref_6_smoking_warning_then_loss() -> None:
    """R-REF-6: smoking against the event's rules: a warning, then a loss."""
    rec, clock = new_game()
    rec.append(warn(InfractionKind.SMOKING), REF, clock())
    rec.append(warn(InfractionKind.SMOKING), REF, clock())
    assert rec.state.result == Result.win(W, Reason.RULING)
    assert [e.penalty for e in rec.state.infractions] == [Penalty.WARNING, Penalty.LOSS]


def test_r_ref_6_cheating_both_lose_with_suspension() -> None:
    """R-REF-6: cheating by agreement: both lose, and a suspension flag for the event layer."""
    rec, clock = new_game()
    play(rec, clock, ["C3"])
    rec.append(
        warn(InfractionKind.CHEATING, penalty=Penalty.BOTH_LOSE, suspension=True), CHIEF, clock()
    )
    s = rec.state
    assert s.result is not None and s.result.outcome is Outcome.BOTH_LOSE
    assert [(x.player, x.suspension) for x in s.sanctions] == [("Li", True)]


def test_r_ref_6_ceremony_absence_carries_prize_demotion_and_suspension() -> None:
    """R-REF-6: absence from ceremonies: no effect on the game; prize one place lower and
    suspension are carried for the event layer, even after the result is confirmed."""
    rec, clock = new_game()
    rec.append(warn(InfractionKind.PHONE_LOOKING, offender=W), REF, clock())
    for actor in (BLACK, WHITE, REF):
        from weiqi.referee.events import Confirm

        rec.append(Confirm(), actor, clock())
    assert rec.state.phase is Phase.CONFIRMED
    rec.append(
        warn(InfractionKind.CEREMONY_ABSENCE, offender=W, prize_demotion=True, suspension=True),
        CHIEF,
        clock(),
    )
    s = rec.state
    assert s.result == Result.win(B, Reason.RULING)
    assert [(x.player, x.prize_demotion, x.suspension) for x in s.sanctions] == [
        ("Wang", True, True)
    ]
    with pytest.raises(InvalidSetting, match="do not suspend"):
        warn(InfractionKind.SMOKING, suspension=True)


def test_infractions_are_ruled_by_referees_only() -> None:
    """R-ORG-1: referees record infractions; a player cannot penalise the opponent."""
    rec, clock = new_game()
    with pytest.raises(PermissionDenied, match="White may not rule on"):
        rec.append(warn(InfractionKind.SMOKING), WHITE, clock())


def test_r_ref_7_complaints_about_the_game_must_be_made_during_it() -> None:
    """R-REF-7 (Art. 16.3): once the game is over, an infraction about play is refused."""
    rec, clock = new_game()
    play(rec, clock, WALLS)
    pass_and_count(rec, clock)
    with pytest.raises(Conflict, match="during the game"):
        rec.append(warn(InfractionKind.CLOCK_BEFORE_MOVE), REF, clock())
