"""Swiss pairing (积分编排) as one maximum-weight matching over the whole field.

Hard rules are edges left out of the graph: no rematch, no forbidden pair (relatives,
team-mates), nobody withdrawn (the caller passes only the players to pair), at most one bye per
player (the bye is chosen first, from players without one). Wishes are edge weights, in priority
order by magnitude:

1. equal scores — a score gap costs ``score × gap²`` (two small floats beat one big one);
2. floats spread fairly — a player who floated the same way before costs ``float_repeat`` per
   earlier float;
3. colour balance — two players who both must have the same colour (a third in a row or a
   difference of 3) cost ``color_absolute``; milder clashes cost less;
4. avoiding the same club / region (when the event asks for it) — ranked above the next wish,
   otherwise it could never change a pairing inside a score group;
5. split-and-fold (1 v n, 2 v n−1 …) or split-and-slip (1 v n/2+1 …) by seeding inside a score
   group — each position away from the ideal partner costs ``seeding``.

A complete graph of 10,000 players has 50M edges, so edges are built where a good partner can
be: each player's neighbours within ``window`` places in the (score, seed) order, plus the
players around its ideal fold/slip partner in its score group. If that graph has no perfect
matching (rematches and forbidden pairs can cut it), the window is widened, up to the complete
graph. The hard rules hold whatever the window, because their edges never exist; a field that
has no pairing at all raises ``Conflict``. A large field's graph is first matched score block
by score block (:func:`solve_by_blocks`), kept only when that provably is an optimum of the
whole graph.

>>> cands = [Candidate(str(i), score=0, seed=i) for i in range(4)]
>>> plan = pair(cands)
>>> sorted(tuple(sorted((g.black, g.white))) for g in plan.pairs)
[('0', '3'), ('1', '2')]
>>> plan.bye is None
True
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

import rustworkx as rx

from weiqi.errors import Conflict
from weiqi.messages import Msg
from weiqi.rules.color import Color

Method = Literal["fold", "slip", "adjacent"]


@dataclass(frozen=True)
class Candidate:
    """A player to pair, as the matching sees them.

    ``score`` is the pairing score (points, or the McMahon score) in whole units; ``seed`` the
    seeding position in the field (0 = strongest); ``colors`` the colours played, oldest first.
    """

    id: str
    score: int
    seed: int
    colors: str = ""
    opponents: frozenset[str] = frozenset()
    had_bye: bool = False
    floats_down: int = 0
    floats_up: int = 0
    club: str = ""
    region: str = ""


@dataclass(frozen=True)
class Weights:
    """Magnitudes of the wishes; each tier outweighs what the next can add on one edge."""

    base: int = 10**13
    score: int = 10**8
    float_repeat: int = 10**6
    color_absolute: int = 10**5
    color_strong: int = 10**4
    color_mild: int = 10**3
    club: int = 600
    region: int = 500
    seeding: int = 1
    seeding_cap: int = 400


@dataclass(frozen=True)
class PairingOptions:
    method: Method = "fold"
    avoid_same_club: bool = False
    avoid_same_region: bool = False
    forbidden: frozenset[frozenset[str]] = frozenset()
    weights: Weights = Weights()
    window: int | None = None
    band: int = 3
    #: None: a rematch is impossible (Swiss). A number: a rematch is allowed at that cost, for
    #: elimination systems whose last few players may all have met.
    rematch_penalty: int | None = None
    #: Fields of at least this many players are solved score block by score block first
    #: (:func:`solve_by_blocks`: the same optimum, proved on each use).
    blocks_from: int = 1000
    #: Fields of at least this many players also cut where one float must cross
    #: (``solve_by_blocks(odd_cuts=True)``), which most cuts of a big event are.
    float_blocks_from: int = 3000


@dataclass(frozen=True)
class Pair:
    """A pair with its colours; the reasons are in the explanation fields."""

    black: str
    white: str
    score_gap: int
    seeding_deviation: int
    color_violation: bool
    same_club: bool


@dataclass(frozen=True)
class PairingResult:
    pairs: tuple[Pair, ...]
    bye: str | None
    window: int
    edges: int


def color_need(colors: str) -> tuple[Color | None, int]:
    """The colour a player should get next and how strongly (3 absolute … 1 mild).

    >>> color_need("BB"), color_need("BWB"), color_need("WB"), color_need("")
    ((<Color.WHITE: 'W'>, 3), (<Color.WHITE: 'W'>, 2), (<Color.WHITE: 'W'>, 1), (None, 0))
    """
    if not colors:
        return None, 0
    diff = colors.count("B") - colors.count("W")
    if diff >= 2 or colors.endswith("BB"):
        return Color.WHITE, 3
    if diff <= -2 or colors.endswith("WW"):
        return Color.BLACK, 3
    if diff == 1:
        return Color.WHITE, 2
    if diff == -1:
        return Color.BLACK, 2
    return (Color.WHITE if colors[-1] == "B" else Color.BLACK), 1


def breaks_color_rule(colors: str) -> bool:
    """Three of one colour in a row, or a colour difference above 2.

    >>> breaks_color_rule("BWBB"), breaks_color_rule("BBB"), breaks_color_rule("BWBWBB")
    (False, True, False)
    """
    diff = colors.count("B") - colors.count("W")
    return abs(diff) > 2 or colors.endswith(("BBB", "WWW"))


class _Field:
    """The players in (score desc, seed asc) order with their score groups."""

    def __init__(self, cands: Sequence[Candidate]) -> None:
        self.c = list(cands)
        self.order = sorted(range(len(cands)), key=lambda k: (-cands[k].score, cands[k].seed))
        self.pos = [0] * len(cands)
        for p, k in enumerate(self.order):
            self.pos[k] = p
        # group of each player: (start position, size)
        self.group_start = [0] * len(cands)
        self.group_size = [0] * len(cands)
        p = 0
        n = len(cands)
        while p < n:
            q = p
            s = cands[self.order[p]].score
            while q < n and cands[self.order[q]].score == s:
                q += 1
            for r in range(p, q):
                self.group_start[self.order[r]] = p
                self.group_size[self.order[r]] = q - p
            p = q
        self.need = [color_need(c.colors) for c in cands]

    def index_in_group(self, k: int) -> int:
        return self.pos[k] - self.group_start[k]


def _ideal(i: int, n: int, method: Method) -> int:
    if method == "fold":
        return n - 1 - i
    if method == "slip":
        h = n // 2
        return i + h if i < h else i - h
    return i + 1 if i % 2 == 0 else i - 1


def seeding_deviations(
    cands: Sequence[Candidate], pairs: Sequence[tuple[str, str]], method: Method
) -> list[int]:
    """How far each pair of players (ids) is from the ideal partner of the seeding method, as
    the explanation of a pairing gives it (0 = the ideal partner) — for a pairing edited by
    hand (:mod:`weiqi.tournament.manual`).

    >>> cs = [Candidate(str(i), 2, i) for i in range(4)]
    >>> seeding_deviations(cs, [("0", "3"), ("0", "1")], "fold")
    [0, 2]
    """
    f = _Field(cands)
    index = {c.id: k for k, c in enumerate(cands)}
    return [_deviation(f, index[a], index[b], method) for a, b in pairs]


def _deviation(f: _Field, a: int, b: int, method: Method) -> int:
    """How far a pair is from the ideal of the seeding method (0 = the ideal partner)."""
    ca, cb = f.c[a], f.c[b]
    if ca.score == cb.score:
        i, j, n = f.index_in_group(a), f.index_in_group(b), f.group_size[a]
        if method == "fold":
            return abs(i + j - (n - 1))
        if method == "slip":
            return abs(abs(i - j) - n // 2)
        lo, hi = min(i, j), max(i, j)
        return (hi - lo - 1) + (lo % 2)
    # a float: the lowest of the higher group should meet the highest of the lower one; who
    # floats counts double, so an odd group floats its last player rather than re-folding
    hi_k, lo_k = (a, b) if ca.score > cb.score else (b, a)
    return 2 * ((f.group_size[hi_k] - 1 - f.index_in_group(hi_k)) + f.index_in_group(lo_k))


def _color_clash(f: _Field, a: int, b: int) -> int:
    (na, sa), (nb, sb) = f.need[a], f.need[b]
    if na is None or na != nb:
        return 0
    return min(sa, sb)


def edge_weight(f: _Field, a: int, b: int, opts: PairingOptions) -> int:
    w = opts.weights
    ca, cb = f.c[a], f.c[b]
    gap = abs(ca.score - cb.score)
    penalty = w.score * gap * gap
    if gap:
        hi, lo = (ca, cb) if ca.score > cb.score else (cb, ca)
        penalty += w.float_repeat * (hi.floats_down + lo.floats_up)
    clash = _color_clash(f, a, b)
    if clash == 3:
        penalty += w.color_absolute
    elif clash == 2:
        penalty += w.color_strong
    elif clash == 1:
        penalty += w.color_mild
    if opts.avoid_same_club and ca.club and ca.club == cb.club:
        penalty += w.club
    if opts.avoid_same_region and ca.region and ca.region == cb.region:
        penalty += w.region
    penalty += w.seeding * min(_deviation(f, a, b, opts.method), w.seeding_cap)
    return w.base - penalty


def candidate_edges(f: _Field, window: int, band: int, method: Method) -> set[tuple[int, int]]:
    """Pairs worth considering: neighbours in the order, and around each ideal partner."""
    n = len(f.c)
    order = f.order
    out: set[tuple[int, int]] = set()
    for p in range(n):
        a = order[p]
        for q in range(p + 1, min(n, p + window + 1)):
            b = order[q]
            out.add((a, b) if a < b else (b, a))
    for a in range(n):
        i, size, start = f.index_in_group(a), f.group_size[a], f.group_start[a]
        t = _ideal(i, size, method)
        for j in range(max(0, t - band), min(size, t + band + 1)):
            b = order[start + j]
            if b != a:
                out.add((a, b) if a < b else (b, a))
    return out


def build_graph(
    cands: Sequence[Candidate], opts: PairingOptions, window: int
) -> tuple[_Field, list[tuple[int, int, int]]]:
    """The weighted edges of the pairing graph for a given window (hard rules applied)."""
    f = _Field(cands)
    edges = []
    for a, b in sorted(candidate_edges(f, window, opts.band, opts.method)):
        ca, cb = f.c[a], f.c[b]
        if opts.forbidden and frozenset((ca.id, cb.id)) in opts.forbidden:
            continue
        weight = edge_weight(f, a, b, opts)
        if cb.id in ca.opponents or ca.id in cb.opponents:
            if opts.rematch_penalty is None:
                continue
            weight -= opts.rematch_penalty
        edges.append((a, b, weight))
    return f, edges


def solve_rustworkx(n: int, edges: Iterable[tuple[int, int, int]]) -> set[tuple[int, int]]:
    """Maximum-cardinality, then maximum-weight matching with rustworkx."""
    g: rx.PyGraph = rx.PyGraph()
    g.add_nodes_from(range(n))
    g.add_edges_from(list(edges))
    found: set[tuple[int, int]] = rx.max_weight_matching(
        g, max_cardinality=True, weight_fn=_identity, verify_optimum=False
    )
    return found


def _identity(w: int) -> int:
    return w


Solver = Callable[[int, Iterable[tuple[int, int, int]]], set[tuple[int, int]]]


#: Beyond this window the graph of a very large field would not fit in memory; a field whose
#: players cannot be paired within 2,048 places of each other is reported as unpairable.
MAX_WINDOW = 2048
LARGE_FIELD = 3000


def _default_window(cands: Sequence[Candidate]) -> int:
    """Neighbours per player: enough that the rematches of a long event leave choice. A large
    field has big score groups, so fewer neighbours already hold the good partners (measured on
    10,000 players: window 16 → 9.5 s, 4 → 3.8 s of matching, the same score gaps)."""
    most = max((len(c.opponents) for c in cands), default=0)
    if len(cands) > LARGE_FIELD:
        return most + 4
    return 2 * most + 8


#: A side of a score cut this small is matched on its own to see how many of its players must
#: float across the cut (players who have all met each other, at the top or the bottom).
SMALL_SIDE = 400


def _split(
    order: list[int], bounds: list[int], edges: Sequence[tuple[int, int, int]]
) -> tuple[list[list[int]], list[list[tuple[int, int, int]]]]:
    """The players of ``order`` cut into blocks at the positions ``bounds`` (the first 0, the
    last the field's size), and each block's own edges: those with both ends in it.

    >>> _split([3, 1, 0, 2], [0, 2, 4], [(3, 1, 5), (1, 0, 4), (0, 2, 6)])
    ([[3, 1], [0, 2]], [[(3, 1, 5)], [(0, 2, 6)]])
    """
    blocks = [order[bounds[i] : bounds[i + 1]] for i in range(len(bounds) - 1)]
    block_of = [0] * len(order)
    for j, members in enumerate(blocks):
        for k in members:
            block_of[k] = j
    inner: list[list[tuple[int, int, int]]] = [[] for _ in blocks]
    for a, b, x in edges:
        if block_of[a] == block_of[b]:
            inner[block_of[a]].append((a, b, x))
    return blocks, inner


def solve_by_blocks(
    f: _Field,
    edges: Sequence[tuple[int, int, int]],
    weights: Weights,
    solver: Solver,
    *,
    odd_cuts: bool = False,
) -> set[tuple[int, int]] | None:
    """A maximum-weight perfect matching of the whole graph found block by block, or ``None``
    when this way cannot prove one (then the caller solves the whole graph).

    The matching algorithm's time grows with the square of the vertices (10,000 players: 1.5 s
    for one score group, 6 s in mid-event), so the field is cut between score groups into
    blocks, each matched on its own. Why the union ``M`` is an optimum of the whole graph,
    checked on every use:

    Take the cuts between consecutive scores present, ``u`` score units wide. Every edge's
    penalty (``base − weight``; every wish is non-negative) is at least ``score × gap²``, and
    an edge crossing cuts of widths ``u₁ … u_k`` has ``gap² = (Σu)² ≥ Σu²``. Any perfect
    matching crosses a cut at least ``need`` times: the parity of the players above it, or,
    when a side is small, the players of that side left over by its own maximum matching. So
    every perfect matching costs at least ``LB = score × Σ need × u²``. A block cut is a cut
    with ``need`` 0; a perfect matching that crosses one crosses it twice and costs at least
    ``LB + 2 × score``. ``M`` crosses no block cut and is optimal among the matchings that
    cross none (each block's part is that block's optimum); if its penalty is at most
    ``LB + 2 × score``, no matching that crosses one is better either.

    ``odd_cuts``: cuts with ``need`` 1 (an odd number of players above) are block cuts too,
    crossed by exactly one float (:func:`_float_blocks`). Most score groups of a big event are
    odd (draws, both-lose), so without them a block holds most of the field.
    """
    w = weights
    if (
        min(w.base, w.score, w.float_repeat, w.color_absolute, w.color_strong) < 0
        or min(w.color_mild, w.club, w.region, w.seeding, w.seeding_cap) < 0
    ):
        return None
    order, c = f.order, f.c
    n = len(order)
    pos = f.pos
    top = [(a, b) for a, b, _ in edges if max(pos[a], pos[b]) < SMALL_SIDE]
    bottom = [(a, b) for a, b, _ in edges if min(pos[a], pos[b]) >= n - SMALL_SIDE]

    def left_over(members: list[int], side: list[tuple[int, int]], lo: int, hi: int) -> int:
        """Players of ``members`` (positions ``lo`` to ``hi``) a maximum matching of their own
        edges leaves unmatched."""
        local = {k: j for j, k in enumerate(members)}
        sub = [
            (local[a], local[b], 1)
            for a, b in side
            if lo <= min(pos[a], pos[b]) and max(pos[a], pos[b]) < hi
        ]
        return len(members) - 2 * len(solver(len(members), sub))

    bound_units = 0
    cuts: list[int] = []  # positions of the block cuts
    odd: list[int] = []  # positions of the cuts crossed by exactly one float (odd_cuts)
    for p in range(1, n):
        hi, lo = c[order[p - 1]].score, c[order[p]].score
        if hi == lo:
            continue
        need = p % 2
        if p <= SMALL_SIDE:
            need = max(need, left_over(order[:p], top, 0, p))
        if n - p <= SMALL_SIDE:
            need = max(need, left_over(order[p:], bottom, p, n))
        if need == 0:
            cuts.append(p)
        elif need == 1 and odd_cuts:
            odd.append(p)
        bound_units += need * (hi - lo) ** 2
    if odd:
        return _float_blocks(f, edges, weights, solver, cuts, odd, bound_units)
    if not cuts:
        return None
    bounds = [0, *cuts, n]
    blocks, inner = _split(order, bounds, edges)
    matching: set[tuple[int, int]] = set()
    for members, block_edges in zip(blocks, inner, strict=True):
        local = {k: j for j, k in enumerate(members)}
        found = solver(len(members), [(local[a], local[b], x) for a, b, x in block_edges])
        if 2 * len(found) < len(members):
            return None  # the block needs a float across a block cut: no proof; solve the whole
        matching |= {(members[a], members[b]) for a, b in found}
    weight_of = {(min(a, b), max(a, b)): x for a, b, x in edges}
    penalty = sum(w.base - weight_of[(min(a, b), max(a, b))] for a, b in matching)
    if penalty > w.score * (bound_units + 2):
        return None
    return matching


#: Work a proof by :func:`_float_blocks` may spend on matching blocks again, as a multiple
#: of matching each block once, or up to the field's size squared if that is more (counted in
#: vertices², what the matching's time grows with; the whole graph of 10,000 players takes
#: about twice a block's time per vertex², so a proof given up costs at most half of that
#: again), before it gives up and the whole graph is solved.
EXTRA_BLOCK_WORK = 3


Need = tuple[Color | None, int]


@dataclass(frozen=True)
class _Part:
    """Which floats a part of the matchings ``R`` of :func:`_float_blocks` lets cross one float
    cut: the colour wishes (:func:`color_need`) the float from above (``up``) and the one from
    below (``down``) may have, the floats from above excluded, or the one fixed; ``offset``:
    what every pair of the part costs at least beyond the separable bound (a colour clash)."""

    up: frozenset[Need]
    down: frozenset[Need]
    excluded: frozenset[int] = frozenset()
    fixed: int | None = None
    offset: int = 0

    def up_key(self) -> tuple[object, ...]:
        """What the block above the cut depends on."""
        return (self.up, self.excluded, self.fixed)

    def down_key(self) -> tuple[object, ...]:
        """What the block below the cut depends on."""
        return (self.down, self.fixed, self.offset)


@dataclass(frozen=True)
class _Cut:
    """A block cut crossed by exactly one float: its edges from the group just above (``up``)
    to the group just below, and a separable bound of their weights, ``w(a, b) ≤ up[a] +
    down[b] − base``."""

    edges: dict[tuple[int, int], int]
    up: dict[int, int]
    down: dict[int, int]


def _fewest_float_cuts(n: int, even: list[int], odd: list[int], f: _Field) -> list[int]:
    """The float cuts worth making: each one's parts may have to be matched again, so the
    largest block is halved at the float cut nearest its middle while it is larger than a
    third of the field (or than the largest score group, which no cut can split).

    >>> f = _Field([Candidate(str(i), score=s, seed=i) for i, s in enumerate([4] * 3 + [2] * 5
    ...     + [0] * 4)])
    >>> _fewest_float_cuts(12, [], [3, 8], f), _fewest_float_cuts(12, [8], [3], f)
    ([3, 8], [3])
    >>> _fewest_float_cuts(12, [3], [8], f)  # blocks of 3 and 9, the 9 halved at 8
    [8]
    """
    largest = max(f.group_size, default=0)
    limit = max(n // 3, largest)
    chosen: list[int] = []
    done: set[int] = set()  # blocks (by their start) no float cut can split
    while True:
        bounds = [0, *sorted([*even, *chosen]), n]
        blocks = [
            (bounds[i + 1] - bounds[i], bounds[i], bounds[i + 1])
            for i in range(len(bounds) - 1)
            if bounds[i] not in done
        ]
        if not blocks:
            return sorted(chosen)
        size, lo, hi = max(blocks)
        inside = [p for p in odd if lo < p < hi]
        if size <= limit:
            return sorted(chosen)
        if not inside:
            done.add(lo)
            continue
        chosen.append(min(inside, key=lambda p: abs(2 * p - lo - hi)))


def _float_blocks(
    f: _Field,
    edges: Sequence[tuple[int, int, int]],
    weights: Weights,
    solver: Solver,
    even: list[int],
    odd: list[int],
    bound_units: int,
) -> set[tuple[int, int]] | None:
    """:func:`solve_by_blocks` with cuts crossed by one float: an optimum of the whole graph
    found block by block, or ``None`` when this way cannot prove one.

    ``R``: the perfect matchings that cross every block cut exactly ``need`` times (0 or 1)
    with edges that span one cut between score groups. Any other perfect matching crosses some
    cut ``need + 2`` times or has an edge spanning two cuts (``(u₁ + u₂)² ≥ u₁² + u₂² + 2``):
    its penalty is at least ``LB + 2 × score``. So an optimum of ``R`` whose penalty is at
    most that is an optimum of the whole graph.

    The optimum of ``R``: a cut with one float is crossed by one edge ``(a, b)``, ``a`` of the
    group just above, ``b`` of the group just below. Its weight is at most ``up[a] + down[b] −
    base`` (the score gap, the floats before and each one's distance from the edge of its
    group: the wishes that depend on one player; colour, club and region only lower it). Each
    block is matched with one extra vertex per such cut, joined to the cut's players on its
    side at ``up`` (or ``down``): the sum of the blocks' optima bounds ``R`` from above, and
    when the two players the extra vertices took form an edge of exactly that weight, the
    union with those edges reaches the bound. When a cut's pair does not, ``R`` is split in
    parts (:class:`_Part`): if both want the same colour, the float from above does not, or
    it does and the one below does not, or both do — which costs the clash of the milder of
    their two wishes, an exact offset; otherwise (same club or region, a rematch) the float
    from above is another player, or it is this one with the exact weights of its edges below.
    Best first over the parts (a part is matched only when its bound comes first, and a block
    keeps its optimum when its float is still allowed): the first part whose matching reaches
    its bound is an optimum of ``R``. The work is capped at ``EXTRA_BLOCK_WORK`` times that of
    matching each block once (10,000 players, rounds 2–9: 3 to 33 block matchings, 1.3–2.7 s
    against 5.7–12.9 s for the whole graph).
    """
    w = weights
    order, c = f.order, f.c
    n = len(order)
    score_at = [c[order[p]].score for p in range(n)]
    cap_up = w.seeding_cap // 2
    cap_down = w.seeding_cap - cap_up
    cuts: dict[int, _Cut] = {}
    at_cut = {(score_at[p - 1], score_at[p]): p for p in odd}  # (score above, below) → cut
    crossings: dict[int, dict[tuple[int, int], int]] = {p: {} for p in odd}
    for a, b, x in edges:  # one pass: the edges between the two groups of each float cut
        if c[a].score < c[b].score:
            a, b = b, a
        p = at_cut.get((c[a].score, c[b].score), 0)
        if p:
            crossings[p][(a, b)] = x
    for p in odd:
        hi, lo = score_at[p - 1], score_at[p]
        crossing = crossings[p]
        if not crossing:
            continue  # nobody can float across here: not a block cut
        penalty_up = {
            a: w.score * (hi - lo) ** 2
            + w.float_repeat * c[a].floats_down
            + w.seeding * min(2 * (f.group_size[a] - 1 - f.index_in_group(a)), cap_up)
            for a, _ in crossing
        }
        penalty_down = {
            b: w.float_repeat * c[b].floats_up + w.seeding * min(2 * f.index_in_group(b), cap_down)
            for _, b in crossing
        }
        if any(x > w.base - penalty_up[a] - penalty_down[b] for (a, b), x in crossing.items()):
            return None  # weights this bound does not cover
        cuts[p] = _Cut(
            crossing,
            {a: w.base - v for a, v in penalty_up.items()},
            {b: w.base - v for b, v in penalty_down.items()},
        )
    cuts = {p: cuts[p] for p in _fewest_float_cuts(n, even, sorted(cuts), f)}
    if not even and not cuts:
        return None
    bounds = [0, *sorted([*even, *cuts]), n]
    blocks, inner = _split(order, bounds, edges)
    need = f.need  # the colour each player should get next and how strongly
    wishes: list[Need] = [(None, 0)]
    wishes += [(color, k) for color in (Color.BLACK, Color.WHITE) for k in (1, 2, 3)]
    anyone = frozenset(wishes)
    Solved = tuple[int, set[tuple[int, int]], int | None, int | None] | None
    memo: dict[tuple[int, tuple[object, ...] | None, tuple[object, ...] | None], Solved] = {}
    # each block's optima so far, with the parts they were matched under (for reuse)
    solved_parts: list[
        list[
            tuple[
                _Part | None, _Part | None, tuple[int, set[tuple[int, int]], int | None, int | None]
            ]
        ]
    ] = [[] for _ in range(len(blocks))]
    cost = [0]  # vertices² of the matchings solved, what their time grows with

    def solve_block(j: int, above: _Part | None, below: _Part | None) -> Solved:
        """Block ``j`` with its extra vertices: the one of the float cut above it, a float
        coming in as ``above`` allows, and the one of the float cut below it, a float going
        down as ``below`` allows; its optimum weight, its pairs, and whom each extra vertex
        took."""
        key = (j, above.down_key() if above else None, below.up_key() if below else None)
        if key in memo:
            return memo[key]
        members = blocks[j]
        m = len(members)
        local = {k: i for i, k in enumerate(members)}
        sub = [(local[a], local[b], x) for a, b, x in inner[j]]
        v_up = v_down = None
        if above is not None:  # this block is below a float cut: a float comes in from above
            v_up = m
            m += 1
            cut = cuts[bounds[j]]
            if above.fixed is None:
                sub += [
                    (v_up, local[b], x - above.offset)
                    for b, x in cut.down.items()
                    if need[b] in above.down
                ]
            else:  # exact: the weight of the fixed float's edge, less its own share
                share = cut.up[above.fixed] - w.base
                sub += [
                    (v_up, local[b], x - share)
                    for (a, b), x in cut.edges.items()
                    if a == above.fixed and need[b] in above.down
                ]
        if below is not None:  # a float goes down from this block
            v_down = m
            m += 1
            sub += [
                (v_down, local[a], x)
                for a, x in cuts[bounds[j + 1]].up.items()
                if (a == below.fixed)
                or (below.fixed is None and a not in below.excluded and need[a] in below.up)
            ]
        cost[0] += m * m
        found = solver(m, sub)
        result: Solved = None
        if 2 * len(found) == m:
            weight = {(min(a, b), max(a, b)): x for a, b, x in sub}
            total = sum(weight[(min(a, b), max(a, b))] for a, b in found)
            pairs: set[tuple[int, int]] = set()
            took_up = took_down = None
            for a, b in found:
                if b in (v_up, v_down):
                    a, b = b, a
                if a == v_up:
                    took_up = members[b]
                elif a == v_down:
                    took_down = members[b]
                else:
                    pairs.add((members[a], members[b]))
            result = (total, pairs, took_up, took_down)
            solved_parts[j].append((above, below, result))
        memo[key] = result
        return result

    float_cuts = sorted(cuts)
    Found = tuple[int, set[tuple[int, int]], int | None, dict[int, tuple[int, int]]]

    def allows(part: _Part, a: int) -> bool:
        """Whether ``part`` lets ``a`` float down across its cut."""
        if part.fixed is not None:
            return a == part.fixed
        return a not in part.excluded and need[a] in part.up

    def narrower_up(part: _Part, than: _Part) -> bool:
        """Whether every float from above that ``part`` allows, ``than`` allows too."""
        if part.fixed is not None:
            return allows(than, part.fixed)
        return than.fixed is None and part.up <= than.up and part.excluded >= than.excluded

    def reuse(j: int, above: _Part | None, below: _Part | None) -> None:
        """Block ``j``'s optimum under wider restrictions, kept for these when its floats are
        still allowed here at the same weights (or all shifted by one offset): narrowing a
        choice to a set that holds the optimum's choice keeps that optimum."""
        key = (j, above.down_key() if above else None, below.up_key() if below else None)
        if key in memo:
            return
        for was_above, was_below, (value, pairs, took_up, took_down) in solved_parts[j]:
            if above is not None and was_above is not None and above != was_above:
                assert took_up is not None
                if (
                    above.fixed is not None
                    or was_above.fixed is not None
                    or not above.down <= was_above.down
                    or need[took_up] not in above.down
                ):
                    continue
                value -= above.offset - was_above.offset
            if below is not None and was_below is not None and below != was_below:
                assert took_down is not None
                if not narrower_up(below, was_below) or not allows(below, took_down):
                    continue
            memo[key] = (value, pairs, took_up, took_down)
            return

    def evaluate(states: dict[int, _Part]) -> Found | None:
        """The bound of the part of ``R`` that ``states`` describe, a matching reaching it if
        every float cut's pair has the weight bound for it (else the first cut where it does
        not), and the pair floating at each float cut; None when the part is empty."""
        total = -w.base * len(float_cuts)
        matching: set[tuple[int, int]] = set()
        ups: dict[int, int] = {}
        downs: dict[int, int] = {}
        for j in range(len(blocks)):
            top_cut, bottom_cut = bounds[j], bounds[j + 1]
            reuse(j, states.get(top_cut), states.get(bottom_cut))
            solved = solve_block(j, states.get(top_cut), states.get(bottom_cut))
            if solved is None:
                return None
            value, pairs, took_up, took_down = solved
            total += value
            matching |= pairs
            if took_up is not None:
                downs[top_cut] = took_up
            if took_down is not None:
                ups[bottom_cut] = took_down
        failing = None
        for p in float_cuts:
            a, b = ups[p], downs[p]
            matching.add((a, b))
            state, cut = states[p], cuts[p]
            exact = state.fixed is not None  # the fixed float's edges are weighted exactly
            bound = cut.up[a] + cut.down[b] - w.base - state.offset
            if not exact and cut.edges.get((a, b)) != bound and failing is None:
                failing = p
        return total, matching, failing, {p: (ups[p], downs[p]) for p in float_cuts}

    def split(state: _Part, a: int, b: int) -> list[_Part]:
        """``state``'s part of R in parts, where its bound was not reached by ``(a, b)``."""
        x = need[a][0]
        if x is not None and x == need[b][0] and state.fixed is None and not state.offset:
            # Both want colour x. The float from above does not; or it does and the one below
            # does not; or both do, which costs the clash of the milder wish of the two.
            wants = frozenset((x, k) for k in (1, 2, 3))
            up, down = state.up & wants, state.down & wants

            def strength(*ks: int) -> frozenset[Need]:
                return frozenset((x, k) for k in ks)

            clash = (
                (strength(1), strength(1, 2, 3), w.color_mild),
                (strength(2, 3), strength(1), w.color_mild),
                (strength(2), strength(2, 3), w.color_strong),
                (strength(3), strength(2), w.color_strong),
                (strength(3), strength(3), w.color_absolute),
            )
            return [
                replace(state, up=state.up - wants),
                replace(state, up=up, down=state.down - wants),
                *(
                    replace(state, up=up & u, down=down & d, offset=offset)
                    for u, d, offset in clash
                    if up & u and down & d
                ),
            ]
        # another float from above, or this one with the exact weights of its edges
        return [replace(state, excluded=state.excluded | {a}), replace(state, fixed=a)]

    # Best first over parts of R, the root being all of R: the first part whose matching
    # reaches its bound is an optimum of R, since every part still open has a lower bound. A
    # part waits in the heap with its parent's bound less its offset (an upper bound of its
    # own) and is matched only when it comes first, so parts that cannot win cost nothing.
    root = {p: _Part(anyone, anyone) for p in float_cuts}
    first = evaluate(root)
    if first is None:
        return None
    heap: list[tuple[int, int, Found | None, dict[int, _Part]]] = [(-first[0], 0, first, root)]
    tie = 1
    budget = max(cost[0] * (1 + EXTRA_BLOCK_WORK), n * n)
    found: set[tuple[int, int]] | None = None
    while heap:
        negative, _, done, states = heapq.heappop(heap)
        if done is None:  # a part not matched yet: match it and put it back at its own bound
            if cost[0] > budget:
                return None
            done = evaluate(states)
            if done is not None:
                heapq.heappush(heap, (-done[0], tie, done, states))
                tie += 1
            continue
        _, matching, failing, floats = done
        if failing is None:
            found = matching
            break
        a, b = floats[failing]
        for part in split(states[failing], a, b):
            bound = -negative - (part.offset - states[failing].offset)
            heapq.heappush(heap, (-bound, tie, None, {**states, failing: part}))
            tie += 1
    if found is None:
        return None
    weight_of = {(min(a, b), max(a, b)): x for a, b, x in edges}
    penalty = sum(w.base - weight_of[(min(a, b), max(a, b))] for a, b in found)
    if penalty > w.score * (bound_units + 2):
        return None
    return found


def _match(
    cands: Sequence[Candidate], opts: PairingOptions, solver: Solver
) -> tuple[_Field, set[tuple[int, int]], int, int] | None:
    n = len(cands)
    window = opts.window or _default_window(cands)
    while True:
        window = min(window, n)
        f, edges = build_graph(cands, opts, window)
        matching = (
            solve_by_blocks(f, edges, opts.weights, solver, odd_cuts=n >= opts.float_blocks_from)
            if n >= opts.blocks_from
            else None
        )
        if matching is None:
            matching = solver(n, edges)
        if 2 * len(matching) == n:
            return f, matching, window, len(edges)
        if window >= n or window >= MAX_WINDOW:
            return None
        window *= 4


def _bye_order(cands: Sequence[Candidate]) -> list[int]:
    """Lowest-placed first: lowest score, then weakest seed."""
    return sorted(
        (k for k, c in enumerate(cands) if not c.had_bye),
        key=lambda k: (cands[k].score, -cands[k].seed),
    )


def pair(
    cands: Sequence[Candidate],
    opts: PairingOptions | None = None,
    *,
    rng: random.Random | None = None,
    solver: Solver = solve_rustworkx,
    bye_attempts: int = 25,
) -> PairingResult:
    """Pair ``cands`` (all of them: an odd field gives one a bye) as one matching."""
    opts = opts or PairingOptions()
    rng = rng or random.Random(0)
    ids = [c.id for c in cands]
    if len(set(ids)) != len(ids):
        raise Conflict(Msg("a player appears twice in the field to pair"))
    if not cands:
        return PairingResult((), None, 0, 0)
    bye: str | None = None
    matched = None
    if len(cands) % 2:
        order = _bye_order(cands)
        if not order:
            raise Conflict(Msg("every player has had a bye; no one can take another"))
        for k in order[:bye_attempts]:
            matched = _match([c for j, c in enumerate(cands) if j != k], opts, solver)
            if matched is not None:
                bye = cands[k].id
                break
        if matched is None:
            raise Conflict(Msg("no pairing without a second bye or a rematch exists"))
    else:
        matched = _match(cands, opts, solver)
        if matched is None:
            raise Conflict(Msg("no pairing without a rematch or a forbidden pair exists"))
    f, matching, window, n_edges = matched
    # sorted: the lot for colours must not depend on the order a set happens to iterate in
    pairs = [_allocate(f, a, b, opts, rng) for a, b in sorted(tuple(sorted(m)) for m in matching)]
    by_id = {c.id: c for c in cands}

    def board_key(p: Pair) -> tuple[int, int, int]:
        b, w = by_id[p.black], by_id[p.white]
        return (-max(b.score, w.score), -(b.score + w.score), min(b.seed, w.seed))

    pairs.sort(key=board_key)
    return PairingResult(tuple(pairs), bye, window, n_edges)


def _placing(c: Candidate) -> tuple[int, int]:
    return (-c.score, c.seed)


def _allocate(f: _Field, a: int, b: int, opts: PairingOptions, rng: random.Random) -> Pair:
    ca, cb = f.c[a], f.c[b]
    (na, sa), (nb, sb) = f.need[a], f.need[b]
    black: Candidate
    if na is not None and (na != nb or sa > sb):
        black = ca if na is Color.BLACK else cb
    elif nb is not None and (na != nb or sb > sa):
        black = cb if nb is Color.BLACK else ca
    elif na is not None:
        # same wish, same strength: the bigger colour imbalance wins, then the higher placed
        da = abs(ca.colors.count("B") - ca.colors.count("W"))
        db = abs(cb.colors.count("B") - cb.colors.count("W"))
        first = ca if (da, _neg(_placing(ca))) > (db, _neg(_placing(cb))) else cb
        black = first if na is Color.BLACK else (cb if first is ca else ca)
    else:
        black = ca if rng.random() < 0.5 else cb
    white = cb if black is ca else ca
    gap = abs(ca.score - cb.score)
    violation = breaks_color_rule(black.colors + "B") or breaks_color_rule(white.colors + "W")
    same_club = bool(ca.club) and ca.club == cb.club
    dev = _deviation(f, a, b, opts.method)
    return Pair(black.id, white.id, gap, dev, violation, same_club)


def _neg(t: tuple[int, int]) -> tuple[int, int]:
    return (-t[0], -t[1])
