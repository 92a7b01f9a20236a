"""R-FMT-1: the lineup of a round is submitted by the team's coach — which team an account
coaches is stored, and a coach submits for its own team only. Services on SQLite and
PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import select

from weiqi.errors import NotFound, PermissionDenied
from weiqi.league.settings import TeamEventSettings
from weiqi.roles import Role
from weiqi.services.accounts import create_user, grant_role
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.services.server_clock import ManualClock
from weiqi.services.team_coaches import (
    CoachRole,
    assign_coach,
    lineup_teams,
    list_coaches,
)
from weiqi.services.teams import (
    import_teams,
    pair_round,
    submit_lineup,
    submit_lineups,
)
from weiqi.store.database import Database
from weiqi.store.models import EventRole
from weiqi.store.teams import LineupRow

LOCAL = Actor.local()
T0 = datetime(2026, 5, 1, 8, 0, tzinfo=UTC)
CSV = "team,name,rank\nA,A1,5p\nA,A2,4p\nB,B1,5p\nB,B2,4p\n"


def _event(db: Database) -> int:
    ev = create_event(db, LOCAL, "Coaches", TeamEventSettings(boards=2)).id
    import_teams(db, LOCAL, ev, CSV)
    pair_round(db, LOCAL, ev)
    return ev


def _user(db: Database, name: str) -> Actor:
    user = create_user(db, LOCAL, name, "correct horse")
    return Actor(user.id, name)


def _lineups(db: Database) -> dict[str, str]:
    with db.transaction() as s:
        rows = s.scalars(select(LineupRow))
        return {str(r.team_id): ",".join(r.players) for r in rows}


def test_r_fmt_1_coach_submits_for_own_team_only(db: Database) -> None:
    """R-FMT-1: a coach of team A may not submit (or overwrite) team B's lineup; nothing is
    stored. It may submit A's."""
    ev = _event(db)
    coach = _user(db, "wang")
    assigned = assign_coach(db, LOCAL, ev, "A", "Wang")
    assert (assigned.team, assigned.username, assigned.role) == ("A", "wang", CoachRole.COACH)
    with db.transaction() as s:  # the assignment gives the player role in the event
        roles = s.scalars(select(EventRole.role).where(EventRole.user_id == coach.user_id))
        assert list(roles) == [Role.PLAYER.value]
    assert lineup_teams(db, coach, ev) == frozenset({"A"})

    submit_lineup(db, LOCAL, ev, 1, "B", ["B1", "B2"], clock=ManualClock(T0))
    before = _lineups(db)
    with pytest.raises(PermissionDenied, match="wang may not submit the lineup of a team"):
        submit_lineup(db, coach, ev, 1, "B", ["B2", "B1"], clock=ManualClock(T0))
    with pytest.raises(PermissionDenied):  # all or nothing: A's is not stored either
        submit_lineups(
            db, coach, ev, 1, {"A": ["A1", "A2"], "B": ["B2", "B1"]}, clock=ManualClock(T0)
        )
    assert _lineups(db) == before

    submit_lineup(db, coach, ev, 1, "A", ["A2", "A1"], clock=ManualClock(T0))
    assert sorted(_lineups(db).values()) == ["A2,A1", "B1,B2"]


def test_r_fmt_1_organiser_and_chief_referee_submit_for_every_team(db: Database) -> None:
    ev = _event(db)
    for name, role in (("org", Role.ORGANISER), ("chief", Role.CHIEF_REFEREE)):
        actor = _user(db, name)
        assert actor.user_id is not None
        grant_role(db, LOCAL, actor.user_id, ev, role)
        assert lineup_teams(db, actor, ev) is None
        submit_lineups(
            db, actor, ev, 1, {"A": ["A1", "A2"], "B": ["B1", "B2"]}, clock=ManualClock(T0)
        )
    assert len(_lineups(db)) == 2


def test_r_fmt_1_player_without_a_team_submits_nothing(db: Database) -> None:
    ev = _event(db)
    player = _user(db, "li")
    assert player.user_id is not None
    grant_role(db, LOCAL, player.user_id, ev, Role.PLAYER)
    assert lineup_teams(db, player, ev) == frozenset()
    with pytest.raises(PermissionDenied):
        submit_lineup(db, player, ev, 1, "A", ["A1", "A2"], clock=ManualClock(T0))
    assert _lineups(db) == {}


def test_assigning_coaches_needs_organiser_or_chief_referee(db: Database) -> None:
    ev = _event(db)
    coach = _user(db, "wang")
    _user(db, "zhao")
    with pytest.raises(PermissionDenied, match="enter or withdraw players"):
        assign_coach(db, coach, ev, "A", "wang")
    with pytest.raises(NotFound, match="nobody"):
        assign_coach(db, LOCAL, ev, "A", "nobody")
    with pytest.raises(NotFound, match="'Z'"):
        assign_coach(db, LOCAL, ev, "Z", "wang")
    assign_coach(db, LOCAL, ev, "A", "wang")
    assign_coach(db, LOCAL, ev, "B", "wang", CoachRole.CAPTAIN)  # speaks for two teams
    assign_coach(db, LOCAL, ev, "B", "zhao")
    assert [(c.team, c.username, c.role.value) for c in list_coaches(db, ev)] == [
        ("A", "wang", "coach"),
        ("B", "wang", "captain"),
        ("B", "zhao", "coach"),
    ]
    assert lineup_teams(db, coach, ev) == frozenset({"A", "B"})
