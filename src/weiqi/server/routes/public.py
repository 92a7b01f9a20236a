"""The public pages of an event: overview, rounds, standings, crosstable, a player's games.

Every table page also answers ``?format=csv`` with the very cells it shows (UTF-8 with BOM,
headers in the page's language). Nobody needs to log in.
"""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter
from starlette.requests import Request
from starlette.responses import Response

from weiqi.errors import NotFound
from weiqi.server.public_tables import (
    Table,
    crosstable_table,
    gettext_for,
    place_text,
    player_table,
    round_table,
    settings_words,
    standings_table,
)
from weiqi.server.security import Db
from weiqi.server.templating import html, locale_of, translate
from weiqi.services import public
from weiqi.services.events import get_event

router = APIRouter(include_in_schema=False)

Format = Literal["html", "csv"]
LEADERS = 5
"""How many of the standings the overview shows."""


def csv_response(table: Table, filename: str) -> Response:
    return Response(
        table.csv().encode("utf-8"),
        media_type="text/csv; charset=utf-8",
        headers={
            "Content-Disposition": f'attachment; filename="{filename}"',
            "Vary": "Accept-Language, Cookie",
        },
    )


def _page(
    request: Request,
    db: Db,
    event_id: int,
    template: str,
    active: str,
    context: dict[str, object],
) -> Response:
    ev = public.overview(db, event_id)
    return html(request, template, {"ev": ev, "active": active, **context})


@router.get("/events/{event_id}")
def event_page(request: Request, db: Db, event_id: int) -> Response:
    try:
        ev = public.overview(db, event_id)
    except NotFound:
        # an event created by name only (the administration page) has no settings yet
        plain = get_event(db, event_id)
        return html(request, "public_unset.html", {"event": plain})
    locale = locale_of(request)
    words = settings_words(ev.settings, ev.rounds_planned, locale)
    leaders = public.standings(db, event_id).rows[:LEADERS] if ev.rounds else ()
    _ = gettext_for(locale)
    return html(
        request, "public_event.html",
        {"ev": ev, "active": "overview", "words": words,
         "leaders": [(place_text(r.place, r.shared, _), r) for r in leaders]},
    )  # fmt: skip


@router.get("/events/{event_id}/rounds/{number}")
def round_page(
    request: Request, db: Db, event_id: int, number: int, format: Format = "html", sgf: bool = False
) -> Response:
    rnd = public.public_round(db, event_id, number)
    table = round_table(rnd, locale_of(request), event_id=event_id, sgf=sgf)
    if format == "csv":
        return csv_response(table, f"event-{event_id}-round-{number}.csv")
    title = translate(request, "Round %(round)s", round=number)
    return _page(
        request, db, event_id, "public_table.html", f"round-{number}",
        {"table": table, "title": title, "kind": "round", "sgf": sgf},
    )  # fmt: skip


@router.get("/events/{event_id}/standings")
def standings_page(request: Request, db: Db, event_id: int, format: Format = "html") -> Response:
    data = public.standings(db, event_id)
    table = standings_table(data, locale_of(request), event_id=event_id)
    if format == "csv":
        return csv_response(table, f"event-{event_id}-standings.csv")
    if data.rounds:
        title = translate(request, "Standings after round %(round)s", round=data.rounds)
    else:
        title = translate(request, "Standings")
    return _page(
        request, db, event_id, "public_table.html", "standings",
        {"table": table, "title": title, "kind": "standings"},
    )  # fmt: skip


@router.get("/events/{event_id}/crosstable")
def crosstable_page(request: Request, db: Db, event_id: int, format: Format = "html") -> Response:
    table = crosstable_table(public.crosstable(db, event_id), locale_of(request), event_id=event_id)
    if format == "csv":
        return csv_response(table, f"event-{event_id}-crosstable.csv")
    return _page(
        request, db, event_id, "public_table.html", "crosstable",
        {"table": table, "title": translate(request, "Crosstable"), "kind": "crosstable"},
    )  # fmt: skip


@router.get("/events/{event_id}/players/{player_id}")
def player_page(
    request: Request, db: Db, event_id: int, player_id: int, format: Format = "html"
) -> Response:
    card = public.player_card(db, event_id, player_id)
    table = player_table(card, locale_of(request), event_id=event_id)
    if format == "csv":
        return csv_response(table, f"event-{event_id}-player-{player_id}.csv")
    return _page(
        request, db, event_id, "public_table.html", "player",
        {"table": table, "title": card.player.name, "kind": "player", "card": card,
         "place": place_text(card.place, card.shared, gettext_for(locale_of(request)))},
    )  # fmt: skip
