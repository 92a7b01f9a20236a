"""Clock faults and lost records (R-TIME-8, Art. 22.8–9).

When a clock is found faulty, its readings of used time are compared with the true playing time
(from the referee's watch or the game log). If the readings are off, in total, by 2 minutes per
hour of play or more (the rules say 含: exactly 2 minutes counts), the clock is replaced and both
readings are corrected in proportion to the time each side had used. Below that the clock may be
replaced but the readings stay. Correcting only one side's reading needs the chief referee. When
the record of the used time before a pause is lost, that time is split equally.

>>> c = correct_readings(black_used=1500, white_used=1200, actual=3000)  # 300 s off in 50 min
>>> c.corrected, round(c.black_used, 3), round(c.white_used, 3)
(True, 1666.667, 1333.333)
>>> correct_readings(black_used=1700, white_used=1250, actual=3000).corrected  # 50 s: < 100 s
False
>>> split_lost_record(5400)
(2700.0, 2700.0)
"""

from __future__ import annotations

from dataclasses import dataclass

from weiqi.errors import InputError, PermissionDenied
from weiqi.messages import Msg
from weiqi.rules.color import Color

#: 2 minutes per hour of play (Art. 22.8).
THRESHOLD_PER_HOUR = 120.0


@dataclass(frozen=True)
class Correction:
    """The readings to set on the replacement clock (seconds used), and how it was decided."""

    black_used: float
    white_used: float
    corrected: bool
    error: float  # actual − (black + white readings); positive: the clock ran slow
    threshold: float  # the error from which a correction is due


def correct_readings(
    black_used: float,
    white_used: float,
    actual: float,
    *,
    one_side: Color | None = None,
    chief_referee: bool = False,
) -> Correction:
    """Corrected readings of used time for a faulty clock (R-TIME-8).

    ``actual`` is the true playing time of both sides together (pauses excluded). With
    ``one_side`` only that side's reading is changed (its own reading taking the whole error),
    which needs ``chief_referee``; the threshold still applies.

    >>> correct_readings(1500, 1200, 3000, one_side=Color.WHITE)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    weiqi.errors.PermissionDenied: referee may not correct one side's clock without the chief...
    >>> correct_readings(1500, 1200, 3000, one_side=Color.WHITE, chief_referee=True).white_used
    1500.0
    """
    for name, value in (("black_used", black_used), ("white_used", white_used), ("actual", actual)):
        if value < 0:
            raise InputError(name, Msg("used time cannot be negative (%(value)s)", value=value))
    if one_side is not None and not chief_referee:
        raise PermissionDenied("referee", "correct one side's clock without the chief referee")
    read = black_used + white_used
    error = actual - read
    threshold = THRESHOLD_PER_HOUR * actual / 3600
    if actual == 0 or abs(error) < threshold:
        return Correction(float(black_used), float(white_used), False, error, threshold)
    if one_side is Color.BLACK:
        b, w = black_used + error, float(white_used)
        if b < 0:
            raise InputError("black_used", Msg("the correction would make Black's time negative"))
    elif one_side is Color.WHITE:
        b, w = float(black_used), white_used + error
        if w < 0:
            raise InputError("white_used", Msg("the correction would make White's time negative"))
    elif read == 0:
        b = w = actual / 2
    else:
        b, w = actual * black_used / read, actual * white_used / read
    return Correction(float(b), float(w), True, error, threshold)


def split_lost_record(used_before_pause: float) -> tuple[float, float]:
    """Art. 22.9: the used time before a pause, its record lost, is split equally (Black, White)."""
    if used_before_pause < 0:
        raise InputError(
            "used_before_pause",
            Msg("cannot be negative (%(used_before_pause)s)", used_before_pause=used_before_pause),
        )
    half = used_before_pause / 2
    return (half, half)
