"""Swiss (积分编排制), Swiss with elimination after K losses, McMahon, and multiple
elimination — all paired by :mod:`weiqi.tournament.pairing` as one matching.

- Swiss: pairing score = points (late entrants start with ``late_entry_points`` per missed round).
- McMahon: pairing score = McMahon start score + points; the start score is the rank's distance
  above the floor, capped at the bar, one win's points per rank.
- Swiss + elimination (积分编排加淘汰): a player with K losses is out. The field is kept even
  (Art. 26.4): when it would be odd, the best-placed of the players just eliminated stays in as a
  lucky loser, with one more life; only when nobody was just eliminated does someone get a bye.
- Knockout out after K ≥ 2 losses: players still in are paired by their number of losses.

Withdrawn players are no longer paired; their results stand (R-WD-1).

A team Swiss is the same pairing over team codes (:mod:`weiqi.league.team_rounds`): score groups
of match points, no rematch, home and away balanced like colours.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from weiqi.errors import Conflict
from weiqi.messages import Msg
from weiqi.rules.result import Outcome
from weiqi.tournament.pairing import Candidate, Method, PairingOptions, Weights, pair
from weiqi.tournament.players import Entrant, seeding_order
from weiqi.tournament.ranks import Rank
from weiqi.tournament.records import (
    Event,
    EventKind,
    Game,
    PairExplanation,
    RoundPlan,
    RoundTotals,
)
from weiqi.tournament.scoring import PlayerHistory, histories, is_forfeit
from weiqi.tournament.settings import (
    EventSettings,
    KnockoutSettings,
    McMahonSettings,
    SwissSettings,
    System,
)
from weiqi.tournament.systems.colors import even_or_handicap


def mcmahon_start(event: Event) -> dict[str, int]:
    """Each entrant's McMahon start score in points (0 for systems without McMahon).

    >>> from weiqi.tournament.settings import EventSettings
    >>> s = EventSettings(system=System.MCMAHON, rounds=5, mcmahon_bar=Rank.parse("3d"),
    ...                   mcmahon_floor=Rank.parse("5k"))
    >>> ev = Event(s, (Entrant("a", "A", Rank.parse("6d")), Entrant("b", "B", Rank.parse("1k")),
    ...                Entrant("c", "C", Rank.parse("20k")), Entrant("d", "D")))
    >>> mcmahon_start(ev)
    {'a': 14, 'b': 8, 'c': 0, 'd': 0}

    Counted from ``mcmahon_zero`` (OpenGotha's 30k = 0), a 3d at a 3d bar starts on 32 wins
    (64 points at 2 a win); a player's ``mcmahon_correction`` adds whole wins:

    >>> from dataclasses import replace
    >>> ev = Event(replace(s, mcmahon_zero=Rank.parse("30k")),
    ...            (Entrant("a", "A", Rank.parse("3d")), Entrant("b", "B", Rank.parse("1k"),
    ...             mcmahon_correction=1)))
    >>> mcmahon_start(ev)
    {'a': 64, 'b': 60}
    """
    start = _start_score(event)
    return {e.id: start(e) for e in event.entrants}


def _start_score(event: Event) -> Callable[[Entrant], int]:
    """The start score of any entrant under ``event``'s bar, floor and zero (the floor, when
    not set, is the event's lowest rank)."""
    s = event.settings
    if not isinstance(s, McMahonSettings) or s.mcmahon_bar is None:
        return lambda e: 0
    bar = s.mcmahon_bar.strength
    ranked = [e.strength for e in event.entrants if e.rank is not None]
    floor = s.mcmahon_floor.strength if s.mcmahon_floor else min(ranked, default=bar)
    zero = s.mcmahon_zero.strength if s.mcmahon_zero else floor
    win = s.points_win
    return lambda e: (min(max(e.strength, floor), bar) - zero + e.mcmahon_correction) * win


def mcmahon_start_of(event: Event, rank: Rank) -> int:
    """The start score a player of ``rank`` would have in ``event`` (no correction).

    >>> from weiqi.tournament.settings import EventSettings
    >>> s = EventSettings(system=System.MCMAHON, rounds=5, mcmahon_bar=Rank.parse("3d"),
    ...                   mcmahon_floor=Rank.parse("5k"))
    >>> mcmahon_start_of(Event(s, ()), Rank.parse("1d")), mcmahon_start_of(Event(s, ()),
    ...                                                                     Rank.parse("9d"))
    (10, 14)
    """
    return _start_score(event)(Entrant("probe", "", rank))


def _losses_after(event: Event, upto: int) -> dict[str, int]:
    losses = {e.id: 0 for e in event.entrants}
    for rnd in event.rounds[:upto]:
        for g in rnd.games:
            if g.result is None:
                continue
            if g.result.outcome is Outcome.BOTH_LOSE:
                losses[g.black] += 1
                losses[g.white] += 1
            elif g.result.outcome is Outcome.WIN:
                winner = g.winner()
                losses[g.white if winner == g.black else g.black] += 1
    return losses


def field_for(event: Event, number: int) -> tuple[list[Entrant], frozenset[str]]:
    """The players to pair in round ``number`` and everyone eliminated before it."""
    s = event.settings
    k = s.losses_to_eliminate
    entrants = event.entrants
    if k is None:
        return [e for e in entrants if e.plays_in(number)], frozenset()
    lives = {e.id: k for e in entrants}
    out: set[str] = set()
    keep_even = s.system is System.SWISS_KNOCKOUT
    hist_points: dict[str, int] = {}
    for t in range(1, number):
        losses = _losses_after(event, t)
        just_out = [
            e
            for e in entrants
            if e.id not in out and e.active_in(t) and losses[e.id] >= lives[e.id]
        ]
        out.update(e.id for e in just_out)
        alive = [e for e in entrants if e.active_in(t + 1) and e.id not in out]
        if keep_even and len(alive) % 2 and just_out:
            hist_points = {pid: h.points for pid, h in histories(event, upto=t).items()}
            seeds = {e.id: i for i, e in enumerate(seeding_order(entrants))}
            lucky = min(just_out, key=lambda e: (-hist_points[e.id], seeds[e.id]))
            out.discard(lucky.id)
            lives[lucky.id] += 1
    field = [e for e in entrants if e.plays_in(number) and e.id not in out]
    return field, frozenset(out)


class Swiss:
    """Swiss-type pairing: Swiss, McMahon, Swiss + elimination, K-loss knockout."""

    def blocker(self, event: Event) -> Msg | None:
        from weiqi.tournament.systems import incomplete

        why = incomplete(event)
        if why is not None:
            return why
        if self.is_finished(event):
            return Msg("the event is finished")
        r = event.next_round_number
        if len(field_for(event, r)[0]) < 2:
            return Msg("round %(r)s: fewer than two players left to pair", r=r)
        return None

    def next_round(self, event: Event) -> RoundPlan:
        from weiqi.tournament.systems import require_pairable, round_seed

        require_pairable(self, event)
        s = event.settings
        r = event.next_round_number
        field, _ = field_for(event, r)
        hist = histories(event)
        seed_value = round_seed(s, r)
        rng = random.Random(seed_value)
        cands, method = candidates(event, field, hist, rng)
        weights = _avoidance_weights(s)
        opts = PairingOptions(
            method=method,
            weights=weights,
            avoid_same_club=s.avoid_same_club,
            avoid_same_region=s.avoid_same_region,
            forbidden=frozenset(frozenset(p) for p in s.forbidden_pairs),
        )
        try:
            result = pair(cands, opts, rng=rng)
        except Conflict:
            if s.losses_to_eliminate is None:
                raise
            # the last players of an elimination event may all have met: allow a rematch
            opts = replace(opts, rematch_penalty=opts.weights.score * 10**3)
            result = pair(cands, opts, rng=random.Random(seed_value))
        by_id = {e.id: e for e in field}
        scores = {c.id: c.score for c in cands}
        cap = None
        if s.handicap_threshold is not None and s.system is System.MCMAHON:
            cap = mcmahon_start_of(event, s.handicap_threshold)
        games = tuple(
            even_or_handicap(
                s, r, board, by_id[p.black], by_id[p.white], scores=scores, score_cap=cap
            )
            for board, p in enumerate(result.pairs, start=1)
        )
        explanations = explain(games, cands, result.pairs)
        byes = (result.bye,) if result.bye else ()
        last_out = self.eliminated(event) - _eliminated_before(event, len(event.rounds))
        return RoundPlan(
            r,
            games,
            byes,
            eliminated=tuple(sorted(last_out)),
            seed=seed_value,
            explanations=explanations,
            totals=totals(explanations),
        )

    def is_finished(self, event: Event) -> bool:
        s = event.settings
        done = len(event.rounds)
        if s.rounds is not None and done >= s.rounds:
            return True
        if done == 0:
            return False
        field, _ = field_for(event, done + 1)
        return len(field) < 2

    def eliminated(self, event: Event) -> frozenset[str]:
        return field_for(event, len(event.rounds) + 1)[1]


def _avoidance_weights(s: EventSettings) -> Weights:
    """The pairing's weights with a same-club (same-region) game made dearer than the score
    gap the event trades for avoiding it (``club_score_gap``, ``region_score_gap``, in wins).

    Avoiding such a game makes two other games (its players' new partners'): it costs more
    than both of them at a gap up to the setting, with half a score unit to spare over what
    the lower wishes (floats, colours, seeding) can add.
    """
    w = Weights()

    def dearer(gap_wins: int) -> int:
        gap = gap_wins * s.points_win
        return 2 * w.score * gap * gap + w.score // 2

    if s.avoid_same_club and s.club_score_gap:
        w = replace(w, club=dearer(s.club_score_gap))
    if s.avoid_same_region and s.region_score_gap:
        w = replace(w, region=dearer(s.region_score_gap))
    return w


def _eliminated_before(event: Event, number: int) -> frozenset[str]:
    return field_for(event, number)[1] if number >= 1 else frozenset()


def candidates(
    event: Event, field: Sequence[Entrant], hist: Mapping[str, PlayerHistory], rng: random.Random
) -> tuple[list[Candidate], Method]:
    """The matching's view of the field, and the seeding method for this round."""
    s = event.settings
    r = event.next_round_number
    start = mcmahon_start(event)
    order = seeding_order(field)
    # a knockout out after K ≥ 2 losses is paired as a Swiss is
    method: Method = "fold"
    if isinstance(s, SwissSettings | KnockoutSettings):
        method = s.pairing_method
    if r == 1 or all(not hist[e.id].opponents for e in field):
        if s.first_round == "lot":
            rng.shuffle(order)
            method = "adjacent"
        else:  # top half against bottom half, or 1 v n, 2 v n−1 …
            method = "slip" if s.first_round == "halves" else "fold"
    seed = {e.id: i for i, e in enumerate(order)}
    by_losses = s.system is System.KNOCKOUT
    # The team Swiss has always paired without the teams' float history (a team may float
    # twice running); kept so that no team event pairs differently than it did. Counting
    # floats for teams too is one line here, and changes later rounds (issue #10's report).
    floats = event.kind is EventKind.INDIVIDUAL
    cands = []
    for e in field:
        h = hist[e.id]
        score = -h.losses if by_losses else h.points + start[e.id]
        cands.append(
            Candidate(
                id=e.id,
                score=score,
                seed=seed[e.id],
                colors=h.color_string,
                opponents=frozenset(h.opponents),
                had_bye=bool(h.byes),
                floats_down=h.floats.count(1) if floats else 0,
                floats_up=h.floats.count(-1) if floats else 0,
                club=e.club,
                region=e.region or e.country,
            )
        )
    return cands, method


def explain(
    games: Sequence[Game], cands: Sequence[Candidate], pairs: Sequence[object]
) -> tuple[PairExplanation, ...]:
    """Per board: scores, colour histories, seeding positions and what the pair costs."""
    from weiqi.tournament.pairing import Pair, breaks_color_rule

    by_id = {c.id: c for c in cands}
    by_players = {frozenset((p.black, p.white)): p for p in pairs if isinstance(p, Pair)}
    group_sizes: dict[int, int] = {}
    for c in cands:
        group_sizes[c.score] = group_sizes.get(c.score, 0) + 1
    out = []
    for g in games:
        b, w = by_id[g.black], by_id[g.white]
        p = by_players[frozenset(g.players)]
        note = ""
        if b.score != w.score:
            note = "float: " + ("Black down" if b.score > w.score else "White down")
        if g.handicap:
            note = (note + "; " if note else "") + f"handicap {g.handicap}"
        out.append(
            PairExplanation(
                board=g.board,
                black=g.black,
                white=g.white,
                score_black=b.score,
                score_white=w.score,
                colors_black=b.colors,
                colors_white=w.colors,
                seed_black=b.seed + 1,
                seed_white=w.seed + 1,
                group_size=group_sizes[max(b.score, w.score)],
                seeding_deviation=p.seeding_deviation,
                same_club=p.same_club,
                color_violation=breaks_color_rule(b.colors + "B")
                or breaks_color_rule(w.colors + "W"),
                note=note,
            )
        )
    return tuple(out)


def totals(explanations: Sequence[PairExplanation]) -> RoundTotals:
    gaps = [e.score_gap for e in explanations]
    return RoundTotals(
        games=len(explanations),
        score_gap_sum=sum(gaps),
        score_gap_max=max(gaps, default=0),
        floats=sum(1 for g in gaps if g),
        color_violations=sum(1 for e in explanations if e.color_violation),
        same_club_games=sum(1 for e in explanations if e.same_club),
    )


__all__ = ["Swiss", "candidates", "explain", "field_for", "is_forfeit", "mcmahon_start"]
