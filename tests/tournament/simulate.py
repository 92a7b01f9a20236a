"""Drive an event round by round with a function that decides each game (test helper)."""

from __future__ import annotations

from collections.abc import Callable

from weiqi.rules.color import Color
from weiqi.rules.result import Reason, Result
from weiqi.tournament.players import Entrant
from weiqi.tournament.ranks import Rank
from weiqi.tournament.records import Event, Game, RoundPlan
from weiqi.tournament.settings import EventSettings
from weiqi.tournament.systems import system_for

Decide = Callable[[Game], Result]


def entrants(names: str | list[str], top: int = 7) -> tuple[Entrant, ...]:
    """Entrants named in seeding order: the first is the strongest."""
    seq = list(names)
    return tuple(
        Entrant(n, n, Rank.from_strength(max(top - i, -29)), rating=3000 - i)
        for i, n in enumerate(seq)
    )


def win_for(game: Game, player: str, reason: Reason = Reason.RESIGNATION) -> Result:
    return Result.win(Color.BLACK if game.black == player else Color.WHITE, reason)


def play_round(event: Event, decide: Decide) -> tuple[Event, RoundPlan]:
    plan = system_for(event.settings).next_round(event)
    event = event.with_round(plan.to_round())
    for g in plan.games:
        if g.result is None:
            event = event.with_result(plan.number, g.board, decide(g))
    return event, plan


def play_all(event: Event, decide: Decide, limit: int = 200) -> tuple[Event, list[RoundPlan]]:
    system = system_for(event.settings)
    plans = []
    while not system.is_finished(event) and len(plans) < limit:
        event, plan = play_round(event, decide)
        plans.append(plan)
    return event, plans


def new_event(settings: EventSettings, field: tuple[Entrant, ...]) -> Event:
    return Event(settings, field)
