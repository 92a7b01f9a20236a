"""The time commands of ``weiqi gtp``: time_settings, kgs-time_settings, time_left."""

from __future__ import annotations

from weiqi.clock import Color
from weiqi.engines.gtp_engine import GtpEngine


def test_weiqi_gtp_keeps_the_time_settings_and_time_left() -> None:
    e = GtpEngine(dead_stones=lambda board: set())
    assert e.handle("1 time_settings 1800 300 25") == "=1 \n\n"
    assert e.time.clock.tc.format() == "30m+25/5m canadian"
    assert e.handle("kgs-time_settings byoyomi 3300 60 5") == "= \n\n"
    assert e.time.clock.tc.format() == "55m+5x60s"
    assert e.handle("time_left white 45 3") == "= \n\n"
    assert e.handle("time_left b 1200 0") == "= \n\n"
    white, black = e.time.remaining(Color.WHITE), e.time.remaining(Color.BLACK)
    assert (white.main, white.periods, white.in_overtime) == (0, 3, True)
    assert black.main == 1200
    for name in ("time_settings", "kgs-time_settings", "time_left"):
        assert e.handle(f"known_command {name}") == "= true\n\n"


def test_weiqi_gtp_refuses_bad_time_arguments() -> None:
    e = GtpEngine(dead_stones=lambda board: set())
    assert e.handle("time_settings 10 x 0") == (
        "? time_settings: expected numbers, got '10 x 0'\n\n"
    )
    assert e.handle("2 kgs-time_settings hourglass 1") == (
        "?2 kgs-time_settings: unknown system 'hourglass'\n\n"
    )
    assert e.handle("time_left purple 1 0") == "? time_left: unknown colour 'purple'\n\n"
    assert e.time.clock.tc.format() == "untimed"  # nothing changed
