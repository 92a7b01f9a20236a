"""R-LEAGUE-1, R-LEAGUE-2, R-WD-1: a simulated season of 围甲 and 围乙 — 12 clubs each, double
round robin, 4 boards, sealed lineups with a foreign-player limit, seeded results — then the final
tables, promotion and relegation, and the next season's draft."""

from __future__ import annotations

import datetime
import itertools
import random
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction

import pytest

from tests.league.conftest import entry, team
from weiqi.errors import Conflict, InvalidSetting, LineupRejected
from weiqi.league.calendar import weekly_dates
from weiqi.league.draft import Draft, combined_standing, draft_order, replay
from weiqi.league.lineup import MissingLineup
from weiqi.league.match import TeamMatch
from weiqi.league.season import (
    Season,
    SeasonSettings,
    WithdrawalPolicy,
    final_order,
    promotion_and_relegation,
)
from weiqi.league.standings import TeamStanding
from weiqi.league.team import RosterEntry, Team, TeamType
from weiqi.rules.color import Color
from weiqi.rules.result import Reason, Result
from weiqi.tournament.ranks import Rank

SEED = 20260307


def make_clubs(prefix: str, rng: random.Random, strength: int) -> list[Team]:
    """12 clubs of 5 or 6 players (the seed: 一般是5到6名队员), the last two foreign (外援)."""
    clubs = []
    for c in range(1, 13):
        roster = []
        for p in range(1, 6 + c % 2):
            pid = f"{prefix}{c:02d}-{p}"
            rating = strength + rng.randint(-250, 250)
            rank = Rank.parse(f"{rng.randint(3, 9)}p")
            foreign = p >= 4
            roster.append(
                RosterEntry(pid, pid, rank, rating, "KR" if foreign else "CN", foreign=foreign)
            )
        clubs.append(
            Team(f"{prefix}{c:02d}", f"{prefix} club {c}", tuple(roster), club=f"{prefix}{c:02d}")
        )
    return clubs


def choose_lineup(club: Team, rng: random.Random, max_foreign: int) -> list[str]:
    """A coach's choice: 4 of 6 with at most ``max_foreign`` foreigners, strongest on board 1."""
    foreign = [e for e in club.roster if e.foreign]
    home = [e for e in club.roster if not e.foreign]
    wanted = max(4 - len(home), rng.randint(0, max_foreign))
    assert wanted <= max_foreign, "the roster cannot field a legal lineup"
    picked = rng.sample(foreign, wanted)
    picked += rng.sample(home, 4 - len(picked))
    picked.sort(key=lambda e: -e.rating)
    return [e.player_id for e in picked]


def game_result(black: RosterEntry, white: RosterEntry, rng: random.Random) -> Result:
    """Elo-like chance; counted wins by a quarter-stone margin, resignations, rarely time."""
    p_black = 1 / (1 + 10 ** ((white.rating - black.rating) / 400))
    winner = Color.BLACK if rng.random() < p_black else Color.WHITE
    roll = rng.random()
    if roll < 0.45:
        return Result.by_count(winner, Fraction(rng.randint(1, 40), 4))
    if roll < 0.97:
        return Result.win(winner, Reason.RESIGNATION)
    return Result.win(winner, Reason.TIME)


@dataclass
class Audit:
    rejected: list[str]
    missed: list[tuple[int, str]]


def play_season(season: Season, rng: random.Random) -> Audit:
    audit = Audit([], [])
    limit = season.settings.max_foreign or 0
    for rnd in range(1, season.rounds + 1):
        deadline = rnd * 1000.0
        box = season.lineup_box(rnd, deadline)
        for f in season.fixtures(rnd):
            for cid in (f.home, f.away):
                club = season.team(cid)
                if rng.random() < 0.03:  # the coach forgets: the previous lineup plays
                    audit.missed.append((rnd, cid))
                    continue
                if rng.random() < 0.05:  # one foreigner too many: refused with the reason
                    two = [e.player_id for e in club.roster if e.foreign][: limit + 1]
                    rest = [e.player_id for e in club.roster if not e.foreign][: 4 - len(two)]
                    with pytest.raises(LineupRejected, match="foreign players") as err:
                        box.submit(club, two + rest, now=deadline - 500)
                    audit.rejected.append(err.value.message)
                box.submit(club, choose_lineup(club, rng, limit), now=deadline - 100)
        with pytest.raises(LineupRejected, match="secret"):
            box.reveal(now=deadline - 1)
        for m in season.start_round(rnd, box.reveal(now=deadline)):
            teams = {m.a: season.team(m.a), m.b: season.team(m.b)}
            for g in m.games:
                if g.result is not None:
                    continue
                black_team = m.a if g.a_color is Color.BLACK else m.b
                white_team = m.b if black_team == m.a else m.a
                black = teams[black_team].entry(g.player_of(Color.BLACK) or "")
                white = teams[white_team].entry(g.player_of(Color.WHITE) or "")
                assert black is not None and white is not None
                season.record(rnd, m.a, g.board, game_result(black, white, rng))
    return audit


def recount(matches: list[TeamMatch]) -> dict[str, tuple[int, int, tuple[int, ...]]]:
    """An independent count of match points, game points and board points, straight from the
    board results (R-SCORE-TEAM-1)."""
    mp: dict[str, int] = defaultdict(int)
    gp: dict[str, int] = defaultdict(int)
    bp: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for m in matches:
        pts = {m.a: 0, m.b: 0}
        for g in m.games:
            assert g.result is not None
            if g.result.winner is None:
                continue
            side = m.a if g.result.winner is g.a_color else m.b
            pts[side] += 2
            bp[side][g.board - 1] += 2
        for t in (m.a, m.b):
            gp[t] += pts[t]
        other = {m.a: m.b, m.b: m.a}
        for t in (m.a, m.b):
            mp[t] += 2 if pts[t] > pts[other[t]] else 1 if pts[t] == pts[other[t]] else 0
    return {t: (mp[t], gp[t], tuple(bp[t])) for t in mp}


def run_league(seed: int) -> tuple[Season, Season, Audit]:
    rng = random.Random(seed)
    dates = weekly_dates(datetime.date(2026, 3, 7), 22)
    settings = SeasonSettings(
        boards=4, max_foreign=1, missing=MissingLineup.PREVIOUS, promoted=3, relegated=1
    )
    jia = Season("甲", make_clubs("J", rng, 2700), settings, dates)
    yi = Season("乙", make_clubs("Y", rng, 2450), settings, dates)
    audit = play_season(jia, rng)
    play_season(yi, rng)
    return jia, yi, audit


@pytest.fixture(scope="module")
def league() -> tuple[Season, Season, Audit]:
    return run_league(SEED)


def test_r_league_1_full_season_is_played(league: tuple[Season, Season, Audit]) -> None:
    """R-LEAGUE-1: 22 rounds, 132 matches of 4 boards, every club 22 matches."""
    jia, _, audit = league
    assert jia.finished and jia.rounds == 22 and len(jia.matches) == 132
    table = jia.table()
    assert all(s.row.played == 22 for s in table)
    assert sum(s.row.match_points for s in table) == 2 * 132
    assert sum(s.row.game_points for s in table) == 2 * 4 * 132
    assert audit.rejected, "the simulation exercises refused lineups"
    assert all("at most 1 may play a round" in r for r in audit.rejected)
    assert audit.missed, "the simulation exercises missing lineups"


def test_r_league_1_foreign_limit_held_every_round(league: tuple[Season, Season, Audit]) -> None:
    """R-LEAGUE-1: no club ever fielded more foreign players than the per-round limit."""
    jia, _, _ = league
    for rnd, lineups in jia.played_lineups.items():
        for cid, lineup in lineups.items():
            assert lineup is not None and len(lineup) == 4
            club = jia.team(cid)
            foreign = [p for p in lineup if (e := club.entry(p)) is not None and e.foreign]
            assert len(foreign) <= 1, (rnd, cid)


def test_r_league_1_missed_lineup_replays_the_previous(
    league: tuple[Season, Season, Audit],
) -> None:
    """R-LEAGUE-1 with MissingLineup.PREVIOUS: a club that sent nothing fields its last lineup."""
    jia, _, audit = league
    for rnd, cid in audit.missed:
        if rnd == 1:
            assert jia.played_lineups[1][cid] is None
        else:
            assert jia.played_lineups[rnd][cid] == jia.previous_lineups(rnd)[cid]


def test_r_rank_team_final_table_agrees_with_a_recount(
    league: tuple[Season, Season, Audit],
) -> None:
    """R-RANK-TEAM: the table's points equal an independent recount, and its order follows
    match points, game points, then boards 1–4."""
    jia, _, _ = league
    table = jia.table()
    counted = recount(list(jia.matches.values()))
    for s in table:
        assert (s.row.match_points, s.row.game_points, tuple(s.row.board_points)) == counted[s.team]
    keys = [(s.row.match_points, s.row.game_points, *s.row.board_points) for s in table]
    assert keys == sorted(keys, reverse=True)
    for prev, cur in itertools.pairwise(table):
        assert (cur.place == prev.place) == (cur.keys == prev.keys)


def test_r_league_1_season_is_reproducible_from_its_seed(
    league: tuple[Season, Season, Audit],
) -> None:
    """Randomness comes from the recorded seed: the same seed, the same table."""
    jia, _, _ = league
    again, _, _ = run_league(SEED)
    assert [(s.team, s.keys) for s in again.table()] == [(s.team, s.keys) for s in jia.table()]


def _order(table: list[TeamStanding], cuts: list[int]) -> list[str]:
    return final_order(table, cuts)


def test_r_league_1_relegation_promotion_and_r_league_2_next_draft(
    league: tuple[Season, Season, Audit],
) -> None:
    """R-LEAGUE-1 → R-LEAGUE-2: the 甲 12th goes down, 乙 1st–3rd come up (2016 rules), and the
    next season's draft runs in reverse combined order: 乙 3rd first … 甲 champion 14th."""
    jia, yi, _ = league
    s = jia.settings
    top = _order(jia.table(), [len(jia.team_ids) - s.relegated])
    lower = _order(yi.table(), [s.promoted])
    next_top, next_lower = promotion_and_relegation(top, lower, s.promoted, s.relegated)
    assert len(next_top) == 14 and len(next_lower) == 10
    assert top[-1] in next_lower and set(lower[:3]) <= set(next_top)

    order = draft_order(combined_standing(top, lower), next_top)
    assert order[:3] == [lower[2], lower[1], lower[0]] and order[-1] == top[0] and len(order) == 14

    clubs = {
        t.team_id: t
        for t in [*(jia.team(c) for c in jia.team_ids), *(yi.team(c) for c in yi.team_ids)]
    }
    rosters = {c: clubs[c].roster for c in next_top}
    protected = {
        c: [e.player_id for e in sorted(clubs[c].roster, key=lambda e: -e.rating)[:4]]
        for c in next_top
    }
    rng = random.Random(SEED + 1)
    draft = Draft(order, rosters, protected, base=4, max_roster=6)
    assert len(draft.pool) == sum(len(r) - 4 for r in rosters.values())
    while not draft.finished:
        club = draft.on_the_clock
        assert club is not None
        choices = [p for p in draft.pool if draft.listed_by(p) != club]
        if draft.room(club) == 0 or not choices or rng.random() < 0.3:
            draft.pass_turn(club)
        else:
            best = max(choices, key=lambda p: clubs[draft.listed_by(p)].entry(p).rating)  # type: ignore[union-attr]
            draft.pick(club, best)
    first = draft.log[0]
    assert first.club == lower[2] and first.round == 1 and first.turn == 1
    assert [e.seq for e in draft.log] == list(range(1, len(draft.log) + 1))
    assert (
        replay(order, rosters, protected, draft.log, base=4, max_roster=6).rosters()
        == draft.rosters()
    )

    new_rosters = draft.rosters()
    assert all(4 <= len(r) <= 6 for r in new_rosters.values())
    assert any(e.action.value == "pick" for e in draft.log) and any(
        e.action.value == "pass" for e in draft.log
    )
    players = [p.player_id for r in new_rosters.values() for p in r]
    assert sorted(players) == sorted(p.player_id for c in next_top for p in clubs[c].roster)
    next_season = Season(
        "甲",
        [clubs[c].with_roster(new_rosters[c]) for c in next_top],
        SeasonSettings(boards=4, max_foreign=1),
    )
    assert next_season.rounds == 26


def test_r_wd_1_team_withdrawal_results_stand_rest_forfeit() -> None:
    """R-WD-1: in team events a withdrawn team's results stand; the rest are forfeits."""
    clubs = [team(c, *(entry(f"{c}{i}") for i in range(1, 5))) for c in "ABCD"]
    season = Season("乙", clubs, SeasonSettings(max_foreign=None, missing=MissingLineup.FORFEIT))
    win_black = Result.win(Color.BLACK, Reason.RESIGNATION)

    def play(rnd: int) -> None:
        revealed = {
            c: tuple(f"{c}{i}" for i in range(1, 5)) for c in "ABCD" if c not in season.withdrawn
        }
        for m in season.start_round(rnd, revealed):
            for g in m.games:
                if g.result is None:
                    season.record(rnd, m.a, g.board, win_black)

    play(1)
    play(2)
    before = {s.team: s.row.match_points for s in season.table()}
    season.withdraw("D", from_round=3)
    with pytest.raises(Conflict, match="already started"):
        season.withdraw("C", from_round=2)
    for rnd in range(3, season.rounds + 1):
        play(rnd)
    assert season.finished
    d_matches = [m for (r, _), m in season.matches.items() if r >= 3 and "D" in (m.a, m.b)]
    assert len(d_matches) == 4
    for m in d_matches:
        s = m.score()
        assert s.winner == m.opponent("D") and {s.game_points_a, s.game_points_b} == {0, 8}
    after = {s.team: s.row.match_points for s in season.table(upto=2)}
    assert after == before  # the first two rounds stand


def test_r_league_1_roster_size_and_settings_checked() -> None:
    """R-LEAGUE-1: a club registers about 6 (min/max are settings) and fields 4."""
    small = team("S", *(entry(f"s{i}") for i in range(3)))
    with pytest.raises(InvalidSetting, match="3 players; a club registers 4 to 6"):
        Season("甲", [small, team("T", *(entry(f"t{i}") for i in range(4)))])
    with pytest.raises(InvalidSetting, match="fields 4 players"):
        SeasonSettings(boards=4, min_roster=3)


def test_r_league_1_tie_across_the_relegation_line_needs_a_playoff() -> None:
    """A shared place across the promotion or relegation line is refused until a playoff."""
    clubs = [team(c, *(entry(f"{c}{i}") for i in range(1, 5))) for c in "ABC"]
    season = Season("甲", clubs, SeasonSettings(max_foreign=None))
    table = season.table()  # nothing played: everybody shares first place
    with pytest.raises(Conflict, match="playoff"):
        final_order(table, [2])


def test_r_league_1_season_plays_board_matches_only() -> None:
    with pytest.raises(InvalidSetting, match="board matches"):
        SeasonSettings(team_type=TeamType.ROTATION)


def test_r_league_1_start_round_checks_lineups_again() -> None:
    """Lineups reaching a round are checked even when they bypass the box."""
    clubs = [team(c, *(entry(f"{c}{i}", foreign=i == 1) for i in range(1, 5))) for c in "AB"]
    season = Season("甲", clubs, SeasonSettings(max_foreign=0))
    with pytest.raises(LineupRejected, match="foreign"):
        season.start_round(1, {"A": ("A1", "A2", "A3", "A4")})


def _four_club_season(withdrawal: WithdrawalPolicy, withdraw_from: int) -> Season:
    clubs = [team(c, *(entry(f"{c}{i}") for i in range(1, 5))) for c in "ABCD"]
    season = Season("乙", clubs, SeasonSettings(max_foreign=None, withdrawal=withdrawal))
    win_black = Result.win(Color.BLACK, Reason.RESIGNATION)
    for rnd in range(1, season.rounds + 1):
        if rnd == withdraw_from:
            season.withdraw("D", from_round=rnd)
        revealed = {
            c: tuple(f"{c}{i}" for i in range(1, 5)) for c in "ABCD" if c not in season.withdrawn
        }
        for m in season.start_round(rnd, revealed):
            for g in m.games:
                if g.result is None:
                    season.record(rnd, m.a, g.board, win_black)
    return season


@pytest.mark.parametrize(("withdraw_from", "void"), [(2, True), (3, True), (4, False), (6, False)])
def test_r_wd_1_round_robin_rule_as_a_setting(withdraw_from: int, void: bool) -> None:
    """R-WD-1 round robin rule (setting Withdrawal.ROUND_ROBIN): fewer than half of its 6 matches
    played → all its results are void and it leaves the table; at least half → they stand."""
    season = _four_club_season(WithdrawalPolicy.ROUND_ROBIN, withdraw_from)
    table = season.table()
    assert (season.voided() == {"D"}) is void
    assert ("D" in [s.team for s in table]) is not void
    expected_played = 4 if void else 6
    assert all(s.row.played == expected_played for s in table if s.team != "D")


def test_r_wd_1_team_events_default_keeps_results() -> None:
    """R-WD-1 team events (default): even after one match, the results stand."""
    season = _four_club_season(WithdrawalPolicy.RESULTS_STAND, 2)
    assert season.voided() == frozenset()
    assert {s.team: s.row.played for s in season.table()} == dict.fromkeys("ABCD", 6)
