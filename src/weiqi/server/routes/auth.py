"""Logging in and out with the form."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form
from fastapi.responses import RedirectResponse
from starlette.requests import Request
from starlette.responses import Response

from weiqi.server.inputs import ScreenedRoute
from weiqi.server.routes.signup import open_signup
from weiqi.server.security import attempt_login, current_user, log_out, safe_next
from weiqi.server.templating import html, translate

router = APIRouter(route_class=ScreenedRoute, include_in_schema=False)


@router.get("/login")
def login_form(request: Request, next: str | None = None) -> Response:
    if current_user(request) is not None:
        return RedirectResponse(safe_next(next), status_code=303)
    context = {"next": safe_next(next), "error": None, "username": ""}
    return html(request, "login.html", {**context, "open_signup": open_signup(request)})


@router.post("/login")
def login(
    request: Request,
    username: Annotated[str, Form()],
    password: Annotated[str, Form()],
    next: Annotated[str, Form()] = "/",
) -> Response:
    user = attempt_login(request, username, password)
    if user is None:
        context = {
            "next": safe_next(next),
            "error": translate(request, "Wrong username or password."),
            "username": username,
            "open_signup": open_signup(request),
        }
        return html(request, "login.html", context, status_code=400)
    target = "/account" if user.must_change_password else safe_next(next)
    return RedirectResponse(target, status_code=303)


@router.post("/logout")
def logout(request: Request) -> Response:
    log_out(request)
    return RedirectResponse("/", status_code=303)
