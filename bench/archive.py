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

Best of ``--rounds`` (3) alternating rounds each. Last line: ``ratio X`` = sgfmill's time ÷ ours
(higher is better; the target is X ≥ 3).

Usage::

    PYTHONPATH=src python bench/archive.py
    PYTHONPATH=src python bench/archive.py --weiqi "python -m weiqi" --repeat 10
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

from sgfmill import boards, sgf, sgf_grammar

ROOT = Path(__file__).resolve().parent.parent
CORPUS = [ROOT / "bench/data/gnugo-19x19", ROOT / "bench/data/archive"]


def corpus_files() -> list[Path]:
    return [path for folder in CORPUS for path in sorted(folder.glob("*.sgf"))]


def sgfmill_check(data: bytes) -> tuple[int, int]:
    """Games and main-line moves of one file, through sgfmill (parse, setup, play)."""
    games = moves = 0
    for coarse in sgf_grammar.parse_sgf_collection(data):
        game = sgf.Sgf_game.from_coarse_game_tree(coarse)
        board = boards.Board(game.get_size())
        black, white, _ = game.get_root().get_setup_stones()
        board.apply_setup(black, white, ())
        for node in game.get_main_sequence():
            colour, move = node.get_move()
            if colour is not None and move is not None:
                board.play(move[0], move[1], colour)
            moves += colour is not None
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
    args = parser.parse_args(argv)
    command = shlex.split(args.weiqi) if args.weiqi else default_command()

    files = corpus_files() * args.repeat
    data = [path.read_bytes() for path in files]
    games = moves = 0
    for blob in data:
        g, m = sgfmill_check(blob)
        games, moves = games + g, moves + m
    env = dict(os.environ, PYTHONPATH=os.environ.get("PYTHONPATH", str(ROOT / "src")))

    def ours() -> float:
        start = time.perf_counter()
        run = subprocess.run(
            [*command, "check", "--json", *map(str, files)],
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
        took = time.perf_counter() - start
        lines = [json.loads(line) for line in run.stdout.splitlines()]
        if run.returncode != 0 or len(lines) != games or not all(x["legal"] for x in lines):
            raise SystemExit(f"weiqi check did not pass the corpus: {run.stderr[-2000:]}")
        checked = sum(line["moves"] for line in lines)
        if checked != moves:
            raise SystemExit(f"weiqi check counted {checked} moves, sgfmill {moves}")
        return took

    def theirs() -> float:
        start = time.perf_counter()
        for blob in data:
            sgfmill_check(blob)
        return time.perf_counter() - start

    best_ours = best_theirs = float("inf")
    for _ in range(args.rounds):
        best_theirs = min(best_theirs, theirs())
        best_ours = min(best_ours, ours())
    print(f"corpus: {len(files)} files ({len(corpus_files())} distinct × {args.repeat}), ")
    print(f"        {games} games, {moves} main-line moves")
    print(
        f"weiqi check --json (end to end): {best_ours:.2f} s, {best_ours / games * 1e3:.2f} ms/game"
    )
    print(f"sgfmill parse + play (in process): {best_theirs:.2f} s, "
          f"{best_theirs / games * 1e3:.2f} ms/game")  # fmt: skip
    print(f"ratio {best_theirs / best_ours:.2f}")


if __name__ == "__main__":
    main()
