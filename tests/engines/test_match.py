"""Refereed games between GTP engines (R-END-1, R-END-3, R-PLAY rules judged by our board)."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.programs import GNUGO as GNU_GO
from weiqi.engines.gtp import SimpleEngine
from weiqi.engines.match import engine_name, referee_game
from weiqi.formats.sgf import read_sgf
from weiqi.rules.board import Board
from weiqi.rules.color import Color
from weiqi.rules.result import Outcome, Reason, Result
from weiqi.rules.ruleset import Ruleset

GNUGO = [GNU_GO, "--mode", "gtp", "--chinese-rules", "--situational-superko"]
SRC = Path(__file__).resolve().parents[2] / "src"

# A GTP engine that says yes to everything and answers genmove with a fixed reply.
STUBBORN = r"""
import sys
reply = sys.argv[1]
for line in sys.stdin:
    words = line.split()
    if words and words[0].isdigit():
        words = words[1:]
    if words[:1] == ["genmove"]:
        print(f"= {reply}\n", flush=True)
    elif words[:1] == ["quit"]:
        print("=\n", flush=True)
        break
    else:
        print("=\n", flush=True)
"""


def stubborn(reply: str) -> SimpleEngine:
    return SimpleEngine.popen([sys.executable, "-c", STUBBORN, reply], timeout=10)


def test_r_end_1_an_engine_that_resigns_loses_by_resignation() -> None:
    with stubborn("resign") as black, stubborn("E5") as white:
        game = referee_game(black, white, Ruleset.chinese(size=9))
    assert game.result == Result.win(Color.WHITE, Reason.RESIGNATION)
    assert game.ended_by == "resignation"
    assert game.moves == ()


def test_an_illegal_engine_move_loses_by_ruling() -> None:
    """R-PLAY: the second E5 of the same engine is on an occupied point: White wins by ruling."""
    with stubborn("E5") as black, stubborn("pass") as white:
        game = referee_game(black, white, Ruleset.chinese(size=9))
    assert game.ended_by == "illegal-move"
    assert game.result == Result.win(Color.WHITE, Reason.RULING)
    assert "move 3: Black E5: occupied" in game.note
    assert game.vertices() == ["E5", "pass"]


def test_garbage_vertex_loses_by_ruling() -> None:
    with stubborn("Z99") as black, stubborn("pass") as white:
        game = referee_game(black, white, Ruleset.chinese(size=9))
    assert game.result.winner is Color.WHITE and "not a vertex" in game.note


def test_two_passes_end_by_count_and_move_limit_gives_no_result() -> None:
    with stubborn("pass") as black, stubborn("pass") as white:
        game = referee_game(black, white, Ruleset.chinese(size=9))
    assert game.ended_by == "passes"
    assert game.count is not None
    assert game.result == Result.by_count(Color.WHITE, Ruleset.chinese(size=9).komi)
    with stubborn("pass") as black:
        game = referee_game(black, black, Ruleset.chinese(size=9), max_moves=1)
    assert game.result.outcome is Outcome.NO_RESULT and game.ended_by == "move-limit"


@pytest.mark.gnugo
def test_r_end_3_gnugo_self_play_is_refereed_and_counted() -> None:
    """GNU Go against itself on 9×9 (two processes): every move passes our rules, the game
    ends by two passes and is counted with the dead-stone proposal, as GNU Go scores it."""
    command = [*GNUGO, "--level", "1"]
    with SimpleEngine.popen(command) as black, SimpleEngine.popen(command) as white:
        assert engine_name(black).startswith("GNU Go")
        for engine in (black, white):
            engine.command("set_random_seed 7")  # the same game on every run
        game = referee_game(black, white, Ruleset.chinese(size=9))
        assert game.ended_by == "passes"
        assert game.count is not None
        board = Board(9)
        for color, point in game.moves:
            board.move(color, point)
        assert black.list_stones(Color.BLACK) == white.list_stones(Color.BLACK)
        assert Result.parse(black.command("final_score")) == game.result


@pytest.mark.gnugo
def test_r_hcp_2_handicap_game_between_engines() -> None:
    with SimpleEngine.popen([*GNUGO, "--level", "1"]) as gnugo:
        game = referee_game(gnugo, gnugo, Ruleset.handicap_game(2, size=9), max_moves=6)
        assert game.moves[0][0] is Color.WHITE
        assert len(gnugo.list_stones(Color.BLACK)) >= 2


def weiqi(*args: str | Path) -> subprocess.CompletedProcess[str]:
    """Run ``python -m weiqi`` as a user does."""
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    return subprocess.run(
        [sys.executable, "-m", "weiqi", *map(str, args)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def test_cli_match_bad_input_is_one_line() -> None:
    done = weiqi("match", "--black", "/nonexistent/engine", "--white", "x", "--size", "9")
    assert done.returncode == 2
    assert (
        done.stderr.strip()
        == "error: cannot start '/nonexistent/engine': No such file or directory"
    )
    done = weiqi("match", "--black", "x", "--white", "x", "--komi", "lots")
    assert done.returncode == 2 and "--komi" in done.stderr and "Traceback" not in done.stderr


def test_cli_match_resignation_json() -> None:
    stub = f"{shlex.quote(sys.executable)} -c {shlex.quote(STUBBORN)}"
    done = weiqi(
        "match", "--black", f"{stub} resign", "--white", f"{stub} pass", "--size", "9", "--json"
    )
    assert done.returncode == 0, done.stderr
    reply = json.loads(done.stdout)
    assert reply["result"] == "W+R" and reply["result_zh"] == "白中盘胜"
    assert reply["ended_by"] == "resignation"


@pytest.mark.gnugo
def test_cli_match_between_gnugo_writes_a_legal_sgf(tmp_path: Path) -> None:
    gnugo = " ".join([*GNUGO, "--level", "1"])
    record = tmp_path / "game.sgf"
    done = weiqi(
        "match", "--black", gnugo, "--white", gnugo, "--size", "9", "--sgf", record, "--json"
    )
    assert done.returncode == 0, done.stderr
    reply = json.loads(done.stdout)
    assert reply["ended_by"] == "passes"
    game = read_sgf(record.read_bytes(), source=str(record))
    assert game.result is not None and game.result.to_sgf() == reply["result"]
    assert len(game.moves()) == reply["moves"]
    checked = weiqi("check", record, "--json")
    assert json.loads(checked.stdout)["legal"] is True
