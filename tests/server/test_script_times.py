"""Issue #13: "every time on every page is in the event's local time" — the times a script
draws too. Every static module that formats a time of day from a timestamp does it through
``static/local-time.js`` (``Intl.DateTimeFormat`` with the event's ``timeZone``), never with
the browser's zone (``toLocaleTimeString``, ``getHours`` …) or UTC (``toISOString`` text)."""

from __future__ import annotations

import re
from pathlib import Path

import weiqi.server

STATIC = Path(weiqi.server.__file__).parent / "static"
BROWSER_ZONE = re.compile(
    r"\.toLocale(?:Time|Date)?String\(|\.get(?:UTC)?(?:Hours|Minutes|Seconds|Date|Day|Month|FullYear)\(|"
    r"\.toTimeString\(|\.toDateString\(|\.toUTCString\("
)


def test_no_script_formats_a_time_in_the_browsers_zone() -> None:
    scripts = sorted(STATIC.glob("*.js"))
    assert any(p.name == "local-time.js" for p in scripts)
    for path in scripts:
        text = path.read_text(encoding="utf-8")
        assert not BROWSER_ZONE.search(text), path.name
        for call in re.finditer(r"new Intl\.DateTimeFormat\(([^;]*)\)", text):
            assert "timeZone" in call.group(1), (path.name, call.group(0))
        if "toISOString()" in text:  # a machine value only (a <time datetime>), never shown
            assert re.search(r"\.dateTime = new Date\([^)]*\)\.toISOString\(\)", text), path.name


def test_a_page_whose_script_draws_a_time_carries_the_events_zone() -> None:
    """A module that imports local-time.js is loaded by a template that sets data-time-zone."""
    templates = Path(weiqi.server.__file__).parent / "templates"
    users = [p.name for p in STATIC.glob("*.js") if "./local-time.js" in p.read_text("utf-8")]
    assert "projector.js" in users
    for name in users:
        pages = [t for t in templates.glob("*.html") if f"/static/{name}" in t.read_text("utf-8")]
        assert pages, name
        for t in pages:
            assert 'data-time-zone="{{ time_zone }}"' in t.read_text("utf-8"), (name, t.name)
