"""Edits by hand of a paired round, in the pure core (issue #13, "Pairing", first bullet): each
edit says what it breaks — a rematch (refused by the Swiss rules, allowed where the system
allows rematches), a forbidden pair, a second bye, a colour rule, a score gap, a same-club game
— and the explanation of the edited round is the system's own for an unchanged pairing."""

from __future__ import annotations

from dataclasses import replace

import pytest

from weiqi.errors import Conflict, InvalidSetting, NotFound
from weiqi.rules.color import Color
from weiqi.rules.result import Reason, Result
from weiqi.tournament.manual import (
    EditKind,
    ProblemKind,
    RoundEdit,
    edit_round,
    editable,
    explain_round,
)
from weiqi.tournament.players import Entrant
from weiqi.tournament.ranks import Rank
from weiqi.tournament.records import Event, Game, Round
from weiqi.tournament.settings import EventSettings, System
from weiqi.tournament.systems import system_for

BLACK_WINS = Result.win(Color.BLACK, Reason.RESIGNATION)
RANKS = ["6d", "5d", "4d", "3d", "2d", "1d", "1k"]


def entrants(n: int = 7, club: str = "") -> tuple[Entrant, ...]:
    return tuple(
        Entrant(f"p{i}", f"P{i}", Rank.parse(RANKS[i % len(RANKS)]), club=club or f"C{i % 3}")
        for i in range(n)
    )


def played(settings: EventSettings, people: tuple[Entrant, ...], rounds: int) -> Event:
    """``rounds`` rounds paired by the system, Black winning every game, and the next paired."""
    event = Event(settings, people)
    for _ in range(rounds):
        plan = system_for(settings).next_round(event)
        games = tuple(g.with_result(BLACK_WINS) for g in plan.games)
        event = event.with_round(Round(plan.number, games, plan.byes, plan.seed))
    plan = system_for(settings).next_round(event)
    return event.with_round(plan.to_round())


def kinds(problems: tuple[object, ...]) -> list[str]:
    return sorted(p.kind.value for p in problems)  # type: ignore[attr-defined]


SWISS = EventSettings(System.SWISS, rounds=5)


def test_a_swap_that_makes_a_rematch_is_refused_by_the_swiss_rules() -> None:
    event = played(SWISS, entrants(), 1)
    first = event.rounds[0].games[0]
    now = event.rounds[1]
    # swap first.white into the seat of first.black's opponent in round 2: a rematch
    game = now.game_of(first.black)
    assert game is not None
    opponent = game.opponent_of(first.black)
    done = edit_round(event, 2, RoundEdit(EditKind.SWAP, opponent, first.white))
    rematches = [p for p in done.problems if p.kind is ProblemKind.REMATCH]
    assert rematches and all(p.refused for p in rematches) and done.refused
    assert {first.black, first.white} in [set(p.players) for p in rematches]
    names = {e.id: e.name for e in event.entrants}
    assert "the Swiss rules allow no rematch" in str(rematches[0].message(names))


def test_a_rematch_is_only_a_warning_where_the_system_allows_rematches() -> None:
    knockout = EventSettings(System.KNOCKOUT, rounds=5, elimination_losses=2)
    assert editable(Event(knockout, ()))
    event = played(knockout, entrants(8), 1)
    first = event.rounds[0].games[0]
    done = edit_round(event, 2, RoundEdit(EditKind.PAIR, first.black, first.white))
    rematch = [p for p in done.problems if p.kind is ProblemKind.REMATCH]
    assert rematch and not any(p.refused for p in rematch) and not done.refused


def test_a_swap_within_the_same_score_group_breaks_nothing() -> None:
    event = played(SWISS, entrants(8), 0)
    one, two = event.rounds[0].games[:2]
    done = edit_round(event, 1, RoundEdit(EditKind.SWAP, one.white, two.white))
    assert done.problems == () and done.changed == (1, 2)
    by_board = {g.board: g for g in done.games}
    assert by_board[1].players == (one.black, two.white)
    assert by_board[2].players == (two.black, one.white)
    # the rest of the round is untouched, and every player still plays once
    assert [g for g in done.games if g.board > 2] == list(event.rounds[0].games[2:])
    everyone = sorted(p for g in done.games for p in g.players)
    assert everyone == sorted(e.id for e in event.entrants)


def test_pairing_two_players_by_hand_pairs_their_opponents_and_warns_of_the_score_gap() -> None:
    event = played(SWISS, entrants(8), 1)
    winners = [g.black for g in event.rounds[0].games]
    losers = [g.white for g in event.rounds[0].games]
    # a winner and a loser who have not met
    a, b = winners[0], next(x for x in losers if x != event.rounds[0].games[0].white)
    done = edit_round(event, 2, RoundEdit(EditKind.PAIR, a, b))
    pairs = [set(g.players) for g in done.games]
    assert {a, b} in pairs and len(done.changed) == 2
    gaps = [p for p in done.problems if p.kind is ProblemKind.SCORE_GAP]
    assert gaps and gaps[0].gap == 2 and not done.refused
    assert sorted(p for g in done.games for p in g.players) == sorted(winners + losers)


def test_the_bye_to_a_player_who_had_one_is_a_second_bye() -> None:
    event = played(SWISS, entrants(7), 1)
    had_bye = event.rounds[0].byes[0]
    done = edit_round(event, 2, RoundEdit(EditKind.BYE, had_bye))
    assert done.byes == (had_bye,)
    assert ProblemKind.SECOND_BYE in [p.kind for p in done.problems]
    holder = event.rounds[1].byes[0]
    assert any(holder in g.players for g in done.games)
    with pytest.raises(Conflict, match="has the bye already"):
        edit_round(event, 2, RoundEdit(EditKind.BYE, event.rounds[1].byes[0]))
    even = played(SWISS, entrants(8), 0)
    with pytest.raises(Conflict, match="no bye"):
        edit_round(even, 1, RoundEdit(EditKind.BYE, "p0"))


def test_a_swap_into_the_bye_seat() -> None:
    event = played(SWISS, entrants(7), 0)
    holder = event.rounds[0].byes[0]
    game = event.rounds[0].games[0]
    done = edit_round(event, 1, RoundEdit(EditKind.SWAP, game.black, holder))
    assert done.byes == (game.black,) and done.games[0].players == (holder, game.white)


def test_the_color_rule_third_black_in_a_row() -> None:
    people = entrants(4)
    s = EventSettings(System.SWISS, rounds=4)
    r1 = Round(1, (Game(1, 1, "p0", "p1", BLACK_WINS), Game(1, 2, "p2", "p3", BLACK_WINS)))
    r2 = Round(2, (Game(2, 1, "p0", "p2", BLACK_WINS), Game(2, 2, "p3", "p1", BLACK_WINS)))
    r3 = Round(3, (Game(3, 1, "p3", "p0"), Game(3, 2, "p1", "p2")))
    event = Event(s, people, (r1, r2, r3))
    done = edit_round(event, 3, RoundEdit(EditKind.SWAP, "p0", "p3"))
    color = [p for p in done.problems if p.kind is ProblemKind.COLOR]
    assert [(p.players, p.colors) for p in color] == [(("p0",), "BBB")]
    assert "a third time in a row" in str(color[0].message({"p0": "P0"}))
    # the same two players, colours exchanged: the pair itself is the system's
    assert done.games[0].players == ("p0", "p3") and len(done.problems) == 1


def test_forbidden_pairs_and_same_club_games() -> None:
    base = played(SWISS, entrants(8, club="北京"), 0)
    g1, g2 = base.rounds[0].games[:2]
    s = replace(SWISS, avoid_same_club=True, forbidden_pairs=((g1.black, g2.white),))
    event = Event(s, base.entrants, base.rounds)
    done = edit_round(event, 1, RoundEdit(EditKind.SWAP, g1.white, g2.white))
    assert "forbidden" in kinds(done.problems) and done.refused
    assert "same_club" in kinds(done.problems)


def test_moving_a_game_to_another_table() -> None:
    event = played(SWISS, entrants(8), 0)
    last = event.rounds[0].games[-1]
    done = edit_round(event, 1, RoundEdit(EditKind.TABLE, last.white, board=1))
    assert done.games[0].players == last.players and done.problems == ()
    assert done.games[-1].players == event.rounds[0].games[0].players
    with pytest.raises(InvalidSetting, match="boards 1 to 4"):
        edit_round(event, 1, RoundEdit(EditKind.TABLE, last.white, board=9))


def test_refusals_a_result_an_unknown_player_a_fixed_table_system() -> None:
    event = played(SWISS, entrants(8), 1)
    with pytest.raises(Conflict, match="has results"):
        edit_round(event, 1, RoundEdit(EditKind.SWAP, "p0", "p1"))
    with pytest.raises(NotFound, match="does not play in round 2"):
        edit_round(event, 2, RoundEdit(EditKind.SWAP, "p0", "nobody"))
    game = event.rounds[1].games[0]
    with pytest.raises(Conflict, match="play each other already"):
        edit_round(event, 2, RoundEdit(EditKind.PAIR, game.black, game.white))
    rr = Event(EventSettings(System.ROUND_ROBIN), entrants(4))
    rr = rr.with_round(system_for(rr.settings).next_round(rr).to_round())
    with pytest.raises(Conflict, match="fixed table or bracket"):
        edit_round(rr, 1, RoundEdit(EditKind.SWAP, "p0", "p1"))


@pytest.mark.parametrize("rounds", [0, 1, 2])
def test_the_explanation_of_an_unchanged_round_is_the_systems_own(rounds: int) -> None:
    """explain_round reproduces the system's explanation (same lot, same seeds), so an edited
    round's explanation differs only where the edit changed it."""
    s = EventSettings(System.SWISS, rounds=5, seed=7, first_round="lot")
    event = Event(s, entrants(9))
    for _ in range(rounds):
        plan = system_for(s).next_round(event)
        games = tuple(g.with_result(BLACK_WINS) for g in plan.games)
        event = event.with_round(Round(plan.number, games, plan.byes, plan.seed))
    plan = system_for(s).next_round(event)
    event = event.with_round(plan.to_round())
    why, totals = explain_round(event, plan.number, plan.games)
    assert why == plan.explanations and totals == plan.totals


def test_the_handicap_follows_the_new_pair() -> None:
    s = EventSettings(System.SWISS, rounds=3, color_policy="handicap")
    people = (
        Entrant("a", "A", Rank.parse("5d")),
        Entrant("b", "B", Rank.parse("4d")),
        Entrant("c", "C", Rank.parse("1k")),
        Entrant("d", "D", Rank.parse("2k")),
    )
    event = played(s, people, 0)
    games = {frozenset(g.players): g for g in event.rounds[0].games}
    assert games[frozenset("ac")].handicap == 5  # top half against bottom half
    done = edit_round(event, 1, RoundEdit(EditKind.PAIR, "a", "d"))
    new = next(g for g in done.games if set(g.players) == {"a", "d"})
    assert (new.black, new.white, new.handicap) == ("d", "a", 6)
