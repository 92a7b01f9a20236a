"""The game clock: every time system of the rules and the byo-yomi call-outs (RULES.md §5).

Pure and deterministic: time comes in as numbers, nothing sleeps or reads the wall clock.

- :class:`TimeControl` — one event setting of the time system (``TimeControl.parse("60m incl
  5x60s")``); :mod:`~weiqi.clock.notation` maps it to SGF and GTP.
- :class:`Clock` — both players' clocks as an immutable state machine over timestamps.
- :func:`schedule` / :func:`callouts` — what the referee or voice clock says, when (R-TIME-3).
- :class:`LatePolicy` / :func:`judge_late` — late arrival (R-TIME-6).
- :func:`correct_readings` / :func:`split_lost_record` — clock faults (R-TIME-8).
- :class:`LagPolicy` — network lag allowance for online play.

>>> tc = TimeControl.parse("60m incl 5x60s")
>>> c = Clock.new(tc).start(0.0).press(3300.0 + 59, Color.BLACK)  # a 59 s move in byo-yomi…
>>> c.remaining(3359.0, Color.BLACK).periods  # …costs nothing
5
"""

from weiqi.clock.account import View
from weiqi.clock.callouts import Callout, Kind, callouts, schedule
from weiqi.clock.clock import Announcement, Clock, Status, replay
from weiqi.clock.control import TimeControl, TimeSystem, format_duration, parse_duration
from weiqi.clock.faults import Correction, correct_readings, split_lost_record
from weiqi.clock.lag import LagPolicy
from weiqi.clock.late import LatePolicy, LateRuling, judge_late
from weiqi.rules.color import Color

__all__ = [
    "Announcement",
    "Callout",
    "Clock",
    "Color",
    "Correction",
    "Kind",
    "LagPolicy",
    "LatePolicy",
    "LateRuling",
    "Status",
    "TimeControl",
    "TimeSystem",
    "View",
    "callouts",
    "correct_readings",
    "format_duration",
    "judge_late",
    "parse_duration",
    "replay",
    "schedule",
    "split_lost_record",
]
