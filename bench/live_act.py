"""One live move in-process: the milliseconds of ``services.live.act`` (and of the room's
``live.next_wakeup`` after it) as a game grows, without sockets, beside the same game played
with the worker's record cache off (every move reads the record back from its JSON and
replays it: the reference, measured in the same run).

A 19×19 online game of an event of ``--games`` boards (a 60-minute time control, so every
move is a stone and a press of the clock: two record events), played on a SQLite file (or
``--db``) by its two linked players through ``live.act`` with the ``seq`` each saw, as the
game room calls it; Black fills the columns A–H, White M–T (every move legal, no capture).

Printed: ms per move (``act`` + ``next_wakeup``) around moves 10 and 200 for each way, the
profile's top functions with ``--profile``, and last the line ``ratio X`` = the time of a move
near move 200 with the cache ÷ without it.

Usage: ``PYTHONPATH=src python bench/live_act.py [--moves 200] [--games 100] [--profile]
[--db postgresql+psycopg://…]``
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

from live import online_round
from weiqi.services import accounts, live, record_cache
from weiqi.services.actor import Actor
from weiqi.store.database import Database

LOCAL = Actor.local()


def moves(count: int) -> list[str]:
    """``count`` legal moves of a 19×19 game without a capture, Black first.

    >>> moves(4)
    ['A1', 'M1', 'A2', 'M2']
    """
    black = [f"{c}{r}" for c in "ABCDEFGH" for r in range(1, 20)]
    white = [f"{c}{r}" for c in "MNOPQRST" for r in range(1, 20)]
    out: list[str] = []
    for b, w in zip(black, white, strict=True):
        out += [b, w]
    return out[:count]


def build(url: str, games: int) -> tuple[Database, int, dict[str, Actor]]:
    """An event of ``games`` boards whose board 1's players are linked accounts."""
    db = Database(url)
    db.upgrade()
    ev, _names, rnd = online_round(db, games, 19, "网络赛 act bench")
    first = next(p for p in rnd.pairings if p.board == 1)
    seats: dict[str, Actor] = {}
    for color, name in (("B", first.black), ("W", first.white)):
        user = accounts.create_user(db, LOCAL, f"u{color.lower()}{ev}", "a long pass phrase 7")
        code = live.create_invite(db, LOCAL, ev, live.player_id(db, ev, name)).code
        live.redeem_invite(db, user.actor(), code)
        seats[color] = user.actor()
    return db, ev, seats


def play(db: Database, ev: int, seats: dict[str, Actor], count: int) -> list[float]:
    """Seconds of each move (``act`` then ``next_wakeup``, as the room calls them)."""
    snap = live.start_game(db, ev, 1, 1)
    seq = snap.seq
    took = []
    for i, vertex in enumerate(moves(count)):
        actor = seats["B" if i % 2 == 0 else "W"]
        start = time.perf_counter()
        out = live.act(db, actor, ev, 1, 1, "move", seq, {"vertex": vertex})
        live.next_wakeup(db, ev, 1, 1)
        took.append(time.perf_counter() - start)
        assert out.refused is None, out.refused
        seq = out.snapshot.seq
    return took


def around(took: list[float], move: int) -> float:
    """The median ms of the moves within 5 of ``move`` (1-based)."""
    window = took[max(0, move - 6) : move + 4]
    return 1000 * statistics.median(window)


def measure(url: str, games: int, count: int, cached: bool, profile: bool) -> list[float]:
    record_cache.CACHE.enabled = cached
    db, ev, seats = build(url, games)
    try:
        if not profile:
            return play(db, ev, seats, count)
        prof = cProfile.Profile()
        prof.enable()
        took = play(db, ev, seats, count)
        prof.disable()
        stats = pstats.Stats(prof, stream=sys.stdout)
        stats.sort_stats("cumulative").print_stats(25)
        return took
    finally:
        db.dispose()
        record_cache.CACHE.enabled = True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--db", default=None, help="a database URL (default: a SQLite file)")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    late = min(200, args.moves)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for cached in (False, True):
            url = args.db or f"sqlite:///{Path(tmp) / f'act-{cached}.sqlite3'}"
            took = measure(url, args.games, args.moves, cached, args.profile)
            rows.append((cached, around(took, 10), around(took, late), 1000 * sum(took)))
    print(f"{'record cache':>14} {'move 10 ms':>11} {f'move {late} ms':>12} {'total ms':>10}")
    for cached, early, at_late, total in rows:
        print(f"{'on' if cached else 'off':>14} {early:>11.1f} {at_late:>12.1f} {total:>10.0f}")
    print(f"ratio {rows[1][2] / rows[0][2]:.2f}")


if __name__ == "__main__":
    main()
