"""The JSON API of live play's invitations (issue #11): the same services as the pages
(``routes/live.py``), therefore the same permissions. Writes need the ``X-CSRF-Token`` header.
"""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel

from weiqi.server.inputs import ScreenedRoute, requires, requires_login
from weiqi.server.routes.api import _ERRORS
from weiqi.server.security import AppClock, CurrentActor, Db
from weiqi.services import live
from weiqi.services.permissions import Action

router = APIRouter(route_class=ScreenedRoute, prefix="/api", tags=["live play"], responses=_ERRORS)


class InviteOut(BaseModel):
    player_id: int
    """The entrant's id, or in a team event the roster player's."""
    name: str
    code: str
    team: str | None = None
    """A roster player's team (its code)."""


class RedeemIn(BaseModel):
    code: str


class LinkedOut(BaseModel):
    """The entrant an account plays as: by an invitation redeemed, or a code at sign-up."""

    event_id: int
    event_name: str
    player_id: int
    name: str


@router.post("/events/{event_id}/players/{player_id}/invite", response_model=InviteOut)
@requires(Action.MANAGE_PLAYERS)
def api_invite(
    db: Db, actor: CurrentActor, clock: AppClock, event_id: int, player_id: int
) -> InviteOut:
    """A one-time invitation code for the entrant (it replaces an unspent one); only its hash
    is kept, so this answer is the one place it is shown."""
    made = live.create_invite(db, actor, event_id, player_id, clock)
    return InviteOut(**vars(made))


@router.post(
    "/events/{event_id}/teams/{team_id}/players/{player_id}/invite", response_model=InviteOut
)
@requires(Action.MANAGE_PLAYERS)
def api_team_invite(
    db: Db, actor: CurrentActor, clock: AppClock, event_id: int, team_id: int, player_id: int
) -> InviteOut:
    """A one-time invitation code for a roster player of team ``team_id`` (another team's
    player is refused, 422 naming the field ``team``); the redeemer plays the boards the
    lineups seat that player on."""
    made = live.create_invite(db, actor, event_id, player_id, clock, team=team_id)
    return InviteOut(**vars(made))


@router.post("/invites/redeem", response_model=LinkedOut)
@requires_login
def api_redeem(body: RedeemIn, db: Db, actor: CurrentActor, clock: AppClock) -> LinkedOut:
    """The logged-in user becomes the player of the code's entrant."""
    linked = live.redeem_invite(db, actor, body.code, clock)
    return LinkedOut(**vars(linked))
