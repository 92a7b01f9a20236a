"""Network lag in the game record (issue #11): the start says the game's allowance, a press
carries the think time the player's client measured, and the record's replay gives the same
clock; records written before either existed keep their hashes."""

from __future__ import annotations

import json

import pytest

from weiqi.clock import LagPolicy, Status, TimeControl
from weiqi.errors import Conflict, InvalidSetting
from weiqi.referee.actors import GameActor
from weiqi.referee.events import ClockAction, ClockEvent, Move
from weiqi.referee.nigiri import ColorAssignment
from weiqi.referee.record import GameRecord, replay
from weiqi.rules.ruleset import Ruleset

from .scripts import BLACK, REF, WHITE, B, W, pt

#: What the code wrote before lag and think existed (the same bytes as then): a 1-minute
#: game, Black's E5 after 10 s and its press. Its hashes must still verify.
OLD_RECORD = (
    '{"entries":[{"actor":{"color":null,"id":"ref","role":"referee"},"at":0.0,"event":{'
    '"colors":{"black":"Li","method":"organiser","nigiri":null,"white":"Wang"},"kind":"start",'
    '"late":null,"ruleset":{"board_size":9,"cycle":"ban","handicap":0,"handicap_placement":'
    '"fixed","komi":"15/4","play_mode":"online"},"time_control":{"carry_over":false,'
    '"increment":0.0,"main_time":60.0,"moves":0,"period_time":0.0,"periods":0,"system":'
    '"absolute","timeout_pass":false}},"hash":'
    '"82ca3189d0147e06da75c70f3d7ef4bb95b71e637f9d336dae6300c6014fec79","move_number":0,'
    '"prev":"0000000000000000000000000000000000000000000000000000000000000000","seq":0},'
    '{"actor":{"color":null,"id":"ref","role":"referee"},"at":0.0,"event":{"absent":[],'
    '"action":"start","color":null,"kind":"clock","point":null,"scheduled":null,"seconds":null},'
    '"hash":"b7086f836c12469575c4b8101934a658450fe617de9a78a1f35c228529163290","move_number":0,'
    '"prev":"82ca3189d0147e06da75c70f3d7ef4bb95b71e637f9d336dae6300c6014fec79","seq":1},'
    '{"actor":{"color":"B","id":null,"role":"player"},"at":10.0,"event":{"kind":"move",'
    '"point":40},"hash":"cc29b7a661f294306999ff9b255c54cfd8114d25f9c3091dd576a95c06c40b31",'
    '"move_number":1,"prev":"b7086f836c12469575c4b8101934a658450fe617de9a78a1f35c228529163290",'
    '"seq":2},{"actor":{"color":"B","id":null,"role":"player"},"at":10.0,"event":{"absent":[],'
    '"action":"press","color":null,"kind":"clock","point":null,"scheduled":null,'
    '"seconds":null},"hash":"a9452c68fbf3cd9ca443cf7f4f6a7018bee052098fb5a21aec56e5a791f7f088",'
    '"move_number":1,"prev":"cc29b7a661f294306999ff9b255c54cfd8114d25f9c3091dd576a95c06c40b31",'
    '"seq":3}],"format":"weiqi-game-record","version":1}'
)


def _game(lag: LagPolicy | None, minutes: float = 10) -> GameRecord:
    record = GameRecord.start(
        Ruleset.chinese(5),
        ColorAssignment.by_organiser("Li", "Wang"),
        referee=REF,
        at=0.0,
        time_control=TimeControl.absolute(60 * minutes),
        lag=lag,
    )
    record.append(ClockEvent(ClockAction.START), REF, 0.0)
    return record


def _move(record: GameRecord, vertex: str, at: float, think: float | None) -> None:
    player = GameActor.player(record.state.to_move)
    record.append(Move(pt(vertex)), player, at)
    record.append(ClockEvent(ClockAction.PRESS, think=think), player, at)


def test_a_record_written_before_lag_keeps_its_hashes() -> None:
    old = GameRecord.from_json(OLD_RECORD)  # every hash link checked against the content
    assert old.to_json() == OLD_RECORD
    assert old.state.clock is not None and old.state.clock.lag is None
    # the same game written today: not a byte more (no lag, no think written when not given)
    again = GameRecord.start(
        Ruleset.chinese(9),
        ColorAssignment.by_organiser("Li", "Wang"),
        referee=GameActor.referee("ref"),
        at=0.0,
        time_control=TimeControl.absolute(60),
    )
    again.append(ClockEvent(ClockAction.START), GameActor.referee("ref"), 0.0)
    again.play(B, "E5", 10.0)
    again.press_clock(B, 10.0)
    assert again.to_json() == OLD_RECORD


def test_the_press_is_charged_the_think_time_while_the_quota_lasts() -> None:
    """1 s of quota a move, at most 3: the network's share of the server's time is forgiven out
    of the quota, what is left is charged; without a think time nothing is forgiven."""
    record = _game(LagPolicy(gain=1, cap=3))
    _move(record, "A1", 10.5, think=10.0)  # 0.5 s of lag forgiven: 10 s charged
    clock = record.state.clock
    assert clock is not None and clock.remaining(10.5, B).main == 590
    _move(record, "E5", 20.5, think=None)  # White says nothing: the 10 s are charged
    clock = record.state.clock
    assert clock is not None and clock.remaining(20.5, W).main == 590
    _move(record, "A2", 35.5, think=5.0)  # claims 10 s of lag: 3 s forgiven (the cap)
    clock = record.state.clock
    assert clock is not None and clock.remaining(35.5, B).main == 590 - 12
    assert clock.quota[0] == 1000  # the quota spent, one move's gain back


def test_the_replay_of_a_record_with_think_times_gives_the_same_clock() -> None:
    record = _game(LagPolicy(gain=1, cap=3))
    _move(record, "A1", 10.5, think=10.0)
    _move(record, "E5", 30.25, think=19.0)
    _move(record, "A2", 45.0, think=2.5)
    text = record.to_json()
    entries = json.loads(text)["entries"]
    assert entries[0]["event"]["lag"] == {"gain": 1, "cap": 3, "initial": None}
    assert [e["event"].get("think") for e in entries if e["event"]["kind"] == "clock"] == [
        None,
        10.0,
        19.0,
        2.5,
    ]
    again = GameRecord.from_json(text)
    assert again.state.clock == record.state.clock == replay(record).clock
    assert again.to_json() == text
    plain = _game(None)  # the same presses without an allowance: every second is charged
    _move(plain, "A1", 10.5, think=10.0)
    assert plain.state.clock is not None and plain.state.clock.remaining(10.5, B).main == 589.5


def test_the_quota_delays_the_flag_of_a_game_with_an_allowance_only() -> None:
    """1-minute game: with a 3 s quota Black's press 1.5 s after the deadline still counts
    when its client says it was sent in time; without an allowance the flag has fallen."""
    lagged = _game(LagPolicy(gain=1, cap=3), minutes=1)
    _move(lagged, "A1", 61.5, think=59.9)
    assert lagged.state.clock is not None and lagged.state.clock.status is Status.RUNNING
    plain = _game(None, minutes=1)
    with pytest.raises(Conflict, match=r"game is over \(W\+T\)"):  # the flag fell first
        _move(plain, "A1", 61.5, think=59.9)


def test_only_a_press_states_a_think_time_of_seconds_at_least_zero() -> None:
    record = _game(LagPolicy())
    record.append(Move(pt("A1")), BLACK, 5.0)
    for bad in (-1.0, float("nan"), float("inf")):
        with pytest.raises(InvalidSetting, match="a think time is a number of seconds"):
            record.append(ClockEvent(ClockAction.PRESS, think=bad), BLACK, 5.0)
    with pytest.raises(InvalidSetting, match="only a press"):
        record.append(ClockEvent(ClockAction.PAUSE, think=1.0), REF, 5.0)
    record.append(ClockEvent(ClockAction.PRESS, think=0), BLACK, 5.0)
    assert record.state.to_move is WHITE.color
