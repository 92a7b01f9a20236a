"""Team Swiss: the individual Swiss system on teams (``weiqi.league.team_rounds``); ranked by
R-RANK-TEAM's Swiss methods."""

from __future__ import annotations

import random
from collections.abc import Sequence

from weiqi.league.calendar import Fixture
from weiqi.league.match import TeamMatch
from weiqi.league.standings import TeamRanking, team_standings
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
from weiqi.tournament.records import Event
from weiqi.tournament.scoring import histories
from weiqi.tournament.settings import System
from weiqi.tournament.systems import system_for
from weiqi.tournament.systems.swiss import candidates


def swiss_event(
    teams: Sequence[str],
    rounds: Sequence[Sequence[TeamMatch]],
    byes: Sequence[str | None] = (),
    seed: int = 0,
    board_one_decides: bool = False,
) -> Event:
    """A team Swiss of ``teams`` (seeded in that order) after ``rounds`` (with their byes)."""
    played = [
        TeamRound(tuple(PlayedMatch(m) for m in r), byes[i] if i < len(byes) else None)
        for i, r in enumerate(rounds)
    ]
    settings = team_settings(System.SWISS, rounds=9, seed=seed)
    return team_event(settings, team_entrants(teams), played, board_one_decides)


def pair_next(event: Event) -> tuple[list[Fixture], str | None]:
    return team_fixtures(system_for(event.settings, event.kind).next_round(event))


def play_swiss(n_teams: int, n_rounds: int, seed: int) -> tuple[list[list[TeamMatch]], list[str]]:
    rng = random.Random(seed)
    teams = [f"T{i}" for i in range(n_teams)]
    strength = {t: 2700 - 40 * i for i, t in enumerate(teams)}
    rounds: list[list[TeamMatch]] = []
    byes: list[str] = []
    round_byes: list[str | None] = []
    for _ in range(n_rounds):
        fixtures, bye = pair_next(swiss_event(teams, rounds, round_byes, seed))
        round_byes.append(bye)
        if bye is not None:
            byes.append(bye)
        played = []
        for f in fixtures:
            m = TeamMatch.pair(
                f.home,
                f.away,
                [f"{f.home}.{b}" for b in range(4)],
                [f"{f.away}.{b}" for b in range(4)],
            )
            for g in m.games:
                a_wins = rng.random() < 1 / (
                    1 + 10 ** ((strength[f.away] - strength[f.home]) / 400)
                )
                winner = g.a_color if a_wins else g.a_color.opponent
                m = m.record(g.board, Result.win(winner, Reason.RESIGNATION))
            played.append(m)
        rounds.append(played)
    return rounds, byes


def test_r_fmt_3_team_swiss_pairs_without_rematches() -> None:
    """R-FMT-3 Swiss on teams: every team plays once a round, never the same team twice."""
    rounds, byes = play_swiss(8, 5, seed=11)
    seen: set[frozenset[str]] = set()
    for matches in rounds:
        teams = [t for m in matches for t in (m.a, m.b)]
        assert sorted(teams) == sorted(f"T{i}" for i in range(8))
        for m in matches:
            pair = frozenset((m.a, m.b))
            assert pair not in seen
            seen.add(pair)
    assert byes == []
    home = {t: sum(1 for r in rounds for m in r if m.a == t) for t in (f"T{i}" for i in range(8))}
    # team A (black on board 1) is a colour wish of the engine, weighed, not a hard rule
    assert all(1 <= h <= 4 for h in home.values())


def test_r_fmt_3_team_swiss_pairs_equal_scores() -> None:
    """Round 2 pairs teams of equal match points; only an odd score group floats one team."""
    for seed in range(6):
        rounds, _ = play_swiss(8, 2, seed=seed)
        points = {}
        for m in rounds[0]:
            s = m.score()
            points[m.a], points[m.b] = s.match_points_a, s.match_points_b
        groups = [sum(1 for p in points.values() if p == v) for v in set(points.values())]
        mixed = sum(1 for m in rounds[1] if points[m.a] != points[m.b])
        assert mixed <= sum(1 for g in groups if g % 2), seed


def test_r_fmt_3_team_swiss_odd_field_bye_once() -> None:
    """An odd number of teams: one bye a round, never twice to the same team."""
    rounds, byes = play_swiss(7, 5, seed=5)
    assert len(byes) == 5 and len(set(byes)) == 5
    for matches, bye in zip(rounds, byes, strict=True):
        assert bye not in {t for m in matches for t in (m.a, m.b)}


def test_r_rank_team_swiss_table_after_five_rounds() -> None:
    """R-RANK-TEAM team Swiss: the total-score table is ordered by its keys."""
    rounds, _ = play_swiss(8, 5, seed=11)
    matches = [m for r in rounds for m in r]
    table = team_standings(matches, ranking=TeamRanking.SWISS_TOTAL_SCORE)
    keys = [s.keys for s in table]
    assert keys == sorted(keys, reverse=True)
    assert sum(s.row.match_points for s in table) == 2 * len(matches)
    by_points = team_standings(matches, ranking=TeamRanking.SWISS_POINTS)
    assert [s.row.match_points for s in by_points] == sorted(
        (s.row.match_points for s in by_points), reverse=True
    )


def test_r_fmt_3_team_swiss_sees_teams_as_the_individual_engine_sees_players() -> None:
    """R-FMT-3: the Swiss's view of a team: score = match points, seed = place in the listed
    order, colours = home ("B") or away ("W") by round, opponents = teams already met."""
    m = TeamMatch.pair("A", "B", ("a",), ("b",)).record(1, Result.win(Color.WHITE, Reason.TIME))
    event = swiss_event(["B", "A"], [[m]])
    field = list(event.entrants)
    [b, a] = candidates(event, field, histories(event), random.Random(0))[0]
    assert (a.score, a.colors, a.seed, b.score, b.colors, b.opponents) == (
        0,
        "B",
        1,
        2,
        "W",
        frozenset({"A"}),
    )


def test_r_rank_team_swiss_bye_is_a_won_match_in_the_core() -> None:
    """R-RANK-TEAM / R-SCORE-TEAM-1 (issue #10): a team Swiss bye scores a won match (2 match
    points, no game points) in the core itself — in the pairing's score groups and in the
    table — so the service holds no second copy of the rule."""
    win = Result.win(Color.BLACK, Reason.RESIGNATION)
    r1 = [TeamMatch.pair("A", "B", ("a",), ("b",)).record(1, win)]
    event = swiss_event("ABC", [r1], byes=["C"])
    found, _ = candidates(event, list(event.entrants), histories(event), random.Random(0))
    cands = {c.id: c for c in found}
    assert (cands["A"].score, cands["B"].score, cands["C"].score) == (2, 0, 2)
    assert cands["C"].had_bye
    # round 2: the two teams on 2 match points meet, the loser gets the bye
    fixtures, bye = pair_next(event)
    assert {frozenset((f.home, f.away)) for f in fixtures} == {frozenset("AC")}
    assert bye == "B"
    table = team_standings(r1, "ABC", TeamRanking.SWISS_POINTS, byes=["C"])
    rows = {s.team: s.row for s in table}
    assert (rows["C"].played, rows["C"].won, rows["C"].match_points, rows["C"].game_points) == (
        1,
        1,
        2,
        0,
    )
    assert [s.team for s in table] == ["A", "C", "B"]  # level on MP and SOS, A has the GP
