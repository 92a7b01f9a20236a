"""Entry claims (issue #11): the pages of the path without an invitation code.

- ``/claims``: the logged-in user's claims (state, the organisers' reason, a withdraw button)
  and the events where they may claim an entry (linked from ``/join``, below the code form);
- ``/events/{id}/claim``: the event's entrants nobody plays as yet (a team event's roster
  players, team by team), one to choose and a note to the organisers;
- ``/events/{id}/claims/{claim}/approve`` and ``…/decline`` (with a reason): the organisers'
  buttons on the invitation page (``/events/{id}/invites``), which lists the claims.

The JSON API is ``routes/entry_claims_api.py``.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form
from fastapi.responses import RedirectResponse
from starlette.requests import Request
from starlette.responses import Response

from weiqi.errors import Conflict, InvalidSetting
from weiqi.server.inputs import ScreenedRoute, requires
from weiqi.server.routes import live as live_pages
from weiqi.server.security import AppClock, CurrentActor, Db, LoggedIn, flash
from weiqi.server.templating import html, say, translate
from weiqi.services import entry_claims
from weiqi.services.events import get_event
from weiqi.services.permissions import Action
from weiqi.store.database import Database

router = APIRouter(route_class=ScreenedRoute, include_in_schema=False)


@router.get("/claims")
def claims_page(request: Request, db: Db, user: LoggedIn) -> Response:
    actor = user.actor()
    context = {
        "claims": entry_claims.my_claims(db, actor),
        "events": entry_claims.claimable_events(db, actor),
    }
    return html(request, "claims.html", context)


def _claim_form(
    request: Request,
    db: Database,
    user: LoggedIn,
    event_id: int,
    *,
    chosen: str = "",
    note: str = "",
    errors: dict[str, str] | None = None,
    status_code: int = 200,
) -> Response:
    context = {
        "event": get_event(db, event_id),
        "entrants": entry_claims.open_entrants(db, user.actor(), event_id),
        "chosen": chosen,
        "note": note,
        "errors": errors or {},
        "limit": entry_claims.NOTE_LIMIT,
    }
    return html(request, "claim_entry.html", context, status_code=status_code)


@router.get("/events/{event_id}/claim")
def claim_page(request: Request, db: Db, user: LoggedIn, event_id: int) -> Response:
    return _claim_form(request, db, user, event_id)


def _chosen(value: str) -> tuple[int, int | None]:
    """A choice of the form: ``player`` (an entrant) or ``team:player`` (a roster player);
    ``InvalidSetting`` (field ``player``) for none or anything else."""
    team, _, player = value.rpartition(":")
    if not player.isdigit() or (team and not team.isdigit()):
        raise InvalidSetting("player", entry_claims.CHOOSE_PLAYER)
    return int(player), int(team) if team else None


@router.post("/events/{event_id}/claim")
def claim(
    request: Request,
    db: Db,
    user: LoggedIn,
    clock: AppClock,
    event_id: int,
    player: Annotated[str, Form()] = "",
    note: Annotated[str, Form()] = "",
) -> Response:
    try:
        player_id, team = _chosen(player)
        made = entry_claims.claim_entry(
            db, user.actor(), event_id, player_id, clock, team=team, note=note
        )
    except InvalidSetting as err:
        errors = {err.field: say(request, err.reason)}
        return _claim_form(
            request, db, user, event_id, chosen=player, note=note, errors=errors, status_code=422
        )
    flash(
        request,
        translate(
            request,
            "Your claim to %(name)s in %(event)s awaits the organisers.",
            name=made.name,
            event=made.event_name,
        ),
    )
    return RedirectResponse("/claims", status_code=303)


@router.post("/claims/{claim_id}/withdraw")
def withdraw(request: Request, db: Db, user: LoggedIn, clock: AppClock, claim_id: int) -> Response:
    try:
        done = entry_claims.withdraw_claim(db, user.actor(), claim_id, clock)
        flash(request, translate(request, "Your claim to %(name)s is withdrawn.", name=done.name))
    except Conflict as err:
        flash(request, say(request, err.msg))
    return RedirectResponse("/claims", status_code=303)


@router.post("/events/{event_id}/claims/{claim_id}/approve")
@requires(Action.MANAGE_PLAYERS)
def approve(
    request: Request, db: Db, actor: CurrentActor, clock: AppClock, event_id: int, claim_id: int
) -> Response:
    try:
        done = entry_claims.approve_claim(db, actor, event_id, claim_id, clock)
        flash(
            request,
            translate(
                request,
                "%(user)s now plays as %(name)s.",
                user=done.username,
                name=done.name,
            ),
        )
    except Conflict as err:
        flash(request, say(request, err.msg))
    return RedirectResponse(f"/events/{event_id}/invites#claims", status_code=303)


@router.post("/events/{event_id}/claims/{claim_id}/decline")
@requires(Action.MANAGE_PLAYERS)
def decline(
    request: Request,
    db: Db,
    actor: CurrentActor,
    clock: AppClock,
    event_id: int,
    claim_id: int,
    reason: Annotated[str, Form()] = "",
) -> Response:
    try:
        done = entry_claims.decline_claim(db, actor, event_id, claim_id, clock, reason)
    except InvalidSetting as err:
        refused = {"claim": claim_id, "message": say(request, err.reason), "reason": reason}
        return live_pages._invites(request, db, actor, event_id, status_code=422, declining=refused)
    except Conflict as err:
        flash(request, say(request, err.msg))
        return RedirectResponse(f"/events/{event_id}/invites#claims", status_code=303)
    flash(
        request,
        translate(
            request,
            "The claim of %(user)s to %(name)s is declined.",
            user=done.username,
            name=done.name,
        ),
    )
    return RedirectResponse(f"/events/{event_id}/invites#claims", status_code=303)
