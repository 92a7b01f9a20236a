"""The end of a game, rulings and the final result: R-END-1…4, R-REF-3, R-REF-7."""

from __future__ import annotations

from fractions import Fraction

import pytest

from weiqi.errors import Conflict, IllegalMove, InvalidSetting, PermissionDenied
from weiqi.referee.events import (
    AcceptEnd,
    AgreeDead,
    Confirm,
    Dispute,
    InfractionRuled,
    MarkDead,
    Move,
    Pass,
    ProposeEnd,
    RefuseEnd,
    RequestRecount,
    Resign,
    ResultCorrected,
    RulingMade,
)
from weiqi.referee.infractions import Infraction, InfractionKind, Penalty
from weiqi.referee.rulings import Ruling, RulingKind
from weiqi.referee.state import Phase
from weiqi.rules.result import Outcome, Reason, Result

from .scripts import BLACK, CHIEF, REF, WALLS, WHITE, B, W, new_game, pass_and_count, play, pt


def confirm_all(rec, clock) -> None:  # type: ignore[no-untyped-def]
    for actor in (BLACK, WHITE, REF):
        rec.append(Confirm(), actor, clock())


def test_r_end_1_a_agreement_ends_play() -> None:
    """R-END-1(a), R-END-2: the player to move proposes the end (and passes); the opponent
    agrees: play is over and the dead stones are agreed next."""
    rec, clock = new_game()
    play(rec, clock, WALLS)
    rec.append(ProposeEnd(), BLACK, clock())
    assert rec.state.end_proposed_by is B and rec.state.to_move is W
    rec.append(AcceptEnd(), WHITE, clock())
    assert rec.state.phase is Phase.COUNTING
    rec.append(MarkDead(()), WHITE, clock())
    rec.append(AgreeDead(), BLACK, clock())
    assert rec.state.result == Result.by_count(B, Fraction(1, 4))
    assert rec.state.black_count == 15


def test_r_end_1_b_resignation() -> None:
    """R-END-1(b): resignation: the opponent wins 中盘胜."""
    rec, clock = new_game()
    play(rec, clock, ["C3"])
    rec.append(Resign(), BLACK, clock())
    assert rec.state.stone_map() == {"C3": "B"}
    assert rec.state.result == Result.win(W, Reason.RESIGNATION)
    assert rec.state.result.to_zh() == "白中盘胜"


def test_r_end_1_c_two_passes_end_play() -> None:
    """R-END-1(c): two passes in a row end play; a single pass does not."""
    rec, clock = new_game()
    play(rec, clock, ["C3", "pass"])
    assert rec.state.phase is Phase.PLAYING
    play(rec, clock, ["D3", "pass", "pass"])
    assert rec.state.phase is Phase.COUNTING
    with pytest.raises(Conflict, match="cannot play a move while the game is being counted"):
        rec.play(B, "A1", clock())


@pytest.mark.parametrize(
    ("ruling", "actor", "expected"),
    [
        (Ruling(RulingKind.FORFEIT, "absent", loser=W), REF, Result.win(B, Reason.FORFEIT)),
        (Ruling(RulingKind.TIME_LOSS, "flag", loser=B), REF, Result.win(W, Reason.TIME)),
        (
            Ruling(RulingKind.LOSS, "moved a stone on purpose", loser=B),
            REF,
            Result.win(W, Reason.RULING),
        ),
        (Ruling(RulingKind.DRAW, "board scattered"), CHIEF, Result.draw()),
        (Ruling(RulingKind.REPLAY, "board scattered"), CHIEF, Result.replay()),
        (Ruling(RulingKind.BOTH_LOSE, "no agreement"), CHIEF, Result.both_lose()),
        (Ruling(RulingKind.NO_RESULT, "cycle rule"), CHIEF, Result.no_result()),
    ],
)
def test_r_end_1_d_rulings_end_the_game(ruling: Ruling, actor, expected: Result) -> None:  # type: ignore[no-untyped-def]
    """R-END-1(d), R-REF-3: a referee's decision ends the game with its result."""
    rec, clock = new_game()
    play(rec, clock, ["C3", "D3"])
    rec.append(RulingMade(ruling), actor, clock())
    assert rec.state.phase is Phase.FINISHED and rec.state.result == expected
    assert str(rec.history()[-1].reason).startswith(f"ruling: {ruling.kind.en}")


def test_r_ref_3_chief_referee_decisions_need_the_chief() -> None:
    """R-REF-3: draw, replay, both lose and moving a stone are the chief referee's decisions."""
    rec, clock = new_game()
    with pytest.raises(PermissionDenied, match="referee r1 may not rule draw"):
        rec.append(RulingMade(Ruling(RulingKind.DRAW, "scattered")), REF, clock())
    with pytest.raises(PermissionDenied):
        rec.append(RulingMade(Ruling(RulingKind.LOSS, "x", loser=W)), BLACK, clock())


def test_r_ref_3_moved_stone_restored_stands_or_goes_to_a_reasonable_point() -> None:
    """R-REF-3: restore (the record's board is unchanged), the stone stands where it was moved,
    or goes to a reasonable point; play continues either way."""
    rec, clock = new_game()
    play(rec, clock, ["C3", "D3"])
    before = rec.state.stones
    rec.append(RulingMade(Ruling(RulingKind.RESTORE, "by agreement")), REF, clock())
    assert rec.state.stones == before and rec.state.phase is Phase.PLAYING
    stands = Ruling(RulingKind.STONE_STANDS, "no agreement", points=(pt("C3"), pt("C4")))
    rec.append(RulingMade(stands), CHIEF, clock())
    assert rec.state.color_at(pt("C3")) is None and rec.state.color_at(pt("C4")) is B
    assert rec.state.to_move is B
    play(rec, clock, ["C3"])
    assert rec.state.color_at(pt("C3")) is B
    with pytest.raises(InvalidSetting, match="is occupied"):
        bad = Ruling(RulingKind.STONE_TO_POINT, "x", points=(pt("C3"), pt("D3")))
        rec.append(RulingMade(bad), CHIEF, clock())


def test_r_end_2_refused_proposal_opponent_plays_on_and_proposer_moves_again() -> None:
    """R-END-2: if the opponent does not agree, the opponent plays on and the proposer
    regains the right to move; the proposer cannot accept their own proposal."""
    rec, clock = new_game()
    play(rec, clock, ["C3", "D3"])
    rec.append(ProposeEnd(), BLACK, clock())
    with pytest.raises(Conflict, match="own proposal"):
        rec.append(AcceptEnd(), BLACK, clock())
    rec.append(RefuseEnd(), WHITE, clock())
    assert rec.state.end_proposed_by is None and rec.state.to_move is W
    play(rec, clock, ["D2"])
    assert rec.state.to_move is B and rec.state.phase is Phase.PLAYING
    # Playing on after a proposal refuses it too.
    rec.append(ProposeEnd(), BLACK, clock())
    play(rec, clock, ["D4"])
    assert rec.state.end_proposed_by is None
    # The refusal names the event by its place in the record.
    with pytest.raises(Conflict, match=r"^event \d+: nobody has proposed to end the game$"):
        rec.append(AcceptEnd(), WHITE, clock())


def test_r_end_3_dispute_resumes_play_with_the_claimant_first() -> None:
    """R-END-3: life and death by agreement; in a dispute play resumes and the player who
    claims the stones are dead moves first, whoever passed last."""
    rec, clock = new_game()
    play(rec, clock, [*WALLS, "A1"])  # Black's A1 inside its own area: White says it is dead
    rec.append(Pass(), WHITE, clock())
    rec.append(Pass(), BLACK, clock())
    assert rec.state.phase is Phase.COUNTING and rec.state.to_move is W
    rec.append(MarkDead((pt("A1"),)), WHITE, clock())
    with pytest.raises(Conflict, match="own marking"):
        rec.append(AgreeDead(), WHITE, clock())
    with pytest.raises(InvalidSetting, match="no Black stone for White to claim dead"):
        rec.append(Dispute((pt("D1"),), claimant=W), BLACK, clock())
    rec.append(Dispute((pt("A1"),), claimant=W), BLACK, clock())  # Black says A1 lives
    s = rec.state
    assert s.phase is Phase.PLAYING and s.to_move is W and s.dead_stones == ()
    with pytest.raises(IllegalMove, match="wrong-turn"):
        rec.append(Move(pt("B1")), BLACK, clock())
    play(rec, clock, ["E1"])  # White plays first
    assert rec.state.to_move is B


def test_r_end_4_confirmed_result_is_final_and_play_never_restarts() -> None:
    """R-END-4, R-REF-7: confirmed by both players and a referee, the result is final: no move,
    no recount, no second confirmation, no ruling."""
    rec, clock = new_game()
    play(rec, clock, WALLS)
    pass_and_count(rec, clock)
    rec.append(Confirm(), BLACK, clock())
    rec.append(Confirm(), WHITE, clock())
    assert rec.state.phase is Phase.FINISHED  # the referee has not confirmed yet
    with pytest.raises(Conflict, match="already confirmed"):
        rec.append(Confirm(), WHITE, clock())
    rec.append(Confirm(), REF, clock())
    assert rec.state.confirmed
    for event, actor in [
        (Move(pt("A1")), BLACK),
        (RequestRecount(), WHITE),
        (Confirm(), CHIEF),
        (RulingMade(Ruling(RulingKind.DRAW, "x")), CHIEF),
    ]:
        with pytest.raises(Conflict, match="confirmed and can no longer be changed"):
            rec.append(event, actor, clock())


def test_r_ref_7_recount_before_confirmation() -> None:
    """R-REF-7: before confirmation either player may ask for a recount."""
    rec, clock = new_game()
    play(rec, clock, WALLS)
    pass_and_count(rec, clock)
    rec.append(Confirm(), BLACK, clock())
    rec.append(RequestRecount(), WHITE, clock())
    s = rec.state
    assert s.phase is Phase.COUNTING and s.result is None and s.confirmations == ()
    rec.append(MarkDead(()), WHITE, clock())
    rec.append(AgreeDead(), BLACK, clock())
    assert rec.state.result == Result.by_count(B, Fraction(1, 4))
    assert [c.result for c in rec.history()] == [rec.state.result, None, rec.state.result]


def test_r_ref_7_only_the_chief_referee_corrects_a_confirmed_result() -> None:
    """R-REF-7, R-REF-6: cheating found after later rounds were paired: the chief referee
    corrects the confirmed result with a reason; the history keeps every step; anyone else
    is refused."""
    rec, clock = new_game()
    play(rec, clock, WALLS)
    pass_and_count(rec, clock)
    confirm_all(rec, clock)
    counted = rec.state.result
    correction = ResultCorrected(Result.both_lose(), "agreed result (假棋) found after round 5")
    for actor in (REF, BLACK):
        with pytest.raises(PermissionDenied, match="may not correct a confirmed result"):
            rec.append(correction, actor, clock())
    entry = rec.append(correction, CHIEF, clock())
    s = rec.state
    assert s.result is not None and s.result.outcome is Outcome.BOTH_LOSE
    assert s.confirmed
    history = rec.history()
    assert [h.result for h in history] == [counted, counted, Result.both_lose()]
    assert history[-1].actor == CHIEF and history[-1].seq == entry.seq
    assert "round 5" in str(history[-1].reason)


def test_r_ref_6_cheating_found_after_confirmation_by_the_chief() -> None:
    """R-REF-6: cheating found afterwards: the chief referee rules it on the confirmed game;
    the result changes and a suspension is carried; a referee may not."""
    rec, clock = new_game()
    play(rec, clock, WALLS)
    pass_and_count(rec, clock)
    confirm_all(rec, clock)
    cheat = InfractionRuled(
        Infraction(InfractionKind.CHEATING, B, penalty=Penalty.LOSS, suspension=True)
    )
    with pytest.raises(PermissionDenied, match="after confirmation"):
        rec.append(cheat, REF, clock())
    rec.append(cheat, CHIEF, clock())
    assert rec.state.result == Result.win(W, Reason.RULING)
    assert str(rec.history()[-1].reason).startswith("corrected: cheating")
    assert rec.state.sanctions[0].suspension


def test_correcting_an_unconfirmed_result_is_a_ruling_not_a_correction() -> None:
    """R-REF-7: corrections are for confirmed results only."""
    rec, clock = new_game()
    rec.append(Resign(), BLACK, clock())
    with pytest.raises(Conflict, match="not confirmed yet"):
        rec.append(ResultCorrected(Result.draw(), "x"), CHIEF, clock())


def test_r_ref_2_dropped_stone_replaced_with_consent() -> None:
    """R-REF-2: a stone dropped on the board may be picked up and played elsewhere with the
    opponent's consent: the last move is replaced; an illegal new point changes nothing."""
    rec, clock = new_game()
    play(rec, clock, ["C3", "D3"])
    dropped = Ruling(RulingKind.DROPPED_STONE, "Black consents", points=(pt("D4"),))
    rec.append(RulingMade(dropped), REF, clock())
    s = rec.state
    assert s.color_at(pt("D3")) is None and s.color_at(pt("D4")) is W
    assert s.to_move is B and s.move_number == 2
    before = rec.state
    with pytest.raises(IllegalMove, match="occupied"):
        bad = Ruling(RulingKind.DROPPED_STONE, "x", points=(pt("C3"),))
        rec.append(RulingMade(bad), REF, clock())
    assert rec.state == before
    play(rec, clock, ["C4"])
    assert rec.state.color_at(pt("C4")) is B


def test_r_hcp_2_free_handicap_is_placed_before_the_first_move() -> None:
    """R-HCP-2: with free placement Black places the handicap stones; White moves next."""
    from weiqi.referee.actors import GameActor
    from weiqi.referee.events import PlaceHandicap
    from weiqi.referee.nigiri import ColorAssignment
    from weiqi.referee.record import GameRecord
    from weiqi.rules.ruleset import HandicapPlacement, Ruleset

    rules = Ruleset.handicap_game(2, size=9, placement=HandicapPlacement.FREE)
    rec = GameRecord.start(
        rules, ColorAssignment.by_organiser("Li", "Wang"), referee=GameActor.referee("r"), at=0
    )
    with pytest.raises(Conflict, match="handicap stones first"):
        rec.play(B, "E5", at=1)
    with pytest.raises(InvalidSetting, match="2 stones to place, 1 given"):
        rec.append(PlaceHandicap((0,)), BLACK, at=1)
    rec.append(PlaceHandicap((0, 80)), BLACK, at=1)
    assert rec.state.to_move is W and rec.state.color_at(80) is B
    rec.play(W, "E5", at=2)
    assert GameRecord.from_json(rec.to_json()).state == rec.state


def test_r_end_4_open_neutral_points_are_shared_as_in_seki() -> None:
    """R-END-4 (Art. 21.2): a point left open when both confirmed the end counts half to each
    side: Black 15½, White 9½, Black wins by ¾ with komi 2¼."""
    rec, clock = new_game()
    play(rec, clock, ["C1", "D1", "C2", "D2", "C3", "D3", "C4", "D4", "C5", "E5"])
    assert rec.state.color_at(pt("D5")) is None  # touches Black's C5 and White's D4, E5
    pass_and_count(rec, clock)
    assert rec.state.black_count == Fraction(31, 2)
    assert rec.state.result == Result.by_count(B, Fraction(3, 4))
    confirm_all(rec, clock)
    with pytest.raises(Conflict):
        rec.play(B, "D5", clock())
