"""A server restart loses nothing of a live game (issue #11, R-TIME-5).

Every acknowledged move is in the game's record already (a move is pushed only once it is
stored). What a restart could lose is time: while no server runs, the clocks would run on —
with nobody able to move — and a flag would fall at the next look. So the running server notes
that it is alive (:func:`beat`, every :data:`HEARTBEAT_SECONDS`) and the next one, on start-up,
counts the time since the last beat as a pause (:func:`recover`): each game whose clock was
running gets ``ClockEvent(PAUSE)`` at the last beat (or its record's last event, if later) and
``ClockEvent(RESUME)`` now, both by :data:`~weiqi.services.live_notices.SYSTEM` with the reason
:data:`~weiqi.services.live_notices.RESTART_REASON`. A flag that had fallen before the server
went down is recorded as it fell instead.

>>> from weiqi.store.database import Database
>>> from weiqi.tournament.settings import EventSettings, System
>>> from weiqi.services import live, tournament as t
>>> from weiqi.services.actor import Actor
>>> from weiqi.services.server_clock import ManualClock
>>> from datetime import datetime, timedelta, UTC
>>> db = Database("sqlite://"); db.upgrade()
>>> local = Actor.local()
>>> from weiqi.services.events import create_event
>>> ev = create_event(db, local, "Online", EventSettings(System.ROUND_ROBIN,
...                          board_size=9, play="online", time_control="10m")).id
>>> _ = t.import_players(db, local, ev, "name\\n李\\n王\\n")
>>> _ = t.pair_round(db, local, ev)
>>> clock = ManualClock(datetime(2026, 5, 1, 9, 0, tzinfo=UTC))
>>> _ = live.start_game(db, ev, 1, 1, clock)
>>> _ = clock.advance(timedelta(seconds=30)); beat(db, clock)  # alive, 30 s into Black's move
>>> _ = clock.advance(timedelta(minutes=10))  # … then down for ten minutes
>>> recover(db, clock)
[(1, 1, 1)]
>>> snap = live.snapshot(db, ev, 1, 1, clock=clock)
>>> snap.result is None, snap.clock.black.main
(True, 570.0)
>>> [(n["kind"], n["by"]) for n in snap.notices]
[('pause', 'system'), ('resume', 'system')]
"""

from __future__ import annotations

from sqlalchemy import select

from weiqi.clock.clock import Status
from weiqi.errors import WeiqiError
from weiqi.referee.events import ClockAction, ClockEvent
from weiqi.referee.state import Phase
from weiqi.services import live
from weiqi.services.games import (
    GAME_PLACE,
    BoardKey,
    _game_to_change,
    _load_record,
    _store,
    board_key,
)
from weiqi.services.live_notices import RESTART_REASON, SYSTEM
from weiqi.services.server_clock import SYSTEM_CLOCK, ServerClock
from weiqi.store.database import Database
from weiqi.store.games import GameRecordRow
from weiqi.store.models import SiteSetting
from weiqi.store.teams import TeamMatchRow
from weiqi.store.tournament import GameRow, RoundRow

#: How often the running server notes that it is alive: at most this much of a downtime counts
#: as thinking time of the player to move.
HEARTBEAT_SECONDS = 1.0
#: The ``site_settings`` key of the last beat (seconds since the epoch, on the server clock).
HEARTBEAT_KEY = "live_heartbeat"

GameKey = tuple[int, int, BoardKey]


def beat(db: Database, clock: ServerClock = SYSTEM_CLOCK) -> None:
    """Note that the server is alive now."""
    now = repr(clock.now().timestamp())
    with db.transaction() as session:
        row = session.get(SiteSetting, HEARTBEAT_KEY)
        if row is None:
            session.add(SiteSetting(key=HEARTBEAT_KEY, value=now))
        else:
            row.value = now


def last_beat(db: Database) -> float | None:
    """When a server last noted that it was alive (``None``: never)."""
    with db.transaction() as session:
        row = session.get(SiteSetting, HEARTBEAT_KEY)
        return float(row.value) if row is not None else None


def _running(db: Database) -> list[GameKey]:
    """The boards whose record may have a running clock: a record and no result yet
    (individual and team boards)."""
    with db.transaction() as session:
        rows = session.execute(
            select(*GAME_PLACE)
            .join(RoundRow, RoundRow.id == GameRow.round_id)
            .outerjoin(TeamMatchRow, TeamMatchRow.id == GameRow.match_id)
            .join(GameRecordRow, GameRecordRow.game_id == GameRow.id)
            .where(GameRow.result.is_(None))
            .order_by(
                RoundRow.event_id,
                RoundRow.number,
                TeamMatchRow.number,
                GameRow.board,
                GameRow.sitting,
            )
        ).all()
    out: list[GameKey] = [(int(e), int(n), board_key(int(b), m, int(s))) for e, n, m, b, s in rows]
    return out


def recover(db: Database, clock: ServerClock = SYSTEM_CLOCK) -> list[GameKey]:
    """Count the time since the last beat as a pause in every game whose clock was running;
    return the games whose clock runs now (the server watches them again: a flag falls at its
    deadline whether or not anybody reconnects). Idempotent: a second call finds the clocks
    resumed after the last beat and adds nothing."""
    down_at = last_beat(db)
    running: list[GameKey] = []
    for key in _running(db):
        try:
            if _recover_game(db, key, down_at, clock):
                running.append(key)
        except WeiqiError:  # a record refused (tampered), a board gone: left as it is
            continue
    beat(db, clock)
    return running


def _recover_game(db: Database, key: GameKey, down_at: float | None, clock: ServerClock) -> bool:
    event_id, number, board = key
    with db.transaction() as session:
        game = _game_to_change(session, event_id, number, board, None)
        row, record = _load_record(session, game)
        if record is None:
            return False
        state = record.state
        c = state.clock
        if c is None or c.status is not Status.RUNNING or state.phase is not Phase.PLAYING:
            return c is not None and c.status is Status.RUNNING
        last = record.entries[-1].at
        now = max(clock.now().timestamp(), last)
        since = min(max(down_at if down_at is not None else last, last), now)
        if now - since < HEARTBEAT_SECONDS:  # no downtime to speak of (or already recovered)
            return True
        before = len(record)
        if live._flag_if_due(record, since):  # the flag fell before the server went down
            _store(session, game, row, record)
            return False
        if record.state.clock is not None and record.state.clock.status is Status.RUNNING:
            record.append(ClockEvent(ClockAction.PAUSE, reason=RESTART_REASON), SYSTEM, since)
            record.append(ClockEvent(ClockAction.RESUME, reason=RESTART_REASON), SYSTEM, now)
        if len(record) > before:
            _store(session, game, row, record)
        c = record.state.clock
        return c is not None and c.status is Status.RUNNING
