"""McMahon as EGF events play it (issue #14), the preset ``egf_mcmahon``: handicaps from the
McMahon scores less one, even between players at or above 1d (their scores are capped at what
a 1d starts with), at most 9; the Chinese rules' settings stay the default."""

from __future__ import annotations

import pytest

from weiqi.tournament.players import Entrant
from weiqi.tournament.ranks import Rank
from weiqi.tournament.records import Event
from weiqi.tournament.settings import EventSettings, System, egf_mcmahon
from weiqi.tournament.systems import system_for


def test_handicaps_of_an_egf_mcmahon_round() -> None:
    settings = egf_mcmahon(5, Rank.parse("4d"), Rank.parse("20k"))
    players = (
        Entrant("a", "A", Rank.parse("3d")),
        Entrant("b", "B", Rank.parse("2d")),
        Entrant("c", "C", Rank.parse("1k")),
        Entrant("d", "D", Rank.parse("5k")),
    )
    event = Event(settings, players)
    plan = system_for(settings).next_round(event)
    stones = {frozenset(g.players): (g.handicap, g.black) for g in plan.games}
    assert stones[frozenset({"a", "b"})][0] == 0  # both above 1d: even
    assert stones[frozenset({"c", "d"})] == (3, "d")  # 29 − 25 − 1 stones, the weaker Black


def test_the_chinese_rules_stay_the_default() -> None:
    s = EventSettings(system=System.MCMAHON, rounds=5, mcmahon_bar=Rank.parse("4d"))
    assert (s.absent_points, s.unplayed_sos, s.sos_handicap, s.round_down_scores) == (
        0,
        "none",
        False,
        False,
    )
    assert s.color_policy == "even" and s.mcmahon_zero is None


def test_sos_minus_one_drops_a_virtual_opponent_too() -> None:
    """OpenGotha's SOSM-1: SOS less its lowest term, a round without a game (the player's own
    start score) included; handicap-adjusted like SOS."""
    from weiqi.tournament.standings import Competitor, Encounter, tiebreak_values

    a = Competitor(
        "a",
        "A",
        (Encounter(1, "b", 2, "W", sos_adjust=4), Encounter(2, None, 1, "N", False)),
        initial_points=20,
        virtual_opponent=20,
    )
    b = Competitor("b", "B", (Encounter(1, "a", 0, "L", sos_adjust=-4),), initial_points=30)
    values = tiebreak_values([a, b], ("SOS", "SOS-1"), rounds=2)
    # a: b's 30 + 4 stones, and a virtual 20 in round 2; b: a's 23 − 4, nothing for round 2
    assert values["SOS"] == {"a": 54, "b": 19}
    assert values["SOS-1"] == {"a": 34, "b": 0}


@pytest.mark.parametrize("where", ["club", "country"])
def test_a_small_score_gap_is_traded_for_avoiding_a_club_or_country_game(where: str) -> None:
    """Two 3d of one club (country) and two 2d of others: the rules pair the 3d together (a
    score group); with the club (region) avoided at up to one win of gap, each 3d meets a 2d
    instead — OpenGotha's "prefer an MMS difference rather than the same club/country"."""
    from dataclasses import replace

    flag, gap = (
        ("avoid_same_club", "club_score_gap")
        if where == "club"
        else ("avoid_same_region", "region_score_gap")
    )
    base = EventSettings(
        system=System.MCMAHON, rounds=3, mcmahon_bar=Rank.parse("5d"), **{flag: True}
    )
    players = tuple(
        Entrant(pid, pid.upper(), Rank.parse(rank), **{where: home})
        for pid, rank, home in (
            ("a", "3d", "X"),
            ("b", "3d", "X"),
            ("c", "2d", "Y"),
            ("d", "2d", "Z"),
        )
    )

    def pairs(settings: EventSettings) -> set[frozenset[str]]:
        plan = system_for(settings).next_round(Event(settings, players))
        return {frozenset(g.players) for g in plan.games}

    assert frozenset({"a", "b"}) in pairs(base)
    traded = pairs(replace(base, **{gap: 1}))
    assert all(len(p & {"a", "b"}) == 1 for p in traded)
