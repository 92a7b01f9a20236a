"""Late arrival at the start of a game (R-TIME-6, Art. 22.1–4).

An event chooses a :class:`LatePolicy`: the limit (60 min when the venue is apart from the
lodging, 15 min when they are together; up to and including the limit is allowed), whether the
late time is deducted twice from the player's time, or, for quick events with no or very short
main time, absent byo-yomi: the absent player's clock simply runs and they forfeit when it is
exhausted. Lateness after a pause is never judged: the clock just runs (Art. 22.1).

>>> judge_late(LatePolicy.same_venue(), 15 * 60)
LateRuling(forfeit=False, deduction=1800.0)
>>> judge_late(LatePolicy.same_venue(), 15 * 60 + 0.001).forfeit
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from weiqi.errors import InvalidSetting
from weiqi.messages import Msg


@dataclass(frozen=True)
class LatePolicy:
    """``limit`` seconds of lateness allowed (inclusive); ``double`` deduction of the late time;
    ``absent_byo_yomi`` for quick events (then ``limit`` and ``double`` do not apply)."""

    limit: float = 3600.0
    double: bool = True
    absent_byo_yomi: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.limit, int | float) or not math.isfinite(self.limit):
            raise InvalidSetting(
                "late.limit",
                Msg("must be a number of seconds, not %(limit)s", limit=repr(self.limit)),
            )
        if self.limit < 0:
            raise InvalidSetting("late.limit", Msg("must be >= 0, not %(limit)s", limit=self.limit))

    @classmethod
    def separate_venue(cls) -> LatePolicy:
        """赛场和住地分离: 1 hour (Art. 22.1)."""
        return cls(limit=3600.0)

    @classmethod
    def same_venue(cls) -> LatePolicy:
        """赛场和住地基本上同在一处: 15 minutes (Art. 22.2)."""
        return cls(limit=900.0)

    @classmethod
    def quick(cls) -> LatePolicy:
        """按时缺席读秒: quick events with no or very short main time (Art. 22.4)."""
        return cls(limit=0.0, double=False, absent_byo_yomi=True)

    def to_dict(self) -> dict[str, Any]:
        return {"limit": self.limit, "double": self.double, "absent_byo_yomi": self.absent_byo_yomi}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LatePolicy:
        return cls(**data)


@dataclass(frozen=True)
class LateRuling:
    """``forfeit``: the player loses by forfeit; else ``deduction`` seconds come off their time
    (in all, counting what their running clock already took)."""

    forfeit: bool
    deduction: float


def judge_late(policy: LatePolicy, late: float) -> LateRuling:
    """The ruling for a player ``late`` seconds late at the start of a game.

    >>> judge_late(LatePolicy.separate_venue(), 3600)
    LateRuling(forfeit=False, deduction=7200.0)
    >>> judge_late(LatePolicy.quick(), 600)  # absent byo-yomi: only the clock judges
    LateRuling(forfeit=False, deduction=600.0)
    """
    late = max(0.0, float(late))
    if policy.absent_byo_yomi:
        return LateRuling(False, late)
    if late > policy.limit:
        return LateRuling(True, 0.0)
    return LateRuling(False, 2 * late if policy.double else late)
