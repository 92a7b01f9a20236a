"""An event's settings, whichever its kind: created, read and changed through one read model
(:class:`~weiqi.services.read_models.EventSettingsRead`) and one reading of the settings sent
as JSON values — by the API's ``/api/events`` and ``/api/events/{id}/settings`` and by
``weiqi event set``.

>>> from weiqi.services.actor import Actor
>>> from weiqi.store.database import Database
>>> db = Database("sqlite://"); db.upgrade()
>>> swiss = {"system": "swiss", "rounds": 5}
>>> made = create(db, Actor.local(), "春季赛", EventKind.INDIVIDUAL, swiss)
>>> made.kind, made.system, made.settings["rounds"], made.locked
('individual', 'swiss', 5, {})
>>> changed = change(db, Actor.local(), made.id, {**made.settings, "rounds": 7})
>>> changed.settings["rounds"], changed.name
(7, '春季赛')
>>> change(db, Actor.local(), made.id, {**made.settings, "rounds": "seven"})
Traceback (most recent call last):
...
weiqi.errors.InvalidSetting: rounds: must be a whole number
"""

from __future__ import annotations

from typing import Any

from weiqi.league.settings import TeamEventSettings
from weiqi.services import event_admin, teams
from weiqi.services.actor import Actor
from weiqi.services.events import (
    AnyCompetition,
    EventKind,
    competition_info,
    create_any_event,
    settings_of_kind,
)
from weiqi.services.read_models import EventSettingsRead
from weiqi.store.database import Database
from weiqi.tournament.details import EventDetails
from weiqi.tournament.settings import check_applies, settings_to_dict


def settings_read(info: AnyCompetition) -> EventSettingsRead:
    """``info`` as the read model: its settings, what cannot change now and why."""
    s = info.settings
    if isinstance(s, TeamEventSettings):
        locked = teams.locked_fields(s, info.rounds, info.season_id is not None)
    else:
        locked = event_admin.locked_fields(s) if info.rounds else {}
    d = info.details
    details = {
        "start_date": d.start_date.isoformat() if d.start_date else None,
        "end_date": d.end_date.isoformat() if d.end_date else None,
        "venue": d.venue,
        "time_zone": d.time_zone,
    }
    codes = list(s.tiebreak_codes)
    return EventSettingsRead(info.id, info.name, info.kind.value, info.system,
                             settings_to_dict(s), codes, info.entrants, info.rounds,
                             details, locked)  # fmt: skip


def create(
    db: Database,
    actor: Actor,
    name: str,
    kind: EventKind,
    settings: dict[str, Any],
    details: EventDetails | None = None,
) -> EventSettingsRead:
    """Create an event of ``kind`` with ``settings`` as JSON values (a setting left out takes
    its default; an individual event names its system)."""
    value = settings_of_kind(kind, settings)
    check_applies(value, settings)
    return settings_read(create_any_event(db, actor, name, value, details))


def read(db: Database, event_id: int) -> EventSettingsRead:
    """Event ``event_id`` with its settings, either kind."""
    return settings_read(competition_info(db, event_id))


def change(
    db: Database,
    actor: Actor,
    event_id: int,
    settings: dict[str, Any],
    name: str | None = None,
    details: EventDetails | None = None,
) -> EventSettingsRead:
    """Change the settings of event ``event_id`` (every one, as :func:`read` gives them: one
    left out takes its default), its ``name`` and ``details`` (``None``: kept). A setting that
    cannot change now (``locked``) is refused naming it and why, and nothing is stored."""
    info = competition_info(db, event_id)
    name = info.name if name is None else name
    value = settings_of_kind(info.kind, settings)
    check_applies(value, settings, info.settings)
    if isinstance(value, TeamEventSettings):
        kept = info.details if details is None else details
        return settings_read(teams.update_team_event(db, actor, event_id, name, kept, value))
    return settings_read(event_admin.update_settings(db, actor, event_id, name, value, details))
