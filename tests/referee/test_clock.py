"""Clock events in the record, replayed through the clock model (R-TIME-2, R-TIME-5, R-TIME-8,
R-END-1(d))."""

from __future__ import annotations

import pytest

from weiqi.clock.clock import Status
from weiqi.clock.control import TimeControl
from weiqi.errors import Conflict, PermissionDenied
from weiqi.referee.annotations import timeline
from weiqi.referee.events import ClockAction, ClockEvent, LeaveSeat, Move
from weiqi.referee.nigiri import ColorAssignment
from weiqi.referee.record import GameRecord, replay
from weiqi.referee.state import Phase
from weiqi.rules.result import Reason, Result
from weiqi.rules.ruleset import Ruleset

from .scripts import BLACK, CHIEF, REF, WHITE, B, W, new_game, pt


def start(tc: TimeControl) -> tuple[GameRecord, float]:
    rec, _ = new_game(time_control=tc)
    rec.append(ClockEvent(ClockAction.START), REF, at=10)
    return rec, 10


def test_r_end_1_d_time_loss_is_recorded_when_the_clock_is_checked() -> None:
    """R-END-1(d), R-TIME-1: when Black's time has run out a move is refused (nothing is
    recorded) and the referee's check records the loss on time; replay gives the same."""
    rec, _ = start(TimeControl.absolute(60))
    rec.append(Move(pt("C3")), BLACK, at=20)
    rec.press_clock(B, at=21)
    rec.append(Move(pt("D3")), WHITE, at=30)
    rec.press_clock(W, at=31)
    length = len(rec)
    with pytest.raises(Conflict, match="over"):
        rec.append(Move(pt("C4")), BLACK, at=200)
    assert len(rec) == length and rec.state.phase is Phase.PLAYING
    rec.append(ClockEvent(ClockAction.CHECK), REF, at=200)
    s = rec.state
    assert s.result == Result.win(W, Reason.TIME) and s.result.to_zh() == "白超时胜"
    assert s.clock is not None and s.clock.status is Status.STOPPED
    assert s.result_history[-1].actor is None  # decided by the clock, not a person
    assert replay(rec) == s == GameRecord.from_json(rec.to_json()).state


def test_r_time_2_forfeited_turn_on_time_at_the_players_request() -> None:
    """R-TIME-2 (Art. 22.5): the last period runs out; where the event allows it, the player
    asks and the turn is forfeited (a pass) instead of the loss; play goes on."""
    rec, _ = start(TimeControl.byo_yomi(0, 1, 30, timeout_pass=True))
    rec.append(ClockEvent(ClockAction.CHECK), REF, at=45)
    s = rec.state
    assert s.phase is Phase.PLAYING and s.clock is not None and s.clock.status is Status.FLAGGED
    with pytest.raises(Conflict, match="time has run out"):
        rec.append(Move(pt("C3")), BLACK, at=46)
    rec.append(ClockEvent(ClockAction.FORFEIT_TURN), REF, at=47)
    s = rec.state
    assert s.to_move is W and s.move_number == 1 and s.passes_in_a_row == 1
    assert [(f.color, f.reason) for f in s.forfeited_turns] == [(B, "time")]
    assert s.clock is not None and s.clock.running is W
    rec.append(Move(pt("D3")), WHITE, at=50)
    assert rec.state.color_at(pt("D3")) is W


def test_r_time_5_pause_and_sealed_move() -> None:
    """R-TIME-5: time in a pause does not count; the sealed move is the player to move's."""
    rec, _ = start(TimeControl.absolute(600))
    rec.append(ClockEvent(ClockAction.PAUSE), REF, at=20)
    rec.append(ClockEvent(ClockAction.RESUME), REF, at=5000)
    clock = rec.state.clock
    assert clock is not None and clock.remaining(5000, B).main == 590
    with pytest.raises(Conflict, match="only the player to move seals"):
        rec.append(ClockEvent(ClockAction.SEAL, point=pt("C3")), WHITE, at=5001)
    rec.append(ClockEvent(ClockAction.SEAL, point=pt("C3")), BLACK, at=5010)
    clock = rec.state.clock
    assert clock is not None and clock.status is Status.PAUSED and clock.sealed
    assert rec.state.clock_log[-1].point == pt("C3")


def test_r_time_8_one_sided_correction_needs_the_chief_referee() -> None:
    """R-TIME-8: a one-sided change of the readings needs the chief referee."""
    rec, _ = start(TimeControl.absolute(600))
    adjust = ClockEvent(ClockAction.ADJUST, color=W, seconds=30)
    with pytest.raises(PermissionDenied):
        rec.append(adjust, REF, at=11)
    rec.append(adjust, CHIEF, at=11)
    clock = rec.state.clock
    assert clock is not None and clock.remaining(11, W).main == 570


def test_the_clock_stops_when_the_game_ends() -> None:
    from weiqi.referee.events import Resign

    rec, _ = start(TimeControl.absolute(600))
    rec.append(Resign(), BLACK, at=30)
    clock = rec.state.clock
    assert clock is not None and clock.status is Status.STOPPED


def test_untimed_games_keep_clock_events_as_data() -> None:
    rec, _ = new_game()
    rec.append(ClockEvent(ClockAction.START), REF, at=5)
    rec.press_clock(B, at=6)
    assert rec.state.clock is None
    assert [e.action for e in rec.state.clock_log] == [ClockAction.START, ClockAction.PRESS]


def test_r_time_6_late_arrival_deducts_twice_or_forfeits() -> None:
    """R-TIME-6: within the limit the late time comes off twice; past it the absent player
    loses by forfeit; both absent past the limit both lose."""
    from weiqi.clock.late import LatePolicy

    def game() -> GameRecord:
        return GameRecord.start(
            Ruleset.chinese(9),
            ColorAssignment.by_organiser("Li", "Wang"),
            referee=REF,
            at=0,
            time_control=TimeControl.absolute(3600),
            late=LatePolicy.same_venue(),
        )

    rec = game()
    rec.append(ClockEvent(ClockAction.START, absent=(W,), scheduled=0), REF, at=0)
    rec.append(Move(pt("E5", 9)), BLACK, at=30)
    rec.press_clock(B, at=31)
    rec.append(ClockEvent(ClockAction.ARRIVE, color=W), REF, at=600)  # 10 min late
    clock = rec.state.clock
    assert clock is not None and clock.remaining(600, W).main == 3600 - 1200

    rec = game()
    rec.append(ClockEvent(ClockAction.START, absent=(W,), scheduled=0), REF, at=0)
    rec.append(ClockEvent(ClockAction.CHECK), REF, at=901)
    assert rec.state.result == Result.win(B, Reason.FORFEIT)
    assert str(rec.state.result_history[-1].reason).startswith("forfeit: late arrival")

    rec = game()
    rec.append(ClockEvent(ClockAction.START, absent=(B, W), scheduled=0), REF, at=0)
    rec.append(ClockEvent(ClockAction.CHECK), REF, at=1000)
    assert rec.state.result == Result.both_lose()
    assert "both players arrived too late" in str(rec.history()[-1].reason)
    assert GameRecord.from_json(rec.to_json()).state == rec.state


def test_r_end_3_clock_paused_while_counting_and_runs_for_the_claimant() -> None:
    """R-END-1, R-END-3: no time runs while the dead stones are agreed; when a dispute resumes
    play the claimant's clock runs."""
    from weiqi.referee.events import Dispute, MarkDead, Pass

    rec, _ = start(TimeControl.absolute(600))
    rec.append(Move(pt("C3")), BLACK, at=20)
    rec.press_clock(B, at=21)
    rec.append(Pass(), WHITE, at=30)
    rec.press_clock(W, at=31)
    rec.append(Pass(), BLACK, at=40)
    assert rec.state.phase is Phase.COUNTING
    clock = rec.state.clock
    assert clock is not None and clock.status is Status.PAUSED
    rec.append(MarkDead(()), WHITE, at=5000)  # long after the time would have run out
    rec.append(Dispute((pt("C3"),), claimant=W), BLACK, at=5001)
    clock = rec.state.clock
    assert clock is not None and clock.running is W and rec.state.to_move is W
    assert clock.remaining(5001, B).main == 600 - 11 - 9  # 10–21 s, 31–40 s; none since
    rec.append(Move(pt("D4")), WHITE, at=5010)
    rec.press_clock(W, at=5011)
    assert rec.state.clock is not None and rec.state.clock.running is B


def test_art_22_7_leaving_the_seat_in_byo_yomi_once_per_game_with_the_referee() -> None:
    """Art. 22.7: "读秒期间棋手在对方思考时间之内离席，须征得裁判员许可，每局仅限一次。其余情形下
    棋手离席，一律照常读秒." Only a referee grants it, only in the opponent's time, only while
    the player is in byo-yomi, once per game; the clock is not touched."""
    rec, _ = start(TimeControl.byo_yomi(0, 3, 60))
    rec.append(Move(pt("C3")), BLACK, at=20)
    rec.press_clock(B, at=21)  # White to move: Black may ask
    with pytest.raises(PermissionDenied):
        rec.append(LeaveSeat(B), BLACK, at=22)
    with pytest.raises(Conflict, match="own time"):
        rec.append(LeaveSeat(W), REF, at=22)
    before = rec.state.clock
    rec.append(LeaveSeat(B), REF, at=22)
    after = rec.state.clock
    assert rec.state.seat_leaves == (1, 0)
    assert before is not None and after is not None
    assert (after.black, after.white, after.running) == (before.black, before.white, W)
    rec.append(Move(pt("D3")), WHITE, at=30)
    rec.press_clock(W, at=31)
    rec.append(Move(pt("C4")), BLACK, at=40)
    rec.press_clock(B, at=41)
    with pytest.raises(Conflict, match="only once per game"):
        rec.append(LeaveSeat(B), REF, at=42)
    assert replay(rec) == rec.state == GameRecord.from_json(rec.to_json()).state
    notes = [c for n in timeline(rec).nodes for c in n.comments]
    assert any("黑方读秒期间经裁判员许可离席" in c for c in notes), notes


def test_art_22_7_outside_byo_yomi_no_permission_is_needed() -> None:
    """Art. 22.7 limits leaving the seat only "读秒期间": with main time left it is refused as
    needing no permission (and so does not use up the one permission)."""
    rec, _ = start(TimeControl.byo_yomi(600, 3, 60))
    rec.append(Move(pt("C3")), BLACK, at=20)
    rec.press_clock(B, at=21)
    with pytest.raises(Conflict, match="not in byo-yomi"):
        rec.append(LeaveSeat(B), REF, at=22)
    assert rec.state.seat_leaves == (0, 0)
