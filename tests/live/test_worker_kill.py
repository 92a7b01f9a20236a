"""A worker killed (``kill -9``) in the middle of 20 bot games (issue #12): two ``weiqi serve``
processes on one PostgreSQL and one Redis, 40 bots each given both workers' addresses (``weiqi
bot --server W1 --server W2``, half of them W2 first). Every bot whose worker died goes on with
the other, every game is played to a result both players confirmed, no move the server
acknowledged is lost or doubled, and every time-out of that window is flagged once (R-PLAY-1,
R-TIME-2, R-END-4).

Sixteen games are played under "40s" by GNU Go at level 0 that takes 0.2 s a move; four more
under "8s" sudden death by one that takes 0.5 s, so that they lose on time — worker 1 is killed
when the first of those flags is about a second away: their flags fall while the bots are
reconnecting and whoever watched those games may be dead. 38 bots run as :class:`Bot` threads of
this test (what each was told and sent is compared with the stored records), two as ``weiqi
bot`` processes whose first address is worker 1.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

from tests.live.bots import start_bot, weiqi
from tests.live.test_workers import serve
from tests.programs import GNUGO
from tests.store.conftest import postgres_schema
from weiqi.engines.bot import Bot
from weiqi.services import live
from weiqi.services import tournament as t
from weiqi.services.actor import Actor
from weiqi.services.event_admin import publish_round
from weiqi.services.events import create_event
from weiqi.services.games import confirm_result, record_json
from weiqi.services.live_bot import board_states
from weiqi.store.database import Database
from weiqi.tournament.settings import EventSettings, PlayMode, System

pytestmark = [pytest.mark.postgres, pytest.mark.gnugo, pytest.mark.slow]

LOCAL = Actor.local()
SLOW_GTP = str(Path(__file__).with_name("slow_gtp.py"))
GAMES, FLAG_GAMES = 16, 4
#: The other games' time: enough to finish them unhurried on an idle machine, and a bound on
#: the test's time on a loaded one (a game that runs out of it is flagged, once, as any).
NORMAL = "40s"
#: How long before the first flag of the "8s" games worker 1 is killed.
KILL_BEFORE_FLAG = 1.0


def _engine(delay: float) -> list[str]:
    """GNU Go held at level 0 (``--max-level``: see ``tests.live.bots.GNUGO_1``) behind the
    relay that thinks ``delay`` seconds a move."""
    return [sys.executable, SLOW_GTP, str(delay), GNUGO, "--mode", "gtp", "--chinese-rules",
            "--level", "0", "--max-level", "0"]  # fmt: skip


def _event(db: Database, name: str, games: int, time_control: str) -> tuple[int, list[str]]:
    """A one-round online Swiss of ``2 × games`` entrants on 9×9, published; its codes. No lag
    allowance: the flags fall when the clocks say (the kill's timing counts on it), each one
    found by a server's look at the clock, not by a late move's press."""
    settings = EventSettings(
        system=System.SWISS, rounds=1, board_size=9, play=PlayMode.ONLINE, lag_gain=0,
        time_control=time_control,  # type: ignore[arg-type]
    )  # fmt: skip
    ev = create_event(db, LOCAL, name, settings).id
    names = [f"{name}{i:02d}" for i in range(2 * games)]
    t.import_players(db, LOCAL, ev, "name,rank\n" + "".join(f"{n},3k\n" for n in names))
    t.pair_round(db, LOCAL, ev)
    publish_round(db, LOCAL, ev, 1)
    return ev, [live.create_invite(db, LOCAL, ev, live.player_id(db, ev, n)).code for n in names]


@pytest.fixture
def pg_url() -> Iterator[str]:
    with postgres_schema() as url:
        Database(url).upgrade()
        yield url


def _min_clock(db: Database, ev: int, boards: int) -> float | None:
    """The least time left to any player of ``ev``'s running games (None: none running)."""
    least = None
    for board in range(1, boards + 1):
        snap = live.snapshot(db, ev, 1, board)
        clock = snap.clock
        if snap.result is None and clock is not None and clock.running:
            left = min(clock.black.total, clock.white.total)
            least = left if least is None else min(least, left)
    return least


def test_r_play_1_kill_9_of_a_worker_in_the_middle_of_20_bot_games(
    tmp_path: Path, pg_url: str
) -> None:
    processes: list[subprocess.Popen[bytes]] = []
    db = Database(pg_url)
    with ExitStack() as stack:
        one = stack.enter_context(serve(tmp_path, pg_url, processes=processes))
        two = stack.enter_context(serve(tmp_path, pg_url))
        normal, normal_codes = _event(db, "常规", GAMES, NORMAL)
        flag, flag_codes = _event(db, "超时", FLAG_GAMES, "8s")
        logs: dict[str, list[str]] = {}
        bots: list[Bot] = []
        threads: list[threading.Thread] = []
        failures: list[BaseException] = []
        codes = [(c, 0.2) for c in normal_codes] + [(c, 0.5) for c in flag_codes]
        cli_codes, codes = [codes[0][0], codes[1][0]], codes[2:]
        for i, (code, delay) in enumerate(codes):
            servers = [one.url, two.url] if i % 2 == 0 else [two.url, one.url]
            lines = logs.setdefault(code, [])
            bot = Bot(servers, code, _engine(delay), log=lines.append, engine_timeout=30)
            # one after the other, as the login limits want of one address (every code spent
            # at once from one host is a guesser's pattern: refused, counted before checked)
            bot.sign_in()
            bots.append(bot)

            def run(bot: Bot = bot) -> None:
                try:
                    bot.run(once=True)
                except BaseException as err:  # reported by the test, not lost in the thread
                    failures.append(err)

            threads.append(threading.Thread(target=run, daemon=True))
        logfiles = [stack.enter_context((tmp_path / f"cli{i}.log").open("w")) for i in range(2)]
        engine = " ".join(_engine(0.2))
        cli = [
            start_bot(one.url, code, engine, log, "--server", two.url, "--once")
            for code, log in zip(cli_codes, logfiles, strict=True)
        ]
        for thread in threads:
            thread.start()

        # worker 1 is killed when the first flag of the "8s" games is a second away
        deadline = time.monotonic() + 60
        while True:
            assert time.monotonic() < deadline, (failures, [logs[b.token][-3:] for b in bots])
            least = _min_clock(db, flag, FLAG_GAMES)
            if least is not None and least <= KILL_BEFORE_FLAG:
                break
            time.sleep(0.05)
        # the bots whose game was still going on worker 1 (one that already finished its
        # game there has nothing more to ask of any worker)
        on_one = [b for b in bots if b.server == one.url and not b.played]
        processes[0].kill()
        killed_at = time.time()
        processes[0].wait(timeout=10)

        until = time.monotonic() + 180
        for thread in threads:
            thread.join(timeout=max(0.1, until - time.monotonic()))
        assert not failures, failures
        stuck = [b for b, thread in zip(bots, threads, strict=True) if thread.is_alive()]
        assert not stuck, [(b.name, b.server, logs[b.token][-3:], _where(db, b)) for b in stuck]
        for process in cli:
            out, _ = process.communicate(timeout=60)
            assert process.returncode == 0 and out.strip() == "1 game(s) played"
        for log in logfiles:
            log.flush()

    # Every bot that was playing on worker 1 went on with worker 2, which served it to the end.
    assert on_one, "no bot was on worker 1 when it was killed"
    for bot in on_one:
        assert bot.server == two.url and bot.played, bot.name

    flagged_after_kill = 0
    try:
        for ev, boards, tc in ((normal, GAMES, NORMAL), (flag, FLAG_GAMES, "8s")):
            states = board_states(db, ev, 1)
            assert len(states) == boards
            for board in range(1, boards + 1):
                snap = live.snapshot(db, ev, 1, board)
                # a result both players confirmed, which the referee confirms
                assert snap.result is not None, (tc, board)
                assert {"B", "W"} <= set(snap.confirmations), (tc, board, snap.confirmations)
                confirm_result(db, LOCAL, ev, 1, board)
                stored = {e.seq: e for e in snap.events}
                assert sorted(stored) == list(range(len(stored)))
                path = f"/events/{ev}/rounds/1/boards/{board}"
                players = [b for b in bots if path in b.told]
                for bot in players:
                    # every event the server told a bot of is in the record, at its place
                    for seq, told in bot.told[path].items():
                        e = stored[seq]
                        assert (e.kind, e.color, e.vertex) == (
                            told["kind"], told["color"], told["vertex"]
                        ), (path, seq)  # fmt: skip
                    # every move of its colour in the record is one the bot sent, at that seq
                    color = bot.seats[path]
                    sends = {(seq, vertex) for seq, action, vertex in bot.sent[path]
                             if action == "move"}  # fmt: skip
                    for e in stored.values():
                        if e.kind == "move" and e.color == color:
                            assert (e.seq, e.vertex) in sends, (path, e)
                flags = [e for e in snap.events if e.kind == "clock_check"]
                if tc == "8s":  # the slow players' time runs out
                    assert snap.result.endswith("+T"), (board, snap.result)
                    flagged_after_kill += _flag_time(db, ev, board, flags[0].seq) >= killed_at
                # a time-out is flagged once, whichever worker (or both) looked
                on_time = snap.result.endswith("+T")
                assert len(flags) == on_time, (board, snap.result, [e.kind for e in snap.events])
    finally:
        db.dispose()
    assert flagged_after_kill >= 1  # the window of the kill held flags
    checked = weiqi("record", "check", "--db", pg_url)
    assert f"{GAMES + FLAG_GAMES} of {GAMES + FLAG_GAMES} stored records" in checked, checked


def _where(db: Database, bot: Bot) -> object:
    """A stuck bot's game as it stands (for the failure's message)."""
    out = []
    for path, told in bot.told.items():
        ev, board = int(path.split("/")[2]), int(path.split("/")[6])
        snap = live.snapshot(db, ev, 1, board)
        out.append((path, bot.seats[path], max(told, default=None), bot.sent[path][-2:],
                    snap.seq, snap.phase, snap.to_move, snap.result, snap.started,
                    snap.dead_marked_by, snap.confirmations))  # fmt: skip
    return out


def _flag_time(db: Database, ev: int, board: int, seq: int) -> float:
    """When the record's flag at ``seq`` was written (server time)."""
    text = record_json(db, ev, 1, board)
    assert text is not None
    return float(json.loads(text)["entries"][seq]["at"])
