"""R-FMT-3 擂台赛: every game of a 擂台赛 is a board with its own record, refereed like every
team board (R-REF-7 entry, confirmation and the chief referee's correction; R-PEN-1 warnings),
on SQLite and PostgreSQL. The match moves on from the boards' results: the next game is seated
once the one before it has a result, and reseated when a correction changes who plays it."""

from __future__ import annotations

import pytest

from tests.league.test_team_service import LOCAL, T0, event
from weiqi.errors import Conflict
from weiqi.league.winner_stays_on import PlayerOrder
from weiqi.services import games
from weiqi.services.games import TeamBoard
from weiqi.services.server_clock import ManualClock
from weiqi.services.teams import (
    pair_round,
    reveal_round,
    show_round,
    submit_lineup,
)
from weiqi.services.winner_stays_on import record_stage_result, send_player, winner_stays_on
from weiqi.store.database import Database
from weiqi.tournament.settings import System


def stage(db: Database, order: PlayerOrder = PlayerOrder.FIXED) -> int:
    """A 擂台赛 of teams A and B, two players each (X1 first), revealed."""
    ev = event(db, "AB", 2, boards=2, system=System.WINNER_STAYS_ON, player_order=order)
    pair_round(db, LOCAL, ev)
    for t in "AB":
        submit_lineup(db, LOCAL, ev, 1, t, [f"{t}1", f"{t}2"], clock=ManualClock(T0))
    reveal_round(db, LOCAL, ev, 1, clock=ManualClock(T0))
    return ev


def seated(db: Database, ev: int) -> list[tuple[int, str, str, str, str | None]]:
    """Round 1's boards: (match, home team, away team, home colour, result)."""
    rnd = show_round(db, ev, 1)
    return [
        (m.number, m.home, m.away, b.home_color, b.result) for m in rnd.matches for b in m.boards
    ]


def test_r_fmt_3_each_game_is_a_board_seated_when_the_one_before_has_a_result(
    db: Database,
) -> None:
    ev = stage(db)
    # game 1 is seated at the reveal: A1 (holder, at home) against B1, the challenger black
    assert seated(db, ev) == [(1, "A", "B", "W", None)]
    view = games.game_view(db, ev, 1, TeamBoard(1, 1))
    assert (view.black, view.white, view.black_team) == ("B1", "A1", "B")
    # entered on the board's page like any team board: game 2 is seated at once
    games.enter_result(db, LOCAL, ev, 1, TeamBoard(1, 1), "B+R")  # B1 beats A1
    assert seated(db, ev) == [(1, "A", "B", "W", "B+R"), (2, "B", "A", "W", None)]
    stage_view = winner_stays_on(db, ev)
    assert [(g.holder, g.challenger) for g in stage_view.games] == [
        (("A", "A1"), ("B", "B1")),
        (("B", "B1"), ("A", "A2")),
    ]
    games.confirm_result(db, LOCAL, ev, 1, TeamBoard(1, 1))
    assert games.game_view(db, ev, 1, TeamBoard(1, 1)).confirmed
    # the signed sheet of the command line (``weiqi team winner-stays-on result``) is the
    # same board's record, entered and confirmed
    record_stage_result(db, LOCAL, ev, "W+R", 2)  # B1 (white) beats A2: A is out
    done = winner_stays_on(db, ev)
    assert done.finished and done.winner == "B"
    board2 = games.game_view(db, ev, 1, TeamBoard(2, 1))
    assert board2.confirmed and board2.result == "W+R" and board2.seq == 3
    assert len(seated(db, ev)) == 2  # the match is over: nothing more is seated


def test_r_ref_7_a_correction_reseats_the_next_game_not_yet_begun(db: Database) -> None:
    ev = stage(db)
    record_stage_result(db, LOCAL, ev, "B+R", 1)  # B1 beats A1; game 2: B1 against A2
    assert seated(db, ev)[1] == (2, "B", "A", "W", None)
    # the chief referee corrects game 1: A1 (white) won; game 2 is A1 against B2 now
    view = games.correct_result(db, LOCAL, ev, 1, TeamBoard(1, 1), "W+R", "the sheet was misread")
    last = view.history[-1]
    assert view.result == "W+R" and (last.previous, last.result) == ("B+R", "W+R")
    assert seated(db, ev) == [(1, "A", "B", "W", "W+R"), (2, "A", "B", "W", None)]
    assert winner_stays_on(db, ev).games[1].challenger == ("B", "B2")


def test_r_ref_7_a_correction_that_would_unseat_a_game_played_is_refused(db: Database) -> None:
    ev = stage(db)
    record_stage_result(db, LOCAL, ev, "B+R", 1)  # B1 beats A1
    games.enter_result(db, LOCAL, ev, 1, TeamBoard(2, 1), "B+R")  # A2 beats B1 (game 2)
    with pytest.raises(Conflict) as refused:
        games.correct_result(db, LOCAL, ev, 1, TeamBoard(1, 1), "W+R", "misread")
    assert refused.value.msg.args == {"game": 2}
    # nothing was stored: game 1 still says B+R and game 2 stands
    assert [s[4] for s in seated(db, ev)][:2] == ["B+R", "B+R"]
    # a correction that keeps who won is a correction like any other
    games.correct_result(db, LOCAL, ev, 1, TeamBoard(1, 1), "B+T", "lost on time, not resigned")
    assert seated(db, ev)[0][4] == "B+T"


def test_r_pen_1_a_warning_on_a_stage_board(db: Database) -> None:
    ev = stage(db)
    view = games.record_infraction(
        db, LOCAL, ev, 1, TeamBoard(1, 1), "phone_ringing", "B", penalty="warning"
    )
    assert view.warnings == (1, 0)
    assert seated(db, ev) == [(1, "A", "B", "W", None)]  # no result: the match waits


def test_r_fmt_3_chosen_order_seats_a_game_once_both_players_are_sent(db: Database) -> None:
    ev = stage(db, PlayerOrder.CHOSEN)
    assert seated(db, ev) == []
    send_player(db, LOCAL, ev, "A", "A2")
    assert seated(db, ev) == []
    send_player(db, LOCAL, ev, "B", "B1")
    assert seated(db, ev) == [(1, "A", "B", "W", None)]
    games.enter_result(db, LOCAL, ev, 1, TeamBoard(1, 1), "W+R")  # A2 (white) beats B1
    assert len(seated(db, ev)) == 1  # B chooses its next player first
    send_player(db, LOCAL, ev, "B", "B2")
    assert seated(db, ev)[1] == (2, "A", "B", "W", None)


def test_r_fmt_3_a_teams_board_on_the_sheet_is_its_latest_game(db: Database) -> None:
    """The result sheet and ``weiqi round result --team`` name a board by its team: in a
    擂台赛 that is the team's latest game (the earlier ones are over); a replay is a result
    there too (the same two meet again), where a match sheet refuses it."""
    from weiqi.services.teams import (
        match_number,
        record_results,
    )

    ev = stage(db)
    record_stage_result(db, LOCAL, ev, "B+R", 1)  # B1 beats A1; game 2: B1 against A2
    assert match_number(db, ev, 1, "A") == 2
    record_results(db, LOCAL, ev, 1, [("A", 1, "Replay")])  # game 2 is to be played again
    assert [s[4] for s in seated(db, ev)] == ["B+R", "Replay", None]
    record_results(db, LOCAL, ev, 1, [("B", 1, "W+R")])  # game 3: B1 (white) beats A2
    assert winner_stays_on(db, ev).winner == "B"
