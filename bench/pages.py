"""Public-pages benchmark: a hall refreshing the standings of a 500-player Swiss, against a bare
FastAPI endpoint on the same machine in the same run.

A 500-player, 5-round Swiss (every round paired, published and played; results drawn from the
ratings, seed 2026) is built through the services in an SQLite file; then ``weiqi serve`` runs
on it as a user starts it, once with the page cache (``server/page_cache.py``) and once with
``WEIQI_PAGE_CACHE=off``, and each of the standings page, the last round's pairings page and
the standings JSON is read by ``--concurrency`` clients (each its own connection and cookies,
like one browser each; none logged in) for ``--duration`` seconds. The reference, in the same
run: a bare FastAPI endpoint (``async def`` answering ``{"ok": true}``) under uvicorn, read the
same way by the same client code — the ceiling of this stack and client on this machine.

For each: requests/s, p50 and p99 latency, and the ratio of requests/s to the bare endpoint's.
Targets for the cached pages: ratio ≥ 0.30 and p99 ≤ 200 ms. Last line: ``ratio X`` = the
lowest ratio of a cached page.

The load generator is Python (httpx, asyncio) on the same cores as the server, so on a small
machine both compete: compare ratios, measured in one run, not absolute figures.

Usage: ``python bench/pages.py [--duration 30] [--concurrency 20] [--players 500]
[--rounds 5] [--quick] [--no-uncached]``
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from weiqi.services import games
from weiqi.services.actor import Actor
from weiqi.services.event_admin import publish_round
from weiqi.services.events import create_event
from weiqi.services.tournament import import_players, pair_round
from weiqi.store.database import Database
from weiqi.tournament.settings import EventSettings, System

SRC = Path(__file__).resolve().parents[1] / "src"
TARGET_RATIO = 0.30
TARGET_P99_MS = 200.0

BARE_APP = """
from fastapi import FastAPI
import uvicorn

app = FastAPI()


@app.get("/ping")
async def ping() -> dict[str, bool]:
    return {"ok": True}


uvicorn.run(app, host="127.0.0.1", port=int(__import__("sys").argv[1]), log_level="warning")
"""


@dataclass(frozen=True)
class Figure:
    label: str
    requests: int
    seconds: float
    latencies: list[float]
    errors: int

    @property
    def rate(self) -> float:
        return self.requests / self.seconds

    def percentile(self, p: float) -> float:
        """The ``p``-th percentile latency in ms."""
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return 1000 * ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def build_event(path: Path, players: int, rounds: int) -> int:
    """The event, through the services (as ``weiqi round results`` enters a sheet)."""
    local = Actor.local()
    db = Database(f"sqlite:///{path}")
    db.upgrade()
    rng = random.Random(2026)
    ratings = {f"P{i:04d}": rng.gauss(1800, 300) for i in range(players)}
    lines = ["name,rank,rating,club"]
    for name, rating in ratings.items():
        kyu = max(1, min(20, round((2100 - rating) / 100)))
        lines.append(f"{name},{kyu}k,{rating:.0f},club{rng.randrange(players // 8)}")
    settings = EventSettings(system=System.SWISS, rounds=rounds)  # 对手分 etc. by default
    ev = create_event(db, local, "千人围棋公开赛", settings).id
    import_players(db, local, ev, "\n".join(lines) + "\n")
    for _ in range(rounds):
        rnd = pair_round(db, local, ev)
        publish_round(db, local, ev, rnd.number)
        rows = []
        for line, p in enumerate(rnd.pairings, start=1):
            if p.result is None:
                black = 1 / (1 + 10 ** ((ratings[p.white] - ratings[p.black]) / 400))
                rows.append((line, p.board, "B+R" if rng.random() < black else "W+R"))
        games.enter_round_results(db, local, ev, rnd.number, rows)
    db.dispose()
    return ev


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def serving(argv: list[str], env: dict[str, str], log: Path) -> Iterator[str]:
    """Run a server (``argv`` with ``{port}`` filled in) until ``/health`` or ``/ping``
    answers; its base URL for the block."""
    port = _free_port()
    with log.open("wb") as out:
        process = subprocess.Popen(
            [a.replace("{port}", str(port)) for a in argv],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                if httpx.get(url + "/health", timeout=2).status_code in (200, 404):
                    break
            except httpx.TransportError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"server did not start:\n{log.read_text()}")
            time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=20)


async def _load(url: str, concurrency: int, seconds: float, warmup: int) -> Figure:
    latencies: list[float] = []
    errors = 0
    limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)

    async def worker(stop: float) -> None:
        nonlocal errors
        async with httpx.AsyncClient(limits=limits, timeout=60) as client:
            for _ in range(warmup):
                await client.get(url)
            while (start := time.perf_counter()) < stop:
                response = await client.get(url)
                if response.status_code != 200:
                    errors += 1
                latencies.append(time.perf_counter() - start)

    t0 = time.perf_counter()
    await asyncio.gather(*(worker(t0 + seconds) for _ in range(concurrency)))
    elapsed = time.perf_counter() - t0
    return Figure(url, len(latencies), elapsed, latencies, errors)


def measure(label: str, url: str, concurrency: int, seconds: float) -> Figure:
    figure = asyncio.run(_load(url, concurrency, seconds, warmup=1))
    return Figure(label, figure.requests, figure.seconds, figure.latencies, figure.errors)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=30.0, help="seconds per page")
    parser.add_argument("--concurrency", type=int, default=20)
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="a smoke run: 3 s a page")
    parser.add_argument("--no-uncached", action="store_true", help="skip WEIQI_PAGE_CACHE=off")
    args = parser.parse_args()
    if args.quick:
        args.duration = 3.0

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        db_path = folder / "event.sqlite3"
        t0 = time.perf_counter()
        ev = build_event(db_path, args.players, args.rounds)
        print(f"event: {args.players} players, {args.rounds} rounds, built in "
              f"{time.perf_counter() - t0:.1f} s", flush=True)  # fmt: skip
        env = {**os.environ, "PYTHONPATH": str(SRC), "WEIQI_ADMIN_PASSWORD": "bench pages 2026"}
        for name in ("WEIQI_DATABASE_URL", "WEIQI_REDIS_URL", "WEIQI_PAGE_CACHE"):
            env.pop(name, None)
        pages = {
            "standings page": f"/events/{ev}/standings",
            "pairings page": f"/events/{ev}/rounds/{args.rounds}",
            "standings JSON": f"/api/events/{ev}/standings",
        }
        bare_argv = [sys.executable, "-c", BARE_APP, "{port}"]
        with serving(bare_argv, env, folder / "bare.log") as url:
            bare = measure("bare FastAPI endpoint", url + "/ping", args.concurrency, args.duration)
        serve = [sys.executable, "-m", "weiqi", "serve", "--port", "{port}", "--db",
                 f"sqlite:///{db_path}"]  # fmt: skip
        modes = [("cached", env)]
        if not args.no_uncached:
            modes.append(("uncached", {**env, "WEIQI_PAGE_CACHE": "off"}))
        figures: list[tuple[str, Figure]] = []
        for mode, mode_env in modes:
            with serving(serve, mode_env, folder / f"{mode}.log") as url:
                for label, path in pages.items():
                    size = len(httpx.get(url + path, timeout=120).content)
                    figure = measure(label, url + path, args.concurrency, args.duration)
                    figures.append((f"{mode} ({size / 1024:.0f} kB)", figure))

    print(f"concurrency {args.concurrency}, {args.duration:.0f} s each; ratio = requests/s ÷ the "
          "bare endpoint's")  # fmt: skip
    print(f"{'what':<24} {'mode':<18} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'ratio':>7}")
    rows = [("reference", bare), *figures]
    for mode, f in rows:
        errors = f"  ({f.errors} errors)" if f.errors else ""
        print(f"{f.label:<24} {mode:<18} {f.rate:>8.1f} {f.percentile(50):>8.1f} "
              f"{f.percentile(99):>8.1f} {f.rate / bare.rate:>7.3f}{errors}")  # fmt: skip
    cached = [f for mode, f in figures if mode.startswith("cached")]
    worst = min(f.rate / bare.rate for f in cached)
    slowest = max(f.percentile(99) for f in cached)
    met = worst >= TARGET_RATIO and slowest <= TARGET_P99_MS
    print(f"targets (cached): ratio ≥ {TARGET_RATIO}, p99 ≤ {TARGET_P99_MS:.0f} ms: "
          f"{'met' if met else 'not met'} (p99 {slowest:.0f} ms)")  # fmt: skip
    print(f"ratio {worst:.3f}")


if __name__ == "__main__":
    main()
