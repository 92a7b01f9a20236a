"""Events, minimal for now: a name. The tournament work adds settings, players and rounds.

>>> from weiqi.store.database import Database
>>> db = Database("sqlite://"); db.upgrade()
>>> create_event(db, Actor.local(), "  Spring open ").name
'Spring open'
>>> [e.name for e in list_events(db)]
['Spring open']

An event is individual (players meet players) or team (teams meet teams through lineups, a
league division being one); :func:`event_kind` tells which, for the commands and pages that
serve both kinds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from weiqi.errors import NotFound
from weiqi.i18n import N_
from weiqi.messages import Msg
from weiqi.roles import Role
from weiqi.services.actor import Actor
from weiqi.services.permissions import Action, require
from weiqi.store.base import Base
from weiqi.store.database import Database
from weiqi.store.models import Event, EventRole
from weiqi.store.teams import TeamEventRow
from weiqi.store.tournament import EventSettingsRow
from weiqi.text import clean_name
from weiqi.tournament.details import EventDetails
from weiqi.tournament.records import EventKind as EventKind  # the core's, named here too


@dataclass(frozen=True)
class EventInfo:
    id: int
    name: str
    created_at: datetime
    details: EventDetails = field(default_factory=EventDetails)


def _info(event: Event) -> EventInfo:
    return EventInfo(
        id=event.id, name=event.name, created_at=event.created_at, details=details_of(event)
    )


def details_of(event: Event) -> EventDetails:
    """The dates, venue, time zone and time control an event announces."""
    return EventDetails(
        start_date=event.start_date,
        end_date=event.end_date,
        venue=event.venue,
        time_zone=event.time_zone,
        time_control=event.time_control,
    )


def store_details(event: Event, details: EventDetails) -> None:
    """Write ``details`` onto the event's row (in the caller's transaction, under its lock)."""
    event.start_date = details.start_date
    event.end_date = details.end_date
    event.venue = details.venue
    event.time_zone = details.time_zone
    event.time_control = details.time_control


def details_in(session: Session, event_id: int) -> EventDetails:
    """The details of event ``event_id`` in the caller's transaction (``NotFound`` if none)."""
    event = session.get(Event, event_id)
    if event is None:
        raise NotFound(Msg("event %(event_id)s does not exist", event_id=event_id))
    return details_of(event)


def event_details(db: Database, event_id: int) -> EventDetails:
    """The details of an event of either kind, which are public (they head its sheets);
    ``NotFound`` for no such event.

    >>> db = Database("sqlite://"); db.upgrade()
    >>> event_details(db, create_event(db, Actor.local(), "Open").id).time_zone
    'Asia/Shanghai'
    """
    with db.transaction() as session:
        return details_in(session, event_id)


def event_name(name: str) -> str:
    """An event's name as stored (:func:`weiqi.text.clean_name`): NFC, stripped, not empty, at
    most 200 characters, on one line without invisible characters (it heads pages, tables and
    SGF ``EV``).

    >>> event_name("  Spring open ")
    'Spring open'
    >>> event_name("Spring\\nopen")
    Traceback (most recent call last):
    ...
    weiqi.errors.InvalidSetting: name: must be one line without control characters
    """
    return clean_name(N_("name"), name)


def create_event(db: Database, actor: Actor, name: str) -> EventInfo:
    """Create an event (site administrators may)."""
    name = event_name(name)
    with db.transaction() as session:
        require(session, actor, Action.CREATE_EVENT)
        event = Event(name=name)
        session.add(event)
        session.flush()
        return _info(event)


def add_event(
    session: Session, actor: Actor, name: str, settings_row: Callable[[int], Base]
) -> int:
    """Insert a new event of either kind in ``session``: its name (:func:`event_name`), its
    settings row (``settings_row(event_id)``: an individual or a team event's), and, when the
    creator is a user other than a site administrator, the organiser's and chief referee's roles
    for the creator (one person in a club event; the roles page hands them on). The one way an
    event is created, by the pages, the API and the command line alike."""
    name = event_name(name)
    require(session, actor, Action.CREATE_EVENT)
    event = Event(name=name)
    session.add(event)
    session.flush()
    session.add(settings_row(event.id))
    if actor.user_id is not None and not actor.is_admin:
        for role in (Role.ORGANISER, Role.CHIEF_REFEREE):
            session.add(EventRole(user_id=actor.user_id, event_id=event.id, role=role.value))
    session.flush()
    return event.id


def list_events(db: Database) -> list[EventInfo]:
    """Every event, newest first (events are public)."""
    with db.transaction() as session:
        rows = session.scalars(select(Event).order_by(Event.created_at.desc(), Event.id.desc()))
        return [_info(e) for e in rows]


def get_event(db: Database, event_id: int) -> EventInfo:
    with db.transaction() as session:
        event = session.get(Event, event_id)
        if event is None:
            raise NotFound(Msg("event %(event_id)s does not exist", event_id=event_id))
        return _info(event)


def event_kind(db: Database, event_id: int) -> EventKind:
    """Whether ``event_id`` is an individual or a team event (``NotFound`` if it is neither:
    no such event, or one created without settings).

    >>> db = Database("sqlite://"); db.upgrade()
    >>> event_kind(db, 1)
    Traceback (most recent call last):
    ...
    weiqi.errors.NotFound: event 1 does not exist
    """
    with db.transaction() as session:
        if session.get(TeamEventRow, event_id) is not None:
            return EventKind.TEAM
        if session.get(EventSettingsRow, event_id) is not None:
            return EventKind.INDIVIDUAL
        raise NotFound(Msg("event %(event_id)s does not exist", event_id=event_id))


def latest_event(db: Database) -> int:
    """The newest individual or team event, league divisions left out (they are named through
    their season): what a command acts on when it names no ``--event``."""
    with db.transaction() as session:
        individual = session.scalar(select(func.max(EventSettingsRow.event_id)))
        team = session.scalar(
            select(func.max(TeamEventRow.event_id)).where(TeamEventRow.season_id.is_(None))
        )
    found = max((i for i in (individual, team) if i is not None), default=None)
    if found is None:
        raise NotFound(Msg("no event in this database; create one first"))
    return int(found)
