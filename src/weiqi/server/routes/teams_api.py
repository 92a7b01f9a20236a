"""The JSON API of team events and league seasons: the same services as ``weiqi team`` and
``weiqi league``, so the same permissions (R-ORG-1) and the same JSON as their ``--json``.

Lineups stay sealed: a round read before its reveal says only which teams have submitted. The
time of a lineup is the server's clock: a body that says when it was sent (``"at"``, accepted
before) is refused with 422 like any unknown field, so an old client learns it is not obeyed.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import RedirectResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import Request
from starlette.responses import Response

from weiqi.server.inputs import ScreenedRoute, requires
from weiqi.server.page_cache import cached_page
from weiqi.server.routes.api import _ERRORS
from weiqi.server.security import AppClock, CurrentActor, Db
from weiqi.services import league, teams
from weiqi.services.permissions import Action
from weiqi.services.read_models import MatchRead, TeamRoundRead, TeamStandingRead

router = APIRouter(route_class=ScreenedRoute, prefix="/api", responses=_ERRORS, tags=["teams"])


class LineupIn(BaseModel):
    """A lineup; when it was submitted is the server's clock (unknown fields are refused)."""

    model_config = ConfigDict(extra="forbid")

    team: str = Field(description="The team's id (its name in the teams CSV)")
    players: list[str] = Field(
        description="Player ids by board: players[0] plays board 1; a namesake's label as the "
        "pages show it (张伟 (1990)) or a name only one player of the team has is taken too"
    )


class BoardResultIn(BaseModel):
    team: str = Field(description="Either team of the match")
    board: int
    result: str = Field(description="Result code as seated: B+R, W+1.5, 0, BL …")
    sitting: int = Field(0, description="全队轮赛制 sitting, from 0")


@router.get("/events/{event_id}/teams/rounds/{number}")
@cached_page
def get_round(db: Db, event_id: int, number: int) -> TeamRoundRead:
    """A round's matches; boards and lineups only once the lineups are revealed (the object
    ``weiqi round show --json`` prints)."""
    return teams.round_read(teams.show_round(db, event_id, number))


@router.post("/events/{event_id}/teams/rounds/{number}/lineups", status_code=204)
@requires(Action.SUBMIT_LINEUP)
def post_lineup(
    db: Db, actor: CurrentActor, clock: AppClock, event_id: int, number: int, body: LineupIn
) -> Response:
    """Seal a team's lineup for a round (refused with the reason: not on the roster, too many
    foreign players, after the deadline by the server's clock, the order broken …)."""
    teams.submit_lineup(db, actor, event_id, number, body.team, body.players, clock=clock)
    return Response(status_code=204)


@router.post("/events/{event_id}/teams/rounds/{number}/results")
@requires(Action.ENTER_RESULT)
def post_board_result(
    db: Db, actor: CurrentActor, event_id: int, number: int, body: BoardResultIn
) -> MatchRead:
    """Record one board's result; answers the match (scores once every board is played)."""
    teams.record_board_result(
        db, actor, event_id, number, body.team, body.board, body.result, body.sitting
    )
    view = teams.show_round(db, event_id, number)
    return next(m for m in teams.round_read(view).matches if body.team in (m.home, m.away))


class BoardResultsIn(BaseModel):
    results: list[BoardResultIn] = Field(
        description="Boards of the round (several sittings of a 全队轮赛制 match alike)"
    )


@router.post("/events/{event_id}/teams/rounds/{number}/results/batch")
@requires(Action.ENTER_RESULT)
def post_board_results(
    db: Db, actor: CurrentActor, event_id: int, number: int, body: BoardResultsIn
) -> TeamRoundRead:
    """Record several boards' results in one transaction: every board, or none when one is
    refused (a team match's sheet); answers the round."""
    teams.record_results(
        db,
        actor,
        event_id,
        number,
        [(r.team, r.board, r.result, r.sitting) for r in body.results],
    )
    return teams.round_read(teams.show_round(db, event_id, number))


@router.get("/events/{event_id}/teams/standings")
@cached_page
def get_standings(db: Db, event_id: int) -> list[TeamStandingRead]:
    # R-RANK-TEAM
    """Team standings: match points, game points, board 1, board 2, …"""
    return teams.standings(db, event_id)


@router.get("/leagues/{season_id}/table")
def get_league_table(db: Db, season_id: int, division: str | None = None) -> list[TeamStandingRead]:
    """A division's table (the top division unless ``division`` names another)."""
    event_id = league.division_event(db, season_id, division)
    return teams.standings(db, event_id)


@router.get("/drafts/{draft_id}")
def get_draft(db: Db, draft_id: int) -> dict[str, Any]:
    """A transfer draft rebuilt from its log: order, pool, whose turn, the log, rosters."""
    view = league.show_draft(db, draft_id)
    return {
        "draft": view.id,
        "season": view.season_id,
        "order": list(view.order),
        "waiting_to_protect": list(view.waiting_to_protect),
        "pool": [{"player": p, "listed_by": c} for p, c in view.pool],
        "on_the_clock": view.on_the_clock,
        "finished": view.finished,
        "log": [e.text() for e in view.log],
        "rosters": view.rosters,
    }


@router.api_route(
    "/team-events{rest:path}",
    methods=["GET", "POST", "PUT", "DELETE"],
    include_in_schema=False,
)
def old_team_event_address(request: Request, rest: str) -> Response:
    """Team events' API was once under ``/api/team-events/``; it is now under
    ``/api/events/{id}/teams/…`` beside every event's (308: a client repeats its request there,
    method and body kept)."""
    head, _, tail = rest.removeprefix("/").partition("/")
    target = "/api/events/teams" if not head else f"/api/events/{head}/teams"
    if tail:
        target += f"/{tail}"
    if request.url.query:
        target += f"?{request.url.query}"
    return RedirectResponse(target, status_code=308)
