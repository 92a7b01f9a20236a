"""Who speaks for a team: the coach or captain accounts of each team (R-FMT-1, the lineup of
临场出人制 is submitted by the coach).

Organisers and the chief referee assign an account to a team; it then holds the player role in
the event and may submit lineups for that team only. Organisers and the chief referee may submit
for every team (the sheets handed in at the desk).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from weiqi.errors import InvalidSetting, NotFound, PermissionDenied
from weiqi.i18n import N_
from weiqi.messages import Msg
from weiqi.roles import Role
from weiqi.services.actor import Actor
from weiqi.services.events import team_by_code
from weiqi.services.permissions import POLICY, Action, require, roles_in_event
from weiqi.store.database import Database
from weiqi.store.locks import lock_event
from weiqi.store.models import EventRole, User
from weiqi.store.teams import TeamCoachRow, TeamRow

# They submit for any team; a player-role account only for the teams it coaches.
_ANY_TEAM = POLICY[Action.SUBMIT_OTHER_LINEUP]


class CoachRole(enum.StrEnum):
    """How an account speaks for its team."""

    COACH = "coach"
    CAPTAIN = "captain"


@dataclass(frozen=True)
class TeamCoach:
    """One account assigned to one team."""

    team: str
    username: str
    display_name: str
    role: CoachRole


def assign_coach(
    db: Database,
    actor: Actor,
    event_id: int,
    team: str,
    username: str,
    role: CoachRole = CoachRole.COACH,
) -> TeamCoach:
    """Make ``username`` the coach (or captain) of ``team``: organisers and the chief referee
    may. The account gets the player role in the event if it holds none that submits lineups.
    Assigning again changes the role; an account may speak for several teams."""
    if not isinstance(role, CoachRole):
        raise InvalidSetting(N_("role"), N_("must be coach or captain"))
    with db.transaction() as session:
        require(session, actor, Action.MANAGE_PLAYERS, event_id)
        lock_event(session, event_id)  # the coach and role looked up stay so until commit
        team_row = team_by_code(session, event_id, team)
        user = session.scalar(select(User).where(User.username == username.strip().lower()))
        if user is None:
            raise NotFound(Msg("user %(username)s does not exist", username=repr(username)))
        row = session.scalar(
            select(TeamCoachRow).where(
                TeamCoachRow.team_id == team_row.id, TeamCoachRow.user_id == user.id
            )
        )
        if row is None:
            row = TeamCoachRow(team_id=team_row.id, user_id=user.id)
            session.add(row)
        row.role = role.value
        held = session.scalar(
            select(EventRole).where(
                EventRole.user_id == user.id,
                EventRole.event_id == event_id,
                EventRole.role == Role.PLAYER.value,
            )
        )
        if held is None:
            session.add(EventRole(user_id=user.id, event_id=event_id, role=Role.PLAYER.value))
        session.flush()
        return TeamCoach(team_row.code, user.username, user.display_name, role)


def list_coaches(db: Database, event_id: int) -> list[TeamCoach]:
    """Every team's coaches and captains, by team code then username."""
    with db.transaction() as session:
        rows = session.execute(
            select(TeamRow.code, User.username, User.display_name, TeamCoachRow.role)
            .join(TeamCoachRow, TeamCoachRow.team_id == TeamRow.id)
            .join(User, User.id == TeamCoachRow.user_id)
            .where(TeamRow.event_id == event_id)
            .order_by(TeamRow.code, User.username)
        )
        return [TeamCoach(c, u, d, CoachRole(r)) for c, u, d, r in rows]


def lineup_teams_in(session: Session, actor: Actor, event_id: int) -> frozenset[str] | None:
    """The team codes ``actor`` may submit lineups for; ``None`` means every team."""
    if actor.is_admin or roles_in_event(session, actor, event_id) & _ANY_TEAM:
        return None
    if actor.user_id is None:
        return frozenset()
    codes = session.scalars(
        select(TeamRow.code)
        .join(TeamCoachRow, TeamCoachRow.team_id == TeamRow.id)
        .where(TeamRow.event_id == event_id, TeamCoachRow.user_id == actor.user_id)
    )
    return frozenset(codes)


def lineup_teams(db: Database, actor: Actor, event_id: int) -> frozenset[str] | None:
    """:func:`lineup_teams_in` in a transaction of its own — for pages choosing which teams
    to offer."""
    with db.transaction() as session:
        return lineup_teams_in(session, actor, event_id)


def require_coach(session: Session, actor: Actor, event_id: int, codes: Iterable[str]) -> None:
    """Raise ``PermissionDenied`` unless ``actor`` may submit the lineups of every team in
    ``codes`` (call after ``require(…, Action.SUBMIT_LINEUP, …)``)."""
    mine = lineup_teams_in(session, actor, event_id)
    if mine is None:
        return
    for code in codes:
        if code not in mine:
            who = actor.username if actor.authenticated else Role.PUBLIC.value
            raise PermissionDenied(who, Action.SUBMIT_OTHER_LINEUP.value)
