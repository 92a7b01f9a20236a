"""The coach's lineup page and the public pages of team events and leagues: a round's matches
board by board, the team standings (R-RANK-TEAM), player and board records (board prizes), a
season's league tables with promotion and relegation zones (R-LEAGUE-1), a division's dated
calendar and the transfer draft's log. Every table prints on A4 and downloads as CSV
(``?format=csv``, UTF-8 with BOM). Lineups stay sealed until the round is revealed."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import RedirectResponse
from starlette.requests import Request
from starlette.responses import Response

from weiqi.errors import LineupRejected, NotFound
from weiqi.server.routes.event_admin import rank_label
from weiqi.server.routes.team_admin import TEAM_SYSTEM_NAMES, reason_text, settings_words
from weiqi.server.security import CurrentActor, Db, LoggedIn, flash
from weiqi.server.team_tables import (
    Table,
    boards_table,
    calendar_table,
    colour_text,
    csv_response,
    draft_table,
    league_table,
    match_score,
    player_table,
    result_text,
    round_table,
    standings_table,
)
from weiqi.server.templating import html, locale_of, translate
from weiqi.services import league, team_admin, teams
from weiqi.services.permissions import Action, allowed

router = APIRouter(include_in_schema=False)


def _gettext(request: Request) -> Any:
    def _(text: str) -> str:
        return translate(request, text)

    return _


def _names(db: Db, event_id: int) -> dict[str, str]:
    return {t.code: t.name for t in team_admin.team_cards(db, event_id)}


def _event_context(request: Request, db: Db, event_id: int, active: str) -> dict[str, Any]:
    info = teams.team_event_info(db, event_id)
    return {
        "info": info,
        "words": settings_words(request, info.settings),
        "round_numbers": range(1, info.rounds + 1),
        "active": active,
        "tables_page": info.settings.system is not teams.TeamSystem.WINNER_STAYS_ON,
    }


def _tables_page(
    request: Request,
    context: dict[str, Any],
    title: str,
    sections: list[tuple[str, Table]],
    *,
    csv_name: str,
    csv_table: Table | None = None,
    note: str = "",
) -> Response:
    if request.query_params.get("format") == "csv":
        return csv_response(csv_table or sections[0][1], csv_name)
    return html(
        request,
        "team_tables.html",
        {**context, "title": title, "sections": sections, "note": note},
    )


@router.get("/team-events/{event_id}")
def overview(request: Request, db: Db, actor: CurrentActor, event_id: int) -> Response:
    context = _event_context(request, db, event_id, "overview")
    rounds = teams.list_rounds(db, event_id)
    names = _names(db, event_id)
    runs = allowed(db, actor, Action.MANAGE_PLAYERS, event_id) or allowed(
        db, actor, Action.RECORD_RESULT, event_id
    )
    return html(
        request,
        "team_overview.html",
        {
            **context,
            "rounds": rounds,
            "teams": team_admin.team_cards(db, event_id),
            "names": names,
            "runs": runs,
            "may_lineup": allowed(db, actor, Action.SUBMIT_LINEUP, event_id),
            "system_name": translate(request, TEAM_SYSTEM_NAMES[context["info"].settings.system]),
        },
    )


@router.get("/team-events/{event_id}/rounds/{number}")
def round_public(request: Request, db: Db, event_id: int, number: int) -> Response:
    context = _event_context(request, db, event_id, f"round-{number}")
    view = teams.show_round(db, event_id, number)
    names = _names(db, event_id)
    _ = _gettext(request)
    locale = locale_of(request)
    title = translate(request, "Round %(n)s", n=number)
    if request.query_params.get("format") == "csv":
        table = round_table(view, names, locale, _)
        return csv_response(table, f"team-event-{event_id}-round-{number}.csv")
    return html(
        request,
        "team_round.html",
        {
            **context,
            "title": title,
            "round": view,
            "names": names,
            "result_text": lambda code: result_text(code, locale),
            "colour_text": lambda colour: colour_text(colour, _),
            "match_score": lambda m: match_score(m, _),
        },
    )


@router.get("/team-events/{event_id}/standings")
def standings_page(request: Request, db: Db, event_id: int) -> Response:
    context = _event_context(request, db, event_id, "standings")
    info = context["info"]
    table = standings_table(teams.standings(db, event_id), info.settings.boards, _gettext(request))
    title = translate(request, "Team standings")
    note = translate(
        request,
        "R-RANK-TEAM: match points (win 2, draw 1, loss 0), then game points, then the game "
        "points of board 1, board 2 …; teams equal on all of them share the place.",
    )
    return _tables_page(
        request,
        context,
        title,
        [("", table)],
        csv_name=f"team-event-{event_id}-standings.csv",
        note=note,
    )


@router.get("/team-events/{event_id}/records")
def records_page(request: Request, db: Db, event_id: int) -> Response:
    context = _event_context(request, db, event_id, "records")
    names = _names(db, event_id)
    _ = _gettext(request)
    players, by_board = teams.records(db, event_id)
    board_t = boards_table(by_board, names, _)
    player_t = player_table(players, names, _)
    title = translate(request, "Board prizes and player records")
    kind = request.query_params.get("table", "boards")
    return _tables_page(
        request,
        context,
        title,
        [(translate(request, "By board"), board_t), (translate(request, "Players"), player_t)],
        csv_name=f"team-event-{event_id}-{'players' if kind == 'players' else 'boards'}.csv",
        csv_table=player_t if kind == "players" else board_t,
    )


# -- the coach's lineup ---------------------------------------------------------------------


def _lineup_page(
    request: Request,
    db: Db,
    event_id: int,
    number: int,
    team: str,
    *,
    chosen: list[str] | None = None,
    refused: str = "",
    status_code: int = 200,
) -> Response:
    info = teams.team_event_info(db, event_id)
    view = teams.show_round(db, event_id, number)
    cards = team_admin.team_cards(db, event_id)
    playing = [c for m in view.matches for c in (m.home, m.away)]
    if info.settings.system is teams.TeamSystem.WINNER_STAYS_ON:
        playing = [c.code for c in cards]
    choices = [c for c in cards if c.code in playing]
    card = next((c for c in choices if c.code == team), None)
    match = next((m for m in view.matches if team in (m.home, m.away)), None)
    submitted = bool(match and match.submitted.get(team))
    chosen = chosen or []
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
            "chosen": chosen,
            "substitutes": [p for p in card.roster if p.player not in chosen] if card else [],
            "refused": refused,
            "rank_label": lambda code: rank_label(locale_of(request), code),
        },
        status_code=status_code,
    )


@router.get("/team-events/{event_id}/rounds/{number}/lineup")
def lineup_page(
    request: Request, db: Db, user: LoggedIn, event_id: int, number: int, team: str = ""
) -> Response:
    return _lineup_page(request, db, event_id, number, team)


@router.post("/team-events/{event_id}/rounds/{number}/lineup")
async def submit_lineup(
    request: Request, db: Db, user: LoggedIn, event_id: int, number: int
) -> Response:
    form = await request.form()
    team = str(form.get("team", ""))
    info = teams.team_event_info(db, event_id)
    players = [str(form.get(f"board_{b}", "")).strip() for b in range(1, info.settings.boards + 1)]
    try:
        teams.submit_lineup(db, user.actor(), event_id, number, team, players)
    except LineupRejected as err:
        return _lineup_page(
            request,
            db,
            event_id,
            number,
            team,
            chosen=players,
            refused=reason_text(request, err.reason),
            status_code=422,
        )
    flash(request, translate(request, "The lineup is sealed until the round is revealed."))
    return RedirectResponse(
        f"/team-events/{event_id}/rounds/{number}/lineup?team={team}", status_code=303
    )


# -- leagues --------------------------------------------------------------------------------


def _season_context(request: Request, db: Db, season_id: int, active: str) -> dict[str, Any]:
    info = league.season_info(db, season_id)
    return {"season": info, "active": active}


@router.get("/leagues/{season_id}")
def league_page(request: Request, db: Db, season_id: int) -> Response:
    """Each division's table; the zones say who goes up and who goes down (R-LEAGUE-1)."""
    context = _season_context(request, db, season_id, "table")
    season = context["season"]
    _ = _gettext(request)
    sections = []
    last = len(season.divisions) - 1
    for i, d in enumerate(season.divisions):
        rows = teams.standings(db, d.event_id)
        table = league_table(
            rows,
            season.settings.boards,
            season.settings.promoted if i > 0 else 0,
            season.settings.relegated if i < last else 0,
            _,
        )
        sections.append((d, table))
    division = request.query_params.get("division")
    if request.query_params.get("format") == "csv":
        found = next((t for d, t in sections if d.division == division), sections[0][1])
        return csv_response(found, f"league-{season_id}-table.csv")
    return html(request, "league.html", {**context, "sections": sections})


@router.get("/leagues/{season_id}/calendar")
def calendar_page(request: Request, db: Db, season_id: int) -> Response:
    context = _season_context(request, db, season_id, "calendar")
    season = context["season"]
    _ = _gettext(request)
    sections = []
    for d in season.divisions:
        rounds = teams.list_rounds(db, d.event_id)
        sections.append((d, calendar_table(rounds, _names(db, d.event_id), _)))
    division = request.query_params.get("division")
    if request.query_params.get("format") == "csv":
        found = next((t for d, t in sections if d.division == division), sections[0][1])
        return csv_response(found, f"league-{season_id}-calendar.csv")
    return html(request, "league.html", {**context, "sections": sections})


@router.get("/drafts/{draft_id}")
def draft_page(request: Request, db: Db, draft_id: int) -> Response:
    view = league.show_draft(db, draft_id)
    table = draft_table(view.log, _gettext(request))
    if request.query_params.get("format") == "csv":
        return csv_response(table, f"draft-{draft_id}.csv")
    try:
        season = league.season_info(db, view.season_id)
    except NotFound:
        season = None
    return html(request, "draft.html", {"draft": view, "table": table, "season": season})
