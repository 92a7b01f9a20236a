"""The server's clock of a live game on a manual clock (issue #11; R-TIME-2, R-TIME-3): the
services say when to wake, give the call-outs due, and record a flag exactly at the deadline
whether or not a player sends anything; a move sent after the deadline is refused and the flag
recorded instead. The written rules: the events have no lag allowance (``lag_gain=0``; with
one, see ``test_live_lag``). Real database (SQLite and PostgreSQL), no server."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tests.live.conftest import seated_event
from weiqi.i18n import render
from weiqi.services import games, live
from weiqi.services.actor import Actor
from weiqi.services.server_clock import ManualClock
from weiqi.store.database import Database

LOCAL = Actor.local()
T0 = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)


def _game(db: Database, time_control: str) -> tuple[int, dict[str, Actor]]:
    return seated_event(db, time_control, "快棋", play="online", lag_gain=0)


def test_r_time_2_the_flag_falls_at_the_deadline_with_nobody_sending_anything(
    database: Database,
) -> None:
    """1 min + 1 × 10 s: Black moves after 5 s; White's flag is due 70 s later. Before it the
    server's look finds nothing to record (a call-out of the count in the byo-yomi, R-TIME-3);
    at it, the time loss is recorded by the server and is the board's result."""
    clock = ManualClock(T0)
    ev, seats = _game(database, "1m+1x10s")
    live.start_game(database, ev, 1, 1, clock)
    clock.advance(timedelta(seconds=5))
    moved = live.act(database, seats["B"], ev, 1, 1, "move", None, {"vertex": "E5"}, clock)
    assert moved.refused is None
    deadline = (T0 + timedelta(seconds=75)).timestamp()
    assert live.next_wakeup(database, ev, 1, 1, clock) == (T0 + timedelta(seconds=66)).timestamp()
    clock.set(T0 + timedelta(seconds=66))  # one second into White's byo-yomi
    woke = live.wake(database, ev, 1, 1, clock)
    assert not woke.changed and woke.callout is not None and woke.callout["zh"] == "1"
    clock.set(T0 + timedelta(seconds=74.99))
    assert not live.wake(database, ev, 1, 1, clock).changed
    assert live.next_wakeup(database, ev, 1, 1, clock) == deadline
    clock.set(T0 + timedelta(seconds=75))
    woke = live.wake(database, ev, 1, 1, clock)
    assert woke.changed and woke.snapshot.result == "B+T" and woke.next_at is None
    assert [e.kind for e in woke.snapshot.events] == ["clock_check"]
    record = games.record_json(database, ev, 1, 1)
    assert record is not None and '"action":"check"' in record
    view = games.game_view(database, ev, 1, 1)
    assert view.result == "B+T" and view.history[-1].who_role is None  # the rules decided
    assert live.next_wakeup(database, ev, 1, 1, clock) is None


def test_r_time_2_a_move_after_the_deadline_is_refused_and_the_flag_recorded(
    database: Database,
) -> None:
    clock = ManualClock(T0)
    ev, seats = _game(database, "30s")
    live.start_game(database, ev, 1, 1, clock)
    clock.advance(timedelta(seconds=31))  # the server did not look: the move finds the flag
    late = live.act(database, seats["B"], ev, 1, 1, "move", 2, {"vertex": "E5"}, clock)
    assert late.refused is not None and late.snapshot.result == "W+T"
    assert render(late.refused, "zh_CN").startswith("超时")
    assert late.snapshot.stones == {}
    record = games.record_json(database, ev, 1, 1)
    assert record is not None
    assert '"action":"check"' in record and '"kind":"move"' not in record


def test_r_time_2_a_reader_whose_clock_was_read_before_the_last_move_sees_the_game_at_it(
    database: Database,
) -> None:
    """A spectator's request reads the server's clock, then the record — to which another
    thread or worker appended a move stamped a few milliseconds later meanwhile. The reader is
    shown the game as of that move, not refused (the room's page answered 422, "time went
    backwards: 56.406 s is before 56.415 s", seen under load)."""
    clock = ManualClock(T0)
    ev, seats = _game(database, "1m+1x10s")
    live.start_game(database, ev, 1, 1, clock)
    clock.advance(timedelta(seconds=5))
    live.act(database, seats["B"], ev, 1, 1, "move", None, {"vertex": "E5"}, clock)
    earlier = ManualClock(T0 + timedelta(seconds=4.991))  # read 9 ms before the move's time
    snap = live.snapshot(database, ev, 1, 1, clock=earlier)
    assert snap.to_move == "W" and snap.clock is not None
    assert snap.clock.black.main == 55.0  # Black's 5 s used, White's clock just started
    assert snap.clock.white.main == 60.0
