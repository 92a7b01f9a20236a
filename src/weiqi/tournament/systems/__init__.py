"""Competition systems (R-FMT-3), each behind one small interface over entrant ids.

"Given the event so far, the next round's pairings", plus "is the event finished" and "who is
eliminated". :func:`system_for` picks the implementation for the event's settings; players and
teams (an event of team codes, :mod:`weiqi.league.team_rounds`) are paired by the same objects.

>>> from weiqi.tournament.settings import EventSettings, System
>>> type(system_for(EventSettings(system=System.SWISS, rounds=5))).__name__
'Swiss'
>>> type(system_for(EventSettings(system=System.KNOCKOUT), EventKind.TEAM)).__name__
'HalvingKnockout'
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Protocol

from weiqi.errors import Conflict
from weiqi.messages import Msg
from weiqi.tournament.players import Entrant, seeding_order
from weiqi.tournament.records import Event, EventKind, RoundPlan
from weiqi.tournament.scoring import outstanding_games
from weiqi.tournament.settings import EventSettings, System

if TYPE_CHECKING:
    from weiqi.league.winner_stays_on import StageSetup


class TournamentSystem(Protocol):
    def next_round(self, event: Event) -> RoundPlan:
        """The pairings of round ``event.next_round_number``."""
        ...

    def blocker(self, event: Event) -> Msg | None:
        """Why round ``event.next_round_number`` cannot be paired (what :meth:`next_round`
        would refuse with), checked without pairing it; ``None`` when it can be."""
        ...

    def is_finished(self, event: Event) -> bool: ...

    def eliminated(self, event: Event) -> frozenset[str]: ...


def incomplete(event: Event) -> Msg | None:
    """Why the next round waits: the last round still has games without a final result
    (``None`` when it has none)."""
    if not event.rounds:
        return None
    missing = outstanding_games(event, len(event.rounds))
    if not missing:
        return None
    boards = ", ".join(str(g.board) for g in missing)
    return Msg(
        "round %(rounds)s: no final result on board(s) %(boards)s",
        rounds=len(event.rounds),
        boards=boards,
    )


def require_complete(event: Event) -> None:
    """Refuse to pair while the last round still has games without a final result."""
    why = incomplete(event)
    if why is not None:
        raise Conflict(why)


def require_pairable(system: TournamentSystem, event: Event) -> None:
    """Refuse (``Conflict``) to pair the next round for what ``system.blocker`` finds: the
    check every system's ``next_round`` makes first, so pairing refuses with the reason a page
    shows beforehand.

    >>> from weiqi.tournament.players import Entrant
    >>> alone = Event(EventSettings(system=System.SWISS, rounds=3), (Entrant("1", "A"),))
    >>> require_pairable(system_for(alone.settings), alone)
    Traceback (most recent call last):
    ...
    weiqi.errors.Conflict: round 1: fewer than two players left to pair
    """
    why = system.blocker(event)
    if why is not None:
        raise Conflict(why)


def pairing_blocker(settings: EventSettings, event: Event) -> Msg | None:
    """Why the event's next round cannot be paired, or ``None``: the preconditions its system
    checks before pairing, without pairing it (cheap enough for every view of a page).

    >>> from weiqi.tournament.players import Entrant
    >>> alone = Event(EventSettings(system=System.SWISS, rounds=3), (Entrant("1", "A"),))
    >>> pairing_blocker(alone.settings, alone)
    Msg('round %(r)s: fewer than two players left to pair', r=1)
    >>> two = Event(alone.settings, (Entrant("1", "A"), Entrant("2", "B")))
    >>> pairing_blocker(two.settings, two) is None
    True
    """
    return system_for(settings, event.kind).blocker(event)


def starting_field(event: Event) -> list[Entrant]:
    """The players who start a round robin or a knockout, in seed order (seeding, or a lot with
    the event's seed): a round robin's Berger numbers, a knockout's bracket positions."""
    field = [e for e in event.entrants if e.joined_round == 1 and e.withdrawn_after != 0]
    ordered = seeding_order(field)
    if event.settings.first_round == "lot":
        random.Random(event.settings.seed).shuffle(ordered)
    return ordered


def round_seed(settings: EventSettings, number: int) -> int:
    """The recorded seed of round ``number``'s lots (nigiri, first-round lot)."""
    return settings.seed * 1000 + number


def system_for(
    settings: EventSettings,
    kind: EventKind = EventKind.INDIVIDUAL,
    stage: StageSetup | None = None,
) -> TournamentSystem:
    """The system of an event with ``settings``. A team knockout is paired round by round (one
    bye a round, what its store keeps); everything else is the same object for both kinds.
    A 擂台赛 (winner stays on) is played from its teams' orders (``stage``): one game a round.

    >>> from weiqi.league.winner_stays_on import StageSetup
    >>> setup = StageSetup({"CN": ["c1"], "JP": ["j1"]})
    >>> type(system_for(EventSettings(system=System.MATCH), EventKind.TEAM, setup)).__name__
    'WinnerStaysOnSystem'
    """
    from weiqi.league.winner_stays_on import WinnerStaysOnSystem
    from weiqi.tournament.systems.knockout import (
        DoubleElimination,
        HalvingKnockout,
        SingleElimination,
    )
    from weiqi.tournament.systems.match import Match
    from weiqi.tournament.systems.round_robin import RoundRobin
    from weiqi.tournament.systems.swiss import Swiss

    if stage is not None:
        return WinnerStaysOnSystem(stage)
    s = settings.system
    if s.is_round_robin:
        return RoundRobin()
    if s is System.KNOCKOUT:
        if settings.is_bracket:
            return HalvingKnockout() if kind is EventKind.TEAM else SingleElimination()
        return Swiss()  # out after K ≥ 2 losses, paired by loss count
    if s is System.DOUBLE_ELIMINATION:
        return DoubleElimination()
    if s is System.MATCH:
        return Match()
    return Swiss()
