"""Validating an archive: ``weiqi check --json`` end to end against sgfmill's parse + play.

The corpus: the 40 GNU Go 19×19 self-play games of ``bench/data/gnugo-19x19/`` and the
hand-made records of ``bench/data/archive/`` (``bench/make_archive_records.py``: handicap and
setup stones, White first without ``PL``, variations, comments, times on every move, Fox komi,
GB2312 and Latin-1 text, a five-game collection), the whole list given ``--repeat`` times (40 by
default, about 2,000 files) so that the command's start-up counts as it does for a real archive.

- ours: the real command, ``weiqi check --json FILE…`` in a fresh process, timed from start to
  exit (start-up, reading, every check of the reader, the replay under the rules with ko,
  superko and suicide, and the JSON lines); its output is checked: one legal line per game;
- the reference, in this process (no start-up): for each file sgfmill's
  ``Sgf_game.from_bytes`` (every game of a collection through ``sgf_grammar``), the setup
  stones, and ``boards.Board.play`` along the main line (sgfmill checks neither turn, ko nor
  suicide).

Best of ``--rounds`` (3) alternating rounds each, wall clock and CPU time (the command's as a
child process, user + system). Last line: ``ratio X`` = sgfmill's CPU time ÷ ours (higher is
better; the target is X ≥ 3); the wall-clock ratio is printed before it. CPU time is the ratio
because the shared machine's load makes wall clock two to four times the CPU time, at random.

Usage::

    PYTHONPATH=src python bench/archive.py
    PYTHONPATH=src python bench/archive.py --weiqi "python -m weiqi" --repeat 10
    # another checkout's weiqi (e.g. before this change), on the GNU Go games it can read:
    PYTHONPATH=/tmp/before/src python bench/archive.py --weiqi "python -m weiqi" --corpus gnugo
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shlex
import subprocess
import sys
import time
from pathlib import Path

from sgfmill import boards, sgf, sgf_grammar

ROOT = Path(__file__).resolve().parent.parent
CORPUS = {
    "all": [ROOT / "bench/data/gnugo-19x19", ROOT / "bench/data/archive"],
    "gnugo": [ROOT / "bench/data/gnugo-19x19"],
}


def corpus_files(corpus: str = "all") -> list[Path]:
    return [path for folder in CORPUS[corpus] for path in sorted(folder.glob("*.sgf"))]


def sgfmill_check(data: bytes) -> tuple[int, int]:
    """Games and main-line moves of one file, through sgfmill (parse, setup, play)."""
    games = moves = 0
    for coarse in sgf_grammar.parse_sgf_collection(data):
        game = sgf.Sgf_game.from_coarse_game_tree(coarse)
        board = boards.Board(game.get_size())
        black, white, _ = game.get_root().get_setup_stones()
        board.apply_setup(black, white, ())
        for node in game.get_main_sequence():
            color, move = node.get_move()
            if color is not None and move is not None:
                board.play(move[0], move[1], color)
            moves += color is not None
        games += 1
    return games, moves


def default_command() -> list[str]:
    script = Path(sys.executable).with_name("weiqi")
    return [str(script)] if script.exists() else [sys.executable, "-m", "weiqi"]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=40, help="times the corpus is listed")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--weiqi", help="the command to run (default: the installed weiqi)")
    parser.add_argument(
        "--corpus", choices=sorted(CORPUS), default="all", help="gnugo: the GNU Go games only"
    )
    args = parser.parse_args(argv)
    command = shlex.split(args.weiqi) if args.weiqi else default_command()

    files = corpus_files(args.corpus) * args.repeat
    data = [path.read_bytes() for path in files]
    games = moves = 0
    for blob in data:
        g, m = sgfmill_check(blob)
        games, moves = games + g, moves + m
    env = dict(os.environ, PYTHONPATH=os.environ.get("PYTHONPATH", str(ROOT / "src")))

    def ours() -> tuple[float, float]:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        run = subprocess.run(
            [*command, "check", "--json", *map(str, files)],
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
        took = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        lines = [json.loads(line) for line in run.stdout.splitlines()]
        if run.returncode != 0 or len(lines) != games or not all(x["legal"] for x in lines):
            raise SystemExit(f"weiqi check did not pass the corpus: {run.stderr[-2000:]}")
        checked = sum(line["moves"] for line in lines)
        if checked != moves:
            raise SystemExit(f"weiqi check counted {checked} moves, sgfmill {moves}")
        return took, cpu

    def theirs() -> tuple[float, float]:
        start, cpu = time.perf_counter(), time.process_time()
        for blob in data:
            sgfmill_check(blob)
        return time.perf_counter() - start, time.process_time() - cpu

    def start_up() -> float:
        """CPU time of the command on one two-move record: its fixed cost."""
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(
            [*command, "check", "--json", str(files[0])], capture_output=True, env=env, check=False
        )
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime

    fixed = min(start_up() for _ in range(3))
    ours_wall = ours_cpu = theirs_wall = theirs_cpu = float("inf")
    for _ in range(args.rounds):
        wall, cpu = theirs()
        theirs_wall, theirs_cpu = min(theirs_wall, wall), min(theirs_cpu, cpu)
        wall, cpu = ours()
        ours_wall, ours_cpu = min(ours_wall, wall), min(ours_cpu, cpu)
    distinct = len(corpus_files(args.corpus))
    print(f"corpus: {len(files)} files ({distinct} distinct × {args.repeat}), {games} games, "
          f"{moves} main-line moves; load average {os.getloadavg()[0]:.1f}")  # fmt: skip
    for name, wall, cpu in (
        ("weiqi check --json (end to end)", ours_wall, ours_cpu),
        ("sgfmill parse + play (in process)", theirs_wall, theirs_cpu),
    ):
        print(f"{name}: {wall:.2f} s wall, {cpu:.2f} s CPU, {cpu / games * 1e3:.2f} ms CPU/game")
    print(f"start-up of the command (one file): {fixed:.2f} s CPU; without it the ratio would be "
          f"{theirs_cpu / max(ours_cpu - fixed, 1e-9):.2f}")  # fmt: skip
    print(f"wall-clock ratio {theirs_wall / ours_wall:.2f}")
    print(f"ratio {theirs_cpu / ours_cpu:.2f}")


if __name__ == "__main__":
    main()
