"""One system object pairs players and teams (R-FMT-1 individual and team events, R-FMT-3
systems; issue #10): an event of team codes (``weiqi.league.team_rounds``) is the same core
``Event`` as an event of players, so the round robin's Berger tables and the Swiss's matching
pair both by the same rules."""

from __future__ import annotations

import random

import pytest

from weiqi.errors import Conflict
from weiqi.league.match import TeamMatch
from weiqi.league.standings import team_competitors
from weiqi.league.team_rounds import (
    PlayedMatch,
    TeamRound,
    team_entrants,
    team_event,
    team_fixtures,
    team_settings,
)
from weiqi.rules.color import Color
from weiqi.rules.result import Reason, Result
from weiqi.tournament.players import Entrant
from weiqi.tournament.records import Event, EventKind, Round
from weiqi.tournament.scoring import histories
from weiqi.tournament.settings import EventSettings, System
from weiqi.tournament.systems import system_for
from weiqi.tournament.systems.knockout import HalvingKnockout, SingleElimination
from weiqi.tournament.systems.round_robin import RoundRobin
from weiqi.tournament.systems.swiss import Swiss, candidates

BLACK_WINS = Result.win(Color.BLACK, Reason.RESIGNATION)
WHITE_WINS = Result.win(Color.WHITE, Reason.RESIGNATION)


def players(n: int) -> tuple[Entrant, ...]:
    """Unranked players "a", "b", …: seeded by name, as teams "A", "B", … are by listing."""
    return tuple(Entrant(chr(97 + i), chr(97 + i)) for i in range(n))


def one_board_match(home: str, away: str, result: Result) -> PlayedMatch:
    """A one-board match: home is black on board 1, so the board's result is the match's."""
    return PlayedMatch(
        TeamMatch.pair(home, away, (home.lower(),), (away.lower(),)).record(1, result)
    )


def schedule(plan_pairs: list[tuple[str, str]], bye: tuple[str, ...]) -> tuple[object, ...]:
    return (tuple((b.lower(), w.lower()) for b, w in plan_pairs), tuple(x.lower() for x in bye))


@pytest.mark.parametrize(("n", "cycles"), [(4, 1), (4, 2), (5, 1), (6, 2), (7, 1)])
def test_r_fmt_1_r_fmt_3_one_round_robin_pairs_players_and_teams_on_the_same_berger_tables(
    n: int, cycles: int
) -> None:
    """R-FMT-1, R-FMT-3 round robin: the same ``RoundRobin`` object gives players "a"… and
    teams "A"… the same Berger schedule — rests included — round for round."""
    system = RoundRobin()
    solo = Event(EventSettings(System.ROUND_ROBIN, cycles=cycles), players(n))
    codes = [chr(65 + i) for i in range(n)]
    settings = team_settings(System.ROUND_ROBIN, cycles=cycles)
    assert (
        type(system_for(solo.settings)) is type(system_for(settings, EventKind.TEAM)) is RoundRobin
    )
    team_rounds: list[TeamRound] = []
    while not system.is_finished(solo):
        plan = system.next_round(solo)
        teams = team_event(settings, team_entrants(codes), team_rounds)
        team_plan = system.next_round(teams)
        assert schedule([(g.black, g.white) for g in team_plan.games], team_plan.byes) == schedule(
            [(g.black, g.white) for g in plan.games], plan.byes
        )
        fixtures, bye = team_fixtures(team_plan)
        team_rounds.append(
            TeamRound(tuple(PlayedMatch.fixture(f.home, f.away) for f in fixtures), bye)
        )
        solo = solo.with_round(
            Round(plan.number, tuple(g.with_result(BLACK_WINS) for g in plan.games), plan.byes)
        )
    assert len(team_rounds) == (n - 1 + n % 2) * cycles
    assert system.is_finished(team_event(settings, team_entrants(codes), team_rounds))


def test_r_fmt_3_a_team_round_robin_is_paired_ahead_an_individual_one_round_by_round() -> None:
    """R-FMT-3, R-WD-1: a team round robin may pair round 2 before round 1 is played (its
    calendar is fixed; teams do not withdraw mid-event); players' withdrawals turn later games
    into forfeits, so an individual round robin waits for the results."""
    system = RoundRobin()
    solo = Event(EventSettings(System.ROUND_ROBIN), players(4))
    plan = system.next_round(solo)
    with pytest.raises(Conflict, match="no final result"):
        system.next_round(solo.with_round(plan.to_round()))
    settings = team_settings(System.ROUND_ROBIN)
    unplayed = TeamRound(
        tuple(PlayedMatch.fixture(g.black.upper(), g.white.upper()) for g in plan.games)
    )
    second = system.next_round(team_event(settings, team_entrants("ABCD"), [unplayed]))
    assert second.number == 2 and len(second.games) == 2


@pytest.mark.parametrize("seed", range(5))
def test_r_fmt_1_r_fmt_3_one_swiss_pairs_players_and_teams_by_the_same_score_groups(
    seed: int,
) -> None:
    """R-FMT-1, R-FMT-3 Swiss, R-SCORE-TEAM-1: with the same results (a player's win is a team's
    won match), the same ``Swiss`` object pairs 8 players and 8 teams alike: score groups of
    2 / 1 / 0 points, no rematch, colours (home and away) balanced. The settings a team event
    is paired by are an individual event's with round 1 folded (1 v 8, 2 v 7 …)."""
    system = Swiss()
    settings = team_settings(System.SWISS, rounds=4, seed=seed)
    assert settings == EventSettings(System.SWISS, rounds=4, first_round="fold", seed=seed)
    solo = Event(settings, players(8))
    codes = [chr(65 + i) for i in range(8)]
    team_rounds: list[TeamRound] = []
    rng = random.Random(seed)
    # rounds 1 and 2: float histories are still empty, see the test below for later rounds
    for _ in range(2):
        plan = system.next_round(solo)
        team_plan = system.next_round(team_event(settings, team_entrants(codes), team_rounds))
        assert [(g.black.lower(), g.white.lower()) for g in team_plan.games] == [
            (g.black, g.white) for g in plan.games
        ]
        results = [rng.choice([BLACK_WINS, WHITE_WINS, Result.draw()]) for _ in plan.games]
        solo = solo.with_round(
            Round(
                plan.number,
                tuple(g.with_result(r) for g, r in zip(plan.games, results, strict=True)),
            )
        )
        team_rounds.append(
            TeamRound(
                tuple(
                    one_board_match(g.black, g.white, r)
                    for g, r in zip(team_plan.games, results, strict=True)
                )
            )
        )


def test_r_rank_team_team_swiss_score_groups_are_the_standings_match_points() -> None:
    """R-RANK-TEAM, R-SCORE-TEAM-1 (issue #10): the team Swiss pairs on the match points the
    table shows — a level match that board 1 decides is a won match in both, and a bye is a won
    match (``BYE_MATCH_POINTS``). The old team engine scored that match as drawn for pairing."""
    level = TeamMatch.pair("A", "B", ("a1", "a2"), ("b1", "b2"))
    level = level.record(1, BLACK_WINS).record(2, BLACK_WINS)  # A wins board 1, B board 2: 2:2
    other = TeamMatch.pair("C", "D", ("c1", "c2"), ("d1", "d2"))
    other = other.record(1, Result.draw()).record(2, Result.draw())
    rounds = [TeamRound((PlayedMatch(level), PlayedMatch(other)), "E")]
    event = team_event(team_settings(System.SWISS, rounds=3), team_entrants("ABCDE"), rounds, True)
    cands, _ = candidates(event, list(event.entrants), histories(event), random.Random(0))
    table = team_competitors([level, other], "ABCDE", board_one_decides=True, byes=["E"])
    assert {c.id: c.score for c in cands} == {t.id: t.points for t in table}
    assert {c.id: c.score for c in cands} == {"A": 2, "B": 0, "C": 1, "D": 1, "E": 2}


def test_r_fmt_3_team_swiss_keeps_pairing_without_float_history() -> None:
    """R-FMT-3 (issue #10 finding): players remember their floats (one floated down is not
    floated again if avoidable); the team Swiss paired without them before the systems were
    shared, and still does, so no team event pairs differently than it did."""
    settings = team_settings(System.SWISS, rounds=4)
    solo = Event(settings, players(4))
    for _ in range(3):  # Black wins every game: 4, 2, 2, 0 after round 2, floats in round 3
        plan = Swiss().next_round(solo)
        games = tuple(g.with_result(BLACK_WINS) for g in plan.games)
        solo = solo.with_round(Round(plan.number, games, plan.byes))
    mirrored = [
        TeamRound(
            tuple(one_board_match(g.black.upper(), g.white.upper(), BLACK_WINS) for g in r.games)
        )
        for r in solo.rounds
    ]
    teams = team_event(settings, team_entrants("ABCD"), mirrored)
    seen_solo, _ = candidates(solo, list(solo.entrants), histories(solo), random.Random(0))
    seen_teams, _ = candidates(teams, list(teams.entrants), histories(teams), random.Random(0))
    assert [c.score for c in seen_teams] == [c.score for c in seen_solo]
    assert sum(c.floats_down + c.floats_up for c in seen_solo) > 0
    assert sum(c.floats_down + c.floats_up for c in seen_teams) == 0


def test_r_fmt_3_r_playoff_a_team_knockout_halves_the_field_round_by_round() -> None:
    """R-FMT-3 knockout, R-PLAYOFF: a team knockout is paired round by round (one bye a round,
    what the team store keeps), the players' on a bracket drawn in advance; for 4 entrants the
    two agree — 1 v 4 and 2 v 3, then the winners — and the upper line is the home team. A level
    match goes on by its playoff's winner."""
    settings = team_settings(System.KNOCKOUT)
    assert type(system_for(settings, EventKind.TEAM)) is HalvingKnockout
    assert type(system_for(settings)) is SingleElimination
    solo = Event(settings, players(4))
    bracket = SingleElimination().next_round(solo)
    teams = team_event(settings, team_entrants("ABCD"), [])
    plan = HalvingKnockout().next_round(teams)
    assert [(g.black, g.white) for g in plan.games] == [("A", "D"), ("B", "C")]
    assert [set(g.players) for g in bracket.games] == [{"a", "d"}, {"b", "c"}]
    level = TeamMatch.pair("B", "C", ("b1", "b2"), ("c1", "c2"))
    level = level.record(1, BLACK_WINS).record(2, BLACK_WINS)  # 2:2
    r1 = TeamRound((one_board_match("A", "D", WHITE_WINS), PlayedMatch(level, playoff_winner="C")))
    final = HalvingKnockout().next_round(team_event(settings, team_entrants("ABCD"), [r1]))
    assert [(g.black, g.white) for g in final.games] == [("D", "C")]
    assert final.eliminated == ("A", "B")
    undecided = TeamRound((one_board_match("A", "D", WHITE_WINS), PlayedMatch(level)))
    with pytest.raises(Conflict, match="needs a winner"):
        HalvingKnockout().next_round(team_event(settings, team_entrants("ABCD"), [undecided]))


def test_one_system_enumeration_names_both_kinds_systems() -> None:
    """Issue #10, "no two ``System``": one enumeration names the systems of both kinds; each
    kind's settings take only its own (R-FMT-3: 擂台赛 is a team format), refused by name in
    the reader's language, and the names on pages are the same for both."""
    from weiqi.errors import InvalidSetting
    from weiqi.i18n import render
    from weiqi.league.settings import TeamEventSettings, team_settings_from_dict
    from weiqi.tournament.settings import INDIVIDUAL_SYSTEMS, TEAM_SYSTEMS, settings_from_dict

    assert set(INDIVIDUAL_SYSTEMS) | set(TEAM_SYSTEMS) == set(System)
    assert TeamEventSettings(system="swiss", rounds=3).system is System.SWISS
    with pytest.raises(InvalidSetting) as individual:
        settings_from_dict({"system": "winner_stays_on"})
    assert individual.value.field == "system"
    assert render(individual.value.reason, "zh_CN").startswith("个人赛的赛制须为round_robin")
    assert render(individual.value.reason, "zh_CN").endswith("不能是winner_stays_on")
    with pytest.raises(InvalidSetting) as team:
        team_settings_from_dict({"system": "mcmahon"})
    assert render(team.value.reason, "en") == (
        "a team event plays round_robin | swiss | knockout | winner_stays_on, not mcmahon"
    )
    with pytest.raises(InvalidSetting, match="'chess' is not one of round_robin"):
        TeamEventSettings(system="chess")
    assert System.WINNER_STAYS_ON.zh == "擂台赛" and System.SWISS.en == "Swiss system"
