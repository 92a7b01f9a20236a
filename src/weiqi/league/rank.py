"""Ranks (段位, R-FMT-2) as far as team events need them: parsing and a strength order.

Professional dan (职业 初段…九段) and amateur dan (业余 1–7 段) are different scales; for ordering
a mixed team's boards every professional ranks above every amateur dan, and every amateur dan
above every kyu (级).

>>> Rank.parse("9p") > Rank.parse("7d") > Rank.parse("1k") > Rank.parse("5k")
True
>>> Rank.parse("九段"), Rank.parse("业余5段"), Rank.parse("3级")
(Rank('9p'), Rank('5d'), Rank('3k'))
>>> Rank.parse("8d")
Traceback (most recent call last):
...
weiqi.errors.InputError: rank '8d': amateur dan ranks are 1 to 7
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from weiqi.errors import InputError


class RankScale(enum.Enum):
    """The three scales, valued in strength order."""

    KYU = 0
    AMATEUR_DAN = 1
    PRO_DAN = 2


_SUFFIX = {RankScale.KYU: "k", RankScale.AMATEUR_DAN: "d", RankScale.PRO_DAN: "p"}
_BY_SUFFIX = {suffix: scale for scale, suffix in _SUFFIX.items()}
_LIMITS = {RankScale.KYU: 30, RankScale.AMATEUR_DAN: 7, RankScale.PRO_DAN: 9}
_LIMIT_TEXT = {
    RankScale.KYU: "kyu ranks are 1 to 30",
    RankScale.AMATEUR_DAN: "amateur dan ranks are 1 to 7",
    RankScale.PRO_DAN: "professional dan ranks are 1 to 9",
}
_ZH_DIGITS = {
    "初": 1,
    "一": 1,
    "二": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}


@dataclass(frozen=True, order=False)
class Rank:
    """A rank: a scale and a level (1 = 1 kyu, 1 dan or 初段)."""

    scale: RankScale
    level: int

    def __post_init__(self) -> None:
        if not 1 <= self.level <= _LIMITS[self.scale]:
            raise InputError(f"rank {self.code!r}", _LIMIT_TEXT[self.scale])

    @property
    def code(self) -> str:
        return f"{self.level}{_SUFFIX[self.scale]}"

    @property
    def strength(self) -> tuple[int, int]:
        """A key that sorts weaker ranks first: 5k < 1k < 1d < 7d < 1p < 9p."""
        level = -self.level if self.scale is RankScale.KYU else self.level
        return (self.scale.value, level)

    def __lt__(self, other: Rank) -> bool:
        return self.strength < other.strength

    def __le__(self, other: Rank) -> bool:
        return self.strength <= other.strength

    def __gt__(self, other: Rank) -> bool:
        return self.strength > other.strength

    def __ge__(self, other: Rank) -> bool:
        return self.strength >= other.strength

    def __repr__(self) -> str:
        return f"Rank({self.code!r})"

    def __str__(self) -> str:
        return self.code

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Read ``9p``, ``5d``, ``3k`` (any case), ``九段``/``初段`` (professional), ``业余5段``,
        ``5段`` after ``业余``, ``3级``."""
        raw = text.strip()
        m = re.fullmatch(r"(\d{1,2})\s*([pdk])", raw.lower())
        if m:
            return cls._make(raw, _BY_SUFFIX[m.group(2)], int(m.group(1)))
        m = re.fullmatch(r"(业余)?\s*(\d{1,2}|[初一二三四五六七八九])\s*(段|级)", raw)
        if m:
            digit = m.group(2)
            level = _ZH_DIGITS[digit] if digit in _ZH_DIGITS else int(digit)
            if m.group(3) == "级":
                return cls._make(raw, RankScale.KYU, level)
            scale = RankScale.AMATEUR_DAN if m.group(1) else RankScale.PRO_DAN
            return cls._make(raw, scale, level)
        raise InputError(f"rank {raw!r}", "expected e.g. 9p, 5d, 3k, 九段, 业余5段 or 3级")

    @classmethod
    def _make(cls, raw: str, scale: RankScale, level: int) -> Rank:
        if not 1 <= level <= _LIMITS[scale]:
            raise InputError(f"rank {raw!r}", _LIMIT_TEXT[scale])
        return cls(scale, level)
