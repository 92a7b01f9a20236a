"""Entrants of an event: players, or teams by their codes.

>>> p = Entrant("p1", "Li Wei", rank=Rank.parse("5d"), rating=2400, club="Beijing")
>>> p.active_in(1), p.withdrawn
(True, False)
>>> q = Entrant("p2", "Wang", withdrawn_after=3, joined_round=2)
>>> q.active_in(1), q.active_in(2), q.active_in(4)
(False, True, False)
>>> r = Entrant("p3", "Zhao", absent_rounds=frozenset({2}))
>>> r.active_in(2), r.plays_in(2), r.plays_in(3)
(True, False, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date

from weiqi.errors import InputError
from weiqi.messages import Msg
from weiqi.tournament.ranks import Rank


@dataclass(frozen=True)
class Entrant:
    """A player (or a team, by its code) entered in an event.

    ``withdrawn_after`` is the number of the last round the player took part in (0: withdrew
    before the start, R-WD-1); ``joined_round`` is the first round a late entrant plays.
    ``seeding`` is a place the organiser gave in advance (1 first): a team has no rank, so teams
    are seeded in the order they are listed.
    """

    id: str
    name: str
    rank: Rank | None = None
    rating: float | None = None
    club: str = ""
    country: str = ""
    region: str = ""
    birth_date: date | None = None
    withdrawn_after: int | None = None
    joined_round: int = 1
    seeding: int | None = None
    absent_rounds: frozenset[int] = frozenset()
    mcmahon_correction: int = 0
    extra: tuple[tuple[str, str], ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        if not self.id:
            raise InputError("entrant", Msg("an entrant needs an id"))
        if self.joined_round < 1:
            raise InputError(
                Msg("entrant %(self)s", self=self.name), Msg("joined_round must be at least 1")
            )
        if self.withdrawn_after is not None and self.withdrawn_after < 0:
            raise InputError(
                Msg("entrant %(self)s", self=self.name), Msg("withdrawn_after must be 0 or more")
            )

    @property
    def withdrawn(self) -> bool:
        return self.withdrawn_after is not None

    def active_in(self, round_number: int) -> bool:
        """Whether the player is in the field of ``round_number``."""
        if round_number < self.joined_round:
            return False
        return self.withdrawn_after is None or round_number <= self.withdrawn_after

    def plays_in(self, round_number: int) -> bool:
        """Whether the player is to be paired in ``round_number``: in the field and not absent."""
        return self.active_in(round_number) and round_number not in self.absent_rounds

    @property
    def strength(self) -> int:
        """Rank strength for seeding; an unranked player sorts below 30k."""
        return self.rank.strength if self.rank is not None else -100


def seeding_order(entrants: Iterable[Entrant]) -> list[Entrant]:
    """Strongest first: a seeding place given in advance, then rank, then rating, then name and
    id (so the order is total).

    >>> names = [e.name for e in seeding_order([
    ...     Entrant("a", "A", Rank.parse("3d")), Entrant("b", "B", Rank.parse("1p")),
    ...     Entrant("c", "C", Rank.parse("3d"), rating=2300), Entrant("d", "D")])]
    >>> names
    ['B', 'C', 'A', 'D']
    >>> [e.id for e in seeding_order([Entrant("Z", "Z", seeding=1), Entrant("A", "A", seeding=2)])]
    ['Z', 'A']
    """
    return sorted(
        entrants,
        key=lambda e: (
            e.seeding is None,
            e.seeding or 0,
            -e.strength,
            -(e.rating if e.rating is not None else -1e9),
            e.name,
            e.id,
        ),
    )


def by_id(entrants: Sequence[Entrant]) -> dict[str, Entrant]:
    """Index entrants by id, refusing duplicates."""
    out: dict[str, Entrant] = {}
    for e in entrants:
        if e.id in out:
            raise InputError(Msg("entrant %(id)s", id=e.id), Msg("duplicate id"))
        out[e.id] = e
    return out
