"""The game played again (``PlayedAgain``): after a confirmed replay ruling (重赛, R-REF-3,
R-END-1(d)) or as the playoff (加赛, R-PLAYOFF) of a game without a winner, its result follows
the ruling in the record — which stays append-only and keeps the ruling (R-REF-7)."""

from __future__ import annotations

import pytest

from tests.referee.scripts import BLACK, CHIEF, REF, new_game
from weiqi.errors import Conflict, PermissionDenied
from weiqi.referee.events import PlayedAgain, ResultEntered, RulingMade, SheetConfirmed
from weiqi.referee.record import GameRecord
from weiqi.referee.rulings import Ruling, RulingKind
from weiqi.referee.state import Phase
from weiqi.rules.result import Result

W_R = Result.parse("W+R")


def test_r_ref_3_the_replays_result_follows_the_confirmed_replay_ruling() -> None:
    """R-REF-3, R-END-1(d): ruling, confirmation, then the replayed game's confirmed result;
    the ruling and both results stay in the record, which replays from its JSON."""
    rec, clock = new_game()
    rec.append(RulingMade(Ruling(RulingKind.REPLAY, "the lights went out")), CHIEF, clock())
    rec.append(SheetConfirmed(), REF, clock())
    rec.append(PlayedAgain(W_R), REF, clock())
    s = rec.state
    assert s.phase is Phase.CONFIRMED and s.result == W_R
    assert [r.ruling.kind for r in s.rulings] == [RulingKind.REPLAY]
    assert [c.result for c in s.result_history] == [Result.replay(), Result.replay(), W_R]
    assert str(s.result_history[-1].reason) == "replay: W+R"
    assert GameRecord.from_json(rec.to_json(), rec.head).state == s


def test_r_ref_3_only_a_replay_ruling_is_played_again() -> None:
    """R-REF-7: a confirmed win is final; before confirmation there is nothing to replay."""
    rec, clock = new_game()
    rec.append(ResultEntered(result=Result.replay()), REF, clock())
    with pytest.raises(Conflict, match="follows a confirmed result"):
        rec.append(PlayedAgain(W_R), REF, clock())
    rec.append(SheetConfirmed(), REF, clock())
    with pytest.raises(PermissionDenied):
        rec.append(PlayedAgain(W_R), BLACK, clock())
    rec.append(PlayedAgain(W_R), REF, clock())
    with pytest.raises(Conflict, match="no replay ruling"):
        rec.append(PlayedAgain(Result.parse("B+R")), REF, clock())


def test_r_playoff_a_draw_is_settled_by_a_playoff_and_a_win_needs_none() -> None:
    """R-PLAYOFF: a draw may get its playoff (even a drawn playoff its own); a win or both
    lose needs none."""
    rec, clock = new_game()
    rec.append(ResultEntered(result=Result.draw()), REF, clock())
    rec.append(SheetConfirmed(), REF, clock())
    rec.append(PlayedAgain(Result.draw(), playoff=True), REF, clock())
    rec.append(PlayedAgain(W_R, playoff=True), REF, clock())
    assert rec.state.result == W_R and str(rec.state.result_history[-1].reason) == "playoff: W+R"
    with pytest.raises(Conflict, match="needs no playoff"):
        rec.append(PlayedAgain(W_R, playoff=True), REF, clock())
    both, clock = new_game()
    both.append(ResultEntered(result=Result.both_lose()), REF, clock())
    both.append(SheetConfirmed(), REF, clock())
    with pytest.raises(Conflict, match="needs no playoff"):
        both.append(PlayedAgain(W_R, playoff=True), REF, clock())
