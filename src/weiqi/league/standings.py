"""Team scoring plugged into the one standings module (R-SCORE-TEAM-1, R-RANK-TEAM), and
members' total (队员总分制, R-FMT-1).

A team is a competitor of :mod:`weiqi.tournament.standings`: each finished match is an encounter
whose points are the team's match points (场分 2 / 1 / 0, board 1 deciding a level match if the
event says so), carrying the game points (局分) its players scored, board by board; a bye is a
won match (``BYE_MATCH_POINTS``). The table is that module's ``rank`` with the codes of the
event's :class:`TeamRanking` — the same registry as the players' (``MP``, ``GP``, ``B1``, …,
``SOS``, ``TOTAL``); equal on every code → a shared place.

>>> from weiqi.rules.color import Color
>>> from weiqi.rules.result import Reason, Result
>>> win, loss = Result.win(Color.BLACK, Reason.RESIGNATION), Result.win(Color.WHITE, Reason.TIME)
>>> m1 = TeamMatch.pair("A", "B", ("a1", "a2"), ("b1", "b2")).record(1, win).record(2, loss)
>>> m2 = TeamMatch.pair("B", "C", ("b1", "b2"), ("c1", "c2")).record(1, win).record(2, win)
>>> m3 = TeamMatch.pair("C", "A", ("c1", "c2"), ("a1", "a2")).record(1, loss).record(2, win)
>>> table = team_standings([m1, m2, m3])
>>> [(s.place, s.team, s.row.match_points, s.row.game_points) for s in table]
[(1, 'A', 4, 8), (2, 'B', 1, 2), (3, 'C', 1, 2)]
>>> [s.row.board_points for s in table[1:]]  # B and C are level until board 1
[[2, 0], [0, 2]]
>>> [(s.place, s.id) for s in rank(team_competitors([m1, m2, m3]), ("B2",))]
[(1, 'A'), (2, 'C'), (3, 'B')]
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from weiqi.errors import InvalidSetting
from weiqi.league.match import MATCH_DRAW, MATCH_LOSS, MATCH_WIN, TeamMatch
from weiqi.messages import Msg
from weiqi.tournament.standings import BOARD_PREFIX, Competitor, Encounter, rank


@dataclass
class TeamTotals:
    """A team's totals over its finished matches."""

    team: str
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    match_points: int = 0
    game_points: int = 0
    board_points: list[int] = field(default_factory=list)
    opponents: list[str] = field(default_factory=list)


BYE_MATCH_POINTS = MATCH_WIN
"""A team with a bye (轮空) in a Swiss or a knockout scores a won match: 2 match points, no game
points (the rules leave a team bye's game points open; none are invented here). A round robin's
rest is no bye and scores nothing: pass no ``byes`` there."""

_OUTCOME: dict[int, Literal["W", "D", "L"]] = {MATCH_WIN: "W", MATCH_DRAW: "D", MATCH_LOSS: "L"}


def team_competitors(
    matches: Iterable[TeamMatch],
    teams: Iterable[str] = (),
    board_one_decides: bool = False,
    byes: Iterable[str] = (),
) -> list[Competitor]:
    """The team scoring policy: every team in ``teams`` or in a finished match as a competitor
    of the standings; unfinished matches are left out. Each entry of ``byes`` (a team, once per
    bye) is a won match without an opponent.

    A team's encounters are numbered in the order given (its byes first): the team Swiss's
    ``TOTAL`` subtracts the most matches any team has played as the rounds (Art. 27.2(2): the
    same 轮次 for every team, so a team that withdrew is not spared the rounds it missed).

    >>> [c] = team_competitors([], byes=["A"])
    >>> c.points, c.encounters[0].opponent, c.encounters[0].game_points
    (2, None, 0)
    """
    encounters: dict[str, list[Encounter]] = {t: [] for t in teams}
    for team in byes:
        own = encounters.setdefault(team, [])
        own.append(Encounter(len(own) + 1, None, BYE_MATCH_POINTS, "W", False))
    for m in matches:
        if not m.finished:
            continue
        score = m.score(board_one_decides)
        per_board = m.board_points()
        for team, opponent, mp, gp, side in (
            (m.a, m.b, score.match_points_a, score.game_points_a, 0),
            (m.b, m.a, score.match_points_b, score.game_points_b, 1),
        ):
            own = encounters.setdefault(team, [])
            boards = tuple(p[side] for p in per_board)
            own.append(Encounter(len(own) + 1, opponent, mp, _OUTCOME[mp], True, gp, boards))
    return [Competitor(t, t, tuple(e)) for t, e in encounters.items()]


def team_row(team: Competitor) -> TeamTotals:
    """A team's totals, read off its encounters."""
    played = team.encounters
    boards = max((len(e.board_points) for e in played), default=0)
    return TeamTotals(
        team.id,
        played=len(played),
        won=sum(e.outcome == "W" for e in played),
        drawn=sum(e.outcome == "D" for e in played),
        lost=sum(e.outcome == "L" for e in played),
        match_points=team.points,
        game_points=sum(e.game_points for e in played),
        board_points=[
            sum(e.board_points[b] for e in played if b < len(e.board_points)) for b in range(boards)
        ],
        opponents=[e.opponent for e in played if e.opponent is not None],
    )


def team_rows(
    matches: Iterable[TeamMatch],
    teams: Iterable[str] = (),
    board_one_decides: bool = False,
    byes: Iterable[str] = (),
) -> dict[str, TeamTotals]:
    """Totals of every team of :func:`team_competitors`, by team.

    >>> row = team_rows([], teams=["A", "B"], byes=["A"])["A"]
    >>> row.played, row.won, row.match_points, row.game_points
    (1, 1, 2, 0)
    """
    return {c.id: team_row(c) for c in team_competitors(matches, teams, board_one_decides, byes)}


class TeamRanking(enum.Enum):
    """How a team event ranks (R-RANK-TEAM): a choice of the standings' codes.

    Team Swiss, Art. 27.2(2): "团体成绩根据总得分或总积分的高低区分名次……若相同则依循环赛顺序
    区分名次".
    Read literally, "by total points (总积分), ties in the round-robin order" has no 对手分: it
    is ``ROUND_ROBIN`` (MP, GP, B1, …), which a Swiss team event may choose.
    ``SWISS_POINTS`` is RULES.md's reading (R-RANK-TEAM "as R-RANK-SWISS"), borrowing the
    individual method B's 对手分 before the round-robin keys.
    """

    ROUND_ROBIN = "round_robin"  # MP, GP, B1, B2, …
    SWISS_TOTAL_SCORE = "swiss_total_score"  # TOTAL, then as round robin
    SWISS_POINTS = "swiss_points"  # MP, SOS, then GP, B1, …

    def codes(self, boards: int) -> tuple[str, ...]:
        """The codes of this ranking for ``boards`` boards, most important first.

        >>> TeamRanking.SWISS_POINTS.codes(2)
        ('MP', 'SOS', 'GP', 'B1', 'B2')
        """
        round_robin = ("MP", "GP", *(f"{BOARD_PREFIX}{b}" for b in range(1, boards + 1)))
        if self is TeamRanking.SWISS_TOTAL_SCORE:
            return ("TOTAL", *round_robin)
        if self is TeamRanking.SWISS_POINTS:
            return ("MP", "SOS", *round_robin[1:])
        return round_robin


@dataclass(frozen=True)
class TeamStanding:
    place: int
    team: str
    row: TeamTotals
    keys: tuple[Fraction, ...]
    """The values of the ranking's codes, in its order."""


def team_standings(
    matches: Iterable[TeamMatch],
    teams: Iterable[str] = (),
    ranking: TeamRanking = TeamRanking.ROUND_ROBIN,
    board_one_decides: bool = False,
    top_score: int | Literal["achieved"] | None = None,
    byes: Iterable[str] = (),
) -> list[TeamStanding]:
    """The table of a team event; shared places where every key is equal (R-RANK-TEAM).
    ``byes`` (a Swiss's or a knockout's, once per bye) score as won matches. ``top_score`` is
    TOTAL's full score: None takes 2 × rounds (the rule as written), "achieved" the highest
    match points achieved."""
    competitors = team_competitors(matches, teams, board_one_decides, byes)
    boards = max((len(e.board_points) for c in competitors for e in c.encounters), default=0)
    codes = ranking.codes(boards)
    by_id = {c.id: c for c in competitors}
    return [
        TeamStanding(
            s.place, s.id, team_row(by_id[s.id]), tuple(Fraction(s.tiebreaks[c]) for c in codes)
        )
        for s in rank(competitors, codes, top_score=top_score, points_win=MATCH_WIN)
    ]


def members_total(
    members: Mapping[str, Sequence[str]],
    points: Mapping[str, int],
    counted: int | None = None,
) -> list[tuple[int, str, int]]:
    """队员总分制: each team scores the total of its members' individual points (the best
    ``counted`` members only, if the event says so); equal totals share a place.

    >>> members_total({"X": ["x1", "x2", "x3"], "Y": ["y1", "y2"]},
    ...               {"x1": 6, "x2": 2, "x3": 4, "y1": 8, "y2": 2}, counted=2)
    [(1, 'X', 10), (1, 'Y', 10)]
    """
    if counted is not None and counted < 1:
        raise InvalidSetting("counted", Msg("at least one member's points must count"))
    teams = []
    for team, players in members.items():
        pts = sorted((points.get(p, 0) for p in players), reverse=True)
        total = sum(pts[:counted] if counted is not None else pts)
        teams.append(Competitor(team, team, initial_points=total))
    return [(s.place, s.id, s.points) for s in rank(teams, ())]
