"""Live play benchmark: simulated players over real WebSockets against ``weiqi serve``, beside a
bare Starlette WebSocket relay on the same machine in the same run (the ceiling).

For each size of ``--games`` (100 and 1,000 by default), an online 9×9 Swiss round of twice
that many players is built through the services (every entrant an account, linked by its
invitation code, the round paired and published, a time control of 60 minutes so that nobody
flags), then ``weiqi serve`` runs on it as a user starts it (``--workers N`` on PostgreSQL +
Redis with ``--db`` and ``WEIQI_REDIS_URL``). Each game's two players connect to the game room
(``…/live``) with their own session cookie, wait for the start, and play ``--moves`` moves —
Black fills the columns A–D, White F–J, so every move is legal and nothing is captured — each
``--think`` seconds after the opponent's move reached them. The latency of a move is from the
mover's send to the opponent's receipt of the update that holds it: through the rules core,
the game's record in the database, the push bus and both sockets.

The reference: a bare Starlette app under uvicorn whose WebSocket relays each message of one
player of a pair to the other, driven by the same client code with the same games, moves and
think time: the ceiling of this stack, client and machine.

Printed for each: moves/s, p50 and p99 latency (ms), and ours ÷ the relay's. Target (issue
#11): p99 ≤ 100 ms at 100 games. Last line: ``ratio X`` = our moves/s ÷ the relay's at the
first size. Compare ratios, measured in one run: the client is Python on the same cores.

Usage: ``PYTHONPATH=src python bench/live.py [--games 100,1000] [--moves 40] [--think 1.0]
[--workers 1] [--db postgresql+psycopg://…]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from argon2 import PasswordHasher
from starlette.applications import Starlette
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.testclient import TestClient
from websockets.asyncio.client import connect

from weiqi.services import accounts, live
from weiqi.services import tournament as t
from weiqi.services.actor import Actor
from weiqi.services.event_admin import publish_round
from weiqi.services.site import secret_key
from weiqi.store.database import Database
from weiqi.store.models import EventRow
from weiqi.tournament.settings import EventSettings, System

SRC = Path(__file__).resolve().parents[1] / "src"
LOCAL = Actor.local()
TARGET_P99_MS = 100.0
#: A reader waiting longer than this for a push reports it (never a silent hang).
RECV_TIMEOUT = 60.0
COLUMNS_B, COLUMNS_W = "ABCD", "FGHJ"

RELAY_APP = """
import asyncio, sys
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
import uvicorn

pairs = {}


async def relay(ws):
    game, colour = ws.path_params["game"], ws.path_params["colour"]
    await ws.accept()
    seats = pairs.setdefault(game, {})
    seats[colour] = ws
    try:
        while True:
            text = await ws.receive_text()
            other = seats.get("W" if colour == "B" else "B")
            if other is not None:
                await other.send_text(text)
    except Exception:
        pass
    finally:
        seats.pop(colour, None)


app = Starlette(routes=[WebSocketRoute("/relay/{game}/{colour}", relay)])
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
    colour: str
    cookie: str


@dataclass(frozen=True)
class Figure:
    label: str
    moves: int
    seconds: float
    latencies: list[float]

    @property
    def rate(self) -> float:
        return self.moves / self.seconds

    def percentile(self, p: float) -> float:
        ordered = sorted(self.latencies)
        return 1000 * ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def cookie_signer(secret: str) -> TestClient:
    """Starlette's own session middleware with the site's secret: a login session's cookie as
    the server signs it (the bench starts sessions through the services instead of thousands of
    password checks)."""

    async def sign(request: Request) -> Response:
        request.session["sid"] = request.query_params["token"]
        return Response("")

    app = Starlette(routes=[Route("/", sign)])
    return TestClient(SessionMiddleware(app, secret_key=secret, session_cookie="weiqi_session"))


def build_event(url: str, games: int) -> tuple[int, list[Seat]]:
    """The online round and each player's seat with its session cookie."""
    db = Database(url)
    db.upgrade()
    previous = accounts.set_password_hasher(
        PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
    )
    try:
        settings = EventSettings(system=System.SWISS, rounds=1, board_size=9, play="online")
        ev = t.create_tournament(db, LOCAL, "网络赛 bench", settings).id
        with db.transaction() as session:
            event = session.get(EventRow, ev)
            assert event is not None
            event.time_control = "60m"
        names = [f"P{i:05d}" for i in range(2 * games)]
        t.import_players(db, LOCAL, ev, "name,rank\n" + "".join(f"{n},5k\n" for n in names))
        rnd = t.pair_round(db, LOCAL, ev)
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
            board, colour = seat_of[name]
            seats.append(Seat(board, colour, f"weiqi_session={answer.cookies['weiqi_session']}"))
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
def serving(argv: list[str], env: dict[str, str], log: Path) -> Iterator[str]:
    """Run a server (``argv`` with ``{port}`` filled in) until it answers; its base URL."""
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
        yield url
    except BaseException:
        print(log.read_text()[-4000:], file=sys.stderr)  # what the server said of it
        raise
    finally:
        process.terminate()
        process.wait(timeout=30)


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
    latencies: list[float], relay: bool,
) -> int:  # fmt: skip
    """One game played to the end of ``plan``; the number of moves played."""
    async with (
        connect(urls["B"], additional_headers=headers["B"], open_timeout=120, max_size=None) as b,
        connect(urls["W"], additional_headers=headers["W"], open_timeout=120, max_size=None) as w,
    ):
        sockets = {"B": b, "W": w}
        seq = 0
        if not relay:  # the state, then the start
            for ws in (b, w):
                while True:
                    m = json.loads(await ws.recv())
                    if m["type"] in ("state", "update") and m["snapshot"]["started"]:
                        seq = max(seq, m["snapshot"]["seq"])
                        break
                    if m["type"] == "refused":
                        raise RuntimeError(f"refused at the start: {m}")
        for i, vertex in enumerate(plan):
            mover, other = ("B", "W") if i % 2 == 0 else ("W", "B")
            await asyncio.sleep(think)
            sent = time.perf_counter()
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
    return len(plan)


async def play(
    base: str, event: int, seats: list[Seat], plan: list[str], think: float, relay: bool
) -> Figure:
    ws = base.replace("http://", "ws://")
    by_board: dict[int, dict[str, Seat]] = {}
    for s in seats:
        by_board.setdefault(s.board, {})[s.colour] = s
    latencies: list[float] = []
    jobs = []
    for board, pair in sorted(by_board.items()):
        if relay:
            urls = {c: f"{ws}/relay/{board}/{c}" for c in "BW"}
            headers: dict[str, dict[str, str]] = {"B": {}, "W": {}}
        else:
            urls = {c: f"{ws}/events/{event}/rounds/1/boards/{board}/live" for c in "BW"}
            headers = {c: {"Cookie": pair[c].cookie} for c in "BW"}
        jobs.append(_game(urls, headers, plan, think, latencies, relay))
    start = time.perf_counter()
    played = await asyncio.gather(*jobs)
    seconds = time.perf_counter() - start  # wall, think time included
    return Figure("relay" if relay else "weiqi", sum(played), seconds, latencies)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", default="100,1000")
    ap.add_argument("--moves", type=int, default=40)
    ap.add_argument("--think", type=float, default=1.0, help="seconds before each move")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--db", help="a PostgreSQL URL (else a new SQLite file each size)")
    args = ap.parse_args(argv)
    plan = moves(args.moves)
    env = {**os.environ, "PYTHONPATH": str(SRC), "WEIQI_PAGE_CACHE": "on"}
    env.pop("WEIQI_DATABASE_URL", None)
    first_ratio = None
    print(f"{args.moves} moves a game, {args.think} s before each; {args.workers} worker(s)")
    for games in (int(g) for g in args.games.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            url = args.db or f"sqlite:///{folder / 'live.sqlite3'}"
            began = time.perf_counter()
            event, seats = build_event(url, games)
            print(f"{games} games: built in {time.perf_counter() - began:.0f} s")
            serve = [sys.executable, "-m", "weiqi", "serve", "--port", "{port}", "--db", url]
            if args.workers > 1:
                serve += ["--workers", str(args.workers)]
            with serving(serve, env, folder / "serve.log") as base:
                ours = asyncio.run(play(base, event, seats, plan, args.think, relay=False))
            relay_app = folder / "relay.py"
            relay_app.write_text(RELAY_APP)
            with serving([sys.executable, str(relay_app), "{port}"], env, folder / "r.log") as base:
                ref = asyncio.run(play(base, event, seats, plan, args.think, relay=True))
        ratio = ours.rate / ref.rate
        first_ratio = ratio if first_ratio is None else first_ratio
        for f in (ours, ref):
            print(
                f"  {f.label:6} {f.moves} moves in {f.seconds:.1f} s: {f.rate:.0f} moves/s, "
                f"p50 {f.percentile(50):.1f} ms, p99 {f.percentile(99):.1f} ms"
            )
        verdict = "met" if ours.percentile(99) <= TARGET_P99_MS else "over"
        print(
            f"  ratio {ratio:.2f} of the relay's moves/s; p99 {ours.percentile(99):.1f} ms "
            f"(÷ relay {ours.percentile(99) / ref.percentile(99):.1f}); "
            f"target p99 ≤ {TARGET_P99_MS:.0f} ms at 100 games: {verdict}"
        )
    print(f"ratio {first_ratio:.2f}")


if __name__ == "__main__":
    main()
