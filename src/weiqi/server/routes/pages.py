"""Home, account and the language switch."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form
from fastapi.responses import RedirectResponse
from starlette.requests import Request
from starlette.responses import Response

from weiqi.i18n import LOCALES, N_
from weiqi.roles import Role
from weiqi.server.inputs import ScreenedRoute
from weiqi.server.security import CurrentActor, Db, LoggedIn, flash, log_in, safe_next
from weiqi.server.templating import LANG_COOKIE, html, translate
from weiqi.services.accounts import change_password, roles_of
from weiqi.services.events import EventCard, EventStatus, event_cards
from weiqi.services.league import list_seasons
from weiqi.services.live import my_games
from weiqi.services.permissions import Action, allowed

router = APIRouter(route_class=ScreenedRoute, include_in_schema=False)


STATUS_NAMES = {
    EventStatus.NOT_STARTED: N_("Not started"),
    EventStatus.IN_PROGRESS: N_("In progress"),
    EventStatus.FINISHED: N_("Finished"),
}


def _system_name(request: Request, card: EventCard) -> str:
    """The event's system in the reader's language (empty for an event without settings)."""
    from weiqi.tournament.settings import System

    names = {k.value: k.en for k in System}
    found = names.get(card.system or "")
    return translate(request, found) if found else ""


@router.get("/")
def home(request: Request, db: Db, actor: CurrentActor) -> Response:
    events = event_cards(db)
    runs = {Role.ORGANISER, Role.CHIEF_REFEREE}
    if actor.is_admin:
        manageable = {e.id for e in events}
    elif actor.user_id is not None:
        manageable = {g.event_id for g in roles_of(db, actor.user_id) if g.role in runs}
    else:
        manageable = set()
    context = {
        "events": events,
        "may_create": actor.authenticated and allowed(db, actor, Action.CREATE_EVENT),
        "manageable": manageable,
        "seasons": list_seasons(db),
        "my_games": my_games(db, actor),  # live play (issue #11): "my game this round"
        "system_name": lambda card: _system_name(request, card),
        "status_name": lambda card: translate(request, STATUS_NAMES[card.status]),
    }
    return html(request, "home.html", context)


@router.get("/account")
def account(request: Request, db: Db, user: LoggedIn) -> Response:
    return html(request, "account.html", {"grants": roles_of(db, user.id)})


@router.post("/account/password")
def account_password(
    request: Request,
    db: Db,
    user: LoggedIn,
    current: Annotated[str, Form()],
    new: Annotated[str, Form()],
) -> Response:
    updated = change_password(db, user.actor(), current, new)
    log_in(request, updated)  # this session survives; the others end with the epoch
    flash(request, translate(request, "Your password has been changed."))
    return RedirectResponse("/account", status_code=303)


@router.get("/lang/{locale}")
def switch_language(locale: str, next: str | None = None) -> Response:
    response = RedirectResponse(safe_next(next), status_code=303)
    if locale in LOCALES:
        response.set_cookie(LANG_COOKIE, locale, max_age=365 * 24 * 3600, samesite="lax")
    return response
