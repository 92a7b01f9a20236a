"""Swiss-type systems end to end (R-FMT-3, R-RANK-SWISS, R-WD-1, R-DRAW-LOT), McMahon,
Swiss + elimination, matches, and ranks (R-FMT-2)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from tests.tournament.simulate import entrants, play_all, play_round, win_for
from weiqi.errors import Conflict, InputError
from weiqi.rules.result import Reason, Result
from weiqi.tournament.ranking import standings
from weiqi.tournament.ranks import Rank, Scale
from weiqi.tournament.records import Event, Game
from weiqi.tournament.scoring import histories
from weiqi.tournament.settings import EventSettings, System
from weiqi.tournament.systems import system_for

NAMES = [f"S{i:02d}" for i in range(1, 21)]


def stronger_wins(game: Game) -> Result:
    return win_for(game, min(game.players))


def test_r_fmt_3_r_rank_swiss_nine_round_swiss() -> None:
    """R-FMT-3, R-RANK-SWISS: 20 players, 9 rounds, the stronger always wins.

    Round 1 by rank halves: 1 v 11, 2 v 12, …, 10 v 20. Nobody meets anyone twice; S01 wins
    every game (18 points). Method A's total score of S01 is checked against the formula
    18 + SOS / (18 / 2) − 9 with SOS summed from the record here.
    """
    settings = EventSettings(system=System.SWISS, rounds=9)
    event, plans = play_all(Event(settings, entrants(NAMES)), stronger_wins)
    assert len(plans) == 9
    assert sorted(tuple(sorted(g.players)) for g in plans[0].games) == [
        (NAMES[i], NAMES[i + 10]) for i in range(10)
    ]
    met = [frozenset(g.players) for p in plans for g in p.games]
    assert len(met) == len(set(met)) == 90
    table = standings(event)
    assert (table[0].id, table[0].points) == ("S01", 18)
    assert sum(s.points for s in table) == 180
    # round 2 has two groups of ten: no floats; colours never break the rule in this event
    assert plans[1].totals is not None and plans[1].totals.score_gap_sum == 0
    assert all(p.totals is not None and p.totals.color_violations == 0 for p in plans)
    hist = histories(event)
    sos = sum(hist[o].points for o in hist["S01"].opponents)
    assert table[0].tiebreaks["SOS"] == sos
    method_a = replace(settings, swiss_method="A")
    total = standings(Event(method_a, event.entrants, event.rounds))
    top = next(s for s in total if s.id == "S01")
    assert top.tiebreaks["TOTAL"] == 18 + Fraction(sos, 9) - 9
    assert [s.id for s in total][:1] == ["S01"]
    with pytest.raises(Conflict, match="finished"):
        system_for(settings).next_round(event)


def test_explanations_say_why_a_pair_was_made() -> None:
    """Each pair carries score gap, colour histories and seeding positions; a round has
    totals."""
    settings = EventSettings(system=System.SWISS, rounds=3)
    _, plans = play_all(Event(settings, entrants(NAMES[:9])), stronger_wins)
    plan = plans[1]
    g = plan.games[0]
    why = plan.explain(g.black, g.white)
    assert why.board == 1 and {why.black, why.white} == set(g.players)
    assert len(why.colors_black) <= 1 and why.seed_black >= 1 and why.score_gap == 0
    assert "score gap" in why.text()
    assert plan.totals is not None and plan.totals.games == 4
    assert plan.seed is not None


def test_first_round_by_lot_is_seeded_and_reproducible() -> None:
    settings = EventSettings(system=System.SWISS, rounds=3, first_round="lot", seed=11)
    a = system_for(settings).next_round(Event(settings, entrants(NAMES)))
    b = system_for(settings).next_round(Event(settings, entrants(NAMES)))
    halves = system_for(replace(settings, first_round="halves")).next_round(
        Event(replace(settings, first_round="halves"), entrants(NAMES))
    )
    assert a.games == b.games and a.seed == b.seed == 11 * 1000 + 1
    assert {frozenset(g.players) for g in a.games} != {frozenset(g.players) for g in halves.games}


def test_r_draw_lot_both_lose_counts_as_played() -> None:
    """R-DRAW-LOT: both lose scores 0 each and the pair is not paired again — no lot needed."""
    settings = EventSettings(system=System.SWISS, rounds=3)

    def board_one_both_lose(g: Game) -> Result:
        return Result.both_lose() if g.board == 1 else stronger_wins(g)

    event, plan1 = play_round(Event(settings, entrants(NAMES[:4])), board_one_both_lose)
    pair1 = frozenset(plan1.games[0].players)
    assert all(histories(event)[p].points == 0 for p in pair1)
    event, plan2 = play_round(event, stronger_wins)
    assert pair1 not in {frozenset(g.players) for g in plan2.games}


def test_r_wd_1_swiss_withdrawal_results_stand_no_more_pairing() -> None:
    """R-WD-1: in a Swiss a withdrawn player's results stand and nobody is paired with them."""
    settings = EventSettings(system=System.SWISS, rounds=4)
    field = tuple(
        replace(e, withdrawn_after=2) if e.id == "S01" else e for e in entrants(NAMES[:8])
    )
    event, plans = play_all(Event(settings, field), stronger_wins)
    assert all("S01" not in g.players for p in plans[2:] for g in p.games)
    s01 = next(s for s in standings(event) if s.id == "S01")
    assert s01.points == 4


def test_late_entry_gets_the_set_points_for_missed_rounds() -> None:
    """A late entrant joins the Swiss in its round with ``late_entry_points`` per missed round."""
    settings = EventSettings(system=System.SWISS, rounds=4, late_entry_points=1)
    field = list(entrants(NAMES[:7]))
    field.append(replace(entrants(["LATE"])[0], joined_round=3))
    event, plans = play_all(Event(settings, tuple(field)), stronger_wins)
    assert all("LATE" not in g.players for p in plans[:2] for g in p.games)
    assert all("LATE" not in p.byes for p in plans[:2])
    assert any("LATE" in g.players for g in plans[2].games)
    assert histories(event)["LATE"].initial_points == 2


def test_bye_scores_a_win_without_sos() -> None:
    """The bye scores ``bye_points`` (a win, 2) and adds nothing to the player's SOS."""
    settings = EventSettings(system=System.SWISS, rounds=1)
    event, plans = play_all(Event(settings, entrants(NAMES[:5])), stronger_wins)
    (bye,) = plans[0].byes
    row = next(s for s in standings(event) if s.id == bye)
    assert row.points == 2 and row.tiebreaks["SOS"] == 0


def test_r_fmt_3_swiss_with_elimination_keeps_the_field_even() -> None:
    """R-FMT-3 积分编排加淘汰: out after K = 2 losses, the field kept even (a lucky loser stays)."""
    settings = EventSettings(system=System.SWISS_KNOCKOUT, rounds=6, elimination_losses=2)
    event, plans = play_all(Event(settings, entrants(NAMES[:18])), stronger_wins)
    for p in plans:
        assert p.byes == ()
        assert len(p.games) * 2 == len({x for g in p.games for x in g.players})
    losses = {pid: h.losses for pid, h in histories(event).items()}
    eliminated = system_for(settings).eliminated(event)
    assert all(losses[p] >= 2 for p in eliminated)
    assert "S01" not in eliminated


def test_r_fmt_3_mcmahon_pairs_by_mcmahon_score() -> None:
    """R-FMT-3 McMahon: above the bar everyone starts equal; below, a rank's start score is its
    distance above the floor. Round 1 pairs players of equal start score."""
    field = tuple(
        replace(e, rank=Rank.parse(r))
        for e, r in zip(
            entrants(NAMES[:8]), ["6d", "5d", "4d", "3d", "1k", "1k", "5k", "5k"], strict=True
        )
    )
    settings = EventSettings(system=System.MCMAHON, rounds=3, mcmahon_bar=Rank.parse("4d"))
    plan = system_for(settings).next_round(Event(settings, field))
    groups = [{"S01", "S02", "S03"}, {"S04"}, {"S05", "S06"}, {"S07", "S08"}]
    pairs = [set(g.players) for g in plan.games]
    assert {"S05", "S06"} in pairs and {"S07", "S08"} in pairs
    assert sum(1 for p in pairs if any(p <= grp for grp in groups)) >= 3


def test_r_fmt_3_match_best_of_three() -> None:
    """R-FMT-3 多局决胜制: nigiri for game 1, colours alternate, stop once decided."""
    settings = EventSettings(system=System.MATCH, best_of=3, seed=4)
    event, plans = play_all(Event(settings, entrants(["A", "B"])), lambda g: win_for(g, "A"))
    assert len(plans) == 2
    assert plans[0].games[0].black == plans[1].games[0].white
    assert standings(event)[0].id == "A"
    with pytest.raises(Conflict):
        system_for(settings).next_round(event)
    tied, plans = play_all(Event(settings, entrants(["A", "B"])), lambda g: Result.draw())
    assert len(plans) == 3
    playoff = replace(settings, shared_places=False, tie_resolution="playoff")
    assert all(s.playoff for s in standings(Event(playoff, tied.entrants, tied.rounds)))


def test_r_playoff_a_tied_match_goes_to_the_playoff_set_in_advance() -> None:
    """R-PLAYOFF / R-FMT-3 (issue #10): a best-of-3 match drawn 3:3, in an event that allows
    no shared places and settles ties by playoff, is not decided: playoff games (P1, P2 …)
    follow, colours still alternating, until one player wins one; the winner is first, alone.
    Where places may be shared, the tied match ends tied."""
    settings = EventSettings(
        system=System.MATCH, best_of=3, seed=4, shared_places=False, tie_resolution="playoff"
    )
    event = Event(settings, entrants(["A", "B"]))
    plans = []
    for _ in range(3):
        event, plan = play_round(event, lambda g: Result.draw())
        plans.append(plan)
    system = system_for(settings)
    assert not system.is_finished(event)
    assert all(s.playoff for s in standings(event))
    event, p1 = play_round(event, lambda g: Result.draw())  # a drawn playoff game: another
    assert (p1.number, p1.games[0].label) == (4, "P1")
    assert p1.games[0].black == plans[-1].games[0].white
    event, p2 = play_round(event, lambda g: win_for(g, "B"))
    assert p2.games[0].label == "P2" and p2.games[0].black == p1.games[0].white
    assert system.is_finished(event)
    table = standings(event)
    assert [(s.id, s.place, s.playoff, s.shared) for s in table] == [
        ("B", 1, False, False),
        ("A", 2, False, False),
    ]
    with pytest.raises(Conflict, match="decided"):
        system.next_round(event)
    shared = replace(settings, shared_places=True)
    tied = Event(shared, event.entrants, event.rounds[:3])
    assert system_for(shared).is_finished(tied)


def test_r_wd_1_match_withdrawal_forfeits_the_rest() -> None:
    """R-WD-1: in a match, results stand and the remaining games are forfeits."""
    settings = EventSettings(system=System.MATCH, best_of=5)
    field = tuple(replace(e, withdrawn_after=1) if e.id == "A" else e for e in entrants(["A", "B"]))
    event, plans = play_all(Event(settings, field), lambda g: win_for(g, "A"))
    assert len(plans) == 4
    assert all(p.games[0].result is not None for p in plans[1:])
    assert all(p.games[0].result.reason is Reason.FORFEIT for p in plans[1:])  # type: ignore[union-attr]
    assert standings(event)[0].id == "B"


def test_r_fmt_2_ranks() -> None:
    """R-FMT-2: professional 1–9 dan and amateur 1–7 dan are different scales; kyu below."""
    assert Rank.parse("初段") == Rank(Scale.PROFESSIONAL, 1)
    assert Rank.parse("九段") == Rank(Scale.PROFESSIONAL, 9)
    assert Rank.parse("职业2段") == Rank.parse("2p")
    assert Rank.parse("业余5段") == Rank.parse("5段") == Rank.parse("5d")
    assert Rank.parse("3K") == Rank.parse("3级")
    assert Rank.parse("1p").strength > Rank.parse("7d").strength
    assert Rank.parse("1k").strength > Rank.parse("2k").strength
    # European files (EGF, OpenGotha) rank amateurs up to 9d; the Chinese notation stops at 7
    assert Rank.parse("9d").strength > Rank.parse("8d").strength > Rank.parse("7d").strength
    assert Rank.parse("1p").strength > Rank.parse("9d").strength
    for bad in ("10d", "10p", "0k", "x", "十段", "业余8段", "8段"):
        with pytest.raises(InputError):
            Rank.parse(bad)
