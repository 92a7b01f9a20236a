"""The live round page's and the referee console's read of a whole round (issue #11):
``live_referee.round_boards`` (every board's rows loaded at once, ``games.round_boards``)
against reading the same boards one by one (``live_referee.board_data``, as a page would that
asked for each board), on one SQLite file: 400 players of a 9×9 Swiss, round 1's 200 games
started on the server with a byo-yomi clock. Best of 3 each; the last line is the ratio.

    PYTHONPATH=src python bench/live_round.py [--boards 200]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from weiqi.clock.control import TimeControl
from weiqi.services import live, live_referee
from weiqi.services import tournament as t
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.store.database import Database
from weiqi.tournament.settings import EventSettings, System


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--boards", type=int, default=200)
    boards = parser.parse_args().boards
    local = Actor.local()
    with tempfile.TemporaryDirectory() as tmp:
        db = Database(f"sqlite:///{Path(tmp) / 'bench.sqlite3'}")
        db.upgrade()
        ev = create_event(db, local, "bench", EventSettings(System.SWISS, rounds=3,
                                 play="online", board_size=9,
                                 time_control=TimeControl.parse("10m+3x30s"))).id  # fmt: skip
        rows = "".join(f"P{i},{i % 9 + 1}k\n" for i in range(2 * boards))
        t.import_players(db, local, ev, "name,rank\n" + rows)
        t.pair_round(db, local, ev)
        for b in range(1, boards + 1):
            live.start_game(db, ev, 1, b)
        one_by_one = at_once = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            each = [live_referee.board_data(db, ev, 1, b) for b in range(1, boards + 1)]
            one_by_one = min(one_by_one, time.perf_counter() - start)
            start = time.perf_counter()
            whole = live_referee.round_boards(db, local, ev, 1)
            at_once = min(at_once, time.perf_counter() - start)
            assert [b["seq"] for b in whole.boards] == [b["seq"] for b in each]
        db.dispose()
    print(f"{boards} boards one by one: {one_by_one:.2f} s")
    print(f"{boards} boards at once:    {at_once:.2f} s")
    print(f"ratio {one_by_one / at_once:.1f}")


if __name__ == "__main__":
    main()
