"""Time controls and clock readings in SGF and GTP notation.

SGF (FF[4]): ``TM`` is the main time in seconds, ``OT`` the overtime as a free text that the
common servers write as ``5x60 byo-yomi`` or ``25/600 Canadian``; on a move, ``BL``/``WL`` are the
seconds left and ``OB``/``OW`` the periods (byo-yomi) or stones (Canadian) left.

GTP: ``time_settings main byo_time byo_stones`` (Canadian; ``byo_time`` 0: absolute; ``byo_stones``
0 with ``byo_time`` > 0: no limit), KGS's ``kgs-time_settings none|absolute|byoyomi|canadian …``
and ``time_left color time stones`` (``stones`` 0 while in main time).

>>> from weiqi.clock.control import TimeControl
>>> tc = TimeControl.chinese(3600)
>>> sgf_properties(tc)
{'TM': '3300', 'OT': '5x60 byo-yomi'}
>>> from_sgf("3300", "5x60 byo-yomi") == tc
True
>>> kgs_time_settings(tc)
'byoyomi 3300 60 5'
>>> from_kgs_time_settings("canadian 600 300 25".split()).format()
'10m+25/5m canadian'
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from weiqi.clock.account import View, to_ms
from weiqi.clock.clock import Clock, Status
from weiqi.clock.control import TimeControl, TimeSystem
from weiqi.errors import InputError, InvalidSetting
from weiqi.messages import Msg
from weiqi.rules.color import Color


def _n(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


# -- SGF ------------------------------------------------------------------------------------------


def sgf_properties(tc: TimeControl) -> dict[str, str]:
    """``TM`` and ``OT`` for a game's root node (none for untimed games).

    >>> sgf_properties(TimeControl.moves_per_period(3600, 15, 600))
    {'TM': '3600', 'OT': '15/600 Canadian carry-over'}
    >>> sgf_properties(TimeControl.fischer(300, 10))
    {'TM': '300', 'OT': '10 fischer'}
    """
    s = tc.system
    if s is TimeSystem.UNTIMED:
        return {}
    props = {"TM": _n(tc.main_time)}
    if s is TimeSystem.BYO_YOMI:
        props["OT"] = f"{tc.periods}x{_n(tc.period_time)} byo-yomi"
    elif s is TimeSystem.MOVES_PER_PERIOD:
        carry = " carry-over" if tc.carry_over else ""
        props["OT"] = f"{tc.moves}/{_n(tc.period_time)} Canadian{carry}"
    elif s is TimeSystem.FISCHER:
        props["OT"] = f"{_n(tc.increment)} fischer"
    return props


_NUM = r"(\d+(?:\.\d+)?)"


def from_sgf(tm: str | None, ot: str | None) -> TimeControl:
    """The time control of SGF ``TM``/``OT`` values (``None`` when absent).

    >>> from_sgf("1800", "25/600 Canadian").format()
    '30m+25/10m canadian'
    >>> from_sgf(None, None).format(), from_sgf("600", None).format()
    ('untimed', '10m')
    >>> from_sgf("600", "sudden death")
    Traceback (most recent call last):
    ...
    weiqi.errors.InputError: OT 'sudden death': expected e.g. 5x60 byo-yomi or 25/600 Canadian
    """
    try:
        main = float(tm) if tm not in (None, "") else 0.0
    except ValueError:
        raise InputError(
            Msg("TM %(tm)s", tm=repr(tm)), Msg("expected a number of seconds")
        ) from None
    if not ot or not ot.strip():
        if main == 0:
            return TimeControl.untimed()
        return _setting(lambda: TimeControl.absolute(main), "TM", tm)
    text = ot.strip().lower()
    if m := re.fullmatch(rf"(\d+)\s*x\s*{_NUM}\s*(?:byo-?yomi)?", text):
        periods, period = int(m.group(1)), float(m.group(2))
        return _setting(lambda: TimeControl.byo_yomi(main, periods, period), "OT", ot)
    if m := re.fullmatch(rf"(\d+)\s*/\s*{_NUM}\s*(?:canadian)?\s*(carry-over)?", text):
        moves, period, carry = int(m.group(1)), float(m.group(2)), m.group(3) is not None
        return _setting(
            lambda: TimeControl.moves_per_period(main, moves, period, carry_over=carry), "OT", ot
        )
    if m := re.fullmatch(rf"(?:\+?{_NUM}\s*(?:s\s*)?fischer|fischer\s*\+?{_NUM})", text):
        inc = float(m.group(1) or m.group(2))
        return _setting(lambda: TimeControl.fischer(main, inc), "OT", ot)
    raise InputError(
        Msg("OT %(ot)s", ot=repr(ot)), Msg("expected e.g. 5x60 byo-yomi or 25/600 Canadian")
    )


def _setting(make: Callable[[], TimeControl], prop: str, value: str | None) -> TimeControl:
    try:
        return make()
    except InvalidSetting as err:
        raise InputError(Msg("%(prop)s %(value)s", prop=prop, value=repr(value)), err.msg) from None


def sgf_move_times(clock: Clock, now: float, color: Color) -> dict[str, str]:
    """``BL``/``OB`` (or ``WL``/``OW``) for ``color``'s move just pressed at ``now``.

    >>> c = Clock.new(TimeControl.byo_yomi(60, 5, 30)).start(0).press(100, Color.BLACK)
    >>> sgf_move_times(c, 100, Color.BLACK)
    {'BL': '30', 'OB': '4'}
    """
    v = clock.remaining(now, color)
    letter = color.value
    if clock.tc.system is TimeSystem.UNTIMED:
        return {}
    if v.in_overtime:
        assert v.period is not None
        stones = v.periods if v.periods is not None else v.moves
        return {f"{letter}L": f"{v.period:g}", f"O{letter}": str(stones)}
    return {f"{letter}L": f"{v.main:g}"}


# -- GTP ------------------------------------------------------------------------------------------


def gtp_time_settings(tc: TimeControl) -> str:
    """Arguments of GTP ``time_settings`` (Canadian only). Byo-yomi is sent as Canadian with one
    stone per period and the periods' whole time, the closest plain GTP can say (prefer
    :func:`kgs_time_settings`); Fischer as its main time.

    >>> gtp_time_settings(TimeControl.canadian(600, 25, 300))
    '600 300 25'
    >>> gtp_time_settings(TimeControl.untimed())
    '0 1 0'
    """
    s = tc.system
    if s is TimeSystem.UNTIMED:
        return "0 1 0"
    if s is TimeSystem.MOVES_PER_PERIOD:
        return f"{_n(tc.main_time)} {_n(tc.period_time)} {tc.moves}"
    if s is TimeSystem.BYO_YOMI:
        return f"{_n(tc.main_time)} {_n(tc.period_time)} 1"
    return f"{_n(tc.main_time)} 0 0"


def from_gtp_time_settings(args: list[str]) -> TimeControl:
    """The time control of ``time_settings main byo_time byo_stones``.

    >>> from_gtp_time_settings(["300", "0", "0"]).format()
    '5m'
    >>> from_gtp_time_settings(["0", "1", "0"]).format()
    'untimed'
    """
    main, byo, stones = _gtp_numbers("time_settings", args, 3)
    if byo == 0:
        return TimeControl.untimed() if main == 0 else _gtp(TimeControl.absolute, main)
    if stones == 0:
        return TimeControl.untimed()
    return _gtp(TimeControl.canadian, main, int(stones), byo)


def kgs_time_settings(tc: TimeControl) -> str:
    """Arguments of ``kgs-time_settings``; Fischer, which KGS lacks, is sent as absolute.

    >>> kgs_time_settings(TimeControl.absolute(1800)), kgs_time_settings(TimeControl.untimed())
    ('absolute 1800', 'none')
    """
    s = tc.system
    if s is TimeSystem.UNTIMED:
        return "none"
    if s is TimeSystem.BYO_YOMI:
        return f"byoyomi {_n(tc.main_time)} {_n(tc.period_time)} {tc.periods}"
    if s is TimeSystem.MOVES_PER_PERIOD:
        return f"canadian {_n(tc.main_time)} {_n(tc.period_time)} {tc.moves}"
    return f"absolute {_n(tc.main_time)}"


def from_kgs_time_settings(args: list[str]) -> TimeControl:
    """The time control of ``kgs-time_settings none|absolute M|byoyomi M P N|canadian M P S``.

    >>> from_kgs_time_settings(["byoyomi", "0", "30", "3"]).format()
    '3x30s'
    """
    if not args:
        raise InputError("kgs-time_settings", Msg("missing the system"))
    kind, rest = args[0].lower(), args[1:]
    if kind == "none":
        return TimeControl.untimed()
    if kind == "absolute":
        (main,) = _gtp_numbers("kgs-time_settings absolute", rest, 1)
        return _gtp(TimeControl.absolute, main)
    if kind == "byoyomi":
        main, period, periods = _gtp_numbers("kgs-time_settings byoyomi", rest, 3)
        return _gtp(TimeControl.byo_yomi, main, int(periods), period)
    if kind == "canadian":
        main, period, stones = _gtp_numbers("kgs-time_settings canadian", rest, 3)
        return _gtp(TimeControl.canadian, main, int(stones), period)
    raise InputError("kgs-time_settings", Msg("unknown system %(args)s", args=repr(args[0])))


def _gtp_numbers(command: str, args: list[str], count: int) -> list[float]:
    if len(args) != count:
        raise InputError(
            command, Msg("expected %(count)s numbers, got %(args)s", count=count, args=len(args))
        )
    try:
        values = [float(a) for a in args]
    except ValueError:
        raise InputError(
            command, Msg("expected numbers, got %(args)s", args=repr(" ".join(args)))
        ) from None
    if any(v < 0 or not math.isfinite(v) for v in values):
        raise InputError(command, Msg("times and counts cannot be negative"))
    return values


def _gtp(make: Callable[..., TimeControl], *args: float) -> TimeControl:
    try:
        return make(*args)
    except InvalidSetting as err:
        raise InputError("time settings", err.msg) from None


def gtp_time_left(clock: Clock, now: float, color: Color) -> tuple[int, int] | None:
    """(time, stones) for ``time_left color time stones``: whole seconds left (rounded down) and
    the periods (byo-yomi) or stones (Canadian) left, 0 while in main time. ``None``: untimed.

    >>> c = Clock.new(TimeControl.canadian(0, 25, 600)).start(0).press(30.5, Color.BLACK)
    >>> gtp_time_left(c, 31, Color.BLACK)
    (569, 24)
    """
    if clock.tc.system is TimeSystem.UNTIMED:
        return None
    v = clock.remaining(now, color)
    if v.in_overtime:
        assert v.period is not None
        stones = v.periods if v.periods is not None else v.moves
        return math.floor(v.period), int(stones or 0)
    return math.floor(v.main), 0


def apply_time_left(clock: Clock, color: Color, time: float, stones: int) -> Clock:
    """The clock of an engine that mirrors the controller's ``time_left`` for ``color``.

    >>> c = Clock.new(TimeControl.byo_yomi(600, 5, 30))
    >>> c = apply_time_left(c, Color.WHITE, 30, 3)
    >>> v = c.remaining(0, Color.WHITE)
    >>> v.main, v.periods, v.in_overtime
    (0.0, 3, True)
    """
    if time < 0 or stones < 0:
        raise InputError("time_left", Msg("time and stones cannot be negative"))
    if clock.status is Status.RUNNING and clock.to_move is color:
        raise InputError("time_left", Msg("%(color)s's clock is running", color=color))
    tc = clock.tc
    acc = clock.account(color)
    if tc.system is TimeSystem.UNTIMED:
        return clock
    if stones == 0:
        acc = acc._replace(main=to_ms(time))
    elif tc.system is TimeSystem.BYO_YOMI:
        acc = acc._replace(main=0, periods=stones)
    elif tc.system is TimeSystem.MOVES_PER_PERIOD:
        acc = acc._replace(main=0, period=to_ms(time), moves=stones)
    else:
        acc = acc._replace(main=to_ms(time))
    return clock.set_account(color, acc)


#: The GTP commands an engine answers with :class:`GtpTime`.
GTP_TIME_COMMANDS = ("time_settings", "kgs-time_settings", "time_left")


@dataclass(frozen=True)
class GtpTime:
    """What a GTP engine knows about time: the settings and both sides' time left, as the
    controller told it. Untimed until told otherwise.

    >>> t = GtpTime().apply("kgs-time_settings", ["byoyomi", "600", "30", "5"])
    >>> t = t.apply("time_left", ["white", "25", "3"])
    >>> t.clock.tc.format(), t.remaining(Color.WHITE).periods, t.remaining(Color.BLACK).main
    ('10m+5x30s', 3, 600.0)
    >>> GtpTime().apply("time_left", ["purple", "1", "0"])
    Traceback (most recent call last):
    ...
    weiqi.errors.InputError: time_left: unknown colour 'purple'
    """

    clock: Clock = field(default_factory=lambda: Clock.new(TimeControl.untimed()))

    def apply(self, command: str, args: list[str]) -> GtpTime:
        """The state after one of :data:`GTP_TIME_COMMANDS`; bad arguments raise InputError."""
        if command == "time_settings":
            return GtpTime(Clock.new(from_gtp_time_settings(args)))
        if command == "kgs-time_settings":
            return GtpTime(Clock.new(from_kgs_time_settings(args)))
        if command == "time_left":
            if len(args) != 3:
                raise InputError("time_left", Msg("expected colour, time and stones"))
            color = _gtp_color(args[0])
            time, stones = _gtp_numbers("time_left", args[1:], 2)
            if not stones.is_integer():
                raise InputError(
                    "time_left",
                    Msg("stones must be a whole number, not %(args)s", args=repr(args[2])),
                )
            return GtpTime(apply_time_left(self.clock, color, time, int(stones)))
        raise InputError(command, Msg("not a time command"))

    def remaining(self, color: Color) -> View:
        """``color``'s time as last told (the engine's mirror never runs)."""
        return self.clock.remaining(0.0, color)


def _gtp_color(text: str) -> Color:
    key = text.lower()
    if key in ("b", "black"):
        return Color.BLACK
    if key in ("w", "white"):
        return Color.WHITE
    raise InputError("time_left", Msg("unknown colour %(text)s", text=repr(text)))


__all__ = [
    "GTP_TIME_COMMANDS",
    "GtpTime",
    "apply_time_left",
    "from_gtp_time_settings",
    "from_kgs_time_settings",
    "from_sgf",
    "gtp_time_left",
    "gtp_time_settings",
    "kgs_time_settings",
    "sgf_move_times",
    "sgf_properties",
]
