"""Round robin (循环制) on Berger tables: single, double and multiple cycles.

Colours alternate; an odd field gets a bye (a rest, no points) each round; the second cycle
reverses the colours, and the last two rounds of the first cycle are swapped so nobody plays
three of one colour in a row across the seam (for 4 players, whose tables are too short for the
swap, the round order is searched instead).

>>> rounds = berger_schedule(4, 1)
>>> len(rounds), [sorted(p for g in r for p in g) for r in rounds]
(3, [[0, 1, 2, 3], [0, 1, 2, 3], [0, 1, 2, 3]])
>>> len(berger_schedule(5, 2))  # 5 players: 5 rounds a cycle, index 5 is the bye
10
"""

from __future__ import annotations

import itertools

from weiqi.messages import Msg
from weiqi.tournament.records import Event, EventKind, Game, RoundPlan
from weiqi.tournament.systems import starting_field
from weiqi.tournament.systems.colors import even_or_handicap

Table = list[list[tuple[int, int]]]


def _cycle(n: int) -> Table:
    """One cycle for ``n`` players (index n is the bye when n is odd); pairs are (black, white)."""
    ne = n + n % 2
    m = ne - 1
    inv2 = (m + 1) // 2  # 2 is invertible modulo the odd m
    rounds: Table = []
    for r in range(m):
        fixed_partner = (r * inv2) % m
        games = [(fixed_partner, m) if r % 2 == 0 else (m, fixed_partner)]
        for i in range(m):
            j = (r - i) % m
            if i < j:
                # i's distance to its partner grows by one each round, so its colour alternates
                games.append((i, j) if (j - i) % m % 2 else (j, i))
        rounds.append(games)
    return rounds


def _reverse(rounds: Table) -> Table:
    return [[(w, b) for b, w in g] for g in rounds]


def _runs_ok(table: Table, n: int) -> bool:
    seqs: dict[int, str] = {}
    for games in table:
        for b, w in games:
            if b >= n or w >= n:
                continue
            seqs[b] = seqs.get(b, "") + "B"
            seqs[w] = seqs.get(w, "") + "W"
    return not any("BBB" in s or "WWW" in s for s in seqs.values())


def berger_schedule(n: int, cycles: int) -> Table:
    """All rounds of a ``cycles``-fold round robin of ``n`` players (indices 0…n−1)."""
    if n < 2:
        return []
    first = _cycle(n)
    if cycles == 1:
        return first
    base = list(first)
    if len(base) >= 2:
        base[-1], base[-2] = base[-2], base[-1]
    table = [r for c in range(cycles) for r in (_reverse(base) if c % 2 else base)]
    if _runs_ok(table, n):
        return table
    # short tables (4 players): search the round order of each cycle
    orders = list(itertools.permutations(range(len(first))))
    for combo in itertools.product(orders, repeat=cycles):
        table = []
        for c, order in enumerate(combo):
            rounds = [first[i] for i in order]
            table.extend(_reverse(rounds) if c % 2 else rounds)
        if _runs_ok(table, n):
            return table
    return [r for c in range(cycles) for r in (_reverse(first) if c % 2 else first)]


def schedule_length(event: Event) -> int:
    """How many rounds the event's Berger tables have (``EventSettings.planned_rounds`` of its
    starting field: the one count of a round robin's rounds, 0 for fewer than two players)."""
    return event.settings.planned_rounds(len(starting_field(event))) or 0


class RoundRobin:
    """Every player (or team) meets every other once per cycle.

    A team round robin may be paired ahead, before the last round is played: its teams do not
    withdraw mid-event, so nothing in a round depends on earlier results, and a league publishes
    its whole calendar. A player's withdrawal turns games into forfeits or voids them (R-WD-1),
    so an individual round robin pairs round by round.
    """

    def blocker(self, event: Event) -> Msg | None:
        from weiqi.tournament.systems import incomplete

        if event.kind is EventKind.INDIVIDUAL:
            why = incomplete(event)
            if why is not None:
                return why
        if not event.rounds and len(event.entrants) < 2:
            # Otherwise an empty schedule reads as "finished" before anybody has played.
            return Msg(
                "a round robin needs at least two players, not %(entrants)s",
                entrants=len(event.entrants),
            )
        if self.is_finished(event):
            return Msg("the round robin is finished")
        return None

    def next_round(self, event: Event) -> RoundPlan:
        from weiqi.tournament.scoring import voided_players
        from weiqi.tournament.systems import require_pairable

        require_pairable(self, event)
        r = event.next_round_number
        field = starting_field(event)
        table = berger_schedule(len(field), event.settings.cycle_count)
        void = voided_players(event)
        games: list[Game] = []
        byes: list[str] = []
        for bi, wi in table[r - 1]:
            if bi >= len(field) or wi >= len(field):
                byes.append(field[min(bi, wi)].id)
                continue
            black, white = field[bi], field[wi]
            gone_b = not black.active_in(r)
            gone_w = not white.active_in(r)
            if gone_b and gone_w:
                continue
            if (gone_b and black.id in void) or (gone_w and white.id in void):
                byes.append(white.id if gone_b else black.id)
                continue
            winner = white.id if gone_b else black.id if gone_w else None
            games.append(even_or_handicap(event.settings, r, len(games) + 1, black, white, winner))
        return RoundPlan(r, tuple(games), tuple(byes))

    def is_finished(self, event: Event) -> bool:
        return len(event.rounds) >= schedule_length(event)

    def eliminated(self, event: Event) -> frozenset[str]:
        return frozenset()
