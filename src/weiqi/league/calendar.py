"""The dated double round robin of a club season (R-LEAGUE-1): every club meets every other club
twice, the second half with home and away reversed (12 clubs → 22 rounds).

The rounds follow the Berger tables (FIDE): with ``n`` clubs (a bye added when ``n`` is odd), in
round ``k`` club ``n`` meets club ``p = (k − 1)·n/2 mod (n − 1) + 1``, and the others pair as
``p + i`` (home) against ``p − i`` (away), counted round 1…n−1.

This is the league's own Berger function until the tournament package's round robin lands in main;
both follow the same FIDE tables, so unifying them changes no fixture.

>>> [[(f.home, f.away) for f in rnd] for rnd in berger_rounds(["1", "2", "3", "4", "5", "6"])[:2]]
[[('1', '6'), ('2', '5'), ('3', '4')], [('6', '4'), ('5', '3'), ('1', '2')]]
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from weiqi.errors import InvalidSetting


@dataclass(frozen=True)
class Fixture:
    """A match of the calendar: ``home`` is team A of the match (colours, listed first)."""

    round: int
    home: str
    away: str
    date: datetime.date | None = None


def berger_rounds(clubs: Sequence[str]) -> list[list[Fixture]]:
    """A single round robin by the Berger tables; with an odd number of clubs the club that
    would meet the missing partner rests that round (no fixture)."""
    if len(set(clubs)) != len(clubs):
        raise InvalidSetting("clubs", "a club is listed twice")
    if len(clubs) < 2:
        raise InvalidSetting("clubs", "a round robin needs at least two clubs")
    slots: list[str | None] = list(clubs)
    if len(slots) % 2:
        slots.append(None)
    n = len(slots)
    rounds: list[list[Fixture]] = []
    for k in range(1, n):
        p = ((k - 1) * (n // 2)) % (n - 1) + 1
        pairs: list[tuple[int, int]] = [(p, n) if k % 2 else (n, p)]
        for i in range(1, n // 2):
            home = (p + i - 1) % (n - 1) + 1
            away = (p - i - 1) % (n - 1) + 1
            pairs.append((home, away))
        fixtures = []
        for h, a in pairs:
            home_club, away_club = slots[h - 1], slots[a - 1]
            if home_club is not None and away_club is not None:
                fixtures.append(Fixture(k, home_club, away_club))
        rounds.append(fixtures)
    return rounds


def weekly_dates(start: datetime.date, rounds: int, days: int = 7) -> list[datetime.date]:
    """``rounds`` dates from ``start``, ``days`` apart.

    >>> weekly_dates(datetime.date(2026, 3, 7), 3)
    [datetime.date(2026, 3, 7), datetime.date(2026, 3, 14), datetime.date(2026, 3, 21)]
    """
    if days < 1:
        raise InvalidSetting("days", "rounds must be at least a day apart")
    return [start + datetime.timedelta(days=days * i) for i in range(rounds)]


def double_round_robin(
    clubs: Sequence[str], dates: Sequence[datetime.date] | None = None
) -> list[list[Fixture]]:
    """Two Berger cycles; the second reverses home and away of the first. ``dates`` (one per
    round, strictly increasing) date the rounds.

    >>> cal = double_round_robin([f"c{i}" for i in range(12)])
    >>> len(cal), {len(r) for r in cal}
    (22, {6})
    >>> [(f.round, f.home, f.away) for f in (cal[0][0], cal[11][0])]
    [(1, 'c0', 'c11'), (12, 'c11', 'c0')]
    """
    first = berger_rounds(clubs)
    half = len(first)
    second = [[Fixture(f.round + half, f.away, f.home) for f in rnd] for rnd in first]
    calendar = first + second
    if dates is None:
        return calendar
    if len(dates) != len(calendar):
        raise InvalidSetting("dates", f"{len(dates)} dates for {len(calendar)} rounds")
    for i in range(1, len(dates)):
        if dates[i] <= dates[i - 1]:
            raise InvalidSetting("dates", f"round {i + 1} is not after round {i}")
    return [
        [Fixture(f.round, f.home, f.away, dates[i]) for f in rnd] for i, rnd in enumerate(calendar)
    ]
