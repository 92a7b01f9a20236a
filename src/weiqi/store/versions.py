"""Every event's version: a value that changes in the same transaction as every write to the
event, so that whatever is derived from the event (a public page, its JSON) can be kept under
its version and is never served after a write.

Nobody bumps a version by hand. :func:`install` puts three listeners on the session factory of
``Database``, and the version of each event a transaction wrote changes when it commits:

- an event the transaction locked (``store.locks.lock_event``: every service write checks
  under the event's lock);
- an event a row it inserted, changed or deleted names (an ``EventRow``, any row with an
  ``event_id``: players, rounds, teams, roles, settings), whether flushed from the session or
  sent as a bulk ``insert(...)`` with the values;
- and when it wrote rows of an event that name no event (a game record, a board, a season)
  without locking or naming any event, the site's version (:data:`SITE`, part of every key), so
  that a write nobody can place still invalidates everything rather than nothing.

Tables that no public page reads (:data:`NOT_EVENT_DATA`: accounts, login sessions, the audit
log) change nothing.

Each event (and the site) also has a *shape*: it changes with the version, except when all a
transaction wrote was a game's progress (:data:`PROGRESS`: its record and its board's row — a
live move). What a live move reads of its game and does not write — the players, their labels
and accounts, the settings, the round — is therefore the same for as long as the shape stays,
and a worker keeps it that long (``services.game_cache``); the board's own row, which a move
does write, is read every time.

A write of a game's progress alone does not change the event's row of versions but one of its
:data:`LANES` progress rows (``event_progress``), picked at random; the event's version is
read as its row's version combined with every lane's. Every live move of an event used to
update the one row, whose lock each held until its commit: the moves of a national event's
thousands of games were stored one after another (with two workers, 67 of 73 busy PostgreSQL
backends waited on it, ``bench/live.py``). Two moves now wait for each other only when they
pick the same lane.

A version (and a shape) is a fresh random number, not a count: a version never comes back,
not after a database is restored from a backup nor in another database whose pages share the
same Redis, so a key made of versions can only name what was derived from it.

>>> from weiqi.store.database import Database
>>> from weiqi.store.models import EventRow
>>> db = Database("sqlite://"); db.upgrade()
>>> with db.transaction() as session:
...     session.add(EventRow(name="Club"))
>>> with db.transaction() as session:
...     first = read(session, 1)
>>> with db.transaction() as session:
...     session.get(EventRow, 1).name = "Club championship"
>>> with db.transaction() as session:
...     second = read(session, 1)
>>> first.event != second.event, first.site == second.site
(True, True)
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from sqlalchemy import (
    BigInteger,
    Connection,
    Integer,
    Table,
    bindparam,
    event,
    literal,
    or_,
    select,
    union_all,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Mapped, ORMExecuteState, Session, mapped_column, sessionmaker

from weiqi.store.base import Base
from weiqi.store.models import EventRow

__all__ = [
    "LANES",
    "NOT_EVENT_DATA",
    "PROGRESS",
    "SITE",
    "EventProgressRow",
    "EventVersionRow",
    "Shapes",
    "Version",
    "install",
    "read",
    "shapes",
    "touch",
]

SITE = 0
"""The row of the site's version (no event has id 0)."""

NOT_EVENT_DATA = frozenset(
    {
        "alembic_version",
        "audit_log",  # shown to the chief referee only, never cached
        "event_progress",
        "event_versions",
        "login_sessions",
        "site_settings",
        # A user's display name is set when the account is created and never changed; a page
        # shows it only through an event's row (a team's coach), whose write names the event.
        "users",
    }
)
"""Tables whose writes change no page derived from an event."""

PROGRESS = frozenset({"game_records", "event_games"})
"""Tables of a game's progress: a write to these alone changes the versions, not the shapes."""

_TOUCHED = "weiqi.versions.touched"
_UNPLACED = "weiqi.versions.unplaced"
_SHAPED = "weiqi.versions.shaped"


class EventVersionRow(Base):
    """The current version of one event (or of the site, :data:`SITE`).

    No foreign key on purpose: the row outlives its event, so an id SQLite hands out again
    continues with a fresh version instead of one a deleted event once had.
    """

    __tablename__ = "event_versions"

    event_id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    version: Mapped[int] = mapped_column(BigInteger)
    shape: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    """Changed with ``version`` unless all that was written is a game's progress (``None``:
    a row from before shapes existed, until the next write that changes it)."""


LANES = 64
"""Progress rows of each event: two concurrent moves of one event wait for each other one time
in 64. (16 left a third of the busy backends waiting on a lane with two workers on two
cores, where a transaction holds its lane while its thread waits for a core to commit.)"""


class EventProgressRow(Base):
    """One lane of an event's progress version: changed, instead of the event's row, by a
    transaction that wrote nothing of the event but a game's progress (:data:`PROGRESS`)."""

    __tablename__ = "event_progress"

    event_id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    lane: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    version: Mapped[int] = mapped_column(BigInteger)


class Version(NamedTuple):
    """What a page of one event is derived from: the site's version and the event's."""

    site: int
    event: int


def new_version() -> int:
    """A fresh version: random, positive, within a 64-bit column."""
    return secrets.randbits(62) + 1


# Built once: it is read by every request of a public page. The lanes come as lane 1…LANES
# of the event, its own row as lane 0.
_READ = union_all(
    select(EventVersionRow.event_id, literal(0).label("lane"), EventVersionRow.version).where(
        or_(EventVersionRow.event_id == SITE, EventVersionRow.event_id == bindparam("event_id"))
    ),
    select(
        EventProgressRow.event_id, (EventProgressRow.lane + 1).label("lane"),
        EventProgressRow.version,
    ).where(EventProgressRow.event_id == bindparam("event_id")),
)  # fmt: skip


class Shapes(NamedTuple):
    """What a live game's description is derived from: the site's shape and the event's."""

    site: int
    event: int


_SHAPES = select(EventVersionRow.event_id, EventVersionRow.shape).where(
    or_(EventVersionRow.event_id == SITE, EventVersionRow.event_id == bindparam("event_id"))
)


def shapes(connection: Session | Connection, event_id: int) -> Shapes:
    """The shapes of the site and of ``event_id``. A row not written yet, or none since shapes
    exist, reads 0: the first write that changes the shape gives it a fresh random one, so
    what was derived under 0 is never taken for what came after."""
    rows: dict[int, int | None] = {
        row.event_id: row.shape for row in connection.execute(_SHAPES, {"event_id": event_id})
    }
    return Shapes(rows.get(SITE) or 0, rows.get(event_id) or 0)


def read(connection: Session | Connection, event_id: int) -> Version | None:
    """The versions of the site and of ``event_id``; ``None`` while either has none yet (a
    database made before versions existed, an event not written since): nothing derived may
    then be kept."""
    site = own = None
    progress = 0
    for row_event, lane, version in connection.execute(_READ, {"event_id": event_id}):
        if lane:
            progress ^= version  # each lane's change changes the whole
            continue
        if row_event == SITE:
            site = version
        if row_event == event_id:
            own = version
    if site is None or own is None:
        return None
    return Version(site, own ^ progress)


def touch(session: Session, event_id: int) -> None:
    """Change ``event_id``'s version when the session's transaction commits (``lock_event``
    calls it: whoever takes the event's write lock writes the event)."""
    session.info.setdefault(_TOUCHED, set()).add(event_id)


def install(sessions: sessionmaker[Session]) -> None:
    """Watch every session of ``sessions`` for writes and change their events' versions in
    the same transaction (see the module's docstring)."""
    event.listen(sessions, "after_flush", _after_flush)
    event.listen(sessions, "do_orm_execute", _do_orm_execute)
    event.listen(sessions, "before_commit", _before_commit)


def _wrote(session: Session, table: Table, event_ids: Iterable[Any] | None) -> None:
    """Note a write to ``table`` of rows of ``event_ids`` (``None``: rows that name no event)."""
    if table.name in NOT_EVENT_DATA:
        return
    if table.name not in PROGRESS:
        session.info[_SHAPED] = True
    if event_ids is None:
        session.info[_UNPLACED] = True
        return
    for event_id in event_ids:
        if isinstance(event_id, int):
            touch(session, event_id)
        else:  # a value only the database knows (an expression): cannot be placed
            session.info[_UNPLACED] = True


def _after_flush(session: Session, _context: object) -> None:
    # The lists still hold what this flush wrote (and the new rows have their ids).
    changed = [o for o in session.dirty if session.is_modified(o, include_collections=False)]
    for obj in (*session.new, *session.deleted, *changed):
        table = obj.__table__
        if isinstance(obj, EventRow):
            _wrote(session, table, (obj.id,))
        elif "event_id" in table.c:
            _wrote(session, table, (obj.event_id,))
        else:
            _wrote(session, table, None)


def _do_orm_execute(state: ORMExecuteState) -> None:
    # Bulk statements do not pass through the flush: ``insert(PlayerRow)`` with its rows,
    # ``update(GameRecordRow).where(...)``.
    if not (state.is_insert or state.is_update or state.is_delete):
        return
    table = getattr(state.statement, "table", None)
    if not isinstance(table, Table):
        return
    ids: list[Any] | None = None
    params = state.parameters
    if state.is_insert and "event_id" in table.c and params:
        rows: Sequence[Mapping[str, Any]] = [params] if isinstance(params, Mapping) else params
        ids = [row.get("event_id") for row in rows]
    _wrote(state.session, table, ids)


def _before_commit(session: Session) -> None:
    session.flush()  # what is still pending is written (and noted) before the versions
    touched: set[int] = session.info.pop(_TOUCHED, set())
    shaped = session.info.pop(_SHAPED, False)
    if session.info.pop(_UNPLACED, False) and not touched:
        touched = {SITE}
    if touched:
        connection = session.connection()
        for event_id in sorted(touched):  # one order for every transaction: no deadlock
            _bump(connection, event_id, shaped)


def _bump(connection: Connection, event_id: int, shaped: bool, lane: int | None = None) -> None:
    """Change ``event_id``'s version: its own row (and its shape) when ``shaped``, else one of
    its progress lanes (``lane``, or one at random)."""
    dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
    version = new_version()
    if not shaped and event_id != SITE:
        lanes = EventProgressRow.__table__
        connection.execute(
            dialect.insert(lanes)
            .values(event_id=event_id, lane=random.randrange(LANES) if lane is None else lane,
                    version=version)
            .on_conflict_do_update(index_elements=[lanes.c.event_id, lanes.c.lane],
                                   set_={"version": version})
        )  # fmt: skip
        return
    table = EventVersionRow.__table__
    changed: dict[str, int] = {"version": version}
    if shaped:
        changed["shape"] = new_version()
    statement = (
        # a new row gets a shape of its own: no kept description can name it
        dialect.insert(table)
        .values(event_id=event_id, version=version, shape=changed.get("shape", new_version()))
        .on_conflict_do_update(index_elements=[table.c.event_id], set_=changed)
    )
    connection.execute(statement)
