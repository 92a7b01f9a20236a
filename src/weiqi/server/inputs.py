"""Every request screened in one place, before FastAPI reads its body: first who may, then what.

Each router is an ``APIRouter(route_class=ScreenedRoute)``; a ``ScreenedRoute`` runs, before the
route's own handler (dependencies, body validation, the service):

1. **Authorization.** A write endpoint names its action with :func:`requires`
   (``@requires(Action.MANAGE_PLAYERS)``). A caller who may not take it in the path's event gets
   403 (``PermissionDenied``; a page sends an anonymous caller to the login form) whatever the
   body holds, so nobody learns from a 404 or a 422 which events, rounds, boards or players exist
   before being allowed to write there. The service checks again in its transaction (with what
   only the body tells, e.g. whose lineup or which ruling).
2. **Input screening.** Integer path parameters outside 1 … 2**63 − 1 name nothing: 404 (the
   database driver would fail on them with an ``OverflowError``). Path, query and form values and
   every string of a JSON body must be text a database can store: no NUL, no lone surrogate
   (``"\\ud800"``). Every integer of a JSON body must fit 64 bits, and one longer than Python's
   int-string limit (4,300 digits) is refused by name instead of failing the parse. Each refusal
   is an ``InputError`` naming the field (``rows.0.board``), 422.

What a name may contain (NFC, nothing invisible, its length) is the services' business:
:mod:`weiqi.text`.

>>> _screen_json(b'{"rows": [{"board": 100000000000000000000}]}')
Traceback (most recent call last):
...
weiqi.errors.InputError: rows.0.board: is out of range
>>> _screen_json(b'{"name": "\\\\ud800"}')
Traceback (most recent call last):
...
weiqi.errors.InputError: name: contains a character that is not text (U+D800)
"""

from __future__ import annotations

import functools
import inspect
import json
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import Response

from weiqi.errors import InputError, NotFound
from weiqi.i18n import N_
from weiqi.messages import Msg
from weiqi.server import page_cache
from weiqi.server.security import LoginRequired, current_actor, database
from weiqi.services.permissions import Action, require
from weiqi.text import MAX_ID

#: The fields (of forms, JSON bodies, CSV columns, paths) that an error may name, marked for the
#: catalogues so that the message names them in the reader's language; others show as they are.
FIELD_MSGIDS = (
    N_("body"),
    N_("birth_date"),
    N_("board"),
    N_("club"),
    N_("coach"),
    N_("color"),
    N_("colors"),
    N_("country"),
    N_("csv"),
    N_("current"),
    N_("display_name"),
    N_("divisions"),
    N_("event_id"),
    N_("expected_seq"),
    N_("home_nationality"),
    N_("id"),
    N_("kind"),
    N_("loser"),
    N_("match"),
    N_("nationality"),
    N_("new"),
    N_("note"),
    N_("number"),
    N_("offender"),
    N_("penalty"),
    N_("player"),
    N_("player_id"),
    N_("rank"),
    N_("reason"),
    N_("region"),
    N_("result"),
    N_("results"),
    N_("roster"),
    N_("rows"),
    N_("seed"),
    N_("settings"),
    N_("sitting"),
    N_("start"),
    N_("team"),
    N_("user_id"),
    N_("winner"),
)

_ACTION = "__weiqi_action__"
F = TypeVar("F", bound=Callable[..., Any])
# Longer than 2**63 in decimal: no need to convert it to know that it is too large.
_MAX_DIGITS = len(str(MAX_ID))


def requires(action: Action) -> Callable[[F], F]:
    """Mark an endpoint as taking ``action`` (in the event of its ``{event_id}``, if any), so
    that :class:`ScreenedRoute` refuses a caller who may not before reading the request.

    Put it below the ``@router.post(…)`` line (it marks the function the router registers).
    """

    def mark(endpoint: F) -> F:
        setattr(endpoint, _ACTION, action)
        return endpoint

    return mark


def required_action(endpoint: Callable[..., Any]) -> Action | None:
    """The action :func:`requires` gave ``endpoint``, if any."""
    action = getattr(endpoint, _ACTION, None)
    return action if isinstance(action, Action) else None


_LOGIN = "__weiqi_login__"


def requires_login(endpoint: F) -> F:
    """Mark an endpoint any logged-in user may call (a claim of an entry, an invitation code
    redeemed): :class:`ScreenedRoute` answers an anonymous caller 401 before reading the
    request, as :func:`requires` does for an action. Below the ``@router.post(…)`` line."""
    setattr(endpoint, _LOGIN, True)
    return endpoint


def login_required(endpoint: Callable[..., Any]) -> bool:
    """Whether :func:`requires_login` marked ``endpoint``."""
    return getattr(endpoint, _LOGIN, False) is True


class ScreenedRoute(APIRoute):
    """An ``APIRoute`` whose handler first authorizes (:func:`requires`) and screens the input
    (see the module's docstring), then runs FastAPI's. A synchronous page that reads the
    database (a GET endpoint with a ``db`` parameter) reads it from one snapshot
    (``Database.snapshot``): the services it asks see one state of it."""

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        methods = kwargs.get("methods") or ()
        reads = "db" in inspect.signature(endpoint).parameters
        if set(methods) <= {"GET", "HEAD"} and reads and not inspect.iscoroutinefunction(endpoint):
            endpoint = _in_one_snapshot(endpoint)
        super().__init__(path, endpoint, **kwargs)

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()
        if page_cache.is_cached(self.endpoint):
            handler = page_cache.wrap(handler)  # after the screening: a refused input is no key
        action = required_action(self.endpoint)
        login = login_required(self.endpoint)
        int_paths, int_queries = _int_params(self.dependant)

        async def screened(request: Request) -> Response:
            if action is not None:
                await run_in_threadpool(_authorize, request, action)
            elif login and not current_actor(request).authenticated:
                raise LoginRequired
            await _screen(request, int_paths, int_queries)
            return await handler(request)

        return screened


def _in_one_snapshot(endpoint: Callable[..., Any]) -> Callable[..., Any]:
    """``endpoint`` (its ``db``, the ``Database``, passed by name as FastAPI does) run inside
    one snapshot of that database; its signature and marks are the endpoint's."""

    @functools.wraps(endpoint)
    def read_once(*args: Any, **kwargs: Any) -> Any:
        with kwargs["db"].snapshot():
            return endpoint(*args, **kwargs)

    return read_once


def _authorize(request: Request, action: Action) -> None:
    actor = current_actor(request)
    if actor.is_admin:
        return
    if not actor.authenticated and not request.url.path.startswith("/api/"):
        raise LoginRequired  # a page sends whoever is not logged in to the login form
    raw = request.path_params.get("event_id")
    event_id: int | None = None
    if raw is not None:
        text = str(raw)
        # An id that cannot exist leaves the caller with no role in it, hence refused.
        event_id = int(text) if text.isdigit() and len(text) <= _MAX_DIGITS else -1
    with database(request).transaction() as session:
        require(session, actor, action, event_id)


def _int_params(dependant: Dependant) -> tuple[frozenset[str], frozenset[str]]:
    """The integer path and query parameters of a route and its dependencies (a board key)."""
    paths: set[str] = set()
    queries: set[str] = set()
    todo = [dependant]
    while todo:
        d = todo.pop()
        paths.update(p.alias for p in d.path_params if _is_int(p.field_info.annotation))
        queries.update(p.alias for p in d.query_params if _is_int(p.field_info.annotation))
        todo.extend(d.dependencies)
    return frozenset(paths), frozenset(queries)


def _is_int(annotation: object) -> bool:
    return annotation is int or annotation == int | None


def _names_no_row(text: str) -> bool:
    """Whether ``text`` is an integer that is no id (ids are 1 … 2**63 − 1, a 64-bit column)."""
    digits = text.lstrip("-")
    return digits.isdigit() and (len(digits) > _MAX_DIGITS or not 1 <= int(text) <= MAX_ID)


async def _screen(request: Request, int_paths: frozenset[str], int_queries: frozenset[str]) -> None:
    for name, value in request.path_params.items():
        text = str(value)
        _screen_text(name, text)
        if name in int_paths and _names_no_row(text):
            shown = text if len(text) <= 30 else text[:30] + "…"
            raise NotFound(Msg("%(field)s %(value)s does not exist", field=Msg(name), value=shown))
    for name, value in request.query_params.multi_items():
        _screen_text(name, value)
        digits = value.strip().lstrip("-")
        if (
            name in int_queries
            and digits.isdigit()
            and (len(digits) > _MAX_DIGITS or int(digits) > MAX_ID)
        ):
            raise InputError(name, Msg("is out of range"))
    content_type = request.headers.get("content-type", "")
    if content_type.startswith(("application/x-www-form-urlencoded", "multipart/form-data")):
        form = await request.form()  # cached: FastAPI and the CSRF check read the same form
        for name, item in form.multi_items():
            if not isinstance(item, UploadFile):
                _screen_text(name, item)
    elif request.method not in ("GET", "HEAD") and "json" in content_type:
        body = await request.body()
        if body:
            _screen_json(body)


def _screen_text(field: str, text: str) -> None:
    for c in text:
        if c == "\x00":
            raise InputError(field, Msg("must not contain a NUL character"))
        if "\ud800" <= c <= "\udfff":
            raise InputError(
                field,
                Msg("contains a character that is not text (%(code)s)", code=f"U+{ord(c):04X}"),
            )


class _TooLong(str):
    """An integer literal too long to convert (Python's int-string limit)."""


def _parse_int(text: str) -> int | _TooLong:
    return _TooLong(text) if len(text.lstrip("-")) > _MAX_DIGITS else int(text)


def _screen_json(body: bytes) -> None:
    """Refuse a JSON body FastAPI would fail on, or whose values no database column holds."""
    try:
        text = body.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError("body", Msg("is not UTF-8 text")) from None
    try:
        value = json.loads(text, parse_int=_parse_int)
    except json.JSONDecodeError as err:
        raise InputError(
            "body",
            Msg(
                "is not JSON (line %(line)s, column %(column)s)", line=err.lineno, column=err.colno
            ),
        ) from None
    _screen_value((), value)


def _screen_value(path: tuple[str, ...], value: object) -> None:
    field = ".".join(path) or "body"
    if isinstance(value, _TooLong) or (
        isinstance(value, int) and not isinstance(value, bool) and not -MAX_ID <= value <= MAX_ID
    ):
        raise InputError(field, Msg("is out of range"))
    if isinstance(value, str):
        _screen_text(field, value)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _screen_value((*path, str(i)), item)
    elif isinstance(value, dict):
        for key, item in value.items():
            _screen_text(field, key)
            _screen_value((*path, key), item)
