"""The overtime (SGF ``OT``) of a time setting, as servers and Chinese software write it.

SGF leaves ``OT`` as free text. These forms are recognised (case and spaces do not matter):

========================  ===============================================  =========================
written                   who writes it                                    read as
========================  ===============================================  =========================
``5x60 byo-yomi``         KGS, OGS, Sabaki, GNU Go                         5 periods of 60 s
``5x60``, ``5×60``,       Chinese and Korean software                      5 periods of 60 s
``5*60``
``3次30秒``, ``30秒3次``  Chinese software (读秒 3 次, 30 秒)               3 periods of 30 s
``5次1分钟``, ``1分5次``  Chinese software                                 5 periods of 60 s
``25/600 Canadian``       KGS                                              25 stones in 600 s
``25手10分钟``            Chinese software                                 25 stones in 600 s
``15/600 Canadian         weiqi's clock (定时限步制, R-TIME-4)               15 moves in 600 s, the
carry-over``                                                               time left carried over
``30 fischer``,           OGS, weiqi's clock                               30 s added per move
``fischer +30``
========================  ===============================================  =========================

Seconds may have decimals (``5x7.5``). Anything else reads as ``None``; the caller keeps the raw
text. :meth:`Overtime.to_sgf` writes the form of the first line of each kind, which is also what
:mod:`weiqi.clock.notation` reads and writes.

>>> ot = parse_overtime("5x60 byo-yomi")
>>> ot.kind, ot.periods, ot.seconds
(<OvertimeKind.BYO_YOMI: 'byo-yomi'>, 5, 60)
>>> parse_overtime("3次30秒").to_sgf()
'3x30 byo-yomi'
>>> parse_overtime("25/600 Canadian").to_zh()
'加拿大读秒 25手/10分钟'
>>> parse_overtime("sudden death") is None
True
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass


class OvertimeKind(enum.Enum):
    """The kinds of overtime an SGF ``OT`` can name."""

    BYO_YOMI = "byo-yomi"  # 读秒: periods of fixed length, a period is used up only when overrun
    CANADIAN = "canadian"  # a number of stones to play within a block of time
    FISCHER = "fischer"  # a fixed increment added after every move


@dataclass(frozen=True)
class Overtime:
    """One overtime setting. ``seconds`` is the period (byo-yomi), the block (Canadian) or the
    increment (Fischer); ``periods`` counts byo-yomi periods, ``stones`` the Canadian stones."""

    kind: OvertimeKind
    seconds: float
    periods: int = 1
    stones: int = 1
    carry_over: bool = False  # Canadian only: time left in a period carries to the next

    def __post_init__(self) -> None:
        if self.seconds <= 0 or self.periods <= 0 or self.stones <= 0:
            raise ValueError("overtime seconds, periods and stones are positive")
        if self.carry_over and self.kind is not OvertimeKind.CANADIAN:
            raise ValueError("only Canadian overtime carries time over")

    def to_sgf(self) -> str:
        """The ``OT`` text most programs read: ``5x60 byo-yomi``, ``25/600 Canadian``,
        ``30 fischer``."""
        seconds = _number(self.seconds)
        if self.kind is OvertimeKind.BYO_YOMI:
            return f"{self.periods}x{seconds} byo-yomi"
        if self.kind is OvertimeKind.CANADIAN:
            carry = " carry-over" if self.carry_over else ""
            return f"{self.stones}/{seconds} Canadian{carry}"
        return f"{seconds} fischer"

    def to_zh(self) -> str:
        """Chinese wording: ``读秒 3次30秒``, ``加拿大读秒 25手/10分钟``, ``每步加30秒``.

        >>> Overtime(OvertimeKind.BYO_YOMI, 60, periods=5).to_zh()
        '读秒 5次1分钟'
        """
        if self.kind is OvertimeKind.BYO_YOMI:
            return f"读秒 {self.periods}次{_duration_zh(self.seconds)}"
        if self.kind is OvertimeKind.CANADIAN and self.carry_over:
            return f"定时限步 {self.stones}手/{_duration_zh(self.seconds)}（节余时间累计）"
        if self.kind is OvertimeKind.CANADIAN:
            return f"加拿大读秒 {self.stones}手/{_duration_zh(self.seconds)}"
        return f"每步加{_duration_zh(self.seconds)}"


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _duration_zh(seconds: float) -> str:
    minutes, rest = divmod(seconds, 60)
    if minutes and not rest:
        return f"{int(minutes)}分钟"
    return f"{_number(seconds)}秒"


_N = r"\d{1,6}"
_S = r"\d{1,6}(?:\.\d{1,3})?"
_UNIT = r"(?P<u>秒钟?|s|分钟?|min|m)"
_TIMES = r"[x×*]"  # the text is lower-cased before matching

# Group names: p = periods, s = seconds (in unit u, seconds when absent), n = stones.
_PATTERNS: list[tuple[OvertimeKind, re.Pattern[str]]] = [
    (
        OvertimeKind.BYO_YOMI,
        re.compile(rf"(?:读秒)?(?P<p>{_N}){_TIMES}(?P<s>{_S}){_UNIT}?(?:byo-?yomi|读秒)?"),
    ),
    (OvertimeKind.BYO_YOMI, re.compile(rf"(?:读秒)?(?P<p>{_N})次(?P<s>{_S}){_UNIT}(?:读秒)?")),
    (OvertimeKind.BYO_YOMI, re.compile(rf"(?:读秒)?(?P<s>{_S}){_UNIT}(?P<p>{_N})次(?:读秒)?")),
    (
        OvertimeKind.CANADIAN,
        re.compile(rf"(?P<n>{_N})/(?P<s>{_S}){_UNIT}?(?:canadian)?(?P<c>carry-?over)?"),
    ),
    (OvertimeKind.CANADIAN, re.compile(rf"(?:加拿大读秒)?(?P<n>{_N})[手步]/?(?P<s>{_S}){_UNIT}")),
    (OvertimeKind.FISCHER, re.compile(rf"\+?(?P<s>{_S})(?:s|秒)?(?:fischer|increment)")),
    (OvertimeKind.FISCHER, re.compile(rf"fischer\+?(?P<s>{_S})(?:s|秒)?")),
]


def parse_overtime(text: str) -> Overtime | None:
    """Read an SGF ``OT`` value; ``None`` when the form is not one of the table above.

    >>> parse_overtime("1分钟5次") == Overtime(OvertimeKind.BYO_YOMI, 60, periods=5)
    True
    >>> parse_overtime("15/600 Canadian carry-over").to_zh()
    '定时限步 15手/10分钟（节余时间累计）'
    >>> parse_overtime("30 fischer").to_zh()
    '每步加30秒'
    """
    key = re.sub(r"\s+", "", text).lower()
    for kind, pattern in _PATTERNS:
        m = pattern.fullmatch(key)
        if m is None:
            continue
        groups = m.groupdict()
        seconds = float(groups["s"])
        if (groups.get("u") or "").startswith(("分", "m")):
            seconds *= 60
        periods = int(groups["p"]) if groups.get("p") else 1
        stones = int(groups["n"]) if groups.get("n") else 1
        if seconds <= 0 or periods <= 0 or stones <= 0:
            return None
        value = int(seconds) if seconds.is_integer() else seconds
        return Overtime(
            kind, value, periods=periods, stones=stones, carry_over=bool(groups.get("c"))
        )
    return None


__all__ = ["Overtime", "OvertimeKind", "parse_overtime"]
