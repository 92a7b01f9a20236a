"""How often our dead-stone proposal equals GNU Go's ``final_status_list dead``, and how fast.

    python bench/dead_stones.py [--corpus tests/data/gnugo/selfplay.jsonl] [--seed 0]

For every finished self-play game of the corpus, the final position (GNU Go's ``list_stones``)
goes to :func:`weiqi.rules.dead_stones.propose_dead`; the proposal agrees when it names exactly
GNU Go's dead stones. Prints agreement and time per position by board size; the last line is
``ratio X``: the share of positions where we agree with GNU Go (the reference). GNU Go's own
time for ``final_status_list dead`` on the same positions is printed beside ours.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from weiqi.engines.gtp import SimpleEngine  # noqa: E402
from weiqi.engines.selfplay import GNUGO, GNUGO_ARGS, SelfPlayGame, load_games  # noqa: E402
from weiqi.rules.dead_stones import dead_vertices, propose_dead  # noqa: E402


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
    args = parser.parse_args(argv)

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
