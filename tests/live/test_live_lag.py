"""Network lag in live play (issue #11; lichess-style): a move may carry the think time the
player's client measured; an online event forgives the network's share of the time the server
measured (its own clock, never the request's) out of a per-move quota — 1 s a move, at most
3 s, by default — and the flag falls only once the quota is spent too. An event without the
allowance charges every second, as the written rules do over the board. Real database (SQLite
and PostgreSQL), the server's clock injected; no server."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

from tests.live.conftest import seated_event
from tests.live.test_team_live import _linked, team_event
from weiqi.clock import LagPolicy
from weiqi.i18n import render
from weiqi.services import games, live
from weiqi.services.actor import Actor
from weiqi.services.server_clock import ManualClock
from weiqi.store.database import Database
from weiqi.tournament.settings import EventSettings, System

T0 = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)


def _started(
    db: Database, time_control: str, **settings: Any
) -> tuple[int, dict[str, Actor], ManualClock]:
    clock = ManualClock(T0)
    ev, seats = seated_event(db, time_control, "网络快棋", play="online", **settings)
    live.start_game(db, ev, 1, 1, clock)
    return ev, seats, clock


def _play(
    db: Database,
    ev: int,
    seat: Actor,
    clock: ManualClock,
    at: float,
    vertex: str,
    think: object = None,
) -> live.ActionOutcome:
    """``seat`` plays ``vertex`` reaching the server ``at`` seconds after T0, its client saying
    it thought ``think`` seconds (``None``: it says nothing)."""
    clock.set(T0 + timedelta(seconds=at))
    data: dict[str, object] = {"vertex": vertex}
    if think is not None:
        data["think"] = think
    return live.act(db, seat, ev, 1, 1, "move", None, data, clock)


def _left(outcome: live.ActionOutcome, color: str) -> float:
    view = outcome.snapshot.clock
    assert view is not None
    return (view.black if color == "B" else view.white).main


def _record(db: Database, ev: int) -> list[dict[str, Any]]:
    text = games.record_json(db, ev, 1, 1)
    assert text is not None
    return [e["event"] for e in json.loads(text)["entries"]]


def test_a_move_is_charged_its_think_time_while_the_quota_lasts(database: Database) -> None:
    """10 minutes each. Black's move reaches the server 10.8 s after its turn began, its client
    says 10 s: 0.8 s was the network's and is forgiven. White's reaches it after 10 s, its
    client claims 2 s: of the 8 s claimed only the full quota, 3 s, is forgiven. Black then
    spends its whole quota (3 s of 5 claimed) and has 1 s back by the next move."""
    ev, seats, clock = _started(database, "10m")
    black = _play(database, ev, seats["B"], clock, 10.8, "E5", think=10)
    assert black.refused is None and _left(black, "B") == 590
    white = _play(database, ev, seats["W"], clock, 20.8, "C3", think=2)
    assert _left(white, "W") == 600 - 7
    black = _play(database, ev, seats["B"], clock, 30.8, "G7", think=5)
    assert _left(black, "B") == 590 - 7  # 3 of the 5 s claimed forgiven: the quota's all
    white = _play(database, ev, seats["W"], clock, 31.8, "C7", think=1)
    black = _play(database, ev, seats["B"], clock, 41.8, "G3", think=5)
    assert _left(black, "B") == 590 - 7 - 9  # 1 s back since: 1 of the 5 s forgiven
    events = _record(database, ev)
    assert events[0]["lag"] == {"gain": 1.0, "cap": 3.0, "initial": None}
    thinks = [e.get("think") for e in events if e.get("action") == "press"]
    assert thinks == [10.0, 2.0, 5.0, 1.0, 5.0]


def test_an_event_without_the_allowance_charges_every_second(database: Database) -> None:
    """An online event whose organisers set the allowance to 0: the think time is not even
    recorded, and the server's measure is charged, as over the board (where the written rules
    have no lag and no game of the event has an allowance)."""
    ev, seats, clock = _started(database, "10m", lag_gain=0)
    black = _play(database, ev, seats["B"], clock, 10.8, "E5", think=10)
    assert black.refused is None and _left(black, "B") == 589.2
    events = _record(database, ev)
    assert "lag" not in events[0]
    assert all("think" not in e for e in events)
    assert EventSettings(System.ROUND_ROBIN).lag is None  # over the board
    assert EventSettings(System.ROUND_ROBIN, play="online", lag_cap=2).lag == LagPolicy(1, 2)  # type: ignore[arg-type]


def test_a_think_time_that_is_not_seconds_is_ignored_and_the_move_stands(
    database: Database,
) -> None:
    ev, seats, clock = _started(database, "10m")
    for color, at, vertex, bad in (("B", 5, "E5", -3), ("W", 10, "C3", "4"), ("B", 15, "G7", True)):
        moved = _play(database, ev, seats[color], clock, at, vertex, bad)
        assert moved.refused is None and vertex in moved.snapshot.stones
    assert _left(moved, "B") == 600 - 5 - 5  # nothing forgiven
    assert all("think" not in e for e in _record(database, ev))


def test_the_flag_falls_when_the_quota_is_spent_too(database: Database) -> None:
    """30 s: the server looks at the clock when the quota is spent too, 33 s after the start,
    and records the flag then with nobody sending anything."""
    ev, _seats, clock = _started(database, "30s")
    assert live.next_wakeup(database, ev, 1, 1, clock) == (T0 + timedelta(seconds=33)).timestamp()
    clock.set(T0 + timedelta(seconds=32.9))
    assert not live.wake(database, ev, 1, 1, clock).changed
    clock.set(T0 + timedelta(seconds=33))
    woke = live.wake(database, ev, 1, 1, clock)
    assert woke.changed and woke.snapshot.result == "W+T"


def test_a_move_sent_in_time_counts_after_the_deadline_within_the_quota(
    database: Database,
) -> None:
    """30 s: Black's move reaches the server after 31.5 s, its client says it was sent after
    29.5 s: the 2 s of lag are forgiven and the move counts, 0.5 s left."""
    ev, seats, clock = _started(database, "30s")
    moved = _play(database, ev, seats["B"], clock, 31.5, "E5", think=29.5)
    assert moved.refused is None and moved.snapshot.result is None
    assert moved.snapshot.stones == {"E5": "B"} and _left(moved, "B") == 0.5


def test_a_move_too_late_even_with_the_lag_forgiven_does_not_stand(database: Database) -> None:
    """30 s: a move reaching the server after 31 s whose client says nothing, or says it was
    sent after 30.5 s, is too late: the flag is recorded with its press, not the stone
    (R-TIME-2). (A client claiming more lag gains the quota at most: 3 s.)"""
    for think in (None, 30.5):
        ev, seats, clock = _started(database, "30s")
        late = _play(database, ev, seats["B"], clock, 31, "E5", think=think)
        assert late.refused is not None and late.snapshot.result == "W+T"
        assert render(late.refused, "zh_CN").startswith("超时")
        assert late.snapshot.stones == {}
        kinds = [(e["kind"], e.get("action")) for e in _record(database, ev)]
        assert kinds[-1] == ("clock", "press") and ("move", None) not in kinds


def test_a_team_board_has_its_events_allowance(database: Database) -> None:
    """A team event's online boards start with the event's allowance (here 0.5 s a move, at
    most 2 s) as an individual event's games do."""
    ev = team_event(database, time_control="10m", lag_gain=0.5, lag_cap=2)
    players = [_linked(database, ev, name) for name in ("龙一", "虎一")]
    (mine,) = live.my_games(database, players[0])
    key = mine.key
    seats = {live.seat(database, p, ev, 1, key): p for p in players}
    clock = ManualClock(T0)
    live.start_game(database, ev, 1, key, clock)
    clock.set(T0 + timedelta(seconds=12))
    moved = live.act(
        database, seats["B"], ev, 1, key, "move", None, {"vertex": "E5", "think": 9}, clock
    )
    assert moved.refused is None and _left(moved, "B") == 600 - 10  # 2 of the 3 s forgiven
    text = games.record_json(database, ev, 1, key)
    assert text is not None
    assert json.loads(text)["entries"][0]["event"]["lag"] == {
        "gain": 0.5,
        "cap": 2.0,
        "initial": None,
    }
