"""Does an organiser's form hold the server? An import of N players through the event's page
(``POST /events/{id}/manage/players/import``) while another client asks ``/health/live``
every 20 ms, on one ``weiqi serve`` process (SQLite), as a club runs it.

A route that runs the services on the event loop holds every other request of its worker —
and every live room, clock call-out and push — until it is done; one that runs in the
threadpool does not. Printed: the import's wall time, the longest ``/health/live`` answer
during it and, before it, with the server idle (the reference, same run). Last line:
``ratio X`` = the longest answer during the import ÷ the import's time (near 1: the loop was
held the whole time; near 0: it was not).

Usage: ``python bench/form_loop.py [--players 3000] [--src OTHER/src]``
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

SRC = Path(__file__).resolve().parents[1] / "src"
ADMIN_PASSWORD = "the bench's organiser 2026"


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _poll(url: str, stop: threading.Event, out: list[float]) -> None:
    """Ask ``/health/live`` every 20 ms until ``stop``; each answer's wall time into ``out``."""
    with httpx.Client(timeout=120) as client:
        while not stop.is_set():
            t0 = time.perf_counter()
            client.get(f"{url}/health/live")
            out.append(time.perf_counter() - t0)
            time.sleep(0.02)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3000)
    parser.add_argument("--src", type=Path, default=SRC)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="weiqi-form-loop-"))
    port = _port()
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONPATH": str(args.src)}
    for name in ("WEIQI_DATABASE_URL", "WEIQI_REDIS_URL"):
        env.pop(name, None)
    env["WEIQI_ADMIN_PASSWORD"] = ADMIN_PASSWORD  # a one-time one must be changed first
    out = folder / "stdout.txt"
    with out.open("wb") as stdout:
        server = subprocess.Popen(
            [sys.executable, "-m", "weiqi", "serve", "--port", str(port),
             "--db", f"sqlite:///{folder / 'weiqi.sqlite3'}"],
            stdout=stdout, stderr=subprocess.DEVNULL, cwd=folder, env=env,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("the server did not start")
            time.sleep(0.1)
        with httpx.Client(base_url=url, timeout=600) as admin:
            token = admin.get("/api/session").json()["csrf_token"]
            headers = {"X-CSRF-Token": token}
            admin.post(
                "/api/session",
                json={"username": "admin", "password": ADMIN_PASSWORD},
                headers=headers,
            ).raise_for_status()
            token = admin.get("/api/session").json()["csrf_token"]
            headers = {"X-CSRF-Token": token}
            event = admin.post(
                "/api/events/tournaments",
                json={"name": "form loop", "settings": {"system": "swiss", "rounds": 5}},
                headers=headers,
            )
            event.raise_for_status()
            event_id = event.json()["id"]
            csv = "name,rank,club\n" + "".join(
                f"P{i:05d},{1 + i % 20}k,club{i % 300}\n" for i in range(args.players)
            )
            idle: list[float] = []
            stop = threading.Event()
            poller = threading.Thread(target=_poll, args=(url, stop, idle))
            poller.start()
            time.sleep(2.0)
            stop.set()
            poller.join()
            during: list[float] = []
            stop = threading.Event()
            poller = threading.Thread(target=_poll, args=(url, stop, during))
            poller.start()
            time.sleep(0.2)
            t0 = time.perf_counter()
            done = admin.post(
                f"/events/{event_id}/manage/players/import",
                data={"text": csv, "csrf_token": token},
                follow_redirects=False,
            )
            took = time.perf_counter() - t0
            time.sleep(0.2)
            stop.set()
            poller.join()
            assert done.status_code == 303, (done.status_code, done.text[:500])
    finally:
        server.terminate()
        server.wait(timeout=20)
    print(f"import of {args.players} players: {took:.2f} s")
    print(f"/health/live idle: longest {max(idle) * 1000:.1f} ms of {len(idle)}")
    print(f"/health/live during the import: longest {max(during) * 1000:.1f} ms of {len(during)}")
    print(f"ratio {max(during) / took:.2f}")


if __name__ == "__main__":
    main()
