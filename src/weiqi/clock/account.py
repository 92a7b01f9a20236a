"""One player's time account and what a move of a given length does to it.

Everything here counts whole milliseconds (ints), so sums are exact: a flag falls exactly when the
time charged reaches the limit, and used + left adds up without rounding. The clock converts the
float seconds it is given at its edge (:func:`to_ms`).

The whole of every time system is three functions:

- :func:`limit` — how long the next move may take before the flag falls (``None``: never);
- :func:`charge` — the account after a completed move of a given length;
- :func:`view` — what the player has left part-way through a move (R-TIME-9).

>>> from weiqi.clock.control import TimeControl
>>> tc = TimeControl.chinese(3600)  # 55 min + 5 × 60 s
>>> acc = Account.initial(tc)._replace(main=0)  # in byo-yomi
>>> [charge(tc, acc, s * 1000).periods for s in (59, 60, 130)]  # R-TIME-2
[5, 4, 3]
>>> limit(tc, acc)  # five full periods
300000
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

from weiqi.clock.control import TimeControl, TimeSystem


def to_ms(seconds: float) -> int:
    """Seconds to whole milliseconds, rounding half up (the clock's one rounding step).

    >>> to_ms(1.2345), to_ms(59.9995), to_ms(-0.0004)
    (1235, 60000, 0)
    """
    return math.floor(seconds * 1000 + 0.5)


def to_s(ms: int) -> float:
    return ms / 1000


class Account(NamedTuple):
    """What one player has left at the start of their current move, plus what they have used.

    ``main``: main time left; ``periods``: byo-yomi periods left; ``period``: time left in the
    current moves-per-period period; ``moves``: moves still due in it; ``used``: all time charged
    so far (moves and deductions), which R-TIME-8 corrections and the equal split work from.
    """

    main: int
    periods: int = 0
    period: int = 0
    moves: int = 0
    used: int = 0

    @classmethod
    def initial(cls, tc: TimeControl) -> Account:
        return cls(
            main=to_ms(tc.main_time),
            periods=tc.periods,
            period=to_ms(tc.period_time) if tc.system is TimeSystem.MOVES_PER_PERIOD else 0,
            moves=tc.moves,
        )


def limit(tc: TimeControl, acc: Account) -> int | None:
    """Milliseconds the next move may take: the flag falls when the move's time reaches this."""
    s = tc.system
    if s is TimeSystem.UNTIMED:
        return None
    if s is TimeSystem.BYO_YOMI:
        return acc.main + acc.periods * to_ms(tc.period_time)
    if s is TimeSystem.MOVES_PER_PERIOD:
        return acc.main + acc.period
    return acc.main


def charge(tc: TimeControl, acc: Account, elapsed: int) -> Account:
    """The account after a move that took ``elapsed`` ms (which must be under :func:`limit`).

    Byo-yomi (R-TIME-2): a move shorter than a period costs nothing, each full period used costs
    one. Moves-per-period (R-TIME-4): the move that uses up the main time is the first of the first
    period; after the last move of a period, the next period's time is added to what is left
    (``carry_over``) or replaces it (Canadian).

    >>> tc = TimeControl.moves_per_period(0, 2, 600)
    >>> acc = charge(tc, Account.initial(tc), 100_000)
    >>> acc.period, acc.moves
    (500000, 1)
    >>> acc = charge(tc, acc, 200_000)  # period done with 300 s to spare: carried over
    >>> acc.period, acc.moves
    (900000, 2)
    """
    if elapsed < 0:
        raise ValueError("a move cannot take negative time")
    cap = limit(tc, acc)
    if cap is not None and elapsed >= cap:
        raise ValueError(f"a move of {elapsed} ms reaches the limit of {cap} ms: the flag fell")
    s = tc.system
    used = acc.used + elapsed
    if s is TimeSystem.UNTIMED:
        return acc._replace(used=used)
    if s is TimeSystem.ABSOLUTE:
        return acc._replace(main=acc.main - elapsed, used=used)
    if s is TimeSystem.FISCHER:
        return acc._replace(main=acc.main - elapsed + to_ms(tc.increment), used=used)
    if s is TimeSystem.BYO_YOMI:
        if elapsed <= acc.main:
            return acc._replace(main=acc.main - elapsed, used=used)
        spent = (elapsed - acc.main) // to_ms(tc.period_time)
        return acc._replace(main=0, periods=acc.periods - spent, used=used)
    if elapsed < acc.main:
        return acc._replace(main=acc.main - elapsed, used=used)
    period = acc.period - (elapsed - acc.main)
    moves = acc.moves - 1
    if moves == 0:
        moves = tc.moves
        fresh = to_ms(tc.period_time)
        period = period + fresh if tc.carry_over else fresh
    return acc._replace(main=0, period=period, moves=moves, used=used)


def deduct(tc: TimeControl, acc: Account, amount: int) -> Account | None:
    """The account after ``amount`` ms are taken away (late arrival, a clock correction), or
    ``None`` when that leaves nothing (the flag falls).

    The time comes out of the main time first. In byo-yomi the rest comes out of the reserved
    periods, a started period counting as used (the reserve only exists in whole periods); in
    moves-per-period out of the current period. A negative amount gives time back to the main time.

    >>> tc = TimeControl.byo_yomi(60, 5, 60)
    >>> deduct(tc, Account.initial(tc), 90_000).periods  # 60 s main + 30 s of one period
    4
    """
    s = tc.system
    used = acc.used + amount
    if amount <= 0 or s is TimeSystem.UNTIMED:
        return acc._replace(main=acc.main - amount if s is not TimeSystem.UNTIMED else 0, used=used)
    from_main = min(acc.main, amount)
    rest = amount - from_main
    acc = acc._replace(main=acc.main - from_main, used=used)
    if s is TimeSystem.BYO_YOMI:
        period = to_ms(tc.period_time)
        acc = acc._replace(periods=acc.periods - -(-rest // period))
    elif s is TimeSystem.MOVES_PER_PERIOD:
        acc = acc._replace(period=acc.period - rest)
    elif rest:
        return None
    cap = limit(tc, acc)
    return acc if cap is None or cap > 0 else None


@dataclass(frozen=True)
class View:
    """What a player has left at one instant (R-TIME-9), in seconds.

    ``period`` is the time left in the current byo-yomi or moves-per-period period (``None`` for
    systems without periods); ``periods`` and ``moves`` likewise. ``total`` is all the time the
    move in progress may still take before the flag falls (``None``: untimed).
    """

    main: float
    periods: int | None
    period: float | None
    moves: int | None
    in_overtime: bool
    total: float | None
    flagged: bool


def view(tc: TimeControl, acc: Account, elapsed: int) -> View:
    """The account seen ``elapsed`` ms into the current move.

    >>> tc = TimeControl.byo_yomi(0, 3, 30)
    >>> v = view(tc, Account.initial(tc), 45_000)
    >>> v.periods, v.period, v.total
    (2, 15.0, 45.0)
    """
    s = tc.system
    cap = limit(tc, acc)
    flagged = cap is not None and elapsed >= cap
    total = None if cap is None else to_s(max(0, cap - elapsed))
    main = to_s(max(0, acc.main - elapsed))
    over = max(0, elapsed - acc.main)
    in_overtime = s in (TimeSystem.BYO_YOMI, TimeSystem.MOVES_PER_PERIOD) and elapsed >= acc.main
    if s is TimeSystem.UNTIMED:
        return View(0.0, None, None, None, False, None, False)
    if s is TimeSystem.BYO_YOMI:
        period_ms = to_ms(tc.period_time)
        if flagged:
            return View(0.0, 0, 0.0, None, True, 0.0, True)
        spent, into = divmod(over, period_ms)
        return View(
            main, acc.periods - spent, to_s(period_ms - into), None, in_overtime, total, False
        )
    if s is TimeSystem.MOVES_PER_PERIOD:
        return View(
            main, None, to_s(max(0, acc.period - over)), acc.moves, in_overtime, total, flagged
        )
    return View(main, None, None, None, False, total, flagged)
