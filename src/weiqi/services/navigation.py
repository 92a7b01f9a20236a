"""What an event's sub-navigation offers a user: its rounds and the parts their roles open.

The pages of one event (public pages, the round sheet, a game, the organisers' pages) share
one navigation bar; this is the one read behind it, so it stays the same everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from weiqi.services.actor import Actor
from weiqi.services.events import existing_event, is_team_event
from weiqi.services.permissions import Action, allowed_in
from weiqi.store.database import Database
from weiqi.store.teams import LeagueDivisionRow
from weiqi.store.tournament import RoundRow


@dataclass(frozen=True)
class EventNavigation:
    """The event's navigation as ``actor`` sees it.

    >>> nav = EventNavigation(3, "春季赛", published=(1, 2), paired=3, results=True, manage=False)
    >>> nav.latest_published, nav.results_round, nav.results_url
    (2, 3, '/events/3/rounds/3/results')
    >>> EventNavigation(4, "联赛", (1,), 1, True, False, team=True, season_id=2).results_url
    '/events/4/manage/rounds/1'
    """

    event_id: int
    name: str
    published: tuple[int, ...]
    """Rounds the public may see, in order."""
    paired: int | None
    """The latest paired round, published or not."""
    results: bool
    """May enter results (organisers, referees, the chief referee)."""
    manage: bool
    """May run the event: its settings, players, pairing and publication."""
    team: bool = False
    """A team event: its entrants are teams (their page, their records), its table has no
    crosstable, and a round's results are entered on its page, match by match."""
    season_id: int | None = None
    """The league season a team event is a division of."""

    @property
    def latest_published(self) -> int | None:
        return self.published[-1] if self.published else None

    @property
    def results_round(self) -> int | None:
        """The round whose sheet the results link opens: the latest paired."""
        return self.paired

    @property
    def results_url(self) -> str | None:
        """Where the latest paired round's results are entered (:func:`results_path`)."""
        return None if self.paired is None else results_path(self.event_id, self.paired, self.team)


def results_path(event_id: int, number: int, team: bool) -> str:
    """Where round ``number``'s results are entered: an individual event's round sheet, a team
    round's page (a sheet for each match).

    >>> results_path(3, 2, team=False), results_path(3, 2, team=True)
    ('/events/3/rounds/2/results', '/events/3/manage/rounds/2')
    """
    if team:
        return f"/events/{event_id}/manage/rounds/{number}"
    return f"/events/{event_id}/rounds/{number}/results"


def event_navigation(db: Database, actor: Actor, event_id: int) -> EventNavigation:
    """Read the event's rounds and what ``actor`` may do in it (``NotFound`` if no event)."""
    with db.transaction() as session:
        event = existing_event(session, event_id)
        rounds = session.execute(
            select(RoundRow.number, RoundRow.published)
            .where(RoundRow.event_id == event_id)
            .order_by(RoundRow.number)
        ).all()

        return EventNavigation(
            event_id=event_id,
            name=event.name,
            published=tuple(n for n, published in rounds if published),
            paired=rounds[-1].number if rounds else None,
            results=allowed_in(session, actor, Action.ENTER_RESULT, event_id),
            manage=allowed_in(session, actor, Action.PUBLISH_ROUND, event_id),
            team=is_team_event(session, event_id),
            season_id=session.scalar(
                select(LeagueDivisionRow.season_id).where(LeagueDivisionRow.event_id == event_id)
            ),
        )
