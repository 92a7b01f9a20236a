"""R-LEAGUE-1: the dated double round robin (12 clubs → 22 rounds), Berger tables."""

from __future__ import annotations

import datetime
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from weiqi.errors import InvalidSetting
from weiqi.league.calendar import berger_rounds, double_round_robin, weekly_dates

CLUBS = [f"club{i:02d}" for i in range(1, 13)]


def test_r_league_1_twelve_clubs_play_22_rounds() -> None:
    """R-LEAGUE-1: 12 clubs → 22 rounds of 6 matches; each meets each twice, once at home."""
    cal = double_round_robin(CLUBS)
    assert len(cal) == 22
    for number, rnd in enumerate(cal, start=1):
        assert len(rnd) == 6
        assert {f.round for f in rnd} == {number}
        assert sorted(c for f in rnd for c in (f.home, f.away)) == sorted(CLUBS)
    ordered = Counter((f.home, f.away) for rnd in cal for f in rnd)
    assert set(ordered) == {(a, b) for a in CLUBS for b in CLUBS if a != b}
    assert set(ordered.values()) == {1}


def test_r_league_1_second_half_reverses_home_and_away() -> None:
    """R-LEAGUE-1: round 12 + k repeats round k with home and away swapped."""
    cal = double_round_robin(CLUBS)
    for k in range(11):
        assert [(f.away, f.home) for f in cal[k]] == [(f.home, f.away) for f in cal[k + 11]]
    venues = {c: "".join("H" if any(f.home == c for f in r) else "A" for r in cal) for c in CLUBS}
    assert not any("HHH" in v or "AAA" in v for v in venues.values())


def test_r_league_1_home_games_balanced() -> None:
    """Berger tables give every club 5 or 6 home matches of 11 in each half."""
    first = double_round_robin(CLUBS)[:11]
    homes = Counter(f.home for rnd in first for f in rnd)
    assert set(homes.values()) <= {5, 6}
    no_long_runs = True
    for club in CLUBS:
        venue = ["H" if any(f.home == club for f in rnd) else "A" for rnd in first]
        no_long_runs &= "HHH" not in "".join(venue) and "AAA" not in "".join(venue)
    assert no_long_runs


def test_berger_table_six_clubs_matches_fide() -> None:
    """The FIDE Berger table for six: 1-6 2-5 3-4 / 6-4 5-3 1-2 / 2-6 3-1 4-5 / 6-5 1-4 2-3 /
    3-6 4-2 5-1 (home/white first)."""
    rounds = berger_rounds(["1", "2", "3", "4", "5", "6"])
    table = [sorted(f"{f.home}-{f.away}" for f in rnd) for rnd in rounds]
    fide = ["1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"]
    assert table == [sorted(r.split()) for r in fide]


def test_r_league_1_dated_rounds() -> None:
    """R-LEAGUE-1: a dated calendar; dates must rise."""
    dates = weekly_dates(datetime.date(2026, 3, 7), 22)
    cal = double_round_robin(CLUBS, dates)
    assert cal[0][0].date == datetime.date(2026, 3, 7)
    assert cal[21][5].date == datetime.date(2026, 3, 7) + datetime.timedelta(weeks=21)
    with pytest.raises(InvalidSetting, match="21 dates for 22 rounds"):
        double_round_robin(CLUBS, dates[:21])
    with pytest.raises(InvalidSetting, match="round 3 is not after round 2"):
        double_round_robin(CLUBS, [dates[0], dates[2], dates[1], *dates[3:]])


def test_calendar_refuses_bad_club_lists() -> None:
    with pytest.raises(InvalidSetting, match="listed twice"):
        berger_rounds(["a", "b", "a"])
    with pytest.raises(InvalidSetting, match="at least two"):
        berger_rounds(["a"])


@settings(max_examples=15, deadline=None)
@given(st.integers(min_value=2, max_value=17))
def test_r_league_1_double_round_robin_property(n: int) -> None:
    """R-LEAGUE-1 property: any number of clubs (odd: one rests a round) meets twice, once home."""
    clubs = [f"c{i}" for i in range(n)]
    cal = double_round_robin(clubs)
    rounds = n - 1 if n % 2 == 0 else n
    assert len(cal) == 2 * rounds
    for rnd in cal:
        playing = [c for f in rnd for c in (f.home, f.away)]
        assert len(playing) == len(set(playing)) == 2 * (n // 2)
    ordered = Counter((f.home, f.away) for rnd in cal for f in rnd)
    assert len(ordered) == n * (n - 1) and set(ordered.values()) == {1}
