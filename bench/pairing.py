"""Swiss pairing benchmark: simulated 9-round Swiss events of 100, 1,000 and 10,000 players.

For each size it prints seconds per round for our pairing (``Swiss.next_round``: history,
candidates, graph, rustworkx matching, colours), then solves one round's very same weighted
graph score block by score block (``solve_by_blocks``, with even cuts only and with the float
cuts of big fields too: time ÷ the whole graph's, and whether the optimum is the same) and
with networkx ``max_weight_matching`` as the reference (skipped for a size networkx would
not finish within a minute), the ratio, the quality figures (rematches, score gaps, floats,
colour-rule violations) and the time of the standings for the event. Times are given as wall
clock and as CPU time of this process (``time.process_time``): on a shared machine the CPU time
is the figure that does not depend on the other jobs. Targets: 1,000 players
≤ 1 s a round, 10,000 ≤ 20 s a round, no rematches, standings for 10,000 × 9 rounds ≤ 1 s.

Usage: ``python bench/pairing.py [--sizes 100,1000,10000] [--rounds 9]``
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import networkx as nx

from weiqi.rules.color import Color
from weiqi.rules.result import Reason, Result
from weiqi.tournament.pairing import (
    PairingOptions,
    _Field,
    build_graph,
    solve_by_blocks,
    solve_rustworkx,
)
from weiqi.tournament.players import Entrant
from weiqi.tournament.ranking import standings
from weiqi.tournament.ranks import Rank
from weiqi.tournament.records import Event, Game
from weiqi.tournament.scoring import histories
from weiqi.tournament.settings import EventSettings, System
from weiqi.tournament.systems.swiss import Swiss, candidates, field_for

NX_LIMIT_S = 60.0


def field(n: int, rng: random.Random) -> tuple[Entrant, ...]:
    out = []
    for i in range(n):
        rating = rng.gauss(1800, 300)
        strength = max(-29, min(7, round((rating - 2100) / 100)))
        out.append(
            Entrant(
                f"p{i}",
                f"P{i}",
                Rank.from_strength(strength),
                rating=rating,
                club=f"club{rng.randrange(max(2, n // 8))}",
            )
        )
    return tuple(out)


def result(g: Game, ratings: dict[str, float], rng: random.Random) -> Result:
    x = rng.random()
    if x < 0.01:
        return Result.both_lose()
    if x < 0.03:
        return Result.draw()
    p_black = 1 / (1 + math.pow(10, (ratings[g.white] - ratings[g.black]) / 400))
    winner = Color.BLACK if rng.random() < p_black else Color.WHITE
    return Result.win(winner, Reason.RESIGNATION)


def nx_solve(n: int, edges: list[tuple[int, int, int]]) -> set[tuple[int, int]]:
    g = nx.Graph()
    g.add_nodes_from(range(n))
    g.add_weighted_edges_from(edges)
    return set(nx.max_weight_matching(g, maxcardinality=True))


def weight_of(matching: set[tuple[int, int]], edges: list[tuple[int, int, int]]) -> int:
    w = {(min(a, b), max(a, b)): x for a, b, x in edges}
    return sum(w[(min(a, b), max(a, b))] for a, b in matching)


def run(n: int, rounds: int, nx_allowed: bool) -> float | None:
    rng = random.Random(n)
    settings = EventSettings(system=System.SWISS, rounds=rounds, avoid_same_club=True)
    event = Event(settings, field(n, rng))
    ratings = {e.id: e.rating or 0.0 for e in event.entrants}
    system = Swiss()
    times: list[float] = []
    cpu: list[float] = []
    met: set[frozenset[str]] = set()
    rematches = gaps = floats = violations = same_club = gap_max = 0
    nx_time: float | None = None
    probe_round = min(5, rounds)
    for r in range(1, rounds + 1):
        if r == probe_round:
            nx_time = compare(event, nx_allowed)
        t0, c0 = time.perf_counter(), time.process_time()
        plan = system.next_round(event)
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        assert plan.totals is not None
        gaps += plan.totals.score_gap_sum
        gap_max = max(gap_max, plan.totals.score_gap_max)
        floats += plan.totals.floats
        violations += plan.totals.color_violations
        same_club += plan.totals.same_club_games
        for g in plan.games:
            pair = frozenset(g.players)
            rematches += pair in met
            met.add(pair)
        event = event.with_round(plan.to_round())
        rnd = event.rounds[-1]
        games = tuple(g.with_result(result(g, ratings, rng)) for g in rnd.games)
        event = Event(
            event.settings,
            event.entrants,
            (*event.rounds[:-1], type(rnd)(rnd.number, games, rnd.byes, rnd.seed)),
        )
    t0, c0 = time.perf_counter(), time.process_time()
    table = standings(event)
    t_standings = time.perf_counter() - t0
    c_standings = time.process_time() - c0
    games = sum(len(r.games) for r in event.rounds)
    print(f"\n{n:,} players × {rounds} rounds")
    print(
        f"  ours: {sum(times) / len(times):.3f} s/round wall (max {max(times):.3f} s), "
        f"{sum(cpu) / len(cpu):.3f} s/round CPU (max {max(cpu):.3f} s)"
    )
    print(f"  per round (wall): {' '.join(f'{t:.2f}' for t in times)}")
    print(
        f"  quality: rematches {rematches}, score-gap sum {gaps} over {games} games "
        f"(max gap {gap_max}), floats {floats}, colour-rule violations {violations}, "
        f"same-club games {same_club}"
    )
    print(
        f"  standings ({len(table):,} players, {settings.tiebreak_codes}): "
        f"{t_standings:.3f} s wall, {c_standings:.3f} s CPU"
    )
    return nx_time


def compare(event: Event, nx_allowed: bool) -> float | None:
    """Solve one round's graph with rustworkx and networkx: same edges, same weights."""
    r = event.next_round_number
    players, _ = field_for(event, r)
    hist = histories(event)
    cands, method = candidates(event, players, hist, random.Random(0))
    if len(cands) % 2:
        cands = cands[:-1]
    opts = PairingOptions(method=method, avoid_same_club=True)
    from weiqi.tournament.pairing import _default_window

    _, edges = build_graph(cands, opts, _default_window(cands))
    n = len(cands)
    c0 = time.process_time()
    ours = solve_rustworkx(n, edges)
    t_rx = time.process_time() - c0
    line = f"  round {r} graph: {n:,} vertices, {len(edges):,} edges; rustworkx {t_rx:.3f} s CPU"
    f = _Field(cands)
    for odd_cuts in (False, True):
        c0 = time.process_time()
        found = solve_by_blocks(f, edges, opts.weights, solve_rustworkx, odd_cuts=odd_cuts)
        t_blocks = time.process_time() - c0
        kind = "even and float cuts" if odd_cuts else "even cuts only"
        if found is None:
            print(f"  by score blocks ({kind}): declined after {t_blocks:.3f} s CPU")
        else:
            same = weight_of(found, edges) == weight_of(ours, edges) and len(found) == len(ours)
            print(
                f"  by score blocks ({kind}): {t_blocks:.3f} s CPU = {t_blocks / t_rx:.2f}× the "
                f"whole graph's; same optimum: {same}"
            )
    if not nx_allowed:
        print(line + "; networkx skipped (would take over a minute)")
        return None
    c0 = time.process_time()
    ref = nx_solve(n, edges)
    t_nx = time.process_time() - c0
    same = weight_of(ours, edges) == weight_of(ref, edges) and len(ours) == len(ref)
    print(
        line + f"; networkx {t_nx:.3f} s CPU; ratio networkx/rustworkx {t_nx / t_rx:.1f}×; "
        f"same optimum: {same}"
    )
    return t_nx


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="100,1000,10000")
    ap.add_argument("--rounds", type=int, default=9)
    args = ap.parse_args()
    nx_allowed = True
    previous: tuple[int, float] | None = None
    for n in (int(x) for x in args.sizes.split(",")):
        if previous is not None:
            # the blossom algorithm grows about with n³ in the worst case, n^2.2 here
            pn, pt = previous
            nx_allowed = pt * (n / pn) ** 2.2 < NX_LIMIT_S
        t_nx = run(n, args.rounds, nx_allowed)
        if t_nx is not None:
            previous = (n, t_nx)


if __name__ == "__main__":
    main()
