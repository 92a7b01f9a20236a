"""The infractions a referee rules on and the penalty each one carries (R-REF-1…6, R-TIME-7,
R-PEN-1).

The catalogue says, per kind, which penalties the rules allow; :func:`penalty_for` picks the one
that applies given the offender's earlier infractions in the game and the referee's choice where
the rules leave one ("warning or loss, by the circumstances").

>>> penalty_for(InfractionKind.PHONE_RINGING, earlier=0).value
'warning'
>>> penalty_for(InfractionKind.PHONE_RINGING, earlier=1).value
'loss'
>>> penalty_for(InfractionKind.DISTURBING, earlier=0)
Traceback (most recent call last):
...
weiqi.errors.InvalidSetting: penalty: disturbing the opponent: the referee chooses warning or loss
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from weiqi.errors import InvalidSetting
from weiqi.messages import Msg
from weiqi.referee.actors import GameActor
from weiqi.rules.color import Color


class Penalty(enum.Enum):
    """What an infraction costs the offender in this game."""

    NONE = "none"  # recorded only; sanctions for the event layer may follow
    WARNING = "warning"  # 警告: one stone at counting, the second loses the game (R-PEN-1)
    LOSS = "loss"  # 判负
    BOTH_LOSE = "both_lose"  # 双方均负 (cheating by agreement, R-REF-6)

    @property
    def zh(self) -> str:
        return {"none": "不处罚", "warning": "警告", "loss": "判负", "both_lose": "双方均负"}[
            self.value
        ]

    @property
    def en(self) -> str:
        return self.value  # the code, as the forms and the API name it


def _either(options: tuple[Penalty, ...]) -> Msg | Penalty:
    """The penalties a referee chooses among, said in the reader's language.

    >>> from weiqi.i18n import render
    >>> render(Msg("choose %(p)s", p=_either((Penalty.WARNING, Penalty.LOSS))), "en")
    'choose warning or loss'
    """
    said: Msg | Penalty = options[-1]
    for option in reversed(options[:-1]):
        said = Msg("%(first)s or %(rest)s", first=option, rest=said)
    return said


class InfractionKind(enum.Enum):
    """Every infraction of RULES.md §6 and R-TIME-7, with its Chinese name."""

    DOUBLE_MOVE = "double_move"  # 连下两着 R-REF-1
    TAKE_BACK = "take_back"  # 悔棋 R-REF-2
    CAPTURE_LIVE_STONES = "capture_live_stones"  # 误提有气之子 R-REF-4
    DEAD_STONES_LEFT = "dead_stones_left"  # 未提或漏提无气之子 R-REF-4
    KO_WITHOUT_THREAT = "ko_without_threat"  # 未找劫材而提劫 R-REF-5
    FORBIDDEN_POINT = "forbidden_point"  # 禁着点 R-REF-5
    CLOCK_BEFORE_MOVE = "clock_before_move"  # 着子之前按钟 R-TIME-7
    DISTURBING = "disturbing"  # 妨碍对方思考 R-REF-6
    DISCUSSING_GAME = "discussing_game"  # 议论该局 R-REF-6
    CONSULTING_MATERIAL = "consulting_material"  # 查阅资料 R-REF-6
    TALKING = "talking"  # 违反交谈规定 R-REF-6
    PHONE_RINGING = "phone_ringing"  # 手机发出响声 R-REF-6
    PHONE_LOOKING = "phone_looking"  # 注视手机屏面 R-REF-6
    SMOKING = "smoking"  # 违反禁烟规定 R-REF-6
    CHEATING = "cheating"  # 作弊 R-REF-6
    CEREMONY_ABSENCE = "ceremony_absence"  # 无故不参加开幕式、闭幕式 R-REF-6

    @property
    def zh(self) -> str:
        return _ZH[self]

    @property
    def en(self) -> str:
        return _EN[self]

    @property
    def requirement(self) -> str:
        """The requirement of RULES.md that sets the penalty."""
        return _REQUIREMENT[self]


_ZH = {
    InfractionKind.DOUBLE_MOVE: "连下两着",
    InfractionKind.TAKE_BACK: "悔棋",
    InfractionKind.CAPTURE_LIVE_STONES: "误提有气之子",
    InfractionKind.DEAD_STONES_LEFT: "漏提无气之子",
    InfractionKind.KO_WITHOUT_THREAT: "未找劫材提劫",
    InfractionKind.FORBIDDEN_POINT: "着子于禁着点",
    InfractionKind.CLOCK_BEFORE_MOVE: "着子前按钟",
    InfractionKind.DISTURBING: "妨碍对方思考",
    InfractionKind.DISCUSSING_GAME: "与他人议论该局",
    InfractionKind.CONSULTING_MATERIAL: "查阅有关资料",
    InfractionKind.TALKING: "违反交谈规定",
    InfractionKind.PHONE_RINGING: "手机发出响声",
    InfractionKind.PHONE_LOOKING: "注视手机屏面",
    InfractionKind.SMOKING: "违反禁烟规定",
    InfractionKind.CHEATING: "作弊",
    InfractionKind.CEREMONY_ABSENCE: "无故不参加仪式活动",
}

_EN = {
    InfractionKind.DOUBLE_MOVE: "double move",
    InfractionKind.TAKE_BACK: "taking back a move",
    InfractionKind.CAPTURE_LIVE_STONES: "removing live stones",
    InfractionKind.DEAD_STONES_LEFT: "leaving dead stones on the board",
    InfractionKind.KO_WITHOUT_THREAT: "ko capture without a threat",
    InfractionKind.FORBIDDEN_POINT: "move on a forbidden point",
    InfractionKind.CLOCK_BEFORE_MOVE: "pressing the clock before the move",
    InfractionKind.DISTURBING: "disturbing the opponent",
    InfractionKind.DISCUSSING_GAME: "discussing the game",
    InfractionKind.CONSULTING_MATERIAL: "consulting material",
    InfractionKind.TALKING: "talking against the rules",
    InfractionKind.PHONE_RINGING: "phone ringing",
    InfractionKind.PHONE_LOOKING: "looking at a phone",
    InfractionKind.SMOKING: "smoking against the event's rules",
    InfractionKind.CHEATING: "cheating",
    InfractionKind.CEREMONY_ABSENCE: "unexcused absence from a ceremony",
}

_REQUIREMENT = {
    InfractionKind.DOUBLE_MOVE: "R-REF-1",
    InfractionKind.TAKE_BACK: "R-REF-2",
    InfractionKind.CAPTURE_LIVE_STONES: "R-REF-4",
    InfractionKind.DEAD_STONES_LEFT: "R-REF-4",
    InfractionKind.KO_WITHOUT_THREAT: "R-REF-5",
    InfractionKind.FORBIDDEN_POINT: "R-REF-5",
    InfractionKind.CLOCK_BEFORE_MOVE: "R-TIME-7",
    InfractionKind.DISTURBING: "R-REF-6",
    InfractionKind.DISCUSSING_GAME: "R-REF-6",
    InfractionKind.CONSULTING_MATERIAL: "R-REF-6",
    InfractionKind.TALKING: "R-REF-6",
    InfractionKind.PHONE_RINGING: "R-REF-6",
    InfractionKind.PHONE_LOOKING: "R-REF-6",
    InfractionKind.SMOKING: "R-REF-6",
    InfractionKind.CHEATING: "R-REF-6",
    InfractionKind.CEREMONY_ABSENCE: "R-REF-6",
}

#: Kinds whose penalty is fixed by the rules, whatever happened before.
_FIXED: dict[InfractionKind, Penalty] = {
    InfractionKind.DOUBLE_MOVE: Penalty.WARNING,
    InfractionKind.TAKE_BACK: Penalty.WARNING,
    InfractionKind.CAPTURE_LIVE_STONES: Penalty.WARNING,
    InfractionKind.DEAD_STONES_LEFT: Penalty.WARNING,
    InfractionKind.KO_WITHOUT_THREAT: Penalty.WARNING,
    InfractionKind.FORBIDDEN_POINT: Penalty.NONE,  # void and a forfeited turn, no warning
    InfractionKind.CLOCK_BEFORE_MOVE: Penalty.WARNING,
    InfractionKind.PHONE_LOOKING: Penalty.LOSS,
    InfractionKind.CEREMONY_ABSENCE: Penalty.NONE,  # prize demotion / suspension only
}

#: Kinds where the first offence in a game is a warning and a repeat loses.
_WARNING_THEN_LOSS = {InfractionKind.PHONE_RINGING, InfractionKind.SMOKING}

#: Kinds where the referee chooses, "by the circumstances", among these penalties.
_CHOICE: dict[InfractionKind, tuple[Penalty, ...]] = {
    InfractionKind.DISTURBING: (Penalty.WARNING, Penalty.LOSS),
    InfractionKind.DISCUSSING_GAME: (Penalty.WARNING, Penalty.LOSS),
    InfractionKind.CONSULTING_MATERIAL: (Penalty.WARNING, Penalty.LOSS),
    InfractionKind.TALKING: (Penalty.WARNING, Penalty.LOSS),
    InfractionKind.CHEATING: (Penalty.LOSS, Penalty.BOTH_LOSE),
}

#: Kinds that may carry the event-level sanctions of R-REF-6.
SUSPENDABLE = {InfractionKind.CHEATING, InfractionKind.CEREMONY_ABSENCE}
DEMOTABLE = {InfractionKind.CEREMONY_ABSENCE}


def allowed_penalties(kind: InfractionKind) -> tuple[Penalty, ...]:
    """The penalties the rules allow for ``kind``.

    >>> [p.value for p in allowed_penalties(InfractionKind.CHEATING)]
    ['loss', 'both_lose']
    """
    if kind in _FIXED:
        return (_FIXED[kind],)
    if kind in _WARNING_THEN_LOSS:
        return (Penalty.WARNING, Penalty.LOSS)
    return _CHOICE[kind]


def penalty_for(kind: InfractionKind, earlier: int, chosen: Penalty | None = None) -> Penalty:
    """The penalty for ``kind`` when the offender has ``earlier`` infractions of the same kind
    in this game; ``chosen`` is the referee's choice where the rules leave one."""
    if kind in _FIXED:
        fixed = _FIXED[kind]
        if chosen is not None and chosen is not fixed:
            raise InvalidSetting(
                "penalty", Msg("%(kind)s is always %(fixed)s", kind=kind, fixed=fixed)
            )
        return fixed
    if kind in _WARNING_THEN_LOSS:
        due = Penalty.WARNING if earlier == 0 else Penalty.LOSS
        if chosen is not None and chosen is not due:
            raise InvalidSetting(
                "penalty",
                Msg(
                    "%(kind)s: offence %(value)s in this game is a %(due)s",
                    kind=kind,
                    value=earlier + 1,
                    due=due,
                ),
            )
        return due
    options = _CHOICE[kind]
    choices = _either(options)
    if chosen is None:
        raise InvalidSetting(
            "penalty",
            Msg("%(kind)s: the referee chooses %(choices)s", kind=kind, choices=choices),
        )
    if chosen not in options:
        raise InvalidSetting(
            "penalty",
            Msg(
                "%(kind)s allows %(choices)s, not %(chosen)s",
                kind=kind,
                choices=choices,
                chosen=chosen,
            ),
        )
    return chosen


@dataclass(frozen=True)
class Infraction:
    """One infraction as the referee rules it.

    ``points`` names the stones concerned: for a capture error the stones wrongly removed or
    left on the board; for a take-back the point the stone was moved to. ``penalty`` is the
    referee's choice where the rules leave one (else ``None``: the rules decide).
    ``prize_demotion`` and ``suspension`` are sanctions for the event layer (R-REF-6).
    ``earlier_in_event`` counts offences of the same kind by this player in earlier games of
    the event, for events that count "再违" (a repeat) over the whole event; the record counts
    the ones of this game itself.
    """

    kind: InfractionKind
    offender: Color
    reported_by: GameActor | None = None
    penalty: Penalty | None = None
    points: tuple[int, ...] = ()
    prize_demotion: bool = False
    suspension: bool = False
    note: str = ""
    earlier_in_event: int = 0

    def __post_init__(self) -> None:
        if self.earlier_in_event < 0:
            raise InvalidSetting("earlier_in_event", Msg("cannot be negative"))
        if self.suspension and self.kind not in SUSPENDABLE:
            raise InvalidSetting(
                "suspension", Msg("the rules do not suspend for %(kind)s", kind=self.kind)
            )
        if self.prize_demotion and self.kind not in DEMOTABLE:
            raise InvalidSetting(
                "prize_demotion", Msg("the rules do not demote for %(kind)s", kind=self.kind)
            )
        if (
            self.kind
            in (
                InfractionKind.CAPTURE_LIVE_STONES,
                InfractionKind.DEAD_STONES_LEFT,
            )
            and not self.points
        ):
            raise InvalidSetting(
                "points", Msg("%(kind)s: name the stones concerned", kind=self.kind)
            )
