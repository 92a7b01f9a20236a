"""The JSON API of the referees of a live game (issue #11): the same services as the console's
forms (``routes/live_referee.py``), therefore the same permissions; each action is stored in the
game's record and pushed live to the players and spectators. Writes need the ``X-CSRF-Token``
header. A team board's are the same under its address
(``/api/events/{id}/rounds/{n}/matches/{m}/boards/{b}/live/…``). ``expected_seq`` is
the record's length the caller saw (refused with 409 when the game changed meanwhile), as in
the games API whose infraction and ruling bodies these are; leave it out to act on the game as
it is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from weiqi.server.inputs import ScreenedRoute, requires
from weiqi.server.live.rooms import GameKey
from weiqi.server.routes.api import _ERRORS
from weiqi.server.routes.games_api import Guard, InfractionIn, RulingIn
from weiqi.server.routes.live import rooms
from weiqi.server.routes.live_referee import Key
from weiqi.server.security import AppClock, CurrentActor, Db
from weiqi.services import live, live_referee
from weiqi.services.permissions import Action

router = APIRouter(
    route_class=ScreenedRoute, prefix="/api", tags=["live referee"], responses=_ERRORS
)

GAME = "/events/{event_id}/rounds/{number}/boards/{board}/live"
#: A team board's (``?sitting=`` for a rotation match's later sittings).
TEAM_GAME = "/events/{event_id}/rounds/{number}/matches/{match}/boards/{board}/live"


class LiveGameOut(BaseModel):
    """The game after the action."""

    seq: int
    phase: str
    paused: bool
    warnings: dict[str, int]
    result: str | None
    clock: dict[str, Any] | None


class PauseIn(Guard):
    reason: str = ""


class ClockIn(Guard):
    color: str = Field(description="the player whose clock is corrected: B or W")
    seconds: str = Field(description="seconds charged (negative: given back)")
    reason: str


async def _push(
    request: Request, key: GameKey, work: Callable[[], live.ActionOutcome]
) -> LiveGameOut:
    live_rooms = rooms(request.app)
    outcome = await live_rooms.change(key, work)
    await live_rooms.answer(key)  # the players' calls are answered
    snap = outcome.snapshot.to_data()
    return LiveGameOut(**{k: snap[k] for k in LiveGameOut.model_fields})


@router.post(GAME + "/pause", response_model=LiveGameOut)
@router.post(TEAM_GAME + "/pause", response_model=LiveGameOut)
@requires(Action.RULE_INFRACTION)
async def api_pause(
    request: Request, body: PauseIn, db: Db, actor: CurrentActor, clock: AppClock,
    key: Key,
) -> LiveGameOut:  # fmt: skip
    """Pause the game: no player may play until it is resumed."""
    event_id, number, board = key
    return await _push(request, key, lambda: live_referee.pause(
        db, actor, event_id, number, board, body.expected_seq, body.reason,
        clock=clock))  # fmt: skip


@router.post(GAME + "/resume", response_model=LiveGameOut)
@router.post(TEAM_GAME + "/resume", response_model=LiveGameOut)
@requires(Action.RULE_INFRACTION)
async def api_resume(
    request: Request, body: Guard, db: Db, actor: CurrentActor, clock: AppClock,
    key: Key,
) -> LiveGameOut:  # fmt: skip
    """Resume a paused game: the clock of the player to move runs again."""
    event_id, number, board = key
    return await _push(request, key, lambda: live_referee.resume(
        db, actor, event_id, number, board, body.expected_seq, clock=clock))  # fmt: skip


@router.post(GAME + "/infraction", response_model=LiveGameOut)
@router.post(TEAM_GAME + "/infraction", response_model=LiveGameOut)
@requires(Action.RULE_INFRACTION)
async def api_infraction(
    request: Request, body: InfractionIn, db: Db, actor: CurrentActor, clock: AppClock,
    key: Key,
) -> LiveGameOut:  # fmt: skip
    """Record an infraction with the catalogue's penalty (a warning, a loss …)."""
    event_id, number, board = key
    return await _push(request, key, lambda: live_referee.record_infraction(
        db, actor, event_id, number, board, body.expected_seq, body.kind, body.offender,
        body.penalty, body.note, body.points, clock=clock))  # fmt: skip


@router.post(GAME + "/ruling", response_model=LiveGameOut)
@router.post(TEAM_GAME + "/ruling", response_model=LiveGameOut)
@requires(Action.RULE_INFRACTION)
async def api_ruling(
    request: Request, body: RulingIn, db: Db, actor: CurrentActor, clock: AppClock,
    key: Key,
) -> LiveGameOut:  # fmt: skip
    """Rule the game's end; draw, replay, both lose and no result are the chief
    referee's."""
    event_id, number, board = key
    return await _push(request, key, lambda: live_referee.record_ruling(
        db, actor, event_id, number, board, body.expected_seq, body.kind, body.reason, body.loser,
        clock=clock))  # fmt: skip


@router.post(GAME + "/clock", response_model=LiveGameOut)
@router.post(TEAM_GAME + "/clock", response_model=LiveGameOut)
@requires(Action.CORRECT_CLOCK)
async def api_clock(
    request: Request, body: ClockIn, db: Db, actor: CurrentActor, clock: AppClock,
    key: Key,
) -> LiveGameOut:  # fmt: skip
    """Correct a clock (the chief referee): ``seconds`` charged (negative: given
    back), with the reason."""
    event_id, number, board = key
    return await _push(request, key, lambda: live_referee.correct_clock(
        db, actor, event_id, number, board, body.expected_seq, body.color, body.seconds,
        body.reason, clock=clock))  # fmt: skip


class AnsweredOut(BaseModel):
    """The players' calls of the game still open (none after the answer)."""

    calls: dict[str, float]


@router.post(GAME + "/answer", response_model=AnsweredOut)
@router.post(TEAM_GAME + "/answer", response_model=AnsweredOut)
@requires(Action.RULE_INFRACTION)
async def api_answer(request: Request, key: Key) -> AnsweredOut:
    """Answer the players' call for the referee (nothing is recorded in the game)."""
    live_rooms = rooms(request.app)
    await live_rooms.answer(key)
    return AnsweredOut(calls=live_rooms.calls(key))
