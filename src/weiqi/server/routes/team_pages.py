"""The coach's lineup page and the team and league pages ``routes/public.py`` does not have: a
team event's teams and rosters, board prizes and player records, a season's dated calendar and
the transfer draft's log — in the frame and tables of the public pages (``public_base.html``,
``public_tables.Table``), each printable on A4 and exported as CSV (``?format=csv``, UTF-8 with
BOM). Lineups stay sealed until the round is revealed."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import RedirectResponse
from starlette.requests import Request
from starlette.responses import Response

from weiqi.errors import LineupRejected, NotFound
from weiqi.server.inputs import ScreenedRoute, requires
from weiqi.server.moved import current_address
from weiqi.server.page_cache import cached_page
from weiqi.server.page_forms import PostedForm, rank_label
from weiqi.server.routes.public import csv_response, event_frame
from weiqi.server.routes.team_admin import settings_words, stage_context
from weiqi.server.security import AppClock, CurrentActor, Db, LoggedIn, flash
from weiqi.server.team_tables import (
    boards_table,
    calendar_table,
    draft_table,
    player_table,
    result_text,
)
from weiqi.server.templating import html, locale_of, say, translate
from weiqi.services import league, team_admin, team_coaches, teams
from weiqi.services.actor import Actor
from weiqi.services.permissions import Action, allowed

router = APIRouter(route_class=ScreenedRoute, include_in_schema=False)


def _may_run(db: Db, actor: Actor, event_id: int) -> bool:
    return allowed(db, actor, Action.MANAGE_PLAYERS, event_id) or allowed(
        db, actor, Action.RECORD_RESULT, event_id
    )


@router.api_route("/team-events/{rest:path}", methods=["GET", "POST"])
@router.api_route("/events/{event_id}/teams/rounds/{rest:path}", methods=["GET", "POST"])
@router.api_route("/events/{event_id}/teams/standings", methods=["GET"])
@router.api_route("/events/{event_id}/teams/standings/{rest:path}", methods=["GET"])
def old_team_address(request: Request) -> Response:
    """Team events' pages were once under ``/team-events/``, then their rounds and standings
    under ``/events/{id}/teams/``; they are at every event's addresses now (a printed or
    bookmarked address still arrives; a lineup form's post is repeated there)."""
    return RedirectResponse(current_address(request.url.path, request.url.query), status_code=308)


@router.get("/events/{event_id}/teams")
@cached_page
def teams_page(
    request: Request, db: Db, actor: CurrentActor, event_id: int, q: str = ""
) -> Response:
    """The teams with their rosters, the rounds, and a coach's way to the lineup form; ``q``
    finds teams (name, club, coach) and players (name as shown, rank, nationality)."""
    info = teams.team_event_info(db, event_id)
    cards = team_admin.team_cards(db, event_id)
    return event_frame(
        request,
        db,
        event_id,
        "team_overview.html",
        "teams",
        {
            "info": info,
            "words": settings_words(request, info.settings),
            "rounds": teams.list_rounds(db, event_id),
            "teams": cards,
            "found": team_admin.search_teams(cards, q),
            # a found player keeps their place in the roster's numbering
            "positions": {p.id: i for c in cards for i, p in enumerate(c.roster, start=1)},
            "rank_label": lambda code: rank_label(locale_of(request), code),
            "names": {t.code: t.name for t in cards},
            "runs": _may_run(db, actor, event_id),
            "may_lineup": allowed(db, actor, Action.SUBMIT_LINEUP, event_id),
            # a 擂台赛's matches are its games: each named by its number, with its result
            "stage": info.settings.stage,
            "result_text": lambda code: result_text(code, locale_of(request)),
        },
    )


@router.get("/events/{event_id}/teams/records")
@cached_page
def records_page(
    request: Request, db: Db, event_id: int, format: str = "html", table: str = "boards"
) -> Response:
    """Board prizes: each board's players by game points; then every player's record."""
    cards = team_admin.team_cards(db, event_id)
    names = {t.code: t.name for t in cards}
    current = {p.player: p.shown for t in cards for p in t.roster}  # edited names show
    locale = locale_of(request)
    players, by_board = teams.records(db, event_id)
    board_t = boards_table(by_board, names, locale, current)
    player_t = player_table(players, names, locale, current)
    if format == "csv":
        kind = "players" if table == "players" else "boards"
        return csv_response(
            player_t if kind == "players" else board_t, f"event-{event_id}-{kind}.csv"
        )
    return event_frame(
        request,
        db,
        event_id,
        "team_records.html",
        "records",
        {"boards_table": board_t, "players_table": player_t},
    )


# -- the coach's lineup ---------------------------------------------------------------------


def lineup_form_page(
    request: Request,
    db: Db,
    actor: Actor,
    event_id: int,
    number: int,
    team: str,
    *,
    chosen: list[str] | None = None,
    refused: str = "",
    values: dict[str, str] | None = None,
    errors: dict[str, str] | None = None,
    status_code: int = 200,
) -> Response:
    """A coach's lineup page for ``team`` in round ``number`` — and, once a 擂台赛's round is
    revealed, its stage with the form that sends the team's next player: a refused lineup
    (``refused``, ``chosen``) or send (``values``, ``errors``) comes back on it."""
    info = teams.team_event_info(db, event_id)
    view = teams.show_round(db, event_id, number)
    cards = team_admin.team_cards(db, event_id)
    playing = [c for m in view.matches for c in (m.home, m.away)]
    if info.settings.stage:
        playing = [c.code for c in cards]
    mine = team_coaches.lineup_teams(db, actor, event_id)
    choices = [c for c in cards if c.code in playing and (mine is None or c.code in mine)]
    if team == "" and len(choices) == 1:
        team = choices[0].code
    card = next((c for c in choices if c.code == team), None)
    match = next((m for m in view.matches if team in (m.home, m.away)), None)
    submitted = bool(match and match.submitted.get(team))
    # the coach sees the lineup they sealed (and the form starts from it)
    sealed = (
        teams.sealed_lineup(db, actor, event_id, number, team)
        if card is not None and submitted and not view.revealed_at
        else None
    )
    chosen = chosen or (list(sealed.players) if sealed else [])
    return html(
        request,
        "team_lineup.html",
        {
            "info": info,
            "round": view,
            "teams": choices,
            "team": card,
            "match": match,
            "names": {c.code: c.name for c in cards},
            "submitted": submitted,
            "sealed": sealed,
            "player_names": {p.player: p.shown for p in card.roster} if card else {},
            "chosen": chosen,
            "substitutes": [p for p in card.roster if p.player not in chosen] if card else [],
            "refused": refused,
            "rank_label": lambda code: rank_label(locale_of(request), code),
            "values": values or {},
            "errors": errors or {},
            **stage_context(db, actor, info, view, cards, locale_of(request)),
        },
        status_code=status_code,
    )


@router.get("/events/{event_id}/rounds/{number}/lineup")
def lineup_page(
    request: Request, db: Db, user: LoggedIn, event_id: int, number: int, team: str = ""
) -> Response:
    return lineup_form_page(request, db, user.actor(), event_id, number, team)


@router.post("/events/{event_id}/rounds/{number}/lineup")
@requires(Action.SUBMIT_LINEUP)
def submit_lineup(
    request: Request,
    form: PostedForm,
    db: Db,
    clock: AppClock,
    user: LoggedIn,
    event_id: int,
    number: int,
) -> Response:
    team = str(form.get("team", ""))
    info = teams.team_event_info(db, event_id)
    players = [str(form.get(f"board_{b}", "")).strip() for b in range(1, info.settings.boards + 1)]
    try:
        teams.submit_lineup(db, user.actor(), event_id, number, team, players, clock=clock)
    except LineupRejected as err:
        return lineup_form_page(
            request,
            db,
            user.actor(),
            event_id,
            number,
            team,
            chosen=players,
            refused=say(request, err.reason),
            status_code=422,
        )
    flash(request, translate(request, "The lineup is sealed until the round is revealed."))
    return RedirectResponse(
        f"/events/{event_id}/rounds/{number}/lineup?team={team}", status_code=303
    )


# -- leagues --------------------------------------------------------------------------------


@router.get("/leagues/{season_id}/calendar")
def calendar_page(
    request: Request, db: Db, season_id: int, format: str = "html", division: str | None = None
) -> Response:
    """The dated calendar of every division (R-LEAGUE-1: each pair of clubs meets twice)."""
    season = league.season_info(db, season_id)
    locale = locale_of(request)
    tables = [
        (
            d,
            calendar_table(
                teams.list_rounds(db, d.event_id), team_admin.team_names(db, d.event_id), locale
            ),
        )
        for d in season.divisions
    ]
    if format == "csv":
        chosen = season.division(division)
        found = next(t for d, t in tables if d == chosen)
        return csv_response(found, f"league-{season_id}-calendar.csv")
    return html(request, "league_calendar.html", {"season": season, "tables": tables})


@router.get("/drafts/{draft_id}")
def draft_page(request: Request, db: Db, draft_id: int, format: str = "html") -> Response:
    """The transfer draft's log as it stands (R-LEAGUE-2)."""
    view = league.show_draft(db, draft_id)
    table = draft_table(view.log, locale_of(request))
    if format == "csv":
        return csv_response(table, f"draft-{draft_id}.csv")
    try:
        season = league.season_info(db, view.season_id)
    except NotFound:
        season = None
    return html(request, "draft.html", {"draft": view, "table": table, "season": season})
