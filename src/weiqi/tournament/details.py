"""What an event announces besides its rules (issue #13): its dates, its venue and its time
zone, as one frozen value; and the event's local time of a moment. (Its time control is one of
its settings: ``PlaySettings.time_control``.)

Every time a page shows or a form reads is in the event's time zone (an IANA name, checked with
:mod:`zoneinfo`); moments are stored in UTC.

>>> d = EventDetails(date(2027, 5, 1), date(2027, 5, 3), "北京", "Asia/Shanghai")
>>> d.dates, d.venue
('2027-05-01 – 2027-05-03', '北京')
>>> local_time(datetime(2027, 5, 1, 1, 30, tzinfo=UTC), "Asia/Shanghai").isoformat()
'2027-05-01T09:30:00+08:00'
>>> parse_local("2027-05-01T09:30", "Asia/Shanghai").isoformat()
'2027-05-01T01:30:00+00:00'
>>> EventDetails(time_zone="Mars/Olympus")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
weiqi.errors.InvalidSetting: time_zone: 'Mars/Olympus' is not a time zone ...
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime

from weiqi.errors import InvalidSetting
from weiqi.i18n import N_
from weiqi.messages import Msg
from weiqi.text import clean_name

DEFAULT_TIME_ZONE = "Asia/Shanghai"
"""The time zone of an event whose organiser did not choose one (a Chinese event's)."""

TIME_ZONE_CHOICES = tuple(sorted(z for z in zoneinfo.available_timezones() if "/" in z))
"""The time zones a settings form suggests (any IANA name is accepted)."""

MAX_ZONE_NAME = 64
MAX_VENUE = 200


def zone(name: str) -> zoneinfo.ZoneInfo:
    """The time zone called ``name`` (an IANA name such as ``Europe/Paris``), or
    ``InvalidSetting("time_zone", …)``.

    >>> zone("Europe/Paris").key
    'Europe/Paris'
    >>> zone("../../etc/passwd")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    weiqi.errors.InvalidSetting: time_zone: '../../etc/passwd' is not a time zone ...
    """
    bad = InvalidSetting(
        N_("time_zone"),
        Msg("%(name)s is not a time zone (write it like Asia/Shanghai)", name=repr(name)),
    )
    if not name or len(name) > MAX_ZONE_NAME or name.startswith(("/", ".")) or ".." in name:
        raise bad
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        raise bad from None


def local_time(moment: datetime, zone_name: str) -> datetime:
    """``moment`` in the zone ``zone_name``; a naive ``moment`` is UTC (as SQLite returns it).

    >>> local_time(datetime(2027, 1, 1, 12, 0), "Europe/Paris").strftime("%H:%M %Z")
    '13:00 CET'
    """
    aware = moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
    return aware.astimezone(zone(zone_name))


def format_local(moment: datetime | None, zone_name: str, pattern: str = "%Y-%m-%d %H:%M") -> str:
    """``moment`` as a page shows it, in the event's local time; empty for None.

    >>> format_local(datetime(2027, 1, 1, 23, 30, tzinfo=UTC), "Asia/Shanghai")
    '2027-01-02 07:30'
    """
    return "" if moment is None else local_time(moment, zone_name).strftime(pattern)


def parse_local(text: str, zone_name: str, field: str = N_("start")) -> datetime:
    """A date and time typed in a form (``2027-05-01T09:30``, as ``<input type=datetime-local>``
    sends it) read in the event's time zone, as an aware UTC moment.

    >>> parse_local("2027-07-01 09:30", "Europe/Paris").isoformat()
    '2027-07-01T07:30:00+00:00'
    >>> parse_local("tomorrow", "Asia/Shanghai")
    Traceback (most recent call last):
    ...
    weiqi.errors.InvalidSetting: start: write a date and time like 2027-05-01 09:30
    """
    try:
        typed = datetime.fromisoformat(text.strip())
    except ValueError:
        raise InvalidSetting(field, Msg("write a date and time like 2027-05-01 09:30")) from None
    if typed.tzinfo is None:
        typed = typed.replace(tzinfo=zone(zone_name))
    return typed.astimezone(UTC)


def _date(field: str, text: str) -> date | None:
    text = text.strip()
    if not text:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise InvalidSetting(field, Msg("write a date like 2027-05-01")) from None


@dataclass(frozen=True)
class EventDetails:
    """An event's dates (the last day on or after the first), venue and time zone; invalid
    values raise ``InvalidSetting`` naming the form field."""

    start_date: date | None = None
    end_date: date | None = None
    venue: str = ""
    time_zone: str = DEFAULT_TIME_ZONE

    def __post_init__(self) -> None:
        zone(self.time_zone)
        object.__setattr__(
            self, "venue", clean_name(N_("venue"), self.venue, required=False, max_length=MAX_VENUE)
        )
        if self.start_date and self.end_date and self.end_date < self.start_date:
            raise InvalidSetting(N_("end_date"), Msg("must not be before the first day"))

    @property
    def dates(self) -> str:
        """The days of the event as a sheet's header shows them.

        >>> EventDetails(date(2027, 5, 1), date(2027, 5, 3)).dates
        '2027-05-01 – 2027-05-03'
        >>> EventDetails(date(2027, 5, 1)).dates, EventDetails().dates
        ('2027-05-01', '')
        """
        first, last = self.start_date, self.end_date or self.start_date
        if first is None:
            return last.isoformat() if last else ""
        return first.isoformat() if last in (None, first) else f"{first} – {last}"


def details_from_form(
    form: Mapping[str, str], default_zone: str = DEFAULT_TIME_ZONE
) -> EventDetails:
    """The details of a settings form (``start_date``, ``end_date``, ``venue``,
    ``time_zone``); an empty time zone is ``default_zone``.

    >>> details_from_form({"start_date": "2027-05-01", "venue": " 上海棋院 "}).venue
    '上海棋院'
    >>> details_from_form({"start_date": "2027-05-03", "end_date": "2027-05-01"})
    Traceback (most recent call last):
    ...
    weiqi.errors.InvalidSetting: end_date: must not be before the first day
    """
    return EventDetails(
        start_date=_date(N_("start_date"), form.get("start_date", "")),
        end_date=_date(N_("end_date"), form.get("end_date", "")),
        venue=form.get("venue", ""),
        time_zone=form.get("time_zone", "").strip() or default_zone,
    )


def details_form(details: EventDetails) -> dict[str, str]:
    """The form fields showing ``details`` (inverse of :func:`details_from_form`).

    >>> details_form(EventDetails(date(2027, 5, 1), venue="北京"))["start_date"]
    '2027-05-01'
    """
    return {
        "start_date": details.start_date.isoformat() if details.start_date else "",
        "end_date": details.end_date.isoformat() if details.end_date else "",
        "venue": details.venue,
        "time_zone": details.time_zone,
    }
