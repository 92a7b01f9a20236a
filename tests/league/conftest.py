"""Small builders shared by the league tests."""

from __future__ import annotations

from weiqi.league.team import RosterEntry, Team
from weiqi.tournament.ranks import Rank


def entry(pid: str, rank: str = "5p", rating: int = 2500, foreign: bool = False) -> RosterEntry:
    return RosterEntry(
        pid, pid.upper(), Rank.parse(rank), rating, "KR" if foreign else "CN", foreign
    )


def team(tid: str, *entries: RosterEntry, order: tuple[str, ...] = ()) -> Team:
    return Team(
        tid, tid.title(), tuple(entries), club=f"{tid} club", coach=f"coach {tid}", order=order
    )
