"""Property tests: replay is exact, every cut of a log replays, tampering is caught."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from weiqi.clock.control import TimeControl
from weiqi.errors import InputError, WeiqiError
from weiqi.referee.actors import Actor
from weiqi.referee.events import (
    AcceptEnd,
    AgreeDead,
    ClockAction,
    ClockEvent,
    Confirm,
    Dispute,
    Event,
    InfractionRuled,
    MarkDead,
    Move,
    Pass,
    ProposeEnd,
    RefuseEnd,
    RequestRecount,
    Resign,
    RulingMade,
)
from weiqi.referee.infractions import Infraction, InfractionKind, Penalty
from weiqi.referee.record import GameRecord, replay
from weiqi.referee.rulings import Ruling, RulingKind
from weiqi.referee.state import GameState
from weiqi.rules.color import Color
from weiqi.rules.ruleset import PlayMode

from .scripts import CHIEF, REF, new_game

SIZE = 5
colors = st.sampled_from([Color.BLACK, Color.WHITE])
points = st.integers(0, SIZE * SIZE - 1)
#: Most events come from the player to move (resolved when the event is recorded).
TO_MOVE = Actor.referee("to-move")
players = st.integers(0, 9).flatmap(
    lambda k: st.just(TO_MOVE) if k < 9 else colors.map(Actor.player)
)

moves = st.tuples(points.map(Move), players)
others: st.SearchStrategy[tuple[Event, Actor]] = st.one_of(
    st.tuples(st.just(Pass()), players),
    st.tuples(st.sampled_from([ProposeEnd(), AcceptEnd(), RefuseEnd()]), players),
    st.tuples(st.just(Resign()), colors.map(Actor.player)),
    st.tuples(st.lists(points, max_size=3).map(lambda p: MarkDead(tuple(p))), players),
    st.tuples(
        st.tuples(st.lists(points, min_size=1, max_size=2), colors).map(
            lambda pc: Dispute(tuple(pc[0]), pc[1])
        ),
        players,
    ),
    st.tuples(st.sampled_from([AgreeDead(), RequestRecount(), Confirm()]), players),
    st.tuples(st.just(Confirm()), st.just(REF)),
    st.tuples(
        st.sampled_from(
            [
                InfractionKind.CLOCK_BEFORE_MOVE,
                InfractionKind.TAKE_BACK,
                InfractionKind.PHONE_RINGING,
                InfractionKind.SMOKING,
            ]
        ),
        colors,
    ).map(lambda kc: (InfractionRuled(Infraction(kc[0], kc[1])), REF)),
    st.tuples(
        st.just(
            InfractionRuled(
                Infraction(InfractionKind.DISTURBING, Color.WHITE, penalty=Penalty.WARNING)
            )
        ),
        st.just(REF),
    ),
    st.tuples(
        st.tuples(points, points).map(
            lambda ab: RulingMade(Ruling(RulingKind.STONE_STANDS, "moved", points=ab))
        ),
        st.just(CHIEF),
    ),
    st.tuples(st.sampled_from(list(ClockAction)).map(ClockEvent), players | st.just(REF)),
)
#: Mostly moves, so that games get long enough to capture, fight kos and end.
events = st.integers(0, 99).flatmap(lambda k: moves if k < 70 else others)


#: Untimed (clock events as data), byo-yomi with a forfeited turn on request, and without.
TIME_CONTROLS = [
    None,
    TimeControl.byo_yomi(20, 2, 10, timeout_pass=True),
    TimeControl.byo_yomi(20, 2, 10),
]
time_controls = st.sampled_from(TIME_CONTROLS)


def record_of(
    script: list[tuple[Event, Actor]], strict: bool, tc: TimeControl | None = None
) -> tuple[GameRecord, list[GameState]]:
    """Record what the rules accept; a refused event must leave everything as it was."""
    mode = PlayMode.STRICT if strict else PlayMode.ONLINE
    timed = tc is not None
    rec, clock = new_game(size=SIZE, mode=mode, time_control=tc)
    if timed:
        rec.append(ClockEvent(ClockAction.START), REF, clock())
    states = [rec.state]
    for event, actor in script:
        before, length = rec.state, len(rec)
        if actor == TO_MOVE:
            actor = Actor.player(before.to_move)
        if timed:
            clock.now += 6  # seven seconds an event: flags fall within a few moves
        try:
            rec.append(event, actor, clock())
        except WeiqiError:
            assert rec.state == before and len(rec) == length
            continue
        states.append(rec.state)
    return rec, states


scripts = st.lists(events, min_size=20, max_size=80)
fast = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@fast
@given(scripts, st.booleans(), time_controls)
def test_replaying_any_recorded_log_gives_the_identical_state(
    script: list[tuple[Event, Actor]], strict: bool, tc: TimeControl | None
) -> None:
    rec, _ = record_of(script, strict, tc)
    assert replay(rec) == rec.state
    again = GameRecord.from_json(rec.to_json())
    assert again.state == rec.state and again.entries == rec.entries


@fast
@given(scripts, st.booleans(), time_controls)
def test_a_log_cut_after_any_event_replays_to_the_state_at_that_event(
    script: list[tuple[Event, Actor]], strict: bool, tc: TimeControl | None
) -> None:
    rec, states = record_of(script, strict, tc)
    first = len(rec) - len(states) + 1  # events recorded before the script
    for n in range(first, len(rec) + 1):
        cut = GameRecord.from_json(GameRecord.from_entries(list(rec.entries[:n])).to_json())
        assert cut.state == states[n - first]
        s = cut.state
        assert sum(1 for v in s.stones if v) <= SIZE * SIZE
        assert all(0 <= w <= 2 for w in s.warnings)
        assert (s.result is None) == (s.phase.value in ("playing", "counting"))


tamperings = st.sampled_from(["at", "actor", "move_number", "event", "swap", "drop"])


@fast
@given(scripts, tamperings, st.data())
def test_a_tampered_or_reordered_log_is_rejected_naming_the_event(
    script: list[tuple[Event, Actor]], how: str, data: st.DataObject
) -> None:
    rec, _ = record_of(script, strict=True, tc=TIME_CONTROLS[1])
    doc = json.loads(rec.to_json())
    entries = doc["entries"]
    if len(entries) < 3:
        return
    i = data.draw(st.integers(1, len(entries) - 2))
    entry = entries[i]
    if how == "at":
        entry["at"] += 0.25
    elif how == "actor":
        entry["actor"] = {"role": "chief_referee", "color": None, "id": "mallory"}
    elif how == "move_number":
        entry["move_number"] += 1
    elif how == "event":
        entry["event"] = {"kind": "resign"}
    elif how == "swap":
        entries[i], entries[i + 1] = entries[i + 1], entries[i]
    else:
        del entries[i]
    with pytest.raises(InputError, match=rf"^event {entries[i]['seq']} \("):
        GameRecord.from_data(doc)
