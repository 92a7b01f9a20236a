"""R-FMT-3 擂台赛: the winner keeps playing; a team is out when all its players are."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from weiqi.errors import Conflict, InputError, InvalidSetting
from weiqi.league.winner_stays_on import PlayerOrder, WinnerStaysOn
from weiqi.rules.color import Color
from weiqi.rules.result import Reason, Result


def win_for(m: WinnerStaysOn, player: str) -> Result:
    """The result by which ``player`` wins the current game."""
    g = m.next_game()
    color = Color.BLACK if g.black[1] == player else Color.WHITE
    assert player in (g.holder[1], g.challenger[1])
    return Result.win(color, Reason.RESIGNATION)


def play(m: WinnerStaysOn, winner: str) -> None:
    m.record(win_for(m, winner))


def test_r_fmt_3_fixed_order_china_japan_style() -> None:
    """R-FMT-3: order fixed in advance; the winner stays; the last team with players wins."""
    m = WinnerStaysOn({"CN": ["c1", "c2", "c3"], "JP": ["j1", "j2", "j3"]})
    play(m, "j1")  # j1 beats c1
    play(m, "j1")  # … and c2
    g = m.next_game()
    assert (g.holder, g.challenger) == (("JP", "j1"), ("CN", "c3"))
    play(m, "c3")  # the last Chinese player beats all three
    play(m, "c3")
    assert not m.finished
    play(m, "c3")
    assert m.finished and m.winner == "CN"
    assert m.out == [("CN", "c1"), ("CN", "c2"), ("JP", "j1"), ("JP", "j2"), ("JP", "j3")]
    assert [g.number for g in m.games] == [1, 2, 3, 4, 5]
    with pytest.raises(Conflict, match="over"):
        m.next_game()


def test_r_fmt_3_order_chosen_by_the_team_to_send() -> None:
    """R-FMT-3 setting: the team whose player must come next chooses him at that moment."""
    m = WinnerStaysOn({"A": ["a1", "a2"], "B": ["b1", "b2"]}, order=PlayerOrder.CHOSEN)
    assert m.awaiting == "A"
    with pytest.raises(Conflict, match="not B's turn"):
        m.send("B", "b1")
    m.send("A", "a2")
    assert m.awaiting == "B"
    with pytest.raises(Conflict, match="must send"):
        m.next_game()
    m.send("B", "b2")
    play(m, "a2")
    assert m.awaiting == "B"  # the loser's team chooses its next player
    with pytest.raises(InputError, match="not a waiting player"):
        m.send("B", "b2")
    m.send("B", "b1")
    play(m, "b1")
    assert m.awaiting == "A" and m.waiting("A") == ("a1",)
    m.send("A", "a1")
    play(m, "b1")
    assert m.winner == "B"


def test_r_fmt_3_fixed_order_refuses_choices() -> None:
    m = WinnerStaysOn({"A": ["a1"], "B": ["b1"]})
    with pytest.raises(Conflict, match="fixed in advance"):
        m.send("A", "a1")


def test_r_fmt_3_three_teams_the_losers_team_sends_the_next_player() -> None:
    """R-FMT-3: with three or more teams, the loser's team sends the next player; a team with
    nobody left is skipped."""
    m = WinnerStaysOn({"A": ["a1", "a2"], "B": ["b1"], "C": ["c1", "c2"]})
    g = m.next_game()
    assert (g.holder, g.challenger) == (("A", "a1"), ("B", "b1"))
    play(m, "a1")  # B is out: the next team in order after B sends
    g = m.next_game()
    assert g.challenger == ("C", "c1")
    play(m, "c1")  # a1 loses: A (the loser's team) sends a2
    g = m.next_game()
    assert (g.holder, g.challenger) == (("C", "c1"), ("A", "a2"))
    play(m, "c1")
    assert m.finished and m.winner == "C" and m.alive() == ("C",)


def test_r_fmt_3_draw_puts_both_players_out() -> None:
    """A draw or both-lose: both players leave; each team sends its next player."""
    m = WinnerStaysOn({"A": ["a1", "a2"], "B": ["b1", "b2"]})
    m.next_game()
    m.record(Result.draw())
    g = m.next_game()
    assert {g.holder, g.challenger} == {("A", "a2"), ("B", "b2")}
    m.next_game()
    m.record(Result.both_lose())
    assert m.finished and m.winner is None


def test_r_fmt_3_replay_meets_again() -> None:
    m = WinnerStaysOn({"A": ["a1"], "B": ["b1"]})
    first = m.next_game()
    m.record(Result.replay())
    again = m.next_game()
    assert (again.holder, again.challenger, again.number) == (first.holder, first.challenger, 2)


def test_r_fmt_3_colors_challenger_black_or_seeded_nigiri() -> None:
    m = WinnerStaysOn({"A": ["a1"], "B": ["b1"]})
    g = m.next_game()
    assert g.black == g.challenger and g.white == g.holder
    blacks = []
    for seed in range(10):
        n = WinnerStaysOn({"A": ["a1"], "B": ["b1"]}, rng=random.Random(seed))
        blacks.append(n.next_game().black)
    assert set(blacks) == {("A", "a1"), ("B", "b1")}


def test_r_fmt_3_settings_checked() -> None:
    with pytest.raises(InvalidSetting, match="at least two teams"):
        WinnerStaysOn({"A": ["a1"]})
    with pytest.raises(InvalidSetting, match="listed twice"):
        WinnerStaysOn({"A": ["a1", "a1"], "B": ["b1"]})
    m = WinnerStaysOn({"A": ["a1"], "B": ["b1"]})
    with pytest.raises(Conflict, match="next_game"):
        m.record(Result.draw())


def test_r_wd_1_withdrawal_mid_game_is_a_forfeit_and_results_stand() -> None:
    """R-WD-1: a team leaving a match keeps its results; the rest are forfeits."""
    m = WinnerStaysOn({"A": ["a1", "a2", "a3"], "B": ["b1", "b2"], "C": ["c1"]})
    play(m, "a1")  # b1 out
    g = m.next_game()
    assert g.challenger == ("B", "b2")
    m.withdraw("B")
    assert m.games[1].result == Result.win(Color.WHITE, Reason.FORFEIT)  # b2 had black
    assert m.games[0].result is not None and m.games[0].result.reason is Reason.RESIGNATION
    g = m.next_game()
    assert (g.holder, g.challenger) == (("A", "a1"), ("C", "c1"))
    play(m, "a1")
    assert m.winner == "A"


def test_r_wd_1_withdrawal_between_games() -> None:
    m = WinnerStaysOn({"A": ["a1"], "B": ["b1", "b2"], "C": ["c1", "c2"]})
    play(m, "b1")  # a1 out: A has nobody left, C sends the next player
    m.withdraw("B")  # b1 waits on the stage: he is out, C's players take the stage
    assert m.finished and m.winner == "C"
    with pytest.raises(Conflict, match="over"):
        m.withdraw("C")


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(min_value=1, max_value=4), min_size=2, max_size=4),
    st.integers(min_value=0, max_value=10_000),
)
def test_r_fmt_3_property_always_ends_with_one_team(sizes: list[int], seed: int) -> None:
    """R-FMT-3 property: any results end the match within one game per player; a winning team
    still has a player; every loser is out exactly once."""
    teams = {f"T{i}": [f"T{i}p{j}" for j in range(n)] for i, n in enumerate(sizes)}
    rng = random.Random(seed)
    m = WinnerStaysOn(teams)
    total = sum(sizes)
    while not m.finished:
        m.next_game()
        roll = rng.random()
        if roll < 0.05:
            m.record(Result.draw())
        elif roll < 0.08:
            m.record(Result.replay())
        else:
            m.record(Result.win(rng.choice([Color.BLACK, Color.WHITE]), Reason.RESIGNATION))
        assert len(m.games) <= 2 * total
    out = m.out
    assert len(out) == len(set(out))
    decided = [g for g in m.games if g.result is not None and g.result.outcome.value != "replay"]
    assert len(decided) <= total - 1
    if m.winner is not None:
        survivors = [p for p in teams[m.winner] if (m.winner, p) not in out]
        assert survivors
        assert all(t == m.winner or all((t, p) in out for p in ps) for t, ps in teams.items())
