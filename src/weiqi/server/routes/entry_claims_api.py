"""The JSON API of entry claims (issue #11): the same services as the pages
(``routes/entry_claims.py``), therefore the same permissions. Writes need the ``X-CSRF-Token``
header; a refusal is ``{"error", "code", "args", "message"}`` like every other.
"""

from __future__ import annotations

from datetime import datetime

from fastapi import APIRouter
from pydantic import BaseModel
from starlette.requests import Request
from starlette.responses import Response

from weiqi.i18n import render
from weiqi.server.errors import message_locale
from weiqi.server.inputs import ScreenedRoute, requires, requires_login
from weiqi.server.routes.api import _ERRORS
from weiqi.server.security import AppClock, CurrentActor, Db
from weiqi.services import entry_claims
from weiqi.services.permissions import Action

router = APIRouter(route_class=ScreenedRoute, prefix="/api", tags=["live play"], responses=_ERRORS)


class ClaimIn(BaseModel):
    player_id: int
    """The entrant's id, or in a team event the roster player's."""
    team_id: int | None = None
    """A team event: the team the claimant means (another team's player is refused)."""
    note: str = ""
    """To the organisers (at most 200 characters): an EGF PIN, a club…"""


class DeclineIn(BaseModel):
    reason: str = ""


class ClaimOut(BaseModel):
    id: int
    event_id: int
    event_name: str
    player_id: int
    name: str
    team: str | None
    username: str
    display_name: str
    note: str
    made_at: datetime
    state: str
    """``pending``, ``approved``, ``declined`` or ``withdrawn``."""
    reason: str
    """The organisers' words when they declined it."""
    closed: str | None
    """Why it was declined when another approval settled it (in the client's language)."""
    closed_code: str | None
    """The same as a message id."""
    decided_at: datetime | None
    decided_by: str | None
    taken_by: str | None
    """A pending claim whose entrant somebody already plays as."""


def _out(claim: entry_claims.Claim, locale: str) -> ClaimOut:
    """The service's value as the API shows it: its message rendered in the reader's language
    (and named by its id), the rest as it is."""
    values = {f: getattr(claim, f) for f in ClaimOut.model_fields if hasattr(claim, f)}
    closed = claim.closed
    values["closed"] = render(closed, locale) if closed is not None else None
    values["closed_code"] = closed.id if closed is not None else None
    return ClaimOut(**values)


@router.post("/events/{event_id}/claims", response_model=ClaimOut, status_code=201)
@requires_login
def api_claim(
    body: ClaimIn, request: Request, db: Db, actor: CurrentActor, clock: AppClock, event_id: int
) -> ClaimOut:
    """The logged-in user claims an entrant (pending until the organisers decide); refused
    with 422 naming the field (``player``, ``team``, ``note``)."""
    made = entry_claims.claim_entry(
        db, actor, event_id, body.player_id, clock, team=body.team_id, note=body.note
    )
    return _out(made, message_locale(request))


@router.get("/events/{event_id}/claims", response_model=list[ClaimOut])
@requires(Action.MANAGE_PLAYERS)
def api_event_claims(
    request: Request, db: Db, actor: CurrentActor, event_id: int
) -> list[ClaimOut]:
    """The event's claims, pending first (oldest first), then the decided ones."""
    locale = message_locale(request)
    return [_out(c, locale) for c in entry_claims.event_claims(db, actor, event_id)]


@router.post("/events/{event_id}/claims/{claim_id}/approve", response_model=ClaimOut)
@requires(Action.MANAGE_PLAYERS)
def api_approve(
    request: Request, db: Db, actor: CurrentActor, clock: AppClock, event_id: int, claim_id: int
) -> ClaimOut:
    """The claimant becomes the entrant's player (as a redeemed code makes them); 409 when
    the claim is no longer pending or the entrant or the claimant is linked already."""
    done = entry_claims.approve_claim(db, actor, event_id, claim_id, clock)
    return _out(done, message_locale(request))


@router.post("/events/{event_id}/claims/{claim_id}/decline", response_model=ClaimOut)
@requires(Action.MANAGE_PLAYERS)
def api_decline(
    body: DeclineIn,
    request: Request,
    db: Db,
    actor: CurrentActor,
    clock: AppClock,
    event_id: int,
    claim_id: int,
) -> ClaimOut:
    """Declined, with ``reason`` for the claimant (422 naming ``reason`` when too long)."""
    done = entry_claims.decline_claim(db, actor, event_id, claim_id, clock, body.reason)
    return _out(done, message_locale(request))


@router.get("/claims", response_model=list[ClaimOut])
def api_my_claims(request: Request, db: Db, actor: CurrentActor) -> list[ClaimOut]:
    """The logged-in user's claims in every event, newest first (none for an anonymous
    reader)."""
    locale = message_locale(request)
    return [_out(c, locale) for c in entry_claims.my_claims(db, actor)]


@router.delete("/claims/{claim_id}", status_code=204)
@requires_login
def api_withdraw(db: Db, actor: CurrentActor, clock: AppClock, claim_id: int) -> Response:
    """The claimant withdraws a pending claim of theirs (403 for another user's, 409 once
    decided)."""
    entry_claims.withdraw_claim(db, actor, claim_id, clock)
    return Response(status_code=204)
