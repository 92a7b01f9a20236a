"""The one place where errors become HTTP responses.

``PermissionDenied`` → 403, ``NotFound`` → 404, ``InputError``/``InvalidSetting``/``IllegalMove``
and ``LineupRejected`` → 422 (but ``Duplicate``/``DuplicateRows``, input naming what is
already stored, → 409 ``duplicate``: :func:`status_of`), ``Conflict`` and ``RecordRefused``
(a stored game record that does not verify) → 409, a missing CSRF token → 403, too many
logins → 429, a request body over ``weiqi.text.MAX_REQUEST_BYTES`` → 413
(:func:`request_too_large`, answered by ``server/body_limit.py`` before the body is read), no
login or a wrong password at the API's login → 401 (a page redirects to the login form instead).
Under ``/api/`` the body is JSON ``{"error": kind, "code": msgid, "args": {…}, "message": text}``:
``code`` and ``args`` are the error's :class:`~weiqi.messages.Msg` (a client may translate it),
``message`` is it rendered in the language the client asked for (the ``lang`` cookie or
``Accept-Language``; English when it asks for none). Elsewhere an error page in the user's
language. Every message goes through :func:`weiqi.i18n.render`.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from weiqi.errors import (
    Conflict,
    Duplicate,
    DuplicateRows,
    IllegalMove,
    InputError,
    InvalidSetting,
    LineupRejected,
    NotFound,
    PermissionDenied,
    RecordRefused,
    RowsRejected,
    WeiqiError,
)
from weiqi.i18n import N_, json_args, render
from weiqi.messages import Msg
from weiqi.server.ratelimit import TooManyAttempts
from weiqi.server.security import BadCredentials, CsrfFailed, LoginRequired
from weiqi.server.templating import LANG_COOKIE, html, locale_of, translate

# (status, kind, English title — a msgid translated on the error page)
_WEIQI_ERRORS: list[tuple[type[WeiqiError], int, str, str]] = [
    (PermissionDenied, 403, "permission_denied", N_("Not allowed")),
    (NotFound, 404, "not_found", N_("Not found")),
    (Conflict, 409, "conflict", N_("Conflict")),
    (RecordRefused, 409, "record_refused", N_("Game record refused")),
    (Duplicate, 409, "duplicate", N_("Already there")),
    (DuplicateRows, 409, "duplicate", N_("Already there")),
    (InvalidSetting, 422, "invalid_setting", N_("Invalid setting")),
    (InputError, 422, "input_error", N_("Invalid input")),
    (IllegalMove, 422, "illegal_move", N_("Illegal move")),
    (LineupRejected, 422, "lineup_rejected", N_("Lineup refused")),
]

# The values of ``services.permissions.Action`` (and other actions named in PermissionDenied),
# marked for the catalogues; an action missing here is shown in English.
ACTION_MSGIDS = (
    N_("open the site administration"),
    N_("create users"),
    N_("reset passwords"),
    N_("list users"),
    N_("create events"),
    N_("grant roles"),
    N_("revoke roles"),
    N_("enter or withdraw players"),
    N_("pair rounds"),
    N_("record results"),
    N_("change the event's settings"),
    N_("publish rounds"),
    N_("enter results"),
    N_("confirm results"),
    N_("record infractions and rulings"),
    N_("correct confirmed results"),
    N_("rule a draw, a replay, both lose or no result"),
    N_("correct a game's clock"),
    N_("submit lineups"),
    N_("submit the lineup of a team they do not coach"),
    N_("run the transfer draft"),
    N_("read the audit log"),
)


def _is_api(request: Request) -> bool:
    return request.url.path.startswith("/api/")


def message_locale(request: Request) -> str:
    """The language of a message for this request: a page's, or for the API the one the client
    asked for (English when it asks for none)."""
    asked = LANG_COOKIE in request.cookies or "accept-language" in request.headers
    if _is_api(request) and not asked:
        return "en"
    return locale_of(request)


def _respond(
    request: Request,
    status: int,
    kind: str,
    title: str,
    msg: Msg,
    headers: dict[str, str] | None = None,
    rows: list[tuple[int, Msg]] | None = None,
) -> Response:
    locale = message_locale(request)
    message = render(msg, locale)
    if _is_api(request):
        body: dict[str, Any] = {
            "error": kind, "code": msg.id, "args": json_args(msg), "message": message
        }  # fmt: skip
        if rows is not None:  # a file's refused rows, each by its line (RowsRejected)
            body["problems"] = [{"line": n, "reason": render(why, locale)} for n, why in rows]
        return JSONResponse(body, status, headers=headers)
    context = {"status": status, "title": translate(request, title), "message": message}
    response = html(request, "error.html", context, status_code=status)
    if headers:
        response.headers.update(headers)
    return response


def _classify(error: WeiqiError) -> tuple[int, str, str]:
    for cls, status, kind, title in _WEIQI_ERRORS:
        if isinstance(error, cls):
            return status, kind, title
    return 400, "error", N_("Error")


def status_of(error: WeiqiError) -> int:
    """The HTTP status of ``error`` — for a page that shows it on its own form.

    >>> status_of(Duplicate("name", "is already entered")), status_of(InputError("name", "x"))
    (409, 422)
    """
    return _classify(error)[0]


async def _weiqi_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, WeiqiError)
    status, kind, title = _classify(error)
    rows = error.problems if isinstance(error, RowsRejected) else None
    return _respond(request, status, kind, title, error.msg, rows=rows)


def request_too_large(request: Request, limit: int) -> Response:
    """The 413 of a request body over ``limit`` bytes (``server/body_limit.py``): the API's
    error shape (``error: request_too_large``) or an error page, in the reader's language.

    >>> from starlette.requests import Request
    >>> scope = {"type": "http", "path": "/api/x", "headers": [(b"accept-language", b"zh-CN")]}
    >>> response = request_too_large(Request(scope), 3 * 1024 * 1024)
    >>> import json
    >>> response.status_code, json.loads(response.body)["message"]
    (413, '请求过大（上限 3 MB）')
    """
    megabytes = limit // (1024 * 1024)
    msg = Msg("The request is too large (at most %(limit)s MB).", limit=megabytes)
    # The client may still be sending: it should not expect to reuse this connection.
    headers = {"Connection": "close"}
    return _respond(request, 413, "request_too_large", N_("The request is too large"), msg, headers)


async def _login_required(request: Request, _error: Exception) -> Response:
    if _is_api(request):
        msg = Msg("log in first")
        return _respond(request, 401, "login_required", N_("Please log in"), msg)
    here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    return RedirectResponse(f"/login?next={quote(here)}", status_code=303)


async def _bad_credentials(request: Request, _error: Exception) -> Response:
    msg = Msg("Wrong username or password.")
    return _respond(request, 401, "bad_credentials", N_("Please log in"), msg)


async def _csrf_failed(request: Request, _error: Exception) -> Response:
    msg = Msg("The form has expired. Go back, reload the page and try again.")
    return _respond(request, 403, "csrf", N_("Not allowed"), msg)


async def _too_many(request: Request, error: Exception) -> Response:
    assert isinstance(error, TooManyAttempts)
    msg = Msg("Too many failed logins. Try again in %(seconds)s s.", seconds=error.retry_after)
    headers = {"Retry-After": str(error.retry_after)}
    return _respond(request, 429, "too_many_attempts", N_("Too many attempts"), msg, headers)


# What a request validation error (pydantic's ``type``) says, as a msgid; others say "is invalid".
_VALIDATION_REASONS = {
    "missing": N_("is required"),
    "extra_forbidden": N_("is not a known field"),
    "int_type": N_("must be a whole number"),
    "int_parsing": N_("must be a whole number"),
    "int_from_float": N_("must be a whole number"),
    "int_parsing_size": N_("is out of range"),
    "float_type": N_("must be a number"),
    "float_parsing": N_("must be a number"),
    "finite_number": N_("must be a number"),
    "string_type": N_("must be text"),
    "bool_type": N_("must be true or false"),
    "bool_parsing": N_("must be true or false"),
    "dict_type": N_("must be an object"),
    "model_type": N_("must be an object"),
    "model_attributes_type": N_("must be an object"),
    "list_type": N_("must be a list"),
    "date_type": N_("must be a date (YYYY-MM-DD)"),
    "date_parsing": N_("must be a date (YYYY-MM-DD)"),
    "date_from_datetime_parsing": N_("must be a date (YYYY-MM-DD)"),
    "datetime_type": N_("must be a date and time (YYYY-MM-DDTHH:MM)"),
    "datetime_parsing": N_("must be a date and time (YYYY-MM-DDTHH:MM)"),
    "datetime_from_date_parsing": N_("must be a date and time (YYYY-MM-DDTHH:MM)"),
    "json_invalid": N_("is not JSON"),
    "string_too_long": N_("is too long"),
    "too_long": N_("has too many items"),
}

_INVALID = N_("is invalid")


def validation_msg(error: dict[str, Any]) -> Msg:
    """One of pydantic's errors as ``Msg("%(field)s: %(reason)s")``: the field as its path in
    the request (``rows.0.board``; a msgid, so that a known field name is translated), the
    reason as one of ours (an enumeration's choices named).

    >>> validation_msg({"type": "missing", "loc": ("body", "name"), "msg": "Field required"})
    Msg('%(field)s: %(reason)s', field=Msg('name'), reason=Msg('is required'))
    """
    field = ".".join(str(p) for p in error.get("loc", ()) if p not in ("body", "query", "path"))
    kind = str(error.get("type", ""))
    ctx = error.get("ctx") or {}
    if kind in ("enum", "literal_error") and "expected" in ctx:
        reason = Msg("must be one of %(choices)s", choices=str(ctx["expected"]))
    else:
        reason = Msg(_VALIDATION_REASONS.get(kind, _INVALID))
    return Msg("%(field)s: %(reason)s", field=Msg(field or "body"), reason=reason)


async def _validation(request: Request, error: Exception) -> Response:
    assert isinstance(error, RequestValidationError)
    problems = [validation_msg(e) for e in error.errors()]
    msg = problems[0]
    for more in problems[1:]:
        msg = Msg("%(first)s; %(more)s", first=msg, more=more)
    if _is_api(request):
        body = {
            "error": "invalid_request",
            "code": msg.id,
            "args": json_args(msg),
            "message": render(msg, message_locale(request)),
            # pydantic's own words, for debugging a client (not the input: it may be huge)
            "detail": [
                {"loc": list(e.get("loc", ())), "type": e.get("type"), "msg": e.get("msg")}
                for e in error.errors()
            ],
        }
        return JSONResponse(body, 422)
    return _respond(request, 422, "invalid_request", N_("Invalid input"), msg)


async def _http(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    titles = {
        400: N_("Bad request"),
        404: N_("Not found"),
        405: N_("Method not allowed"),
        413: N_("The request is too large"),
    }
    title = titles.get(error.status_code, N_("Error"))
    response = _respond(request, error.status_code, "http", title, Msg(title))
    if error.headers:
        response.headers.update(error.headers)
    return response


def install(app: FastAPI) -> None:
    """Register every handler on ``app``."""
    app.add_exception_handler(WeiqiError, _weiqi_error)
    app.add_exception_handler(LoginRequired, _login_required)
    app.add_exception_handler(BadCredentials, _bad_credentials)
    app.add_exception_handler(CsrfFailed, _csrf_failed)
    app.add_exception_handler(TooManyAttempts, _too_many)
    app.add_exception_handler(RequestValidationError, _validation)
    app.add_exception_handler(HTTPException, _http)
