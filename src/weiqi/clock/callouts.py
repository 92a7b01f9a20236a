"""The byo-yomi call-outs a referee or a voice clock speaks (R-TIME-3, Art. 12.3).

For a 60 s period the rules say: 30秒, 40秒, 50秒, 55秒, 58秒, then at 60 s "1分，还剩N分". In the
last period: 30秒, 40秒, 50秒, then every second 1 … 10 (at 51 … 60 s); "10" said without a move
means the period is used (→ R-TIME-2: the loss, or a forfeited turn on request).

Other period lengths keep the same shape, scaled (Art. 12.3 leaves quick events' details to the
organiser; this is our documented choice):

- the calls of a period fall at the same fractions of it as for 60 s — 1/2, 2/3, 5/6, 11/12 and
  29/30 — rounded to whole seconds, half up; calls that round to 0 s, to the end of the period or
  onto an earlier call are dropped. A 30 s period gives 15, 20, 25, 28 (27.5 rounded up), 29 s.
- the period's end is always called with the periods left.
- in the last period the count-down always counts real seconds: 1 … C at the last C seconds, C
  being 10 (fewer if the period is shorter than 10 s); of the earlier calls (1/2, 2/3, 5/6) only
  those before the count-down stay. A 30 s last period: 15, 20 s, then 1 … 10 at 21 … 30 s.

:func:`schedule` is the data the on-screen voice clock mirrors.

>>> [c.zh for c in schedule(60, 5)]
['30秒', '40秒', '50秒', '55秒', '58秒', '1分，还剩4分']
>>> [c.zh for c in schedule(60, 1)]
['30秒', '40秒', '50秒', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10']
>>> [c.at for c in schedule(30, 3)]
[15.0, 20.0, 25.0, 28.0, 29.0, 30.0]
>>> [c.en for c in callouts(60.0, 60, 3)][-2:]
['58 seconds', '1 minute, 2 minutes left']
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

# The fractions of a period at which the calls fall, from the 60 s schedule of the rules.
_MARKS = (Fraction(1, 2), Fraction(2, 3), Fraction(5, 6), Fraction(11, 12), Fraction(29, 30))
_LAST_MARKS = _MARKS[:3]
_COUNT = 10


class Kind(enum.Enum):
    SECONDS = "seconds"  # "30秒": seconds used in the period
    PERIOD_USED = "period_used"  # "1分，还剩N分": a period is used, N left
    COUNT = "count"  # "1" … "10" in the last period


@dataclass(frozen=True)
class Callout:
    """One call: ``at`` seconds into a period of ``period_time`` seconds.

    ``value`` is the seconds said (``SECONDS``), the periods left (``PERIOD_USED``) or the number
    counted (``COUNT``).
    """

    at: float
    kind: Kind
    value: int
    period_time: float

    @property
    def zh(self) -> str:
        if self.kind is Kind.SECONDS:
            return f"{self.value}秒"
        if self.kind is Kind.COUNT:
            return str(self.value)
        if self.period_time == 60:
            return f"1分，还剩{self.value}分"
        return f"{_seconds(self.period_time)}秒，还剩{self.value}次"

    @property
    def en(self) -> str:
        if self.kind is Kind.SECONDS:
            return f"{self.value} seconds"
        if self.kind is Kind.COUNT:
            return str(self.value)
        if self.period_time == 60:
            left = "1 minute left" if self.value == 1 else f"{self.value} minutes left"
            return f"1 minute, {left}"
        left = "1 period left" if self.value == 1 else f"{self.value} periods left"
        return f"{_seconds(self.period_time)} seconds, {left}"

    def text(self, lang: str) -> str:
        return self.zh if lang.startswith("zh") else self.en

    def to_dict(self) -> dict[str, Any]:
        return {
            "at": self.at,
            "kind": self.kind.value,
            "value": self.value,
            "zh": self.zh,
            "en": self.en,
        }


def _seconds(x: float) -> str:
    return f"{x:g}"


def _round_half_up(x: Fraction) -> int:
    return math.floor(x + Fraction(1, 2))


def schedule(period_time: float, periods_left: int) -> list[Callout]:
    """All calls of one period, given the periods left when it starts (1 = the last period).

    >>> [(c.at, c.zh) for c in schedule(10, 2)]
    [(5.0, '5秒'), (7.0, '7秒'), (8.0, '8秒'), (9.0, '9秒'), (10.0, '10秒，还剩1次')]
    >>> [c.at for c in schedule(20, 1)]
    [10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0]
    """
    if period_time <= 0:
        raise ValueError("a period lasts more than 0 seconds")
    if periods_left < 1:
        raise ValueError("a period is timed only while at least one is left")
    p = Fraction(period_time)
    last = periods_left == 1
    count = min(_COUNT, math.floor(p))
    count_start = p - count  # the count-down says "1" one second after this
    calls: list[Callout] = []
    seen: set[int] = set()
    for frac in _LAST_MARKS if last else _MARKS:
        s = _round_half_up(p * frac)
        if s <= 0 or s >= p or s in seen or (last and s > count_start):
            continue
        seen.add(s)
        calls.append(Callout(float(s), Kind.SECONDS, s, float(period_time)))
    if last:
        for k in range(1, count + 1):
            calls.append(Callout(float(count_start + k), Kind.COUNT, k, float(period_time)))
    else:
        calls.append(Callout(float(p), Kind.PERIOD_USED, periods_left - 1, float(period_time)))
    return calls


def callouts(elapsed_in_period: float, period_time: float, periods_left: int) -> list[Callout]:
    """The calls of the current period due by ``elapsed_in_period`` seconds (inclusive).

    >>> [c.zh for c in callouts(52.5, 60, 1)]
    ['30秒', '40秒', '50秒', '1', '2']
    """
    return [c for c in schedule(period_time, periods_left) if c.at <= elapsed_in_period]
