"""A referee's infraction and ruling read once (R-REF-6, R-END-1(d)): a game entered over the
board and a game played on the server refuse the same bad input with the same reason, next to
the same field, and store nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from weiqi.errors import InvalidSetting
from weiqi.services import games, live, live_referee
from weiqi.services import tournament as t
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.store.database import Database
from weiqi.tournament.settings import EventSettings, System

LOCAL = Actor.local()


def _event(db: Database, play: str) -> int:
    settings = EventSettings(System.ROUND_ROBIN, board_size=9, play=play, time_control="10m+3x30s")  # type: ignore[arg-type]
    ev = create_event(db, LOCAL, "Club", settings).id
    t.import_players(db, LOCAL, ev, "name\n李\n王\n")
    t.pair_round(db, LOCAL, ev)
    if play == "online":
        live.start_game(db, ev, 1, 1)
    return ev


@pytest.fixture(scope="module")
def both() -> tuple[Database, int, int]:
    db = Database("sqlite://")
    db.upgrade()
    return db, _event(db, "board"), _event(db, "online")


BAD_INFRACTIONS = [
    # (kind, offender, penalty, note) → the field refused
    (("", "B", None, ""), "infraction"),
    (("fell_asleep", "B", None, ""), "infraction"),
    (("phone_ringing", "", None, ""), "offender"),
    (("phone_ringing", "green", None, ""), "offender"),
    (("phone_ringing", "B", "jail", ""), "penalty"),
    (("phone_ringing", "B", None, "a\x00b"), "note"),
]
BAD_RULINGS = [
    # (kind, reason, loser) → the field refused
    (("", "why", None), "ruling"),
    (("surrender", "why", None), "ruling"),
    (("forfeit", "did not come", None), "loser"),
    (("draw", "both flags fell", "W"), "loser"),
    (("forfeit", "  ", "B"), "reason"),
]


def _refusal(call: Callable[[], Any]) -> tuple[str, str, dict[str, Any]]:
    with pytest.raises(InvalidSetting) as caught:
        call()
    err = caught.value
    return err.field, err.reason.id, dict(err.reason.args)


@pytest.mark.parametrize(("args", "field"), BAD_INFRACTIONS)
def test_r_ref_6_an_infraction_is_refused_alike_over_the_board_and_live(
    both: tuple[Database, int, int], args: tuple[str, str, str | None, str], field: str
) -> None:
    db, board_ev, live_ev = both
    kind, offender, penalty, note = args
    over_the_board = _refusal(lambda: games.record_infraction(
        db, LOCAL, board_ev, 1, 1, kind, offender, penalty, note))  # fmt: skip
    on_the_server = _refusal(lambda: live_referee.record_infraction(
        db, LOCAL, live_ev, 1, 1, None, kind, offender, penalty, note))  # fmt: skip
    assert over_the_board == on_the_server
    assert over_the_board[0] == field
    assert games.game_view(db, board_ev, 1, 1).seq == 0  # nothing stored


@pytest.mark.parametrize(("args", "field"), BAD_RULINGS)
def test_r_end_1_a_ruling_is_refused_alike_over_the_board_and_live(
    both: tuple[Database, int, int], args: tuple[str, str, str | None], field: str
) -> None:
    db, board_ev, live_ev = both
    kind, reason, loser = args
    over_the_board = _refusal(lambda: games.record_ruling(
        db, LOCAL, board_ev, 1, 1, kind, reason, loser))  # fmt: skip
    on_the_server = _refusal(lambda: live_referee.record_ruling(
        db, LOCAL, live_ev, 1, 1, None, kind, reason, loser))  # fmt: skip
    assert over_the_board == on_the_server
    assert over_the_board[0] == field


def test_r_ref_6_a_live_game_refuses_what_a_server_board_cannot_see(
    both: tuple[Database, int, int],
) -> None:
    """A double move is recorded over the board; on the server's board it cannot happen."""
    db, _board_ev, live_ev = both
    field, reason, _args = _refusal(lambda: live_referee.record_infraction(
        db, LOCAL, live_ev, 1, 1, None, "double_move", "B"))  # fmt: skip
    assert (field, reason) == ("infraction", "a referee does not record %(kind)s in this game")
    board_ev = _event(db, "board")  # its own: the other tests find their boards untouched
    view = games.record_infraction(db, LOCAL, board_ev, 1, 1, "double_move", "B")
    assert view.seq > 0  # the record started, the infraction in it
