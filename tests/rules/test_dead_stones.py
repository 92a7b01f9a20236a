"""R-END-3: the dead-stone proposal for a finished position."""

from __future__ import annotations

import time
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from weiqi.engines.selfplay import load_games
from weiqi.rules.dead_stones import (
    BLACK,
    WHITE,
    benson_alive,
    dead_vertices,
    estimate_ownership,
    propose_dead,
    stones_from_rows,
)

CORPUS = Path(__file__).resolve().parent.parent / "data" / "gnugo" / "selfplay.jsonl"

TWO_EYES = [
    ".X.X.O.",
    "XXXXXO.",
    "OOOOOOO",
    ".......",
    ".......",
    ".......",
    ".......",
]


def test_r_end_3_benson_finds_two_eyed_group_alive() -> None:
    stones = stones_from_rows(TWO_EYES)
    alive = benson_alive(stones, 7, BLACK)
    assert dead_vertices(alive, 7) == sorted(["A6", "B6", "C6", "D6", "E6", "B7", "D7"])
    assert benson_alive(stones, 7, WHITE) == set()


def test_r_end_3_one_eye_is_not_unconditionally_alive() -> None:
    rows = [
        ".X.....",
        "XX.....",
        ".......",
        ".......",
        ".......",
        ".......",
        ".......",
    ]
    assert benson_alive(stones_from_rows(rows), 7, BLACK) == set()


def test_r_end_3_two_eyed_group_is_never_proposed_dead() -> None:
    """Benson's verdict overrides the playouts, even a single unlucky one."""
    stones = stones_from_rows(TWO_EYES)
    for seed in range(5):
        dead = propose_dead(stones, 7, seed=seed, playouts=1)
        assert not dead & benson_alive(stones, 7, BLACK)


def test_r_end_3_stone_inside_territory_is_dead() -> None:
    rows = [
        "..X.O..",
        "..X.O..",
        ".OX.O..",
        "..X.O.X",
        "..X.O..",
        "..X.O..",
        "..X.O..",
    ]
    assert dead_vertices(propose_dead(stones_from_rows(rows), 7), 7) == ["B5", "G4"]


def test_r_end_3_proposal_is_reproducible() -> None:
    rows = ["..X.O", ".OX.O", "..XOO", "..XO.", "X.XO."]
    stones = stones_from_rows(rows)
    assert propose_dead(stones, 5, seed=3) == propose_dead(stones, 5, seed=3)
    assert estimate_ownership(stones, 5, seed=1) == estimate_ownership(stones, 5, seed=1)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from([0, 0, 1, 2]), min_size=25, max_size=25), st.integers(0, 9))
def test_r_end_3_proposal_names_whole_chains(cells: list[int], seed: int) -> None:
    """Whatever the position, a proposal holds stones only, and whole chains of them."""
    stones = bytes(cells)
    dead = propose_dead(stones, 5, seed=seed, playouts=8)
    for p in dead:
        assert stones[p] != 0
        row, col = divmod(p, 5)
        for q in (
            p - 5 if row else None,
            p + 5 if row < 4 else None,
            p - 1 if col else None,
            p + 1 if col < 4 else None,
        ):
            if q is not None and stones[q] == stones[p]:
                assert q in dead


def test_r_end_3_agrees_with_gnugo_on_a_sample_of_finished_games() -> None:
    """The proposal equals GNU Go's ``final_status_list dead`` on at least 90% of a fixed
    sample of finished self-play games, within a second per position."""
    games = load_games(CORPUS)
    sample = (
        [g for g in games if g.size == 9][:16]
        + [g for g in games if g.size == 13][:10]
        + [g for g in games if g.size == 19][:4]
    )
    assert len(sample) == 30
    agree = 0
    slowest = 0.0
    for game in sample:
        start = time.perf_counter()
        dead = propose_dead(game.final_stones(), game.size)
        slowest = max(slowest, time.perf_counter() - start)
        agree += dead_vertices(dead, game.size) == sorted(game.dead)
    assert agree >= 27, f"{agree}/30 agree with GNU Go"
    assert slowest < 3.0  # 1 s is the target on an idle core; CI shares its cores


def test_r_end_3_seki_stones_in_the_corpus_are_not_proposed_dead() -> None:
    """Seki (GNU Go's ``final_status_list seki``) survives the playouts: no seki stone is
    proposed dead, since a group of two or more stones never fills its own last liberties."""
    games = [g for g in load_games(CORPUS) if g.seki]
    assert len(games) >= 2
    for game in games:
        dead = set(dead_vertices(propose_dead(game.final_stones(), game.size), game.size))
        assert not dead & set(game.seki), f"{game.size}x{game.size} seed {game.seed}"
