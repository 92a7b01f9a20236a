"""Self sign-up (``services.signup``): the ``/signup`` page, ``POST /api/signup``, and the way
into ``/join`` of a person who is not logged in.

``/signup`` asks for a username, a display name, the password twice and an invitation code
(``?code=`` fills it in). With a valid code the account plays as the code's entrant at once;
without one it is made only when the site's sign-up is open (``weiqi serve --signup open``,
``app.state.open_signup``). Either way the new user is logged in and goes to the home page,
which shows their game this round. Every attempt counts against the login limits of the
client's address, as a spent code does (``security.code_attempt``): a refusal stays counted.

A person who opens ``/join`` logged out finds the code form with two ways on: log in (and
come back to ``/join`` with the code filled in) or make an account with the code.
"""

from __future__ import annotations

from typing import Annotated
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Form
from fastapi.responses import RedirectResponse
from pydantic import BaseModel, Field
from starlette.requests import Request
from starlette.responses import Response

from weiqi.errors import Conflict, FieldsRejected, InvalidSetting, WeiqiError
from weiqi.i18n import N_
from weiqi.messages import Msg
from weiqi.server.errors import status_of
from weiqi.server.inputs import ScreenedRoute
from weiqi.server.routes.api import _ERRORS, SessionOut, UserOut
from weiqi.server.routes.live_api import LinkedOut
from weiqi.server.security import (
    AppClock,
    Db,
    code_attempt,
    csrf_token,
    current_user,
    flash,
    log_in,
)
from weiqi.server.templating import html, say, translate
from weiqi.services.signup import SignedUp, sign_up

router = APIRouter(route_class=ScreenedRoute, responses=_ERRORS)

#: The fields of the form, in its order (a refusal is shown beside its field).
FIELDS = ("username", "display_name", "password", "password_again", "code")


def open_signup(request: Request) -> bool:
    """Whether anybody may make an account here, or only with an invitation code."""
    return bool(request.app.state.open_signup)


def _problems(err: WeiqiError) -> dict[str, Msg]:
    """A refused sign-up's reasons by the field they belong beside (``form``: none)."""
    if isinstance(err, FieldsRejected):
        return dict(err.problems)
    if err.field:  # a setting (the password's length), the username taken
        return {err.field: err.reason}
    return {"form": err.msg}  # e.g. the same username taken by another at the same moment


def _page(
    request: Request, values: dict[str, str], errors: dict[str, Msg], status_code: int = 200
) -> Response:
    context = {
        "values": values,
        "errors": {field: say(request, why) for field, why in errors.items()},
        "open_signup": open_signup(request),
    }
    return html(request, "signup.html", context, status_code=status_code)


def _done(request: Request, done: SignedUp) -> None:
    """Log the new user in, and say so on the page they land on."""
    log_in(request, done.user)
    if done.linked is None:
        message = translate(request, "Welcome, %(name)s.", name=done.user.display_name)
    else:
        message = translate(
            request, "Welcome, %(name)s. You now play as %(player)s in %(event)s.",
            name=done.user.display_name, player=done.linked.name, event=done.linked.event_name,
        )  # fmt: skip
    flash(request, message)


@router.get("/signup", include_in_schema=False)
def signup_form(request: Request, code: str = "") -> Response:
    """The sign-up form (the code from ``?code=`` filled in); a logged-in user has an account
    already and redeems a code on ``/join``."""
    if current_user(request) is not None:
        return RedirectResponse(f"/join?{urlencode({'code': code})}" if code else "/", 303)
    return _page(request, {"code": code}, {})


@router.post("/signup", include_in_schema=False)
def signup(
    request: Request,
    db: Db,
    clock: AppClock,
    username: Annotated[str, Form()] = "",
    display_name: Annotated[str, Form()] = "",
    password: Annotated[str, Form()] = "",
    password_again: Annotated[str, Form()] = "",
    code: Annotated[str, Form()] = "",
) -> Response:
    # what was typed comes back with a refusal — never the passwords
    values = {"username": username, "display_name": display_name, "code": code}
    if password != password_again:
        return _page(request, values, {"password_again": Msg(N_("the two passwords differ"))}, 422)
    try:
        with code_attempt(request):
            done = sign_up(
                db, username, password, display_name, code, clock,
                open_signup=open_signup(request),
            )  # fmt: skip
    except (FieldsRejected, InvalidSetting, Conflict) as err:
        status = status_of(err)
        return _page(request, values, _problems(err), status)
    _done(request, done)
    return RedirectResponse("/", status_code=303)


def join_logged_out(request: Request, code: str, then: str) -> Response:
    """``/join`` for a person not logged in: the code form, whose two buttons lead on to the
    login page (back to ``/join`` with the code) or to ``/signup`` with the code."""
    if then == "login":
        back = f"/join?{urlencode({'code': code})}" if code else "/join"
        return RedirectResponse(f"/login?next={quote(back, safe='/')}", status_code=303)
    if then == "signup":
        return RedirectResponse(f"/signup?{urlencode({'code': code})}", status_code=303)
    return html(request, "live_join_ways.html", {"code": code})


# -- the JSON API --------------------------------------------------------------------------


class SignupIn(BaseModel):
    username: str
    password: str
    display_name: str = ""
    code: str | None = Field(
        default=None,
        description="an unspent invitation code: the account plays as its entrant (required "
        "when the site's sign-up is 'code')",
    )


class SignupOut(SessionOut):
    player: LinkedOut | None = Field(description="the entrant of the code, if one was given")


@router.post("/api/signup", tags=["session"], status_code=201)
def api_signup(request: Request, db: Db, clock: AppClock, body: SignupIn) -> SignupOut:
    """Make your own account and log in (as ``POST /api/session`` does); with an invitation
    code the account plays as the code's entrant and the code is spent. Without a code only
    where the site's sign-up is open. Counted against the login limits of your address."""
    with code_attempt(request):
        done = sign_up(
            db, body.username, body.password, body.display_name, body.code, clock,
            open_signup=open_signup(request),
        )  # fmt: skip
    log_in(request, done.user)
    linked = done.linked
    return SignupOut(
        user=UserOut.of(done.user),
        csrf_token=csrf_token(request),
        player=LinkedOut(**vars(linked)) if linked is not None else None,
    )
