"""A dead-stone proposal for a finished position (R-END-3), for the players to confirm or change.

Two things decide it:

1. Benson's algorithm finds the groups that are alive unconditionally (alive even if their owner
   always passes); they are never proposed dead.
2. Random playouts from the position estimate who ends up owning each point. Playouts follow
   the usual light policy (never fill an own eye) plus one rule that keeps seki as seki: a group
   of two or more stones never puts itself in atari unless it captures. A group that keeps its
   points in fewer than 60 % of the playouts is dead; one that keeps them in 40–80 % is
   *uncertain* (:func:`assess`), for the players' confirmation to look at.

The playouts run on a small board of their own (padded array, chains with liberty sets, simple
ko only), since they need neither history nor superko; everything is seeded, so the same
position and seed always give the same proposal.

>>> rows = [
...     "..XO.",
...     ".OXO.",
...     "..XO.",
...     "..XOX",
...     "..XO.",
... ]
>>> sorted(format_vertex(p, 5) for p in propose_dead(stones_from_rows(rows), 5))
['B4', 'E2']
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Protocol

from weiqi.errors import InputError
from weiqi.messages import Msg
from weiqi.rules.vertex import check_position, format_vertex

EMPTY, BLACK, WHITE, BORDER = 0, 1, 2, 3

#: A chain is proposed dead when, averaged over its stones, it keeps its points in fewer than
#: this share of the playouts. Above one half because the playouts are kind to weak chains:
#: left with an open area around them, random play lets them live about half the time where a
#: player would kill them. On GNU Go's regression games (bench/README.md) 0.6 halves the counts
#: that are far from GNU Go's; 0.5 and 0.7 do worse.
DEAD_BELOW = 0.6

#: A chain (not unconditionally alive) whose kept share lies in this band is *uncertain*: the
#: players' confirmation should look at it. The band holds 16 of the 19 chains we judge
#: otherwise than GNU Go on the regression games while flagging 2 % of the chains.
UNCERTAIN_LOW = 0.4
UNCERTAIN_HIGH = 0.8

#: At most this many rounds of playouts (see :func:`assess`).
ROUNDS = 3


class HasStones(Protocol):
    """A position that can tell its size and stones (e.g. :class:`weiqi.rules.board.Board`)."""

    @property
    def size(self) -> int: ...

    def stones_bytes(self) -> bytes: ...


def stones_from_rows(rows: Sequence[str]) -> bytes:
    """Stones from a diagram written top row first (``X`` black, ``O`` white, ``.`` empty).

    >>> stones_from_rows(["X.", ".O"])
    b'\\x00\\x02\\x01\\x00'
    """
    size = len(rows)
    code = {".": EMPTY, "X": BLACK, "O": WHITE}
    out = bytearray(size * size)
    for i, line in enumerate(rows):
        cells = line.replace(" ", "")
        if len(cells) != size:
            raise InputError(
                Msg("diagram row %(value)s", value=i + 1),
                Msg("%(cells)s points, expected %(size)s", cells=len(cells), size=size),
            )
        row = size - 1 - i
        for col, ch in enumerate(cells):
            if ch not in code:
                raise InputError(
                    Msg("diagram row %(value)s", value=i + 1),
                    Msg("unknown point %(ch)s", ch=repr(ch)),
                )
            out[row * size + col] = code[ch]
    return bytes(out)


def _stones_and_size(
    position: HasStones | bytes | Sequence[int], size: int | None
) -> tuple[bytes, int]:
    if isinstance(position, (bytes, bytearray, Sequence)):
        stones = bytes(position)
        if size is None:
            size = round(len(stones) ** 0.5)
    else:
        stones = position.stones_bytes()
        size = position.size
    check_position(stones, size, "position")
    return stones, size


# -- chains and Benson's unconditional life -------------------------------------------------------


def _neighbours(size: int) -> list[list[int]]:
    table = []
    for p in range(size * size):
        row, col = divmod(p, size)
        nbrs = []
        if row > 0:
            nbrs.append(p - size)
        if row + 1 < size:
            nbrs.append(p + size)
        if col > 0:
            nbrs.append(p - 1)
        if col + 1 < size:
            nbrs.append(p + 1)
        table.append(nbrs)
    return table


def chains(stones: bytes, size: int) -> list[list[int]]:
    """The chains (groups) of the position, each a list of points, in order of lowest point."""
    nbrs = _neighbours(size)
    seen = [False] * (size * size)
    out = []
    for start, color in enumerate(stones):
        if color == EMPTY or seen[start]:
            continue
        seen[start] = True
        chain = [start]
        for s in chain:
            for q in nbrs[s]:
                if not seen[q] and stones[q] == color:
                    seen[q] = True
                    chain.append(q)
        out.append(chain)
    return out


def benson_alive(stones: bytes, size: int, color: int) -> set[int]:
    """Stones of ``color`` (1 black, 2 white) that are unconditionally alive (Benson 1976).

    Regions are the maximal connected sets of points not holding ``color``; a region is vital
    to a chain when all its empty points are liberties of that chain. Chains with fewer than two
    vital healthy regions are removed, and regions touching removed chains with them, until
    nothing changes.

    >>> rows = ["X.X..", "XXX..", ".....", ".....", "....."]
    >>> len(benson_alive(stones_from_rows(rows), 5, BLACK))
    0
    >>> rows = [".X.X.", "XXXXX", ".....", "OOOOO", ".O.O."]
    >>> stones = stones_from_rows(rows)
    >>> len(benson_alive(stones, 5, BLACK)), len(benson_alive(stones, 5, WHITE))
    (7, 7)
    """
    nbrs = _neighbours(size)
    n = size * size
    chain_of = [-1] * n
    chain_list = [c for c in chains(stones, size) if stones[c[0]] == color]
    for i, chain in enumerate(chain_list):
        for p in chain:
            chain_of[p] = i
    region_of = [-1] * n
    regions: list[list[int]] = []
    for start in range(n):
        if stones[start] == color or region_of[start] >= 0:
            continue
        rid = len(regions)
        region_of[start] = rid
        region = [start]
        for s in region:
            for q in nbrs[s]:
                if stones[q] != color and region_of[q] < 0:
                    region_of[q] = rid
                    region.append(q)
        regions.append(region)
    # chains bordering each region, and for which of them the region is vital
    borders: list[set[int]] = []
    vital: list[set[int]] = []
    for region in regions:
        around: set[int] = set()
        for s in region:
            for q in nbrs[s]:
                if stones[q] == color:
                    around.add(chain_of[q])
        borders.append(around)
        ok = set(around)
        for s in region:
            if stones[s] == EMPTY:
                adj = {chain_of[q] for q in nbrs[s] if stones[q] == color}
                ok &= adj
                if not ok:
                    break
        vital.append(ok)
    alive_chains = set(range(len(chain_list)))
    live_regions = set(range(len(regions)))
    changed = True
    while changed:
        changed = False
        for c in list(alive_chains):
            healthy = sum(1 for r in live_regions if c in vital[r])
            if healthy < 2:
                alive_chains.discard(c)
                changed = True
        for r in list(live_regions):
            if not borders[r] <= alive_chains:
                live_regions.discard(r)
                changed = True
    return {p for c in alive_chains for p in chain_list[c]}


# -- playouts ---------------------------------------------------------------------------------


class _Playout:
    """A throwaway board for random playouts: padded array, chains with liberty sets.

    Built once per position; :meth:`copy` gives each playout its own board cheaply."""

    __slots__ = (
        "board",
        "chain",
        "diag",
        "empty",
        "ko",
        "last_played",
        "libs",
        "nbr",
        "on_board",
        "stones",
        "where",
    )

    board: list[int]
    chain: list[int]
    stones: dict[int, list[int]]
    libs: dict[int, set[int]]
    empty: list[int]
    where: list[int]
    ko: int
    last_played: int
    nbr: list[list[int]]
    diag: list[list[int]]
    on_board: list[int]

    @classmethod
    def build(cls, stones: bytes, size: int) -> _Playout:
        w = size + 2
        self = cls()
        self.nbr, self.diag, self.on_board = _padded_tables(size)
        nbr = self.nbr
        board = [BORDER] * (w * w)
        for p, v in enumerate(stones):
            row, col = divmod(p, size)
            board[(row + 1) * w + col + 1] = v
        self.board = board
        self.chain = [0] * (w * w)
        self.stones = {}
        self.libs = {}
        self.empty = [q for q in range(w * w) if board[q] == EMPTY]
        self.where = [-1] * (w * w)
        for i, q in enumerate(self.empty):
            self.where[q] = i
        self.ko = -1
        seen = set()
        for q in range(w * w):
            v = board[q]
            if v not in (BLACK, WHITE) or q in seen:
                continue
            group = [q]
            seen.add(q)
            libs: set[int] = set()
            for s in group:
                self.chain[s] = q
                for t in nbr[s]:
                    bt = board[t]
                    if bt == v and t not in seen:
                        seen.add(t)
                        group.append(t)
                    elif bt == EMPTY:
                        libs.add(t)
            self.stones[q] = group
            self.libs[q] = libs
        return self

    def copy(self) -> _Playout:
        other = _Playout()
        other.board = self.board[:]
        other.chain = self.chain[:]
        other.stones = {k: v[:] for k, v in self.stones.items()}
        other.libs = {k: set(v) for k, v in self.libs.items()}
        other.empty = self.empty[:]
        other.where = self.where[:]
        other.ko = self.ko
        other.nbr = self.nbr
        other.diag = self.diag
        other.on_board = self.on_board
        return other

    def try_play(self, p: int, c: int) -> bool:
        """Play ``p`` for ``c`` if the playout policy allows it; whether it was played."""
        if p == self.ko:
            return False
        board = self.board
        chain = self.chain
        libs = self.libs
        nbr = self.nbr[p]
        opp = 3 - c
        free = 0
        own = 0
        own_safe = False
        captures = False
        for q in nbr:
            v = board[q]
            if v == EMPTY:
                free += 1
            elif v == c:
                own += 1
                if len(libs[chain[q]]) > 1:
                    own_safe = True
            elif v == opp and len(libs[chain[q]]) == 1:
                captures = True
        if captures:
            self._place(p, c)
            return True
        if own == self.on_board[p]:
            # every neighbour is ours: an eye unless the opponent holds the diagonals
            enemy = 0
            for q in self.diag[p]:
                if board[q] == opp:
                    enemy += 1
            if enemy < (2 if own == 4 else 1):
                return False
        if free >= 2:
            self._place(p, c)
            return True
        if not free and not own_safe:
            return False  # suicide
        # One liberty or none of its own: a group of two or more stones must not end up in
        # atari, which is what keeps seki alive in the playouts.
        new_libs: set[int] = set()
        size_after = 1
        roots = set()
        for q in nbr:
            v = board[q]
            if v == EMPTY:
                new_libs.add(q)
            elif v == c:
                r = chain[q]
                if r not in roots:
                    roots.add(r)
                    size_after += len(self.stones[r])
                    new_libs |= libs[r]
        new_libs.discard(p)
        if len(new_libs) < 2 and size_after >= 2:
            return False
        if not new_libs:
            return False
        self._place(p, c)
        return True

    def _take_empty(self, p: int) -> None:
        empty = self.empty
        where = self.where
        i = where[p]
        last = empty.pop()
        if last != p:
            empty[i] = last
            where[last] = i
        where[p] = -1

    def _place(self, p: int, c: int) -> None:
        board = self.board
        chain = self.chain
        libs = self.libs
        stones = self.stones
        opp = 3 - c
        board[p] = c
        self.last_played = p
        self._take_empty(p)
        chain[p] = p
        stones[p] = [p]
        nbr = self.nbr[p]
        libs[p] = {q for q in nbr if board[q] == EMPTY}
        root = p
        captured: list[int] = []
        for q in nbr:
            v = board[q]
            if v == c:
                r = chain[q]
                if r == root:
                    continue
                big, small = (r, root) if len(stones[r]) >= len(stones[root]) else (root, r)
                for s in stones[small]:
                    chain[s] = big
                stones[big].extend(stones.pop(small))
                libs[big] |= libs.pop(small)
                root = big
            elif v == opp:
                r = chain[q]
                rl = libs[r]
                rl.discard(p)
                if not rl:
                    captured.extend(self._remove(r))
        libs[root].discard(p)
        self.ko = -1
        if len(captured) == 1 and len(stones[root]) == 1 and len(libs[root]) == 1:
            self.ko = captured[0]

    def _remove(self, root: int) -> list[int]:
        board = self.board
        chain = self.chain
        libs = self.libs
        empty = self.empty
        where = self.where
        group = self.stones.pop(root)
        del libs[root]
        for s in group:
            board[s] = EMPTY
        for s in group:
            where[s] = len(empty)
            empty.append(s)
            for q in self.nbr[s]:
                v = board[q]
                if 0 < v < BORDER:
                    libs[chain[q]].add(s)
        return group

    def _reply(self, last: int, color: int) -> bool:
        """Answer the last move: capture a chain it left in atari, else save an own chain it
        put in atari by extending (only where that gives two liberties or more)."""
        board = self.board
        chain = self.chain
        libs = self.libs
        opp = 3 - color
        for q in (last, *self.nbr[last]):
            if board[q] == opp:
                group_libs = libs[chain[q]]
                if len(group_libs) == 1:
                    (lib,) = group_libs
                    if self.try_play(lib, color):
                        return True
        for q in self.nbr[last]:
            if board[q] == color:
                group_libs = libs[chain[q]]
                if len(group_libs) == 1:
                    (lib,) = group_libs
                    if self.try_play(lib, color):
                        return True
        return False

    def run(self, rng: random.Random, first: int, max_moves: int) -> None:
        color = first
        passes = 0
        moves = 0
        last = -1
        rand = rng.random
        while passes < 2 and moves < max_moves:
            played = -1
            if last >= 0 and self._reply(last, color):
                played = self.last_played
            else:
                cands = self.empty[:]
                k = len(cands)
                while k:
                    i = int(rand() * k)
                    p = cands[i]
                    k -= 1
                    cands[i] = cands[k]
                    if self.try_play(p, color):
                        played = p
                        break
            if played >= 0:
                passes = 0
            else:
                passes += 1
                self.ko = -1
            last = played
            moves += 1
            color = 3 - color

    def owners(self) -> list[int]:
        """Owner per padded point at the end: the stone's colour, or for an empty point the
        colour of all its neighbours (0 when they differ)."""
        board = self.board
        out = board[:]
        for p in self.empty:
            seen = 0
            for q in self.nbr[p]:
                v = board[q]
                if 0 < v < BORDER:
                    seen |= v
            out[p] = seen if seen != BLACK | WHITE else EMPTY
        return out


@cache
def _padded_tables(size: int) -> tuple[list[list[int]], list[list[int]], list[int]]:
    """Neighbours, diagonals and the number of on-board neighbours of each padded point."""
    w = size + 2
    nbr: list[list[int]] = [[] for _ in range(w * w)]
    diag: list[list[int]] = [[] for _ in range(w * w)]
    on_board = [0] * (w * w)
    for row in range(1, size + 1):
        for col in range(1, size + 1):
            q = row * w + col
            nbr[q] = [q - w, q + w, q - 1, q + 1]
            diag[q] = [q - w - 1, q - w + 1, q + w - 1, q + w + 1]
            on_board[q] = sum(
                1 <= r <= size and 1 <= c <= size
                for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
            )
    return nbr, diag, on_board


@dataclass(frozen=True)
class Estimate:
    """Per point, the share of playouts that ended with the point Black's and White's."""

    size: int
    playouts: int
    black: tuple[float, ...]
    white: tuple[float, ...]

    def ownership(self, point: int) -> float:
        """From -1 (surely White's) to +1 (surely Black's)."""
        return self.black[point] - self.white[point]


def estimate_ownership(
    position: HasStones | bytes | Sequence[int],
    size: int | None = None,
    *,
    seed: int = 0,
    playouts: int | None = None,
) -> Estimate:
    """Who owns each point at the end of random playouts from the position (half of them with
    Black to move first)."""
    stones, size = _stones_and_size(position, size)
    count = playouts if playouts is not None else default_playouts(size)
    rng = random.Random(seed)
    start = _Playout.build(stones, size)
    w = size + 2
    inner = [(row + 1) * w + col + 1 for row in range(size) for col in range(size)]
    black = [0] * (size * size)
    white = [0] * (size * size)
    max_moves = 3 * size * size
    for i in range(count):
        board = start.copy()
        board.run(rng, BLACK if i % 2 == 0 else WHITE, max_moves)
        owners = board.owners()
        for p, q in enumerate(inner):
            v = owners[q]
            if v == BLACK:
                black[p] += 1
            elif v == WHITE:
                white[p] += 1
    return Estimate(
        size,
        count,
        tuple(b / count for b in black),
        tuple(x / count for x in white),
    )


def default_playouts(size: int) -> int:
    """Playouts per proposal: on the GNU Go corpus 32 already agree as often as 256, and 128 take
    about 0.1 s on a finished 19×19 position (the playouts only fill what is left)."""
    return 128


@dataclass(frozen=True)
class ChainStatus:
    """One chain of a proposal: its stones, its colour (1 black, 2 white), the share of its
    points it kept over the playouts, and whether it is proposed dead."""

    stones: tuple[int, ...]
    color: int
    kept: float
    dead: bool

    @property
    def uncertain(self) -> bool:
        """Whether the playouts are too divided for the proposal to be trusted: the players'
        confirmation (R-END-3) should look at this chain."""
        return UNCERTAIN_LOW <= self.kept <= UNCERTAIN_HIGH


@dataclass(frozen=True)
class Proposal:
    """The dead-stone proposal of a position with the chains it is unsure of.

    >>> rows = ["..X.O..", "..X.O..", ".OX.O..", "..X.O.X", "..X.O..", "..X.O..", "..X.O.."]
    >>> proposal = assess(stones_from_rows(rows), 7)
    >>> dead_vertices(proposal.dead, 7), proposal.uncertain
    (['B5', 'G4'], ())
    """

    dead: frozenset[int]
    #: The chains that are neither unconditionally alive nor clearly won or lost, lowest first.
    uncertain: tuple[ChainStatus, ...]


def assess(
    position: HasStones | bytes | Sequence[int],
    size: int | None = None,
    *,
    seed: int = 0,
    playouts: int | None = None,
) -> Proposal:
    """The proposal (see :func:`propose_dead`) and the chains whose status it is unsure of.

    The proposal is made in up to :data:`ROUNDS` rounds: while some chain is uncertain, the
    chains found dead are taken off and the playouts run again on what is left, so that a weak
    chain next to dead ones is judged without their help (as players judge: the dead stones
    first, then the area around them)."""
    stones, size = _stones_and_size(position, size)
    board = bytearray(stones)
    status: dict[int, ChainStatus] = {}
    dead: set[int] = set()
    for round_number in range(ROUNDS):
        # a new seed per round, derived from the given one, keeps rounds independent
        estimate = estimate_ownership(
            bytes(board), size, seed=seed + round_number, playouts=playouts
        )
        now = bytes(board)
        safe = benson_alive(now, size, BLACK) | benson_alive(now, size, WHITE)
        found = []
        for chain in chains(now, size):
            if chain[0] in safe:
                status.pop(chain[0], None)
                continue
            color = now[chain[0]]
            share = estimate.black if color == BLACK else estimate.white
            kept = sum(share[p] for p in chain) / len(chain)
            status[chain[0]] = ChainStatus(tuple(chain), color, kept, kept < DEAD_BELOW)
            if kept < DEAD_BELOW:
                found.append(chain)
        if not found:
            break
        for chain in found:
            dead.update(chain)
            for p in chain:
                board[p] = EMPTY
        if not any(s.uncertain for s in status.values() if not s.dead):
            break
    uncertain = tuple(status[k] for k in sorted(status) if status[k].uncertain)
    return Proposal(frozenset(dead), uncertain)


def propose_dead(
    position: HasStones | bytes | Sequence[int],
    size: int | None = None,
    *,
    seed: int = 0,
    playouts: int | None = None,
) -> set[int]:
    """The stones proposed dead: every stone of each chain that keeps its points in fewer than
    :data:`DEAD_BELOW` of the playouts and is not unconditionally alive. ``position`` is a board
    or one value per point (0 empty, 1 black, 2 white); the seed makes the proposal
    reproducible.

    >>> rows = ["XXXXX", "X.X.X", "XXXXX", "OOOOO", "..O.O"]
    >>> propose_dead(stones_from_rows(rows), 5)
    set()
    """
    return set(assess(position, size, seed=seed, playouts=playouts).dead)


def dead_vertices(points: Iterable[int], size: int) -> list[str]:
    """GTP names of points, sorted as GNU Go's lists are compared (by name)."""
    return sorted(format_vertex(p, size) for p in points)
