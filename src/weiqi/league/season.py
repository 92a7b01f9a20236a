"""A club league season (R-LEAGUE-1): a division's clubs meet twice on a dated Berger calendar;
each round every club fields ``boards`` players of its roster (about 6), chosen by the coach
before the deadline, with a per-round limit on foreign players; matches score by R-SCORE-TEAM-1
and the table ranks by R-RANK-TEAM. At the season's end the bottom clubs of the top division go
down and the top of the lower division comes up.

>>> from weiqi.tournament.ranks import Rank
>>> def club(c):
...     return Team(c, c, tuple(RosterEntry(f"{c}{i}", f"{c}{i}", Rank.parse("5p"))
...                             for i in range(1, 4)))
>>> s = Season("甲", [club(c) for c in "ABC"], SeasonSettings(boards=2, min_roster=2, max_roster=3))
>>> len(s.calendar), [(f.home, f.away) for f in s.fixtures(1)]  # 3 clubs: one rests each round
(6, [('B', 'C')])
>>> box = s.lineup_box(1, deadline=10.0)
>>> box.submit(s.team("B"), ["B1", "B3"], now=1.0)
>>> [m] = s.start_round(1, box.reveal(now=10.0))  # C sent nothing: both its boards are lost
>>> m.finished, m.score().winner
(True, 'B')
"""

from __future__ import annotations

import datetime
import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from random import Random

from weiqi.errors import Conflict, InputError, InvalidSetting
from weiqi.league.calendar import Fixture, double_round_robin
from weiqi.league.lineup import (
    Lineup,
    LineupBox,
    MissingLineup,
    lineups_for_round,
    validate_lineup,
)
from weiqi.league.match import TeamMatch, board_colors
from weiqi.league.settings import TeamEventSettings, TeamRoundRobinSettings, TeamRules
from weiqi.league.standings import TeamRanking, TeamStanding, team_standings
from weiqi.league.team import RosterEntry, Team, TeamType
from weiqi.messages import Msg
from weiqi.rules.result import Result
from weiqi.rules.ruleset import set_choices
from weiqi.tournament.settings import PlaySettings, System, declared_choices

__all__ = [
    "RosterEntry",
    "Season",
    "SeasonSettings",
    "Team",
    "WithdrawalPolicy",
    "final_order",
    "promotion_and_relegation",
]


class WithdrawalPolicy(enum.Enum):
    """What a club's withdrawal does to its matches (event setting, R-WD-1)."""

    # team events (Art. 28.4): the matches played stand, the rest are forfeits
    RESULTS_STAND = "results_stand"
    # the round robin rule (Art. 28.2) applied to the club: under half its matches played → all
    # of them are void (the club leaves the table); at least half → stand, the rest forfeits
    ROUND_ROBIN = "round_robin"


@dataclass(frozen=True, kw_only=True)
class SeasonSettings(TeamRules, PlaySettings):
    """The rules of one league season; the defaults are those of 围甲 (R-LEAGUE-1): one
    foreign player a round, a club's previous lineup when it submits none. How its clubs meet
    (:class:`TeamRules`) and how their boards are played (:class:`PlaySettings`: board, komi,
    repetitions, time control, over the board or online) are the season's, each division's
    to start with."""

    max_foreign: int | None = 1
    missing: MissingLineup = MissingLineup.PREVIOUS
    min_roster: int = 4
    max_roster: int = 6
    promoted: int = 2  # clubs of the lower division that go up
    relegated: int = 2  # clubs of the top division that go down
    withdrawal: WithdrawalPolicy = WithdrawalPolicy.RESULTS_STAND

    def __post_init__(self) -> None:
        set_choices(self, declared_choices(SeasonSettings))
        self._check_play()
        if self.min_roster < self.boards:
            raise InvalidSetting(
                "min_roster", Msg("a club fields %(boards)s players a round", boards=self.boards)
            )
        if self.max_roster < self.min_roster:
            raise InvalidSetting("max_roster", Msg("smaller than min_roster"))
        if self.team_type in (TeamType.ROTATION, TeamType.MEMBERS_TOTAL):
            raise InvalidSetting(
                "team_type",
                Msg("a league season plays board matches, not %(zh)s", zh=self.team_type.zh),
            )
        if self.promoted < 0 or self.relegated < 0:
            raise InvalidSetting("promoted/relegated", Msg("cannot be negative"))

    @property
    def division(self) -> TeamEventSettings:
        """The team settings each division of the season plays by: a double round robin
        (R-LEAGUE-1) ranked as one, its lineups closing when a round is revealed, with the
        season's boards, lineup rules and play.

        >>> d = SeasonSettings(boards=3, min_roster=3, play="online", time_control="3x30s").division
        >>> d.system.value, d.cycles, d.boards, d.online, d.time_control.format()
        ('round_robin', 2, 3, True, '3x30s')
        """
        shared = (*fields(TeamRules), *fields(PlaySettings))  # the season's, by their names
        return TeamRoundRobinSettings(
            system=System.ROUND_ROBIN,
            deadline_minutes=0,
            cycles=2,
            ranking=TeamRanking.ROUND_ROBIN,
            **{f.name: getattr(self, f.name) for f in shared},
        )


class Season:
    """One division's season: calendar, lineups, matches and table.

    ``rng`` is used only for nigiri board colours; pass ``random.Random(seed)`` and record the seed.
    """

    def __init__(
        self,
        division: str,
        teams: Sequence[Team],
        settings: SeasonSettings = SeasonSettings(),
        dates: Sequence[datetime.date] | None = None,
        rng: Random | None = None,
    ) -> None:
        self.division = division
        self.settings = settings
        self.lineup_settings = settings.lineup
        self._teams = {t.team_id: t for t in teams}
        if len(self._teams) != len(teams):
            raise InvalidSetting("teams", Msg("a club is entered twice"))
        for t in teams:
            n = len(t.roster)
            if not settings.min_roster <= n <= settings.max_roster:
                raise InvalidSetting(
                    f"roster of {t.team_id}",
                    Msg(
                        "%(n)s players; a club registers %(min_roster)s to %(max_roster)s",
                        n=n,
                        min_roster=settings.min_roster,
                        max_roster=settings.max_roster,
                    ),
                )
        self.calendar: list[list[Fixture]] = double_round_robin([t.team_id for t in teams], dates)
        self._rng = rng
        self.matches: dict[tuple[int, str], TeamMatch] = {}  # (round, home club) → match
        self.played_lineups: dict[int, dict[str, Lineup | None]] = {}
        self.withdrawn: dict[str, int] = {}  # club → first round it no longer plays

    # -- reading -----------------------------------------------------------------------------------

    def team(self, team_id: str) -> Team:
        try:
            return self._teams[team_id]
        except KeyError:
            raise InputError(
                Msg("club %(team_id)s", team_id=team_id),
                Msg("not in division %(division)s", division=self.division),
            ) from None

    @property
    def team_ids(self) -> tuple[str, ...]:
        return tuple(self._teams)

    @property
    def rounds(self) -> int:
        return len(self.calendar)

    def fixtures(self, round_number: int) -> list[Fixture]:
        if not 1 <= round_number <= self.rounds:
            raise InputError(
                Msg("round %(round_number)s", round_number=round_number),
                Msg("the season has rounds 1 to %(rounds)s", rounds=self.rounds),
            )
        return self.calendar[round_number - 1]

    def match(self, round_number: int, club: str) -> TeamMatch:
        for f in self.fixtures(round_number):
            if club in (f.home, f.away) and (round_number, f.home) in self.matches:
                return self.matches[(round_number, f.home)]
        raise InputError(
            Msg("round %(round_number)s", round_number=round_number),
            Msg("%(club)s has no match under way", club=club),
        )

    def voided(self) -> frozenset[str]:
        """Withdrawn clubs whose matches are all void (``WithdrawalPolicy.ROUND_ROBIN`` and
        fewer than half of their matches played before withdrawing)."""
        if self.settings.withdrawal is not WithdrawalPolicy.ROUND_ROBIN:
            return frozenset()
        out = set()
        for club, from_round in self.withdrawn.items():
            scheduled = sum(1 for rnd in self.calendar for f in rnd if club in (f.home, f.away))
            played = sum(
                1
                for rnd in self.calendar[: from_round - 1]
                for f in rnd
                if club in (f.home, f.away)
            )
            if 2 * played < scheduled:
                out.add(club)
        return frozenset(out)

    def table(self, upto: int | None = None) -> list[TeamStanding]:
        """The table over finished matches (of rounds up to ``upto``), R-RANK-TEAM; clubs whose
        results are void (:meth:`voided`) leave it with all their matches."""
        void = self.voided()
        chosen = [
            m
            for (r, _), m in self.matches.items()
            if (upto is None or r <= upto) and m.a not in void and m.b not in void
        ]
        teams = [t for t in self.team_ids if t not in void]
        return team_standings(
            chosen, teams, TeamRanking.ROUND_ROBIN, self.settings.board_one_decides
        )

    @property
    def finished(self) -> bool:
        return all(
            (f.round, f.home) in self.matches and self.matches[(f.round, f.home)].finished
            for rnd in self.calendar
            for f in rnd
        )

    # -- playing -----------------------------------------------------------------------------------

    def lineup_box(self, round_number: int, deadline: float) -> LineupBox:
        """A box for the round's sealed lineups (the store keeps it; here it is a value)."""
        self.fixtures(round_number)
        return LineupBox(deadline, self.lineup_settings)

    def previous_lineups(self, round_number: int) -> dict[str, Lineup]:
        """Each club's most recent lineup before ``round_number`` (for the PREVIOUS fallback)."""
        out: dict[str, Lineup] = {}
        for r in sorted(self.played_lineups):
            if r >= round_number:
                break
            for club, lineup in self.played_lineups[r].items():
                if lineup is not None:
                    out[club] = lineup
        return out

    def start_round(self, round_number: int, revealed: Mapping[str, Lineup]) -> list[TeamMatch]:
        """Seat the round's matches from the revealed lineups, applying the missing-lineup
        setting; a withdrawn club fields nobody and loses every board by forfeit (R-WD-1)."""
        fixtures = self.fixtures(round_number)
        if round_number in self.played_lineups:
            raise Conflict(
                Msg("round %(round_number)s has already started", round_number=round_number)
            )
        if round_number > 1 and round_number - 1 not in self.played_lineups:
            raise Conflict(Msg("round %(value)s has not started", value=round_number - 1))
        for club, lineup in revealed.items():
            validate_lineup(self.team(club), lineup, self.lineup_settings)
        playing = [c for f in fixtures for c in (f.home, f.away)]
        lineups = lineups_for_round(
            revealed, playing, self.previous_lineups(round_number), self.lineup_settings
        )
        for club in playing:
            if club in self.withdrawn and round_number >= self.withdrawn[club]:
                lineups[club] = None
        started = []
        for f in fixtures:
            cols = board_colors(self.settings.boards, self.settings.board_colors, self._rng)
            m = TeamMatch.pair(
                f.home, f.away, lineups[f.home], lineups[f.away], cols, self.settings.boards
            )
            self.matches[(round_number, f.home)] = m
            started.append(m)
        self.played_lineups[round_number] = lineups
        return started

    def record(self, round_number: int, club: str, board: int, result: Result) -> TeamMatch:
        """Record one board's result of ``club``'s match (colours as the match seated them)."""
        m = self.match(round_number, club)
        updated = m.record(board, result)
        self.matches[(round_number, m.a)] = updated
        return updated

    def withdraw(self, club: str, from_round: int) -> None:
        """R-WD-1: from ``from_round`` on the club fields nobody, so each of its later boards is
        lost by forfeit; its earlier results stand, or are void under
        ``WithdrawalPolicy.ROUND_ROBIN`` when it played fewer than half its matches (see
        :meth:`voided`)."""
        self.team(club)
        self.fixtures(from_round)
        if any(r >= from_round and club in ls for r, ls in self.played_lineups.items()):
            raise Conflict(
                Msg(
                    "round %(from_round)s has already started for %(club)s",
                    from_round=from_round,
                    club=club,
                )
            )
        self.withdrawn[club] = from_round


def final_order(standings: Sequence[TeamStanding], cuts: Iterable[int]) -> list[str]:
    """The clubs in table order, refusing a shared place that straddles a cut (e.g. after 10th
    place for two relegations in 12): such a tie needs a playoff (加赛, R-PLAYOFF) first."""
    order = [s.team for s in standings]
    for cut in cuts:
        if 0 < cut < len(standings) and standings[cut - 1].place == standings[cut].place:
            tied = [s.team for s in standings if s.place == standings[cut].place]
            raise Conflict(
                Msg(
                    "place %(place)s is shared by %(tied)s across the "
                    "promotion/relegation line; a playoff (加赛) must decide",
                    place=standings[cut].place,
                    tied=", ".join(tied),
                )
            )
    return order


def promotion_and_relegation(
    top: Sequence[str], lower: Sequence[str], promoted: int, relegated: int
) -> tuple[list[str], list[str]]:
    """Next season's divisions from this season's final orders (best first).

    >>> promotion_and_relegation(["A", "B", "C", "D"], ["e", "f", "g"], promoted=2, relegated=1)
    (['A', 'B', 'C', 'e', 'f'], ['D', 'g'])
    """
    if relegated > len(top) or promoted > len(lower):
        raise InvalidSetting("promoted/relegated", Msg("more clubs move than the divisions hold"))
    stay_top = list(top[: len(top) - relegated])
    down = list(top[len(top) - relegated :])
    up = list(lower[:promoted])
    stay_lower = list(lower[promoted:])
    return stay_top + up, down + stay_lower
