"""Swiss pairing (积分编排) as one maximum-weight matching over the whole field.

Hard rules are edges left out of the graph: no rematch, no forbidden pair (relatives,
team-mates), nobody withdrawn (the caller passes only the players to pair), at most one bye per
player (the bye is chosen first, from players without one). Wishes are edge weights, in priority
order by magnitude:

1. equal scores — a score gap costs ``score × gap²`` (two small floats beat one big one);
2. floats spread fairly — a player who floated the same way before costs ``float_repeat`` per
   earlier float;
3. colour balance — two players who both must have the same colour (a third in a row or a
   difference of 3) cost ``colour_absolute``; milder clashes cost less;
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

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
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
    seeding position in the field (0 = strongest); ``colours`` the colours played, oldest first.
    """

    id: str
    score: int
    seed: int
    colours: str = ""
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
    colour_absolute: int = 10**5
    colour_strong: int = 10**4
    colour_mild: int = 10**3
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


@dataclass(frozen=True)
class Pair:
    """A pair with its colours; the reasons are in the explanation fields."""

    black: str
    white: str
    score_gap: int
    seeding_deviation: int
    colour_violation: bool
    same_club: bool


@dataclass(frozen=True)
class PairingResult:
    pairs: tuple[Pair, ...]
    bye: str | None
    window: int
    edges: int


def colour_need(colours: str) -> tuple[Color | None, int]:
    """The colour a player should get next and how strongly (3 absolute … 1 mild).

    >>> colour_need("BB"), colour_need("BWB"), colour_need("WB"), colour_need("")
    ((<Color.WHITE: 'W'>, 3), (<Color.WHITE: 'W'>, 2), (<Color.WHITE: 'W'>, 1), (None, 0))
    """
    if not colours:
        return None, 0
    diff = colours.count("B") - colours.count("W")
    if diff >= 2 or colours.endswith("BB"):
        return Color.WHITE, 3
    if diff <= -2 or colours.endswith("WW"):
        return Color.BLACK, 3
    if diff == 1:
        return Color.WHITE, 2
    if diff == -1:
        return Color.BLACK, 2
    return (Color.WHITE if colours[-1] == "B" else Color.BLACK), 1


def breaks_colour_rule(colours: str) -> bool:
    """Three of one colour in a row, or a colour difference above 2.

    >>> breaks_colour_rule("BWBB"), breaks_colour_rule("BBB"), breaks_colour_rule("BWBWBB")
    (False, True, False)
    """
    diff = colours.count("B") - colours.count("W")
    return abs(diff) > 2 or colours.endswith(("BBB", "WWW"))


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
        self.need = [colour_need(c.colours) for c in cands]

    def index_in_group(self, k: int) -> int:
        return self.pos[k] - self.group_start[k]


def _ideal(i: int, n: int, method: Method) -> int:
    if method == "fold":
        return n - 1 - i
    if method == "slip":
        h = n // 2
        return i + h if i < h else i - h
    return i + 1 if i % 2 == 0 else i - 1


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


def _colour_clash(f: _Field, a: int, b: int) -> int:
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
    clash = _colour_clash(f, a, b)
    if clash == 3:
        penalty += w.colour_absolute
    elif clash == 2:
        penalty += w.colour_strong
    elif clash == 1:
        penalty += w.colour_mild
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


def solve_by_blocks(
    f: _Field, edges: Sequence[tuple[int, int, int]], weights: Weights, solver: Solver
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
    """
    w = weights
    if (
        min(w.base, w.score, w.float_repeat, w.colour_absolute, w.colour_strong) < 0
        or min(w.colour_mild, w.club, w.region, w.seeding, w.seeding_cap) < 0
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
        bound_units += need * (hi - lo) ** 2
    if not cuts:
        return None
    bounds = [0, *cuts, n]
    blocks = [order[bounds[i] : bounds[i + 1]] for i in range(len(bounds) - 1)]
    block_of = [0] * n
    for b, members in enumerate(blocks):
        for k in members:
            block_of[k] = b
    inner: list[list[tuple[int, int, int]]] = [[] for _ in blocks]
    for a, b, weight in edges:
        if block_of[a] == block_of[b]:
            inner[block_of[a]].append((a, b, weight))
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


def _match(
    cands: Sequence[Candidate], opts: PairingOptions, solver: Solver
) -> tuple[_Field, set[tuple[int, int]], int, int] | None:
    n = len(cands)
    window = opts.window or _default_window(cands)
    while True:
        window = min(window, n)
        f, edges = build_graph(cands, opts, window)
        matching = (
            solve_by_blocks(f, edges, opts.weights, solver) if n >= opts.blocks_from else None
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
        da = abs(ca.colours.count("B") - ca.colours.count("W"))
        db = abs(cb.colours.count("B") - cb.colours.count("W"))
        first = ca if (da, _neg(_placing(ca))) > (db, _neg(_placing(cb))) else cb
        black = first if na is Color.BLACK else (cb if first is ca else ca)
    else:
        black = ca if rng.random() < 0.5 else cb
    white = cb if black is ca else ca
    gap = abs(ca.score - cb.score)
    violation = breaks_colour_rule(black.colours + "B") or breaks_colour_rule(white.colours + "W")
    same_club = bool(ca.club) and ca.club == cb.club
    dev = _deviation(f, a, b, opts.method)
    return Pair(black.id, white.id, gap, dev, violation, same_club)


def _neg(t: tuple[int, int]) -> tuple[int, int]:
    return (-t[0], -t[1])
