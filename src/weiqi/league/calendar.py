"""The dated double round robin of a club season (R-LEAGUE-1): every club meets every other club
twice, the second half with home and away reversed (12 clubs → 22 rounds).

The rounds are the tournament package's Berger tables (``berger_schedule``, FIDE), read with
black as the home club — the home club is team A of a match, black on board 1. With an odd
number of clubs one club rests each round.

>>> [[(f.home, f.away) for f in rnd] for rnd in berger_rounds(["1", "2", "3", "4", "5", "6"])[:2]]
[[('1', '6'), ('2', '5'), ('3', '4')], [('6', '4'), ('1', '2'), ('5', '3')]]
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from weiqi.errors import InvalidSetting
from weiqi.messages import Msg
from weiqi.tournament.systems.round_robin import berger_schedule


@dataclass(frozen=True)
class Fixture:
    """A match of the calendar: ``home`` is team A of the match (colours, listed first)."""

    round: int
    home: str
    away: str
    date: datetime.date | None = None


def _check_clubs(clubs: Sequence[str]) -> None:
    if len(set(clubs)) != len(clubs):
        raise InvalidSetting("clubs", Msg("a club is listed twice"))
    if len(clubs) < 2:
        raise InvalidSetting("clubs", Msg("a round robin needs at least two clubs"))


def _fixtures(clubs: Sequence[str], cycles: int) -> list[list[Fixture]]:
    _check_clubs(clubs)
    n = len(clubs)
    return [
        [Fixture(k, clubs[b], clubs[w]) for b, w in games if b < n and w < n]
        for k, games in enumerate(berger_schedule(n, cycles), start=1)
    ]


def berger_rounds(clubs: Sequence[str]) -> list[list[Fixture]]:
    """A single round robin by the Berger tables; with an odd number of clubs the club that
    would meet the missing partner rests that round (no fixture)."""
    return _fixtures(clubs, 1)


def weekly_dates(start: datetime.date, rounds: int, days: int = 7) -> list[datetime.date]:
    """``rounds`` dates from ``start``, ``days`` apart.

    >>> weekly_dates(datetime.date(2026, 3, 7), 3)
    [datetime.date(2026, 3, 7), datetime.date(2026, 3, 14), datetime.date(2026, 3, 21)]
    """
    if days < 1:
        raise InvalidSetting("days", Msg("rounds must be at least a day apart"))
    return [start + datetime.timedelta(days=days * i) for i in range(rounds)]


def double_round_robin(
    clubs: Sequence[str], dates: Sequence[datetime.date] | None = None
) -> list[list[Fixture]]:
    """Two Berger cycles; the second reverses home and away of the first (whose last two rounds
    the tables swap, so no club plays three home or away matches in a row across the halves).
    ``dates`` (one per round, strictly increasing) date the rounds.

    >>> cal = double_round_robin([f"c{i}" for i in range(12)])
    >>> len(cal), {len(r) for r in cal}
    (22, {6})
    >>> [(f.round, f.home, f.away) for f in (cal[0][0], cal[11][0])]
    [(1, 'c0', 'c11'), (12, 'c11', 'c0')]
    """
    calendar = _fixtures(clubs, 2)
    if dates is None:
        return calendar
    if len(dates) != len(calendar):
        raise InvalidSetting(
            "dates",
            Msg(
                "%(dates)s dates for %(calendar)s rounds", dates=len(dates), calendar=len(calendar)
            ),
        )
    for i in range(1, len(dates)):
        if dates[i] <= dates[i - 1]:
            raise InvalidSetting(
                "dates", Msg("round %(value)s is not after round %(i)s", value=i + 1, i=i)
            )
    return [
        [Fixture(f.round, f.home, f.away, dates[i]) for f in rnd] for i, rnd in enumerate(calendar)
    ]
