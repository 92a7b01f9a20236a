"""The Swiss matching (R-FMT-3 积分编排): hard rules and weighted wishes, on small fields."""

from __future__ import annotations

import pytest

from weiqi.errors import Conflict
from weiqi.tournament.pairing import Candidate, PairingOptions, pair


def pairs_of(result: object) -> set[frozenset[str]]:
    return {frozenset((p.black, p.white)) for p in result.pairs}  # type: ignore[attr-defined]


def fs(*names: str) -> frozenset[str]:
    return frozenset(names)


def group(scores: list[int], **extra: dict[str, object]) -> list[Candidate]:
    out = []
    for i, s in enumerate(scores):
        kw = dict(extra.get(f"p{i}", {}))
        out.append(Candidate(f"p{i}", score=s, seed=i, **kw))  # type: ignore[arg-type]
    return out


def test_equal_scores_fold_and_slip() -> None:
    """Inside a score group: fold 1 v 4, 2 v 3; slip 1 v 3, 2 v 4; groups stay apart."""
    cands = group([4, 4, 4, 4, 2, 2, 2, 2])
    fold = pair(cands, PairingOptions(method="fold"))
    assert pairs_of(fold) == {fs("p0", "p3"), fs("p1", "p2"), fs("p4", "p7"), fs("p5", "p6")}
    slip = pair(cands, PairingOptions(method="slip"))
    assert pairs_of(slip) == {fs("p0", "p2"), fs("p1", "p3"), fs("p4", "p6"), fs("p5", "p7")}
    assert all(p.score_gap == 0 for p in fold.pairs)


def test_no_rematch_even_when_it_is_the_ideal_pair() -> None:
    """Hard rule: a rematch edge does not exist."""
    cands = group([0, 0, 0, 0], p0={"opponents": fs("p3")}, p3={"opponents": fs("p0")})
    assert fs("p0", "p3") not in pairs_of(pair(cands))


def test_forbidden_pairs_are_never_made() -> None:
    """Hard rule: explicit forbidden pairs (relatives, team-mates)."""
    cands = group([0, 0, 0, 0])
    result = pair(cands, PairingOptions(forbidden=frozenset({fs("p0", "p3"), fs("p0", "p2")})))
    assert pairs_of(result) == {fs("p0", "p1"), fs("p2", "p3")}


def test_bye_to_lowest_placed_without_one() -> None:
    """The bye goes to the lowest-placed player who has not had one."""
    cands = group([4, 2, 2, 0, 0])
    assert pair(cands).bye == "p4"
    cands = group([4, 2, 2, 0, 0], p4={"had_bye": True})
    assert pair(cands).bye == "p3"


def test_bye_leaves_a_field_that_can_still_be_paired() -> None:
    """If the lowest player's bye would force a rematch, the next one takes it."""
    cands = group([2, 2, 0], p0={"opponents": fs("p1")}, p1={"opponents": fs("p0")})
    result = pair(cands)
    assert result.bye == "p1"
    assert pairs_of(result) == {fs("p0", "p2")}


def test_no_pairing_at_all_is_a_conflict() -> None:
    cands = group([0, 0], p0={"opponents": fs("p1")})
    with pytest.raises(Conflict):
        pair(cands)
    with pytest.raises(Conflict, match="bye"):
        pair(group([0, 0, 0], p0={"had_bye": True}, p1={"had_bye": True}, p2={"had_bye": True}))


def test_near_scores_and_floats_spread_fairly() -> None:
    """An odd group floats one player down to the next group; one who floated down before
    is spared when another can float."""
    cands = group([4, 4, 4, 2, 2, 2, 2, 2])
    result = pair(cands)
    assert sum(p.score_gap for p in result.pairs) == 2  # exactly one float
    floated = next(p for p in result.pairs if p.score_gap)
    assert "p2" in (floated.black, floated.white)  # the lowest of the top group floats
    spared = pair(group([4, 4, 4, 2, 2, 2, 2, 2], p2={"floats_down": 1}))
    floated = next(p for p in spared.pairs if p.score_gap)
    assert "p2" not in (floated.black, floated.white)


def test_color_balance_beats_seeding() -> None:
    """Two players who had Black twice are not paired together when others can take Black;
    colours go to the stronger need."""
    cands = group(
        [0, 0, 0, 0],
        p0={"colors": "BB"},
        p3={"colors": "BB"},
        p1={"colors": "WW"},
        p2={"colors": "WW"},
    )
    result = pair(cands)
    assert fs("p0", "p3") not in pairs_of(result)
    for p in result.pairs:
        assert p.black in ("p1", "p2") and not p.color_violation


def test_same_club_avoided_when_asked() -> None:
    cands = group([0, 0, 0, 0], p0={"club": "X"}, p3={"club": "X"})
    assert fs("p0", "p3") in pairs_of(pair(cands))
    result = pair(cands, PairingOptions(avoid_same_club=True))
    assert fs("p0", "p3") not in pairs_of(result)
    assert not any(p.same_club for p in result.pairs)


def test_large_field_is_one_matching_without_rematches() -> None:
    """A 400-player field with long histories pairs completely in one matching."""
    import random

    rng = random.Random(3)
    ids = [f"p{i}" for i in range(400)]
    met: dict[str, set[str]] = {i: set() for i in ids}
    for _ in range(6):
        order = ids[:]
        rng.shuffle(order)
        for a, b in zip(order[::2], order[1::2], strict=True):
            met[a].add(b)
            met[b].add(a)
    cands = [
        Candidate(pid, score=rng.randrange(0, 13), seed=i, opponents=frozenset(met[pid]))
        for i, pid in enumerate(ids)
    ]
    result = pair(cands)
    assert len(result.pairs) == 200
    assert all(p.white not in met[p.black] for p in result.pairs)


def _field_with_history(n: int, rounds: int, seed: int) -> list[Candidate]:
    """``n`` players after ``rounds`` random rounds: scores, colours, opponents, clubs."""
    import random

    rng = random.Random(seed)
    ids = [f"p{i}" for i in range(n)]
    met: dict[str, set[str]] = {i: set() for i in ids}
    colors = dict.fromkeys(ids, "")
    score = dict.fromkeys(ids, 0)
    for _ in range(rounds):
        order = ids[:]
        rng.shuffle(order)
        for a, b in zip(order[::2], order[1::2], strict=True):
            met[a].add(b)
            met[b].add(a)
            colors[a] += "B"
            colors[b] += "W"
            x = rng.random()
            score[a] += 2 if x < 0.45 else 1 if x < 0.55 else 0
            score[b] += 0 if x < 0.45 else 1 if x < 0.55 else 2
    return [
        Candidate(
            pid,
            score=score[pid],
            seed=i,
            colors=colors[pid],
            opponents=frozenset(met[pid]),
            club=f"c{rng.randrange(max(2, n // 6))}",
        )
        for i, pid in enumerate(ids)
    ]


@pytest.mark.parametrize(
    ("n", "rounds", "seed", "splits"),
    [(60, 1, 1, False), (120, 3, 2, True), (200, 5, 3, True), (90, 2, 4, True), (400, 3, 5, True)],
)
def test_score_blocks_reach_the_same_optimum_as_the_whole_field(
    n: int, rounds: int, seed: int, splits: bool
) -> None:
    """R-FMT-3: solving score block by score block (what large fields do) finds a matching of
    the very same graph with the whole graph's optimum weight, or declines and the whole graph
    is solved; either way the pairing rules (the weights) are the same. Groups of 25, 10, 25
    players (seed 1) have no even cut between groups: declined."""
    from weiqi.tournament.pairing import build_graph, solve_by_blocks, solve_rustworkx

    cands = _field_with_history(n, rounds, seed)
    opts = PairingOptions(avoid_same_club=True)
    f, edges = build_graph(cands, opts, rounds + 4)
    weight = {(min(a, b), max(a, b)): w for a, b, w in edges}

    def total(m: set[tuple[int, int]]) -> int:
        return sum(weight[(min(a, b), max(a, b))] for a, b in m)

    whole = solve_rustworkx(n, edges)
    blocks = solve_by_blocks(f, edges, opts.weights, solve_rustworkx)
    if 2 * len(whole) < n:
        assert blocks is None or 2 * len(blocks) < n  # never a perfect matching that isn't
        return
    assert (blocks is not None) == splits
    if blocks is None:
        return
    assert 2 * len(blocks) == n
    assert {k for m in blocks for k in m} == set(range(n))
    assert total(blocks) == total(whole)


def test_score_blocks_decline_a_single_score_group() -> None:
    """One score group cannot be cut: the whole graph is solved."""
    from weiqi.tournament.pairing import build_graph, solve_by_blocks, solve_rustworkx

    cands = group([0] * 10)
    f, edges = build_graph(cands, PairingOptions(), 4)
    assert solve_by_blocks(f, edges, PairingOptions().weights, solve_rustworkx) is None


def test_pairing_by_blocks_equals_pairing_whole() -> None:
    """``pair`` with and without score blocks: equal score gaps, colour violations, same-club
    games and seeding deviation (the tiers of the weights), no rematch either way."""
    cands = _field_with_history(300, 4, 7)
    whole = pair(cands, PairingOptions(avoid_same_club=True, blocks_from=10**9))
    blocks = pair(cands, PairingOptions(avoid_same_club=True, blocks_from=0))

    def tiers(r: object) -> tuple[int, int, int, int]:
        ps = r.pairs  # type: ignore[attr-defined]
        return (
            sum(p.score_gap**2 for p in ps),
            sum(p.color_violation for p in ps),
            sum(p.same_club for p in ps),
            len(ps),
        )

    assert tiers(blocks) == tiers(whole)
    by_id = {c.id: c for c in cands}
    assert all(p.white not in by_id[p.black].opponents for p in blocks.pairs)


def test_leaders_who_met_float_and_the_blocks_still_prove_the_optimum() -> None:
    """The two leaders have met: each must float down one group, which the bound counts (their
    side of the cut, matched on its own, leaves both over); the blocks below are apart."""
    from weiqi.tournament.pairing import build_graph, solve_by_blocks, solve_rustworkx

    cands = group(
        [4, 4, 3, 3, 3, 3, 0, 0, 0, 0],
        p0={"opponents": fs("p1")},
        p1={"opponents": fs("p0")},
    )
    opts = PairingOptions(blocks_from=0)
    f, edges = build_graph(cands, opts, 8)
    found = solve_by_blocks(f, edges, opts.weights, solve_rustworkx)
    assert found is not None and len(found) == 5
    weight = {(min(a, b), max(a, b)): w for a, b, w in edges}
    whole = solve_rustworkx(10, edges)
    assert sum(weight[(min(a, b), max(a, b))] for a, b in found) == sum(
        weight[(min(a, b), max(a, b))] for a, b in whole
    )
    result = pair(cands, opts)
    assert fs("p0", "p1") not in pairs_of(result)
    assert sum(p.score_gap for p in result.pairs) == 2  # two floats of 1 point


def test_floats_of_two_points_are_bounded_by_the_square_of_the_cut() -> None:
    """Leaders who met, two points above the rest: floating them costs 2² each, and so does
    the bound (the cut is two units wide); the blocks give the whole graph's optimum."""
    from weiqi.tournament.pairing import build_graph, solve_by_blocks, solve_rustworkx

    cands = group(
        [4, 4, 2, 2, 2, 2, 0, 0, 0, 0],
        p0={"opponents": fs("p1")},
        p1={"opponents": fs("p0")},
    )
    opts = PairingOptions(blocks_from=0)
    f, edges = build_graph(cands, opts, 8)
    found = solve_by_blocks(f, edges, opts.weights, solve_rustworkx)
    whole = solve_rustworkx(10, edges)
    weight = {(min(a, b), max(a, b)): w for a, b, w in edges}
    assert found is not None
    assert sum(weight[(min(a, b), max(a, b))] for a, b in found) == sum(
        weight[(min(a, b), max(a, b))] for a, b in whole
    )
    result = pair(cands, opts)
    assert fs("p0", "p1") not in pairs_of(result)
    assert sum(p.score_gap for p in result.pairs) == 4  # two floats of 2 points


def _weight_of(edges: list[tuple[int, int, int]], m: set[tuple[int, int]]) -> int:
    weight = {(min(a, b), max(a, b)): w for a, b, w in edges}
    return sum(weight[(min(a, b), max(a, b))] for a, b in m)


@pytest.mark.parametrize("seed", range(40))
def test_float_cuts_reach_the_same_optimum_as_the_whole_field(seed: int) -> None:
    """Issue #15, R-FMT-3: cutting also where one float must cross (an odd number of players
    above, what most cuts of a big event are) finds a perfect matching of the very same graph
    with the whole graph's optimum weight, or declines and the whole graph is solved."""
    import random

    from weiqi.tournament.pairing import build_graph, solve_by_blocks, solve_rustworkx

    rng = random.Random(seed)
    n, rounds = rng.choice([40, 60, 90, 120, 200]), rng.randrange(1, 6)
    cands = _field_with_history(n, rounds, seed)
    opts = PairingOptions(avoid_same_club=True)
    f, edges = build_graph(cands, opts, rounds + 4)
    whole = solve_rustworkx(n, edges)
    found = solve_by_blocks(f, edges, opts.weights, solve_rustworkx, odd_cuts=True)
    if found is None:
        return
    assert 2 * len(whole) == n  # never a perfect matching where there is none
    assert {k for m in found for k in m} == set(range(n))
    assert all(
        (min(a, b), max(a, b)) in {(min(x, y), max(x, y)) for x, y, _ in edges} for a, b in found
    )
    assert _weight_of(edges, found) == _weight_of(edges, whole)


def test_float_cuts_split_groups_the_even_cuts_cannot() -> None:
    """Groups of 25, 10 and 25 (seed 1) have no even cut: the even blocks decline, the float
    cuts prove the whole graph's optimum."""
    from weiqi.tournament.pairing import build_graph, solve_by_blocks, solve_rustworkx

    cands = _field_with_history(60, 1, 1)
    opts = PairingOptions(avoid_same_club=True)
    f, edges = build_graph(cands, opts, 5)
    assert solve_by_blocks(f, edges, opts.weights, solve_rustworkx) is None
    found = solve_by_blocks(f, edges, opts.weights, solve_rustworkx, odd_cuts=True)
    assert found is not None
    assert _weight_of(edges, found) == _weight_of(edges, solve_rustworkx(60, edges))


def test_the_float_avoids_a_color_clash_at_a_small_cost() -> None:
    """Three players on 2 points, three on 0: one floats. The last of the top group and the
    first of the bottom one both must have White (a third Black in a row): the separable bound
    pairs them, the split by colour finds the float one place away, and the whole graph
    agrees."""
    from weiqi.tournament.pairing import build_graph, solve_by_blocks, solve_rustworkx

    cands = group(
        [2, 2, 2, 0, 0, 0],
        p0={"colors": "W"},
        p1={"colors": "B"},
        p2={"colors": "BB"},
        p3={"colors": "BB"},
        p4={"colors": "W"},
        p5={"colors": "B"},
    )
    opts = PairingOptions(blocks_from=0, float_blocks_from=0)
    f, edges = build_graph(cands, opts, 6)
    found = solve_by_blocks(f, edges, opts.weights, solve_rustworkx, odd_cuts=True)
    assert found is not None
    assert _weight_of(edges, found) == _weight_of(edges, solve_rustworkx(6, edges))
    assert frozenset(("p2", "p3")) not in pairs_of(pair(cands, opts))
    result = pair(cands, opts)
    assert sum(p.color_violation for p in result.pairs) == 0
    assert sum(p.score_gap for p in result.pairs) == 2  # one float of one win


def test_pairing_with_float_cuts_reaches_the_whole_optimum() -> None:
    """``pair`` of a 300-player field cut at float cuts (as fields of 3,000 are): the same
    score gaps and games as the whole graph, no rematch."""
    cands = _field_with_history(300, 3, 11)
    whole = pair(cands, PairingOptions(avoid_same_club=True, blocks_from=10**9))
    floats = pair(cands, PairingOptions(avoid_same_club=True, blocks_from=0, float_blocks_from=0))
    assert sum(p.score_gap**2 for p in floats.pairs) == sum(p.score_gap**2 for p in whole.pairs)
    assert len(floats.pairs) == len(whole.pairs) == 150
    by_id = {c.id: c for c in cands}
    assert all(p.white not in by_id[p.black].opponents for p in floats.pairs)
