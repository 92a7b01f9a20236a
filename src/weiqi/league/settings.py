"""The settings of a team event: how its teams meet (a :class:`System` of
:data:`TEAM_SYSTEMS`), how many boards a
match has, how lineups are given and how matches and teams are ranked — one frozen value,
checked when made, stored as JSON beside an individual event's (``settings_to_dict``).

>>> s = TeamEventSettings(system="swiss", rounds=5, boards=3)
>>> s.system, s.boards, s.ruleset.board_size
(<System.SWISS: 'swiss'>, 3, 19)
>>> team_settings_from_dict(settings_to_dict(s)) == s
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from weiqi.errors import InvalidSetting
from weiqi.league.lineup import LineupSettings, MissingLineup
from weiqi.league.match import BoardColors
from weiqi.league.standings import TeamRanking
from weiqi.league.team import TeamType
from weiqi.league.winner_stays_on import PlayerOrder
from weiqi.messages import Msg
from weiqi.rules.ruleset import set_choices
from weiqi.tournament.settings import (
    TEAM_SYSTEMS,
    PlaySettings,
    System,
    SystemVariants,
    check_system,
    declare_variants,
    declared_choices,
    round_robin_rounds,
    settings_to_dict,
    variant_from_dict,
)

__all__ = [
    "StageSettings",
    "TeamEventSettings",
    "TeamKnockoutSettings",
    "TeamRoundRobinSettings",
    "TeamRules",
    "TeamSwissSettings",
    "settings_to_dict",
    "team_settings_from_dict",
]


@dataclass(frozen=True, kw_only=True)
class TeamRules:
    """How two teams meet, declared once for a team event (:class:`TeamEventSettings`) and a
    league season (``league.season.SeasonSettings``, which gives them to its divisions): the
    team type, the boards of a match and their colours, the lineup rules (foreign players,
    substitutes, a missing lineup) and whether board 1 decides a drawn match. Keyword
    arguments only.

    >>> TeamEventSettings(boards=3, max_foreign=1).lineup.max_foreign
    1
    """

    team_type: TeamType = TeamType.PER_ROUND
    boards: int = 4
    board_colors: BoardColors = BoardColors.ALTERNATE
    max_foreign: int | None = None
    substitutes: bool | None = None
    missing: MissingLineup = MissingLineup.FORFEIT
    board_one_decides: bool = False

    @property
    def lineup(self) -> LineupSettings:
        """The lineup rules of a match (``LineupSettings`` checks them)."""
        return LineupSettings(
            self.boards, self.team_type, self.max_foreign, self.substitutes, self.missing
        )


@dataclass(frozen=True)
class TeamEventSettings(SystemVariants, TeamRules, PlaySettings):
    """The settings of a team event: one typed variant per system, as an individual event's
    (:class:`~weiqi.tournament.settings.SystemVariants`): a round robin's holds its
    ``cycles``, a 擂台赛's its ``player_order``; a value made without a system is a round
    robin's.

    ``deadline_minutes``: lineups close this long before a round's start (a round paired without
    a start closes when its lineups are revealed). ``rounds`` is required for a Swiss.
    ``seed`` seeds nigiri and Swiss colour ties.
    ``play`` and ``game_start`` as an individual event's (:class:`PlaySettings`): over the
    board by default; online, each board is played in the game room once its round's lineups
    are revealed, starting when both players are in or at the round's start. The colours stay
    the boards' (``board_colors``): a team board is never drawn by nigiri. ``lag_gain`` and
    ``lag_cap``: the network-lag allowance of its online boards, as an individual event's
    (:attr:`PlaySettings.lag`).

    >>> TeamEventSettings(play="online").online, TeamEventSettings().game_start.value
    (True, 'present')
    >>> type(TeamEventSettings()).__name__, TeamEventSettings(cycles=2).cycle_count
    ('TeamRoundRobinSettings', 2)
    >>> TeamEventSettings(system="swiss", rounds=5, cycles=2)
    Traceback (most recent call last):
    ...
    weiqi.errors.InvalidSetting: cycles: applies to round_robin only, not to swiss
    """

    SYSTEMS: ClassVar[tuple[System, ...]] = TEAM_SYSTEMS
    DEFAULT_SYSTEM: ClassVar[System | None] = System.ROUND_ROBIN

    system: System = System.ROUND_ROBIN
    deadline_minutes: int = 30
    rounds: int | None = None
    ranking: TeamRanking = TeamRanking.ROUND_ROBIN
    seed: int = 0

    def __post_init__(self) -> None:
        set_choices(self, declared_choices(type(self)))
        check_system(self.system, self.SYSTEMS, Msg("a team event"))
        self._check_play()  # its boards' size, komi (no handicap: none on a team board), …
        if self.team_type.plays_board_matches:
            self.lineup  # noqa: B018 — LineupSettings checks boards and the foreign limit
        elif self.boards < 1:
            raise InvalidSetting("boards", Msg("at least one"))
        if self.system is System.SWISS and (self.rounds is None or self.rounds < 1):
            raise InvalidSetting("rounds", Msg("a Swiss needs its number of rounds"))
        if self.deadline_minutes < 0:
            raise InvalidSetting("deadline_minutes", Msg("cannot be negative"))
        if self.team_type is TeamType.ROTATION and self.system is System.KNOCKOUT:
            raise InvalidSetting("team_type", Msg("全队轮赛制 matches are played in a round robin"))

    @property
    def stage(self) -> bool:
        """A 擂台赛: one round, its games its matches one after the other, and ``boards`` the
        number of players in each team's order."""
        return self.system is System.WINNER_STAYS_ON

    @property
    def tiebreak_codes(self) -> tuple[str, ...]:
        """The codes the teams are ranked by, most important first (R-RANK-TEAM): the
        ranking's, over the event's boards — the one registry's codes, as an individual
        event's tie-breaks are.

        >>> TeamEventSettings(boards=3).tiebreak_codes
        ('MP', 'GP', 'B1', 'B2', 'B3')
        """
        return self.ranking.codes(self.boards)

    def planned_rounds(self, teams: int) -> int | None:
        """The rounds the event plays with ``teams`` teams: a Swiss's setting, a round robin's
        schedule (one round more for an odd number, per cycle), a knockout's rounds to a
        final, a 擂台赛's one; None while there are too few teams to tell.

        >>> [TeamEventSettings(cycles=2).planned_rounds(n) for n in (1, 4, 5)]
        [None, 6, 10]
        >>> TeamEventSettings(system="knockout").planned_rounds(5)
        3
        """
        if self.system is System.ROUND_ROBIN:
            return round_robin_rounds(teams, self.cycle_count)
        if self.system is System.WINNER_STAYS_ON:
            return 1
        if self.system is System.KNOCKOUT and self.rounds is None:
            return (teams - 1).bit_length() if teams > 1 else None
        return self.rounds


@dataclass(frozen=True)
class TeamRoundRobinSettings(TeamEventSettings):
    """A team round robin's settings: one or two ``cycles``."""

    SYSTEMS: ClassVar[tuple[System, ...]] = (System.ROUND_ROBIN,)
    cycles: int = 1

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.cycles not in (1, 2):
            raise InvalidSetting("cycles", Msg("a team round robin has one or two cycles"))

    @property
    def cycle_count(self) -> int:
        return self.cycles


@dataclass(frozen=True)
class TeamSwissSettings(TeamEventSettings):
    """A team Swiss's settings: those of every team event (its rounds are required)."""

    SYSTEMS: ClassVar[tuple[System, ...]] = (System.SWISS,)


@dataclass(frozen=True)
class TeamKnockoutSettings(TeamEventSettings):
    """A team knockout's settings: those of every team event."""

    SYSTEMS: ClassVar[tuple[System, ...]] = (System.KNOCKOUT,)


@dataclass(frozen=True)
class StageSettings(TeamEventSettings):
    """A 擂台赛's settings: the order each team sends its players in (``player_order``)."""

    SYSTEMS: ClassVar[tuple[System, ...]] = (System.WINNER_STAYS_ON,)
    player_order: PlayerOrder = PlayerOrder.FIXED


declare_variants(
    TeamEventSettings,
    TeamRoundRobinSettings,
    TeamSwissSettings,
    TeamKnockoutSettings,
    StageSettings,
)


def team_settings_from_dict(data: object) -> TeamEventSettings:
    """Inverse of ``settings_to_dict`` for a team event: unknown keys, values of the wrong type
    and values the settings refuse are ``InvalidSetting`` naming the setting.

    >>> team_settings_from_dict({"boards": 3}).boards
    3
    >>> team_settings_from_dict({"team_type": "club"})
    Traceback (most recent call last):
    ...
    weiqi.errors.InvalidSetting: team_type: 'club' is not one of fixed_boards | ...
    """
    return variant_from_dict(TeamEventSettings, data)
