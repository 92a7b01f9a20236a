"""Events of either kind: their names, settings, details and roles.

>>> from weiqi.store.database import Database
>>> db = Database("sqlite://"); db.upgrade()
>>> from weiqi.tournament.settings import EventSettings, System
>>> create_event(db, Actor.local(), " Spring open ", EventSettings(System.ROUND_ROBIN)).name
'Spring open'
>>> [e.name for e in list_events(db)]
['Spring open']

An event is individual (players meet players) or team (teams meet teams through lineups, a
league division being one); :func:`event_kind` tells which, for the commands and pages that
serve both kinds.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Generic, TypeVar, cast

from sqlalchemy import case, func, select
from sqlalchemy.orm import Session

from weiqi.clock.control import TimeControl
from weiqi.errors import NotFound
from weiqi.i18n import N_
from weiqi.league.settings import TeamEventSettings, team_settings_from_dict
from weiqi.messages import Msg
from weiqi.roles import Role
from weiqi.services.actor import Actor
from weiqi.services.permissions import Action, require
from weiqi.store.base import Base
from weiqi.store.database import Database
from weiqi.store.models import EventRole, EventRow
from weiqi.store.teams import LeagueDivisionRow, TeamRow
from weiqi.store.tournament import EventSettingsRow, PlayerRow, RoundRow
from weiqi.text import clean_name
from weiqi.tournament.details import EventDetails
from weiqi.tournament.records import EventKind as EventKind  # the core's, named here too
from weiqi.tournament.settings import EventSettings, settings_from_dict, settings_to_dict

Settings = TypeVar("Settings", EventSettings, TeamEventSettings)


@dataclass(frozen=True)
class Competition(Generic[Settings]):
    """An event of either kind as its pages, the API and the command line head it: its name,
    settings (an individual event's ``EventSettings``, a team event's ``TeamEventSettings``),
    how many entrants (players, or teams) and paired rounds it has, its details, and for a
    league division its season and label. ``tournament.tournament_info`` and
    ``teams.team_event_info`` read it.

    >>> c = Competition(1, "春季赛", TeamEventSettings(boards=3), entrants=6, rounds=2)
    >>> c.kind, c.system
    (<EventKind.TEAM: 'team'>, 'round_robin')
    """

    id: int
    name: str
    settings: Settings
    entrants: int
    rounds: int
    details: EventDetails = field(default_factory=EventDetails)
    """Dates, venue and time zone (every time is shown in it)."""
    season_id: int | None = None
    division: str = ""

    @property
    def kind(self) -> EventKind:
        team = isinstance(self.settings, TeamEventSettings)
        return EventKind.TEAM if team else EventKind.INDIVIDUAL

    @property
    def system(self) -> str:
        """The system's value (``swiss``, ``round_robin`` …), as the command line writes it."""
        return self.settings.system.value


AnyCompetition = Competition[EventSettings] | Competition[TeamEventSettings]
"""An event of either kind, as :func:`competition` reads it."""


@dataclass(frozen=True)
class EventInfo:
    id: int
    name: str
    created_at: datetime
    details: EventDetails = field(default_factory=EventDetails)


def _info(event: EventRow) -> EventInfo:
    return EventInfo(
        id=event.id, name=event.name, created_at=event.created_at, details=details_of(event)
    )


def details_of(event: EventRow) -> EventDetails:
    """The dates, venue and time zone an event announces."""
    return EventDetails(
        start_date=event.start_date,
        end_date=event.end_date,
        venue=event.venue,
        time_zone=event.time_zone,
    )


def existing_event(session: Session, event_id: int) -> EventRow:
    """The row of event ``event_id``, of either kind; ``NotFound`` saying so when there is
    none.

    >>> db = Database("sqlite://"); db.upgrade()
    >>> with db.transaction() as session:
    ...     existing_event(session, 4)
    Traceback (most recent call last):
    ...
    weiqi.errors.NotFound: event 4 does not exist
    """
    event = session.get(EventRow, event_id)
    if event is None:
        raise NotFound(Msg("event %(event_id)s does not exist", event_id=event_id))
    return event


def no_player(event_id: int, player_id: int) -> NotFound:
    """The refusal of a player id that is not one of the event's entrants."""
    return NotFound(
        Msg("no player %(player_id)s in event %(event_id)s", player_id=player_id, event_id=event_id)
    )


def player_row(session: Session, event_id: int, player_id: int) -> PlayerRow:
    """Entrant ``player_id`` of individual event ``event_id``; :func:`no_player` for an id of
    nobody, or of another event's entrant.

    >>> db = Database("sqlite://"); db.upgrade()
    >>> with db.transaction() as session:
    ...     player_row(session, 1, 7)
    Traceback (most recent call last):
    ...
    weiqi.errors.NotFound: no player 7 in event 1
    """
    row = session.get(PlayerRow, player_id)
    if row is None or row.event_id != event_id:
        raise no_player(event_id, player_id)
    return row


def event_players(session: Session, event_id: int) -> list[PlayerRow]:
    """Every player of event ``event_id``, in the order of entry (a team event's: every team's
    players; :func:`players_with_teams` gives them with their teams).

    >>> db = Database("sqlite://"); db.upgrade()
    >>> from weiqi.tournament.settings import System
    >>> ev = create_event(db, Actor.local(), "Open", EventSettings(System.ROUND_ROBIN)).id
    >>> with db.transaction() as session:
    ...     [p.name for p in event_players(session, ev)]
    []
    """
    entered = select(PlayerRow).where(PlayerRow.event_id == event_id)
    return list(session.scalars(entered.order_by(PlayerRow.id)))


def players_with_teams(session: Session, event_id: int) -> list[tuple[PlayerRow, TeamRow | None]]:
    """Every player of event ``event_id``, either kind, with its team (``None``: an entrant of
    an individual event): an individual event's in the order of entry, a team event's team by
    team in the order the teams entered, each roster in its order.

    >>> db = Database("sqlite://"); db.upgrade()
    >>> ev = create_event(db, Actor.local(), "团体赛", TeamEventSettings(boards=1)).id
    >>> from weiqi.services.teams import import_teams
    >>> import_teams(db, Actor.local(), ev, "team,name,rank\\nB,李,3d\\nA,王,5d\\nB,张,4d\\n")
    2
    >>> with db.transaction() as session:
    ...     [(p.name, t.code if t else None) for p, t in players_with_teams(session, ev)]
    [('李', 'B'), ('张', 'B'), ('王', 'A')]
    """
    rows = session.execute(
        select(PlayerRow, TeamRow)
        .outerjoin(TeamRow, PlayerRow.team_id == TeamRow.id)
        .where(PlayerRow.event_id == event_id)
        .order_by(TeamRow.id, PlayerRow.position, PlayerRow.id)
    )
    return [(p, t) for p, t in rows]


def team_by_code(session: Session, event_id: int, code: str) -> TeamRow:
    """The team of event ``event_id`` whose code is ``code``; ``NotFound`` saying so.

    >>> db = Database("sqlite://"); db.upgrade()
    >>> with db.transaction() as session:
    ...     team_by_code(session, 1, "黑龙")
    Traceback (most recent call last):
    ...
    weiqi.errors.NotFound: no team '黑龙' in event 1
    """
    row = session.scalar(select(TeamRow).where(TeamRow.event_id == event_id, TeamRow.code == code))
    if row is None:
        raise NotFound(
            Msg("no team %(code)s in event %(event_id)s", code=repr(code), event_id=event_id)
        )
    return row


def round_row(session: Session, event_id: int, number: int) -> RoundRow:
    """Round ``number`` of event ``event_id``, an event of either kind (one table holds both
    kinds' rounds); ``NotFound`` when it has not been paired.

    >>> db = Database("sqlite://"); db.upgrade()
    >>> with db.transaction() as session:
    ...     round_row(session, 1, 3)
    Traceback (most recent call last):
    ...
    weiqi.errors.NotFound: round 3 is not paired
    """
    found = session.scalar(
        select(RoundRow).where(RoundRow.event_id == event_id, RoundRow.number == number)
    )
    if found is None:
        raise NotFound(Msg("round %(number)s is not paired", number=number))
    return found


def event_rounds(session: Session, event_id: int) -> list[RoundRow]:
    """Every paired round of event ``event_id``, an event of either kind, first round first
    (one table holds both kinds' rounds); empty before the first pairing.

    >>> db = Database("sqlite://"); db.upgrade()
    >>> with db.transaction() as session:
    ...     event_rounds(session, 1)
    []
    """
    return list(
        session.scalars(
            select(RoundRow).where(RoundRow.event_id == event_id).order_by(RoundRow.number)
        )
    )


def latest_round(session: Session, event_id: int) -> int | None:
    """The number of the latest round paired in event ``event_id``, an event of either kind;
    ``None`` before the first pairing.

    >>> db = Database("sqlite://"); db.upgrade()
    >>> with db.transaction() as session:
    ...     latest_round(session, 1) is None
    True
    """
    found = session.scalar(select(func.max(RoundRow.number)).where(RoundRow.event_id == event_id))
    return int(found) if found is not None else None


def round_or_latest(session: Session, event_id: int, number: int | None) -> RoundRow:
    """Round ``number`` of event ``event_id`` (:func:`round_row`), or with ``None`` its latest
    round, as the commands and pages that show "the round" read it; ``NotFound`` when that
    round is not paired.

    >>> db = Database("sqlite://"); db.upgrade()
    >>> with db.transaction() as session:
    ...     round_or_latest(session, 1, None)
    Traceback (most recent call last):
    ...
    weiqi.errors.NotFound: no round is paired yet
    """
    if number is None:
        number = latest_round(session, event_id)
        if number is None:
            raise NotFound(Msg("no round is paired yet"))
    return round_row(session, event_id, number)


def count_rows(session: Session, table: type[PlayerRow | RoundRow | TeamRow], event_id: int) -> int:
    """How many rows of ``table`` (its players or teams, its rounds) event ``event_id`` has."""
    found = session.scalar(
        select(func.count()).select_from(table).where(table.event_id == event_id)
    )
    return int(found or 0)


def store_details(event: EventRow, details: EventDetails) -> None:
    """Write ``details`` onto the event's row (in the caller's transaction, under its lock)."""
    event.start_date = details.start_date
    event.end_date = details.end_date
    event.venue = details.venue
    event.time_zone = details.time_zone


def store_name_and_details(
    session: Session, event_id: int, name: str, details: EventDetails | None
) -> None:
    """Write ``name`` (cleaned by :func:`event_name`) and the details (``None``: kept) onto
    the row of event ``event_id``, in the caller's transaction (which holds the event's lock):
    what a settings form of either kind changes besides the settings."""
    event = existing_event(session, event_id)
    event.name = name
    if details is not None:
        store_details(event, details)


def details_in(session: Session, event_id: int) -> EventDetails:
    """The details of event ``event_id`` in the caller's transaction (``NotFound`` if none)."""
    event = existing_event(session, event_id)
    return details_of(event)


def event_details(db: Database, event_id: int) -> EventDetails:
    """The details of an event of either kind, which are public (they head its sheets);
    ``NotFound`` for no such event.

    >>> db = Database("sqlite://"); db.upgrade()
    >>> from weiqi.tournament.settings import System
    >>> ev = create_event(db, Actor.local(), "Open", EventSettings(System.ROUND_ROBIN)).id
    >>> event_details(db, ev).time_zone
    'Asia/Shanghai'
    """
    with db.transaction() as session:
        return details_in(session, event_id)


def event_time_control(db: Database, event_id: int) -> TimeControl | None:
    """The time control event ``event_id`` announces for its games, either kind
    (:func:`time_control_in`).

    >>> db = Database("sqlite://"); db.upgrade()
    >>> from weiqi.tournament.settings import System
    >>> made = EventSettings(System.ROUND_ROBIN, time_control="10m+3x30s")
    >>> event_time_control(db, create_event(db, Actor.local(), "Open", made).id).format()
    '10m+3x30s'
    """
    with db.transaction() as session:
        return time_control_in(session, event_id)


def time_control_in(session: Session, event_id: int) -> TimeControl | None:
    """The time control in event ``event_id``'s settings, in the caller's transaction; none
    for an event without one (or without settings)."""
    settings = event_settings(session, event_id)
    return settings.time_control if settings is not None else None


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


def create_event(
    db: Database,
    actor: Actor,
    name: str,
    settings: Settings,
    details: EventDetails | None = None,
) -> Competition[Settings]:
    """Create an event of either kind — its kind is its settings' (an individual event's
    ``EventSettings``, a team event's ``TeamEventSettings``) — with its details (dates, venue,
    time zone; ``None``: none announced, Asia/Shanghai). A creator who is not a
    site administrator runs it (:func:`add_event`).

    >>> from weiqi.tournament.settings import System
    >>> db = Database("sqlite://"); db.upgrade()
    >>> create_event(db, Actor.local(), " Open ", EventSettings(System.ROUND_ROBIN)).name
    'Open'
    >>> create_event(db, Actor.local(), "甲级联赛", TeamEventSettings(boards=4)).kind
    <EventKind.TEAM: 'team'>
    """
    return cast(Competition[Settings], create_any_event(db, actor, name, settings, details))


def create_any_event(
    db: Database,
    actor: Actor,
    name: str,
    settings: EventSettings | TeamEventSettings,
    details: EventDetails | None = None,
) -> AnyCompetition:
    """:func:`create_event` for settings whose kind the caller does not know in advance (read
    from JSON by :func:`settings_of_kind`)."""
    with db.transaction() as session:
        event_id = add_event(session, actor, name, settings_row(settings), details)
        return competition(session, event_id)


def add_event(
    session: Session,
    actor: Actor,
    name: str,
    settings_row: Callable[[int], Base],
    details: EventDetails | None = None,
) -> int:
    """Insert a new event of either kind in ``session``: its name (:func:`event_name`), its
    settings row (``settings_row(event_id)``: an individual or a team event's), its
    ``details`` when given (:func:`store_details`), and, when the creator is a user other than
    a site administrator, the organiser's and chief referee's roles for the creator (one person
    in a club event; the roles page hands them on). The one way an event is created, by the
    pages, the API and the command line alike."""
    name = event_name(name)
    require(session, actor, Action.CREATE_EVENT)
    event = EventRow(name=name)
    session.add(event)
    session.flush()
    session.add(settings_row(event.id))
    if actor.user_id is not None and not actor.is_admin:
        for role in (Role.ORGANISER, Role.CHIEF_REFEREE):
            session.add(EventRole(user_id=actor.user_id, event_id=event.id, role=role.value))
    session.flush()
    if details is not None:
        store_details(event, details)
        session.flush()
    return event.id


def list_events(db: Database) -> list[EventInfo]:
    """Every event, newest first (events are public)."""
    with db.transaction() as session:
        rows = session.scalars(
            select(EventRow).order_by(EventRow.created_at.desc(), EventRow.id.desc())
        )
        return [_info(e) for e in rows]


def get_event(db: Database, event_id: int) -> EventInfo:
    with db.transaction() as session:
        event = existing_event(session, event_id)
        return _info(event)


def is_team_event(session: Session, event_id: int) -> bool:
    """Whether ``event_id`` is a team event (teams meet teams; a league division is one): its
    settings are a team event's. ``False`` for an individual event and for no event at all.

    >>> db = Database("sqlite://"); db.upgrade()
    >>> with db.transaction() as session:
    ...     is_team_event(session, 1)
    False
    """
    return _stored_kind(session, event_id) == EventKind.TEAM.value


def _stored_kind(session: Session, event_id: int) -> str | None:
    """The kind an event's settings row holds (``None``: no event, or none set up)."""
    return session.scalar(
        select(EventSettingsRow.kind).where(EventSettingsRow.event_id == event_id)
    )


def settings_of_kind(kind: EventKind, data: dict[str, object]) -> EventSettings | TeamEventSettings:
    """The settings value of an event of ``kind`` from JSON values (stored, or sent to the API
    and the command line): ``InvalidSetting`` naming a setting the kind refuses.

    >>> settings_of_kind(EventKind.TEAM, {"boards": 3}).boards
    3
    """
    if kind is EventKind.TEAM:
        return team_settings_from_dict(data)
    return settings_from_dict(data)


def stored_settings(row: EventSettingsRow) -> EventSettings | TeamEventSettings:
    """The settings value an event's settings row holds, of its kind (the one reading of the
    stored settings)."""
    return settings_of_kind(EventKind(row.kind), json.loads(row.settings_json))


def event_settings(session: Session, event_id: int) -> EventSettings | TeamEventSettings | None:
    """The settings of ``event_id``, of its kind; ``None`` for no event or one without settings.

    >>> db = Database("sqlite://"); db.upgrade()
    >>> with db.transaction() as session:
    ...     event_settings(session, 1) is None
    True
    """
    row = session.get(EventSettingsRow, event_id)
    return None if row is None else stored_settings(row)


def no_settings(event_id: int) -> NotFound:
    """What is said of an event without settings (one created by name alone before every event
    had its settings from the start, as migration 0029 found them): nothing of a competition
    (entrants, rounds, games) is read or done in it."""
    return NotFound(Msg("event %(event_id)s has no settings yet", event_id=event_id))


def competition(session: Session, event_id: int) -> AnyCompetition:
    """Event ``event_id`` of either kind as its pages, the API and the command line head it
    (:class:`Competition`): its players or teams counted, a league division's season named.
    ``NotFound`` for no event, or one without settings (:func:`no_settings`).

    >>> db = Database("sqlite://"); db.upgrade()
    >>> with db.transaction() as session:  # created by name only, as before every event had
    ...     session.add(EventRow(name="Open")); session.flush()  # its settings from the start
    ...     competition(session, 1)
    Traceback (most recent call last):
    ...
    weiqi.errors.NotFound: event 1 has no settings yet
    """
    event = existing_event(session, event_id)
    settings = event_settings(session, event_id)
    if settings is None:
        raise no_settings(event_id)
    rounds = count_rows(session, RoundRow, event_id)
    if isinstance(settings, EventSettings):
        players = count_rows(session, PlayerRow, event_id)
        return Competition(event_id, event.name, settings, players, rounds, details_of(event))
    teams = count_rows(session, TeamRow, event_id)
    division = session.get(LeagueDivisionRow, event_id)
    return Competition(event_id, event.name, settings, teams, rounds, details_of(event),
                       None if division is None else division.season_id,
                       "" if division is None else division.division)  # fmt: skip


def competition_info(db: Database, event_id: int) -> AnyCompetition:
    """:func:`competition` in a transaction of its own: event ``event_id`` of either kind."""
    with db.transaction() as session:
        return competition(session, event_id)


def settings_row(settings: EventSettings | TeamEventSettings) -> Callable[[int], EventSettingsRow]:
    """The settings row of a new event of either kind, as :func:`add_event` takes it (created,
    imported or read from another program's file alike); :func:`store_settings` rewrites it."""

    def row(event_id: int) -> EventSettingsRow:
        stored = EventSettingsRow(event_id=event_id)
        store_settings(stored, settings)
        return stored

    return row


def store_settings(row: EventSettingsRow, settings: EventSettings | TeamEventSettings) -> None:
    """Write ``settings`` into the event's settings row: its kind, system and JSON."""
    team = isinstance(settings, TeamEventSettings)
    row.kind = (EventKind.TEAM if team else EventKind.INDIVIDUAL).value
    row.system = settings.system.value
    row.settings_json = json.dumps(settings_to_dict(settings), ensure_ascii=False)


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
        kind = _stored_kind(session, event_id)
        if kind is None:
            existing_event(session, event_id)
            raise no_settings(event_id)
    return EventKind(kind)


def latest_event(db: Database, kind: EventKind | None = None) -> int:
    """The newest event (of ``kind``, else of either), league divisions left out (they are
    named through their season): what a command acts on when it names no ``--event``."""
    query = (
        select(func.max(EventSettingsRow.event_id))
        .outerjoin(LeagueDivisionRow, LeagueDivisionRow.event_id == EventSettingsRow.event_id)
        .where(LeagueDivisionRow.event_id.is_(None))
    )
    if kind is not None:
        query = query.where(EventSettingsRow.kind == kind.value)
    with db.transaction() as session:
        found = session.scalar(query)
    if found is None:
        if kind is EventKind.TEAM:
            raise NotFound(Msg("no team event in this database; create one first"))
        raise NotFound(Msg("no event in this database; create one first"))
    return int(found)


class EventStatus(enum.Enum):
    """Where an event stands, as its card on the home page says."""

    NOT_STARTED = "not_started"
    """No round paired (an individual event) or no lineups revealed yet (a team event)."""
    IN_PROGRESS = "in_progress"
    FINISHED = "finished"
    """Its last planned round is paired and every game of it has a result (an event whose
    settings fix no number of rounds stays in progress)."""


@dataclass(frozen=True)
class EventCard:
    """An event on the home page: its name and date, its kind and system (the system's CLI
    value, which the page names in the reader's language), where it stands and its current
    round — the latest paired (a league division's: revealed) round — out of ``planned``
    when the settings fix the number of rounds. ``season_id``: the league season of a
    division."""

    id: int
    name: str
    created_at: datetime
    kind: EventKind | None
    system: str
    status: EventStatus
    current_round: int | None
    planned: int | None
    season_id: int | None = None
    details: EventDetails = field(default_factory=EventDetails)


def event_cards(db: Database) -> list[EventCard]:
    """Every event as the home page shows it, newest first, in a handful of queries whatever
    the number of events.

    >>> db = Database("sqlite://"); db.upgrade()
    >>> from weiqi.tournament.settings import System
    >>> _ = create_event(db, Actor.local(), "春季赛", EventSettings(System.ROUND_ROBIN))
    >>> [(c.name, c.kind, c.status.value, c.current_round) for c in event_cards(db)]
    [('春季赛', <EventKind.INDIVIDUAL: 'individual'>, 'not_started', None)]
    """
    from weiqi.store.tournament import GameRow, RoundRow

    with db.transaction() as session:
        events = list(
            session.scalars(
                select(EventRow).order_by(EventRow.created_at.desc(), EventRow.id.desc())
            )
        )
        settings = {
            e: (EventKind(kind), system, json.loads(raw).get("rounds"))
            for e, kind, system, raw in session.execute(
                select(
                    EventSettingsRow.event_id,
                    EventSettingsRow.kind,
                    EventSettingsRow.system,
                    EventSettingsRow.settings_json,
                )
            )
        }
        seasons = dict(
            session.execute(select(LeagueDivisionRow.event_id, LeagueDivisionRow.season_id)).all()
        )
        # every event, in one pass over the one rounds table: its rounds (a league's calendar
        # is made up front), the latest, the latest revealed and how many are not revealed
        revealed_at = RoundRow.revealed_at
        rounds = {
            e: (count, last, last_revealed, unrevealed)
            for e, count, last, last_revealed, unrevealed in session.execute(
                select(
                    RoundRow.event_id,
                    func.count(RoundRow.id),
                    func.max(RoundRow.number),
                    func.max(case((revealed_at.is_not(None), RoundRow.number))),
                    func.count(case((revealed_at.is_(None), RoundRow.id))),
                ).group_by(RoundRow.event_id)
            )
        }
        # the games without a result, either kind
        open_games = dict(
            session.execute(
                select(RoundRow.event_id, func.count(GameRow.id))
                .join(GameRow, GameRow.round_id == RoundRow.id)
                .where(GameRow.result.is_(None))
                .group_by(RoundRow.event_id)
            ).all()
        )
        cards = []
        for e in events:
            kind: EventKind | None
            kind, system, planned = settings.get(e.id, (None, "", None))
            season = seasons.get(e.id)
            if kind is EventKind.TEAM:
                count, last, last_revealed, unrevealed = rounds.get(e.id, (0, None, None, 0))
                # a division's calendar is made up front: its current round is the latest
                # revealed; another team event's rounds are paired one by one
                current = last_revealed if season is not None else last
                if season is not None:
                    planned = count or None
                done = not unrevealed and not open_games.get(e.id)
            elif kind is EventKind.INDIVIDUAL:
                current = rounds.get(e.id, (0, None, None, 0))[1]
                done = planned is not None and current == planned and not open_games.get(e.id)
            else:
                current, done = None, False
            if current is None:
                status = EventStatus.NOT_STARTED
            elif done and planned is not None and current >= planned:
                status = EventStatus.FINISHED
            else:
                status = EventStatus.IN_PROGRESS
            cards.append(
                EventCard(
                    e.id,
                    e.name,
                    e.created_at,
                    kind,
                    system,
                    status,
                    current,
                    planned,
                    season,
                    details_of(e),
                )
            )
        return cards
