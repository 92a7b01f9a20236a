"""Refereed games between GTP engines (R-END-1, R-END-3, R-PLAY rules judged by our board)."""

from __future__ import annotations

import shutil
import sys

import pytest

from weiqi.engines.gtp import SimpleEngine
from weiqi.engines.match import engine_name, referee_game
from weiqi.rules.board import Board
from weiqi.rules.color import Color
from weiqi.rules.result import Outcome, Reason, Result
from weiqi.rules.ruleset import Ruleset

GNUGO = ["/usr/games/gnugo", "--mode", "gtp", "--chinese-rules", "--situational-superko"]
needs_gnugo = pytest.mark.skipif(not shutil.which(GNUGO[0]), reason="needs GNU Go")

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
@needs_gnugo
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
@needs_gnugo
def test_r_hcp_2_handicap_game_between_engines() -> None:
    with SimpleEngine.popen([*GNUGO, "--level", "1"]) as gnugo:
        game = referee_game(gnugo, gnugo, Ruleset.handicap_game(2, size=9), max_moves=6)
        assert game.moves[0][0] is Color.WHITE
        assert len(gnugo.list_stones(Color.BLACK)) >= 2
