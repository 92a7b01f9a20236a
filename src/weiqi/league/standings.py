"""Team standings (R-RANK-TEAM) and members' total (队员总分制, R-FMT-1).

Team round robin: match points (场分), then game points (局分), then game points on board 1, on
board 2, …; all equal → a shared place. Team Swiss: total score (R-RANK-SWISS A) or points and
opponents' points (R-RANK-SWISS B), remaining ties as the team round robin.

Tie-breaks are plain functions named by their codes, each ``(team, rows) -> Fraction`` where a
higher value ranks first — the shape of the individual standings module, so both can merge.

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
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from weiqi.errors import InvalidSetting
from weiqi.league.match import MATCH_DRAW, MATCH_WIN, TeamMatch
from weiqi.messages import Msg


@dataclass
class TeamRow:
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

Rows = Mapping[str, TeamRow]
TieBreak = Callable[[str, Rows], Fraction]


def team_rows(
    matches: Iterable[TeamMatch],
    teams: Iterable[str] = (),
    board_one_decides: bool = False,
    byes: Iterable[str] = (),
) -> dict[str, TeamRow]:
    """Totals of every team in ``teams`` or in a finished match; unfinished matches are left out.
    Each entry of ``byes`` (a team, once per bye) counts as a won match (``BYE_MATCH_POINTS``).

    >>> row = team_rows([], teams=["A", "B"], byes=["A"])["A"]
    >>> row.played, row.won, row.match_points, row.game_points
    (1, 1, 2, 0)
    """
    rows: dict[str, TeamRow] = {t: TeamRow(t) for t in teams}
    for team in byes:
        row = rows.setdefault(team, TeamRow(team))
        row.played += 1
        row.won += 1
        row.match_points += BYE_MATCH_POINTS
    for m in matches:
        if not m.finished:
            continue
        score = m.score(board_one_decides)
        per_board = m.board_points()
        for team, mp, gp, side in (
            (m.a, score.match_points_a, score.game_points_a, 0),
            (m.b, score.match_points_b, score.game_points_b, 1),
        ):
            row = rows.setdefault(team, TeamRow(team))
            row.played += 1
            row.won += mp == MATCH_WIN
            row.drawn += mp == MATCH_DRAW
            row.lost += mp == 0
            row.match_points += mp
            row.game_points += gp
            while len(row.board_points) < len(per_board):
                row.board_points.append(0)
            for i, pts in enumerate(per_board):
                row.board_points[i] += pts[side]
            row.opponents.append(m.opponent(team))
    return rows


# -- tie-breaks, named by code -------------------------------------------------------------------


def MP(team: str, rows: Rows) -> Fraction:
    """场分: match points."""
    return Fraction(rows[team].match_points)


def GP(team: str, rows: Rows) -> Fraction:
    """局分: game points."""
    return Fraction(rows[team].game_points)


def BGP(board: int) -> TieBreak:
    """Game points on ``board`` (1-based): ``BGP(1)`` is board 1's."""

    def bgp(team: str, rows: Rows) -> Fraction:
        pts = rows[team].board_points
        return Fraction(pts[board - 1] if board <= len(pts) else 0)

    bgp.__name__ = f"BGP{board}"
    return bgp


def SOS(team: str, rows: Rows) -> Fraction:
    """对手分: the sum of the match points of the team's opponents (once per meeting)."""
    return Fraction(sum(rows[o].match_points for o in rows[team].opponents))


def TOTAL(
    top_score: int | Literal["achieved"] | None = None, rounds: int | None = None
) -> TieBreak:
    """总得分 (R-RANK-SWISS A) on match points: points + (SOS / (top / 2) − rounds).

    Art. 27.2(2) computes it "与个人积分编排制比赛相同", i.e.
    ``个人积分+(对手积分总和/(最高积分/2)-轮次)``: the same number of rounds (轮次) for
    every team, not each team's own matches, so a team that withdrew (R-WD-1: no further
    pairing) is not spared the rounds it missed. ``rounds`` is the event's rounds so far;
    ``None`` takes the most matches any team has played (every team plays or has a bye,
    counted as a won match, in each round). ``top_score`` is the event's full score: ``None``
    takes 2 × rounds (the rule as written); ``"achieved"`` the highest match points achieved;
    a number is used as given.
    """

    def ts(team: str, rows: Rows) -> Fraction:
        n = rounds if rounds is not None else max(r.played for r in rows.values())
        if top_score == "achieved":
            top = max(r.match_points for r in rows.values())
        elif top_score is None:
            top = MATCH_WIN * n
        else:
            top = top_score
        row = rows[team]
        if top == 0:
            return Fraction(row.match_points)
        return row.match_points + (SOS(team, rows) / Fraction(top, 2) - n)

    ts.__name__ = "TOTAL"
    return ts


class TeamRanking(enum.Enum):
    """How a team event ranks (R-RANK-TEAM).

    Team Swiss, Art. 27.2(2): "团体成绩根据总得分或总积分的高低区分名次……若相同则依循环赛顺序
    区分名次".
    Read literally, "by total points (总积分), ties in the round-robin order" has no 对手分: it
    is ``ROUND_ROBIN`` (MP, GP, BGP1, …), which a Swiss team event may choose.
    ``SWISS_POINTS`` is RULES.md's reading (R-RANK-TEAM "as R-RANK-SWISS"), borrowing the
    individual method B's 对手分 before the round-robin keys.
    """

    ROUND_ROBIN = "round_robin"  # MP, GP, BGP1, BGP2, …
    SWISS_TOTAL_SCORE = "swiss_total_score"  # TOTAL, then as round robin
    SWISS_POINTS = "swiss_points"  # MP, SOS, then GP, BGP1, …


def tie_breaks(
    ranking: TeamRanking, boards: int, top_score: int | Literal["achieved"] | None = None
) -> tuple[TieBreak, ...]:
    """The keys of a ranking method, most important first."""
    per_board = tuple(BGP(b) for b in range(1, boards + 1))
    if ranking is TeamRanking.ROUND_ROBIN:
        return (MP, GP, *per_board)
    if ranking is TeamRanking.SWISS_TOTAL_SCORE:
        return (TOTAL(top_score), MP, GP, *per_board)
    return (MP, SOS, GP, *per_board)


@dataclass(frozen=True)
class TeamStanding:
    place: int
    team: str
    row: TeamRow
    keys: tuple[Fraction, ...]


def rank_by(keys: Mapping[str, tuple[Fraction, ...]]) -> list[tuple[int, str]]:
    """Places from key tuples (higher first); equal keys share a place, the next place skips.
    Teams of equal keys are listed by name so the order is reproducible."""
    ordered = sorted(keys, key=lambda t: (tuple(-k for k in keys[t]), t))
    out: list[tuple[int, str]] = []
    for i, team in enumerate(ordered):
        if i and keys[team] == keys[ordered[i - 1]]:
            out.append((out[-1][0], team))
        else:
            out.append((i + 1, team))
    return out


def team_standings(
    matches: Iterable[TeamMatch],
    teams: Iterable[str] = (),
    ranking: TeamRanking = TeamRanking.ROUND_ROBIN,
    board_one_decides: bool = False,
    top_score: int | Literal["achieved"] | None = None,
    byes: Iterable[str] = (),
) -> list[TeamStanding]:
    """The table of a team event; shared places where every key is equal (R-RANK-TEAM).
    ``byes`` (a Swiss's or a knockout's, once per bye) score as won matches."""
    matches = list(matches)
    rows = team_rows(matches, teams, board_one_decides, byes)
    boards = max((len(r.board_points) for r in rows.values()), default=0)
    breaks = tie_breaks(ranking, boards, top_score)
    keys = {t: tuple(tb(t, rows) for tb in breaks) for t in rows}
    return [TeamStanding(place, t, rows[t], keys[t]) for place, t in rank_by(keys)]


def members_total(
    members: Mapping[str, Sequence[str]],
    points: Mapping[str, int | Fraction],
    counted: int | None = None,
) -> list[tuple[int, str, Fraction]]:
    """队员总分制: each team scores the total of its members' individual points (the best
    ``counted`` members only, if the event says so); equal totals share a place.

    >>> members_total({"X": ["x1", "x2", "x3"], "Y": ["y1", "y2"]},
    ...               {"x1": 6, "x2": 2, "x3": 4, "y1": 8, "y2": 2}, counted=2)
    [(1, 'X', Fraction(10, 1)), (1, 'Y', Fraction(10, 1))]
    """
    if counted is not None and counted < 1:
        raise InvalidSetting("counted", Msg("at least one member's points must count"))
    totals: dict[str, Fraction] = {}
    for team, players in members.items():
        pts = sorted((Fraction(points.get(p, 0)) for p in players), reverse=True)
        totals[team] = sum(pts[:counted] if counted is not None else pts, Fraction(0))
    return [(place, t, totals[t]) for place, t in rank_by({t: (v,) for t, v in totals.items()})]
