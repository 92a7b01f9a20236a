"""Property tests: replay is exact, every cut of a log replays, tampering is caught."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from weiqi.clock.control import TimeControl
from weiqi.errors import InputError, WeiqiError
from weiqi.referee.actors import GameActor
from weiqi.referee.events import (
    AcceptEnd,
    AgreeDead,
    ClockAction,
    ClockEvent,
    Confirm,
    Dispute,
    InfractionRuled,
    MarkDead,
    Move,
    Pass,
    ProposeEnd,
    RecordEvent,
    RefuseEnd,
    RequestRecount,
    Resign,
    ResultCorrected,
    RulingMade,
)
from weiqi.referee.infractions import Infraction, InfractionKind, Penalty
from weiqi.referee.record import GameRecord, replay
from weiqi.referee.rulings import Ruling, RulingKind
from weiqi.referee.state import GameState, Phase
from weiqi.rules.color import Color
from weiqi.rules.result import Reason, Result
from weiqi.rules.ruleset import IllegalMoves

from .scripts import CHIEF, REF, new_game

SIZE = 5
colors = st.sampled_from([Color.BLACK, Color.WHITE])
points = st.integers(0, SIZE * SIZE - 1)
#: Most events come from the player to move (resolved when the event is recorded).
TO_MOVE = GameActor.referee("to-move")
players = st.integers(0, 9).flatmap(
    lambda k: st.just(TO_MOVE) if k < 9 else colors.map(GameActor.player)
)

moves = st.tuples(points.map(Move), players)
others: st.SearchStrategy[tuple[RecordEvent, GameActor]] = st.one_of(
    st.tuples(st.just(Pass()), players),
    st.tuples(st.sampled_from([ProposeEnd(), AcceptEnd(), RefuseEnd()]), players),
    st.tuples(st.just(Resign()), colors.map(GameActor.player)),
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
    st.tuples(
        st.just(ResultCorrected(Result.draw(), "found later")), st.sampled_from([CHIEF, REF])
    ),
    st.tuples(
        colors.map(
            lambda c: InfractionRuled(Infraction(InfractionKind.CHEATING, c, penalty=Penalty.LOSS))
        ),
        st.sampled_from([CHIEF, REF]),
    ),
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
    script: list[tuple[RecordEvent, GameActor]], strict: bool, tc: TimeControl | None = None
) -> tuple[GameRecord, list[GameState]]:
    """Record what the rules accept; a refused event must leave everything as it was."""
    mode = IllegalMoves.STRICT if strict else IllegalMoves.ONLINE
    timed = tc is not None
    rec, clock = new_game(size=SIZE, mode=mode, time_control=tc)
    if timed:
        rec.append(ClockEvent(ClockAction.START), REF, clock())
    states = [rec.state]
    for event, actor in script:
        before, length = rec.state, len(rec)
        if actor == TO_MOVE:
            actor = GameActor.player(before.to_move)
        if timed:
            clock.now += 6  # seven seconds an event: flags fall within a few moves
        try:
            rec.append(event, actor, clock())
        except WeiqiError:
            assert rec.state == before and len(rec) == length
            continue
        states.append(rec.state)
    return rec, states


random_scripts = st.lists(events, min_size=20, max_size=80)

#: Games driven to their end: moves, two passes, then the ending protocol and afterwards.
to_move_moves = st.lists(st.tuples(points.map(Move), st.just(TO_MOVE)), max_size=30)
two_passes = st.just([(Pass(), TO_MOVE), (Pass(), TO_MOVE)])
agreed = st.tuples(st.lists(points, max_size=2), colors).map(
    lambda pc: [
        (MarkDead(tuple(pc[0])), GameActor.player(pc[1])),
        (AgreeDead(), GameActor.player(pc[1].opponent)),
    ]
)
single: st.SearchStrategy[tuple[RecordEvent, GameActor]] = st.one_of(
    st.tuples(st.just(Confirm()), colors.map(GameActor.player) | st.just(REF)),
    st.tuples(st.just(RequestRecount()), colors.map(GameActor.player)),
    others,
)
confirmed = st.permutations(
    [GameActor.player(Color.BLACK), GameActor.player(Color.WHITE), REF]
).map(lambda actors: [(Confirm(), a) for a in actors])
ending_chunks = st.one_of(agreed, confirmed, single.map(lambda e: [e]), single.map(lambda e: [e]))
ending_scripts = st.tuples(
    to_move_moves, two_passes, st.lists(ending_chunks, min_size=3, max_size=12)
).map(lambda parts: [*parts[0], *parts[1], *(e for chunk in parts[2] for e in chunk)])
scripts = st.one_of(random_scripts, ending_scripts)
fast = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@fast
@given(scripts, st.booleans(), time_controls)
def test_replaying_any_recorded_log_gives_the_identical_state(
    script: list[tuple[RecordEvent, GameActor]], strict: bool, tc: TimeControl | None
) -> None:
    rec, _ = record_of(script, strict, tc)
    assert replay(rec) == rec.state
    again = GameRecord.from_json(rec.to_json())
    assert again.state == rec.state and again.entries == rec.entries


@fast
@given(scripts, st.booleans(), time_controls)
def test_a_log_cut_after_any_event_replays_to_the_state_at_that_event(
    script: list[tuple[RecordEvent, GameActor]], strict: bool, tc: TimeControl | None
) -> None:
    rec, states = record_of(script, strict, tc)
    first = len(rec) - len(states) + 1  # events recorded before the script
    for n in range(first, len(rec) + 1):
        cut = GameRecord.from_json(GameRecord.from_entries(list(rec.entries[:n])).to_json())
        assert cut.state == states[n - first]
        s = cut.state
        assert all(0 <= w <= 2 for w in s.warnings)
        assert (s.result is None) == (s.phase in (Phase.PLAYING, Phase.COUNTING))
        if n > first:
            _check_step(states[n - first - 1], s)


def _check_step(before: GameState, after: GameState) -> None:
    """Invariants of one recorded event."""
    # R-PEN-1: the second warning of a game still going on loses it at once.
    for color in (Color.BLACK, Color.WHITE):
        if before.result is None and after.warnings_of(color) == 2 > before.warnings_of(color):
            assert after.result == Result.win(color.opponent, Reason.RULING)
    # R-REF-1, R-REF-5: a void move never changes the stones.
    if len(after.void_moves) > len(before.void_moves):
        assert after.stones == before.stones
    # R-REF-7: a confirmed result changes only by the chief referee, and stays confirmed.
    if before.phase is Phase.CONFIRMED:
        assert after.phase is Phase.CONFIRMED
        if after.result != before.result:
            assert after.result_history[-1].actor == CHIEF
    # The log only grows: what the state listed before it still lists.
    for name in ("infractions", "void_moves", "forfeited_turns", "rulings", "clock_log"):
        assert getattr(after, name)[: len(getattr(before, name))] == getattr(before, name)


tamperings = st.sampled_from(["at", "actor", "move_number", "event", "swap", "drop"])


@fast
@given(scripts, tamperings, st.data())
def test_a_tampered_or_reordered_log_is_rejected_naming_the_event(
    script: list[tuple[RecordEvent, GameActor]], how: str, data: st.DataObject
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
        resign = {"kind": "resign"}
        entry["event"] = resign if entry["event"] != resign else {"kind": "pass"}
    elif how == "swap":
        entries[i], entries[i + 1] = entries[i + 1], entries[i]
    else:
        del entries[i]
    with pytest.raises(InputError, match=rf"^event {entries[i]['seq']} \("):
        GameRecord.from_data(doc)
