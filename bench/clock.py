"""Clock speed: derive a game's clock by replaying its logged clock events, against decoding
the same log from JSON (what reading it from the store costs anyway), in the same run.

The game: 300 moves under 55m+5x60s byo-yomi with a lunch pause and a sealed move, move
times drawn from a fixed seed; one event per press. The clock is derived, not stored
(ARCHITECTURE.md: cache a derived value only when a benchmark shows the need), so what matters
is how replay compares with loading the events at all.

    PYTHONPATH=src python bench/clock.py

The last line is ``ratio X`` = replay time ÷ JSON decode time of the same log (lower is better).
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

from weiqi.clock import Clock, Color, TimeControl, replay

SEED = 2026
MOVES = 300
ROUNDS = 5
REPEAT = 20


def game_log() -> list[dict[str, Any]]:
    rng = random.Random(SEED)
    now = 0.0
    color = Color.BLACK
    log: list[dict[str, Any]] = [{"op": "start", "now": now, "color": "B"}]
    for move in range(1, MOVES + 1):
        now += round(rng.uniform(1, 59), 3)
        if move == 120:
            log.append({"op": "pause", "now": now})
            now += 3600
            log.append({"op": "resume", "now": now})
        op = "seal" if move == 200 else "press"
        log.append({"op": op, "now": now, "color": color.value})
        if op == "seal":
            now += 50_000
            log.append({"op": "resume", "now": now})
        color = color.opponent
    log.append({"op": "stop", "now": now + 1})
    return log


def best(fn: Any) -> float:
    times = []
    for _ in range(ROUNDS):
        t0 = time.perf_counter()
        for _ in range(REPEAT):
            fn()
        times.append((time.perf_counter() - t0) / REPEAT)
    return min(times)


def main() -> None:
    tc = TimeControl.parse("60m incl 5x60s")
    log = game_log()
    text = json.dumps(log)
    start = Clock.new(tc)
    final = replay(start, log)
    assert final.moves == MOVES
    t_replay = best(lambda: replay(start, log))
    t_json = best(lambda: json.loads(text))
    running = replay(start, log[:150])
    t_deadline = best(lambda: [running.next_deadline() for _ in range(1000)]) / 1000
    later = log[149]["now"] + 1
    t_remaining = best(lambda: [running.remaining(later, Color.WHITE) for _ in range(100)]) / 100
    print(f"events: {len(log)}")
    print(f"replay: {t_replay * 1e3:.2f} ms per game ({len(log) / t_replay:,.0f} events/s)")
    print(f"json decode of the same log: {t_json * 1e3:.3f} ms")
    print(f"next_deadline(): {t_deadline * 1e6:.2f} µs; remaining(): {t_remaining * 1e6:.1f} µs")
    print(f"ratio {t_replay / t_json:.1f}")


if __name__ == "__main__":
    main()
