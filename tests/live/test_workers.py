"""Several workers on PostgreSQL + Redis (issue #12): a move made on one worker reaches the
players and spectators connected to another, once and in order; the game starts when its two
players are connected to different workers; ``weiqi serve --workers 2`` serves live games;
several workers without Redis are refused with why. And the Redis bus and presence alone:
two buses as two processes, a killed worker's presence expiring (R-PLAY-1, R-TIME-2)."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import os
import re
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from sqlalchemy import text

from tests.live.conftest import Reader, online_event, reader
from tests.live.test_live_socket import _play, _seq_after, _started, last_seq
from tests.server.conftest import SRC, LiveServer, _free_port, wait_until_serving
from tests.store.conftest import postgres_schema
from weiqi.server.live.redis_bus import RedisBus, RedisPresence
from weiqi.server.live.tasks import stop_tasks
from weiqi.services import games
from weiqi.store.database import Database

REDIS_URL = os.environ.get("WEIQI_TEST_REDIS", "redis://127.0.0.1:6379/0")

pytestmark = pytest.mark.postgres


@contextmanager
def serve(
    workdir: Path,
    db_url: str,
    *extra: str,
    redis_url: str | None = REDIS_URL,
    processes: list[subprocess.Popen[bytes]] | None = None,
) -> Iterator[LiveServer]:
    """One ``weiqi serve`` process (``extra``: its options) on Redis, until the block ends."""
    port = _free_port()
    out, log = workdir / f"stdout-{port}.txt", workdir / f"server-{port}.log"
    env = {**os.environ, "PYTHONPATH": str(SRC), "PYTHONUNBUFFERED": "1"}
    env.pop("WEIQI_DATABASE_URL", None)
    env.pop("WEIQI_REDIS_URL", None)
    if redis_url is not None:
        env["WEIQI_REDIS_URL"] = redis_url
    with out.open("wb") as stdout, log.open("wb") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", "weiqi", "serve", "--port", str(port), "--db", db_url, *extra],
            stdout=stdout, stderr=stderr, cwd=workdir, env=env,
        )  # fmt: skip
    if processes is not None:
        processes.append(process)
    try:
        url = f"http://127.0.0.1:{port}"
        wait_until_serving(url, process, log)
        printed = re.search(r"one-time password (\S+)", out.read_text())
        yield LiveServer(url, printed.group(1) if printed else "", log, db_url)
    except BaseException:
        # the server's side of a failure, shown with it: pytest keeps only the last few runs'
        # files, and a failure seen once under load was gone before anyone looked
        print(f"--- {log.name}\n{log.read_text(errors='replace')[-6000:]}", file=sys.stderr)
        raise
    finally:
        if process.poll() is None:
            process.terminate()
        process.wait(timeout=20)


@pytest.fixture
def pg_url() -> Iterator[str]:
    with postgres_schema() as url:
        Database(url).upgrade()
        yield url


def test_a_game_played_across_two_workers_reaches_everyone_once_in_order(
    tmp_path: Path, pg_url: str
) -> None:
    """Black on worker 1, White and a spectator on worker 2 (two ``weiqi serve`` processes on
    one PostgreSQL and one Redis): the game starts although no worker has both players; every
    reader gets every event of the record exactly once, in the record's order, whichever
    worker made it; the resignation ends the game for all three."""
    with serve(tmp_path, pg_url) as one, serve(tmp_path, pg_url) as two:
        ev = online_event(one, "workers")
        room = ev.room()
        with (
            reader(two, room, None) as spectator,
            reader(one, room, ev.players["B"]) as black,
            reader(two, room, ev.players["W"]) as white,
        ):
            for r in (spectator, black, white):
                assert r.next()["type"] == "state"
            for r in (spectator, black, white):
                r.until(_started)
            moves = ["E5", "C3", "G7", "C7", "G3", "D5", "C5", "D4"]
            seq = _play({"B": black, "W": white}, [spectator], moves)
            black.act("resign", seq)
            for r in (black, white, spectator):
                end = r.until(lambda m: _seq_after(m, seq))
                assert end["snapshot"]["result"] == "W+R"
            for r in (black, white, spectator):
                seqs = [e["seq"] for e in r.events()]
                assert seqs == list(range(len(seqs))), seqs  # each once, in order, none missing
                assert [e["vertex"] for e in r.events() if e["kind"] == "move"] == moves
    db = Database(pg_url)
    try:
        view = games.game_view(db, ev.id, 1, 1)
    finally:
        db.dispose()
    assert view.result == "W+R" and view.move_number == len(moves)


def test_two_sites_on_one_redis_sharing_their_key_file_keep_their_games_apart(
    tmp_path: Path,
) -> None:
    """Two sites on one machine: two databases, one Redis, and one key file (PostgreSQL's
    default place, so one secret). Each has event 1, round 1, board 1; a game played on the
    first reaches its own room and nothing of it the second's — whose game stays unstarted.
    Named after the secret alone, their rooms were one Redis channel (and one watcher of the
    round's start, one presence), which also made this module's tests fail one another."""
    with postgres_schema() as url_a, postgres_schema() as url_b:
        for url in (url_a, url_b):
            Database(url).upgrade()
        (tmp_path / "a").mkdir()
        (tmp_path / "b").mkdir()
        with serve(tmp_path / "a", url_a) as a, serve(tmp_path / "b", url_b) as b:
            ev_a, ev_b = online_event(a, "甲站"), online_event(b, "乙站")
            assert ev_a.id == ev_b.id  # the same event, round and board: the same channel name
            with (
                reader(b, ev_b.room(), None) as elsewhere,
                reader(a, ev_a.room(), None) as spectator,
                reader(a, ev_a.room(), ev_a.players["B"]) as black,
                reader(a, ev_a.room(), ev_a.players["W"]) as white,
            ):
                assert elsewhere.next()["type"] == "state"
                for r in (spectator, black, white):
                    r.until(_started)
                _play({"B": black, "W": white}, [spectator], ["E5", "C3"])
                with pytest.raises(TimeoutError):  # what would have crossed over has had 1 s
                    print("crossed over:", elsewhere.next(timeout=1.0))
        db = Database(url_b)
        try:
            assert games.game_view(db, ev_b.id, 1, 1).move_number == 0
        finally:
            db.dispose()


def test_r_play_1_two_workers_given_a_move_for_the_same_turn_at_once_store_exactly_one(
    tmp_path: Path, pg_url: str
) -> None:
    """Moves are ordered by the record's ``seq`` across workers: each player is connected to
    both workers (two tabs, or a client that fails over and sends its move again), and for
    every turn the mover's two connections send at once a move for the same ``seq`` — one to
    each worker: two different moves, or the same message replayed. Exactly one lands each
    turn: the record grows by that move alone, the other connection's is refused as out of
    date (nothing stored), and a spectator sees each event once, in order."""
    with serve(tmp_path, pg_url) as one, serve(tmp_path, pg_url) as two:
        ev = online_event(one, "race")
        room = ev.room()
        with ExitStack() as stack:
            spectator = stack.enter_context(reader(two, room, None))
            seats = {
                (color, n): stack.enter_context(reader(server, room, ev.players[color]))
                for color in "BW"
                for n, server in enumerate((one, two))
            }
            for r in (spectator, *seats.values()):
                r.until(_started)
            # what a monitor reads of each worker (GET /health/live): its open room sockets,
            # both workers alive, no game overdue
            figures = [httpx.get(f"{w.url}/health/live").json() for w in (one, two)]
            assert [f["readers"] for f in figures] == [2, 3], figures
            # both workers alive (at least: the tests running beside this one in the suite may
            # have workers of their own on the same Redis)
            assert all(f["workers"] >= 2 and f["overdue"] == 0 for f in figures), figures
            seq = max(last_seq(r) for r in seats.values())
            black = iter(f"{c}{n}" for c in "BC" for n in range(1, 10))  # nothing captured
            white = iter(f"{c}{n}" for c in "HG" for n in range(1, 10))
            landed = []
            for turn in range(12):
                color = "BW"[turn % 2]
                moves = black if color == "B" else white
                first = next(moves)
                second = first if turn % 4 < 2 else next(moves)  # replayed, or another move
                a, b = seats[(color, 0)], seats[(color, 1)]
                a.act("move", seq, vertex=first)  # at once: neither waits for an answer
                b.act("move", seq, vertex=second)
                update = spectator.until(lambda m, s=seq: _seq_after(m, s))
                move = [e for e in update["snapshot"]["events"] if e["kind"] == "move"]
                assert [e["seq"] for e in move] == [seq] and move[0]["color"] == color
                assert move[0]["vertex"] in (first, second)
                landed.append(move[0]["vertex"])
                seq = update["snapshot"]["seq"]
                for r in seats.values():  # every connection is told of it before the next turn
                    r.until(lambda m, s=seq: m["type"] == "update" and m["snapshot"]["seq"] >= s)
            # every turn's other move (or the replayed one) is refused, whenever it is told
            deadline = time.monotonic() + 10
            while _refusals(seats.values()) < len(landed) and time.monotonic() < deadline:
                for r in seats.values():
                    with contextlib.suppress(TimeoutError):
                        r.next(timeout=0.2)
            refused = [m for r in seats.values() for m in r.received if m["type"] == "refused"]
            assert len(refused) == len(landed), refused
            assert {m["code"] for m in refused} == {"Conflict"}, refused  # out of date
        seqs = [e["seq"] for e in spectator.events()]
        assert seqs == list(range(len(seqs)))  # each event once, in order
    db = Database(pg_url)
    try:
        view = games.game_view(db, ev.id, 1, 1)
        record = json.loads(games.record_json(db, ev.id, 1, 1) or "{}")
    finally:
        db.dispose()
    stored = [e["event"] for e in record["entries"] if e["event"]["kind"] == "move"]
    assert view.move_number == len(stored) == len(landed) == 12  # one move a turn, no more


def _refusals(readers: Iterable[Reader]) -> int:
    return sum(m["type"] == "refused" for r in readers for m in r.received)


def test_serve_with_two_workers_plays_a_live_game(tmp_path: Path, pg_url: str) -> None:
    """``weiqi serve --workers 2``: uvicorn's two processes behind one port, each built from
    the environment the command set (``server/worker.py``); wherever each connection lands,
    both players and a spectator see the whole game."""
    with serve(tmp_path, pg_url, "--workers", "2") as server:
        ev = online_event(server, "two")
        room = ev.room()
        with ExitStack() as stack:
            watchers = [stack.enter_context(reader(server, room, None)) for _ in range(3)]
            black = stack.enter_context(reader(server, room, ev.players["B"]))
            white = stack.enter_context(reader(server, room, ev.players["W"]))
            for r in (*watchers, black, white):
                r.until(_started)
            seq = _play({"B": black, "W": white}, watchers, ["C3", "G7", "E5"])
            for r in (black, white, *watchers):
                assert [e["seq"] for e in r.events()] == list(range(seq))


def test_a_time_out_is_flagged_at_its_deadline_by_another_worker_after_kill_9(
    tmp_path: Path, pg_url: str
) -> None:
    """R-TIME-2: both players on worker 1, nobody on worker 2; worker 1 is killed (``kill -9``:
    no clean-up) during Black's 5 s of byo-yomi. Worker 2 finds the game overdue in the shared
    deadlines and flags Black at the deadline — within a second of it, with nobody connected
    anywhere — once: the record has one time-out and the result is White's win on time. The
    deadline is the online event's: its default lag allowance's full quota (3 s) after the
    time runs out."""
    processes: list[subprocess.Popen[bytes]] = []
    with (
        serve(tmp_path, pg_url, processes=processes) as one,
        serve(tmp_path, pg_url) as two,
    ):
        ev = online_event(one, "kill", time_control="1x5s")
        room = ev.room()
        with reader(one, room, ev.players["B"]) as black, reader(one, room, ev.players["W"]):
            start = black.until(_started)
            clock = start["snapshot"]["clock"]
            deadline = clock["now"] + clock["black"]["total"] + 3  # the lag quota
            time.sleep(1.0)
            processes[0].kill()  # kill -9: the watcher of the game dies with it
            processes[0].wait(timeout=10)
        db = Database(pg_url)
        try:
            while time.time() < deadline + 5:
                view = games.game_view(db, ev.id, 1, 1)
                if view.result is not None:
                    break
                time.sleep(0.05)
            late = time.time() - deadline
        finally:
            db.dispose()
        assert view.result == "W+T", view.result
        assert late < 1.0, late  # at the deadline, by worker 2, though nobody is connected
        with reader(two, room, None) as spectator:
            state = spectator.next()
        kinds = [e["kind"] for e in state["snapshot"]["events"]]
        assert state["snapshot"]["result"] == "W+T"
        assert kinds.count("clock_check") == 1, kinds  # flagged once


@pytest.mark.parametrize("workers", ["1", "2"])
def test_workers_hold_no_more_postgresql_connections_than_the_command_was_given(
    tmp_path: Path, pg_url: str, workers: str
) -> None:
    """``weiqi serve --workers 1|2 --db-connections 4``: a crowd of 240 requests that each use
    the database (``/health``), 40 at a time, all answered, while the workers' backends in
    PostgreSQL (named by the URL's ``application_name``) never pass 4. Four workers of 40
    each opened more than PostgreSQL's default 100 allows, and every request past it failed
    with HTTP 500 (``bench/live.py``)."""
    name = f"weiqi-{uuid.uuid4().hex[:12]}"
    url = f"{pg_url}&application_name={name}"
    seen: list[int] = []
    done = False
    admin = Database(pg_url)

    def sample() -> None:
        with admin.engine.connect() as connection:
            while not done:
                count = connection.execute(
                    text("SELECT count(*) FROM pg_stat_activity WHERE application_name = :n"),
                    {"n": name},
                ).scalar_one()
                seen.append(int(count))
                connection.commit()
                time.sleep(0.005)

    try:
        with serve(tmp_path, url, "--workers", workers, "--db-connections", "4") as server:
            watcher = threading.Thread(target=sample)
            watcher.start()
            try:
                with (
                    httpx.Client(base_url=server.url, timeout=60) as client,
                    ThreadPoolExecutor(40) as pool,
                ):
                    codes = list(pool.map(lambda _: client.get("/health").status_code, range(240)))
            finally:
                done = True
                watcher.join()
    finally:
        admin.dispose()
    assert codes == [200] * 240
    assert 2 <= max(seen) <= 4, max(seen)


def test_several_workers_without_redis_are_refused_with_why(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    env.pop("WEIQI_REDIS_URL", None)
    run = subprocess.run(
        [sys.executable, "-m", "weiqi", "serve", "--workers", "2", "--db", str(tmp_path / "x")],
        capture_output=True, text=True, env=env, timeout=60,
    )  # fmt: skip
    assert run.returncode == 2
    assert "--workers 2 needs WEIQI_REDIS_URL" in run.stderr and "Traceback" not in run.stderr
    assert not (tmp_path / "x").exists()  # refused before anything was created


def test_two_redis_buses_pass_every_message_in_order() -> None:
    """Two buses on one Redis stand for two workers: what one publishes, the other's
    subscribers get, in the order published; another channel's messages stay out."""
    prefix = f"weiqi:test:{uuid.uuid4().hex[:8]}"

    async def run() -> tuple[list[int], list[int], int]:
        one, two = RedisBus.from_url(REDIS_URL, prefix), RedisBus.from_url(REDIS_URL, prefix)
        a, b = two.subscribe("game:1:1:1"), two.subscribe("game:1:1:1")
        other = one.subscribe("game:1:1:2")
        for sub in (a, b, other):
            await sub.ready()
        for n in range(50):
            await one.publish("game:1:1:1", {"n": n})
        got_a = [int((await asyncio.wait_for(a.get(), 5))["n"]) for _ in range(50)]
        got_b = [int((await asyncio.wait_for(b.get(), 5))["n"]) for _ in range(50)]
        await asyncio.sleep(0.1)
        stray = other.queue.qsize()
        for sub in (a, b, other):
            sub.close()
        await one.close()
        await two.close()
        return got_a, got_b, stray

    got_a, got_b, stray = asyncio.run(run())
    assert got_a == got_b == list(range(50))
    assert stray == 0


def test_a_killed_workers_presence_stops_counting() -> None:
    """Presence counts per worker; a worker whose heartbeat key is gone (killed, never
    cleaned up) no longer counts, while a live one's connections do."""
    prefix = f"weiqi:test:{uuid.uuid4().hex[:8]}"

    async def run() -> tuple[set[str], set[str], set[str]]:
        one, two = (
            RedisPresence.from_url(REDIS_URL, prefix),
            RedisPresence.from_url(REDIS_URL, prefix),
        )
        await one.change("game:9:1:1", "B", 1)
        await two.change("game:9:1:1", "W", 1)
        both = await one.present("game:9:1:1")
        assert one._beat is not None
        one._beat.cancel()  # as kill -9: no heartbeat, no clean-up
        redis.Redis.from_url(REDIS_URL).delete(f"{prefix}:worker:{one.worker}")
        after = await two.present("game:9:1:1")
        await two.change("game:9:1:1", "W", -1)
        empty = await two.present("game:9:1:1")
        await two.close()
        return both, after, empty

    both, after, empty = asyncio.run(run())
    assert both == {"B", "W"} and after == {"W"} and empty == set()
    client = redis.Redis.from_url(REDIS_URL)
    for key in client.scan_iter(f"{prefix}:*"):
        client.delete(key)


async def _fail_with_stacks(what: str, tasks: list[asyncio.Task[Any]]) -> None:
    """Nothing if ``tasks`` is empty; else they are stopped (or ``asyncio.run``'s own single
    cancel may wait on them forever) and the test fails with where the first five stood."""
    if not tasks:
        return
    stacks = io.StringIO()
    for task in tasks[:5]:
        task.print_stack(limit=15, file=stacks)
    await stop_tasks(tasks)
    raise AssertionError(f"{len(tasks)} {what}:\n{stacks.getvalue()}")


def test_a_crowd_of_sockets_joining_at_once_waits_for_redis_connections() -> None:
    """400 room sockets opening at once on one worker: each changes and reads the presence at
    the same moment. The worker's Redis client waits for a connection of its pool instead of
    failing the 101st command ("Too many connections", found by ``bench/live.py`` with 2,000
    spectators); the counts come out exact, and the worker beats once (every join had started
    a heartbeat of its own, which beat on after the presence was closed)."""
    prefix = f"weiqi:test:{uuid.uuid4().hex[:8]}"

    async def run() -> tuple[set[str], int]:
        presence = RedisPresence.from_url(REDIS_URL, prefix)

        async def join(n: int) -> set[str]:
            await presence.change(f"game:9:1:{n % 40}", "BW"[n % 2], 1)
            return await presence.present(f"game:9:1:{n % 40}")

        joins = [asyncio.get_running_loop().create_task(join(n)) for n in range(400)]
        _done, pending = await asyncio.wait(joins, timeout=60)
        closing = asyncio.get_running_loop().create_task(presence.close())
        _closed, unclosed = await asyncio.wait([closing], timeout=20)
        # say where they wait rather than hang the whole suite
        await _fail_with_stacks("joins or close waiting", [*pending, *unclosed])
        seen = [t.result() for t in joins]
        # nothing of the presence's may run on after it is closed
        await _fail_with_stacks(
            "tasks left", [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        )
        return set().union(*seen), len(seen)

    colors, joined = asyncio.run(run())
    assert colors == {"B", "W"} and joined == 400
    client = redis.Redis.from_url(REDIS_URL)
    counts = [int(v) for key in client.scan_iter(f"{prefix}:presence:*")
              for v in client.hgetall(key).values()]  # fmt: skip
    assert sum(counts) == 400
    for key in client.scan_iter(f"{prefix}:*"):
        client.delete(key)
