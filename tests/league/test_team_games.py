"""Every board of a team match is a refereed game with its own record, on SQLite and
PostgreSQL: the signed sheet enters and confirms it (R-REF-7), the chief referee corrects it
with a reason and its history (R-REF-7, R-REF-6), warnings count as stones (R-PEN-1), a recount
reopens it, a replay ruling has it played again (R-REF-3) — and the match score and the team
standings (R-SCORE-TEAM-1, R-RANK-TEAM) follow the record's current result."""

from __future__ import annotations

from datetime import UTC, datetime
from fractions import Fraction

import pytest

from weiqi.errors import Conflict, InvalidSetting, NotFound, PermissionDenied
from weiqi.i18n import render
from weiqi.league.settings import TeamEventSettings
from weiqi.roles import Role
from weiqi.rules.ruleset import CyclePolicy
from weiqi.services import accounts, games
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.services.games import TeamBoard
from weiqi.services.server_clock import ManualClock
from weiqi.services.teams import (
    import_teams,
    pair_round,
    record_board_result,
    record_results,
    reveal_round,
    show_round,
    standings,
    submit_lineup,
)
from weiqi.store.database import Database

LOCAL = Actor.local()
T0 = datetime(2026, 5, 1, 8, 0, tzinfo=UTC)


def seated(db: Database, boards: int = 2) -> tuple[int, dict[str, Actor]]:
    """Teams A and B, ``boards`` boards, round 1 revealed; one user per event role."""
    ev = create_event(db, LOCAL, "团体赛", TeamEventSettings(boards=boards)).id
    csv = "team,name,rank\n" + "\n".join(f"{t},{t}{i},{9 - i}p" for t in "AB" for i in (1, 2, 3))
    import_teams(db, LOCAL, ev, csv)
    pair_round(db, LOCAL, ev)
    for t in "AB":
        submit_lineup(
            db, LOCAL, ev, 1, t, [f"{t}{i}" for i in range(1, boards + 1)], clock=ManualClock(T0)
        )
    reveal_round(db, LOCAL, ev, 1, clock=ManualClock(T0))
    who = {}
    for role in (Role.ORGANISER, Role.CHIEF_REFEREE, Role.REFEREE, Role.PLAYER):
        user = accounts.create_user(db, LOCAL, f"{role.value}-{ev}", "quiet tortoise 123")
        accounts.grant_role(db, LOCAL, user.id, ev, role)
        who[role.value] = Actor(user.id, user.username)
    return ev, who


def win_for(view: games.GameView, team: str) -> str:
    """The result code by which ``team`` wins the board (colours are the match's)."""
    return "B+R" if view.black_team == team else "W+R"


def score(db: Database, ev: int) -> tuple[int, int] | None:
    return show_round(db, ev, 1).matches[0].game_points


def test_r_ref_7_a_team_board_result_is_confirmed_and_only_the_chief_referee_corrects_it(
    db: Database,
) -> None:
    """R-REF-7, R-REF-6: the sheet's result is entered and confirmed in the board's record; a
    referee may not change it, the chief referee corrects it with a reason; the history keeps
    both, and the match score and the standings follow the correction (R-RANK-TEAM)."""
    ev, who = seated(db)
    m = show_round(db, ev, 1).matches[0]
    home = m.home
    one = games.game_view(db, ev, 1, TeamBoard(1, 1))
    two = games.game_view(db, ev, 1, TeamBoard(1, 2))
    assert {one.black_team, one.white_team} == {m.home, m.away}
    assert one.black == f"{one.black_team}1" and one.seq == 0
    record_results(
        db, who["referee"], ev, 1, [(home, 1, win_for(one, home)), (home, 2, win_for(two, home))]
    )
    assert score(db, ev) == (4, 0)
    assert [(s.team, s.match_points) for s in standings(db, ev)] == [(m.home, 2), (m.away, 0)]
    one = games.game_view(db, ev, 1, TeamBoard(1, 1))
    assert one.confirmed and one.seq == 3 and one.result == win_for(one, home)
    assert show_round(db, ev, 1).matches[0].boards[0].confirmed

    with pytest.raises(Conflict, match=r"is confirmed; only the chief referee"):
        record_board_result(db, who["chief_referee"], ev, 1, home, 1, win_for(one, m.away))
    with pytest.raises(PermissionDenied):
        games.correct_result(
            db, who["referee"], ev, 1, TeamBoard(1, 1), win_for(one, m.away), "记错了"
        )
    with pytest.raises(InvalidSetting, match="reason"):
        games.correct_result(db, who["chief_referee"], ev, 1, TeamBoard(1, 1), "W+R", " ")
    for b in (1, 2):
        view = games.game_view(db, ev, 1, TeamBoard(1, b))
        view = games.correct_result(
            db,
            who["chief_referee"],
            ev,
            1,
            TeamBoard(1, b),
            win_for(view, m.away),
            "记录表填反",
            expected_seq=view.seq,
        )
        assert view.confirmed and view.result == win_for(view, m.away)
        last = view.history[-1]
        assert (last.previous, last.result) == (win_for(view, home), win_for(view, m.away))
        assert (
            last.who_role == "chief_referee"
            and render(last.reason, "zh_CN") == "裁判长更正：记录表填反"
        )
    assert score(db, ev) == (0, 4)
    assert [(s.team, s.match_points) for s in standings(db, ev)] == [(m.away, 2), (m.home, 0)]
    with pytest.raises(Conflict, match="has changed since you loaded it"):
        games.correct_result(
            db, who["chief_referee"], ev, 1, TeamBoard(1, 1), "0", "again", expected_seq=3
        )


def test_r_pen_1_a_warning_and_a_recount_on_a_team_board(db: Database) -> None:
    """R-PEN-1, R-REF-7: a count entered on a team board gives Black ¼ stone; a recount
    reopens it (the match is not finished meanwhile); a warning for Black turns it into
    白胜3/4子 and the match score follows; confirmed, it is final."""
    ev, who = seated(db)
    m = show_round(db, ev, 1).matches[0]
    board = TeamBoard(1, 1)
    two = games.game_view(db, ev, 1, TeamBoard(1, 2))
    record_board_result(db, who["referee"], ev, 1, m.home, 2, win_for(two, m.home))
    g = games.enter_result(db, who["organiser"], ev, 1, board, "184.5")
    assert (g.result_zh, g.confirmed) == ("黑胜1/4子", False)
    black_points = (2, 0) if g.black_team == m.home else (0, 2)
    assert score(db, ev) == (black_points[0] + 2, black_points[1])
    g = games.request_recount(db, who["referee"], ev, 1, board, "W", expected_seq=g.seq)
    assert g.result is None and score(db, ev) is None  # the match waits for the recount
    g = games.enter_result(db, who["referee"], ev, 1, board, "184.5")
    g = games.record_infraction(db, who["referee"], ev, 1, board, "clock_before_move", "B")
    assert (g.result_zh, g.warnings) == ("白胜3/4子", (1, 0))
    assert [i.kind for i in g.infractions] == ["clock_before_move"]
    assert score(db, ev) == (black_points[1] + 2, black_points[0])
    with pytest.raises(PermissionDenied):
        games.confirm_result(db, who["organiser"], ev, 1, board)
    g = games.confirm_result(db, who["referee"], ev, 1, board)
    assert g.confirmed and g.phase == "confirmed"
    sgf = games.game_sgf(db, ev, 1, board)
    assert f"PB[{g.black}]" in sgf and f"PW[{g.white}]" in sgf and "RE[W+1.5]" in sgf


def test_r_ref_3_a_replay_ruling_on_a_team_board_is_played_again(db: Database) -> None:
    """R-REF-3: the chief referee rules a replay on a team board; the match waits for the
    game played again, whose result (from the sheet) is recorded after the ruling."""
    ev, who = seated(db)
    m = show_round(db, ev, 1).matches[0]
    board = TeamBoard(1, 1)
    two = games.game_view(db, ev, 1, TeamBoard(1, 2))
    record_board_result(db, who["referee"], ev, 1, m.home, 2, win_for(two, m.home))
    with pytest.raises(PermissionDenied):
        games.record_ruling(db, who["referee"], ev, 1, board, "replay", "停电")
    g = games.record_ruling(db, who["chief_referee"], ev, 1, board, "replay", "停电")
    g = games.confirm_result(db, who["chief_referee"], ev, 1, board)
    assert (g.result, g.played_again) == ("Replay", "replay")
    assert score(db, ev) is None
    g = games.game_view(db, ev, 1, board)
    record_board_result(db, who["referee"], ev, 1, m.home, 1, win_for(g, m.home))
    g = games.game_view(db, ev, 1, board)
    assert g.confirmed and g.played_again is None and g.result == win_for(g, m.home)
    assert render(g.history[-1].reason, "zh_CN").startswith("重赛结果")
    assert score(db, ev) == (4, 0)


def test_an_empty_board_is_no_game_and_a_missing_board_is_named(db: Database) -> None:
    """A board without a player (a forfeit at the reveal) has no record to referee."""
    ev = create_event(db, LOCAL, "团体赛", TeamEventSettings(boards=2)).id
    csv = "team,name,rank\n" + "\n".join(f"{t},{t}{i},{9 - i}p" for t in "AB" for i in (1, 2))
    import_teams(db, LOCAL, ev, csv)
    pair_round(db, LOCAL, ev)
    with pytest.raises(Conflict, match="not revealed"):
        games.game_view(db, ev, 1, TeamBoard(1, 1))
    submit_lineup(db, LOCAL, ev, 1, "A", ["A1", "A2"], clock=ManualClock(T0))
    reveal_round(
        db, LOCAL, ev, 1, clock=ManualClock(T0)
    )  # B sent no lineup: its boards are forfeited
    with pytest.raises(Conflict, match="empty board"):
        games.enter_result(db, LOCAL, ev, 1, TeamBoard(1, 1), "B+R")
    with pytest.raises(NotFound, match="has no board 3"):
        games.game_view(db, ev, 1, TeamBoard(1, 3))
    with pytest.raises(NotFound, match="has no board 1"):
        games.game_view(db, ev, 1, TeamBoard(2, 1))


def test_r_score_3_r_ko_2_a_team_events_komi_and_repetition_rule_are_its_boards(
    db: Database,
) -> None:
    """R-SCORE-3, R-KO-2 (issue #10: the settings carry the ruleset): a team event set to
    3½ stones' komi and "a repeated position is a draw" plays every board by them — a count
    gives the result with that komi, the record and its SGF carry both. Team boards used to
    be played with the rules' 3¾ and the ban, whatever the event wanted."""
    settings = TeamEventSettings(boards=1, komi=Fraction(7, 2), cycle=CyclePolicy.DRAW)
    ev = create_event(db, LOCAL, "贴3又1/2子团体赛", settings).id
    import_teams(db, LOCAL, ev, "team,name,rank\nA,A1,5p\nB,B1,5p\n")
    pair_round(db, LOCAL, ev)
    for t in "AB":
        submit_lineup(db, LOCAL, ev, 1, t, [f"{t}1"], clock=ManualClock(T0))
    reveal_round(db, LOCAL, ev, 1, clock=ManualClock(T0))
    board = TeamBoard(1, 1)
    view = games.game_view(db, ev, 1, board)
    assert view.komi == Fraction(7, 2)
    with db.transaction() as session:
        ruleset = games._game_row(session, ev, 1, board).ruleset
    assert (ruleset.komi, ruleset.cycle) == (Fraction(7, 2), CyclePolicy.DRAW)
    g = games.enter_result(db, LOCAL, ev, 1, board, "184.5")
    assert g.result_zh == "黑胜1/2子"  # 184½ − 180½ − 3½; with the rules' 3¾ it is ¼
    assert "KM[7]" in games.game_sgf(db, ev, 1, board)
