"""Who holds which role in one event (R-ORG-1); the event's organisers manage them here."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form
from fastapi.responses import RedirectResponse
from starlette.requests import Request
from starlette.responses import Response

from weiqi.roles import Role
from weiqi.server.inputs import ScreenedRoute, requires
from weiqi.server.security import CurrentActor, Db, flash
from weiqi.server.templating import html, translate
from weiqi.services.accounts import (
    audit_log,
    event_roles,
    grant_role,
    list_users,
    revoke_role,
)
from weiqi.services.actor import Actor
from weiqi.services.events import get_event
from weiqi.services.permissions import Action, allowed
from weiqi.store.database import Database

router = APIRouter(
    route_class=ScreenedRoute, prefix="/events/{event_id}/roles", include_in_schema=False
)


def grant_and_say(
    request: Request, db: Database, actor: Actor, user_id: int, event_id: int, role: Role
) -> None:
    """Grant ``role`` in event ``event_id`` to user ``user_id``, and say so on the next page
    (the site's administration and the event's roles page post the same form)."""
    grant = grant_role(db, actor, user_id, event_id, role)
    flash(request, translate(request, "Role granted to %(name)s.", name=grant.username))


def revoke_and_say(
    request: Request, db: Database, actor: Actor, user_id: int, event_id: int, role: Role
) -> None:
    """Take ``role`` in event ``event_id`` back from user ``user_id``, and say so on the next
    page."""
    revoke_role(db, actor, user_id, event_id, role)
    flash(request, translate(request, "Role revoked."))


@router.get("")
def roles_page(request: Request, db: Db, actor: CurrentActor, event_id: int) -> Response:
    event = get_event(db, event_id)
    manage = allowed(db, actor, Action.GRANT_ROLE, event_id)
    context = {
        "event": event,
        "grants": event_roles(db, event_id),
        "manage": manage,
        "users": list_users(db, actor) if manage else [],
        "roles": Role.grantable(),
        "audit": (
            audit_log(db, actor, event_id)
            if allowed(db, actor, Action.READ_AUDIT_LOG, event_id)
            else None
        ),
    }
    return html(request, "event_roles.html", context)


@router.post("")
@requires(Action.GRANT_ROLE)
def roles_grant(
    request: Request,
    db: Db,
    actor: CurrentActor,
    event_id: int,
    user_id: Annotated[int, Form()],
    role: Annotated[Role, Form()],
) -> Response:
    grant_and_say(request, db, actor, user_id, event_id, role)
    return RedirectResponse(f"/events/{event_id}/roles", status_code=303)


@router.post("/revoke")
@requires(Action.REVOKE_ROLE)
def roles_revoke(
    request: Request,
    db: Db,
    actor: CurrentActor,
    event_id: int,
    user_id: Annotated[int, Form()],
    role: Annotated[Role, Form()],
) -> Response:
    revoke_and_say(request, db, actor, user_id, event_id, role)
    return RedirectResponse(f"/events/{event_id}/roles", status_code=303)
