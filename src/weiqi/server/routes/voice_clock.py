"""The electronic voice clock for over-the-board games (Art. 12.1): ``/clock``.

``/clock`` offers the presets and a free form; ``/clock?tc=55m+5x60s`` opens the clock with that
setting (``&edit=1``: the form filled in with it; ``&simulate=1``: a clock whose time only moves
through ``window.weiqiClock.advance(ms)``, for tests and demonstrations). The free form sends its
fields to ``/clock`` too; a valid setting redirects to its canonical ``?tc=``.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter
from fastapi.responses import RedirectResponse
from starlette.requests import Request
from starlette.responses import Response

from weiqi.clock import TimeControl, TimeSystem
from weiqi.errors import InvalidSetting
from weiqi.server.inputs import ScreenedRoute
from weiqi.server.templating import html, locale_of, say, translate
from weiqi.server.voice_clock import (
    FORM_FIELDS,
    PRESETS,
    form_field,
    form_values,
    plan,
    settings_from_form,
)

router = APIRouter(route_class=ScreenedRoute, include_in_schema=False)


def _reason(request: Request, err: InvalidSetting) -> str:
    return say(request, err.reason)


def _form(
    request: Request,
    values: dict[str, str],
    errors: dict[str, str],
    settings: str,
    simulate: bool,
) -> Response:
    context: dict[str, Any] = {
        "presets": PRESETS,
        "systems": list(TimeSystem),
        "values": values,
        "errors": errors,
        "settings": settings,
        "simulate": simulate,
        "plan": None,
    }
    return html(request, "voice_clock.html", context, status_code=422 if errors else 200)


@router.get("/clock")
def clock_page(request: Request) -> Response:
    query = request.query_params
    simulate = query.get("simulate") == "1"
    settings = query.get("tc", "").strip()
    blank = {name: "" for name in FORM_FIELDS} | {"system": TimeSystem.BYO_YOMI.value}
    if "system" in query:
        values = {name: query.get(name, "") for name in FORM_FIELDS}
        try:
            tc = settings_from_form(values)
        except InvalidSetting as err:
            return _form(
                request, values, {form_field(err.field): _reason(request, err)}, "", simulate
            )
        target = {"tc": tc.format(), **({"simulate": "1"} if simulate else {})}
        return RedirectResponse(f"/clock?{urlencode(target)}", status_code=303)
    if not settings:
        return _form(request, blank, {}, "", simulate)
    try:
        tc = TimeControl.parse(settings)
    except InvalidSetting as err:
        where = translate(request, err.field)
        message = translate(
            request, "%(field)s: %(reason)s", field=where, reason=_reason(request, err)
        )
        return _form(request, blank, {"tc": message}, settings, simulate)
    if query.get("edit") == "1":
        return _form(request, form_values(tc), {}, tc.format(), simulate)
    context = {
        "plan": plan(tc, locale_of(request)),
        "settings": tc.format(),
        "simulate": simulate,
    }
    return html(request, "voice_clock.html", context)
