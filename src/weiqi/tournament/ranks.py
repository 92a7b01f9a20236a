"""Ranks (段位/级) and their order for seeding (R-FMT-2).

Professional dan (职业初段…九段, ``1p``…``9p``) and amateur dan (业余1段…7段, ``1d``…``7d``; the
European rating lists also have 8d and 9d, which imported files carry) are different scales; kyu
(级) ranks sit below amateur dan. For seeding and the McMahon bar they need one order, so
:attr:`Rank.strength` puts every professional above the strongest amateur.

>>> Rank.parse("5d"), Rank.parse("2p"), Rank.parse("3k")
(Rank('5d'), Rank('2p'), Rank('3k'))
>>> [Rank.parse(t) for t in ("初段", "职业2段", "业余5段", "5段", "3级")]
[Rank('1p'), Rank('2p'), Rank('5d'), Rank('5d'), Rank('3k')]
>>> Rank.parse("1p").strength > Rank.parse("9d").strength > Rank.parse("7d").strength
True
>>> Rank.parse("7d").strength > Rank.parse("1k").strength
True
>>> Rank.parse("2p").zh, Rank.parse("5d").zh, Rank.parse("3k").zh
('职业二段', '业余5段', '3级')
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from weiqi.errors import InputError
from weiqi.messages import Msg


class Scale(enum.Enum):
    """The three rank scales."""

    KYU = "k"
    AMATEUR = "d"
    PROFESSIONAL = "p"


# Chinese amateur dan ends at 7 (R-FMT-2); 8d and 9d come from European files (EGF, OpenGotha).
_MAX = {Scale.KYU: 30, Scale.AMATEUR: 9, Scale.PROFESSIONAL: 9}
_CHINESE_AMATEUR_MAX = 7
_ZH_DIGITS = "初二三四五六七八九"
_ZH_NUMBERS = {c: i + 1 for i, c in enumerate(_ZH_DIGITS)} | {"一": 1}


@dataclass(frozen=True)
class Rank:
    """A rank on one scale; ``level`` counts up for dan and down (1k strongest) for kyu."""

    scale: Scale
    level: int

    def __post_init__(self) -> None:
        if not 1 <= self.level <= _MAX[self.scale]:
            raise InputError(
                Msg("rank %(level)s%(scale)s", level=self.level, scale=self.scale.value),
                Msg("level must be 1..%(MAX)s", MAX=_MAX[self.scale]),
            )

    @property
    def strength(self) -> int:
        """One order over all scales: 30k = -29 … 1k = 0, 1d = 1 … 9d = 9, 1p = 10 … 9p = 18.

        The professional values are an ordering only; they do not claim that 1p is one stone
        stronger than 9d (the scales are different, R-FMT-2). Strengths are never stored.
        """
        if self.scale is Scale.KYU:
            return 1 - self.level
        if self.scale is Scale.AMATEUR:
            return self.level
        return _MAX[Scale.AMATEUR] + self.level

    @classmethod
    def from_strength(cls, strength: int) -> Rank:
        """Inverse of :attr:`strength`.

        >>> Rank.from_strength(0), Rank.from_strength(7), Rank.from_strength(10)
        (Rank('1k'), Rank('7d'), Rank('1p'))
        """
        if strength <= 0:
            return cls(Scale.KYU, 1 - strength)
        if strength <= _MAX[Scale.AMATEUR]:
            return cls(Scale.AMATEUR, strength)
        return cls(Scale.PROFESSIONAL, strength - _MAX[Scale.AMATEUR])

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Parse ``5d``, ``2p``, ``3k`` (any case, ``5 dan``/``3 kyu`` too), ``初段``…``九段`` and
        ``职业2段`` (professional), ``5段``/``业余5段`` (amateur), ``3级`` (kyu).

        >>> Rank.parse("12 kyu")
        Rank('12k')
        >>> Rank.parse("8D"), Rank.parse(" 2P")
        (Rank('8d'), Rank('2p'))
        >>> Rank.parse("10d")
        Traceback (most recent call last):
        ...
        weiqi.errors.InputError: rank 10d: level must be 1..9
        >>> Rank.parse("strong")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        weiqi.errors.InputError: rank 'strong': expected 5d, 2p, 3k or, in Chinese, ...
        """
        raw = text.strip()
        key = raw.lower().replace(" ", "")
        m = re.fullmatch(r"(\d{1,2})(d|dan|p|pro|k|kyu)", key)
        if m:
            letter = m.group(2)[0]
            return cls(Scale(letter), int(m.group(1)))
        m = re.fullmatch(r"(职业|職業|业余|業餘)?([初一二三四五六七八九]|\d)段", key)
        if m:
            prefix, number = m.group(1), m.group(2)
            level = int(number) if number.isdigit() else _ZH_NUMBERS[number]
            kanji = not number.isdigit()
            pro = prefix in {"职业", "職業"} or (prefix is None and kanji)
            if not pro and level > _CHINESE_AMATEUR_MAX:
                raise InputError(
                    Msg("rank %(raw)s", raw=repr(raw)), Msg("amateur dan ends at 业余7段")
                )
            return cls(Scale.PROFESSIONAL if pro else Scale.AMATEUR, level)
        m = re.fullmatch(r"(\d{1,2})(级|級)", key)
        if m:
            return cls(Scale.KYU, int(m.group(1)))
        raise InputError(
            Msg("rank %(raw)s", raw=repr(raw)),
            Msg("expected 5d, 2p, 3k or, in Chinese, “初段”…“九段”, “职业2段”, “业余5段”, “3级”"),
        )

    @property
    def code(self) -> str:
        return f"{self.level}{self.scale.value}"

    @property
    def zh(self) -> str:
        if self.scale is Scale.PROFESSIONAL:
            return f"职业{_ZH_DIGITS[self.level - 1]}段"
        if self.scale is Scale.AMATEUR:
            return f"业余{self.level}段"
        return f"{self.level}级"

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Rank({self.code!r})"


def handicap_between(stronger: Rank, weaker: Rank, *, reduction: int = 0, maximum: int = 9) -> int:
    """Handicap stones from a rank difference on one scale (R-HCP-1/2).

    0 is an even game (komi), 1 is 让先 (Black without komi), 2…9 are stones. Ranks on different
    scales (a professional against an amateur) have no rank difference in the rules, so they play
    even. ``reduction`` is subtracted from the difference first.

    >>> handicap_between(Rank.parse("5d"), Rank.parse("2d"))
    3
    >>> handicap_between(Rank.parse("1d"), Rank.parse("1k"))
    1
    >>> handicap_between(Rank.parse("5d"), Rank.parse("10k"), maximum=9)
    9
    >>> handicap_between(Rank.parse("3p"), Rank.parse("7d"))
    0
    """
    if (stronger.scale is Scale.PROFESSIONAL) != (weaker.scale is Scale.PROFESSIONAL):
        return 0
    diff = abs(stronger.strength - weaker.strength) - reduction
    return max(0, min(diff, maximum))
