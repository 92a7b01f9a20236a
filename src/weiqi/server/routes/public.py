"""The public pages of an event: overview, rounds, standings, crosstable, a player's games.

Every table page also answers ``?format=csv`` with the very cells it shows (UTF-8 with BOM,
headers in the page's language). Nobody needs to log in.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from fastapi import APIRouter
from fastapi.responses import RedirectResponse
from starlette.requests import Request
from starlette.responses import Response

from weiqi.errors import Conflict, NotFound
from weiqi.server.downloads import attachment
from weiqi.server.inputs import ScreenedRoute
from weiqi.server.page_cache import cached_page
from weiqi.server.public_tables import (
    Table,
    crosstable_table,
    gettext_for,
    place_text,
    player_table,
    players_table,
    round_table,
    settings_words,
    standings_table,
    standings_title,
    team_round_table,
    team_standings_table,
)
from weiqi.server.security import Db
from weiqi.server.team_tables import stage_table, with_zones
from weiqi.server.templating import html, locale_of, translate
from weiqi.services import league, public, team_admin, teams, winner_stays_on
from weiqi.services.winner_stays_on import WinnerStaysOnView

router = APIRouter(route_class=ScreenedRoute, include_in_schema=False)

Format = Literal["html", "csv"]
GridCells = Literal["words", "points"]
LEADERS = 5
"""How many of the standings the overview shows."""


def csv_response(table: Table, filename: str) -> Response:
    return attachment(
        table.csv().encode("utf-8"),
        filename,
        "text/csv; charset=utf-8",
        {"Vary": "Accept-Language, Cookie"},
    )


def event_frame(
    request: Request,
    db: Db,
    event_id: int,
    template: str,
    active: str,
    context: Mapping[str, object],
) -> Response:
    """A page in the frame of an event's public pages (``public_base.html``: its name, its
    navigation bar, marked at ``active``), either kind: the frame reads the event's overview,
    an individual or a team event's."""
    team = public.is_team_event(db, event_id)
    ev = public.team_overview(db, event_id) if team else public.overview(db, event_id)
    return html(request, template, {"ev": ev, "active": active, "team": team, **context})


def team_address(request: Request, db: Db, event_id: int, page: str) -> Response | None:
    """For a team event, a redirect from a page only individual events have (the crosstable,
    the players, the round sheet and its slips) to the team page that shows what it would, at
    ``page`` (a path), the query kept (``?format=csv``); ``None`` for an individual event. A
    link written for either kind leads somewhere, never to a dead end."""
    if not public.is_team_event(db, event_id):
        return None
    query = f"?{request.url.query}" if request.url.query else ""
    return RedirectResponse(f"{page}{query}", status_code=307)


@router.get("/events/{event_id}")
@cached_page
def event_page(request: Request, db: Db, event_id: int) -> Response:
    try:
        ev = public.overview(db, event_id)
    except NotFound:
        if public.is_team_event(db, event_id):
            return RedirectResponse(f"/events/{event_id}/standings", status_code=303)
        raise
    locale = locale_of(request)
    words = settings_words(ev.settings, ev.rounds_planned, locale)
    leaders = public.standings_read(db, event_id).rows[:LEADERS] if ev.rounds else []
    _ = gettext_for(locale)
    return html(
        request, "public_event.html",
        {"ev": ev, "active": "overview", "words": words,
         "leaders": [(place_text(r.place, r.shared, _), r) for r in leaders]},
    )  # fmt: skip


@router.get("/events/{event_id}/rounds/{number}")
@cached_page
def round_page(
    request: Request,
    db: Db,
    event_id: int,
    number: int,
    format: Format = "html",
    sgf: bool = False,
    q: str = "",
) -> Response:
    """A public round's pairings and results; ``q`` finds the boards of a player. A team
    event's round is its matches (:func:`team_round_page`), at the same address."""
    if public.is_team_event(db, event_id):
        return team_round_page(request, db, event_id, number, format, q)
    rnd = public.round_read(db, event_id, number, q)  # the API's round (one read model)
    table = round_table(rnd, locale_of(request), event_id=event_id, sgf=sgf)
    if format == "csv":
        return csv_response(table, f"event-{event_id}-round-{number}.csv")
    title = translate(request, "Round %(round)s", round=number)
    return event_frame(
        request, db, event_id, "public_table.html", f"round-{number}",
        {"table": table, "title": title, "kind": "round", "sgf": sgf,
         "projector": f"/events/{event_id}/rounds/{number}/projector",
         # the read model's local time with its offset: shown as typed, with the zone's name
         "starts": (rnd.starts_at or "")[:16].replace("T", " "),
         "search": _search(q.strip(), len(rnd.pairings) + len(rnd.byes), None,
                           {"sgf": "true"} if sgf else {})},
    )  # fmt: skip


@router.get("/events/{event_id}/standings")
@cached_page
def standings_page(
    request: Request, db: Db, event_id: int, format: Format = "html", q: str = ""
) -> Response:
    """The standings; ``q`` finds players in them (their places those of the whole field). A
    team event's are its team table (:func:`team_standings_page`), at the same address."""
    if public.is_team_event(db, event_id):
        return team_standings_page(request, db, event_id, format)
    data = public.standings_read(db, event_id, q)  # the API's standings (one read model)
    table = standings_table(data, locale_of(request), event_id=event_id)
    if format == "csv":
        return csv_response(table, f"event-{event_id}-standings.csv")
    title = standings_title(data.rounds, locale_of(request))
    return event_frame(
        request, db, event_id, "public_table.html", "standings",
        {"table": table, "title": title, "kind": "standings",
         "projector": f"/events/{event_id}/standings/projector",
         "search": _search(q.strip(), len(data.rows) + len(data.void), None)},
    )  # fmt: skip


@router.get("/events/{event_id}/crosstable")
@cached_page
def crosstable_page(request: Request, db: Db, event_id: int, format: Format = "html") -> Response:
    if (team := team_address(request, db, event_id, f"/events/{event_id}/standings")) is not None:
        return team  # the team table is the team event's
    table = crosstable_table(public.crosstable(db, event_id), locale_of(request), event_id=event_id)
    if format == "csv":
        return csv_response(table, f"event-{event_id}-crosstable.csv")
    return event_frame(
        request, db, event_id, "public_table.html", "crosstable",
        {"table": table, "title": translate(request, "Crosstable"), "kind": "crosstable"},
    )  # fmt: skip


@router.get("/events/{event_id}/schedule")
@cached_page
def schedule_page(request: Request, db: Db, event_id: int) -> Response:
    """A round robin's whole schedule (轮次表), once the organisers publish it."""
    data = public.schedule(db, event_id)
    return event_frame(
        request, db, event_id, "public_schedule.html", "schedule",
        {"schedule": data, "title": translate(request, "Schedule")},
    )  # fmt: skip


@router.get("/events/{event_id}/grid")
@cached_page
def grid_page(request: Request, db: Db, event_id: int, cells: GridCells = "words") -> Response:
    """The N×N round-robin grid (循环赛对阵表): ``cells=points`` shows each game's points."""
    data = public.grid(db, event_id)
    return event_frame(
        request, db, event_id, "public_grid.html", "grid",
        {"grid": data, "title": translate(request, "Round-robin grid"), "cells": cells},
    )  # fmt: skip


@router.get("/events/{event_id}/bracket")
@cached_page
def bracket_page(request: Request, db: Db, event_id: int) -> Response:
    """A knockout's bracket: rounds side by side, the winners advancing."""
    data = public.bracket(db, event_id)
    return event_frame(
        request, db, event_id, "public_bracket.html", "bracket",
        {"bracket": data, "title": translate(request, "Bracket")},
    )  # fmt: skip


def _search(
    text: str, shown: int, total: int | None, keep: dict[str, str] | None = None
) -> dict[str, object]:
    """What a page's player search box shows: the words, how many rows they leave."""
    return {"text": text, "shown": shown, "total": total, "keep": keep or {}}


@router.get("/events/{event_id}/players")
@cached_page
def players_page(
    request: Request, db: Db, event_id: int, format: Format = "html", q: str = ""
) -> Response:
    """The event's players with club, rank and country; ``q`` searches them."""
    if (team := team_address(request, db, event_id, f"/events/{event_id}/teams")) is not None:
        return team  # the teams with their players, searchable as this list is
    data = public.player_list(db, event_id, q)
    table = players_table(data, locale_of(request), event_id=event_id)
    if format == "csv":
        return csv_response(table, f"event-{event_id}-players.csv")
    return event_frame(
        request, db, event_id, "public_table.html", "players",
        {"table": table, "title": translate(request, "Players"), "kind": "players",
         "search": _search(data.search, len(data.players), data.total)},
    )  # fmt: skip


@router.get("/events/{event_id}/players/{player_id}")
@cached_page
def player_page(
    request: Request, db: Db, event_id: int, player_id: int, format: Format = "html"
) -> Response:
    card = public.player_card(db, event_id, player_id)
    table = player_table(card, locale_of(request), event_id=event_id)
    if format == "csv":
        return csv_response(table, f"event-{event_id}-player-{player_id}.csv")
    return event_frame(
        request, db, event_id, "public_table.html", "player",
        {"table": table, "title": card.player.label, "kind": "player", "card": card,
         "place": place_text(card.place, card.shared, gettext_for(locale_of(request)))},
    )  # fmt: skip


# -- team events (a league division is one) ----------------------------------------------------


def team_standings_view(request: Request, db: Db, event_id: int) -> tuple[str, Table]:
    """The title and table of a team event's standings page and projector: the team
    standings, or a 擂台赛's games and where it stands (it has a winner, not a table)."""
    if teams.team_event_info(db, event_id).settings.stage:
        return translate(request, "Winner stays on (擂台赛)"), _stage_table(request, db, event_id)
    rows = teams.standings(db, event_id)
    boards = public.team_overview(db, event_id).boards
    return translate(request, "Team standings"), team_standings_table(
        rows, boards, locale_of(request)
    )


def _stage_table(request: Request, db: Db, event_id: int) -> Table:
    """A 擂台赛's games and where it stands; before the reveal, an empty table (the page says
    there is nothing to show yet)."""
    cards = team_admin.team_cards(db, event_id)
    names = {c.code: c.name for c in cards}
    shown = {(c.code, p.player): p.shown for c in cards for p in c.roster}
    try:
        view: WinnerStaysOnView | None = winner_stays_on.winner_stays_on(db, event_id)
    except Conflict:  # the lineups are not revealed yet: no game
        view = None
    return stage_table(view, event_id, names, shown, locale_of(request))


def team_standings_page(
    request: Request, db: Db, event_id: int, format: Format = "html"
) -> Response:
    title, table = team_standings_view(request, db, event_id)
    if format == "csv":
        return csv_response(table, f"event-{event_id}-team-standings.csv")
    return event_frame(
        request, db, event_id, "public_table.html", "standings",
        {"table": table, "title": title, "kind": "standings",
         "projector": f"/events/{event_id}/standings/projector"},
    )  # fmt: skip


def team_round_page(
    request: Request, db: Db, event_id: int, number: int, format: Format = "html", q: str = ""
) -> Response:
    """A team round's matches and boards; ``q`` finds the matches of a team or of a player
    seated for it (name as shown, rank, nationality)."""
    cards = team_admin.team_cards(db, event_id)
    rnd, total = team_admin.search_round(cards, teams.show_round(db, event_id, number), q)
    stage = teams.team_event_info(db, event_id).settings.stage
    table = team_round_table(
        rnd, locale_of(request), event_id, {c.code: c.name for c in cards}, stage=stage
    )
    if format == "csv":
        return csv_response(table, f"event-{event_id}-team-round-{number}.csv")
    title = translate(request, "Round %(round)s", round=number)
    return event_frame(
        request,
        db,
        event_id,
        "public_table.html",
        f"round-{number}",
        {
            "table": table,
            "title": title,
            "kind": "teamround",
            "projector": f"/events/{event_id}/rounds/{number}/projector",
            "search": _search(q.strip(), len(rnd.matches), total),
        },
    )


@router.get("/leagues/{season_id}")
def league_page(
    request: Request, db: Db, season_id: int, format: Format = "html", division: str | None = None
) -> Response:
    """A season's table of every division, top division first; CSV of one division."""
    season = league.season_info(db, season_id)
    locale = locale_of(request)
    last = len(season.divisions) - 1
    tables = [
        # R-LEAGUE-1: the lower divisions' first clubs go up, the higher ones' last go down
        (
            d,
            with_zones(
                team_standings_table(
                    teams.standings(db, d.event_id), season.settings.boards, locale
                ),
                season.settings.promoted if i > 0 else 0,
                season.settings.relegated if i < last else 0,
                locale,
            ),
        )
        for i, d in enumerate(season.divisions)
        if format == "html" or d == season.division(division)
    ]
    if format == "csv":
        index = season.divisions.index(tables[0][0]) + 1  # a header stays ASCII: no 甲 in it
        return csv_response(tables[0][1], f"league-{season_id}-division-{index}.csv")
    return html(request, "public_league.html", {"season": season, "tables": tables})
