"""The server's clock: the one source of "now" for services (a lineup's deadline, the time of a
game record's events, when lineups are revealed).

Services receive it (``clock=`` keyword, :data:`SYSTEM_CLOCK` by default); the web application
gets one at creation (``create_app(db, clock=...)``) and the command line uses the system clock.
No request body, form field or command-line option says what time it is. The name is
``ServerClock`` because :class:`weiqi.clock.Clock` is the game clock (基本时限, 读秒).

>>> from datetime import UTC, datetime, timedelta
>>> clock = ManualClock(datetime(2026, 5, 1, 8, 0, tzinfo=UTC))
>>> clock.now().isoformat()
'2026-05-01T08:00:00+00:00'
>>> clock.advance(timedelta(minutes=30)).now().isoformat()
'2026-05-01T08:30:00+00:00'
>>> SYSTEM_CLOCK.now().tzinfo is UTC
True
>>> isinstance(clock, ServerClock) and isinstance(SYSTEM_CLOCK, ServerClock)
True
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol, overload, runtime_checkable


@runtime_checkable
class ServerClock(Protocol):
    """Where services read the time: ``now()`` is an aware datetime in UTC."""

    def now(self) -> datetime:
        """The current time, aware, in UTC."""
        ...


class SystemClock:
    """The machine's clock (production, the command line).

    >>> SystemClock().now().utcoffset()
    datetime.timedelta(0)
    """

    def now(self) -> datetime:
        """The wall clock, in UTC."""
        return datetime.now(UTC)


class ManualClock:
    """A clock that moves only when told (tests, demonstrations): it stays at the time it was
    set to. Naive times are refused: a time without a zone would mean whatever the machine's
    zone is.

    >>> ManualClock(datetime(2026, 5, 1, 8, 0))
    Traceback (most recent call last):
    ...
    ValueError: ManualClock needs an aware datetime, not 2026-05-01 08:00:00
    """

    def __init__(self, at: datetime) -> None:
        self._at = _utc(at)

    def now(self) -> datetime:
        """The time the clock was last set to."""
        return self._at

    def set(self, at: datetime) -> ManualClock:
        """Move the clock to ``at`` (forward or back); returns the clock."""
        self._at = _utc(at)
        return self

    def advance(self, by: timedelta) -> ManualClock:
        """Move the clock on by ``by``; returns the clock."""
        self._at += by
        return self

    def __repr__(self) -> str:
        return f"ManualClock({self._at.isoformat()})"


def _utc(at: datetime) -> datetime:
    if at.tzinfo is None or at.utcoffset() is None:
        raise ValueError(f"ManualClock needs an aware datetime, not {at}")
    return at.astimezone(UTC)


#: The system clock every service uses unless it is given another.
SYSTEM_CLOCK: ServerClock = SystemClock()


@overload
def as_utc(moment: datetime) -> datetime: ...
@overload
def as_utc(moment: None) -> None: ...
def as_utc(moment: datetime | None) -> datetime | None:
    """A stored moment as an aware UTC one (SQLite gives it back naive, in UTC; an aware one,
    as another database may give it, in its own zone, is converted); ``None`` stays ``None``.
    Individual and team rounds' times alike.

    >>> as_utc(datetime(2026, 12, 5, 1, 30)).isoformat()
    '2026-12-05T01:30:00+00:00'
    >>> from datetime import timedelta, timezone
    >>> as_utc(datetime(2026, 12, 5, 9, 30, tzinfo=timezone(timedelta(hours=8)))).isoformat()
    '2026-12-05T01:30:00+00:00'
    """
    if moment is None:
        return None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
