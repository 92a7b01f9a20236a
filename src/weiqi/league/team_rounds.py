"""A team event as the competition systems see it (R-FMT-3 on teams): the tournament's
:class:`~weiqi.tournament.records.Event` over team codes, so that
``system_for(settings, EventKind.TEAM)`` pairs teams with the objects that pair players — the
Berger tables, the Swiss matching, the knockout.

Each match is one game between two entrants: Black is the home team (team A, listed first, black
on board 1 when the boards alternate), White the away team; its result is the match's, won,
drawn or lost on match points (场分) as the team scoring policy counts them (board 1 deciding a
level match if the event says so, R-SCORE-TEAM-1), a knockout match level on points by its
playoff (加赛, R-PLAYOFF). A round's bye (轮空) is the entrant's bye; the event's settings
(:func:`team_settings`) score it as a won match (``BYE_MATCH_POINTS``) in a Swiss, so the score
groups are the standings' match points. Teams are seeded in the order they are listed.

>>> from weiqi.rules.color import Color
>>> from weiqi.rules.result import Reason
>>> from weiqi.tournament.settings import System
>>> from weiqi.tournament.systems import system_for
>>> settings = team_settings(System.SWISS, rounds=3)
>>> win = Result.win(Color.BLACK, Reason.RESIGNATION)
>>> r1 = TeamRound((PlayedMatch(TeamMatch.pair("A", "D", ("a",), ("d",)).record(1, win)),
...                 PlayedMatch(TeamMatch.pair("C", "B", ("c",), ("b",)).record(1, win))))
>>> event = team_event(settings, team_entrants("ABCD"), [r1])
>>> fixtures, bye = team_fixtures(system_for(settings, event.kind).next_round(event))
>>> sorted((f.home, f.away) for f in fixtures), bye  # winners meet, losers meet, sides swap
([('B', 'D'), ('C', 'A')], None)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from weiqi.errors import Conflict
from weiqi.league.calendar import Fixture
from weiqi.league.match import MATCH_DRAW, MATCH_LOSS, MATCH_WIN, TeamMatch
from weiqi.league.standings import BYE_MATCH_POINTS
from weiqi.messages import Msg
from weiqi.rules.color import Color
from weiqi.rules.result import Reason, Result
from weiqi.tournament.players import Entrant
from weiqi.tournament.records import Event, EventKind, Game, Round, RoundPlan
from weiqi.tournament.settings import EventSettings, System


@dataclass(frozen=True)
class PlayedMatch:
    """A match of a paired round: its seated boards once the lineups are revealed (the fixture
    alone before), and the winner of its playoff if one was recorded."""

    match: TeamMatch
    playoff_winner: str | None = None
    seated: bool = True

    @classmethod
    def fixture(cls, home: str, away: str) -> PlayedMatch:
        """A match whose lineups are not revealed yet: no boards, no result."""
        return cls(TeamMatch(home, away, ()), seated=False)


@dataclass(frozen=True)
class TeamRound:
    """A paired team round: its matches in match order and the team with the bye."""

    matches: tuple[PlayedMatch, ...]
    bye: str | None = None


def team_settings(
    system: System, rounds: int | None = None, cycles: int = 1, seed: int = 0
) -> EventSettings:
    """The settings the systems pair a team event by: points are match points (2 / 1 / 0), a
    bye is a won match, round 1 of a Swiss folds (1 v n, 2 v n−1 …) like its later rounds.

    >>> s = team_settings(System.SWISS, rounds=5, seed=7)
    >>> (s.points_win, s.points_draw, s.points_loss, s.bye_points, s.first_round, s.seed)
    (2, 1, 0, 2, 'fold', 7)
    """
    # the cycles are a round robin's own setting (the other systems' variants have none)
    own: dict[str, Any] = {"cycles": cycles} if system.is_round_robin else {}
    return EventSettings(
        system=system,
        rounds=rounds,
        **own,
        points_win=MATCH_WIN,
        points_draw=MATCH_DRAW,
        points_loss=MATCH_LOSS,
        bye_points=BYE_MATCH_POINTS,
        first_round="fold",
        seed=seed,
    )


def match_result(played: PlayedMatch, board_one_decides: bool = False) -> Result | None:
    """The match as one game's result for the home team (Black): None until every board has a
    result; a win for the side with more match points, or the playoff's winner; else a draw.

    The match is scored, not played out as one game: a won match reads as a win by ruling
    (判胜) — never a forfeit, which the systems would not count as played with a colour.

    >>> from weiqi.rules.result import Outcome
    >>> m = TeamMatch.pair("A", "B", ("a1", "a2"), ("b1", "b2"))
    >>> m = m.record(1, Result.win(Color.BLACK, Reason.RESIGNATION)).record(2, Result.draw())
    >>> match_result(PlayedMatch(m)).winner, match_result(PlayedMatch.fixture("A", "B"))
    (<Color.BLACK: 'B'>, None)
    """
    match = played.match
    if not played.seated or not match.finished:
        return None
    winner = match.score(board_one_decides).winner or played.playoff_winner
    if winner is None:
        return Result.draw()
    return Result.win(Color.BLACK if winner == match.a else Color.WHITE, Reason.RULING)


def team_entrants(
    codes: Iterable[str],
    names: Mapping[str, str] | None = None,
    clubs: Mapping[str, str] | None = None,
) -> tuple[Entrant, ...]:
    """The teams as entrants, seeded in the order listed."""
    return tuple(
        Entrant(code, (names or {}).get(code, code), club=(clubs or {}).get(code, ""), seeding=i)
        for i, code in enumerate(codes, start=1)
    )


def team_event(
    settings: EventSettings,
    teams: Sequence[Entrant],
    rounds: Sequence[TeamRound],
    board_one_decides: bool = False,
) -> Event:
    """The team event so far as the systems read it: the teams (:func:`team_entrants`) and
    the rounds paired so far."""
    paired = tuple(
        Round(
            number,
            tuple(
                Game(number, board, m.match.a, m.match.b, match_result(m, board_one_decides))
                for board, m in enumerate(rnd.matches, start=1)
            ),
            (rnd.bye,) if rnd.bye is not None else (),
        )
        for number, rnd in enumerate(rounds, start=1)
    )
    return Event(settings, tuple(teams), paired, kind=EventKind.TEAM)


def require_knockout_winners(rounds: Sequence[TeamRound], board_one_decides: bool) -> None:
    """Refuse to pair a knockout while a match is level with no playoff recorded (R-PLAYOFF),
    naming the match and its game points."""
    for rnd in rounds:
        for m in rnd.matches:
            if not m.seated or not m.match.finished:
                continue
            score = m.match.score(board_one_decides)
            if score.winner is None and m.playoff_winner is None:
                raise Conflict(
                    Msg(
                        "%(a)s–%(b)s is drawn %(game_points_a)s:%(game_points_b)s; a "
                        "knockout match needs a winner: record its playoff (加赛)",
                        a=m.match.a,
                        b=m.match.b,
                        game_points_a=score.game_points_a,
                        game_points_b=score.game_points_b,
                    )
                )


def team_fixtures(plan: RoundPlan) -> tuple[list[Fixture], str | None]:
    """A round plan's games as fixtures (Black is home) and its bye (a team round has one)."""
    # every system the teams use rests at most one a round: the store keeps one bye a round
    assert len(plan.byes) <= 1, plan.byes
    fixtures = [Fixture(plan.number, g.black, g.white) for g in plan.games]
    return fixtures, plan.byes[0] if plan.byes else None
