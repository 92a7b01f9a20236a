"""Cross-check against the real GNU Go: its self-play games, written by our SGF writer, replay as
legal, and counting them with GNU Go's dead stones gives GNU Go's ``final_score``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from tests.programs import GNUGO
from weiqi.formats.sgf import SgfGame, write_sgf
from weiqi.rules.color import Color

SRC = Path(__file__).resolve().parents[2] / "src"
COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"

pytestmark = pytest.mark.gnugo


class Gtp:
    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [GNUGO, "--mode", "gtp", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def ask(self, command: str) -> str:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:  # GNU Go is gone: its answer will never come
                raise EOFError(f"{command}: GNU Go exited ({self.process.poll()})")
            if line == "\n" and lines:
                break
            lines.append(line.rstrip("\n"))
        reply = "\n".join(lines)
        assert reply.startswith("="), f"{command}: {reply}"
        return reply[1:].strip()

    def close(self) -> None:
        self.ask("quit")
        self.process.wait(timeout=10)


def point_of(vertex: str, size: int) -> tuple[int, int] | None:
    if vertex.upper() == "PASS":
        return None
    return int(vertex[1:]) - 1, COLUMNS.index(vertex[0].upper())


@pytest.mark.parametrize("seed", [3, 11])
def test_gnugo_self_play_checks_legal_and_scores_alike(tmp_path: Path, seed: int) -> None:
    size = 9
    gtp = Gtp("--chinese-rules", "--level", "1", "--seed", str(seed))
    try:
        gtp.ask(f"boardsize {size}")
        gtp.ask("clear_board")
        gtp.ask("komi 7.5")
        game = SgfGame(
            size=size, komi=Fraction(15, 4), black_player="GNU Go", white_player="GNU Go"
        )
        color, passes = Color.BLACK, 0
        while passes < 2 and len(game.moves()) < 200:
            vertex = gtp.ask(f"genmove {color.value.lower()}")
            assert vertex.lower() != "resign"
            game.play(color, point_of(vertex, size))
            passes = passes + 1 if vertex.upper() == "PASS" else 0
            color = color.opponent
        dead = gtp.ask("final_status_list dead").split()
        expected = gtp.ask("final_score")
    finally:
        gtp.close()
    path = tmp_path / f"gnugo-{seed}.sgf"
    path.write_bytes(write_sgf(game))
    env = {**os.environ, "PYTHONPATH": str(SRC)}

    def weiqi(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "weiqi", *args],
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )

    check = weiqi("check", str(path), "--json")
    assert json.loads(check.stdout) == {
        "file": str(path),
        "legal": True,
        "moves": len(game.moves()),
    }
    dead_args = [arg for vertex in dead for arg in ("--dead", vertex)]
    score = weiqi("score", str(path), *dead_args, "--json")
    assert score.returncode == 0, score.stderr
    assert json.loads(score.stdout)["result"] == expected
