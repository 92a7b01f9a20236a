"""How often our dead-stone proposal equals GNU Go's ``final_status_list dead``, and how fast.

    python bench/dead_stones.py [--corpus tests/data/gnugo/selfplay.jsonl] [--seed 0]
    python bench/dead_stones.py --records verdicts.jsonl    # finished records, see below

For every finished self-play game of the corpus, the final position (GNU Go's ``list_stones``)
goes to :func:`weiqi.rules.dead_stones.propose_dead`; the proposal agrees when it names exactly
GNU Go's dead stones. Prints agreement and time per position by board size; the last line is
``ratio X``: the share of positions where we agree with GNU Go (the reference). GNU Go's own
time for ``final_status_list dead`` on the same positions is printed beside ours.

``--records`` takes GNU Go's verdicts on finished game records (``bench/gnugo_verdicts.py``)
instead: besides the dead lists it counts each position (area, the record's komi) once with our
proposal and once with GNU Go's dead stones, and reports how many differ by more than 3 points
and how many change the winner. The last line is then ``ratio X`` with X the share of records
whose count with our proposal is within 3 points of the count with GNU Go's.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from weiqi.engines.gtp import SimpleEngine  # noqa: E402
from weiqi.engines.selfplay import GNUGO, GNUGO_ARGS, SelfPlayGame, load_games  # noqa: E402
from weiqi.rules.counting import count  # noqa: E402
from weiqi.rules.dead_stones import dead_vertices, propose_dead  # noqa: E402
from weiqi.rules.ruleset import Ruleset  # noqa: E402
from weiqi.rules.vertex import parse_vertex  # noqa: E402


def _points(size: int, vertices: list[str]) -> list[int]:
    return [p for p in (parse_vertex(v, size) for v in vertices) if p is not None]


def records_main(path: Path, seed: int, playouts: int | None, show: bool) -> int:
    """Compare with GNU Go's verdicts on finished records (see the module docstring)."""
    verdicts = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    by_size: dict[int, list[float]] = defaultdict(lambda: [0, 0, 0, 0, 0.0, 0.0])
    for v in verdicts:
        size = v["size"]
        stones = bytearray(size * size)
        for code, key in ((1, "black"), (2, "white")):
            for p in _points(size, v[key]):
                stones[p] = code
        start = time.process_time()  # CPU time: the shared machine's load moves wall time
        dead = propose_dead(bytes(stones), size, seed=seed, playouts=playouts)
        took = time.process_time() - start
        rules = Ruleset(board_size=size, komi=Fraction(str(v["komi"])) / 2)
        ours = float(count(bytes(stones), dead, rules).margin) * 2
        theirs = float(count(bytes(stones), _points(size, v["dead"]), rules).margin) * 2
        same = dead_vertices(dead, size) == sorted(v["dead"])
        far = abs(ours - theirs) > 3
        flipped = (ours > 0) != (theirs > 0) and ours != 0 and theirs != 0
        row = by_size[size]
        row[0] += 1
        row[1] += same
        row[2] += far
        row[3] += flipped
        row[4] += took
        row[5] = max(row[5], took)
        if show and far:
            print(
                f"{v['file']}: ours {ours:+g}, with GNU Go's dead {theirs:+g}, record {v['record']}"
            )
    totals = [0, 0, 0, 0]
    for size in sorted(by_size):
        n, same, far, flipped, took, worst = by_size[size]
        totals = [a + b for a, b in zip(totals, (n, same, far, flipped), strict=True)]
        print(
            f"{size}x{size}: {int(same)}/{int(n)} equal dead lists, {int(far)} counts > 3 points "
            f"off, {int(flipped)} winners flipped; {took / n:.3f} CPU s per position "
            f"(max {worst:.3f})"
        )
    n, same, far, flipped = totals
    print(f"all: {same}/{n} equal dead lists, {far} counts > 3 points off, {flipped} flipped")
    print(f"ratio {(n - far) / n:.3f}")
    return 0


def gnugo_seconds(games: list[SelfPlayGame]) -> dict[int, float]:
    """GNU Go's own time for ``final_status_list dead`` per position, by board size."""
    spent: dict[int, float] = defaultdict(float)
    with SimpleEngine.popen([GNUGO, *GNUGO_ARGS]) as gnugo:
        for game in games:
            gnugo.boardsize(game.size)
            gnugo.clear_board()
            gnugo.komi(game.komi)
            gnugo.commands(f"play {c.value} {v}" for c, v in game.colored_moves())
            start = time.perf_counter()
            gnugo.final_status_list("dead")
            spent[game.size] += time.perf_counter() - start
    return spent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT / "tests/data/gnugo/selfplay.jsonl")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--playouts", type=int, default=None)
    parser.add_argument("--show", action="store_true", help="print each disagreement")
    parser.add_argument("--no-gnugo", action="store_true", help="do not time GNU Go itself")
    parser.add_argument("--records", type=Path, help="GNU Go's verdicts on finished records")
    args = parser.parse_args(argv)
    if args.records is not None:
        return records_main(args.records, args.seed, args.playouts, args.show)

    games = load_games(args.corpus)
    agree: dict[int, int] = defaultdict(int)
    total: dict[int, int] = defaultdict(int)
    seconds: dict[int, float] = defaultdict(float)
    worst: dict[int, float] = defaultdict(float)
    for game in games:
        stones = game.final_stones()
        start = time.perf_counter()
        dead = propose_dead(stones, game.size, seed=args.seed, playouts=args.playouts)
        took = time.perf_counter() - start
        ours = dead_vertices(dead, game.size)
        same = ours == sorted(game.dead)
        total[game.size] += 1
        agree[game.size] += same
        seconds[game.size] += took
        worst[game.size] = max(worst[game.size], took)
        if args.show and not same:
            print(
                f"{game.size}x{game.size} level {game.level} seed {game.seed}: "
                f"only ours {sorted(set(ours) - set(game.dead))}, "
                f"only GNU Go {sorted(set(game.dead) - set(ours))}"
            )
    theirs = gnugo_seconds(games) if shutil.which(GNUGO) and not args.no_gnugo else {}
    for size in sorted(total):
        reference = f", GNU Go {theirs[size] / total[size]:.3f} s" if size in theirs else ""
        print(
            f"{size}x{size}: {agree[size]}/{total[size]} agree "
            f"({agree[size] / total[size]:.1%}), {seconds[size] / total[size]:.3f} s per position "
            f"(max {worst[size]:.3f} s){reference}"
        )
    all_agree, all_total = sum(agree.values()), sum(total.values())
    print(f"all: {all_agree}/{all_total} positions equal GNU Go's dead list")
    print(f"ratio {all_agree / all_total:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
