"""Colours: nigiri and the organiser's assignment (R-COLOR-1), wrong colours (R-COLOR-2)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from datetime import date

import pytest

from weiqi.errors import Conflict, InvalidSetting
from weiqi.referee.events import WrongColors
from weiqi.referee.nigiri import (
    ColorAssignment,
    ColorMethod,
    Contestant,
    Guess,
    Nigiri,
    holder_of,
)
from weiqi.referee.record import GameRecord

from .scripts import REF, B, W, new_game, play

STRONG = Contestant("Chen", rank=6, born=date(2001, 5, 4))
WEAK = Contestant("Zhou", rank=3, born=date(1970, 1, 1))
ELDER = Contestant("Sun", rank=3, born=date(1960, 2, 2))


def test_r_color_1_higher_rank_holds() -> None:
    """R-COLOR-1: the higher-ranked player holds, whatever the ages."""
    holder, guesser = holder_of(WEAK, STRONG)
    assert (holder.name, guesser.name) == ("Chen", "Zhou")
    n = Nigiri.draw(WEAK, STRONG, Guess.ODD, seed=1)
    assert (n.holder, n.guesser) == ("Chen", "Zhou")


def test_r_color_1_equal_rank_the_elder_holds() -> None:
    """R-COLOR-1: equal rank: the elder holds; same rank and birth date is left to the chief
    referee."""
    assert holder_of(WEAK, ELDER)[0].name == "Sun"
    with pytest.raises(InvalidSetting, match="chief referee decides"):
        holder_of(WEAK, replace(ELDER, born=WEAK.born))


@pytest.mark.parametrize("seed", range(12))
def test_r_color_1_the_count_and_the_guess_decide(seed: int) -> None:
    """R-COLOR-1: one stone shown = "odd, I take Black"; two = "even, I take Black"."""
    for guess in Guess:
        n = Nigiri.draw(STRONG, WEAK, guess, seed)
        guesser_black = (n.count % 2 == 1) == (guess is Guess.ODD)
        assert n.black == ("Zhou" if guesser_black else "Chen")
        assert {n.black, n.white} == {"Zhou", "Chen"}
        assert guess.stones_shown == (1 if guess is Guess.ODD else 2)


def test_r_color_1_nigiri_replays_from_its_seed_and_detects_tampering() -> None:
    """R-COLOR-1: the recorded seed gives the same draw; a changed count, holder or outcome
    fails the audit."""
    n = Nigiri.draw(STRONG, WEAK, Guess.EVEN, seed=99)
    assert Nigiri.draw(STRONG, WEAK, Guess.EVEN, seed=99) == n
    assert n.verify()
    with pytest.raises(Conflict, match="count"):
        replace(n, count=n.count + 1).verify()
    with pytest.raises(Conflict, match="holder"):
        replace(n, holder="Zhou", guesser="Chen", holder_rank=3, guesser_rank=6).verify()
    with pytest.raises(Conflict, match="gives Black"):
        replace(n, black=n.white, white=n.black).verify()


def test_r_color_1_counts_are_spread_over_both_parities() -> None:
    """R-COLOR-1: the seeded handful gives both odd and even counts."""
    parities = Counter(Nigiri.draw(STRONG, WEAK, Guess.ODD, s).count % 2 for s in range(200))
    assert 60 < parities[1] < 140


def test_r_color_1_colors_by_nigiri_or_organiser_are_recorded_in_the_game() -> None:
    """R-COLOR-1: the game record keeps how its colours were decided, nigiri included, and
    the nigiri survives the JSON round trip."""
    n = Nigiri.draw(STRONG, WEAK, Guess.ODD, seed=5)
    rec, _ = new_game(colors=ColorAssignment.by_nigiri(n))
    again = GameRecord.from_json(rec.to_json())
    assert again.state.assigned is not None and again.state.assigned.nigiri == n
    assert again.state.assigned.method is ColorMethod.NIGIRI
    assert again.state.black == n.black
    organiser = ColorAssignment.by_organiser("Li", "Wang")
    assert organiser.method is ColorMethod.ORGANISER and organiser.nigiri is None
    with pytest.raises(InvalidSetting, match="differ from the nigiri"):
        ColorAssignment(ColorMethod.NIGIRI, n.white, n.black, n)


def test_r_color_2_wrong_colors_corrected_up_to_move_10() -> None:
    """R-COLOR-2: wrong colours found at move 10 are corrected: the game starts again with the
    assigned colours."""
    rec, clock = new_game(size=9)
    moves = ["C3", "G7", "C7", "G3", "E5", "E3", "E7", "C5", "G5", "D4"]
    play(rec, clock, moves)
    assert rec.state.move_number == 10
    rec.append(WrongColors("Wang sat at Black"), REF, clock())
    s = rec.state
    assert s.colors_corrected and s.move_number == 0 and s.to_move is B
    assert not any(s.stones)
    assert (s.black, s.white) == ("Li", "Wang") == s.pairing_colors


def test_r_color_2_after_move_10_the_game_stands_and_pairing_keeps_the_assignment() -> None:
    """R-COLOR-2: from move 11 the game stands as played; later pairing uses the assigned
    colours."""
    rec, clock = new_game(size=9)
    moves = ["C3", "G7", "C7", "G3", "E5", "E3", "E7", "C5", "G5", "D4", "F4"]
    play(rec, clock, moves)
    stones = rec.state.stones
    rec.append(WrongColors("found at move 11"), REF, clock())
    s = rec.state
    assert s.stones == stones and s.move_number == 11 and s.colors_wrong_noted
    assert (s.black, s.white) == ("Wang", "Li")
    assert s.pairing_colors == ("Li", "Wang")
    assert s.player(W) == "Li"
    with pytest.raises(Conflict, match="already been dealt with"):
        rec.append(WrongColors(), REF, clock())
