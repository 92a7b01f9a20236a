"""Our rules against the real GNU Go (``--chinese-rules --situational-superko``).

Random games on 4×4, 5×5 and 9×9 boards: before every move, our legality of every empty point
must equal GNU Go's ``is_legal``; after every move, our stones must equal GNU Go's
``list_stones``. Long games on the tiny boards revisit positions, so situational superko
(R-KO-1) is exercised many times; the test checks that it was.

What GNU Go 3.8 does with superko, found by these games: with ``--situational-superko`` both
``is_legal`` and ``play`` refuse a move that repeats an earlier position with the same player to
move (``is_legal`` answers 0, ``play`` answers ``? illegal move``), exactly as R-KO-1 says; no
mismatch has been seen.

On the finished GNU Go self-play games of ``tests/data/gnugo/selfplay.jsonl``, our count with
GNU Go's dead stones gives GNU Go's ``final_score``, except where open neutral points are left:
GNU Go's ``final_score`` then gives some of them to one side (it scores the position after its
own aftermath), where R-SCORE-1 / R-END-4 share them. Such games are counted, not asserted.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest

from tests.programs import GNUGO as GNU_GO
from weiqi.engines.gtp import SimpleEngine
from weiqi.engines.selfplay import load_games
from weiqi.rules.board import Board
from weiqi.rules.color import Color
from weiqi.rules.counting import count
from weiqi.rules.result import Result
from weiqi.rules.ruleset import Ruleset
from weiqi.rules.vertex import format_vertex, parse_vertex

GNUGO = [GNU_GO, "--mode", "gtp", "--chinese-rules", "--situational-superko"]
CORPUS = Path(__file__).resolve().parent.parent / "data" / "gnugo" / "selfplay.jsonl"

pytestmark = pytest.mark.gnugo


@pytest.fixture(scope="module")
def gnugo() -> Iterator[SimpleEngine]:
    engine = SimpleEngine.popen(GNUGO)
    yield engine
    engine.quit()


def _gtp(color: Color) -> str:
    return color.value.lower()


def _vertices(text: str, size: int) -> set[int]:
    points = {parse_vertex(word, size) for word in text.split()}
    assert None not in points
    return points  # type: ignore[return-value]


def play_random_games(
    engine: SimpleEngine, size: int, games: int, moves: int, seed: int
) -> Counter[str]:
    """Play random games on both boards; return how often each legality verdict was seen."""
    seen: Counter[str] = Counter()
    engine.boardsize(size)
    for game in range(games):
        rng = random.Random(seed * 1000 + game)
        engine.clear_board()
        board = Board(size)
        for number in range(1, moves + 1):
            color = board.to_move
            empties = board.empty_points()
            ours = [board.legality(color, p) for p in empties]
            lines = [f"is_legal {_gtp(color)} {format_vertex(p, size)}" for p in empties]
            legal = [p for p, why in zip(empties, ours, strict=True) if why is None]
            # mostly random legal moves, sometimes a pass (passes change the player to move)
            move = rng.choice(legal) if legal and rng.random() > 0.06 else None
            vertex = format_vertex(move, size)
            lines += [f"play {_gtp(color)} {vertex}", "list_stones b", "list_stones w"]
            replies = engine.command_batch(lines)
            for p, why, reply in zip(empties, ours, replies, strict=False):
                seen[why or "legal"] += 1
                assert reply.text == ("1" if why is None else "0"), (
                    f"game {game} move {number}: {color.en} at {format_vertex(p, size)}: "
                    f"we say {why or 'legal'}, GNU Go is_legal says {reply.text}"
                )
            played, black, white = replies[len(empties) :]
            assert played.ok, f"game {game} move {number}: GNU Go refused {vertex}"
            board.move(color, move)
            where = f"game {game} after move {number} ({color.en} {vertex})"
            assert _vertices(black.text, size) == set(board.list_stones(Color.BLACK)), where
            assert _vertices(white.text, size) == set(board.list_stones(Color.WHITE)), where
    return seen


@pytest.mark.parametrize(
    ("size", "games", "moves"),
    [(4, 24, 160), (5, 16, 220), (9, 4, 200)],
)
def test_r_ko_1_r_suicide_1_legality_and_stones_agree_with_gnugo(
    gnugo: SimpleEngine, size: int, games: int, moves: int
) -> None:
    """R-KO-1, R-SUICIDE-1, R-CAP-2: legality of every empty point and the stones after every
    move agree with GNU Go over thousands of random positions."""
    seen = play_random_games(gnugo, size, games, moves, seed=size)
    assert seen["legal"] > 1000
    assert seen["suicide"] > 0
    if size <= 5:
        assert seen["superko"] > 0, "the tiny boards are there to exercise superko"
        assert seen["ko"] > 0


def test_a_superko_repetition_is_refused_by_gnugo_play_and_is_legal(gnugo: SimpleEngine) -> None:
    """R-KO-1: GNU Go's ``play`` and ``is_legal`` both refuse a superko repetition."""
    size = 4
    rng = random.Random(7)
    found = 0
    for _ in range(40):
        board = Board(size)
        gnugo.boardsize(size)
        gnugo.clear_board()
        for _ in range(200):
            color = board.to_move
            superko = [p for p in board.empty_points() if board.legality(color, p) == "superko"]
            for p in superko:
                vertex = format_vertex(p, size)
                assert gnugo.is_legal(color, vertex) is False
                reply = gnugo.reply(f"play {_gtp(color)} {vertex}")
                assert not reply.ok and reply.text == "illegal move"
                found += 1
            legal = [p for p in board.empty_points() if board.is_legal(color, p)]
            move = rng.choice(legal) if legal and rng.random() > 0.06 else None
            board.move(color, move)
            gnugo.play(color, format_vertex(move, size))
        if found >= 5:
            break
    assert found >= 5


def test_finished_games_count_to_gnugo_final_score() -> None:
    """R-SCORE-1…3: our count with GNU Go's dead stones gives GNU Go's score on its own finished
    games (all of those without open neutral points; the rest are allowed to differ)."""
    games = load_games(CORPUS)
    assert len(games) >= 200
    agree = differ_open = 0
    for game in games:
        board = Board(game.size)
        for color, vertex in game.colored_moves():
            board.move(color, parse_vertex(vertex, game.size))
        assert board.stones_bytes() == game.final_stones(), f"seed {game.seed}"
        ruleset = Ruleset(board_size=game.size, komi=Fraction(game.komi) / 2)
        dead = [parse_vertex(v, game.size) for v in game.dead]
        counted = count(board, dead, ruleset)  # type: ignore[arg-type]
        if counted.result == Result.parse(game.score):
            agree += 1
        else:
            assert counted.shared > 0, (
                f"{game.size}x{game.size} seed {game.seed}: we count {counted.result}, "
                f"GNU Go {game.score}, and no neutral point is open"
            )
            differ_open += 1
    assert agree >= 0.9 * len(games), f"{agree} of {len(games)} agree"
