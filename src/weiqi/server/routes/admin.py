"""Site administration: users, events, and who holds which role in which event."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form
from fastapi.responses import RedirectResponse
from starlette.requests import Request
from starlette.responses import Response

from weiqi.roles import Role
from weiqi.server.inputs import ScreenedRoute
from weiqi.server.routes.event_roles import grant_and_say, revoke_and_say
from weiqi.server.security import CurrentActor, Db, LoggedIn, flash
from weiqi.server.templating import html, translate
from weiqi.services.accounts import create_user
from weiqi.services.site import site_overview

router = APIRouter(route_class=ScreenedRoute, prefix="/admin", include_in_schema=False)


def _back() -> Response:
    return RedirectResponse("/admin", status_code=303)


@router.get("")
def admin(request: Request, db: Db, user: LoggedIn) -> Response:
    overview = site_overview(db, user.actor())
    return html(request, "admin.html", {"overview": overview, "roles": Role.grantable()})


@router.post("/users")
def admin_create_user(
    request: Request,
    db: Db,
    actor: CurrentActor,
    username: Annotated[str, Form()],
    password: Annotated[str, Form()],
    display_name: Annotated[str, Form()] = "",
    is_admin: Annotated[bool, Form()] = False,
) -> Response:
    user = create_user(db, actor, username, password, display_name, is_admin)
    flash(request, translate(request, "User %(name)s created.", name=user.username))
    return _back()


@router.post("/roles")
def admin_grant_role(
    request: Request,
    db: Db,
    actor: CurrentActor,
    user_id: Annotated[int, Form()],
    event_id: Annotated[int, Form()],
    role: Annotated[Role, Form()],
) -> Response:
    grant_and_say(request, db, actor, user_id, event_id, role)
    return _back()


@router.post("/roles/revoke")
def admin_revoke_role(
    request: Request,
    db: Db,
    actor: CurrentActor,
    user_id: Annotated[int, Form()],
    event_id: Annotated[int, Form()],
    role: Annotated[Role, Form()],
) -> Response:
    revoke_and_say(request, db, actor, user_id, event_id, role)
    return _back()
