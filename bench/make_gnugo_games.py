"""Generate the GNU Go self-play corpus (reproducible: every game is a function of its seed).

    python bench/make_gnugo_games.py            # the committed corpus, ~15 min on 2 cores

writes ``tests/data/gnugo/selfplay.jsonl`` (all sizes: the dead-stone and scoring cross-checks)
and the 19×19 games again as ``bench/data/gnugo19.jsonl`` and as SGF files in
``bench/data/gnugo-19x19/`` (replayed by ``bench/board.py``).
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from weiqi.engines.selfplay import PlanItem, SelfPlayGame, play_game, save_games  # noqa: E402

DEFAULT_PLAN = ["9:120:1-5", "13:60:1-3", "19:40:1"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plan", nargs="+", default=DEFAULT_PLAN, help="SIZE:COUNT:LEVELS ...")
    parser.add_argument("--out", type=Path, default=ROOT / "tests/data/gnugo/selfplay.jsonl")
    parser.add_argument("--out19", type=Path, default=ROOT / "bench/data/gnugo19.jsonl")
    parser.add_argument("--sgf19", type=Path, default=ROOT / "bench/data/gnugo-19x19")
    parser.add_argument("--jobs", type=int, default=2, help="GNU Go processes at once")
    args = parser.parse_args(argv)

    settings = [s for text in args.plan for s in PlanItem.parse(text).settings()]
    start = time.perf_counter()

    def one(setting: tuple[int, float, int, int]) -> SelfPlayGame | None:
        size, komi, level, seed = setting
        t0 = time.perf_counter()
        game = play_game(size=size, komi=komi, level=level, seed=seed)
        took = time.perf_counter() - t0
        moves = len(game.moves) if game else "-"
        print(f"{size}x{size} level {level} seed {seed}: {moves} moves, {took:.1f} s", flush=True)
        return game

    with ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(one, settings))
    finished = [game for game in results if game is not None]
    # a few seeds lead GNU Go to the same game; keep the first of each so no position counts twice
    games, seen = [], set()
    for game in finished:
        key = (game.size, tuple(game.moves))
        if key not in seen:
            seen.add(key)
            games.append(game)
    save_games(args.out, games)
    big = [game for game in games if game.size == 19]
    save_games(args.out19, big)
    # bench/board.py replays SGF records
    args.sgf19.mkdir(parents=True, exist_ok=True)
    for game in big:
        (args.sgf19 / f"gnugo-19x19-seed{game.seed:03d}.sgf").write_text(game.to_sgf())
    print(
        f"{len(games)} distinct finished games ({len(finished)} finished) of {len(settings)} "
        f"in {time.perf_counter() - start:.0f} s -> {args.out}, {args.out19}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
