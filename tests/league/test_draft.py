"""R-LEAGUE-2: the transfer draft (摘牌), reverse order, protected base, passes, audit log."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.league.conftest import entry
from weiqi.errors import Conflict, InputError, InvalidSetting
from weiqi.league.draft import Draft, DraftAction, Unpicked, combined_standing, draft_order, replay
from weiqi.league.team import RosterEntry


def roster(club: str, n: int) -> list[RosterEntry]:
    return [entry(f"{club}{i}", rating=3000 - i) for i in range(1, n + 1)]


def base(club: str) -> list[str]:
    return [f"{club}{i}" for i in range(1, 5)]


def test_r_league_2_order_of_the_2016_draft() -> None:
    """R-LEAGUE-2, seed text: the lower division's third picks first … the top division's
    champion 14th (12 in 甲, one relegated, three promoted from 乙)."""
    jia = [f"甲{i}" for i in range(1, 13)]
    yi = [f"乙{i}" for i in range(1, 13)]
    next_jia = jia[:11] + yi[:3]
    order = draft_order(combined_standing(jia, yi), next_jia)
    assert order == ["乙3", "乙2", "乙1", *[f"甲{i}" for i in range(11, 0, -1)]]
    assert order.index("甲1") == 13  # the champion picks 14th


def test_r_league_2_participants_must_have_a_standing() -> None:
    with pytest.raises(InvalidSetting, match="not in last season's standing"):
        draft_order(["A", "B"], ["A", "Z"])
    with pytest.raises(InvalidSetting, match="two divisions"):
        combined_standing(["A"], ["A"])


def test_r_league_2_base_of_four_protected_rest_listed() -> None:
    """R-LEAGUE-2: each club keeps a base of 4 and lists the others."""
    d = Draft(
        ["P", "Q"], {"P": roster("p", 6), "Q": roster("q", 5)}, {"P": base("p"), "Q": base("q")}
    )
    assert d.pool == ("p5", "p6", "q5")
    assert d.listed_by("q5") == "Q"
    with pytest.raises(InputError, match="3 protected; a club keeps a base of exactly 4"):
        Draft(["P"], {"P": roster("p", 6)}, {"P": ["p1", "p2", "p3"]})
    with pytest.raises(InputError, match="zz is not on its roster"):
        Draft(["P"], {"P": roster("p", 6)}, {"P": ["p1", "p2", "p3", "zz"]})
    small = Draft(["P"], {"P": roster("p", 3)}, {"P": ["p1", "p2", "p3"]})
    assert small.finished and small.pool == ()


def test_r_league_2_picks_in_order_rounds_until_all_pass() -> None:
    """R-LEAGUE-2: clubs pick in order, may pass; a round where all pass ends the draft."""
    d = Draft(
        ["L", "M", "N"],
        {"L": roster("l", 6), "M": roster("m", 6), "N": roster("n", 5)},
        {"L": base("l"), "M": base("m"), "N": base("n")},
    )
    with pytest.raises(Conflict, match="it is L's turn, not M's"):
        d.pick("M", "l5")
    with pytest.raises(Conflict, match="cannot pick him back"):
        d.pick("L", "l5")
    d.pick("L", "m5")
    d.pass_turn("M")
    d.pick("N", "l6")
    assert d.round == 2 and d.on_the_clock == "L"
    d.pass_turn("L")
    d.pick("M", "n5")
    d.pass_turn("N")
    assert d.round == 3
    d.pass_turn("L")
    d.pass_turn("M")
    assert not d.finished
    d.pass_turn("N")
    assert d.finished
    assert [e.text() for e in d.log] == [
        "1.1 L picks m5 (from M)",
        "1.2 M passes",
        "1.3 N picks l6 (from L)",
        "2.1 L passes",
        "2.2 M picks n5 (from N)",
        "2.3 N passes",
        "3.1 L passes",
        "3.2 M passes",
        "3.3 N passes",
    ]
    rosters = d.rosters()
    assert [p.player_id for p in rosters["L"]] == [
        "l1",
        "l2",
        "l3",
        "l4",
        "m5",
        "l5",
    ]  # l5 unpicked
    assert [p.player_id for p in rosters["M"]] == ["m1", "m2", "m3", "m4", "n5", "m6"]
    assert [p.player_id for p in rosters["N"]] == ["n1", "n2", "n3", "n4", "l6"]
    assert all(p.protected for p in rosters["L"][:4]) and not rosters["L"][4].protected
    with pytest.raises(Conflict, match="over"):
        d.pass_turn("L")


def test_r_league_2_empty_pool_ends_the_draft() -> None:
    d = Draft(
        ["A", "B"], {"A": roster("a", 4), "B": roster("b", 5)}, {"A": base("a"), "B": base("b")}
    )
    d.pick("A", "b5")
    assert d.finished and d.on_the_clock is None


def test_r_league_2_full_roster_must_pass() -> None:
    """With a roster limit, a club's own listed players count while they may come back to it."""
    d = Draft(
        ["A", "B"],
        {"A": roster("a", 5), "B": roster("b", 6)},
        {"A": base("a"), "B": base("b")},
        max_roster=6,
    )
    assert (d.room("A"), d.room("B")) == (1, 0)  # B: 4 kept + 2 listed who stay if unpicked
    d.pick("A", "b5")
    assert (d.room("A"), d.room("B")) == (0, 1)
    d.pick("B", "a5")
    assert (d.room("A"), d.room("B")) == (1, 0)
    d.pick("A", "b6")
    assert d.finished
    assert {c: len(r) for c, r in d.rosters().items()} == {"A": 6, "B": 5}


def test_r_league_2_full_club_cannot_pick() -> None:
    d = Draft(
        ["A", "B"],
        {"A": roster("a", 6), "B": roster("b", 6)},
        {"A": base("a"), "B": base("b")},
        max_roster=6,
    )
    with pytest.raises(Conflict, match="full roster"):
        d.pick("A", "b5")


def test_r_league_2_unpicked_players_released_setting() -> None:
    """Setting: listed players nobody picks leave their club instead of returning."""
    d = Draft(
        ["A", "B"],
        {"A": roster("a", 6), "B": roster("b", 6)},
        {"A": base("a"), "B": base("b")},
        max_roster=6,
        unpicked=Unpicked.RELEASE,
    )
    assert d.room("A") == 2
    d.pick("A", "b5")
    d.pass_turn("B")
    d.pass_turn("A")
    d.pass_turn("B")
    assert [p.player_id for p in d.released] == ["a5", "a6", "b6"]
    assert {c: len(r) for c, r in d.rosters().items()} == {"A": 5, "B": 4}


def test_r_league_2_draft_is_replayable_and_tampering_is_caught() -> None:
    """R-LEAGUE-2: the log replays to the same rosters; an altered line is refused."""
    setup = (
        ["A", "B"],
        {"A": roster("a", 6), "B": roster("b", 6)},
        {"A": base("a"), "B": base("b")},
    )
    d = Draft(*setup)
    d.pick("A", "b6")
    d.pass_turn("B")
    d.pick("A", "b5")
    d.pass_turn("B")
    d.pass_turn("A")
    d.pass_turn("B")
    again = replay(*setup, d.log)
    assert again.rosters() == d.rosters() and again.log == d.log
    forged = list(d.log)
    forged[0] = replace(forged[0], club="B")
    with pytest.raises(Conflict, match="draft log line 1"):
        replay(*setup, forged)
    swapped = list(d.log)
    swapped[1] = replace(swapped[1], action=DraftAction.PICK, player="a5", from_club="A")
    assert replay(*setup, swapped).rosters()["B"][-1].player_id == "a5"  # a legal other history
    skipped = d.log[:1] + d.log[2:]
    with pytest.raises(Conflict, match="draft log line 3"):
        replay(*setup, skipped)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(min_value=4, max_value=7), min_size=2, max_size=6),
    st.integers(min_value=0, max_value=10_000),
    st.sampled_from([None, 6, 7]),
    st.sampled_from(list(Unpicked)),
)
def test_r_league_2_property_draft_ends_conserves_players_and_replays(
    sizes: list[int], seed: int, max_roster: int | None, unpicked: Unpicked
) -> None:
    """R-LEAGUE-2 property: any picks and passes end the draft; nobody is lost or doubled; no
    roster ends above the limit; the log replays to the same rosters."""
    clubs = [f"C{i}" for i in range(len(sizes))]
    rosters = {c: roster(c.lower(), n) for c, n in zip(clubs, sizes, strict=True)}
    protected = {c: base(c.lower()) for c in clubs}
    rng = random.Random(seed)
    order = rng.sample(clubs, len(clubs))
    d = Draft(order, rosters, protected, max_roster=max_roster, unpicked=unpicked)
    steps = 0
    while not d.finished:
        club = d.on_the_clock
        assert club is not None
        choices = [p for p in d.pool if d.listed_by(p) != club]
        if d.room(club) == 0 or not choices or rng.random() < 0.4:
            d.pass_turn(club)
        else:
            d.pick(club, rng.choice(choices))
        steps += 1
        assert steps < 1000
    after = d.rosters()
    everyone = sorted(p.player_id for r in rosters.values() for p in r)
    kept = sorted(
        [p.player_id for r in after.values() for p in r] + [p.player_id for p in d.released]
    )
    assert kept == everyone
    if max_roster is not None and unpicked is Unpicked.RETURN:
        assert all(len(r) <= max(max_roster, len(rosters[c])) for c, r in after.items())
    assert (
        replay(order, rosters, protected, d.log, max_roster=max_roster, unpicked=unpicked).rosters()
        == after
    )
