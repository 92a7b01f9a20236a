"""Knockout systems (R-FMT-3): single and double elimination, K-loss elimination, worked by hand."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.tournament.simulate import entrants, play_all, play_round, win_for
from weiqi.errors import Conflict
from weiqi.rules.result import Reason, Result
from weiqi.tournament.ranking import standings
from weiqi.tournament.records import Event, Game
from weiqi.tournament.settings import EventSettings, System
from weiqi.tournament.systems import system_for
from weiqi.tournament.systems.knockout import bracket_order

NUMBERS = [f"S{i:02d}" for i in range(1, 17)]


def stronger_wins(game: Game) -> Result:
    return win_for(game, min(game.players))


def pairs(games: tuple[Game, ...]) -> list[tuple[str, set[int]]]:
    return sorted((g.label, {int(p[1:]) for p in g.players}) for g in games)


def test_r_fmt_3_standard_seeding_order() -> None:
    """R-FMT-3: bracket order 1, 16, 8, 9, 4, 13, 5, 12, … — 1 v N, 8 v 9, 1 and 2 apart."""
    order = bracket_order(16)
    assert order == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
    assert all(order[i] + order[i + 1] == 17 for i in range(0, 16, 2))
    assert order.index(1) < 8 <= order.index(2)


def test_r_fmt_3_single_elimination_byes_to_top_seeds() -> None:
    """R-FMT-3: 11 players in a bracket of 16: seeds 1–5 get byes, 6 v 11, 7 v 10, 8 v 9."""
    settings = EventSettings(system=System.KNOCKOUT)
    event = Event(settings, entrants(NUMBERS[:11]))
    event, plan = play_round(event, stronger_wins)
    assert sorted(plan.byes) == NUMBERS[:5]
    assert sorted(sorted(int(p[1:]) for p in g.players) for g in plan.games) == [
        [6, 11], [7, 10], [8, 9],
    ]  # fmt: skip
    event, plans = play_all(event, stronger_wins)
    assert len(plans) == 3
    table = [(s.place, s.id) for s in standings(event)]
    assert table[:4] == [(1, "S01"), (2, "S02"), (3, "S03"), (3, "S04")]


def test_r_fmt_3_double_elimination_sixteen_players_by_hand() -> None:
    """R-FMT-3: 16-player double elimination where the stronger always wins, worked by hand.

    WB1: 1-16 8-9 4-13 5-12 2-15 7-10 3-14 6-11. LB1 (round 2): WB1 losers in pairs: 16-9, 13-12,
    15-10, 14-11. LB2 (round 3): LB1 winners 9, 12, 10, 11 against WB2's losers 8, 5, 7, 6 taken in
    reverse: 9-6, 12-7, 10-5, 11-8. LB3: 6-7, 5-8. LB4 (round 5): 6-4, 5-3 (WB3 losers in order).
    LB5: 4-3. LB6 (round 7): 3 against the WB final's loser 2. GF (round 8): 1-2, 1 wins, no reset.
    Places: 1, 2, 3, 4, 5–6, 7–8, 9–12, 13–16.
    """
    settings = EventSettings(system=System.DOUBLE_ELIMINATION)
    event, plans = play_all(Event(settings, entrants(NUMBERS)), stronger_wins)
    assert len(plans) == 8
    assert pairs(plans[0].games) == sorted(
        (f"WB1-{i + 1}", p)
        for i, p in enumerate(
            [{1, 16}, {8, 9}, {4, 13}, {5, 12}, {2, 15}, {7, 10}, {3, 14}, {6, 11}]
        )
    )
    lb = {p.number: [s for label, s in pairs(p.games) if label.startswith("LB")] for p in plans}
    assert lb[2] == [{16, 9}, {13, 12}, {15, 10}, {14, 11}]
    assert lb[3] == [{9, 6}, {12, 7}, {10, 5}, {11, 8}]
    assert lb[4] == [{6, 7}, {5, 8}]
    assert lb[5] == [{6, 4}, {5, 3}]
    assert lb[6] == [{4, 3}]
    assert lb[7] == [{3, 2}]
    assert pairs(plans[7].games) == [("GF", {1, 2})]
    places = [(s.place, int(s.id[1:])) for s in standings(event)]
    assert places == [
        (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (5, 6), (7, 7), (7, 8),
        (9, 9), (9, 10), (9, 11), (9, 12), (13, 13), (13, 14), (13, 15), (13, 16),
    ]  # fmt: skip
    assert system_for(settings).eliminated(event) == set(NUMBERS[1:])


def test_r_fmt_3_double_elimination_grand_final_reset() -> None:
    """R-FMT-3: when the losers' bracket champion wins the grand final, a reset (GF2) decides;
    without the reset setting the grand final is the last game."""

    def upset_final(game: Game) -> Result:
        if game.label == "GF":
            return win_for(game, max(game.players))
        return stronger_wins(game)

    settings = EventSettings(system=System.DOUBLE_ELIMINATION)
    event, plans = play_all(Event(settings, entrants(NUMBERS[:8])), upset_final)
    assert [g.label for g in plans[-1].games] == ["GF2"]
    assert standings(event)[0].id == "S01"
    no_reset = replace(settings, grand_final_reset=False)
    event, plans = play_all(Event(no_reset, entrants(NUMBERS[:8])), upset_final)
    assert [g.label for g in plans[-1].games] == ["GF"]
    assert standings(event)[0].id == "S02"


def test_r_draw_lot_both_lose_in_a_bracket_puts_both_out() -> None:
    """R-DRAW-LOT: both lose is recorded directly; in a bracket neither advances, so the next
    opponent goes on without a game. A draw must be settled by a playoff first."""
    settings = EventSettings(system=System.KNOCKOUT)
    event = Event(settings, entrants(NUMBERS[:8]))

    def both_lose_on_1v8(game: Game) -> Result:
        return Result.both_lose() if set(game.players) == {"S01", "S08"} else stronger_wins(game)

    event, _ = play_round(event, both_lose_on_1v8)
    semis = system_for(settings).next_round(event)
    assert [set(g.players) for g in semis.games] == [{"S02", "S03"}] and semis.byes == ("S04",)
    drawn = Event(settings, entrants(NUMBERS[:4]))
    drawn, _ = play_round(drawn, lambda g: Result.draw())
    with pytest.raises(Conflict, match="playoff"):
        system_for(settings).next_round(drawn)


def test_r_fmt_3_a_final_with_one_player_left_is_no_round_the_champion_is_known() -> None:
    """R-FMT-3 / R-DRAW-LOT (issue #10): when both semi-finalists of one half lose (双方均负),
    the final has one player left: the knockout is over and that player is the champion —
    pairing refuses with the reason instead of making a round of nothing but a bye."""
    settings = EventSettings(system=System.KNOCKOUT)
    event = Event(settings, entrants(NUMBERS[:4]))

    def both_lose_on_1v4(game: Game) -> Result:
        return Result.both_lose() if set(game.players) == {"S01", "S04"} else stronger_wins(game)

    event, _ = play_round(event, both_lose_on_1v4)
    system = system_for(settings)
    assert system.is_finished(event)
    with pytest.raises(Conflict, match="the knockout is finished"):
        system.next_round(event)
    table = standings(event)
    assert (table[0].id, table[0].place, table[0].shared) == ("S02", 1, False)
    assert all(s.place == 2 for s in table[1:])


def test_r_wd_1_knockout_withdrawal_forfeits_the_rest() -> None:
    """R-WD-1: a player who withdraws from a knockout forfeits the next game."""
    settings = EventSettings(system=System.KNOCKOUT)
    field = tuple(
        replace(e, withdrawn_after=1) if e.id == "S01" else e for e in entrants(NUMBERS[:4])
    )
    event, _ = play_round(Event(settings, field), stronger_wins)
    final = system_for(settings).next_round(event)
    (game,) = final.games
    assert game.result is not None and game.result.reason is Reason.FORFEIT
    assert game.winner() == "S02"


def test_r_fmt_3_out_after_k_losses() -> None:
    """R-FMT-3: multiple elimination — out after K = 3 losses; players are paired with others
    of the same number of losses, and the event ends with one player left."""
    settings = EventSettings(system=System.KNOCKOUT, elimination_losses=3)
    event, plans = play_all(Event(settings, entrants(NUMBERS[:8])), stronger_wins)
    system = system_for(settings)
    assert system.eliminated(event) == set(NUMBERS[1:8])
    losses: dict[str, int] = dict.fromkeys(NUMBERS[:8], 0)
    for p in plans:
        for g in p.games:
            assert losses[g.black] < 3 and losses[g.white] < 3
            loser = max(g.players)
            losses[loser] += 1
    assert losses["S01"] == 0
    assert all(losses[p] == 3 for p in NUMBERS[1:8])


def test_r_fmt_3_knockout_standings_while_a_round_is_being_played() -> None:
    """R-FMT-3: a paired round whose games are still being played leaves the bracket
    undecided there — the standings show the field so far instead of an error."""
    event = Event(EventSettings(system=System.KNOCKOUT), entrants(NUMBERS[:4]))
    event, _ = play_round(event, stronger_wins)
    plan = system_for(event.settings).next_round(event)
    event = event.with_round(plan.to_round())  # the final is paired, not yet played
    table = [(s.place, s.id) for s in standings(event)]
    assert table == [(1, "S01"), (1, "S02"), (3, "S03"), (3, "S04")]
    with pytest.raises(Conflict):  # the next round still waits for the final's result
        system_for(event.settings).next_round(event)


def test_r_playoff_standings_wait_for_the_playoff_and_pairing_asks_for_it() -> None:
    """R-PLAYOFF: a drawn knockout game leaves both players in the standings until its playoff
    is recorded; pairing the next round asks for the playoff's result."""
    event = Event(EventSettings(system=System.KNOCKOUT), entrants(NUMBERS[:4]))
    plan = system_for(event.settings).next_round(event)
    event = event.with_round(plan.to_round())
    event = event.with_result(1, 1, Result.draw())
    event = event.with_result(1, 2, stronger_wins(plan.games[1]))
    table = [(s.place, s.id) for s in standings(event)]
    assert len(table) == 4 and table[0][0] == 1
    with pytest.raises(Conflict, match="record the playoff's result"):
        system_for(event.settings).next_round(event)
