"""Lineups (出场名单): validation against the team type and the event's settings, and the box that
keeps them secret until the deadline (R-FMT-1, R-LEAGUE-1).

>>> from weiqi.tournament.ranks import Rank
>>> from weiqi.league.team import RosterEntry
>>> team = Team("tj", "Tianjin", tuple(
...     RosterEntry(p, p.title(), Rank.parse("5p"), nationality=n, foreign=f)
...     for p, n, f in [("a", "CN", False), ("b", "KR", True), ("c", "KR", True),
...                     ("d", "CN", False), ("e", "CN", False)]))
>>> settings = LineupSettings(boards=4, max_foreign=1)
>>> validate_lineup(team, ("a", "b", "d", "e"), settings)
('a', 'b', 'd', 'e')
>>> validate_lineup(team, ("a", "b", "c", "d"), settings)
Traceback (most recent call last):
...
weiqi.errors.LineupRejected: lineup of tj: 2 foreign players (b, c); at most 1 may play a round
>>> box = LineupBox(deadline=100.0, settings=settings)
>>> box.submit(team, ("a", "b", "d", "e"), now=90.0)
>>> box.reveal(now=99.0)
Traceback (most recent call last):
...
weiqi.errors.LineupRejected: lineup of all teams: secret until the deadline (100.0), now 99.0
>>> box.reveal(now=100.0)
{'tj': ('a', 'b', 'd', 'e')}
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from weiqi.errors import InvalidSetting, LineupRejected
from weiqi.league.team import Team, TeamType, event_order
from weiqi.messages import Msg

Lineup = tuple[str, ...]
"""Player ids by board: ``lineup[0]`` plays board 1."""


class MissingLineup(enum.Enum):
    """What happens when a team submits no lineup by the deadline (event setting)."""

    PREVIOUS = "previous"  # the team's previous lineup plays again (forfeit if it has none)
    FORFEIT = "forfeit"  # every board of the team is empty and lost by forfeit


@dataclass(frozen=True)
class LineupSettings:
    """The event's lineup rules.

    ``substitutes`` is ``None`` to take the team type's default (R-FMT-1: substitute rules are
    event settings); ``max_foreign`` is the per-round limit on foreign players (``None``: no limit).
    """

    boards: int = 4
    team_type: TeamType = TeamType.PER_ROUND
    max_foreign: int | None = None
    substitutes: bool | None = None
    missing: MissingLineup = MissingLineup.FORFEIT

    def __post_init__(self) -> None:
        if self.boards < 1:
            raise InvalidSetting("boards", Msg("a team match needs at least one board"))
        if self.max_foreign is not None and self.max_foreign < 0:
            raise InvalidSetting("max_foreign", Msg("cannot be negative"))
        if not self.team_type.plays_board_matches:
            raise InvalidSetting(
                "team_type",
                Msg("%(zh)s scores members individually; no lineups", zh=self.team_type.zh),
            )

    @property
    def substitutes_allowed(self) -> bool:
        if self.substitutes is None:
            return self.team_type.substitutes_by_default
        return self.substitutes


def validate_lineup(team: Team, lineup: Sequence[str], settings: LineupSettings) -> Lineup:
    """Return the lineup as a tuple, or raise :class:`LineupRejected` naming the first problem."""
    players = tuple(lineup)
    tid = team.team_id

    def reject(reason: Msg) -> LineupRejected:
        return LineupRejected(tid, reason)

    if len(players) != settings.boards:
        raise reject(
            Msg(
                "%(players)s players for %(boards)s boards",
                players=len(players),
                boards=settings.boards,
            )
        )
    seen: set[str] = set()
    for board, pid in enumerate(players, start=1):
        if pid in seen:
            raise reject(
                Msg(
                    "player %(pid)s on more than one board (again on board %(board)s)",
                    pid=pid,
                    board=board,
                )
            )
        seen.add(pid)
        if team.entry(pid) is None:
            raise reject(
                Msg("board %(board)s: player %(pid)s is not on the roster", board=board, pid=pid)
            )
    if settings.max_foreign is not None:
        foreign = [p for p in players if _is_foreign(team, p)]
        if len(foreign) > settings.max_foreign:
            raise reject(
                Msg(
                    "%(count)s foreign players (%(players)s); at most "
                    "%(max_foreign)s may play a round",
                    count=len(foreign),
                    players=", ".join(foreign),
                    max_foreign=settings.max_foreign,
                )
            )
    order = event_order(team, settings.team_type)
    if settings.team_type.order_fixed_for_event:
        if not settings.substitutes_allowed:
            expected = order[: settings.boards]
            if players != expected:
                raise reject(
                    Msg(
                        "%(zh)s without substitutes: the boards are %(expected)s",
                        zh=settings.team_type.zh,
                        expected=", ".join(expected),
                    )
                )
        else:
            _check_relative_order(tid, players, order)
    elif not settings.substitutes_allowed and len(team.roster) > settings.boards:
        # No substitutes: only the first registered players may ever play.
        allowed = set(team.player_ids[: settings.boards])
        for pid in players:
            if pid not in allowed:
                raise reject(
                    Msg("player %(pid)s is a substitute and substitutes may not play", pid=pid)
                )
    return players


def _is_foreign(team: Team, player_id: str) -> bool:
    entry = team.entry(player_id)
    return entry is not None and entry.foreign


def _check_relative_order(team_id: str, players: Lineup, order: tuple[str, ...]) -> None:
    position = {pid: i for i, pid in enumerate(order)}
    for board, pid in enumerate(players, start=1):
        if pid not in position:
            raise LineupRejected(
                team_id,
                Msg(
                    "board %(board)s: player %(pid)s has no place in the order",
                    board=board,
                    pid=pid,
                ),
            )
    for board in range(1, len(players)):
        above, below = players[board - 1], players[board]
        if position[above] > position[below]:
            raise LineupRejected(
                team_id,
                Msg(
                    "board %(board)s %(above)s and board %(value)s %(below)s break the order",
                    board=board,
                    above=above,
                    value=board + 1,
                    below=below,
                ),
            )


class LineupBox:
    """Sealed lineups of one round: submitted until ``deadline``, revealed together after it.

    A team may resubmit before the deadline (the last one counts). Times are plain numbers.
    """

    def __init__(self, deadline: float, settings: LineupSettings) -> None:
        self.deadline = deadline
        self.settings = settings
        self._sealed: dict[str, Lineup] = {}

    def submit(self, team: Team, lineup: Sequence[str], now: float) -> None:
        if now >= self.deadline:
            raise LineupRejected(
                team.team_id,
                Msg(
                    "submitted at %(now)s, after the deadline (%(deadline)s)",
                    now=now,
                    deadline=self.deadline,
                ),
            )
        self._sealed[team.team_id] = validate_lineup(team, lineup, self.settings)

    def submitted(self, team_id: str) -> bool:
        """Whether a team has submitted; this, not the lineup, may be shown before the deadline."""
        return team_id in self._sealed

    def reveal(self, now: float) -> dict[str, Lineup]:
        """All submitted lineups, only once the deadline has come."""
        if now < self.deadline:
            raise LineupRejected(
                "all teams",
                Msg(
                    "secret until the deadline (%(deadline)s), now %(now)s",
                    deadline=self.deadline,
                    now=now,
                ),
            )
        return dict(self._sealed)


def lineups_for_round(
    revealed: Mapping[str, Lineup],
    team_ids: Sequence[str],
    previous: Mapping[str, Lineup],
    settings: LineupSettings,
) -> dict[str, Lineup | None]:
    """The lineup each team plays with: its own, or the fallback of ``settings.missing``.

    ``None`` means the team fields nobody: each of its boards is lost by forfeit.
    """
    out: dict[str, Lineup | None] = {}
    for tid in team_ids:
        if tid in revealed:
            out[tid] = revealed[tid]
        elif settings.missing is MissingLineup.PREVIOUS:
            out[tid] = previous.get(tid)
        else:
            out[tid] = None
    return out
