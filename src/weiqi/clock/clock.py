"""The game clock: an immutable state machine over timestamps.

Every operation takes ``now`` (float seconds on any monotonic scale: the server's, the console's,
a replayed log's) and returns a new :class:`Clock`; nothing sleeps or reads the wall clock. Times
are kept in whole milliseconds, so replays are exact. Every state is a plain dict away
(:meth:`Clock.to_dict`), and a log of operations replays with :meth:`Clock.apply`.

Instants pass only through operations: a flag falls when an operation (or :meth:`Clock.advance`)
is applied at or after :meth:`Clock.next_deadline`; the state it returns is as it was at the
deadline. A server schedules one wake-up at ``next_deadline()`` and calls ``advance``.

>>> from weiqi.clock.control import TimeControl
>>> c = Clock.new(TimeControl.chinese(limit=120, reserved=1, period=60))  # 1 min + 1 × 60 s
>>> c = c.start(0.0, Color.BLACK)
>>> c = c.press(50.0, Color.BLACK).press(52.0, Color.WHITE)
>>> c.remaining(52.0, Color.BLACK).main
10.0
>>> c.next_deadline()  # Black: 10 s of main time plus the last period
122.0
>>> c.advance(121.999).status is Status.RUNNING, c.advance(122.0).status is Status.FLAGGED
(True, True)
>>> c.advance(122.0).result().to_zh()
'白超时胜'
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from weiqi.clock import account
from weiqi.clock.account import Account, View, to_ms, to_s
from weiqi.clock.callouts import Callout, schedule
from weiqi.clock.control import TimeControl, TimeSystem
from weiqi.clock.lag import LagPolicy
from weiqi.clock.late import LatePolicy, judge_late
from weiqi.errors import Conflict, InputError, InvalidSetting
from weiqi.frozen import replacer
from weiqi.messages import Msg
from weiqi.rules.color import Color
from weiqi.rules.result import Reason, Result


class Status(enum.Enum):
    READY = "ready"  # not started
    RUNNING = "running"  # the clock of ``to_move`` runs
    PAUSED = "paused"  # nothing runs (a scheduled pause, an adjournment after a sealed move)
    FLAGGED = "flagged"  # ``flagged``'s time ran out; a loss, or a forfeited turn on request
    STOPPED = "stopped"  # both stopped for good (game over, or a player forfeited)


@dataclass(frozen=True)
class Announcement:
    """A call-out due in the current move, ``offset`` seconds into the move."""

    offset: float
    callout: Callout


@dataclass(frozen=True)
class Clock:
    """Both players' clocks. Build one with :meth:`new`; change it only through its operations.

    ``elapsed`` (ms) is how long the current move has run before ``since`` (ms, the start of the
    running stretch; ``None`` when nothing runs), so a move that spans a pause keeps its time.
    """

    tc: TimeControl
    black: Account
    white: Account
    lag: LagPolicy | None = None
    late: LatePolicy | None = None
    status: Status = Status.READY
    to_move: Color | None = None
    since: int | None = None
    elapsed: int = 0
    quota: tuple[int, int] = (0, 0)
    flagged: Color | None = None
    flag_at: int | None = None
    sealed: bool = False
    scheduled: int | None = None
    absent: frozenset[Color] = field(default_factory=frozenset)
    forfeits: frozenset[Color] = field(default_factory=frozenset)
    moves: int = 0
    last: int | None = None

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def new(
        cls, tc: TimeControl, *, lag: LagPolicy | None = None, late: LatePolicy | None = None
    ) -> Clock:
        q = lag.initial_ms if lag is not None else 0
        acc = Account.initial(tc)
        return cls(tc, acc, acc, lag=lag, late=late, quota=(q, q))

    def account(self, color: Color) -> Account:
        return self.black if color is Color.BLACK else self.white

    def _with(self, color: Color, acc: Account, **changes: Any) -> Clock:
        if color is Color.BLACK:
            return _evolve(self, black=acc, **changes)
        return _evolve(self, white=acc, **changes)

    def set_account(self, color: Color, acc: Account) -> Clock:
        """The clock with ``color``'s account replaced: for a mirror of another clock (GTP
        ``time_left``), not for play, where only the operations change the time."""
        return self._with(color, acc)

    def _quota(self, color: Color) -> int:
        return self.quota[0 if color is Color.BLACK else 1]

    # -- reading ------------------------------------------------------------------------------

    @property
    def running(self) -> Color | None:
        """The side whose clock runs (at most one)."""
        return self.to_move if self.status is Status.RUNNING else None

    def _elapsed_at(self, now_ms: int) -> int:
        if self.status is Status.RUNNING and self.since is not None:
            return self.elapsed + max(0, now_ms - self.since)
        return self.elapsed

    def remaining(self, now: float, color: Color) -> View:
        """What ``color`` has left at ``now`` (R-TIME-9: a player may ask at any time).

        >>> from weiqi.clock.control import TimeControl
        >>> c = Clock.new(TimeControl.byo_yomi(0, 5, 60)).start(0, Color.BLACK)
        >>> v = c.remaining(75, Color.BLACK)
        >>> v.periods, v.period, v.in_overtime
        (4, 45.0, True)
        """
        c = self.advance(now)
        acc = c.account(color)
        if color is not c.to_move or c.status is Status.READY:
            return account.view(c.tc, acc, 0)
        return account.view(c.tc, acc, c._elapsed_at(to_ms(now)))

    def used(self, now: float, color: Color) -> float:
        """Seconds ``color`` has used so far, the current move included (deductions counted)."""
        c = self.advance(now)
        current = color is c.to_move and c.status is not Status.READY
        return to_s(c.account(color).used + (c._elapsed_at(to_ms(now)) if current else 0))

    def next_deadline(self) -> float | None:
        """The instant (seconds) of the next event the clock makes by itself if nothing else
        happens: the running side's flag falling, or an absent player passing the late limit.

        With a :class:`LagPolicy`, the flag falls only after the runner's remaining lag quota
        too (a press sent in time but delayed on the way can still count). ``None``: nothing due.
        """
        due = self._deadline_ms()
        return None if due is None else to_s(due)

    def next_wakeup(self, now: float) -> float | None:
        """The earliest of :meth:`next_deadline` and the next call-out after ``now``: the one
        instant a server that also speaks the byo-yomi needs to wake up at.

        >>> from weiqi.clock.control import TimeControl
        >>> c = Clock.new(TimeControl.byo_yomi(0, 1, 60)).start(0)
        >>> c.next_wakeup(0), c.next_wakeup(59.5), c.next_deadline()
        (30.0, 60.0, 60.0)
        """
        call = self.next_callout(now)
        due = self.advance(now).next_deadline()
        times = [t for t in (due, None if call is None else call[0]) if t is not None]
        return min(times) if times else None

    def _flag_deadline_ms(self) -> int | None:
        if self.status is not Status.RUNNING or self.to_move is None or self.since is None:
            return None
        cap = account.limit(self.tc, self.account(self.to_move))
        if cap is None:
            return None
        grace = self._quota(self.to_move) if self.lag is not None else 0
        return self.since + cap - self.elapsed + grace

    def _forfeit_deadline_ms(self) -> int | None:
        if (
            not self.absent
            or self.scheduled is None
            or self.late is None
            or self.late.absent_byo_yomi
            or self.status not in (Status.RUNNING, Status.PAUSED, Status.FLAGGED)
        ):
            return None
        # "不得超过1小时（含）": exactly at the limit is still in time; one tick later is not.
        return self.scheduled + to_ms(self.late.limit) + 1

    def _deadline_ms(self) -> int | None:
        times = [
            t for t in (self._flag_deadline_ms(), self._forfeit_deadline_ms()) if t is not None
        ]
        return min(times) if times else None

    def result(self) -> Result | None:
        """The result the clock decides, if any: a loss on time, or a forfeit (late arrival,
        absent byo-yomi exhausted); both forfeiting is both losing."""
        losers = set(self.forfeits)
        if self.flagged is not None:
            losers.add(self.flagged)
        if len(losers) == 2:
            return Result.both_lose()
        if not losers:
            return None
        (loser,) = losers
        reason = Reason.FORFEIT if loser in self.forfeits else Reason.TIME
        return Result.win(loser.opponent, reason)

    # -- the passing of time ------------------------------------------------------------------

    def _now(self, now: float) -> int:
        ms = to_ms(now)
        if self.last is not None and ms < self.last:
            raise InputError(
                "now",
                Msg(
                    "time went backwards: %(now)s s is before %(last)s s",
                    now=now,
                    last=to_s(self.last),
                ),
            )
        return ms

    def advance(self, now: float) -> Clock:
        """The clock at ``now`` with nothing else happening: any flag or late-arrival forfeit
        due by then has happened (at its own instant)."""
        ms = self._now(now)
        c = self
        while True:
            due = c._deadline_ms()
            if due is None or due > ms:
                return _evolve(c, last=ms)
            c = c._fall(due)

    def _fall(self, due: int) -> Clock:
        """Apply the event due at ``due`` ms (a flag or a late-arrival forfeit)."""
        if due == self._forfeit_deadline_ms():
            c = self._stop_running(due)
            return _evolve(
                c, status=Status.STOPPED, forfeits=c.forfeits | c.absent, absent=frozenset()
            )
        color = self.to_move
        assert color is not None and self.since is not None
        c = _evolve(self, elapsed=self.elapsed + due - self.since, since=None)
        if color in self.absent:
            # Absent byo-yomi exhausted (Art. 22.4) or time gone before the late limit: a forfeit.
            return _evolve(c, status=Status.STOPPED, forfeits=c.forfeits | {color})
        return _evolve(c, status=Status.FLAGGED, flagged=color, flag_at=due)

    def _stop_running(self, ms: int) -> Clock:
        if self.status is Status.RUNNING and self.since is not None:
            return _evolve(self, elapsed=self.elapsed + ms - self.since, since=None)
        return self

    # -- operations ---------------------------------------------------------------------------

    def _expect(self, *statuses: Status, action: str) -> None:
        if self.status not in statuses:
            raise Conflict(
                Msg(
                    "clock is %(status)s: cannot %(action)s",
                    status=self.status.value,
                    action=action,
                )
            )

    def start(
        self,
        now: float,
        color: Color = Color.BLACK,
        *,
        absent: Iterable[Color] = (),
        scheduled: float | None = None,
    ) -> Clock:
        """Start ``color``'s clock (Black's, unless a handicap game starts with White).

        ``absent`` players are not seated at the start; ``scheduled`` (default ``now``) is the
        start time their lateness counts from (R-TIME-6, judged by the clock's ``late`` policy).
        """
        ms = self._now(now)
        self._expect(Status.READY, action="start")
        missing = frozenset(absent)
        if missing and self.late is None:
            raise InvalidSetting(
                "late", Msg("a late-arrival policy is needed to judge absent players")
            )
        sched = ms if scheduled is None else to_ms(scheduled)
        c = _evolve(
            self,
            status=Status.RUNNING,
            to_move=color,
            since=ms,
            elapsed=0,
            scheduled=sched,
            absent=missing,
            last=ms,
        )
        # A start later than scheduled: the absent player's lateness already counts.
        return c.advance(now) if sched < ms else c

    def press(self, now: float, color: Color, client_think: float | None = None) -> Clock:
        """``color`` completed a move (all captured stones removed, R-TIME-7) and pressed.

        ``client_think``: the player's own think time as their client measured it; with a
        :class:`LagPolicy` the network's share of the difference is forgiven out of the quota.
        A press at or after the deadline is too late: the state returned shows the flag.
        """
        c = self.advance(now)
        if c.status is not Status.RUNNING:
            if c.status in (Status.FLAGGED, Status.STOPPED) and c.result() is not None:
                return c  # the flag fell (or the game was forfeited) before the press
            c._expect(Status.RUNNING, action=f"press for {color.en}")
        if color is not c.to_move:
            raise Conflict(
                Msg(
                    "clock: it is %(value)s's turn, not %(color)s's",
                    value=c.to_move if c.to_move else "nobody",
                    color=color,
                )
            )
        if color in c.absent:
            raise Conflict(
                Msg("clock: %(color)s has not arrived (record the arrival first)", color=color)
            )
        ms = to_ms(now)
        assert c.since is not None
        server = c.elapsed + ms - c.since
        charged, quota = server, c._quota(color)
        if c.lag is not None:
            think = None if client_think is None else to_ms(client_think)
            charged, quota = c.lag.compensate(quota, server, think)
        acc = c.account(color)
        cap = account.limit(c.tc, acc)
        if cap is not None and charged >= cap:
            return _evolve(
                c, elapsed=server, since=None, status=Status.FLAGGED, flagged=color, flag_at=ms
            )
        quotas = (quota, c.quota[1]) if color is Color.BLACK else (c.quota[0], quota)
        return c._with(
            color,
            account.charge(c.tc, acc, charged),
            to_move=color.opponent,
            since=ms,
            elapsed=0,
            quota=quotas,
            moves=c.moves + 1,
        )

    def pause(self, now: float) -> Clock:
        """A scheduled pause (Art. 14): nothing runs until :meth:`resume`."""
        c = self.advance(now)
        c._expect(Status.RUNNING, action="pause")
        return _evolve(c._stop_running(to_ms(now)), status=Status.PAUSED)

    def resume(self, now: float) -> Clock:
        """Resume after a pause or adjournment. A player late after a pause is not judged: their
        clock simply runs (Art. 22.1)."""
        c = self.advance(now)
        c._expect(Status.PAUSED, action="resume")
        return _evolve(c, status=Status.RUNNING, since=to_ms(now), sealed=False)

    def seal(self, now: float, color: Color) -> Clock:
        """Sealed move at an adjournment (封棋, R-TIME-5): ``color``'s clock runs until sealing,
        then both stop; on :meth:`resume` the sealed move is played and the opponent's runs."""
        c = self.press(now, color)
        if c.status is not Status.RUNNING:
            return c
        return _evolve(c._stop_running(to_ms(now)), status=Status.PAUSED, sealed=True)

    def stop(self, now: float) -> Clock:
        """Stop both clocks for good (game over; or, in absolute time, a player who gives up
        contesting the board stops them, R-TIME-1)."""
        c = self.advance(now)
        if c.status is Status.STOPPED:
            return c
        return _evolve(c._stop_running(to_ms(now)), status=Status.STOPPED)

    def forfeit_turn(self, now: float) -> Clock:
        """At the flagged player's request, their last period running out counts as a forfeited
        turn (弃权一次, a pass) instead of the loss; the same byo-yomi continues with the last
        period kept (Art. 22.5). The opponent's clock starts at ``now``: the time between the
        flag and the ruling counts for nobody.

        >>> from weiqi.clock.control import TimeControl
        >>> c = Clock.new(TimeControl.byo_yomi(0, 1, 60, timeout_pass=True)).start(0)
        >>> c = c.advance(60).forfeit_turn(75)
        >>> c.running, c.remaining(75, Color.BLACK).periods
        (<Color.WHITE: 'W'>, 1)
        """
        c = self.advance(now)
        c._expect(Status.FLAGGED, action="turn a flag into a forfeited turn")
        if not c.tc.timeout_pass:
            raise Conflict(
                Msg("clock: the event does not allow a forfeited turn on time (timeout_pass)")
            )
        loser = c.flagged
        assert loser is not None
        acc = c.account(loser)
        acc = acc._replace(main=0, periods=1, used=acc.used + c.elapsed)
        return c._with(
            loser,
            acc,
            status=Status.RUNNING,
            to_move=loser.opponent,
            since=to_ms(now),
            elapsed=0,
            flagged=None,
            flag_at=None,
            moves=c.moves + 1,
        )

    def arrive(self, now: float, color: Color) -> Clock:
        """An absent player takes their seat (R-TIME-6). Within the limit the late time is
        deducted twice (what their running clock already took counts towards it); with absent
        byo-yomi their clock just ran. Past the limit the player has already forfeited."""
        c = self.advance(now)
        if color not in c.absent:
            if color in c.forfeits:
                return c
            raise Conflict(Msg("clock: %(color)s is not absent", color=color))
        late = c.late
        assert late is not None and c.scheduled is not None
        ms = to_ms(now)
        ruling = judge_late(late, to_s(ms - c.scheduled))
        c = _evolve(c, absent=c.absent - {color})
        if ruling.forfeit:
            c = c._stop_running(ms)
            return _evolve(c, status=Status.STOPPED, forfeits=c.forfeits | {color})
        if late.absent_byo_yomi:
            return c
        already = to_ms(c.used(now, color))
        return c._deduct(ms, color, max(0, to_ms(ruling.deduction) - already))

    def adjust(self, now: float, color: Color, seconds: float) -> Clock:
        """Charge ``color`` ``seconds`` more (negative: give time back to the main time), e.g. to
        set corrected readings after a clock fault (R-TIME-8, see :mod:`weiqi.clock.faults`)."""
        c = self.advance(now)
        c._expect(Status.RUNNING, Status.PAUSED, Status.READY, action="adjust the time")
        return c._deduct(to_ms(now), color, to_ms(seconds))

    def set_used(self, now: float, color: Color, seconds: float) -> Clock:
        """Set ``color``'s used time to ``seconds`` (a corrected reading or the equal split)."""
        return self.adjust(now, color, seconds - self.used(now, color))

    def _deduct(self, ms: int, color: Color, amount: int) -> Clock:
        if amount == 0:
            return self
        acc = account.deduct(self.tc, self.account(color), amount)
        if acc is not None:
            c = self._with(color, acc)
            running_ms = c._elapsed_at(ms) if color is c.running else 0
            cap = account.limit(c.tc, acc)
            if cap is None or running_ms < cap:
                return c
            flagged = c
        else:
            gone = self.account(color)
            flagged = self._with(
                color, gone._replace(main=0, periods=0, period=0, used=gone.used + amount)
            )
        # Nothing left: the flag falls now, whoever's clock is running; the runner keeps the
        # time their unfinished move took as used.
        c = flagged._stop_running(ms)
        if color is not c.to_move:
            if c.to_move is not None and c.status is not Status.READY:
                other = c.account(c.to_move)
                c = c._with(c.to_move, other._replace(used=other.used + c.elapsed))
            c = _evolve(c, to_move=color, elapsed=0)
        return _evolve(c, status=Status.FLAGGED, flagged=color, flag_at=ms, since=None)

    def restart_count(self, now: float, at: float) -> Clock:
        """A misread count-down is restarted from the error (R-TIME-9, Art. 16.2): the current
        byo-yomi period is set back to ``at`` seconds into it."""
        c = self.advance(now)
        c._expect(Status.RUNNING, Status.PAUSED, action="restart the count")
        if c.tc.system is not TimeSystem.BYO_YOMI or c.to_move is None:
            raise Conflict(Msg("clock: only a byo-yomi count can be restarted"))
        e = c._elapsed_at(to_ms(now))
        acc = c.account(c.to_move)
        if e < acc.main:
            raise Conflict(Msg("clock: the player is still in main time"))
        into = (e - acc.main) % to_ms(c.tc.period_time)
        back = into - to_ms(at)
        if back < 0:
            raise InputError(
                "at",
                Msg(
                    "%(at)s s is later than the count has reached (%(into)s s)",
                    at=at,
                    into=to_s(into),
                ),
            )
        return _evolve(c, elapsed=c.elapsed - back)

    # -- call-outs (R-TIME-3) -----------------------------------------------------------------

    def _announcements(self, upto: int | None) -> Iterable[tuple[int, Callout]]:
        """(ms into the move, call) for the running player's byo-yomi in this move, in order,
        up to ``upto`` ms into it (all of them when ``None``)."""
        if self.tc.system is not TimeSystem.BYO_YOMI or self.to_move is None:
            return
        acc = self.account(self.to_move)
        period = to_ms(self.tc.period_time)
        for k in range(acc.periods):
            start = acc.main + k * period
            if upto is not None and start > upto:
                return
            for call in schedule(self.tc.period_time, acc.periods - k):
                off = start + to_ms(call.at)
                if upto is not None and off > upto:
                    return
                yield off, call

    def announcements(self, now: float) -> list[Announcement]:
        """The call-outs due so far in the current move (R-TIME-3), oldest first.

        >>> from weiqi.clock.control import TimeControl
        >>> c = Clock.new(TimeControl.byo_yomi(0, 2, 60)).start(0)
        >>> [a.callout.zh for a in c.announcements(62)][-2:]
        ['58秒', '1分，还剩1分']
        >>> [a.callout.zh for a in c.announcements(111)][-2:]
        ['50秒', '1']
        """
        c = self.advance(now)
        if c.status not in (Status.RUNNING, Status.PAUSED, Status.FLAGGED):
            return []
        e = c._elapsed_at(to_ms(now))
        return [Announcement(to_s(off), call) for off, call in c._announcements(e)]

    def next_callout(self, now: float) -> tuple[float, Callout] | None:
        """The instant and text of the next call-out if nothing happens before it."""
        c = self.advance(now)
        if c.status is not Status.RUNNING or c.since is None:
            return None
        e = c._elapsed_at(to_ms(now))
        for off, call in c._announcements(None):
            if off > e:
                return to_s(c.since + off - c.elapsed), call
        return None

    # -- plain data and replay ----------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (times in ms); :meth:`from_dict` reads it back."""
        return {
            "tc": self.tc.to_dict(),
            "black": self.black._asdict(),
            "white": self.white._asdict(),
            "lag": None if self.lag is None else self.lag.to_dict(),
            "late": None if self.late is None else self.late.to_dict(),
            "status": self.status.value,
            "to_move": None if self.to_move is None else self.to_move.value,
            "since": self.since,
            "elapsed": self.elapsed,
            "quota": list(self.quota),
            "flagged": None if self.flagged is None else self.flagged.value,
            "flag_at": self.flag_at,
            "sealed": self.sealed,
            "scheduled": self.scheduled,
            "absent": sorted(c.value for c in self.absent),
            "forfeits": sorted(c.value for c in self.forfeits),
            "moves": self.moves,
            "last": self.last,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Clock:
        def color(v: str | None) -> Color | None:
            return None if v is None else Color(v)

        try:
            return cls(
                tc=TimeControl.from_dict(dict(data["tc"])),
                black=Account(**data["black"]),
                white=Account(**data["white"]),
                lag=None if data["lag"] is None else LagPolicy.from_dict(data["lag"]),
                late=None if data["late"] is None else LatePolicy.from_dict(data["late"]),
                status=Status(data["status"]),
                to_move=color(data["to_move"]),
                since=data["since"],
                elapsed=data["elapsed"],
                quota=(int(data["quota"][0]), int(data["quota"][1])),
                flagged=color(data["flagged"]),
                flag_at=data["flag_at"],
                sealed=bool(data["sealed"]),
                scheduled=data["scheduled"],
                absent=frozenset(Color(v) for v in data["absent"]),
                forfeits=frozenset(Color(v) for v in data["forfeits"]),
                moves=int(data["moves"]),
                last=data["last"],
            )
        except (KeyError, TypeError, ValueError) as err:
            raise InputError("clock state", Msg("unreadable: %(err)s", err=err)) from None

    def apply(self, event: Mapping[str, Any]) -> Clock:
        """Apply one logged clock event, e.g. ``{"op": "press", "now": 12.5, "color": "B"}``.

        Ops: ``start`` (``color``, ``absent``, ``scheduled``), ``press`` (``color``,
        ``client_think``), ``pause``, ``resume``, ``seal`` (``color``), ``stop``,
        ``forfeit_turn``, ``arrive`` (``color``), ``adjust`` (``color``, ``seconds``),
        ``restart_count`` (``at``), ``advance``.

        >>> from weiqi.clock.control import TimeControl
        >>> log = [{"op": "start", "now": 0}, {"op": "press", "now": 7, "color": "B"}]
        >>> replay(Clock.new(TimeControl.absolute(600)), log).remaining(7, Color.BLACK).main
        593.0
        """
        op = event.get("op")
        now = event.get("now")
        if not isinstance(now, int | float):
            raise InputError(Msg("clock event %(op)s", op=repr(op)), Msg("needs a numeric 'now'"))
        col = Color(event["color"]) if event.get("color") else None
        if op == "start":
            absent = [Color(v) for v in event.get("absent", ())]
            return self.start(
                now, col or Color.BLACK, absent=absent, scheduled=event.get("scheduled")
            )
        if op in ("press", "seal", "arrive", "adjust"):
            if col is None:
                raise InputError(Msg("clock event %(op)s", op=repr(op)), Msg("needs a 'color'"))
            if op == "press":
                return self.press(now, col, event.get("client_think"))
            if op == "seal":
                return self.seal(now, col)
            if op == "arrive":
                return self.arrive(now, col)
            return self.adjust(now, col, float(event["seconds"]))
        if op == "restart_count":
            return self.restart_count(now, float(event["at"]))
        simple = {
            "pause": self.pause,
            "resume": self.resume,
            "stop": self.stop,
            "forfeit_turn": self.forfeit_turn,
            "advance": self.advance,
        }
        if op not in simple:
            raise InputError("clock event", Msg("unknown op %(op)s", op=repr(op)))
        return simple[op](now)


#: ``dataclasses.replace`` without its cost (half of a replay's time): the fields are plain values
#: checked by the operations themselves.
_evolve = replacer(Clock)


def replay(clock: Clock, events: Iterable[Mapping[str, Any]]) -> Clock:
    """Apply logged events in order."""
    for event in events:
        clock = clock.apply(event)
    return clock
