"""Time controls: one value per event setting of the time system (RULES.md §5).

A :class:`TimeControl` names its ``system`` and carries only the fields that system uses; every
other field stays zero, so a stored setting means exactly one thing. Times are seconds.

>>> tc = TimeControl.chinese(limit=3600, reserved=5, period=60)  # R-TIME-2: 5 min reserved
>>> tc.main_time, tc.periods, tc.period_time
(3300.0, 5, 60.0)
>>> tc.format()
'55m+5x60s'
>>> TimeControl.parse("60m incl 5x60s") == tc
True
>>> TimeControl.parse("3x30s").main_time  # a quick event: byo-yomi only
0.0
>>> TimeControl.parse("60m+15/10m").describe_zh()
'基本时限1小时，之后每10分限着15手（节余时间累计）'
>>> TimeControl.chinese(limit=240, reserved=5, period=60)
Traceback (most recent call last):
...
weiqi.errors.InvalidSetting: reserved: 5 × 60 s = 300 s is more than the time limit of 240 s
"""

from __future__ import annotations

import enum
import math
import re
from dataclasses import asdict, dataclass
from typing import Any

from weiqi.errors import InvalidSetting
from weiqi.messages import Msg

#: The longest main time, period or increment a setting may give (100 hours): beyond it a
#: setting is a typo, and the clock's arithmetic would lose its precision.
MAX_SECONDS = 100 * 3600


class TimeSystem(enum.Enum):
    """The time systems an event can choose."""

    UNTIMED = "untimed"  # 不计时
    ABSOLUTE = "absolute"  # 包干用时制 (R-TIME-1)
    BYO_YOMI = "byo_yomi"  # 基本时限 + 读秒 (R-TIME-2)
    MOVES_PER_PERIOD = "moves_per_period"  # 定时限步制 (R-TIME-4); Canadian when not carried over
    FISCHER = "fischer"  # increment per move; not in the rules, expected online

    @property
    def msg(self) -> Msg:
        """The system's name as a message (translated where it is shown)."""
        return _SYSTEM_NAMES[self]


_SYSTEM_NAMES = {
    TimeSystem.UNTIMED: Msg("untimed"),
    TimeSystem.ABSOLUTE: Msg("absolute"),
    TimeSystem.BYO_YOMI: Msg("byo_yomi"),
    TimeSystem.MOVES_PER_PERIOD: Msg("moves_per_period"),
    TimeSystem.FISCHER: Msg("fischer"),
}


@dataclass(frozen=True)
class TimeControl:
    """One time system with its parameters (seconds).

    - ``main_time``: time before any overtime (for byo-yomi: what is left of the time limit after
      the reserved periods are taken out).
    - ``periods`` × ``period_time``: byo-yomi periods; a move under one period costs nothing, every
      full period used costs one (R-TIME-2).
    - ``moves`` per ``period_time``: moves-per-period; ``carry_over`` keeps the time left at the
      end of a period for the next one (R-TIME-4); without it the system is Canadian byo-yomi.
    - ``increment``: Fischer time added after every move.
    - ``timeout_pass``: the event lets a player whose last period ran out ask for a forfeited turn
      (弃权一次) instead of the loss (Art. 22.5); the per-incident choice is
      :meth:`weiqi.clock.Clock.forfeit_turn`.
    """

    system: TimeSystem
    main_time: float = 0.0
    periods: int = 0
    period_time: float = 0.0
    moves: int = 0
    increment: float = 0.0
    carry_over: bool = False
    timeout_pass: bool = False

    def __post_init__(self) -> None:
        for name in ("main_time", "period_time", "increment"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise InvalidSetting(
                    name, Msg("must be a number of seconds, not %(value)s", value=repr(value))
                )
            if not math.isfinite(value) or value < 0:
                raise InvalidSetting(
                    name, Msg("must be a finite number of seconds >= 0, not %(value)s", value=value)
                )
            if value > MAX_SECONDS:  # 99999999999999999999m is a typo, not a time control
                raise InvalidSetting(
                    name,
                    Msg(
                        "must be at most %(value)s hours, not %(value2)s s",
                        value=MAX_SECONDS // 3600,
                        value2=f"{value:.6g}",
                    ),
                )
            object.__setattr__(self, name, float(value))
        for name in ("periods", "moves"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidSetting(
                    name, Msg("must be a whole number, not %(value)s", value=repr(value))
                )
            if value < 0:
                raise InvalidSetting(name, Msg("must be >= 0, not %(value)s", value=value))
        used = _FIELDS_USED[self.system]
        for name in ("main_time", "periods", "period_time", "moves", "increment"):
            if name not in used and getattr(self, name):
                raise InvalidSetting(
                    name, Msg("is not used by %(system)s time", system=self.system.msg)
                )
        if self.carry_over and self.system is not TimeSystem.MOVES_PER_PERIOD:
            raise InvalidSetting("carry_over", Msg("applies only to moves-per-period time"))
        if self.timeout_pass and self.system is not TimeSystem.BYO_YOMI:
            raise InvalidSetting("timeout_pass", Msg("applies only to byo-yomi"))
        if self.system in (TimeSystem.ABSOLUTE, TimeSystem.FISCHER) and self.main_time <= 0:
            raise InvalidSetting(
                "main_time",
                Msg("must be more than 0 for %(system)s time", system=self.system.msg),
            )
        if self.system is TimeSystem.FISCHER and self.increment <= 0:
            raise InvalidSetting("increment", Msg("must be more than 0 (else use absolute time)"))
        if self.system is TimeSystem.BYO_YOMI and self.periods < 1:
            raise InvalidSetting("periods", Msg("byo-yomi needs at least one period"))
        if self.system is TimeSystem.MOVES_PER_PERIOD and self.moves < 1:
            raise InvalidSetting("moves", Msg("a period needs at least one move"))
        if (
            self.system in (TimeSystem.BYO_YOMI, TimeSystem.MOVES_PER_PERIOD)
            and self.period_time <= 0
        ):
            raise InvalidSetting("period_time", Msg("must be more than 0 seconds"))

    # -- constructors -------------------------------------------------------------------------

    @classmethod
    def untimed(cls) -> TimeControl:
        return cls(TimeSystem.UNTIMED)

    @classmethod
    def absolute(cls, main_time: float) -> TimeControl:
        """包干用时制 (R-TIME-1): ``main_time`` for the whole game; running out loses."""
        return cls(TimeSystem.ABSOLUTE, main_time=main_time)

    @classmethod
    def byo_yomi(
        cls, main_time: float, periods: int, period_time: float, *, timeout_pass: bool = False
    ) -> TimeControl:
        """``main_time`` and then ``periods`` byo-yomi periods (the quick forms: main time 0)."""
        return cls(
            TimeSystem.BYO_YOMI,
            main_time=main_time,
            periods=periods,
            period_time=period_time,
            timeout_pass=timeout_pass,
        )

    @classmethod
    def chinese(
        cls,
        limit: float,
        reserved: int = 5,
        period: float = 60.0,
        *,
        timeout_pass: bool = False,
    ) -> TimeControl:
        """R-TIME-2 as the rules say it: a time limit out of which ``reserved`` periods are kept.

        >>> TimeControl.chinese(3600).main_time
        3300.0
        """
        if isinstance(reserved, bool) or not isinstance(reserved, int) or reserved < 1:
            raise InvalidSetting(
                "reserved",
                Msg("must be a whole number >= 1, not %(reserved)s", reserved=repr(reserved)),
            )
        if not isinstance(period, int | float) or not period > 0:
            raise InvalidSetting(
                "period_time",
                Msg("must be more than 0 seconds, not %(period)s", period=repr(period)),
            )
        if not isinstance(limit, int | float) or not math.isfinite(limit) or limit < 0:
            raise InvalidSetting(
                "limit", Msg("must be a finite number of seconds >= 0, not %(limit)s", limit=limit)
            )
        if reserved * period > limit:
            raise InvalidSetting(
                "reserved",
                Msg(
                    "%(reserved)s × %(period)s s = %(num)s s is more than the time "
                    "limit of %(limit)s s",
                    reserved=reserved,
                    period=_num(period),
                    num=_num(reserved * period),
                    limit=_num(limit),
                ),
            )
        return cls.byo_yomi(limit - reserved * period, reserved, period, timeout_pass=timeout_pass)

    @classmethod
    def moves_per_period(
        cls, main_time: float, moves: int, period_time: float, *, carry_over: bool = True
    ) -> TimeControl:
        """定时限步制 (R-TIME-4), e.g. 15 moves per 10 minutes after the main time."""
        return cls(
            TimeSystem.MOVES_PER_PERIOD,
            main_time=main_time,
            moves=moves,
            period_time=period_time,
            carry_over=carry_over,
        )

    @classmethod
    def canadian(cls, main_time: float, moves: int, period_time: float) -> TimeControl:
        """Canadian byo-yomi (GTP ``time_settings``): moves-per-period, nothing carried over."""
        return cls.moves_per_period(main_time, moves, period_time, carry_over=False)

    @classmethod
    def fischer(cls, main_time: float, increment: float) -> TimeControl:
        return cls(TimeSystem.FISCHER, main_time=main_time, increment=increment)

    # -- facts --------------------------------------------------------------------------------

    @property
    def time_limit(self) -> float:
        """基本时限 as the rules count it: main time plus the reserved byo-yomi periods."""
        if self.system is TimeSystem.BYO_YOMI:
            return self.main_time + self.periods * self.period_time
        return self.main_time

    # -- settings strings ---------------------------------------------------------------------

    def format(self) -> str:
        """The canonical settings string, read back by :meth:`parse`.

        >>> [TimeControl.parse(s).format() for s in
        ...  ["none", "1h30m", "0+3x30s", "60m+25/10m canadian", "5m+10s/move"]]
        ['untimed', '1h30m', '3x30s', '1h+25/10m canadian', '5m+10s/move']
        """
        s = self.system
        if s is TimeSystem.UNTIMED:
            return "untimed"
        if s is TimeSystem.ABSOLUTE:
            return format_duration(self.main_time)
        if s is TimeSystem.FISCHER:
            return f"{format_duration(self.main_time)}+{format_duration(self.increment)}/move"
        if s is TimeSystem.BYO_YOMI:
            tail = f"{self.periods}x{_period(self.period_time)}"
            if self.timeout_pass:
                tail += " pass"
        else:
            tail = f"{self.moves}/{format_duration(self.period_time)}"
            if not self.carry_over:
                tail += " canadian"
        return f"{format_duration(self.main_time)}+{tail}" if self.main_time else tail

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """Read a settings string.

        - ``untimed`` (or ``none``)
        - ``90m``, ``1h30m``: absolute time
        - ``55m+5x60s``: main time, then 5 periods of 60 s; ``3x30s``: periods only (quick)
        - ``60m incl 5x60s``: the rules' way, 5 periods reserved out of 60 minutes (= ``55m+5x60s``)
        - a trailing ``pass``: the event allows a forfeited turn when the last period runs out
        - ``60m+15/10m``: 15 moves per 10 minutes, leftover carried over; ``… canadian``: not
        - ``5m+10s/move``: Fischer increment

        >>> TimeControl.parse("1h incl 5x1m pass").timeout_pass
        True
        >>> TimeControl.parse("5x0s")
        Traceback (most recent call last):
        ...
        weiqi.errors.InvalidSetting: period_time: must be more than 0 seconds
        """
        raw = " ".join(text.strip().lower().split())
        if raw in {"untimed", "none", "不计时", "无"}:
            return cls.untimed()
        flags = set()
        for word in ("pass", "canadian"):
            if raw.endswith(" " + word):
                flags.add(word)
                raw = raw[: -len(word) - 1].strip()
        m = re.fullmatch(r"(.+?)\s+incl\.?\s+(\d+)\s*x\s*(.+)", raw)
        if m:
            _no_flag(flags, "canadian", text)
            return cls.chinese(
                parse_duration(m.group(1)),
                int(m.group(2)),
                parse_duration(m.group(3)),
                timeout_pass="pass" in flags,
            )
        main_text, plus, tail = raw.partition("+")
        if not plus:
            main_text, tail = "", raw
            if re.fullmatch(r"\d+\s*x.*|\d+\s*/.*", raw) is None:
                main_text, tail = raw, ""
        main = parse_duration(main_text) if main_text else 0.0
        if not tail:
            if flags:
                raise InvalidSetting(
                    "time control",
                    Msg(
                        "%(text)s: %(flags)s needs periods", text=repr(text), flags=" ".join(flags)
                    ),
                )
            return cls.absolute(main)
        if m := re.fullmatch(r"(\d+)\s*x\s*(.+)", tail):
            _no_flag(flags, "canadian", text)
            return cls.byo_yomi(
                main, int(m.group(1)), parse_duration(m.group(2)), timeout_pass="pass" in flags
            )
        if m := re.fullmatch(r"(.+?)\s*/\s*move", tail):
            if flags:
                raise InvalidSetting(
                    "time control", Msg("%(text)s: Fischer time takes no flags", text=repr(text))
                )
            return cls.fischer(main, parse_duration(m.group(1)))
        if m := re.fullmatch(r"(\d+)\s*/\s*(.+)", tail):
            _no_flag(flags, "pass", text)
            return cls.moves_per_period(
                main,
                int(m.group(1)),
                parse_duration(m.group(2)),
                carry_over="canadian" not in flags,
            )
        raise InvalidSetting(
            "time control",
            Msg(
                "cannot read %(text)s; expected e.g. 90m, 55m+5x60s, 60m incl "
                "5x60s, 3x30s, 60m+15/10m, 5m+10s/move or untimed",
                text=repr(text),
            ),
        )

    # -- descriptions -------------------------------------------------------------------------

    def describe_zh(self) -> str:
        """The setting in Chinese, as an event announcement would state it."""
        s = self.system
        if s is TimeSystem.UNTIMED:
            return "不计时"
        main = f"基本时限{_zh_duration(self.main_time)}"
        if s is TimeSystem.ABSOLUTE:
            return f"包干用时制，{main}"
        if s is TimeSystem.FISCHER:
            return f"{main}，每手加{_zh_duration(self.increment)}"
        if s is TimeSystem.BYO_YOMI:
            each = (
                f"{_num(self.period_time)}秒"
                if self.period_time <= 60
                else _zh_duration(self.period_time)
            )
            text = f"读秒{self.periods}次，每次{each}"
            text = f"{main}，{text}" if self.main_time else text
            return text + ("（超时可申请弃权一次）" if self.timeout_pass else "")
        rest = "节余时间累计" if self.carry_over else "节余时间不累计"
        per = f"每{_zh_duration(self.period_time)}限着{self.moves}手（{rest}）"
        return f"{main}，之后{per}" if self.main_time else per

    def describe_en(self) -> str:
        """The setting in English.

        >>> TimeControl.chinese(3600).describe_en()
        '55 min main time, then 5 × 60 s byo-yomi'
        """
        s = self.system
        if s is TimeSystem.UNTIMED:
            return "untimed"
        main = f"{_en_duration(self.main_time)} main time"
        if s is TimeSystem.ABSOLUTE:
            return f"absolute time, {_en_duration(self.main_time)}"
        if s is TimeSystem.FISCHER:
            return f"{main}, {_en_duration(self.increment)} added per move"
        if s is TimeSystem.BYO_YOMI:
            text = f"{self.periods} × {_en_duration(self.period_time)} byo-yomi"
            text = f"{main}, then {text}" if self.main_time else text
            return text + (" (a forfeited turn on request)" if self.timeout_pass else "")
        rest = "leftover carried over" if self.carry_over else "Canadian, no carry-over"
        per = f"{self.moves} moves per {_en_duration(self.period_time)} ({rest})"
        return f"{main}, then {per}" if self.main_time else per

    # -- plain data ---------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; :meth:`from_dict` reads it back.

        >>> TimeControl.from_dict(TimeControl.chinese(3600).to_dict()) == TimeControl.chinese(3600)
        True
        """
        data = asdict(self)
        data["system"] = self.system.value
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TimeControl:
        try:
            system = TimeSystem(data["system"])
        except (KeyError, ValueError):
            raise InvalidSetting(  # named apart from an event's system (赛制)
                "time_system", Msg("unknown time system %(get)s", get=repr(data.get("system")))
            ) from None
        fields = {k: v for k, v in data.items() if k != "system"}
        unknown = set(fields) - set(cls.__dataclass_fields__)
        if unknown:
            raise InvalidSetting(sorted(unknown)[0], Msg("is not a time-control field"))
        return cls(system, **fields)


_FIELDS_USED = {
    TimeSystem.UNTIMED: set(),
    TimeSystem.ABSOLUTE: {"main_time"},
    TimeSystem.BYO_YOMI: {"main_time", "periods", "period_time"},
    TimeSystem.MOVES_PER_PERIOD: {"main_time", "moves", "period_time"},
    TimeSystem.FISCHER: {"main_time", "increment"},
}


def _no_flag(flags: set[str], flag: str, text: str) -> None:
    if flag in flags:
        raise InvalidSetting(
            "time control",
            Msg("%(text)s: %(flag)s does not fit this system", text=repr(text), flag=repr(flag)),
        )


def _period(seconds: float) -> str:
    # Byo-yomi periods are said in seconds ("60秒一手"), longer periods in minutes.
    return f"{_num(seconds)}s" if seconds <= 60 else format_duration(seconds)


def _num(x: float) -> str:
    return f"{x:g}"


_DURATION = re.compile(r"(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m(?:in)?)?(?:(\d+(?:\.\d+)?)s?)?")


def parse_duration(text: str) -> float:
    """Seconds from ``1h30m``, ``55m``, ``60s``, ``27.5s`` or a bare number of seconds.

    >>> parse_duration("1h30m"), parse_duration("27.5s"), parse_duration("300")
    (5400.0, 27.5, 300.0)
    """
    raw = text.strip().lower().replace(" ", "")
    m = _DURATION.fullmatch(raw)
    if not raw or m is None or not any(m.groups()):
        raise InvalidSetting(
            "time control", Msg("cannot read the duration %(text)s", text=repr(text))
        )
    h, mi, s = (float(g) if g else 0.0 for g in m.groups())
    return h * 3600 + mi * 60 + s


def format_duration(seconds: float) -> str:
    """The shortest settings form of a duration.

    >>> format_duration(3300), format_duration(5400), format_duration(90), format_duration(27.5)
    ('55m', '1h30m', '1m30s', '27.5s')
    >>> format_duration(0)
    '0s'
    """
    if seconds <= 0:
        return "0s"
    whole = int(seconds)
    frac = seconds - whole
    h, rest = divmod(whole, 3600)
    m, s = divmod(rest, 60)
    parts = []
    if h:
        parts.append(f"{h}h")
    if m:
        parts.append(f"{m}m")
    if s or frac:
        parts.append(f"{_num(s + frac)}s")
    return "".join(parts)


def _zh_duration(seconds: float) -> str:
    if seconds and seconds % 3600 == 0:
        return f"{_num(seconds / 3600)}小时"
    if seconds and seconds % 60 == 0:
        return f"{_num(seconds / 60)}分"
    return f"{_num(seconds)}秒"


def _en_duration(seconds: float) -> str:
    if seconds and seconds % 3600 == 0:
        return f"{_num(seconds / 3600)} h"
    if seconds and seconds % 60 == 0 and seconds != 60:
        return f"{_num(seconds / 60)} min"
    return f"{_num(seconds)} s"
