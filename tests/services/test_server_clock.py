"""Time is the server's: the shell reads "now" in one place (``services/server_clock.py``) and no
request body of the JSON API says what time it is."""

from __future__ import annotations

import ast
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from weiqi.server.app import create_app
from weiqi.services.events import create_event
from weiqi.services.server_clock import SYSTEM_CLOCK, ManualClock, ServerClock
from weiqi.store.database import Database

SRC = Path(__file__).resolve().parents[2] / "src" / "weiqi"
SHELL = ("services", "server", "cli")
#: Calls that read the wall clock; ``time.monotonic`` (the login throttle's interval timer,
#: injected in ``server/ratelimit.py``) measures durations, not what time it is.
WALL_CLOCK = {("time", "time"), ("datetime", "now"), ("datetime", "utcnow"), ("date", "today")}


def _wall_clock_reads(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = node.func.value
            name = owner.id if isinstance(owner, ast.Name) else getattr(owner, "attr", "")
            if (name, node.func.attr) in WALL_CLOCK:
                found.append(f"{path.relative_to(SRC)}:{node.lineno}")
    return found


def test_the_shell_reads_the_wall_clock_only_through_the_server_clock() -> None:
    """Services, routes and commands take the time from an injected ``ServerClock``; the only
    wall-clock read is ``SystemClock.now``."""
    reads = [
        where
        for area in SHELL
        for path in sorted((SRC / area).rglob("*.py"))
        for where in _wall_clock_reads(path)
    ]
    assert reads and {r.split(":")[0] for r in reads} == {"services/server_clock.py"}, reads


def _schema(spec: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    if ref is None:
        return node
    found: dict[str, Any] = spec
    for part in ref.removeprefix("#/").split("/"):
        found = found[part]
    return found


def test_no_request_body_of_the_api_says_what_time_it_is() -> None:
    """No JSON body has a field for the time of the request (``at``, ``now``, ``submitted_at``)."""
    spec = create_app(Database("sqlite://"), secret_key="x").openapi()
    bodies = 0
    for path, methods in spec["paths"].items():
        for method, op in methods.items():
            content = op.get("requestBody", {}).get("content", {})
            for media in content.values():
                schema = _schema(spec, media["schema"])
                bodies += 1
                fields = set(schema.get("properties", {}))
                assert not fields & {"at", "now", "submitted_at", "time"}, (method, path, fields)
    assert bodies > 10  # the check saw the API's bodies


def test_manual_clock_moves_only_when_told_and_refuses_naive_times() -> None:
    t0 = datetime(2026, 5, 1, 8, 0, tzinfo=UTC)
    clock = ManualClock(t0)
    assert clock.now() == clock.now() == t0
    assert clock.advance(timedelta(minutes=30)).now() == t0 + timedelta(minutes=30)
    assert clock.set(t0 - timedelta(days=1)).now() == t0 - timedelta(days=1)
    with pytest.raises(ValueError, match="aware"):
        clock.set(datetime(2026, 5, 1, 8, 0))
    assert isinstance(clock, ServerClock) and isinstance(SYSTEM_CLOCK, ServerClock)
    before = datetime.now(UTC)
    assert before <= SYSTEM_CLOCK.now() <= datetime.now(UTC)


def test_r_ref_7_a_result_from_the_command_line_service_is_stamped_by_its_clock() -> None:
    """R-REF-7: ``weiqi round result`` and ``round results`` (``tournament.record_result(s)``)
    append to the game's record at the clock they are given, the system clock by default."""
    from weiqi.services import games
    from weiqi.services import tournament as t
    from weiqi.services.actor import Actor
    from weiqi.tournament.settings import EventSettings, System

    db = Database("sqlite://")
    db.upgrade()
    local = Actor.local()
    ev = create_event(db, local, "Club", EventSettings(system=System.ROUND_ROBIN)).id
    t.import_players(db, local, ev, "name\nA\nB\nC\nD\n")
    t.pair_round(db, local, ev)
    t0 = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
    t.record_result(db, local, ev, 1, 1, "B+R", clock=ManualClock(t0))
    t.record_results(db, local, ev, 1, "board,result\n2,W+R\n", clock=ManualClock(t0))
    for board in (1, 2):
        assert [h.at for h in games.game_view(db, ev, 1, board).history] == [t0, t0]
    db.dispose()
