"""The events of a game record. Each is a small frozen value; who did it, when and at which
move are kept beside it in the record's :class:`~weiqi.referee.record.Entry`.

>>> Move(60).kind, Pass().kind, ProposeEnd().kind
('move', 'pass', 'propose_end')
>>> EVENT_TYPES["dispute"] is Dispute
True
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from fractions import Fraction
from typing import ClassVar

from weiqi.clock.control import TimeControl
from weiqi.clock.lag import LagPolicy
from weiqi.clock.late import LatePolicy
from weiqi.errors import InputError, WeiqiError
from weiqi.messages import Msg
from weiqi.referee.codec import OMIT_DEFAULT, from_data, to_data
from weiqi.referee.infractions import Infraction
from weiqi.referee.nigiri import ColorAssignment
from weiqi.referee.rulings import Ruling
from weiqi.rules.color import Color
from weiqi.rules.result import Result
from weiqi.rules.ruleset import Ruleset


@dataclass(frozen=True)
class RecordEvent:
    """Base of every event; ``kind`` names it in JSON."""

    kind: ClassVar[str] = ""


@dataclass(frozen=True)
class Start(RecordEvent):
    """The game begins: its rules, the colours as assigned (R-COLOR-1) and the time control
    (``None``: untimed, clock events are kept as data only). ``lag``: the allowance for network
    lag of a game played online (:class:`~weiqi.clock.lag.LagPolicy`, a per-move quota; the
    written rules, over the board, have none).

    >>> colors = ColorAssignment.by_organiser("Li", "Wang")
    >>> "lag" in event_to_data(Start(Ruleset.chinese(9), colors))  # stored records: same hash
    False
    >>> data = event_to_data(Start(Ruleset.chinese(9), colors, lag=LagPolicy(gain=1, cap=3)))
    >>> data["lag"]
    {'gain': 1, 'cap': 3, 'initial': None}
    >>> event_from_data(data).lag
    LagPolicy(gain=1, cap=3, initial=None)
    """

    kind: ClassVar[str] = "start"
    ruleset: Ruleset
    colors: ColorAssignment
    time_control: TimeControl | None = None
    late: LatePolicy | None = None  # late arrival at the start (R-TIME-6)
    # added after records were stored: written only when given (their hashes stay as they were)
    lag: LagPolicy | None = field(default=None, metadata={OMIT_DEFAULT: True})


@dataclass(frozen=True)
class PlaceHandicap(RecordEvent):
    """Black places the handicap stones where it chooses (free placement, R-HCP-2)."""

    kind: ClassVar[str] = "place_handicap"
    points: tuple[int, ...]


@dataclass(frozen=True)
class Move(RecordEvent):
    """A stone placed by the acting player (R-PLAY-1). ``point`` as in
    :mod:`weiqi.rules.vertex`."""

    kind: ClassVar[str] = "move"
    point: int


@dataclass(frozen=True)
class Pass(RecordEvent):
    """虚着 (R-PLAY-2)."""

    kind: ClassVar[str] = "pass"


@dataclass(frozen=True)
class Resign(RecordEvent):
    """中盘认输 (R-END-1(b))."""

    kind: ClassVar[str] = "resign"


@dataclass(frozen=True)
class ProposeEnd(RecordEvent):
    """The player to move says the game is over and passes (R-END-2)."""

    kind: ClassVar[str] = "propose_end"


@dataclass(frozen=True)
class AcceptEnd(RecordEvent):
    """The opponent agrees that play is complete (R-END-1(a), R-END-2)."""

    kind: ClassVar[str] = "accept_end"


@dataclass(frozen=True)
class RefuseEnd(RecordEvent):
    """The opponent does not agree and plays on; the proposer regains the right to move
    (R-END-2). Playing a move after a proposal refuses it too."""

    kind: ClassVar[str] = "refuse_end"


@dataclass(frozen=True)
class MarkDead(RecordEvent):
    """A player proposes which stones are dead (R-END-3); replaces any earlier marking."""

    kind: ClassVar[str] = "mark_dead"
    stones: tuple[int, ...]


@dataclass(frozen=True)
class AgreeDead(RecordEvent):
    """The other player agrees with the marking: the game is counted (R-END-3, R-SCORE-1)."""

    kind: ClassVar[str] = "agree_dead"


@dataclass(frozen=True)
class Dispute(RecordEvent):
    """The players disagree about life and death: ``claimant`` says the opponent's ``stones``
    are dead, the opponent says they live. Play resumes and the claimant moves first (R-END-3).
    Recorded by either player or a referee."""

    kind: ClassVar[str] = "dispute"
    stones: tuple[int, ...]
    claimant: Color


@dataclass(frozen=True)
class RequestRecount(RecordEvent):
    """A player asks for a recount before the result is confirmed (R-REF-7)."""

    kind: ClassVar[str] = "request_recount"


@dataclass(frozen=True)
class LeaveSeat(RecordEvent):
    """A referee lets ``player``, in byo-yomi, leave the seat during the opponent's thinking
    time (Art. 22.7: "须征得裁判员许可，每局仅限一次"). The clock is not touched: away or not,
    the count runs as usual ("其余情形下棋手离席，一律照常读秒")."""

    kind: ClassVar[str] = "leave_seat"
    player: Color


@dataclass(frozen=True)
class Confirm(RecordEvent):
    """The acting player or referee confirms the result; once both players and a referee have,
    it is final (R-END-4, R-REF-7)."""

    kind: ClassVar[str] = "confirm"


@dataclass(frozen=True)
class ResultEntered(RecordEvent):
    """A referee enters the result of a game played on a physical board, from its result sheet:
    either the ``result`` itself (resignation, time, a margin …) or ``black_count``, Black's
    count in stones (R-SCORE-5), from which the result follows with komi, handicap
    compensation and each side's warnings (R-SCORE-3, R-HCP-2, R-PEN-1). Before confirmation a
    later entry replaces an earlier one."""

    kind: ClassVar[str] = "result_entered"
    result: Result | None = None
    black_count: Fraction | None = None


@dataclass(frozen=True)
class SheetConfirmed(RecordEvent):
    """A referee confirms a result that both players signed on the result sheet: it stands for
    the confirmation of both players and the referee (R-END-4, R-REF-7)."""

    kind: ClassVar[str] = "sheet_confirmed"


class ClockAction(enum.Enum):
    """What happened to the game clock (the clock model itself is :mod:`weiqi.clock`)."""

    START = "start"  # a referee starts the clock of the player to move
    ARRIVE = "arrive"  # a player absent at the start takes their seat (R-TIME-6)
    PRESS = "press"  # the acting player ends their turn on the clock
    PAUSE = "pause"  # 暂停 (R-TIME-5)
    RESUME = "resume"
    SEAL = "seal"  # 封棋: the acting player's sealed move (R-TIME-5)
    STOP = "stop"  # both clocks stopped for good
    CHECK = "check"  # a referee looks at the clock: a flag that has fallen is recorded
    FORFEIT_TURN = "forfeit_turn"  # 弃权一次 on time, at the flagged player's request (R-TIME-2)
    ADJUST = "adjust"  # the chief referee corrects a reading (R-TIME-8)


@dataclass(frozen=True)
class ClockEvent(RecordEvent):
    """A clock event. ``point`` is the sealed move of ``SEAL`` (``None`` = a sealed pass);
    ``color`` and ``seconds`` say whose reading ``ADJUST`` changes and by how much; ``color``
    is also who arrives (``ARRIVE``); ``absent`` are the players not seated at ``START`` and
    ``scheduled`` the start time their lateness counts from (default: the event's time);
    ``reason`` says why a referee (or the system) paused, resumed or adjusted the clock — e.g.
    ``"server restart"`` for the time a live game's server was down (R-TIME-5); ``think`` is a
    ``PRESS``'s think time in seconds as the player's client measured it (online play: the
    game's :class:`~weiqi.clock.lag.LagPolicy` forgives the network's share of the time the
    server measured, out of its quota; only ever the client's claim).

    >>> event_to_data(ClockEvent(ClockAction.PRESS))["kind"], "reason" in event_to_data(
    ...     ClockEvent(ClockAction.PAUSE))
    ('clock', False)
    >>> event_to_data(ClockEvent(ClockAction.PAUSE, reason="server restart"))["reason"]
    'server restart'
    """

    kind: ClassVar[str] = "clock"
    action: ClockAction
    point: int | None = None
    color: Color | None = None
    seconds: float | None = None
    absent: tuple[Color, ...] = ()
    scheduled: float | None = None
    # added after records were stored: written only when given (their hashes stay as they were)
    reason: str = field(default="", metadata={OMIT_DEFAULT: True})
    think: float | None = field(default=None, metadata={OMIT_DEFAULT: True})


@dataclass(frozen=True)
class InfractionRuled(RecordEvent):
    """A referee rules an infraction; the penalty follows from the catalogue (R-REF, R-PEN-1)."""

    kind: ClassVar[str] = "infraction"
    infraction: Infraction


@dataclass(frozen=True)
class RulingMade(RecordEvent):
    """A referee's decision: moved stones, or an end by decision (R-REF-3, R-END-1(d))."""

    kind: ClassVar[str] = "ruling"
    ruling: Ruling


@dataclass(frozen=True)
class WrongColors(RecordEvent):
    """The players took the wrong colours (R-COLOR-2): corrected up to move 10, else noted."""

    kind: ClassVar[str] = "wrong_colors"
    note: str = ""


@dataclass(frozen=True)
class ResultCorrected(RecordEvent):
    """The chief referee changes a confirmed result, e.g. cheating found later (R-REF-6)."""

    kind: ClassVar[str] = "result_corrected"
    result: Result
    reason: str


@dataclass(frozen=True)
class PlayedAgain(RecordEvent):
    """The game was played again and ``result`` is that game's result, from its signed result
    sheet: a replay (重赛) the referee ruled (R-REF-3, R-END-1(d)), or — ``playoff`` — the playoff
    (加赛) of a game that ended without a winner where the event needs one (a knockout,
    R-PLAYOFF). The confirmed ruling stays in the record; the new result follows it in the
    history and is final like any confirmed sheet (R-REF-7)."""

    kind: ClassVar[str] = "played_again"
    result: Result
    playoff: bool = False


EVENT_TYPES: dict[str, type[RecordEvent]] = {
    cls.kind: cls
    for cls in (
        Start,
        PlaceHandicap,
        Move,
        Pass,
        Resign,
        ProposeEnd,
        AcceptEnd,
        RefuseEnd,
        MarkDead,
        AgreeDead,
        Dispute,
        RequestRecount,
        LeaveSeat,
        Confirm,
        ClockEvent,
        InfractionRuled,
        RulingMade,
        WrongColors,
        ResultCorrected,
        ResultEntered,
        SheetConfirmed,
        PlayedAgain,
    )
}


def event_to_data(event: RecordEvent) -> dict[str, object]:
    """The JSON form of an event: ``{"kind": …, field: value, …}``."""
    data: dict[str, object] = {"kind": event.kind}
    data.update(to_data(event))
    return data


def event_from_data(data: object, where: str = "event") -> RecordEvent:
    """Read an event from its JSON form; :class:`~weiqi.errors.InputError` names ``where``.

    >>> event_from_data({"kind": "move", "point": 40})
    Move(point=40)
    >>> event_from_data({"kind": "teleport"}, "event 3")
    Traceback (most recent call last):
    ...
    weiqi.errors.InputError: event 3: unknown event kind 'teleport'
    """
    kind = data.get("kind") if isinstance(data, dict) else None
    if not isinstance(data, dict) or kind not in EVENT_TYPES:
        raise InputError(where, Msg("unknown event kind %(kind)s", kind=repr(kind)))
    fields = {k: v for k, v in data.items() if k != "kind"}
    try:
        event: RecordEvent = from_data(EVENT_TYPES[kind], fields, f"{where} ({kind})")
    except InputError:
        raise
    except WeiqiError as err:
        raise InputError(Msg("%(where)s (%(kind)s)", where=where, kind=kind), err.msg) from None
    return event
