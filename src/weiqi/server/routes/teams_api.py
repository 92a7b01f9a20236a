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
from weiqi.server.moved import current_address
from weiqi.server.routes.api import _ERRORS
from weiqi.server.security import AppClock, CurrentActor, Db
from weiqi.services import league, teams
from weiqi.services.permissions import Action
from weiqi.services.read_models import TeamStandingRead

router = APIRouter(route_class=ScreenedRoute, prefix="/api", responses=_ERRORS, tags=["teams"])


class LineupIn(BaseModel):
    """A lineup; when it was submitted is the server's clock (unknown fields are refused)."""

    model_config = ConfigDict(extra="forbid")

    team: str = Field(description="The team's id (its name in the teams CSV)")
    players: list[str] = Field(
        description="Player ids by board: players[0] plays board 1; a namesake's label as the "
        "pages show it (张伟 (1990)) or a name only one player of the team has is taken too"
    )


@router.post("/events/{event_id}/rounds/{number}/lineups", status_code=204)
@requires(Action.SUBMIT_LINEUP)
def post_lineup(
    db: Db, actor: CurrentActor, clock: AppClock, event_id: int, number: int, body: LineupIn
) -> Response:
    """Seal a team's lineup for a round (refused with the reason: not on the roster, too many
    foreign players, after the deadline by the server's clock, the order broken …)."""
    teams.submit_lineup(db, actor, event_id, number, body.team, body.players, clock=clock)
    return Response(status_code=204)


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
    "/team-events{rest:path}", methods=["GET", "POST", "PUT", "DELETE"], include_in_schema=False
)
@router.api_route(
    "/events/{event_id}/teams/rounds",
    methods=["GET", "POST", "PUT", "DELETE"],
    include_in_schema=False,
)
@router.api_route(
    "/events/{event_id}/teams/rounds/{rest:path}",
    methods=["GET", "POST", "PUT", "DELETE"],
    include_in_schema=False,
)
@router.api_route("/events/{event_id}/teams/standings", methods=["GET"], include_in_schema=False)
def old_team_event_address(request: Request) -> Response:
    """Team events' API was once under ``/api/team-events/``, then their rounds and standings
    under ``/api/events/{id}/teams/``; they are at every event's addresses now (308: a client
    repeats its request there, method and body kept)."""
    return RedirectResponse(current_address(request.url.path, request.url.query), status_code=308)
