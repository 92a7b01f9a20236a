"""Event versions (``store.versions``) on SQLite and PostgreSQL: every kind of write to an event
changes its version in the same transaction, and nothing else does — a write of one event
leaves the others' pages valid, a refused or read-only transaction changes nothing."""

from __future__ import annotations

import pytest
from sqlalchemy import insert, select, text, update
from sqlalchemy.exc import OperationalError

from weiqi.store import versions
from weiqi.store.database import Database
from weiqi.store.locks import lock_event, lock_event_shared
from weiqi.store.models import EventRow, User
from weiqi.store.tournament import GameRow, PlayerRow, RoundRow
from weiqi.store.versions import EventProgressRow, EventVersionRow, Version


def _version(db: Database, event_id: int) -> Version:
    with db.transaction() as session:
        found = versions.read(session, event_id)
    assert found is not None
    return found


@pytest.fixture
def two_events(database: Database) -> tuple[int, int]:
    with database.transaction() as session:
        first, second = EventRow(name="A"), EventRow(name="B")
        session.add_all([first, second])
        session.flush()
        session.add(PlayerRow(event_id=first.id, name="李明"))
        return first.id, second.id


def test_a_new_event_has_a_version_and_the_site_one(
    database: Database, two_events: tuple[int, int]
) -> None:
    a, b = two_events
    va, vb = _version(database, a), _version(database, b)
    assert va.site == vb.site and va.event != vb.event
    with database.transaction() as session:
        assert versions.read(session, 999) is None  # no event: nothing may be kept


@pytest.mark.parametrize(
    "write",
    [
        "orm change of a row with event_id",
        "orm delete of a row with event_id",
        "bulk insert with event_id",
        "the event itself",
        "lock_event",
        "lock_event and an update naming no event",
    ],
)
def test_each_kind_of_write_changes_its_event_and_nothing_else(
    database: Database, two_events: tuple[int, int], write: str
) -> None:
    a, b = two_events
    before_a, before_b = _version(database, a), _version(database, b)
    with database.transaction() as session:
        player = session.query(PlayerRow).filter_by(event_id=a).one()
        if write == "orm change of a row with event_id":
            player.club = "北京"
        elif write == "orm delete of a row with event_id":
            session.delete(player)
        elif write == "bulk insert with event_id":
            session.execute(insert(PlayerRow), [{"event_id": a, "name": "王伟"}])
        elif write == "the event itself":
            event = session.get(EventRow, a)
            assert event is not None
            event.name = "A 杯"
        elif write == "lock_event":
            lock_event(session, a)
        else:
            lock_event(session, a)
            session.execute(update(GameRow).where(GameRow.id == -1).values(result="B+R"))
    after_a, after_b = _version(database, a), _version(database, b)
    assert after_a.event != before_a.event
    assert after_b == before_b
    assert after_a.site == before_a.site


def test_a_write_no_event_can_be_named_for_changes_the_sites_version(
    database: Database, two_events: tuple[int, int]
) -> None:
    """A board changed without the event's lock (no service does that) still invalidates:
    every page, through the site's version."""
    a, b = two_events
    before_a, before_b = _version(database, a), _version(database, b)
    with database.transaction() as session:
        session.execute(update(GameRow).where(GameRow.id == -1).values(result="B+R"))
    after_a, after_b = _version(database, a), _version(database, b)
    assert after_a.site != before_a.site and after_b.site == after_a.site
    assert (after_a.event, after_b.event) == (before_a.event, before_b.event)


def test_a_games_progress_changes_a_lane_of_its_event_not_the_events_row(
    database: Database, two_events: tuple[int, int]
) -> None:
    """A live move (a game's board alone, under its event's lock taken shared) changes the
    event's version through one of its progress lanes; the event's own row, which every move
    of the event queued for, and its shape stay, and so does the other event."""
    a, b = two_events
    before_a, before_b = _version(database, a), _version(database, b)
    with database.transaction() as session:
        before_shapes = versions.shapes(session, a)
        own_before = session.scalar(select(EventVersionRow.version).filter_by(event_id=a))
    for _ in range(3):
        with database.transaction() as session:
            lock_event_shared(session, a)
            session.execute(update(GameRow).where(GameRow.id == -1).values(result="B+R"))
        after_a = _version(database, a)
        assert after_a.event != before_a.event and after_a.site == before_a.site
        before_a = after_a
    assert _version(database, b) == before_b
    with database.transaction() as session:
        assert versions.shapes(session, a) == before_shapes
        assert session.scalar(select(EventVersionRow.version).filter_by(event_id=a)) == own_before
        lanes = session.scalars(select(EventProgressRow.lane).filter_by(event_id=a)).all()
    assert 1 <= len(lanes) <= 3 and all(0 <= lane < versions.LANES for lane in lanes)


@pytest.mark.postgres
def test_two_moves_of_one_event_wait_for_each_other_only_on_the_same_lane(
    postgres_url: str,
) -> None:
    """PostgreSQL: a move's progress written and not yet committed holds its lane only; a
    second move of the same event on another lane goes on at once, one on the same lane (as
    every move did on the event's one row) waits past a lock time-out of 0.5 s."""
    db = Database(postgres_url)
    db.upgrade()
    try:
        with db.transaction() as session:
            event = EventRow(name="全国赛")
            session.add(event)
            session.flush()
            a = event.id
        with db.engine.connect() as first, db.engine.connect() as second:
            first.begin()
            versions._bump(first, a, shaped=False, lane=1)  # a move not yet committed
            second.execute(text("SET lock_timeout = '500ms'"))
            versions._bump(second, a, shaped=False, lane=2)
            second.commit()
            with pytest.raises(OperationalError, match="lock timeout"):
                versions._bump(second, a, shaped=False, lane=1)
            second.rollback()
            first.commit()
        with db.transaction() as session:
            lanes = session.scalars(select(EventProgressRow.lane).filter_by(event_id=a)).all()
        assert sorted(lanes) == [1, 2]
    finally:
        db.dispose()


def test_a_round_added_through_the_session_names_its_event(
    database: Database, two_events: tuple[int, int]
) -> None:
    a, b = two_events
    before_a, before_b = _version(database, a), _version(database, b)
    with database.transaction() as session:
        session.add(RoundRow(event_id=a, number=1))
    assert _version(database, a).event != before_a.event
    assert _version(database, b) == before_b


def test_accounts_reads_and_refused_writes_change_no_version(
    database: Database, two_events: tuple[int, int]
) -> None:
    a, _ = two_events
    before = _version(database, a)
    with database.transaction() as session:
        session.add(User(username="li", display_name="Li", password_hash="-"))
    with database.transaction() as session:
        session.query(PlayerRow).filter_by(event_id=a).all()
    with pytest.raises(RuntimeError), database.transaction() as session:
        lock_event(session, a)
        session.query(PlayerRow).filter_by(event_id=a).one().club = "上海"
        raise RuntimeError("refused after the check")
    assert _version(database, a) == before


def test_a_version_never_comes_back(database: Database, two_events: tuple[int, int]) -> None:
    """Random, not counted: a restored backup or another database never meets an old key."""
    a, _ = two_events
    seen = {_version(database, a).event}
    for _ in range(20):
        with database.transaction() as session:
            lock_event(session, a)
        seen.add(_version(database, a).event)
    assert len(seen) == 21


def test_raw_sql_is_not_seen(database: Database, two_events: tuple[int, int]) -> None:
    """The listeners watch the ORM sessions every service uses; SQL sent past them (a manual
    repair with a database shell) changes no version — the page cache must then be flushed.
    This is why the services never do so."""
    a, _ = two_events
    before = _version(database, a)
    with database.engine.begin() as connection:
        connection.execute(text("UPDATE event_players SET club = 'x'"))
    assert _version(database, a) == before


def test_the_migration_gives_existing_events_and_the_site_a_version(database_url: str) -> None:
    """Migration 0010 on a database of revision 0009 that already holds an event: its pages
    can be kept from the first read on, without waiting for a write."""
    from alembic import command

    from weiqi.store.migrate import alembic_config

    db = Database(database_url)
    db.upgrade()
    with db.engine.begin() as connection:
        command.downgrade(alembic_config(connection), "0009")
        connection.execute(text("INSERT INTO events (id, name, created_at) VALUES (7, 'Old', :t)"),
                           {"t": "2026-01-01 00:00:00"})  # fmt: skip
    db.upgrade()
    with db.transaction() as session:
        assert versions.read(session, 7) is not None
    db.dispose()
