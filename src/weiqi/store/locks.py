"""The write lock of one event, taken where a service checks what is stored before it writes.

A check ("round 1 has no result yet", "no lineup of this team is sealed", "this name is not
entered") is only worth something if nobody writes between the check and the write. Every
service that checks before it writes in an event therefore calls :func:`lock_event` first —
after the permission check, before it loads the rows it checks — and holds the lock until its
transaction ends:

- PostgreSQL: ``SELECT … FROM events WHERE id = … FOR NO KEY UPDATE``. A second writer of the
  same event waits for the first to commit and then reads what it wrote; writers of other
  events, readers and inserts that only reference the event (``FOR KEY SHARE``) do not wait.
- SQLite has one writer at a time for the whole file: ``BEGIN IMMEDIATE`` takes it at once
  (instead of at the first ``INSERT``, after the checks), unless the transaction already
  writes and holds it.

So of two concurrent writers exactly one decides first, and the other decides on what the
first stored: a result already there, a round already unpaired. Whoever takes the lock writes
the event: its version (``store.versions``) changes when the transaction commits, and every
page kept under the old one is out of date. Races the lock cannot order
(two new users with one name, which belong to no event) end in the database's unique
constraint, which ``Database.transaction`` turns into a ``Conflict``.

>>> from weiqi.store.database import Database
>>> from weiqi.store.models import EventRow
>>> db = Database("sqlite://"); db.upgrade()
>>> with db.transaction() as session:
...     session.add(EventRow(name="Club"))
>>> with db.transaction() as session:
...     lock_event(session, 1)
...     session.get(EventRow, 1).name
'Club'
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from weiqi.store import versions
from weiqi.store.models import EventRow


def lock_event(session: Session, event_id: int) -> None:
    """Hold the write lock of ``event_id`` until the session's transaction ends (nothing
    happens, and nothing fails, for an event that does not exist: the caller's own lookup
    says so)."""
    versions.touch(session, event_id)
    connection = session.connection()
    if connection.dialect.name == "sqlite":
        driver = connection.connection.driver_connection
        # The sqlite3 module opens a transaction only before a write; until then every read
        # ran on its own, so the lock is taken here, before the reads the caller checks.
        if driver is not None and not driver.in_transaction:
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        return
    session.execute(
        select(EventRow.id).where(EventRow.id == event_id).with_for_update(key_share=True)
    )


def lock_event_shared(session: Session, event_id: int) -> None:
    """Hold ``event_id``'s write lock shared until the session's transaction ends: for a
    write that changes one game only and locks that game's own row itself (a live move), so
    that the games of one event write in parallel while every writer that takes the whole
    event (:func:`lock_event`: unpairing the round, linking a player) still waits for them and
    they for it. The event's version changes as with :func:`lock_event`.

    PostgreSQL: ``SELECT … FOR SHARE`` (it conflicts with ``FOR NO KEY UPDATE``, not with
    itself). SQLite has one writer for the whole file: the same ``BEGIN IMMEDIATE`` as
    :func:`lock_event`."""
    connection = session.connection()
    if connection.dialect.name == "sqlite":
        lock_event(session, event_id)
        return
    versions.touch(session, event_id)
    session.execute(select(EventRow.id).where(EventRow.id == event_id).with_for_update(read=True))
