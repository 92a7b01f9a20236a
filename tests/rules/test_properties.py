"""Hypothesis properties on random games (R-LIB-1, R-CAP-1/2, R-SUICIDE-1, R-KO-1).

A deliberately naive reference (flood fill, a list of every position so far) decides every
move independently of the board's incremental groups and Zobrist hash.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from weiqi.errors import IllegalMove
from weiqi.rules.board import Board, neighbour_table
from weiqi.rules.color import Color
from weiqi.rules.playout import random_move

CODE = {Color.BLACK: 1, Color.WHITE: 2}


def _group(stones: bytearray, p: int, size: int) -> tuple[set[int], set[int]]:
    nbrs = neighbour_table(size)
    color = stones[p]
    group, libs, todo = {p}, set(), [p]
    while todo:
        s = todo.pop()
        for q in nbrs[s]:
            if stones[q] == 0:
                libs.add(q)
            elif stones[q] == color and q not in group:
                group.add(q)
                todo.append(q)
    return group, libs


def reference_move(
    stones: bytes, color: int, p: int, size: int, seen: set[tuple[bytes, int]]
) -> tuple[str | None, bytes]:
    """(reason or None, stones after) by the rules as written, with no cleverness."""
    if stones[p]:
        return "occupied", stones
    after = bytearray(stones)
    after[p] = color
    for q in neighbour_table(size)[p]:
        if after[q] == 3 - color:
            group, libs = _group(after, q, size)
            if not libs:
                for s in group:
                    after[s] = 0
    if not _group(after, p, size)[1]:
        return "suicide", stones
    if (bytes(after), 3 - color) in seen:
        return "repetition", stones
    return None, bytes(after)


def _reason_kind(reason: str | None) -> str | None:
    return "repetition" if reason in ("ko", "superko") else reason


@settings(max_examples=60, deadline=None)
@given(
    size=st.integers(min_value=2, max_value=6),
    seed=st.integers(min_value=0, max_value=2**32),
    moves=st.integers(min_value=10, max_value=120),
)
def test_random_games_agree_with_the_reference(size: int, seed: int, moves: int) -> None:
    """R-LIB-1, R-CAP-1, R-CAP-2, R-SUICIDE-1, R-KO-1 on random games (eye filling allowed, so
    small boards see ko and superko): every point's legality agrees with the naive reference;
    no group without liberties stays; stones placed − captured = stones on the board; the
    incremental hash equals the hash from scratch; ``move_effect`` foretells captures and
    liberties."""
    check_random_game(size, seed, moves)


def test_long_small_board_games_meet_superko() -> None:
    """R-KO-1: the same check on long 4×4 and 5×5 games, which do reach superko positions."""
    reasons: set[str | None] = set()
    for seed in range(8):
        reasons |= check_random_game(4, seed, 200)
        reasons |= check_random_game(5, seed, 150)
    assert {"ko", "superko", "suicide", "occupied", None} <= reasons


def check_random_game(size: int, seed: int, moves: int) -> set[str | None]:
    """Play a random game, checking everything at every move; return the reasons met."""
    met: set[str | None] = set()
    rng = random.Random(seed)
    board = Board(size)
    seen = {(board.stones_bytes(), 1)}
    placed = 0
    for _ in range(moves):
        color = board.to_move
        code = CODE[color]
        stones = board.stones_bytes()
        legal = []
        for p in range(size * size):
            reason, after = reference_move(stones, code, p, size, seen)
            ours = board.legality(color, p)
            met.add(ours)
            assert _reason_kind(ours) == reason, (p, board.history)
            if ours is not None:
                with pytest.raises(IllegalMove) as refused:
                    board.play(color, p)
                assert refused.value.kind == ours
            if reason is None:
                legal.append((p, after))
        if not legal or rng.random() < 0.05:
            board.pass_(color)
        else:
            p, after = rng.choice(legal)
            effect = board.move_effect(color, p)
            assert effect is not None
            captured = board.play(color, p)
            assert (effect.captures, effect.liberties) == (len(captured), len(board.liberties(p)))
            placed += 1
            assert board.stones_bytes() == after
        seen.add((board.stones_bytes(), CODE[board.to_move]))
        on_board = sum(1 for s in board.stones_bytes() if s)
        assert placed - board.captures_black - board.captures_white == on_board
        assert board.hash == board.compute_hash()
        for group in board.groups():
            assert group.liberties
            assert group.liberties == frozenset(
                _group(bytearray(board.stones_bytes()), min(group.stones), size)[1]
            )
    return met


def _state(board: Board) -> tuple[object, ...]:
    return (
        board.stones_bytes(),
        board.to_move,
        board.hash,
        board.captures,
        board.ko_point,
        board.move_number,
        board.history,
        sorted((g.color.value, sorted(g.stones), sorted(g.liberties)) for g in board.groups()),
        [board.legality(board.to_move, p) for p in range(board.size**2)],
    )


@settings(max_examples=40, deadline=None)
@given(
    size=st.integers(min_value=2, max_value=9),
    seed=st.integers(min_value=0, max_value=2**32),
    moves=st.integers(min_value=0, max_value=80),
)
def test_undo_restores_exactly(size: int, seed: int, moves: int) -> None:
    """Undo after any move restores the state exactly (stones, groups, hash, ko, legality); a
    copy is independent; undoing everything gives the empty board back."""
    rng = random.Random(seed)
    board = Board(size)
    start = _state(board)
    for _ in range(moves):
        before = _state(board)
        copy = board.copy()
        legal = [p for p in range(size * size) if board.is_legal(board.to_move, p)]
        point = rng.choice(legal) if legal and rng.random() > 0.1 else None
        board.move(board.to_move, point)
        assert _state(copy) == before
        board.undo()
        assert _state(board) == before
        board.move(board.to_move, point)
        assert _state(copy) == before
    while board.move_number:
        board.undo()
    assert _state(board) == start


def test_illegal_moves_leave_the_board_untouched() -> None:
    """A refused move changes nothing."""
    board = Board(4)
    rng = random.Random(7)
    for _ in range(200):
        before = _state(board)
        p = rng.randrange(16)
        try:
            board.play(board.to_move, p)
        except IllegalMove:
            assert _state(board) == before
        if board.move_number > 40:
            break


@settings(max_examples=6, deadline=None)
@given(size=st.sampled_from([9, 13, 19]), seed=st.integers(min_value=0, max_value=2**32))
def test_groups_stay_exact_through_whole_games(size: int, seed: int) -> None:
    """R-LIB-1, R-CAP-1 on big boards, whole games (big chains merge and get captured): after
    every move each group's stones and liberties equal a flood fill of the stones, and the
    hash equals the hash from scratch."""
    rng = random.Random(seed)
    board = Board(size)
    for _ in range(3 * size * size):
        point = random_move(board, rng)
        board.move(board.to_move, point)
        if point is None and board.passes_in_a_row == 2:
            break
        stones = bytearray(board.stones_bytes())
        for group in board.groups():
            flood, libs = _group(stones, min(group.stones), size)
            assert group.stones == frozenset(flood) and group.liberties == frozenset(libs)
        assert board.hash == board.compute_hash()
