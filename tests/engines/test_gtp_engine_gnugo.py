"""``weiqi gtp`` against the real GNU Go: a whole 9×9 game where each engine referees the other's
moves, then the same final score from the same dead stones."""

from __future__ import annotations

import pytest

from tests.programs import GNUGO
from weiqi.engines.gtp import SimpleEngine
from weiqi.engines.gtp_engine import GtpEngine
from weiqi.engines.selfplay import GNUGO_ARGS
from weiqi.rules.color import Color
from weiqi.rules.ruleset import Ruleset
from weiqi.rules.vertex import parse_vertex

pytestmark = pytest.mark.gnugo


def ask(engine: GtpEngine, command: str) -> str:
    answer = engine.handle(command)
    assert answer is not None
    return answer.strip()


@pytest.mark.parametrize("seed", [1, 2])
def test_a_game_against_gnu_go_agrees_move_by_move_and_on_the_score(seed: int) -> None:
    """R-PLAY-1, R-CAP-1, R-KO-1, R-SCORE-1/3: GNU Go (--chinese-rules --situational-superko)
    accepts every move weiqi's genmove plays and weiqi accepts every GNU Go move; the stones
    agree after every move; with GNU Go's dead stones, final_score is GNU Go's."""
    gnugo_dead: list[str] = []

    def gnugo_proposal(board: object) -> set[int]:
        return {p for p in (parse_vertex(v, 9) for v in gnugo_dead) if p is not None}

    ours = GtpEngine(Ruleset.chinese(9), seed=seed, dead_stones=gnugo_proposal)
    with SimpleEngine.popen([GNUGO, *GNUGO_ARGS], timeout=60) as gnugo:
        gnugo.boardsize(9)
        gnugo.clear_board()
        gnugo.komi(7.5)
        gnugo.command("level 0")
        gnugo.command(f"set_random_seed {seed}")
        passes = 0
        color = Color.BLACK
        for _ in range(250):
            if color is Color.BLACK:
                vertex = ask(ours, "genmove black")[2:]
                gnugo.play(color, vertex)  # raises if GNU Go refuses it
            else:
                vertex = gnugo.genmove(color)
                assert ask(ours, f"play white {vertex}") == "="
            passes = passes + 1 if vertex.lower() == "pass" else 0
            for side in (Color.BLACK, Color.WHITE):
                name = side.en.lower()
                assert sorted(ask(ours, f"list_stones {name}")[2:].split()) == sorted(
                    gnugo.list_stones(side)
                )
            if passes == 2:
                break
            color = color.opponent
        assert passes == 2, "the game should end with two passes"
        gnugo_dead[:] = gnugo.final_status_list("dead")
        assert ask(ours, "final_score") == f"= {gnugo.final_score().to_sgf()}"
