"""Property tests on simulated Swiss events (R-FMT-3, R-WD-1, R-DRAW-LOT): random results
including draws, both-lose and forfeits, odd fields, withdrawals and late entries."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import networkx as nx
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.tournament.simulate import entrants
from weiqi.errors import Conflict
from weiqi.rules.color import Color
from weiqi.rules.result import Reason, Result
from weiqi.tournament.records import Event
from weiqi.tournament.scoring import histories
from weiqi.tournament.settings import EventSettings, System
from weiqi.tournament.systems import system_for


def rematch_free_pairing_exists(
    active: set[str], met: set[frozenset[str]], byes: dict[str, int]
) -> bool:
    """Brute force, independent of the engine: is there any pairing of ``active`` without a
    rematch, giving the bye (odd field) to someone who has had none?"""
    graph = nx.Graph()
    graph.add_nodes_from(active)
    graph.add_edges_from(
        (a, b) for a, b in itertools.combinations(sorted(active), 2) if frozenset((a, b)) not in met
    )
    bye_choices: list[str | None] = (
        [p for p in sorted(active) if p not in byes] if len(active) % 2 else [None]
    )
    for bye in bye_choices:
        rest = graph.subgraph(active - {bye})
        if 2 * len(nx.max_weight_matching(rest, maxcardinality=True)) == rest.number_of_nodes():
            return True
    return False


def random_result(rng: random.Random) -> Result:
    x = rng.random()
    if x < 0.06:
        return Result.both_lose()
    if x < 0.12:
        return Result.draw()
    if x < 0.16:
        return Result.win(Color.BLACK, Reason.FORFEIT)
    return Result.win(rng.choice([Color.BLACK, Color.WHITE]), Reason.RESIGNATION)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    n=st.integers(11, 36),
    rounds=st.integers(3, 7),
    withdrawals=st.integers(0, 3),
    late=st.integers(0, 2),
    system=st.sampled_from([System.SWISS, System.MCMAHON]),
    first_round=st.sampled_from(["halves", "lot"]),
    method=st.sampled_from(["fold", "slip"]),
)
# 8 players left for round 7 after withdrawals: no new opponents exist, the engine must refuse.
@example(
    seed=33,
    n=11,
    rounds=7,
    withdrawals=3,
    late=0,
    system=System.SWISS,
    first_round="halves",
    method="slip",
)
def test_simulated_swiss_events_keep_the_hard_rules(
    seed: int,
    n: int,
    rounds: int,
    withdrawals: int,
    late: int,
    system: System,
    first_round: str,
    method: str,
) -> None:
    """Never a rematch, never two byes for one player, every active player paired exactly once
    a round, withdrawn players never paired again, colour difference at most 3. When the engine
    refuses a round (a small field after withdrawals can run out of new opponents), no
    rematch-free pairing may exist."""
    from weiqi.tournament.ranks import Rank

    rng = random.Random(seed)
    field = list(entrants([f"p{i:02d}" for i in range(n)]))
    for _ in range(withdrawals):
        k = rng.randrange(n)
        field[k] = replace(field[k], withdrawn_after=rng.randint(1, rounds))
    for _ in range(late):
        k = rng.randrange(n)
        field[k] = replace(field[k], joined_round=rng.randint(2, 3), withdrawn_after=None)
    s = EventSettings(
        system=system,
        rounds=rounds,
        seed=seed,
        first_round=first_round,  # type: ignore[arg-type]
        pairing_method=method,  # type: ignore[arg-type]
        **({"mcmahon_bar": Rank.parse("3d")} if system is System.MCMAHON else {}),
    )
    event = Event(s, tuple(field))
    engine = system_for(s)
    met: set[frozenset[str]] = set()
    byes: dict[str, int] = {}
    while not engine.is_finished(event):
        try:
            plan = engine.next_round(event)
        except Conflict:
            r = len(event.rounds) + 1
            active_now = {e.id for e in event.entrants if e.active_in(r)}
            assert not rematch_free_pairing_exists(active_now, met, byes)
            return
        r = plan.number
        active = {e.id for e in event.entrants if e.active_in(r)}
        seen = [p for g in plan.games for p in g.players] + list(plan.byes)
        assert sorted(seen) == sorted(active)
        assert len(plan.byes) == len(active) % 2
        for g in plan.games:
            pair = frozenset(g.players)
            assert pair not in met
            met.add(pair)
        for b in plan.byes:
            byes[b] = byes.get(b, 0) + 1
            assert byes[b] == 1
        event = event.with_round(plan.to_round())
        for g in plan.games:
            event = event.with_result(r, g.board, random_result(rng))
    for h in histories(event).values():
        diff = h.color_string.count("B") - h.color_string.count("W")
        assert abs(diff) <= 3, h.color_string
