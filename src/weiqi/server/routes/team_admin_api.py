"""The JSON API behind the team-event pages that ``teams_api`` does not cover: create a team
event, import teams and rosters, pair a round, reveal its lineups, record a knockout's playoff,
and read the rounds and the board records. Same services, so the same permissions (R-ORG-1)."""

from __future__ import annotations

from datetime import date
from typing import Any

from fastapi import APIRouter, Response
from pydantic import BaseModel, Field

from weiqi.league.match import PlayerRecord
from weiqi.server.inputs import ScreenedRoute, requires
from weiqi.server.page_cache import cached_page
from weiqi.server.routes.api import _ERRORS, FromService
from weiqi.server.routes.api_event_admin import ImportOut, RowsRejectedOut
from weiqi.server.security import AppClock, CurrentActor, Db
from weiqi.services import event_settings, team_admin, team_coaches, teams
from weiqi.services.events import EventKind
from weiqi.services.permissions import Action
from weiqi.services.read_models import EventSettingsRead, TeamRoundRead

router = APIRouter(
    route_class=ScreenedRoute, prefix="/api/events", responses=_ERRORS, tags=["teams"]
)


class TeamEventIn(BaseModel):
    name: str
    settings: dict[str, Any] = Field(
        default_factory=dict,
        description="As the response gives them back (a setting left out takes its default): "
        "system (round_robin, swiss, knockout, winner_stays_on), team_type (fixed_boards, "
        "fixed_order, per_round, rotation, members_total), boards, board_colors, max_foreign, "
        "substitutes (true, false or null: the type's rule), missing (forfeit, previous), "
        "board_one_decides, deadline_minutes, rounds, cycles, ranking, seed, player_order, "
        'board_size, komi (stones, e.g. "15/4"), cycle (ban, no_result, draw, replay), play '
        "(board, online), game_start (present, round_start) and the online "
        "boards' lag allowance lag_gain (seconds a move, 1; 0: none) and lag_cap (seconds, 3)",
    )


class TeamsImportIn(BaseModel):
    csv: str = Field(description="team,name,rank[,rating,nationality,foreign,coach …] rows")
    home_nationality: str | None = Field(None, description="Others are foreign players")


class PlayoffIn(BaseModel):
    winner: str = Field(description="The team that won the playoff (加赛)")


@router.post("/teams", status_code=201, deprecated=True)
@requires(Action.CREATE_EVENT)
def post_team_event(db: Db, actor: CurrentActor, body: TeamEventIn) -> EventSettingsRead:
    # R-FMT-1
    """Create a team event: ``POST /api/events`` with ``kind`` team."""
    return event_settings.create(db, actor, body.name, EventKind.TEAM, body.settings)


@router.post(
    "/{event_id}/teams/import",
    response_model=ImportOut,
    responses={422: {"model": RowsRejectedOut, "description": "Bad rows; nothing imported"}},
)
@requires(Action.MANAGE_PLAYERS)
def post_import_teams(db: Db, actor: CurrentActor, event_id: int, body: TeamsImportIn) -> ImportOut:
    """Import teams and rosters: every row or none; bad rows are listed by line, in the
    caller's language (``problems`` of the error)."""
    home = body.home_nationality
    return ImportOut(
        imported=teams.import_teams(db, actor, event_id, body.csv, home_nationality=home)
    )


@router.post("/{event_id}/rounds/{number}/reveal")
@requires(Action.PAIR_ROUND)
def post_reveal(
    db: Db, actor: CurrentActor, clock: AppClock, event_id: int, number: int
) -> TeamRoundRead:
    """Reveal every lineup of the round together and seat the boards (not before the
    deadline by the server's clock); a missing lineup gets the event's fallback."""
    return teams.round_read(teams.reveal_round(db, actor, event_id, number, clock=clock))


@router.post("/{event_id}/rounds/{number}/playoff")
@requires(Action.RECORD_RESULT)
def post_playoff(
    db: Db, actor: CurrentActor, event_id: int, number: int, body: PlayoffIn
) -> dict[str, Any]:
    # R-PLAYOFF
    """Record the playoff winner of a drawn knockout match."""
    match = teams.record_playoff(db, actor, event_id, number, body.winner)
    return {"match": match.number, "home": match.home, "away": match.away, "winner": match.winner}


@router.get("/{event_id}/teams/records")
@cached_page
def get_records(db: Db, event_id: int) -> dict[str, Any]:
    """Each player's record (best first) and each board's, for board prizes."""
    players, by_board = teams.records(db, event_id)
    shown = teams.code_labels(db, event_id)

    def row(r: PlayerRecord) -> dict[str, object]:
        return teams.record_to_dict(r, shown)

    return {
        "players": [row(r) for r in players],
        "boards": {str(b): [row(r) for r in recs] for b, recs in by_board.items()},
    }


class CoachIn(BaseModel):
    team: str = Field(description="The team's code")
    username: str = Field(description="The account that will speak for the team")
    role: team_coaches.CoachRole = Field(team_coaches.CoachRole.COACH, description="coach/captain")


class CoachOut(BaseModel):
    team: str
    username: str
    display_name: str
    role: team_coaches.CoachRole


@router.post("/{event_id}/teams/coaches", response_model=CoachOut, status_code=201)
@requires(Action.MANAGE_PLAYERS)
def post_coach(db: Db, actor: CurrentActor, event_id: int, body: CoachIn) -> CoachOut:
    """Make an account the coach or captain of a team (organisers, chief referee): it gets the
    player role in the event and submits lineups for its own team(s) only."""  # R-FMT-1
    c = team_coaches.assign_coach(db, actor, event_id, body.team, body.username, body.role)
    return CoachOut(team=c.team, username=c.username, display_name=c.display_name, role=c.role)


@router.get("/{event_id}/teams/coaches", response_model=list[CoachOut])
def get_coaches(db: Db, event_id: int) -> list[CoachOut]:
    """Every team's coach and captain accounts."""
    return [
        CoachOut(team=c.team, username=c.username, display_name=c.display_name, role=c.role)
        for c in team_coaches.list_coaches(db, event_id)
    ]


class TeamNameIn(BaseModel):
    name: str = Field(description="The team's display name; its code stays")


class TeamOut(BaseModel):
    id: int
    code: str
    name: str


class RosterPlayerIn(BaseModel):
    name: str
    rank: str = Field(description="5d, 2p, 3k or 5段 …")
    rating: int | str | None = None
    nationality: str = ""
    foreign: bool | None = Field(None, description="外援; left out: unchanged")
    birth_date: date | None = Field(
        None, description="Tells two namesakes of one team apart; left out: unchanged"
    )


class RosterPlayerOut(FromService):
    id: int
    player: str = Field(description="The player's code (their id in lineups and files)")
    name: str
    label: str = Field(
        validation_alias="shown",  # the service's name for it
        description="The name as pages show it: 张伟 (黑龙) for a namesake",
    )
    rank: str
    rating: int | None
    nationality: str
    foreign: bool
    birth_date: date | None = None


@router.put("/{event_id}/teams/{team_id}", response_model=TeamOut)
@requires(Action.MANAGE_PLAYERS)
def put_team(db: Db, actor: CurrentActor, event_id: int, team_id: int, body: TeamNameIn) -> TeamOut:
    """Rename a team, at any time (its code stays); a name another team has is 409."""
    team_admin.rename_team(db, actor, event_id, team_id, body.name)
    card = team_admin.team_card(db, event_id, team_id)
    return TeamOut(id=card.id, code=card.code, name=card.name)


@router.delete("/{event_id}/teams/{team_id}", status_code=204)
@requires(Action.MANAGE_PLAYERS)
def delete_team(db: Db, actor: CurrentActor, event_id: int, team_id: int) -> Response:
    """Delete a team with its roster and coaches' links, before round 1 is paired (409 after)."""
    team_admin.delete_team(db, actor, event_id, team_id)
    return Response(status_code=204)


@router.put("/{event_id}/teams/{team_id}/players/{player_id}", response_model=RosterPlayerOut)
@requires(Action.MANAGE_PLAYERS)
def put_roster_player(
    db: Db, actor: CurrentActor, event_id: int, team_id: int, player_id: int, body: RosterPlayerIn
) -> RosterPlayerOut:
    """Edit a roster player, at any time: the checks of the team CSV import; a name another
    player of the event has is 409."""
    rating = "" if body.rating is None else str(body.rating)
    p = team_admin.edit_roster_player(
        db,
        actor,
        event_id,
        team_id,
        player_id,
        body.name,
        body.rank,
        rating,
        body.nationality,
        body.foreign,
        birth_date=body.birth_date.isoformat() if body.birth_date else None,
    )
    return RosterPlayerOut.of(p)
