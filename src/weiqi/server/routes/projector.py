"""The projector view of an event's pairings and standings: the hall's screen, large type, one
screenful at a time (``static/projector.js`` pages through the rows and reloads the page after
the last one to show new results; ``?seconds=0`` pages only by the arrow keys).

Each view reads the same model and builds the same table as its public page (a round:
``public.round_read`` and ``round_table``; the standings: ``public.standings_read`` and
``standings_table``; a team event's through ``teams``), so the projector shows what the page
shows, in the reader's language, public rounds only.

| address | shows |
|---|---|
| ``/events/{id}/rounds/{n}/projector`` | the round's boards; a team round's matches by board |
| ``/events/{id}/standings/projector`` | the standings; a team event's table |
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from starlette.requests import Request
from starlette.responses import Response

from weiqi.server.inputs import ScreenedRoute
from weiqi.server.page_cache import cached_page
from weiqi.server.public_tables import (
    Table,
    round_table,
    standings_table,
    standings_title,
    team_round_table,
)
from weiqi.server.routes.public import team_standings_view
from weiqi.server.security import Db
from weiqi.server.templating import html, locale_of, translate
from weiqi.services import public, teams
from weiqi.services.events import event_details
from weiqi.services.team_admin import team_names

router = APIRouter(route_class=ScreenedRoute, include_in_schema=False)

DEFAULT_SECONDS = 15
"""How long one screenful stays up."""
Seconds = Annotated[int, Query(ge=0, le=600)]


def _projector(
    request: Request,
    db: Db,
    event_id: int,
    *,
    event_name: str,
    title: str,
    table: Table,
    kind: str,
    back: str,
    seconds: int,
) -> Response:
    """The projector page of event ``event_id``; its script shows the time in the event's
    time zone."""
    context = {
        "time_zone": event_details(db, event_id).time_zone,
        "event_name": event_name,
        "title": title,
        "table": table,
        "kind": kind,
        "back": back,
        "seconds": seconds,
    }
    return html(request, "projector.html", context)


@router.get("/events/{event_id}/rounds/{number}/projector")
@cached_page
def round_projector(
    request: Request, db: Db, event_id: int, number: int, seconds: Seconds = DEFAULT_SECONDS
) -> Response:
    if public.is_team_event(db, event_id):
        return team_round_projector(request, db, event_id, number, seconds)
    rnd = public.round_read(db, event_id, number)
    return _projector(
        request,
        db,
        event_id,
        event_name=rnd.event,
        title=translate(request, "Round %(round)s", round=number),
        table=round_table(rnd, locale_of(request), event_id=event_id),
        kind="round",
        back=f"/events/{event_id}/rounds/{number}",
        seconds=seconds,
    )


@router.get("/events/{event_id}/standings/projector")
@cached_page
def standings_projector(
    request: Request, db: Db, event_id: int, seconds: Seconds = DEFAULT_SECONDS
) -> Response:
    if public.is_team_event(db, event_id):
        return team_standings_projector(request, db, event_id, seconds)
    data = public.standings_read(db, event_id)
    title = standings_title(data.rounds, locale_of(request))
    return _projector(
        request,
        db,
        event_id,
        event_name=data.event,
        title=title,
        table=standings_table(data, locale_of(request), event_id=event_id),
        kind="standings",
        back=f"/events/{event_id}/standings",
        seconds=seconds,
    )


def team_round_projector(
    request: Request, db: Db, event_id: int, number: int, seconds: Seconds = DEFAULT_SECONDS
) -> Response:
    rnd = teams.show_round(db, event_id, number)
    ev = public.team_overview(db, event_id)
    names = team_names(db, event_id)
    return _projector(
        request,
        db,
        event_id,
        event_name=ev.name,
        title=translate(request, "Round %(round)s", round=number),
        table=team_round_table(rnd, locale_of(request), event_id, names, stage=ev.stage),
        kind="teamround",
        back=f"/events/{event_id}/rounds/{number}",
        seconds=seconds,
    )


def team_standings_projector(
    request: Request, db: Db, event_id: int, seconds: Seconds = DEFAULT_SECONDS
) -> Response:
    title, table = team_standings_view(request, db, event_id)
    return _projector(
        request,
        db,
        event_id,
        event_name=public.team_overview(db, event_id).name,
        title=title,
        table=table,
        kind="standings",
        back=f"/events/{event_id}/standings",
        seconds=seconds,
    )
