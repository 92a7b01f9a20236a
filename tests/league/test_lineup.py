"""Lineups: each refusal names its reason; sealed until the deadline; fallback when missing
(R-FMT-1 临场出人制, R-LEAGUE-1)."""

from __future__ import annotations

import pytest

from tests.league.conftest import entry, team
from weiqi.errors import LineupRejected
from weiqi.league.lineup import (
    LineupBox,
    LineupSettings,
    MissingLineup,
    lineups_for_round,
    validate_lineup,
)

T = team(
    "sh",
    entry("a"),
    entry("b"),
    entry("c"),
    entry("d"),
    entry("k1", foreign=True),
    entry("k2", foreign=True),
)
FOUR = LineupSettings(boards=4, max_foreign=1)


@pytest.mark.parametrize(
    ("lineup", "reason"),
    [
        (("a", "b", "c"), "3 players for 4 boards"),
        (("a", "b", "c", "d", "k1"), "5 players for 4 boards"),
        (("a", "b", "zz", "d"), "board 3: player zz is not on the roster"),
        (("a", "b", "a", "d"), "player a on more than one board"),
        (("a", "k1", "k2", "d"), "2 foreign players (k1, k2); at most 1 may play a round"),
    ],
)
def test_r_league_1_lineup_refused_with_reason(lineup: tuple[str, ...], reason: str) -> None:
    """R-LEAGUE-1: an illegal lineup is refused with the reason (roster, foreign limit, boards)."""
    with pytest.raises(LineupRejected) as err:
        validate_lineup(T, lineup, FOUR)
    assert reason in err.value.message
    assert err.value.team == "sh"


def test_r_league_1_foreign_limit_is_a_setting() -> None:
    """R-LEAGUE-1: the per-round foreign limit is an event setting (none, 0, 2 …)."""
    two_foreign = ("a", "k1", "k2", "d")
    assert validate_lineup(T, two_foreign, LineupSettings(boards=4)) == two_foreign
    assert validate_lineup(T, two_foreign, LineupSettings(boards=4, max_foreign=2)) == two_foreign
    with pytest.raises(LineupRejected, match="at most 0"):
        validate_lineup(T, ("a", "b", "c", "k1"), LineupSettings(boards=4, max_foreign=0))


def test_r_fmt_1_lineup_after_the_deadline_is_refused() -> None:
    """R-FMT-1 临场出人制: the coach submits before the deadline; at or after it, refused."""
    box = LineupBox(deadline=1000.0, settings=FOUR)
    with pytest.raises(LineupRejected, match=r"submitted at 1000.0, after the deadline \(1000.0\)"):
        box.submit(T, ("a", "b", "c", "d"), now=1000.0)
    assert not box.submitted("sh")


def test_r_fmt_1_lineups_secret_until_deadline_then_published_together() -> None:
    """R-FMT-1: lineups stay secret until the deadline, then are published together."""
    other = team("bj", entry("x"), entry("y"), entry("z"), entry("w"))
    box = LineupBox(deadline=50.0, settings=FOUR)
    box.submit(T, ("a", "b", "c", "d"), now=10.0)
    box.submit(T, ("d", "c", "b", "k1"), now=20.0)  # resubmitted: the last one counts
    assert box.submitted("sh") and not box.submitted("bj")
    with pytest.raises(LineupRejected, match="secret until the deadline"):
        box.reveal(now=49.9)
    box.submit(other, ("w", "x", "y", "z"), now=49.0)
    assert box.reveal(now=50.0) == {"sh": ("d", "c", "b", "k1"), "bj": ("w", "x", "y", "z")}


def test_r_fmt_1_a_refused_lineup_does_not_replace_the_sealed_one() -> None:
    """A refused resubmission leaves the earlier valid lineup in the box."""
    box = LineupBox(deadline=50.0, settings=FOUR)
    box.submit(T, ("a", "b", "c", "d"), now=10.0)
    with pytest.raises(LineupRejected):
        box.submit(T, ("a", "k1", "k2", "d"), now=11.0)
    assert box.reveal(now=60.0) == {"sh": ("a", "b", "c", "d")}


def test_r_fmt_1_missing_lineup_falls_back_per_setting() -> None:
    """R-FMT-1: a missing lineup is the previous one, or forfeits the empty boards (setting)."""
    revealed = {"sh": ("a", "b", "c", "d")}
    previous = {"bj": ("w", "x", "y", "z")}
    prev = LineupSettings(boards=4, missing=MissingLineup.PREVIOUS)
    forfeit = LineupSettings(boards=4, missing=MissingLineup.FORFEIT)
    assert lineups_for_round(revealed, ["sh", "bj", "gz"], previous, prev) == {
        "sh": ("a", "b", "c", "d"),
        "bj": ("w", "x", "y", "z"),
        "gz": None,  # no previous lineup either: its boards are empty
    }
    assert lineups_for_round(revealed, ["sh", "bj"], previous, forfeit) == {
        "sh": ("a", "b", "c", "d"),
        "bj": None,
    }
