"""Round robin (R-FMT-3), its ranking (R-RANK-RR) and withdrawals (R-WD-1), worked by hand."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from tests.tournament.simulate import entrants, play_all, win_for
from weiqi.errors import Conflict
from weiqi.rules.result import Outcome, Reason, Result
from weiqi.tournament.ranking import standings
from weiqi.tournament.records import Event, Game
from weiqi.tournament.settings import EventSettings, System
from weiqi.tournament.systems import system_for
from weiqi.tournament.systems.round_robin import berger_schedule

# The crosstable of the worked example: the winner of each pair, or None for a draw.
CROSSTABLE = {
    "AB": "A", "AC": None, "AD": "A", "AE": "A", "AF": "F",
    "BC": "B", "BD": None, "BE": "B", "BF": "B",
    "CD": "C", "CE": "C", "CF": None,
    "DE": None, "DF": "D",
    "EF": "E",
}  # fmt: skip


def decide(game: Game) -> Result:
    winner = CROSSTABLE["".join(sorted(game.players))]
    return Result.draw() if winner is None else win_for(game, winner)


def six(**kw: object) -> Event:
    settings = EventSettings(system=System.ROUND_ROBIN, **kw)  # type: ignore[arg-type]
    return Event(settings, entrants("ABCDEF"))


def table(event: Event) -> list[tuple[int, str, int, object]]:
    return [(s.place, s.id, s.points, s.tiebreaks["SB"]) for s in standings(event)]


def test_r_fmt_3_r_rank_rr_six_player_round_robin_with_draws() -> None:
    """R-FMT-3, R-RANK-RR, R-SCORE-IND-1: 6 players, 5 rounds, draws; worked by hand.

    Points: A 7, B 7, C 6, D 4, E 3, F 3. SB (胜者小分): A = 7 + 4 + 3 (beaten B, D, E) + 6/2
    (drew C) = 17; B = 6 + 3 + 3 + 4/2 = 14; C = 4 + 3 + 7/2 + 3/2 = 12; D = 3 + 7/2 + 3/2 = 8;
    E = 3 + 4/2 = 5; F = 7 + 6/2 = 10. So A over B and F over E on SB.
    """
    event, plans = play_all(six(), decide)
    assert len(plans) == 5
    assert all(len(p.games) == 3 for p in plans)
    assert table(event) == [
        (1, "A", 7, 17), (2, "B", 7, 14), (3, "C", 6, 12), (4, "D", 4, 8), (5, "F", 3, 10),
        (6, "E", 3, 5),
    ]  # fmt: skip
    with pytest.raises(Conflict):
        system_for(event.settings).next_round(event)


def test_r_wd_1_round_robin_withdrawal_before_half_voids_all_results() -> None:
    """R-WD-1: F withdraws after 2 of 5 rounds (fewer than half): all F's results are void.

    Without F: A 7, B 5, C 5, D 2, E 1. SB: A = 5 + 2 + 1 + 5/2 = 10.5; B = 5 + 1 + 2/2 = 7 and
    C = 2 + 1 + 7/2 = 6.5, so B over C; D = 5/2 + 1/2 = 3; E = 2/2 = 1. F's later opponents
    rest instead of playing.
    """
    event = six()
    field = tuple(replace(e, withdrawn_after=2) if e.id == "F" else e for e in event.entrants)
    event, plans = play_all(Event(event.settings, field), decide)
    assert [p.games for p in plans[2:] if any("F" in g.players for g in p.games)] == []
    assert table(event) == [
        (1, "A", 7, Fraction(21, 2)), (2, "B", 5, 7), (3, "C", 5, Fraction(13, 2)),
        (4, "D", 2, 3), (5, "E", 1, 1),
    ]  # fmt: skip


def test_r_wd_1_round_robin_withdrawal_after_half_results_stand_rest_forfeit() -> None:
    """R-WD-1: F withdraws after 3 of 5 rounds: its results stand, rounds 4 and 5 are forfeits.

    The Berger table has F meet E in round 4 and C in round 5, so C's draw with F becomes a
    forfeit win: A 7, B 7, C 7, D 4, E 3, F 2. SB: A = 7 + 4 + 3 + 7/2 = 17.5, B = 7 + 3 + 2 +
    4/2 = 14, C = 4 + 3 + 2 + 7/2 = 12.5, D = 2 + 7/2 + 3/2 = 7, E = 2 + 4/2 = 4, F = 7.
    """
    event = six()
    field = tuple(replace(e, withdrawn_after=3) if e.id == "F" else e for e in event.entrants)
    event, plans = play_all(Event(event.settings, field), decide)
    forfeits = [g for p in plans[3:] for g in p.games if "F" in g.players]
    assert {g.opponent_of("F") for g in forfeits} == {"E", "C"}
    assert all(g.result is not None and g.result.reason is Reason.FORFEIT for g in forfeits)
    assert all(g.winner() != "F" for g in forfeits)
    assert table(event) == [
        (1, "A", 7, Fraction(35, 2)), (2, "B", 7, 14), (3, "C", 7, Fraction(25, 2)),
        (4, "D", 4, 7), (5, "E", 3, 4), (6, "F", 2, 7),
    ]  # fmt: skip


def test_r_rank_rr_warnings_then_lot_or_shared() -> None:
    """R-RANK-RR (B), (C), R-PLAYOFF: equal SB → fewer warnings; still equal → shared, lot or
    playoff as the event set."""
    settings = EventSettings(system=System.ROUND_ROBIN)
    field = entrants("ABC")

    def all_draws(g: Game) -> Result:
        return Result.draw()

    event, _ = play_all(Event(settings, field), all_draws)
    assert [(s.place, s.shared) for s in standings(event)] == [(1, True)] * 3
    warned = Event(settings, field, event.rounds, {"A": 1})
    assert [(s.place, s.id) for s in standings(warned)][2] == (3, "A")
    lot = Event(replace(settings, shared_places=False, seed=7), field, event.rounds)
    places = [(s.place, s.by_lot) for s in standings(lot)]
    assert places == [(1, True), (2, True), (3, True)]
    assert standings(lot) == standings(lot)  # the seeded lot is reproducible
    playoff = Event(replace(settings, shared_places=False, tie_resolution="playoff"), field,
                    event.rounds)  # fmt: skip
    assert all(s.playoff and s.place == 1 for s in standings(playoff))


@pytest.mark.parametrize("cycles", [1, 2, 3])
def test_r_fmt_3_berger_tables_every_pair_once_per_cycle_no_three_colors(cycles: int) -> None:
    """R-FMT-3: single/double/multiple round robin for 2…24 players: everyone meets everyone
    once per cycle, colours reverse in the second cycle, nobody gets three of a colour in a row,
    and an odd field gives each player one bye per cycle."""
    for n in range(2, 25):
        rounds = berger_schedule(n, cycles)
        per_cycle = n - 1 + n % 2
        assert len(rounds) == per_cycle * cycles
        seqs: dict[int, str] = {i: "" for i in range(n)}
        for c in range(cycles):
            met: dict[frozenset[int], tuple[int, int]] = {}
            byes = [0] * n
            for games in rounds[c * per_cycle : (c + 1) * per_cycle]:
                seen = set()
                for b, w in games:
                    seen.update((b, w))
                    if b >= n or w >= n:
                        byes[min(b, w)] += 1
                        continue
                    assert frozenset((b, w)) not in met
                    met[frozenset((b, w))] = (b, w)
                    seqs[b] += "B"
                    seqs[w] += "W"
                assert len(seen) == n + n % 2
            assert len(met) == n * (n - 1) // 2
            assert byes == ([1] * n if n % 2 else [0] * n)
        for s in seqs.values():
            assert "BBB" not in s and "WWW" not in s, (n, cycles, s)
            assert abs(s.count("B") - s.count("W")) <= 1 + (cycles % 2)


# The published Berger tables (the rules' appendix "各种比赛方法的编排" is left out of the seed
# text, "因篇幅所限，从略"), first-named player first: 6 players (5 rounds) and 8 (7 rounds).
BERGER_6 = [
    "1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1",
]  # fmt: skip
BERGER_8 = [
    "1-8 2-7 3-6 4-5", "8-5 6-4 7-3 1-2", "2-8 3-1 4-7 5-6", "8-6 7-5 1-4 2-3",
    "3-8 4-2 5-1 6-7", "8-7 1-6 2-5 3-4", "4-8 5-3 6-2 7-1",
]  # fmt: skip


@pytest.mark.parametrize(("n", "published"), [(6, BERGER_6), (8, BERGER_8)])
def test_r_fmt_3_round_robin_follows_the_published_berger_tables(
    n: int, published: list[str]
) -> None:
    """R-FMT-3 (Art. 26.2 循环赛制 "与其他参赛者逐一比赛"): the schedule is the standard Berger
    table, round by round, with its colours — the first-named player of each pair takes Black
    (our choice; the table only fixes that colours alternate). Board order inside a round is
    free, so rounds are compared as sets."""
    ours = [
        {f"{b + 1}-{w + 1}" for b, w in games if b < n and w < n} for games in berger_schedule(n, 1)
    ]
    assert ours == [set(r.split()) for r in published]
    # an odd field is the even table with the last number as the bye
    odd = [
        {f"{b + 1}-{w + 1}" for b, w in games if b < n - 1 and w < n - 1}
        for games in berger_schedule(n - 1, 1)
    ]
    assert odd == [{p for p in r.split() if str(n) not in p.split("-")} for r in published]


def test_r_fmt_3_double_round_robin_reverses_colors() -> None:
    """R-FMT-3: in a double round robin each pair meets once with each colour."""
    settings = EventSettings(system=System.DOUBLE_ROUND_ROBIN)
    _, plans = play_all(Event(settings, entrants("ABCD")), lambda g: Result.draw())
    assert len(plans) == 6
    colors: dict[frozenset[str], set[str]] = {}
    for p in plans:
        for g in p.games:
            colors.setdefault(frozenset(g.players), set()).add(g.black)
    assert all(len(v) == 2 for v in colors.values()) and len(colors) == 6


def test_odd_round_robin_bye_is_a_rest_without_points() -> None:
    """R-FMT-3: an odd field gets a bye each round; in a round robin it scores nothing."""
    settings = EventSettings(system=System.ROUND_ROBIN)
    event, plans = play_all(Event(settings, entrants("ABCDE")), lambda g: Result.draw())
    assert [len(p.byes) for p in plans] == [1] * 5
    assert sorted(b for p in plans for b in p.byes) == list("ABCDE")
    assert all(s.points == 4 for s in standings(event))


def test_round_robin_waits_for_results_and_handicap_policy() -> None:
    """The next round needs every result; with the handicap policy the weaker takes Black
    (R-HCP-1/2)."""
    settings = EventSettings(system=System.ROUND_ROBIN, color_policy="handicap")
    event = Event(settings, entrants("ABCD"))
    system = system_for(settings)
    plan = system.next_round(event)
    for g in plan.games:
        strong, weak = sorted(g.players)  # entrants are ranked A (7d) > B > C > D
        assert g.black == weak and g.handicap == ord(weak) - ord(strong)
        assert g.komi == 0
    event = event.with_round(plan.to_round())
    with pytest.raises(Conflict, match="no final result"):
        system.next_round(event)
    replay = event.with_result(1, 1, Result.replay())
    with pytest.raises(Conflict):
        system.next_round(replay)
    assert replay.rounds[0].games[0].result is not None
    assert replay.rounds[0].games[0].result.outcome is Outcome.REPLAY


def test_r_wd_1_withdrawal_before_the_start_redraws() -> None:
    """R-WD-1: a player who withdraws before the start is left out of the table (redrawn)."""
    event = six()
    field = tuple(replace(e, withdrawn_after=0) if e.id == "F" else e for e in event.entrants)
    event, plans = play_all(Event(event.settings, field), decide)
    assert len(plans) == 5 and all(len(p.games) == 2 and len(p.byes) == 1 for p in plans)
    assert "F" not in {s.id for s in standings(event)}
