"""``weiqi gtp``: the GTP v2 engine, in-process and as a subprocess."""

from __future__ import annotations

import io
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.rules.test_ko import _triple_ko
from weiqi.engines.gtp_engine import GtpEngine
from weiqi.engines.policy import choose_move
from weiqi.rules.board import Board
from weiqi.rules.color import Color
from weiqi.rules.playout import is_own_eye
from weiqi.rules.ruleset import CyclePolicy, Ruleset
from weiqi.rules.vertex import format_vertex, parse_vertex

REQUIRED = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "is_legal",
    "list_stones",
    "final_score",
    "final_status_list",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "showboard",
]


def ask(engine: GtpEngine, command: str) -> str:
    answer = engine.handle(command)
    assert answer is not None and answer.endswith("\n\n")
    return answer[:-2]


def test_protocol_basics() -> None:
    e = GtpEngine()
    assert ask(e, "protocol_version") == "= 2"
    assert ask(e, "name") == "= weiqi"
    assert ask(e, "7 known_command play") == "=7 true"
    assert ask(e, "known_command loadsgf_xyz") == "= false"
    assert ask(e, "frobnicate") == "? unknown command"
    assert ask(e, "12 frobnicate") == "?12 unknown command"
    assert e.handle("   # just a comment") is None
    assert e.handle("") is None
    assert ask(e, "name # trailing comment") == "= weiqi"
    assert ask(e, "boardsize\t9") == "= "
    listed = ask(e, "list_commands")[2:].splitlines()
    assert set(REQUIRED) <= set(listed)
    assert ask(e, "boardsize 1") == "? unacceptable size"
    assert ask(e, "boardsize x") == "? boardsize not an integer"
    assert ask(e, "komi x") == "? komi not a float"
    assert ask(e, "quit") == "= " and e.finished


def test_play_answers_illegal_move() -> None:
    """R-PLAY-1, R-SUICIDE-1, R-KO-1 through GTP: occupied, suicide and ko are ``illegal move``."""
    e = GtpEngine()
    ask(e, "boardsize 5")
    for move in ["b A2", "w B2", "b B1", "w C1", "b E5", "w A1"]:  # White takes B1: a ko
        assert ask(e, f"play {move}") == "= "
    assert ask(e, "play b B1") == "? illegal move"  # ko
    assert ask(e, "is_legal b B1") == "= 0"
    assert ask(e, "play b E5") == "? illegal move"  # occupied
    assert ask(e, "play b z9") == "? invalid coordinate"
    assert ask(e, "play x A1") == "? invalid color"
    assert ask(e, "play b") == "? invalid color or coordinate"
    assert ask(e, "captures white") == "= 1"
    ask(e, "clear_board")
    for move in ["w A2", "w B1"]:
        ask(e, f"play {move}")
    assert ask(e, "is_legal b A1") == "= 0"
    assert ask(e, "play b A1") == "? illegal move"  # suicide
    assert ask(e, "is_legal w A1") == "= 1"
    assert ask(e, "play b pass") == "= "


def test_list_stones_undo_and_showboard() -> None:
    e = GtpEngine()
    ask(e, "boardsize 9")
    for move in ["b C3", "w G7", "b E5"]:
        ask(e, f"play {move}")
    assert ask(e, "list_stones black") == "= E5 C3"
    assert ask(e, "list_stones w") == "= G7"
    assert ask(e, "undo") == "= "
    assert ask(e, "list_stones black") == "= C3"
    ask(e, "undo")
    ask(e, "undo")
    assert ask(e, "undo") == "? cannot undo"
    board = ask(e, "showboard")
    assert board.startswith("= \n") and " 9 . . . . . . . . .  9" in board


def test_final_score_and_status_count_every_stone_alive() -> None:
    """R-SCORE-1/3 through GTP: area counting, komi in points (7.5 = 3¾ stones)."""
    e = GtpEngine(dead_stones=lambda board: set())
    ask(e, "boardsize 5")
    ask(e, "komi 0")
    for col in "ABCDE":
        ask(e, f"play b {col}2")
        ask(e, f"play w {col}4")
    # Black: 5 stones + row 1 = 10; White 10; row 3 is shared (2½ each): a draw without komi.
    assert ask(e, "final_score") == "= 0"
    ask(e, "komi 0.5")
    assert ask(e, "final_score") == "= W+0.5"
    ask(e, "komi -3")
    assert ask(e, "final_score") == "= B+3"
    assert ask(e, "komi 0.3").startswith("? komi")
    assert ask(e, "final_status_list dead") == "= "
    assert ask(e, "final_status_list alive") == "= A4 B4 C4 D4 E4\nA2 B2 C2 D2 E2"
    assert ask(e, "final_status_list seki") == "= "
    assert ask(e, "final_status_list maybe") == "? invalid status"


def test_final_score_uses_the_dead_stone_proposal() -> None:
    """R-SCORE-1: with a proposal, the dead stones come off before counting."""

    def white_is_dead(board: Board) -> set[int]:
        return set(board.list_stones(Color.WHITE))

    e = GtpEngine(Ruleset.no_komi(5), dead_stones=white_is_dead)
    ask(e, "play b C3")
    ask(e, "play w A1")
    assert ask(e, "final_score") == "= B+25"
    assert ask(e, "final_status_list dead") == "= A1"
    assert ask(e, "final_status_list alive") == "= C3"


def test_handicap_commands() -> None:
    """R-HCP-2 through GTP: fixed and free placement; the count gives back N/2 stones."""
    e = GtpEngine(dead_stones=lambda board: set())
    assert ask(e, "fixed_handicap 4") == "= D16 Q16 D4 Q4"
    assert ask(e, "fixed_handicap 4") == "? board not empty"
    ask(e, "clear_board")
    assert ask(e, "fixed_handicap 10") == "? invalid handicap"
    ask(e, "boardsize 7")
    assert ask(e, "fixed_handicap 5") == "? invalid handicap"
    placed = ask(e, "place_free_handicap 5")[2:].split()
    assert len(placed) == 5 and ask(e, "list_stones b")[2:].split() == placed
    ask(e, "clear_board")
    assert ask(e, "set_free_handicap A1 A1") == "? bad vertex list"
    assert ask(e, "set_free_handicap A1") == "? bad vertex list"
    assert ask(e, "set_free_handicap A1 G7 D4") == "= "
    assert ask(e, "list_stones black") == "= G7 D4 A1"
    ask(e, "komi 0")
    # 3 handicap stones on 7×7, all stones alive: Black has 49 points, threshold 24½ + 1½.
    assert ask(e, "final_score") == "= B+46"


def test_genmove_policy_is_sensible() -> None:
    """genmove captures, escapes atari, never fills its own eye, never self-ataris."""
    capture = Board.from_diagram(
        """
        . . . . .
        . . X . .
        . X O X .
        . . . . .
        . . . . .
        """,
    )
    assert format_vertex(choose_move(capture, Color.BLACK, random.Random(0)), 5) == "C2"
    escape = Board.from_diagram(
        """
        . . . . .
        . . O . .
        . O X O .
        . . . . .
        . . . . .
        """,
    )
    assert format_vertex(choose_move(escape, Color.BLACK, random.Random(0)), 5) == "C2"
    eyes = Board.from_diagram(
        """
        . X O . .
        X X O . .
        X O O . .
        O O . . .
        . . . . .
        """,
    )
    for seed in range(20):
        move = choose_move(eyes, Color.BLACK, random.Random(seed))
        assert move != parse_vertex("A5", 5)


def test_genmove_self_play_ends_by_passing() -> None:
    """Self-play through GTP: only legal moves, no own eye filled, and both pass in the end."""
    e = GtpEngine(Ruleset.chinese(9), seed=3)
    passes = 0
    moves = 0
    color = "black"
    while passes < 2:
        assert moves < 300, "the game should end"
        before = e.board.copy()
        answer = ask(e, f"genmove {color}")
        vertex = answer[2:]
        point = parse_vertex(vertex, 9)
        if point is None:
            passes += 1
        else:
            passes = 0
            played = Color.BLACK if color == "black" else Color.WHITE
            assert before.is_legal(played, point)
            assert not is_own_eye(before, played, point)
        moves += 1
        color = "white" if color == "black" else "black"
    assert ask(e, "final_score")[2:3] in "BW0"


def test_cycle_policy_ends_the_game_through_gtp() -> None:
    """R-KO-2 through GTP: under ``draw`` the repeating move of a triple ko is accepted, then
    the game is over: moves are illegal and genmove passes."""
    board, moves = _triple_ko(CyclePolicy.DRAW)
    e = GtpEngine(Ruleset.chinese(12).with_(cycle=CyclePolicy.DRAW))
    e.board.setup(board.list_stones(Color.BLACK), board.list_stones(Color.WHITE), Color.BLACK)
    for color, point in moves:
        assert ask(e, f"play {color.value} {format_vertex(point, 12)}") == "= "
    assert ask(e, "play b A12") == "? illegal move"
    assert ask(e, "genmove b") == "= pass"


#: A four-move cycle on the first line, of the eternal-life (长生) kind: Black throws in at A1
#: (two stones in atari), White takes them with C1, Black takes two back with B1, White throws
#: in again at D1, and the board (Black to move) is the one before A1. The stones are placed
#: with ``play``, which GTP lets either colour do at any time.
ETERNAL_SETUP = ["b B1", "w D1", "b E1", "b C2", "b D2", "b E2", "w A2", "w B2", "w A3", "w B3"]
ETERNAL_CYCLE = ["b A1", "w C1", "b B1", "w D1"]


@pytest.mark.parametrize(
    ("policy", "score"),
    [(CyclePolicy.DRAW, "0"), (CyclePolicy.NO_RESULT, "Void"), (CyclePolicy.REPLAY, "Void")],
)
def test_r_ko_2_final_score_after_an_eternal_life_cycle(policy: CyclePolicy, score: str) -> None:
    """R-KO-2: after a repeated-position cycle under a supplementary rule, ``final_score``
    answers the rule's outcome (0 for 和棋, Void for 无胜负 and 重赛), not a count; under the
    default ban the repeating throw-in is refused and the position is counted."""
    e = GtpEngine(Ruleset.chinese(9).with_(cycle=policy))
    for move in ETERNAL_SETUP + ETERNAL_CYCLE:
        assert ask(e, f"play {move}") == "= "
    assert ask(e, "final_score") == f"= {score}"
    banned = GtpEngine(Ruleset.chinese(9))
    for move in ETERNAL_SETUP + ETERNAL_CYCLE[:-1]:
        ask(banned, f"play {move}")
    assert ask(banned, f"play {ETERNAL_CYCLE[-1]}") == "? illegal move"
    assert ask(banned, "final_score")[2] in "BW"


def test_r_ko_2_weiqi_gtp_cycle_draw_final_score_is_0() -> None:
    """R-KO-2 through the program: ``weiqi gtp --cycle draw`` answers ``final_score`` with 0 after
    the eternal-life cycle and after a triple ko (a count would say W+…)."""
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root / "src")}
    board, triple = _triple_ko(CyclePolicy.DRAW)
    placing = [f"play b {format_vertex(p, 12)}" for p in board.list_stones(Color.BLACK)]
    placing += [f"play w {format_vertex(p, 12)}" for p in board.list_stones(Color.WHITE)]
    script = [f"play {move}" for move in ETERNAL_SETUP + ETERNAL_CYCLE] + ["final_score"]
    script += ["boardsize 12", *placing]
    script += [f"play {c.value} {format_vertex(p, 12)}" for c, p in triple] + ["final_score"]
    run = subprocess.run(
        [sys.executable, "-m", "weiqi", "gtp", "--size", "9", "--cycle", "draw"],
        input="\n".join([*script, "quit"]) + "\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=True,
    )
    answers = run.stdout.split("\n\n")[:-1]
    first = len(ETERNAL_SETUP) + len(ETERNAL_CYCLE)
    assert answers[first] == "= 0" and answers[-2] == "= 0", answers
    assert answers.count("= ") == len(answers) - 2  # every move and setting accepted


def test_default_proposal_finds_dead_stones() -> None:
    """R-END-3: final_score and final_status_list use weiqi.rules.dead_stones by default."""
    e = GtpEngine(Ruleset.no_komi(5))
    for move in ["b C1", "b C2", "b C3", "b C4", "b C5", "w E3"]:
        ask(e, f"play {move}")
    assert ask(e, "final_status_list dead") == "= E3"
    assert ask(e, "final_score") == "= B+25"


def test_printsgf_and_loadsgf_round_trip(tmp_path: Path) -> None:
    """printsgf writes the game (handicap, komi, moves); loadsgf replays it, also up to a move."""
    e = GtpEngine(dead_stones=lambda board: set())
    ask(e, "boardsize 9")
    ask(e, "komi 0")
    ask(e, "fixed_handicap 2")
    for move in ["w E5", "b D5", "w pass", "b E4"]:
        ask(e, f"play {move}")
    text = ask(e, "printsgf")
    assert text.startswith("= (;") and "HA[2]" in text and "AB[" in text and "W[]" in text
    path = tmp_path / "game.sgf"
    assert ask(e, f"printsgf {path}") == "= "
    stones = ask(e, "list_stones black"), ask(e, "list_stones white")
    score = ask(e, "final_score")
    ask(e, "boardsize 13")
    assert ask(e, f"loadsgf {path}") == "= "
    assert (ask(e, "list_stones black"), ask(e, "list_stones white")) == stones
    assert ask(e, "final_score") == score
    assert ask(e, f"loadsgf {path} 2") == "= "  # the position before move 2
    assert ask(e, "list_stones black") == "= G7 C3"
    assert ask(e, "list_stones white") == "= E5"
    assert ask(e, f"loadsgf {tmp_path / 'missing.sgf'}") == "? cannot open or parse file"
    broken = tmp_path / "broken.sgf"
    broken.write_text("(;SZ[9];B[ee];W[ee])")
    assert ask(e, f"loadsgf {broken}") == "? cannot load file: move 2 at E5: occupied"
    broken.write_text("(;SZ[9];B[ee]")
    assert ask(e, f"loadsgf {broken}").startswith("? cannot load file: ")


# Fuego's repetition.tst #51: White to move after the setup (PL[W]); W[ca] B[aa] and then W
# B9 retakes, back to the setup's stones with Black to move: a new position, so legal.
FUEGO_51 = (
    "(;GM[1]FF[4]SZ[9]KM[6.5]AB[ad][bd][bb][cd][cc][cb][db][da]AW[ae][ac][ab][be][ba][ce][de]"
    "[dd][dc][ec][eb][ea]PL[W];W[ca];B[aa];W[ba])"
)


def test_loadsgf_honours_pl_after_setup(tmp_path: Path) -> None:
    """Issue #15 (1): loadsgf ignored PL, so the start had Black to move and is_legal said 0."""
    path = tmp_path / "repetition51.sgf"
    path.write_text(FUEGO_51)
    e = GtpEngine(dead_stones=lambda board: set())
    assert ask(e, f"loadsgf {path} 3") == "= "
    assert ask(e, "is_legal w B9") == "= 1"


@pytest.mark.parametrize(
    ("record", "to_move"),
    [
        ("(;SZ[9]HA[1]AB[cc];B[ee])", "white"),  # HA[1] is no handicap: Black moves first
        ("(;SZ[9]AB[cc][gg]AW[ee];W[dd])", "black"),  # setup without PL, White first
        ("(;SZ[9]AB[cc][gg];W[dd])", "black"),
    ],
)
def test_loadsgf_accepts_what_check_accepts(tmp_path: Path, record: str, to_move: str) -> None:
    path = tmp_path / "game.sgf"
    path.write_text(record)
    e = GtpEngine(dead_stones=lambda board: set())
    assert ask(e, f"loadsgf {path}") == "= "
    assert e.board.to_move.en.lower() == to_move


def test_loadsgf_refuses_ha_above_nine(tmp_path: Path) -> None:
    path = tmp_path / "game.sgf"
    path.write_text("(;SZ[19]HA[20];W[pd])")
    e = GtpEngine(dead_stones=lambda board: set())
    assert ask(e, f"loadsgf {path}").startswith("? cannot load file: ")
    assert "HA[20]" in ask(e, f"loadsgf {path}")


def test_run_serves_a_session_until_quit() -> None:
    out = io.StringIO()
    GtpEngine().run(io.StringIO("boardsize 9\n1 play b E5\nquit\nname\n"), out)
    assert out.getvalue() == "= \n\n=1 \n\n= \n\n"


def test_weiqi_gtp_subprocess() -> None:
    """``weiqi gtp`` as a program: GTP on stdin/stdout, errors as one line and exit 2."""
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root / "src")}
    run = subprocess.run(
        [sys.executable, "-m", "weiqi", "gtp", "--size", "9"],
        input="play b E5\nplay w E5\nlist_stones b\nquit\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=True,
    )
    assert run.stdout == "= \n\n? illegal move\n\n= E5\n\n= \n\n"
    bad = subprocess.run(
        [sys.executable, "-m", "weiqi", "gtp", "--komi", "lots"],
        input="",
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert (
        bad.returncode == 2 and bad.stderr.strip() == "error: komi: not a number of points: 'lots'"
    )


@pytest.mark.parametrize("size", [9, 13, 19])
def test_fixed_handicap_answers_like_gnu_go(size: int) -> None:
    """R-HCP-2: the answer lists GNU Go's points in GNU Go's order (top row first)."""
    e = GtpEngine()
    ask(e, f"boardsize {size}")
    answer = ask(e, "fixed_handicap 9")[2:].split()
    assert answer[4] == format_vertex((size // 2) * size + size // 2, size)


_WORDS = st.sampled_from(
    ["b", "w", "black", "white", "x", "A1", "E5", "T19", "J9", "pass", "I5", "0", "2", "5", "9",
     "19", "-1", "7.5", "abc", "alive", "dead", "seki", "", "#", "A", "Z99"]
)  # fmt: skip


@settings(max_examples=40, deadline=None)
@given(
    script=st.lists(
        st.tuples(st.sampled_from([*REQUIRED, "captures", "bogus"]), st.lists(_WORDS, max_size=3)),
        max_size=25,
    )
)
def test_any_command_line_gets_an_answer(script: list[tuple[str, list[str]]]) -> None:
    """Whatever is sent, the engine answers ``=`` or ``?`` and never dies (except by quit)."""
    e = GtpEngine(dead_stones=lambda board: set())
    for name, args in script:
        if name in ("loadsgf", "printsgf"):
            continue  # they touch files
        answer = e.handle(" ".join([name, *args]))
        assert answer is None or answer[0] in "=?"
