"""Teams, rosters and the team types of R-FMT-1.

A team registers a roster; the team type says how its players reach the boards:

========================  ==================================================================
分台定人制 FIXED_BOARDS    board order by rank, then recent rating, fixed for the whole event
定台换人制 FIXED_ORDER     the team declares an order once; substitutes may come in, the
                          relative order of the players always holds
临场出人制 PER_ROUND       the coach submits a lineup before each round; substitutes, free order
全队轮赛制 ROTATION        every member of one team plays every member of the other
队员总分制 MEMBERS_TOTAL   members play as individuals; the team scores their total
========================  ==================================================================

>>> roster = (
...     RosterEntry("li", "Li", Rank.parse("7d"), rating=2400),
...     RosterEntry("wang", "Wang", Rank.parse("9p"), rating=2700),
...     RosterEntry("zhao", "Zhao", Rank.parse("7d"), rating=2500),
... )
>>> fixed_board_order(roster)
('wang', 'zhao', 'li')
"""

from __future__ import annotations

import enum
from collections.abc import Container, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date

from weiqi.errors import InvalidSetting
from weiqi.messages import Msg
from weiqi.tournament.ranks import Rank


class TeamType(enum.Enum):
    """The team types of R-FMT-1; the properties are the rules each type implies."""

    FIXED_BOARDS = "fixed_boards"  # 分台定人制
    FIXED_ORDER = "fixed_order"  # 定台换人制
    PER_ROUND = "per_round"  # 临场出人制
    ROTATION = "rotation"  # 全队轮赛制
    MEMBERS_TOTAL = "members_total"  # 队员总分制

    @property
    def zh(self) -> str:
        return _TEAM_TYPE_ZH[self]

    @property
    def order_fixed_for_event(self) -> bool:
        """Players keep their relative board order for the whole event."""
        return self in (TeamType.FIXED_BOARDS, TeamType.FIXED_ORDER)

    @property
    def order_from_rank_and_rating(self) -> bool:
        """The event computes the order (rank, then recent rating), not the team."""
        return self is TeamType.FIXED_BOARDS

    @property
    def lineup_each_round(self) -> bool:
        """The coach submits a lineup before every round (secret until the deadline)."""
        return self in (TeamType.PER_ROUND, TeamType.FIXED_ORDER, TeamType.ROTATION)

    @property
    def substitutes_by_default(self) -> bool:
        """Whether substitutes may play unless the event settings say otherwise."""
        return self is not TeamType.FIXED_BOARDS

    @property
    def plays_board_matches(self) -> bool:
        """Teams meet in matches over boards; members' total events pair individuals."""
        return self is not TeamType.MEMBERS_TOTAL


_TEAM_TYPE_ZH = {
    TeamType.FIXED_BOARDS: "分台定人制",
    TeamType.FIXED_ORDER: "定台换人制",
    TeamType.PER_ROUND: "临场出人制",
    TeamType.ROTATION: "全队轮赛制",
    TeamType.MEMBERS_TOTAL: "队员总分制",
}


@dataclass(frozen=True)
class RosterEntry:
    """A player registered for a team. ``foreign`` marks a 外援; ``protected`` marks a player the
    club keeps out of the transfer draft (R-LEAGUE-2). ``birth_date`` tells two namesakes of
    one team apart."""

    player_id: str
    name: str
    rank: Rank
    rating: int = 0
    nationality: str = ""
    foreign: bool = False
    protected: bool = False
    birth_date: date | None = None


@dataclass(frozen=True)
class Team:
    """A team (or a league club's team) with its roster. ``order`` is the declared board order of
    a 定台换人制 team (player ids); other types leave it empty."""

    team_id: str
    name: str
    roster: tuple[RosterEntry, ...]
    club: str = ""
    coach: str = ""
    captain: str = ""
    order: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        ids = [e.player_id for e in self.roster]
        seen: set[str] = set()
        for pid in ids:
            if pid in seen:
                raise InvalidSetting(
                    f"team {self.team_id} roster", Msg("player %(pid)s listed twice", pid=pid)
                )
            seen.add(pid)
        for pid in self.order:
            if pid not in seen:
                raise InvalidSetting(
                    f"team {self.team_id} order", Msg("%(pid)s is not on the roster", pid=pid)
                )
        if len(set(self.order)) != len(self.order):
            raise InvalidSetting(f"team {self.team_id} order", Msg("a player is listed twice"))
        if self.captain and self.captain not in seen:
            raise InvalidSetting(
                f"team {self.team_id} captain",
                Msg("%(captain)s not on roster", captain=self.captain),
            )

    def entry(self, player_id: str) -> RosterEntry | None:
        for e in self.roster:
            if e.player_id == player_id:
                return e
        return None

    @property
    def player_ids(self) -> tuple[str, ...]:
        return tuple(e.player_id for e in self.roster)

    def with_roster(self, roster: Iterable[RosterEntry]) -> Team:
        """The same team with another roster (after a draft); a declared order is dropped."""
        return Team(self.team_id, self.name, tuple(roster), self.club, self.coach, self.captain)


MAX_CODE = 200
"""The longest player code (the store's column)."""


def free_code(name: str, team: str, taken: Container[str], birth_date: date | None = None) -> str:
    """The code of a player entered without an id: the name while no player of the event has
    it as a code; for a namesake the name with the team (then the birth date) that tells them
    apart, numbered only if nothing else does. A code never changes once given: it is an id,
    not the name shown (a renamed player keeps it).

    >>> free_code("张伟", "黑龙", set()), free_code("张伟", "白虎", {"张伟"})
    ('张伟', '张伟 (白虎)')
    >>> free_code("张伟", "白虎", {"张伟", "张伟 (白虎)"}, date(1990, 3, 1))
    '张伟 (白虎, 1990-03-01)'
    >>> free_code("张伟", "白虎", {"张伟", "张伟 (白虎)"})
    '张伟 (白虎) #2'
    """
    tried = [name, f"{name} ({team})"]
    if birth_date is not None:
        tried.append(f"{name} ({team}, {birth_date.isoformat()})")
    for code in tried:
        if code not in taken and len(code) <= MAX_CODE:
            return code
    base = tried[1] if len(tried[1]) <= MAX_CODE - 8 else name[: MAX_CODE - 8]
    n = 2
    while f"{base} #{n}" in taken:
        n += 1
    return f"{base} #{n}"


def fixed_board_order(roster: Sequence[RosterEntry]) -> tuple[str, ...]:
    """分台定人制: board order by rank (strongest first), then by recent rating (highest first).

    Players equal in both keep their roster order: the organiser decides such a tie by listing,
    the software never invents a decision.
    """
    # sorted() is stable under reverse=True, so equal players keep their roster order
    ordered = sorted(roster, key=lambda e: (e.rank.strength, e.rating), reverse=True)
    return tuple(e.player_id for e in ordered)


def event_order(team: Team, team_type: TeamType) -> tuple[str, ...]:
    """The order a team's players keep for the event, or ``()`` where the order is free.

    FIXED_BOARDS computes it; FIXED_ORDER uses the team's declared order, or rank-and-rating order
    when none is declared.
    """
    if team_type is TeamType.FIXED_BOARDS:
        return fixed_board_order(team.roster)
    if team_type is TeamType.FIXED_ORDER:
        return team.order if team.order else fixed_board_order(team.roster)
    return ()
