"""The JSON API of programs that play as entrants (issue #11; ``weiqi bot``).

A program spends the entrant's invitation code once (``POST /api/invites/session``, with the
``X-CSRF-Token`` of ``GET /api/session`` like every write): that makes a code-only account for
the entrant and logs it in (``services.live_bot``); the session cookie it gets then opens the
game rooms' WebSockets as that entrant's player, for the session's lifetime, reconnections
included. ``GET /api/live/games`` lists the entrant's games of the latest published round.

Spending a code counts against the login limits (per address), as a failed login does: an
unknown code is a failed attempt, so codes cannot be guessed faster than passwords.
"""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel
from starlette.requests import Request

from weiqi.server.inputs import ScreenedRoute
from weiqi.server.routes.api import _ERRORS, UserOut
from weiqi.server.security import (
    AppClock,
    CurrentActor,
    Db,
    code_attempt,
    csrf_token,
    log_in,
)
from weiqi.services import live_bot

router = APIRouter(route_class=ScreenedRoute, prefix="/api", tags=["live play"], responses=_ERRORS)


class CodeIn(BaseModel):
    code: str


class BotSessionOut(BaseModel):
    user: UserOut
    csrf_token: str
    event_id: int
    event_name: str
    player_id: int
    name: str


class EntrantGameOut(BaseModel):
    """One game of the entrant's round, from the entrant's side (its colour and opponent)."""

    board: int
    color: str
    opponent: str
    size: int
    komi: float
    handicap: int
    result: str | None
    confirmed: bool
    path: str


class EntrantEventOut(BaseModel):
    event_id: int
    event_name: str
    player: str
    round: int | None
    rounds: int | None
    more_rounds: bool
    games: list[EntrantGameOut]


@router.post("/invites/session", response_model=BotSessionOut)
def api_code_session(request: Request, body: CodeIn, db: Db, clock: AppClock) -> BotSessionOut:
    """Spend an entrant's invitation code for a program: a code-only account plays as the
    entrant from now on, and this session is logged in as it (the cookie)."""
    with code_attempt(request):  # counted before the check; forgiven on success
        done = live_bot.sign_in_with_code(db, body.code, clock)
    log_in(request, done.user)
    return BotSessionOut(
        user=UserOut.of(done.user),
        csrf_token=csrf_token(request),
        event_id=done.linked.event_id,
        event_name=done.linked.event_name,
        player_id=done.linked.player_id,
        name=done.linked.name,
    )


@router.get("/live/games", response_model=list[EntrantEventOut])
def api_entrant_games(db: Db, actor: CurrentActor) -> list[EntrantEventOut]:
    """The logged-in entrant's games of each event's latest published round."""
    return [
        EntrantEventOut(
            event_id=e.event_id,
            event_name=e.event_name,
            player=e.player,
            round=e.round,
            rounds=e.rounds,
            more_rounds=e.more_rounds,
            games=[EntrantGameOut(**vars(g)) for g in e.games],
        )
        for e in live_bot.entrant_games(db, actor)
    ]
