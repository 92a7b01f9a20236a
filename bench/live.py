"""Live play benchmark: simulated players over real WebSockets against ``weiqi serve``, beside a
bare Starlette WebSocket relay on the same machine in the same run (the ceiling).

For each size of ``--games``, an online 9×9 Swiss round of twice that many players is built
through the services (every entrant an account, linked by its invitation code, the round paired
and published, a time control of 60 minutes so that nobody flags), then ``weiqi serve`` runs on
it as a user starts it, once for each count of ``--workers`` (``--workers N`` on PostgreSQL +
Redis; one worker is on Redis too, so that only the count changes; the games' records are
removed between two counts, so each count plays the same games from the start). Each game's two
players connect to the game room (``…/live``) with their own session cookie, wait for the
start, and play ``--moves`` moves — Black fills the columns A–D, White F–J, so every move is
legal and nothing is captured — each ``--think`` seconds after the opponent's move reached
them. ``--spectators`` anonymous connections watch the rooms meanwhile (spread over the games).
The latency of a move is from the mover's send to the opponent's receipt of the update that
holds it: through the rules core, the game's record in the database, the push bus and both
sockets.

The clients run in ``--clients`` processes of their own (each game's two players in one), so
that the client does not starve the servers of one core's Python; the file limit is raised to
the hard limit in each process.

The reference: a bare Starlette app under uvicorn whose WebSocket relays each message of one
player of a pair to the other, driven by the same client processes with the same games, moves
and think time: the ceiling of this stack, client and machine.

Printed for each size and worker count: moves/s, p50 and p99 latency (ms), ours ÷ the relay's,
and where the CPU went meanwhile — the server workers, PostgreSQL's backends serving them, Redis
(``INFO``: the whole server, shared), the clients — with the most PostgreSQL backends active at
once and waiting on a lock (``pg_stat_activity``, sampled), and every spectator push delivered.
Last line: ``ratio X`` = our moves/s ÷ the relay's at the first size and the first worker count.

Usage: ``PYTHONPATH=src python bench/live.py [--games 1000,5000] [--workers 1,2,4] [--moves 20]
[--think 1.0] [--spectators 10000] [--clients 4] [--db postgresql+psycopg://…] [--quick]``
(``--quick``: 100 games, workers 1,2, 10 moves, 200 spectators). Without ``--db`` a new schema
of the local PostgreSQL (``WEIQI_TEST_POSTGRES`` or 127.0.0.1/test) is made for each size;
``--db sqlite:///FILE --redis none --workers 1`` measures the laptop's one process (``make
run``: SQLite and the in-process bus).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import pstats
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import redis
from argon2 import PasswordHasher
from sqlalchemy import create_engine, delete, select, text
from starlette.applications import Starlette
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from websockets.asyncio.client import connect

from weiqi.clock.control import TimeControl
from weiqi.services import accounts, live
from weiqi.services import tournament as t
from weiqi.services.actor import Actor
from weiqi.services.event_admin import publish_round
from weiqi.services.events import create_event
from weiqi.services.site import secret_key
from weiqi.services.tournament import RoundView
from weiqi.store.database import Database
from weiqi.store.games import GameRecordRow
from weiqi.store.tournament import GameRow, RoundRow
from weiqi.tournament.settings import EventSettings, PlayMode, System

SRC = Path(__file__).resolve().parents[1] / "src"
LOCAL = Actor.local()
TARGET_P99_MS = 100.0
#: A reader waiting longer than this for a push reports it (never a silent hang).
RECV_TIMEOUT = 60.0
COLUMNS_B, COLUMNS_W = "ABCD", "FGHJ"
#: The ``application_name`` of the servers' PostgreSQL connections (their backends' CPU).
APP_NAME = "weiqi-bench"

RELAY_APP = """
import asyncio, sys
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
import uvicorn

pairs = {}


async def relay(ws):
    game, color = ws.path_params["game"], ws.path_params["color"]
    await ws.accept()
    seats = pairs.setdefault(game, {})
    seats[color] = ws
    try:
        while True:
            text = await ws.receive_text()
            other = seats.get("W" if color == "B" else "B")
            if other is not None:
                await other.send_text(text)
    except Exception:
        pass
    finally:
        seats.pop(color, None)


app = Starlette(routes=[WebSocketRoute("/relay/{game}/{color}", relay)])
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
"""


def moves(count: int) -> list[str]:
    """``count`` legal moves of a 9×9 game without a capture, Black first.

    >>> moves(4)
    ['A1', 'F1', 'A2', 'F2']
    """
    black = [f"{c}{r}" for c in COLUMNS_B for r in range(1, 10)]
    white = [f"{c}{r}" for c in COLUMNS_W for r in range(1, 10)]
    out: list[str] = []
    for b, w in zip(black, white, strict=False):
        out += [b, w]
    return out[:count]


@dataclass(frozen=True)
class Seat:
    board: int
    color: str
    cookie: str


@dataclass(frozen=True)
class Figure:
    label: str
    moves: int
    seconds: float
    latencies: list[float]

    @property
    def rate(self) -> float:
        return self.moves / self.seconds if self.seconds > 0 else 0.0

    def percentile(self, p: float) -> float:
        ordered = sorted(self.latencies)
        if not ordered:
            return float("nan")
        return 1000 * ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def cookie_signer(secret: str) -> Any:
    """Starlette's own session middleware with the site's secret: a login session's cookie as
    the server signs it (the bench starts sessions through the services instead of thousands of
    password checks)."""
    import warnings

    with warnings.catch_warnings():  # starlette's notice about its test client's HTTP library
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    async def sign(request: Request) -> Response:
        request.session["sid"] = request.query_params["token"]
        return Response("")

    app = Starlette(routes=[Route("/", sign)])
    return TestClient(SessionMiddleware(app, secret_key=secret, session_cookie="weiqi_session"))


def online_round(
    db: Database, games: int, size: int, name: str
) -> tuple[int, list[str], RoundView]:
    """A Swiss event of ``2 × games`` entrants on ``size``×``size`` with a time control of 60
    minutes (nobody flags), its round 1 paired: the event, the entrants' names, the round."""
    settings = EventSettings(
        system=System.SWISS, rounds=1, board_size=size, play=PlayMode.ONLINE,
        time_control=TimeControl.parse("60m"),
    )  # fmt: skip
    ev = create_event(db, LOCAL, name, settings).id
    names = [f"P{i:05d}" for i in range(2 * games)]
    t.import_players(db, LOCAL, ev, "name,rank\n" + "".join(f"{n},5k\n" for n in names))
    return ev, names, t.pair_round(db, LOCAL, ev)


def build_event(url: str, games: int) -> tuple[int, list[Seat]]:
    """The online round and each player's seat with its session cookie."""
    db = Database(url)
    db.upgrade()
    previous = accounts.set_password_hasher(
        PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
    )
    try:
        ev, names, rnd = online_round(db, games, 9, "网络赛 bench")
        publish_round(db, LOCAL, ev, 1)
        seat_of = {}
        for p in rnd.pairings:
            seat_of[p.black], seat_of[p.white] = (p.board, "B"), (p.board, "W")
        signer = cookie_signer(secret_key(db))
        now = datetime.now(UTC)
        seats = []
        for name in names:
            user = accounts.create_user(db, LOCAL, f"u{name.lower()}", f"{name} 的密码 2026")
            code = live.create_invite(db, LOCAL, ev, live.player_id(db, ev, name)).code
            live.redeem_invite(db, user.actor(), code)
            token = accounts.start_session(db, user.id, now)
            answer = signer.get("/", params={"token": token})
            board, color = seat_of[name]
            seats.append(Seat(board, color, f"weiqi_session={answer.cookies['weiqi_session']}"))
        return ev, seats
    finally:
        accounts.set_password_hasher(previous)
        db.dispose()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def serving(argv: list[str], env: dict[str, str], log: Path) -> Iterator[tuple[str, int]]:
    """Run a server (``argv`` with ``{port}`` filled in) until it answers; its base URL and
    its process id."""
    port = _free_port()
    with log.open("wb") as out:
        process = subprocess.Popen(
            [a.replace("{port}", str(port)) for a in argv], stdout=out, stderr=subprocess.STDOUT,
            env=env,
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                httpx.get(url + "/health", timeout=2)
                break
            except httpx.TransportError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(log.read_text()) from None
                time.sleep(0.2)
        yield url, process.pid
    except BaseException:
        print(log.read_text()[-4000:], file=sys.stderr)  # what the server said of it
        raise
    finally:
        process.send_signal(signal.SIGINT)  # as Ctrl-C: a profiled server writes its profile
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


async def _update_after(ws: Any, seq: int) -> tuple[int, float]:
    """The record's length in the first update after ``seq``, and when it arrived."""
    while True:
        try:
            m: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), RECV_TIMEOUT))
        except TimeoutError:
            raise RuntimeError(f"no update after event {seq} in {RECV_TIMEOUT} s") from None
        if m["type"] == "update" and m["snapshot"]["seq"] > seq:
            return int(m["snapshot"]["seq"]), time.perf_counter()
        if m["type"] == "refused":
            raise RuntimeError(f"refused: {m}")


async def _game(
    urls: dict[str, str], headers: dict[str, dict[str, str]], plan: list[str], think: float,
    latencies: list[float], relay: bool, gate: asyncio.Semaphore,
) -> tuple[float, float]:  # fmt: skip
    """One game played to the end of ``plan``; when (epoch seconds) its first move was sent
    and its last one received."""
    async with contextlib.AsyncExitStack() as stack:
        async with gate:  # a few handshakes at a time
            b, w = [
                await stack.enter_async_context(
                    # as a browser: no pings of its own (the server's are answered)
                    connect(
                        urls[c],
                        additional_headers=headers[c],
                        open_timeout=300,
                        max_size=None,
                        ping_interval=None,
                    )
                )
                for c in "BW"
            ]
        sockets = {"B": b, "W": w}
        seq = 0
        if not relay:  # the state, then the start
            for ws in (b, w):
                while True:
                    try:
                        m = json.loads(await asyncio.wait_for(ws.recv(), RECV_TIMEOUT))
                    except TimeoutError:
                        raise RuntimeError(f"not started in {RECV_TIMEOUT} s") from None
                    if m["type"] in ("state", "update") and m["snapshot"]["started"]:
                        seq = max(seq, m["snapshot"]["seq"])
                        break
                    if m["type"] == "refused":
                        raise RuntimeError(f"refused at the start: {m}")
        began = 0.0
        for i, vertex in enumerate(plan):
            mover, other = ("B", "W") if i % 2 == 0 else ("W", "B")
            await asyncio.sleep(think)
            sent = time.perf_counter()
            began = began or time.time()
            await sockets[mover].send(
                json.dumps({"type": "act", "action": "move", "vertex": vertex, "seq": seq})
            )
            if relay:
                await sockets[other].recv()
                latencies.append(time.perf_counter() - sent)
                continue
            # both read at once: the opponent's push times the move; the mover's own copy (or
            # its refusal) carries the record's length for the next move
            theirs = asyncio.ensure_future(_update_after(sockets[other], seq))
            mine = await _update_after(sockets[mover], seq)
            got = await theirs
            latencies.append(got[1] - sent)
            seq = max(mine[0], got[0])
    return began, time.time()


def raise_file_limit() -> None:
    """Thousands of sockets: the soft limit of open files raised to the hard one."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


async def _watch(
    url: str, counts: list[int], ready: asyncio.Event, stop: asyncio.Event, opened: list[Any]
) -> None:
    """One spectator: connected until ``stop`` (the caller closes its socket, in ``opened``),
    counting the updates pushed to it. Like a browser it sends no keep-alive pings (the
    server's are answered), and it waits for the next push without waking in between."""
    try:
        async with connect(url, open_timeout=300, max_size=None, ping_interval=None) as ws:
            opened.append(ws)
            counts[0] += 1
            ready.set()
            async for raw in ws:
                if json.loads(raw).get("type") == "update":
                    counts[1] += 1
                    counts[3] += len(raw)  # as sent, before any compression of the link
        if not stop.is_set():
            raise ConnectionError("closed by the server")
    except Exception:  # counted: a spectator that could not stay connected
        counts[2] += 1
        ready.set()


async def client(spec: dict[str, Any]) -> dict[str, Any]:
    """One client process's share: its spectators connected first, then its games played."""
    raise_file_limit()
    base, relay, plan = spec["base"].replace("http://", "ws://"), spec["relay"], spec["plan"]
    counts = [0, 0, 0, 0]  # spectators connected, updates they received, failed, their bytes
    stop = asyncio.Event()
    watchers = []
    opened: list[Any] = []  # the spectators' sockets, closed at the end
    gate = asyncio.Semaphore(200)  # handshakes at once: a crowd of them times out

    async def watch(board: int) -> None:
        ready = asyncio.Event()
        url = f"{base}/events/{spec['event']}/rounds/1/boards/{board}/live"
        async with gate:
            task = asyncio.ensure_future(_watch(url, counts, ready, stop, opened))
            watchers.append(task)
            await ready.wait()

    if not relay:
        await asyncio.gather(*(watch(b) for b in spec["spectate"]))
    latencies: list[float] = []
    jobs = []
    for board, cookies in spec["games"]:
        if relay:
            urls = {c: f"{base}/relay/{board}/{c}" for c in "BW"}
            headers: dict[str, dict[str, str]] = {"B": {}, "W": {}}
        else:
            urls = {c: f"{base}/events/{spec['event']}/rounds/1/boards/{board}/live" for c in "BW"}
            headers = {c: {"Cookie": cookies[c]} for c in "BW"}
        jobs.append(_game(urls, headers, plan, spec["think"], latencies, relay, gate))
    # a game that fails (a push later than RECV_TIMEOUT, a socket the server closed) is
    # counted, not the end of the run: an overloaded server is a figure too
    played = await asyncio.gather(*jobs, return_exceptions=True)
    spans = [p for p in played if isinstance(p, tuple)]
    errors = [f"{type(p).__name__}: {p}"[:200] for p in played if isinstance(p, BaseException)]
    stop.set()
    await asyncio.gather(*(ws.close() for ws in opened), return_exceptions=True)
    await asyncio.gather(*watchers)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return {
        "moves": len(latencies),
        "failed": len(errors),
        "errors": sorted(set(errors))[:5],
        "start": min((a for a, _ in spans), default=0.0),
        "end": max((b for _, b in spans), default=0.0),
        "latencies": latencies,
        "spectators": counts,
        "cpu": usage.ru_utime + usage.ru_stime,
    }


def _cpu(pid: int) -> float:
    """CPU seconds (user + system) of a process and its waited-for children, 0 once gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def _peak_rss(pid: int) -> float:
    """The most resident memory a process has held (``VmHWM``), in MB; 0 once gone."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0.0
    kb = next((line.split()[1] for line in status.splitlines() if line.startswith("VmHWM")), "0")
    return int(kb) / 1024


def _tree(pid: int) -> list[int]:
    """A process and its descendants (uvicorn's workers under ``weiqi serve --workers N``)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        for task in Path(f"/proc/{p}/task").glob("*/children"):
            with contextlib.suppress(OSError):
                todo += [int(c) for c in task.read_text().split()]
    return out


class Watch:
    """What the server side spends while the games are played: CPU of the server processes
    (and their peak memory, summed), of the PostgreSQL backends with the bench's
    ``application_name``, of Redis (``INFO``, the whole server); the most backends active, and
    waiting on a lock, at once (sampled)."""

    def __init__(self, db_url: str, redis_url: str | None, server: int | None) -> None:
        self.engine = create_engine(db_url.split("?")[0]) if db_url.startswith("postgres") else None
        self.redis = redis.Redis.from_url(redis_url) if redis_url else None
        self.server = server
        self.active = self.locked = 0
        self._stop = threading.Event()
        self._sampler = threading.Thread(target=self._sample, daemon=True)

    def _backends(self) -> list[tuple[int, str, str | None]]:
        if self.engine is None:
            return []
        with self.engine.connect() as c:
            rows = c.execute(
                text("SELECT pid, state, wait_event_type FROM pg_stat_activity "
                     "WHERE application_name = :app"), {"app": APP_NAME},
            ).all()  # fmt: skip
        return [(int(r[0]), str(r[1]), r[2]) for r in rows]

    def _redis_cpu(self) -> float:
        if self.redis is None:
            return 0.0
        info = self.redis.info("cpu")
        return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])

    def _sample(self) -> None:
        while not self._stop.wait(0.5):
            with contextlib.suppress(Exception):
                rows = self._backends()
                self.active = max(self.active, sum(r[1] == "active" for r in rows))
                self.locked = max(self.locked, sum(r[2] == "Lock" for r in rows))
                self._pids |= {r[0] for r in rows}

    def start(self) -> None:
        self._pids: set[int] = {r[0] for r in self._backends()}
        self._before = {p: _cpu(p) for p in self._pids}
        self._servers = {p: _cpu(p) for p in _tree(self.server)} if self.server else {}
        self._redis = self._redis_cpu()
        self._sampler.start()

    def stop(self) -> dict[str, float]:
        self._stop.set()
        self._sampler.join()
        pids = self._pids | {r[0] for r in self._backends()}
        servers = _tree(self.server) if self.server else []
        out = {
            "server": sum(_cpu(p) - self._servers.get(p, 0.0) for p in servers),
            "memory": sum(_peak_rss(p) for p in servers),
            "postgres": sum(_cpu(p) - self._before.get(p, 0.0) for p in pids),
            "redis": self._redis_cpu() - self._redis,
            "active": float(self.active),
            "locked": float(self.locked),
        }
        if self.engine is not None:
            self.engine.dispose()
        return out


def play(
    base: str, event: int, seats: list[Seat], args: argparse.Namespace, relay: bool,
    folder: Path,
) -> tuple[Figure, dict[str, float]]:  # fmt: skip
    """The games played (and watched) by ``--clients`` processes; the figure and the spectators'
    counts and the clients' CPU."""
    by_board: dict[int, dict[str, str]] = {}
    for seat in seats:
        by_board.setdefault(seat.board, {})[seat.color] = seat.cookie
    boards = sorted(by_board)
    count = max(1, min(args.clients, len(boards)))
    spectate = [boards[i % len(boards)] for i in range(args.spectators)]
    procs = []
    for k in range(count):
        spec = {
            "base": base, "event": event, "relay": relay, "plan": moves(args.moves),
            "think": args.think, "games": [(b, by_board[b]) for b in boards[k::count]],
            "spectate": spectate[k::count],
        }  # fmt: skip
        path = folder / f"client{k}.json"
        path.write_text(json.dumps(spec))
        procs.append(subprocess.Popen(
            [sys.executable, __file__, "--client", str(path)], stdout=subprocess.PIPE,
        ))  # fmt: skip
    results = []
    for proc in procs:
        out, _ = proc.communicate()
        if proc.returncode != 0:
            raise RuntimeError(f"a client failed ({proc.returncode})")
        results.append(json.loads(out))
    latencies = [x for r in results for x in r["latencies"]]
    ends = [r["end"] for r in results if r["end"]]
    starts = [r["start"] for r in results if r["start"]]
    seconds = max(ends, default=1.0) - min(starts, default=0.0)
    figure = Figure("relay" if relay else "weiqi", sum(r["moves"] for r in results), seconds,
                    latencies)  # fmt: skip
    extra = {
        "clients": sum(r["cpu"] for r in results),
        "watching": float(sum(r["spectators"][0] for r in results)),
        "pushed": float(sum(r["spectators"][1] for r in results)),
        "failed": float(sum(r["spectators"][2] for r in results)),
        "push bytes": float(sum(r["spectators"][3] for r in results)),
        "games failed": float(sum(r["failed"] for r in results)),
    }
    for error in sorted({e for r in results for e in r["errors"]}):
        print(f"    a game failed: {error}")
    return figure, extra


def reset(url: str, event: int) -> None:
    """The round's games as before anyone played: their records removed (the next worker count
    plays the same games from the start)."""
    db = Database(url)
    try:
        with db.transaction() as session:
            games = select(GameRow.id).join(RoundRow).where(RoundRow.event_id == event)
            session.execute(delete(GameRecordRow).where(GameRecordRow.game_id.in_(games)))
    finally:
        db.dispose()


@contextmanager
def database(given: str | None) -> Iterator[str]:
    """The bench's PostgreSQL URL (a new schema dropped afterwards, unless ``given``), with the
    ``application_name`` its backends are found by."""
    if given:
        yield _named(given)
        return
    server = os.environ.get("WEIQI_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1/test")
    schema = f"bench_{uuid.uuid4().hex[:12]}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield _named(f"{server}?options=-csearch_path%3D{schema}")
    finally:
        with admin.connect() as c:
            c.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


def _named(url: str) -> str:
    if not url.startswith("postgresql"):
        return url  # a SQLite file: the laptop's one process
    return url + ("&" if "?" in url else "?") + f"application_name={APP_NAME}"


def server_errors(log: Path) -> str:
    """The exceptions the server's log ends its tracebacks with (the last of a chain),
    counted: ``""`` when none.

    >>> import tempfile; log = Path(tempfile.mkdtemp()) / "serve.log"
    >>> _ = log.write_text("Traceback (most recent call last):\\n  x\\nOSError: too many\\n" * 2)
    >>> server_errors(log)
    '2 × OSError: too many'
    """
    counts: dict[str, int] = {}
    lines = log.read_text(errors="replace").splitlines()
    for i, line in enumerate(lines):
        if line.startswith("Traceback"):
            end = next((j for j in range(i + 1, len(lines)) if not lines[j].startswith(" ")), None)
            chained = (
                any(  # the cause of another traceback: that one is counted
                    "above exception" in later for later in lines[end + 1 : end + 4]
                )
                if end is not None
                else True
            )
            if not chained and end is not None:
                counts[lines[end][:160]] = counts.get(lines[end][:160], 0) + 1
    return "; ".join(f"{n} × {what}" for what, n in sorted(counts.items(), key=lambda c: -c[1]))


def _line(f: Figure) -> str:
    return (
        f"  {f.label:10} {f.moves} moves in {f.seconds:.1f} s: {f.rate:.0f} moves/s, "
        f"p50 {f.percentile(50):.1f} ms, p99 {f.percentile(99):.1f} ms"
    )


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", default="1000,5000")
    ap.add_argument("--workers", default="1,2,4")
    ap.add_argument("--moves", type=int, default=20)
    ap.add_argument("--think", type=float, default=1.0, help="seconds before each move")
    ap.add_argument("--spectators", type=int, default=10_000)
    ap.add_argument("--clients", type=int, default=4, help="client processes")
    ap.add_argument("--db", help="a PostgreSQL URL (else a new schema of the local one)")
    ap.add_argument(
        "--redis", default=os.environ.get("WEIQI_REDIS_URL", "redis://127.0.0.1:6379/0")
    )
    ap.add_argument("--quick", action="store_true", help="100 games, workers 1,2, 10 moves")
    ap.add_argument("--profile", help="one worker's server under cProfile: its top functions")
    ap.add_argument("--client", help=argparse.SUPPRESS)  # a client process's spec
    args = ap.parse_args(argv)
    if args.client:
        spec = json.loads(Path(args.client).read_text())
        print(json.dumps(asyncio.run(client(spec))))
        return
    if args.quick:
        args.games, args.workers, args.moves, args.spectators = "100", "1,2", 10, 200
    raise_file_limit()
    counts = [int(w) for w in args.workers.split(",")]
    env = {**os.environ, "PYTHONPATH": str(SRC), "WEIQI_PAGE_CACHE": "on",
           "WEIQI_REDIS_URL": args.redis}  # fmt: skip
    env.pop("WEIQI_DATABASE_URL", None)
    if args.redis == "none":  # one process with its in-process bus, as `make run`
        env.pop("WEIQI_REDIS_URL")
        args.redis = None
    first_ratio = None
    load = os.getloadavg()
    print(
        f"{args.moves} moves a game, {args.think} s before each; workers {args.workers}; "
        f"{args.spectators} spectators; {args.clients} client processes; {os.cpu_count()} cores, "
        f"load {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}"
    )
    for games in (int(g) for g in args.games.split(",")):
        with tempfile.TemporaryDirectory() as tmp, database(args.db) as url:
            folder = Path(tmp)
            began = time.perf_counter()
            event, seats = build_event(url, games)
            print(f"{games} games: built in {time.perf_counter() - began:.0f} s")
            relay_app = folder / "relay.py"
            relay_app.write_text(RELAY_APP)
            with serving([sys.executable, str(relay_app), "{port}"], env, folder / "r.log") as (
                base, _pid,
            ):  # fmt: skip
                ref, _ = play(base, event, seats, args, True, folder)
            print(_line(ref))
            for workers in counts:
                reset(url, event)
                profile = ["-m", "cProfile", "-o", args.profile] if args.profile else []
                serve = [sys.executable, *profile, "-m", "weiqi", "serve", "--port", "{port}",
                         "--db", url]  # fmt: skip
                if workers > 1:
                    serve += ["--workers", str(workers)]
                with serving(serve, env, folder / "serve.log") as (base, pid):
                    watch = Watch(url, args.redis, pid)
                    watch.start()
                    ours, extra = play(base, event, seats, args, False, folder)
                    spent = watch.stop()
                ratio = ours.rate / ref.rate
                first_ratio = ratio if first_ratio is None else first_ratio
                print(_line(Figure(f"{workers} worker{'s' if workers > 1 else ''}", ours.moves,
                                   ours.seconds, ours.latencies)))  # fmt: skip
                print(
                    f"    ratio {ratio:.2f} of the relay's moves/s; p99 ÷ relay "
                    f"{ours.percentile(99) / max(ref.percentile(99), 0.001):.1f}; CPU s: server "
                    f"{spent['server']:.1f}, postgres {spent['postgres']:.1f}, redis "
                    f"{spent['redis']:.1f}, clients {extra['clients']:.1f} "
                    f"(of {ours.seconds * (os.cpu_count() or 1):.0f} s of the cores); server "
                    f"memory at most {spent['memory']:.0f} MB; postgres "
                    f"backends active at most {spent['active']:.0f}, waiting on a lock "
                    f"{spent['locked']:.0f}; spectators {extra['watching']:.0f} connected, "
                    f"{extra['failed']:.0f} failed, {extra['pushed']:.0f} pushes of "
                    f"{extra['push bytes'] / max(extra['pushed'], 1):.0f} bytes; games failed "
                    f"{extra['games failed']:.0f}"
                )
                errors = server_errors(folder / "serve.log")
                if errors:  # what the server said went wrong, so a failed game has a why
                    print(f"    server errors: {errors}")
    if args.profile:  # where one worker's time went (cumulative, then own)
        stats = pstats.Stats(args.profile)
        stats.sort_stats("cumulative").print_stats(40)
        stats.sort_stats("tottime").print_stats(25)
    load = os.getloadavg()
    print(f"load at the end {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    print(f"ratio {first_ratio:.2f}")


if __name__ == "__main__":
    main()
