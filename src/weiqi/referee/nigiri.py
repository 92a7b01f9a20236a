"""Nigiri (猜先, R-COLOR-1) as an auditable procedure, and colours assigned by the organiser.

The higher-ranked player holds a handful of white stones unseen (equal rank: the elder holds);
the other player shows one black stone ("odd: I take Black") or two ("even: I take Black");
the count of the handful decides. The handful is drawn from ``random.Random(seed)`` and the seed
is kept, so anyone can run the draw again and check it.

>>> from datetime import date
>>> li = Contestant("Li", rank=5, born=date(1990, 3, 1))
>>> wang = Contestant("Wang", rank=5, born=date(1985, 7, 9))
>>> n = Nigiri.draw(li, wang, guess=Guess.ODD, seed=2026)
>>> n.holder, n.guesser                          # equal rank: the elder (Wang) holds
('Wang', 'Li')
>>> n.count, n.black, n.white
(13, 'Li', 'Wang')
>>> n.verify()
True
>>> ColorAssignment.by_nigiri(n).black
'Li'
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass
from datetime import date

from weiqi.errors import Conflict, InvalidSetting
from weiqi.messages import Msg

#: Size of the handful of white stones: the draw is uniform over this range (inclusive).
HANDFUL_MIN = 10
HANDFUL_MAX = 40


class Guess(enum.Enum):
    """The guesser's call: one black stone shown = odd, two = even."""

    ODD = "odd"
    EVEN = "even"

    @property
    def stones_shown(self) -> int:
        return 1 if self is Guess.ODD else 2

    def matches(self, count: int) -> bool:
        return (count % 2 == 1) == (self is Guess.ODD)


@dataclass(frozen=True)
class Contestant:
    """A player as nigiri needs them: ``rank`` is a strength that orders ranks (higher is
    stronger, e.g. ``Rank.strength`` of the tournament module), ``born`` the birth date."""

    name: str
    rank: int
    born: date


def holder_of(a: Contestant, b: Contestant) -> tuple[Contestant, Contestant]:
    """``(holder, guesser)``: the higher rank holds; equal rank, the elder holds (R-COLOR-1).

    >>> x = Contestant("X", 3, date(2000, 1, 1)); y = Contestant("Y", 4, date(2001, 1, 1))
    >>> [c.name for c in holder_of(x, y)]
    ['Y', 'X']
    """
    if a.name == b.name:
        raise InvalidSetting("nigiri", Msg("both players are named %(a)s", a=repr(a.name)))
    if a.rank != b.rank:
        return (a, b) if a.rank > b.rank else (b, a)
    if a.born != b.born:
        return (a, b) if a.born < b.born else (b, a)
    raise InvalidSetting(
        "nigiri",
        Msg(
            "%(a)s and %(b)s have the same rank and birth date; the chief "
            "referee decides who holds",
            a=a.name,
            b=b.name,
        ),
    )


@dataclass(frozen=True)
class Nigiri:
    """The whole procedure as it happened: who held, the guess, the seed, the count and the
    colours that followed. :meth:`verify` runs it again from the seed."""

    holder: str
    guesser: str
    holder_rank: int
    guesser_rank: int
    holder_born: date
    guesser_born: date
    guess: Guess
    seed: int
    count: int
    black: str
    white: str

    @classmethod
    def draw(cls, a: Contestant, b: Contestant, guess: Guess, seed: int) -> Nigiri:
        """Run nigiri: ``guess`` is the guesser's call, ``seed`` seeds the handful."""
        holder, guesser = holder_of(a, b)
        count = random.Random(seed).randint(HANDFUL_MIN, HANDFUL_MAX)
        guesser_black = guess.matches(count)
        black, white = (guesser, holder) if guesser_black else (holder, guesser)
        return cls(
            holder=holder.name,
            guesser=guesser.name,
            holder_rank=holder.rank,
            guesser_rank=guesser.rank,
            holder_born=holder.born,
            guesser_born=guesser.born,
            guess=guess,
            seed=seed,
            count=count,
            black=black.name,
            white=white.name,
        )

    def contestants(self) -> tuple[Contestant, Contestant]:
        return (
            Contestant(self.holder, self.holder_rank, self.holder_born),
            Contestant(self.guesser, self.guesser_rank, self.guesser_born),
        )

    def verify(self) -> bool:
        """Run the draw again from the recorded inputs; raise :class:`Conflict` naming the
        first thing that differs, else return ``True``.

        >>> from dataclasses import replace
        >>> n = Nigiri.draw(Contestant("A", 2, date(1999, 1, 1)),
        ...                 Contestant("B", 1, date(1998, 1, 1)), Guess.EVEN, seed=7)
        >>> replace(n, count=n.count + 1).verify()
        Traceback (most recent call last):
        ...
        weiqi.errors.Conflict: nigiri: recorded count ... does not match the draw from seed 7 (...)
        """
        again = Nigiri.draw(*self.contestants(), guess=self.guess, seed=self.seed)
        if again.holder != self.holder:
            raise Conflict(
                Msg(
                    "nigiri: %(holder)s is recorded as holder but %(holder2)s holds",
                    holder=self.holder,
                    holder2=again.holder,
                )
            )
        if again.count != self.count:
            raise Conflict(
                Msg(
                    "nigiri: recorded count %(count)s does not match the draw from "
                    "seed %(seed)s (%(count2)s)",
                    count=self.count,
                    seed=self.seed,
                    count2=again.count,
                )
            )
        if (again.black, again.white) != (self.black, self.white):
            raise Conflict(
                Msg(
                    "nigiri: the count %(count)s gives Black to %(black)s",
                    count=self.count,
                    black=again.black,
                )
            )
        return True


class ColorMethod(enum.Enum):
    """Where a game's colours come from (R-COLOR-1)."""

    ORGANISER = "organiser"  # the organiser's draw or pairing
    NIGIRI = "nigiri"  # 猜先


@dataclass(frozen=True)
class ColorAssignment:
    """The colours a game was given: by the organiser or by a recorded nigiri."""

    method: ColorMethod
    black: str
    white: str
    nigiri: Nigiri | None = None

    def __post_init__(self) -> None:
        if self.black == self.white:
            raise InvalidSetting(
                "colors", Msg("%(black)s cannot play both colours", black=repr(self.black))
            )
        if (self.method is ColorMethod.NIGIRI) != (self.nigiri is not None):
            raise InvalidSetting("colors", Msg("a nigiri record is given exactly for nigiri"))
        if self.nigiri is not None and (self.nigiri.black, self.nigiri.white) != (
            self.black,
            self.white,
        ):
            raise InvalidSetting("colors", Msg("the colours differ from the nigiri's outcome"))

    @classmethod
    def by_organiser(cls, black: str, white: str) -> ColorAssignment:
        return cls(ColorMethod.ORGANISER, black, white)

    @classmethod
    def by_nigiri(cls, nigiri: Nigiri) -> ColorAssignment:
        return cls(ColorMethod.NIGIRI, nigiri.black, nigiri.white, nigiri)
