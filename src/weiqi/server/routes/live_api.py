"""The JSON API of live play's invitations (issue #11): the same services as the pages
(``routes/live.py``), therefore the same permissions. Writes need the ``X-CSRF-Token`` header.
"""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel

from weiqi.server.inputs import ScreenedRoute, requires
from weiqi.server.routes.api import _ERRORS
from weiqi.server.security import AppClock, CurrentActor, Db
from weiqi.services import live
from weiqi.services.permissions import Action

router = APIRouter(route_class=ScreenedRoute, prefix="/api", tags=["live play"], responses=_ERRORS)


class InviteOut(BaseModel):
    player_id: int
    name: str
    code: str


class RedeemIn(BaseModel):
    code: str


class LinkedOut(BaseModel):
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
    return InviteOut(player_id=made.player_id, name=made.name, code=made.code)


@router.post("/invites/redeem", response_model=LinkedOut)
def api_redeem(body: RedeemIn, db: Db, actor: CurrentActor, clock: AppClock) -> LinkedOut:
    """The logged-in user becomes the player of the code's entrant."""
    linked = live.redeem_invite(db, actor, body.code, clock)
    return LinkedOut(**vars(linked))
