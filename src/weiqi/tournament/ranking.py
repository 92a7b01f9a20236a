"""The event's standings (R-RANK-RR, R-RANK-SWISS, R-PLAYOFF), whatever its system.

Points-based systems (round robin, Swiss, McMahon, matches) rank with
:func:`weiqi.tournament.standings.rank` and the event's tie-break codes. In a McMahon event the
points are McMahon scores (start score + game points), and SOS sums the opponents' McMahon
scores. Brackets (single and
double elimination) rank by how far each player came: the champion first, then by the round in
which a player went out, later first; players out in the same round share a place (two losing
semi-finalists share third). A bracket has no tie-breaks by default; the values of codes an
event asks for are shown beside the places (they do not change them).
"""

from __future__ import annotations

from weiqi.tournament.records import Event, Round
from weiqi.tournament.scoring import competitors, histories
from weiqi.tournament.settings import System
from weiqi.tournament.standings import Standing, rank, tiebreak_values


def standings(event: Event, through_round: int | None = None) -> list[Standing]:
    """Places, points and tie-break values, best first.

    ``through_round`` (default: the rounds paired) counts rounds up to it; a round not paired
    yet scores nothing but counts as a round without a game, as OpenGotha's standings "at round
    N" do (it matters only with virtual opponents in SOS, ``unplayed_sos``).
    """
    s = event.settings
    if s.is_bracket:
        return _bracket_standings(event)
    if through_round is not None:
        event = _through(event, through_round)
    hist = histories(event)
    start = None
    if s.system is System.MCMAHON:
        from weiqi.tournament.systems.swiss import mcmahon_start  # the pairing: not for others

        start = mcmahon_start(event)
    rounds = len(event.rounds)
    return rank(
        competitors(event, hist, start),
        s.tiebreak_codes,
        rounds=rounds,
        top_score="achieved" if s.top_score == "achieved" else s.points_win * rounds,
        points_win=s.points_win,
        shared_places=s.shared_places,
        tie_resolution=s.tie_resolution,
        seed=s.seed,
        score_step=s.points_win if s.round_down_scores else 1,
    )


def _through(event: Event, last: int) -> Event:
    """The event cut or extended to ``last`` rounds, the rounds added without games."""
    kept = event.rounds[:last]
    empty = tuple(Round(n, ()) for n in range(len(kept) + 1, last + 1))
    return Event(event.settings, event.entrants, (*kept, *empty), event.warnings, event.kind)


def _bracket_standings(event: Event) -> list[Standing]:
    from weiqi.tournament.systems.knockout import DoubleElimination, SingleElimination

    system = (
        DoubleElimination()
        if event.settings.system is System.DOUBLE_ELIMINATION
        else SingleElimination()
    )
    out_in, champion = system.elimination_rounds(event)
    hist = histories(event)
    codes = event.settings.tiebreak_codes
    values = tiebreak_values(
        competitors(event, hist),
        codes,
        rounds=len(event.rounds),
        points_win=event.settings.points_win,
    )
    field = [e for e in event.entrants if e.joined_round == 1 and e.withdrawn_after != 0]
    last = len(event.rounds) + 1

    def key(pid: str) -> int:
        if pid == champion:
            return last + 1
        return out_in.get(pid, last)

    ordered = sorted(field, key=lambda e: (-key(e.id), e.id))
    table: list[Standing] = []
    place = 1
    i = 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and key(ordered[j].id) == key(ordered[i].id):
            j += 1
        shared = j - i > 1
        for e in ordered[i:j]:
            tiebreaks = {c: values[c][e.id] for c in codes if c in values}
            table.append(Standing(place, e.id, e.name, hist[e.id].points, tiebreaks, shared=shared))
        place += j - i
        i = j
    return table
