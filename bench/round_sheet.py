"""Round-sheet benchmark: ``weiqi round results`` of a 2,500-board round against a 200-board one.

Each event is built through the real command line in a fresh SQLite file (``weiqi event
create``, ``weiqi player import`` of 400 or 5,000 players, ``weiqi round pair``), then the
whole round's ``board,result`` CSV is entered with ``weiqi round results`` — one transaction,
every board's result entered and confirmed in its game record. Times are wall clock of the
command (start-up included) and CPU time of the child process; the machine is shared, so
compare the ratio, measured in the same run. Last line: ``ratio X`` = the 2,500-board sheet's
time ÷ the 200-board sheet's (12.5× the boards; target X ≤ 12, i.e. linear or better).

Usage: ``python bench/round_sheet.py [--boards 200,2500] [--repeat 1] [--src OTHER/src]``
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: The sources run; ``--src DIR`` measures another checkout (e.g. the figures before a change).
SRC = Path(__file__).resolve().parents[1] / "src"


def weiqi(*args: str) -> tuple[str, float, float]:
    """Run ``weiqi ARGS`` (this checkout's sources); its stdout, wall and CPU seconds."""
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    env.pop("WEIQI_DATABASE_URL", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "weiqi", *args], env=env, capture_output=True, text=True
    )
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"weiqi {' '.join(args)} failed:\n{done.stdout}{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return done.stdout, wall, cpu


def players_csv(n: int, seed: int) -> str:
    """``n`` players with ranks, ratings and clubs (about eight players a club)."""
    rng = random.Random(seed)
    lines = ["name,rank,rating,club"]
    for i in range(n):
        rating = rng.gauss(1800, 300)
        kyu = max(1, min(20, round((2100 - rating) / 100)))
        lines.append(f"P{i:05d},{kyu}k,{rating:.0f},club{rng.randrange(max(2, n // 8))}")
    return "\n".join(lines) + "\n"


def build(
    folder: Path, players: int, *, rounds: int = 9, club: bool = False
) -> tuple[str, float, float]:
    """A Swiss event of ``players`` in ``folder/event.sqlite3``; the import's stdout, wall, CPU."""
    db = str(folder / "event.sqlite3")
    options = ["--avoid-same-club"] if club else []
    weiqi("event", "create", "--db", db, "--name", "Bench", "--system", "swiss",
          "--rounds", str(rounds), *options)  # fmt: skip
    csv_path = folder / "players.csv"
    csv_path.write_text(players_csv(players, players), encoding="utf-8")
    return weiqi("player", "import", "--db", db, str(csv_path))


def results_csv(round_json: str, seed: int) -> tuple[str, int]:
    """A ``board,result`` sheet for every board of a paired round (``round pair --json``)."""
    rng = random.Random(seed)
    pairings = json.loads(round_json)["pairings"]
    codes = ["B+R", "W+R", "B+2.5", "W+0.5", "B+T", "W+F", "0"]
    rows = [f"{p['board']},{rng.choice(codes)}" for p in pairings if p["result"] is None]
    return "board,result\n" + "\n".join(rows) + "\n", len(rows)


def sheet(boards: int) -> tuple[float, float]:
    """Wall and CPU seconds of ``weiqi round results`` for one round of ``boards`` boards."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        db = str(folder / "event.sqlite3")
        build(folder, 2 * boards)
        out, _, _ = weiqi("round", "pair", "--db", db, "--json")
        text, n = results_csv(out, boards)
        assert n == boards, (n, boards)
        path = folder / "results.csv"
        path.write_text(text, encoding="utf-8")
        out, wall, cpu = weiqi("round", "results", "--db", db, "--round", "1", str(path))
        assert f"{boards} results recorded" in out, out
        shown, _, _ = weiqi("round", "show", "--db", db, "--round", "1", "--json")
        entered = sum(p["result"] is not None for p in json.loads(shown)["pairings"])
        assert entered == boards, (entered, boards)
    return wall, cpu


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--boards", default="200,2500", help="the reference size, then the big one")
    ap.add_argument("--repeat", type=int, default=1, help="best of N for each size")
    ap.add_argument("--src", type=Path, help="run the weiqi of this src/ folder instead")
    args = ap.parse_args()
    if args.src is not None:
        global SRC
        SRC = args.src.resolve()
    small, big = (int(x) for x in args.boards.split(","))
    figures: dict[int, tuple[float, float]] = {}
    for boards in (small, big):
        runs = [sheet(boards) for _ in range(args.repeat)]
        wall, cpu = min(runs, key=lambda r: r[1])
        figures[boards] = (wall, cpu)
        print(
            f"round sheet of {boards:,} boards: {wall:.2f} s wall, {cpu:.2f} s CPU "
            f"({1000 * cpu / boards:.1f} ms CPU a board, start-up included)"
        )
    ratio_wall = figures[big][0] / figures[small][0]
    print(f"boards {big / small:.1f}×; wall {ratio_wall:.2f}× (load-dependent)")
    print(f"ratio {figures[big][1] / figures[small][1]:.2f}")


if __name__ == "__main__":
    main()
