"""The voice clock page's model: a time control compiled for ``static/clock.js``, and the replay
of the page's event log through :mod:`weiqi.clock` (Art. 12.1 prefers an electronic voice timer).

The browser runs the clock by itself (a phone on the table must not wait for the network), but
it decides nothing by its own rules: :func:`plan` hands it the numbers of :mod:`weiqi.clock` —
the starting account in milliseconds, every byo-yomi call-out with its offset and its Chinese and
English text from :func:`weiqi.clock.schedule`, the outcome of each flag — and ``clock.js`` is a
line-by-line transcription of :mod:`weiqi.clock.account` and :class:`weiqi.clock.Clock` over those
numbers. :func:`replay_log` replays the page's log here, with the same call-out bookkeeping, so
tests hold the two to each other.

>>> tc = TimeControl.parse("1m+3x30s")
>>> p = plan(tc, "zh_CN")
>>> p["initial"], p["period_ms"]
({'main': 60000, 'periods': 3, 'period': 0, 'moves': 0, 'used': 0}, 30000)
>>> [c["zh"] for c in p["callouts"]["3"]]
['15秒', '20秒', '25秒', '28秒', '29秒', '30秒，还剩2次']
>>> p["outcome"]["B"]
'白超时胜'
>>> log = [{"op": "start", "now": 0}, {"op": "press", "now": 80, "color": "B"}]
>>> r = replay_log(tc, log)
>>> [c["zh"] for c in r["callouts"]]
['15秒', '20秒']
>>> r["state"]["black"]["main"], r["state"]["black"]["periods"]
(0, 3)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from weiqi.clock import (
    Clock,
    Color,
    Status,
    TimeControl,
    TimeSystem,
    format_duration,
    parse_duration,
    schedule,
)
from weiqi.clock.account import Account, to_ms
from weiqi.errors import InputError, InvalidSetting
from weiqi.i18n import N_
from weiqi.messages import Msg
from weiqi.rules.result import Reason, Result


@dataclass(frozen=True)
class Preset:
    """A time control offered with one tap; ``label`` is a msgid (translated where shown)."""

    key: str
    label: str
    settings: str

    @property
    def tc(self) -> TimeControl:
        return TimeControl.parse(self.settings)


PRESETS: tuple[Preset, ...] = (
    Preset("national", N_("60 min incl. 5 × 1 min byo-yomi (national events)"), "60m incl 5x60s"),
    Preset("quick", N_("1 min + 3 × 30 s byo-yomi (quick)"), "1m+3x30s"),
    Preset("blitz", N_("30 s × 3 (byo-yomi only)"), "3x30s"),
    Preset("absolute", N_("Absolute time, 90 min"), "90m"),
    Preset("moves", N_("Moves per period, 15 moves / 10 min"), "15/10m"),
    Preset("fischer", N_("Fischer 10 min + 5 s per move"), "10m+5s/move"),
)

# The free form's fields, in the order the form shows them.
FORM_FIELDS = (
    "system",
    "main_time",
    "periods",
    "period_time",
    "moves",
    "increment",
    "included",
    "carry_over",
    "timeout_pass",
)
# A field named by an InvalidSetting of the Chinese constructor, as the form names it.
_FORM_FIELD = {
    "limit": "main_time",
    "reserved": "periods",
    "time control": "tc",
    "time_system": "system",
}

# The settings' field names as an error names them, said in the user's language.
FIELD_NAMES = (
    N_("time control"),
    N_("time_system"),
    N_("main_time"),
    N_("periods"),
    N_("period_time"),
    N_("moves"),
    N_("increment"),
    N_("reserved"),
    N_("limit"),
    N_("carry_over"),
    N_("timeout_pass"),
)
# Reasons of weiqi.clock.control that the page can say in the user's language.
REASONS = (
    N_("must be more than 0 seconds"),
    N_("byo-yomi needs at least one period"),
    N_("a period needs at least one move"),
    N_("must be more than 0 (else use absolute time)"),
    N_("must be a whole number"),
    N_("must be a duration such as 90m, 1h30m, 30s or 45"),
)


def form_field(setting_field: str) -> str:
    """The form field an :class:`InvalidSetting` of the settings belongs to.

    >>> form_field("reserved"), form_field("period_time")
    ('periods', 'period_time')
    """
    return _FORM_FIELD.get(setting_field, setting_field)


def settings_from_form(form: Mapping[str, str]) -> TimeControl:
    """The time control of the free form, validated by :class:`TimeControl` itself; an error
    names the form's field.

    Durations read as in settings strings (``90m``, ``1h30m``, ``30s``, ``45``); with
    ``included`` the main time is the rules' time limit out of which the periods are reserved
    (R-TIME-2, Chinese style).

    >>> settings_from_form({"system": "byo_yomi", "main_time": "60m", "periods": "5",
    ...                     "period_time": "60", "included": "on"}).format()
    '55m+5x60s'
    >>> settings_from_form({"system": "byo_yomi", "main_time": "1m", "periods": "0",
    ...                     "period_time": "30s"})
    Traceback (most recent call last):
    ...
    weiqi.errors.InvalidSetting: periods: byo-yomi needs at least one period
    """
    try:
        system = TimeSystem(form.get("system", ""))
    except ValueError:
        raise InvalidSetting(  # named apart from an event's system (赛制)
            "time_system", Msg("unknown time system %(get)s", get=repr(form.get("system")))
        ) from None
    if system is TimeSystem.UNTIMED:
        return TimeControl.untimed()

    def duration(name: str) -> float:
        text = form.get(name, "").strip()
        if not text:
            return 0.0
        try:
            return parse_duration(text)
        except InvalidSetting:
            raise InvalidSetting(
                name, Msg("must be a duration such as 90m, 1h30m, 30s or 45")
            ) from None

    def whole(name: str) -> int:
        text = form.get(name, "").strip()
        if not text:
            return 0
        if not text.isdigit():
            raise InvalidSetting(name, Msg("must be a whole number"))
        return int(text)

    def flag(name: str) -> bool:
        return form.get(name, "") in ("on", "1", "true")

    main = duration("main_time")
    try:
        if system is TimeSystem.ABSOLUTE:
            return TimeControl.absolute(main)
        if system is TimeSystem.FISCHER:
            return TimeControl.fischer(main, duration("increment"))
        if system is TimeSystem.MOVES_PER_PERIOD:
            return TimeControl.moves_per_period(
                main, whole("moves"), duration("period_time"), carry_over=flag("carry_over")
            )
        periods, period = whole("periods"), duration("period_time")
        if flag("included"):
            return TimeControl.chinese(main, periods, period, timeout_pass=flag("timeout_pass"))
        return TimeControl.byo_yomi(main, periods, period, timeout_pass=flag("timeout_pass"))
    except InvalidSetting as err:
        raise InvalidSetting(form_field(err.field), err.reason) from None


def form_values(tc: TimeControl) -> dict[str, str]:
    """The free form filled in with ``tc`` (read back by :func:`settings_from_form`).

    >>> form_values(TimeControl.parse("60m+15/10m"))["period_time"]
    '10m'
    """

    def d(seconds: float) -> str:
        return format_duration(seconds) if seconds else ""

    return {
        "system": tc.system.value,
        "main_time": d(tc.main_time),
        "periods": str(tc.periods) if tc.periods else "",
        "period_time": d(tc.period_time),
        "moves": str(tc.moves) if tc.moves else "",
        "increment": d(tc.increment),
        "included": "",
        "carry_over": "on" if tc.carry_over else "",
        "timeout_pass": "on" if tc.timeout_pass else "",
    }


def _language(locale: str) -> str:
    return "zh" if locale.startswith("zh") else "en"


def plan(tc: TimeControl, locale: str) -> dict[str, Any]:
    """Everything ``clock.js`` needs to run ``tc``, JSON-ready, times in whole milliseconds.

    ``callouts[str(k)]`` are the calls of a byo-yomi period started with ``k`` periods left
    (``k = 1``: the last, with its count-down), each with ``at_ms`` into the period; ``outcome``
    is the result, in ``locale``'s language, when that colour's flag falls.
    """
    lang = _language(locale)
    calls: dict[str, list[dict[str, Any]]] = {}
    if tc.system is TimeSystem.BYO_YOMI:
        for left in range(1, tc.periods + 1):
            calls[str(left)] = [
                {**c.to_dict(), "at_ms": to_ms(c.at)} for c in schedule(tc.period_time, left)
            ]
    outcome = {}
    for color in Color:
        result = Result.win(color.opponent, Reason.TIME)
        outcome[color.value] = result.to_zh() if lang == "zh" else result.to_en()
    return {
        "settings": tc.format(),
        "describe": tc.describe_zh() if lang == "zh" else tc.describe_en(),
        "lang": lang,
        "speech_lang": "zh-CN" if lang == "zh" else "en-US",
        "system": tc.system.value,
        "initial": Account.initial(tc)._asdict(),
        "period_ms": to_ms(tc.period_time),
        "moves": tc.moves,
        "increment_ms": to_ms(tc.increment),
        "carry_over": tc.carry_over,
        "timeout_pass": tc.timeout_pass,
        "callouts": calls,
        "outcome": outcome,
    }


def _view(clock: Clock, now: float, color: Color) -> dict[str, Any]:
    v = clock.remaining(now, color)
    return {
        "main": v.main,
        "periods": v.periods,
        "period": v.period,
        "moves": v.moves,
        "in_overtime": v.in_overtime,
        "total": v.total,
        "flagged": v.flagged,
    }


def replay_log(tc: TimeControl, events: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Replay the page's log through :class:`Clock`: the final state (``Clock.to_dict``), every
    call-out made on the way with the move it fell in and its offset into that move, what both
    players have left at the last event, and the result.

    Call-outs are collected before each event is applied, as the page does: a call due at the
    very instant of a press is made before the press.

    >>> log = [{"op": "start", "now": 0}, {"op": "advance", "now": 150}]
    >>> r = replay_log(TimeControl.parse("1m+3x30s"), log)
    >>> r["result"]["zh"], r["state"]["flag_at"], r["callouts"][-1]["zh"]
    ('白超时胜', 150000, '10')
    """
    clock = Clock.new(tc)
    calls: list[dict[str, Any]] = []
    seen = 0
    now: float = 0.0
    for index, event in enumerate(events):
        if not isinstance(event, Mapping):
            raise InputError(Msg("event %(value)s", value=index + 1), Msg("must be an object"))
        raw = event.get("now")
        if isinstance(raw, bool) or not isinstance(raw, int | float):
            raise InputError(Msg("event %(value)s", value=index + 1), Msg("needs a numeric 'now'"))
        now = float(raw)
        if clock.status is not Status.READY:
            due = clock.announcements(now)
            for a in due[seen:]:
                calls.append(
                    {
                        "move": clock.moves,
                        "color": None if clock.to_move is None else clock.to_move.value,
                        "offset_ms": to_ms(a.offset),
                        **a.callout.to_dict(),
                    }
                )
            seen = len(due)
        moves = clock.moves
        try:
            clock = clock.apply(event)
        except (KeyError, ValueError) as err:
            raise InputError(
                Msg("event %(value)s", value=index + 1), Msg("unreadable: %(err)s", err=err)
            ) from None
        if clock.moves != moves:
            seen = 0
    result = clock.result()
    return {
        "state": clock.to_dict(),
        "callouts": calls,
        "remaining": {c.value: _view(clock, now, c) for c in Color},
        "result": None
        if result is None
        else {"code": result.to_code(), "zh": result.to_zh(), "en": result.to_en()},
    }
