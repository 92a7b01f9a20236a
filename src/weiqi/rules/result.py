"""One result value for every way a game can end (R-SCORE-4, R-END-1).

Margins are kept in stones (子) as exact fractions with quarter precision; SGF and English
notation use points, one stone being two points.

>>> from fractions import Fraction
>>> r = Result.by_count(Color.BLACK, Fraction(3, 4))
>>> r.to_zh(), r.to_sgf()
('黑胜3/4子', 'B+1.5')
>>> Result.parse("W+2.5").to_zh()
'白胜1又1/4子'
>>> Result.parse("B+R").to_zh(), Result.parse("W+T").to_zh()
('黑中盘胜', '白超时胜')
>>> Result.parse("0").to_zh(), Result.parse("BL").to_zh()
('和棋', '双方均负')
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from fractions import Fraction

from weiqi.errors import InputError
from weiqi.messages import Msg
from weiqi.rules.color import Color


class Outcome(enum.Enum):
    """How a finished game stands."""

    WIN = "win"
    DRAW = "draw"  # 和棋
    BOTH_LOSE = "both_lose"  # 双方均负
    # 双方均胜: not a result of the Chinese rules; OpenGotha and EGF files have it (a referee
    # or an organiser giving both players the win), so imported events keep it
    BOTH_WIN = "both_win"
    NO_RESULT = "no_result"  # 无胜负 (SGF "Void")
    REPLAY = "replay"  # 重赛


class Reason(enum.Enum):
    """Why a game was won (only for ``Outcome.WIN``)."""

    COUNT = "count"  # 数子
    RESIGNATION = "resignation"  # 中盘胜
    TIME = "time"  # 超时胜
    FORFEIT = "forfeit"  # 不战胜: absence, late arrival past the limit
    RULING = "ruling"  # 判胜: the opponent lost by a referee decision (second warning, cheating…)
    # a win whose reason the record does not say (SGF ``B+``; an OpenGotha or EGF result file)
    UNSPECIFIED = "unspecified"


_SGF_REASON = {
    Reason.RESIGNATION: "R",
    Reason.TIME: "T",
    Reason.FORFEIT: "F",
    Reason.RULING: "F",  # SGF has no separate code for a loss by ruling
    Reason.UNSPECIFIED: "",  # SGF's ``B+``: Black won, how is not said
}


_NO_WINNER = {
    Outcome.DRAW: ("和棋", "Draw"),
    Outcome.BOTH_LOSE: ("双方均负", "Both lose"),
    Outcome.BOTH_WIN: ("双方均胜", "Both win"),
    Outcome.NO_RESULT: ("无胜负", "No result"),
    Outcome.REPLAY: ("重赛", "Replay"),
}
"""The outcomes without a winner and their names (Chinese as the rules write them, English)."""


SHEET_CODES = ("B+R", "W+T", "B+F", "W+J", "B+3.5", "W+", "0", "BL", "Void", "Replay", "BW")
"""The codes a result sheet accepts, one of each kind, in the order its legend lists them;
each also in its Chinese notation (:meth:`Result.to_zh`), which is accepted as well.

>>> [Result.parse(code).to_zh() for code in SHEET_CODES[:5]]
['黑中盘胜', '白超时胜', '黑不战胜', '白胜(黑判负)', '黑胜1又3/4子']
"""

MAX_MARGIN_POINTS = 1000
"""No count can be won by more: 625 points on the largest board (25×25), komi at most 50 stones,
handicap compensation and penalties a few stones more. A larger margin is a typo or junk
(``W+1e999`` was stored as a 1,000-digit number)."""


def format_stones_zh(stones: Fraction) -> str:
    """Render a margin in stones the Chinese way: ``3/4``, ``1又1/4``, ``2``.

    >>> format_stones_zh(Fraction(5, 4))
    '1又1/4'
    >>> format_stones_zh(Fraction(1, 2))
    '1/2'
    """
    whole, rest = divmod(stones, 1)
    if rest == 0:
        return str(int(whole))
    frac = f"{rest.numerator}/{rest.denominator}"
    return f"{int(whole)}又{frac}" if whole else frac


def format_points(points: Fraction) -> str:
    """Render a point margin as SGF does: ``1.5``, ``2``.

    >>> format_points(Fraction(3, 2)), format_points(Fraction(2))
    ('1.5', '2')
    """
    if points.denominator == 1:
        return str(points.numerator)
    return f"{float(points):g}"


@dataclass(frozen=True)
class Result:
    """The result of one game.

    ``winner`` is set only when ``outcome`` is ``WIN``; ``margin`` (stones) only for wins by count.
    """

    outcome: Outcome
    winner: Color | None = None
    reason: Reason | None = None
    margin: Fraction | None = None

    def __post_init__(self) -> None:
        if (self.outcome is Outcome.WIN) != (self.winner is not None):
            raise ValueError("a winner is given exactly when the outcome is a win")
        if (self.outcome is Outcome.WIN) != (self.reason is not None):
            raise ValueError("a reason is given exactly when the outcome is a win")
        if (self.margin is not None) != (self.reason is Reason.COUNT):
            raise ValueError("a margin is given exactly for wins by count")
        if self.margin is not None and self.margin <= 0:
            raise ValueError("a winning margin is positive")

    # -- constructors -------------------------------------------------------------------------

    @classmethod
    def by_count(cls, winner: Color, margin: Fraction) -> Result:
        return cls(Outcome.WIN, winner, Reason.COUNT, Fraction(margin))

    @classmethod
    def win(cls, winner: Color, reason: Reason) -> Result:
        """A win not by count: resignation, time, forfeit or ruling."""
        if reason is Reason.COUNT:
            raise ValueError("use Result.by_count for a win by count")
        return cls(Outcome.WIN, winner, reason)

    @classmethod
    def draw(cls) -> Result:
        return cls(Outcome.DRAW)

    @classmethod
    def both_lose(cls) -> Result:
        return cls(Outcome.BOTH_LOSE)

    @classmethod
    def both_win(cls) -> Result:
        """双方均胜, as other programs' files have it (not in the Chinese rules).

        >>> Result.both_win().to_code(), Result.parse("双方均胜").to_en()
        ('BW', 'Both win')
        """
        return cls(Outcome.BOTH_WIN)

    @classmethod
    def no_result(cls) -> Result:
        return cls(Outcome.NO_RESULT)

    @classmethod
    def replay(cls) -> Result:
        return cls(Outcome.REPLAY)

    @classmethod
    def from_counts(cls, black_minus_threshold: Fraction) -> Result:
        """Result of a counted game from Black's count minus Black's winning threshold.

        >>> Result.from_counts(Fraction(3, 4)).to_zh()
        '黑胜3/4子'
        >>> Result.from_counts(Fraction(-1, 4)).to_zh()
        '白胜1/4子'
        >>> Result.from_counts(Fraction(0)).to_zh()
        '和棋'
        """
        if black_minus_threshold > 0:
            return cls.by_count(Color.BLACK, black_minus_threshold)
        if black_minus_threshold < 0:
            return cls.by_count(Color.WHITE, -black_minus_threshold)
        return cls.draw()

    # -- notation -----------------------------------------------------------------------------

    @property
    def loser(self) -> Color | None:
        return self.winner.opponent if self.winner is not None else None

    def to_sgf(self) -> str:
        """SGF ``RE``: ``B+1.5``, ``W+R``, ``B+T``, ``B+F``, ``0``; ``Void`` for no result, both
        lose and replay (SGF knows no finer code; use :meth:`to_code` to keep the distinction)."""
        if self.outcome is Outcome.DRAW:
            return "0"
        if self.outcome is not Outcome.WIN:
            return "Void"
        assert self.winner is not None and self.reason is not None
        if self.reason is Reason.COUNT:
            assert self.margin is not None
            return f"{self.winner.value}+{format_points(self.margin * 2)}"
        return f"{self.winner.value}+{_SGF_REASON[self.reason]}"

    def to_code(self) -> str:
        """Our own lossless notation: SGF ``RE`` plus ``BL`` (both lose), ``Replay`` and
        ``B+J``/``W+J`` for a win by referee ruling (判负 of the opponent)."""
        if self.outcome is Outcome.BOTH_LOSE:
            return "BL"
        if self.outcome is Outcome.BOTH_WIN:
            return "BW"
        if self.outcome is Outcome.REPLAY:
            return "Replay"
        if self.reason is Reason.RULING:
            assert self.winner is not None
            return f"{self.winner.value}+J"
        return self.to_sgf()

    def to_zh(self) -> str:
        """Chinese notation as the rules write it."""
        if self.outcome in _NO_WINNER:
            return _NO_WINNER[self.outcome][0]
        assert self.winner is not None and self.loser is not None
        w = self.winner.zh
        if self.reason is Reason.COUNT:
            assert self.margin is not None
            return f"{w}胜{format_stones_zh(self.margin)}子"
        if self.reason is Reason.RESIGNATION:
            return f"{w}中盘胜"
        if self.reason is Reason.TIME:
            return f"{w}超时胜"
        if self.reason is Reason.FORFEIT:
            return f"{w}不战胜"
        if self.reason is Reason.UNSPECIFIED:
            return f"{w}胜"
        return f"{w}胜({self.loser.zh}判负)"

    def to_en(self) -> str:
        """English notation, margins in stones as the rules count them."""
        if self.outcome in _NO_WINNER:
            return _NO_WINNER[self.outcome][1]
        assert self.winner is not None and self.loser is not None
        w = self.winner.en
        if self.reason is Reason.COUNT:
            assert self.margin is not None
            whole, rest = divmod(self.margin, 1)
            parts = [str(int(whole))] if whole else []
            if rest:
                parts.append(f"{rest.numerator}/{rest.denominator}")
            unit = "stone" if self.margin <= 1 else "stones"
            return f"{w} wins by {' '.join(parts)} {unit}"
        if self.reason is Reason.UNSPECIFIED:
            return f"{w} wins"
        words = {
            Reason.RESIGNATION: "by resignation",
            Reason.TIME: "on time",
            Reason.FORFEIT: "by forfeit",
            Reason.RULING: f"by ruling ({self.loser.en} loses)",
        }
        assert self.reason is not None
        return f"{w} wins {words[self.reason]}"

    def __str__(self) -> str:
        return self.to_code()

    # -- parsing ------------------------------------------------------------------------------

    @classmethod
    def parse(cls, text: str) -> Result:
        """Parse SGF ``RE`` or our own codes (see :meth:`to_code`).

        Accepts ``B+1.5``, ``W+R``/``W+Resign``, ``B+T``/``B+Time``, ``B+F``/``B+Forfeit``,
        ``B+J``, ``B+`` (a win, how not said), ``0``/``Draw``, ``Void``, ``BL``, ``BW`` (both
        win), ``Replay`` — and the Chinese notation of :meth:`to_zh` (``黑中盘胜``,
        ``白胜1又1/4子`` …). A margin must be a multiple of half a point (a quarter stone).

        >>> Result.parse("W+Resign").to_code()
        'W+R'
        >>> Result.parse("B+").to_zh(), Result.parse("w+").to_code()
        ('黑胜', 'W+')
        >>> Result.parse("B+0.7")
        Traceback (most recent call last):
        ...
        weiqi.errors.InputError: result 'B+0.7': margin must be a multiple of 0.5 points
        >>> Result.parse("W+1e999")
        Traceback (most recent call last):
        ...
        weiqi.errors.InputError: result 'W+1e999': margin must be at most 1000 points
        """
        raw = text.strip()
        key = raw.lower()
        if key in {"0", "draw", "jigo", "和棋"}:
            return cls.draw()
        if key in {"void", "无胜负"}:
            return cls.no_result()
        if key in {"bl", "both-lose", "双方均负"}:
            return cls.both_lose()
        if key in {"bw", "both-win", "双方均胜"}:
            return cls.both_win()
        if key in {"replay", "重赛"}:
            return cls.replay()
        if raw[:1] in ("黑", "白"):
            return cls._parse_zh(raw)
        m = re.fullmatch(r"([bw])\+(.*)", key)
        if not m:
            raise InputError(
                Msg("result %(raw)s", raw=repr(raw)),
                Msg("expected B+n, W+n, B+R, W+T, B+F, 0 (draw), Void, BL or Replay"),
            )
        winner = Color(m.group(1).upper())
        tail = m.group(2)
        named = {
            "r": Reason.RESIGNATION,
            "resign": Reason.RESIGNATION,
            "t": Reason.TIME,
            "time": Reason.TIME,
            "f": Reason.FORFEIT,
            "forfeit": Reason.FORFEIT,
            "j": Reason.RULING,
            "": Reason.UNSPECIFIED,
        }
        if tail in named:
            return cls.win(winner, named[tail])
        try:
            points = Fraction(tail)
        except (ValueError, ZeroDivisionError):
            raise InputError(
                Msg("result %(raw)s", raw=repr(raw)),
                Msg("unknown margin or reason %(tail)s", tail=repr(tail)),
            ) from None
        if points <= 0:
            raise InputError(Msg("result %(raw)s", raw=repr(raw)), Msg("margin must be positive"))
        if (points * 2).denominator != 1:
            raise InputError(
                Msg("result %(raw)s", raw=repr(raw)),
                Msg("margin must be a multiple of 0.5 points"),
            )
        if points > MAX_MARGIN_POINTS:
            raise InputError(
                Msg("result %(raw)s", raw=repr(raw)),
                Msg(
                    "margin must be at most %(MAX_MARGIN_POINTS)s points",
                    MAX_MARGIN_POINTS=MAX_MARGIN_POINTS,
                ),
            )
        return cls.by_count(winner, points / 2)

    @classmethod
    def _parse_zh(cls, raw: str) -> Result:
        """The Chinese notation :meth:`to_zh` writes: ``黑中盘胜``, ``白超时胜``, ``黑不战胜``,
        ``白胜(黑判负)``, ``黑胜1又1/4子`` (a margin in quarter stones).

        >>> [Result.parse(t).to_code() for t in ("黑中盘胜", "白胜1又1/4子", "黑胜（白判负）")]
        ['B+R', 'W+2.5', 'B+J']
        """
        text = raw.replace(" ", "").replace("（", "(").replace("）", ")")
        winner = Color.BLACK if text[0] == "黑" else Color.WHITE
        rest = text[1:]
        named = {
            "中盘胜": Reason.RESIGNATION,
            "超时胜": Reason.TIME,
            "不战胜": Reason.FORFEIT,
            "胜": Reason.UNSPECIFIED,
        }
        if rest in named:
            return cls.win(winner, named[rest])
        if rest == f"胜({winner.opponent.zh}判负)":
            return cls.win(winner, Reason.RULING)
        m = re.fullmatch(r"胜(?:(\d+)又)?(\d+(?:/\d+)?)子", rest)
        if not m:
            raise InputError(
                Msg("result %(raw)s", raw=repr(raw)),
                Msg("expected 黑中盘胜, 白超时胜, 黑不战胜, 白胜(黑判负) or 黑胜1又1/4子"),
            )
        try:
            stones = Fraction(m.group(2)) + int(m.group(1) or 0)
        except ZeroDivisionError:
            raise InputError(
                Msg("result %(raw)s", raw=repr(raw)), Msg("a margin cannot divide by zero")
            ) from None
        if stones <= 0:
            raise InputError(Msg("result %(raw)s", raw=repr(raw)), Msg("margin must be positive"))
        if (stones * 4).denominator != 1:
            raise InputError(
                Msg("result %(raw)s", raw=repr(raw)), Msg("margin must be a multiple of 1/4 stone")
            )
        if stones * 2 > MAX_MARGIN_POINTS:
            raise InputError(
                Msg("result %(raw)s", raw=repr(raw)),
                Msg("margin must be at most %(value)s stones", value=MAX_MARGIN_POINTS // 2),
            )
        return cls.by_count(winner, stones)
