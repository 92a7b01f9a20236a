"""Jinja2 rendering in the request's language.

One Jinja environment per locale, each with the i18n extension and that locale's catalogue
installed, so templates use ``{% trans %}…{% endtrans %}`` and ``_("…")`` directly.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Match

from weiqi.i18n import LANGUAGE_NAMES, LOCALES, negotiate, render, render_value, translations
from weiqi.messages import Msg
from weiqi.rules.result import Result
from weiqi.server.board import board_svg
from weiqi.server.security import csrf_token, current_actor, current_user, pop_flashes
from weiqi.services.actor import LOCAL_USERNAME
from weiqi.services.navigation import EventNavigation, event_navigation
from weiqi.tournament.details import format_local
from weiqi.tournament.settings import describe_time_control

TEMPLATES_DIR = Path(__file__).parent / "templates"
LANG_COOKIE = "lang"
CSRF_PLACEHOLDER = Markup("\x00csrf-token\x00")
"""What a page rendered for the page cache holds where the reader's CSRF token goes
(``server/page_cache.py`` puts each reader's own in): a NUL, which no stored text contains
(``server/inputs.py`` refuses it everywhere) and no template writes."""
RENDER_FOR_CACHE = "weiqi_render_for_cache"
"""The ``request.state`` flag under which a page is rendered with :data:`CSRF_PLACEHOLDER`."""


@cache
def environment(locale: str) -> Environment:
    """The Jinja environment of ``locale``."""
    env = Environment(
        loader=FileSystemLoader(TEMPLATES_DIR),
        autoescape=select_autoescape(["html", "svg"]),
        undefined=StrictUndefined,
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.install_gettext_translations(translations(locale), newstyle=True)  # type: ignore[attr-defined]
    env.globals["LOCALES"] = LOCALES
    env.globals["LANGUAGE_NAMES"] = LANGUAGE_NAMES
    env.globals["board_svg"] = board_svg
    env.globals["event_nav"] = event_nav
    # ``{{ reason|msg }}``: a Msg (or a msgid) in the page's language.
    env.filters["msg"] = lambda m: render(Msg.of(m), locale)
    # ``{{ komi|say }}``, ``{{ result|say }}``: a value (fraction, result, colour) as messages
    # write it; ``{{ "W+R"|result }}``: a stored result code in the page's language.
    env.filters["say"] = lambda v: render_value(v, locale)
    env.filters["result"] = lambda code: render_value(Result.parse(code), locale) if code else ""
    # ``{{ at|localtime(zone) }}``: a stored moment in the event's time zone (issue #13);
    # ``{{ settings.time_control|time_control }}``: a time control (or none) described in the
    # page's language
    env.filters["localtime"] = format_local
    # ``{{ who|person }}``: who acted, as a record stores it; the command line in the page's
    # language (命令行), a user by their name
    env.filters["person"] = lambda name: (
        render(Msg("(command line)"), locale) if name == LOCAL_USERNAME else name
    )
    env.filters["time_control"] = lambda tc: describe_time_control(tc, locale)
    return env


def event_nav(request: Request, event_id: int) -> EventNavigation:
    """The event's sub-navigation for this request's user (``event_nav.html`` draws it)."""
    return event_navigation(request.app.state.db, current_actor(request), event_id)


def locale_of(request: Request) -> str:
    """The request's language: the ``lang`` cookie, else ``Accept-Language``, else Chinese."""
    return negotiate(request.cookies.get(LANG_COOKIE), request.headers.get("accept-language"))


def translate(request: Request, message: str, **values: Any) -> str:
    """Translate ``message`` (an English msgid) into the request's language, then fill in
    ``%(name)s`` placeholders."""
    text = translations(locale_of(request)).gettext(message)
    return text % values if values else text


def say(request: Request, msg: Msg | str) -> str:
    """``msg`` (a message value, or a msgid without arguments) in the request's language."""
    return render(Msg.of(msg), locale_of(request))


def render_template(request: Request, name: str, context: Mapping[str, Any]) -> str:
    locale = locale_of(request)
    return environment(locale).get_template(name).render({"locale": locale, **context})


def _get_route(request: Request, path: str) -> bool:
    """Whether the application answers ``GET path`` with a page (a route matches it fully)."""
    scope = {"type": "http", "method": "GET", "path": path, "root_path": ""}
    return any(route.matches(scope)[0] is Match.FULL for route in request.app.router.routes)


def page_address(request: Request) -> str:
    """The address of the page a request shows. A form's answer (a POST: a refusal shown with
    its errors, or a board's page after an action) is shown at the address of the page it
    belongs to — the POST's own address when a page is there (``/events/3/settings``, with its
    query), else the nearest page above it (``…/manage/teams/import`` → ``…/manage``) — so
    that a reload, a language switch or a log-in link never re-POSTs or meets a 405."""
    query = f"?{request.url.query}" if request.url.query else ""
    path = request.url.path
    if request.method in ("GET", "HEAD") or _get_route(request, path):
        return path + query
    parts = path.rstrip("/").split("/")
    while len(parts) > 1:
        parts.pop()
        above = "/".join(parts) or "/"
        if _get_route(request, above):
            return above
    return "/"


def page_context(request: Request) -> dict[str, Any]:
    """What the base layout needs on every page; ``page_address`` (a POST's answer only): the
    address the page's script puts in the address bar (``history.replaceState``)."""
    here = page_address(request)
    return {
        "request": request,
        "user": current_user(request),
        "csrf_token": CSRF_PLACEHOLDER
        if getattr(request.state, RENDER_FOR_CACHE, False)
        else csrf_token(request),
        "flashes": pop_flashes(request),
        "here": here,
        "page_address": here if request.method == "POST" else None,
    }


def html(
    request: Request, name: str, context: Mapping[str, Any] | None = None, status_code: int = 200
) -> HTMLResponse:
    """Render the page ``name`` with ``context`` and the layout's ``page_context``."""
    full = {**page_context(request), **(context or {})}
    response = HTMLResponse(render_template(request, name, full), status_code=status_code)
    # The language comes from the cookie or Accept-Language: caches must keep them apart.
    response.headers["Vary"] = "Accept-Language, Cookie"
    return response
