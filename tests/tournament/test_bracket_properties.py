"""Property tests on brackets and elimination systems (R-FMT-3): random fields and results."""

from __future__ import annotations

import math
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournament.simulate import entrants, play_all, win_for
from weiqi.rules.result import Result
from weiqi.tournament.records import Event, Game
from weiqi.tournament.scoring import histories
from weiqi.tournament.settings import EventSettings, System
from weiqi.tournament.systems import system_for


def coin(seed: int):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)

    def decide(g: Game) -> Result:
        return win_for(g, rng.choice(g.players))

    return decide


def one_game_a_round(plans: list) -> None:  # type: ignore[type-arg]
    for p in plans:
        players = [x for g in p.games for x in g.players] + list(p.byes)
        assert len(players) == len(set(players))


@settings(max_examples=25, deadline=None)
@given(n=st.integers(2, 40), seed=st.integers(0, 10**6))
def test_single_elimination_has_one_champion(n: int, seed: int) -> None:
    s = EventSettings(system=System.KNOCKOUT)
    event, plans = play_all(Event(s, entrants([f"p{i:02d}" for i in range(n)])), coin(seed))
    one_game_a_round(plans)
    assert len(plans) == math.ceil(math.log2(n))
    assert len(system_for(s).eliminated(event)) == n - 1


@settings(max_examples=25, deadline=None)
@given(n=st.integers(2, 33), seed=st.integers(0, 10**6), reset=st.booleans())
def test_double_elimination_everyone_but_the_champion_loses_twice(
    n: int, seed: int, reset: bool
) -> None:
    s = EventSettings(system=System.DOUBLE_ELIMINATION, grand_final_reset=reset)
    event, plans = play_all(Event(s, entrants([f"p{i:02d}" for i in range(n)])), coin(seed))
    one_game_a_round(plans)
    out = system_for(s).eliminated(event)
    assert len(out) == n - 1
    losses = {pid: h.losses for pid, h in histories(event).items()}
    (champion,) = set(losses) - out
    assert losses[champion] <= 1
    once = [p for p in out if losses[p] == 1]
    assert all(losses[p] in (1, 2) for p in out)
    # only the grand final's loser, when there is no reset, can be out after one loss
    assert len(once) == 0 or (not reset and len(once) == 1 and losses[champion] == 1)


@settings(max_examples=20, deadline=None)
@given(n=st.integers(6, 30), seed=st.integers(0, 10**6), k=st.integers(2, 3))
def test_swiss_with_elimination_keeps_an_even_field(n: int, seed: int, k: int) -> None:
    """积分编排加淘汰: nobody out is paired again, and a bye is only given when nobody was just
    eliminated who could keep the field even."""
    n += n % 2
    s = EventSettings(system=System.SWISS_KNOCKOUT, rounds=8, elimination_losses=k, seed=seed)
    event, plans = play_all(Event(s, entrants([f"p{i:02d}" for i in range(n)])), coin(seed))
    one_game_a_round(plans)
    engine = system_for(s)
    for p in plans:
        before = Event(s, event.entrants, event.rounds[: p.number - 1])
        out = engine.eliminated(before)
        assert not {x for g in p.games for x in g.players} & out
        if p.byes:
            assert p.eliminated == () or len(p.games) * 2 + 1 == n - len(out)
