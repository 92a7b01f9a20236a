"""Team events through the services on SQLite and PostgreSQL: each team type of R-FMT-1, the
systems (Swiss, knockout, 擂台赛), R-SCORE-TEAM-1 scoring and R-RANK-TEAM shared places,
missing lineups, all-or-nothing imports, refusals and permissions."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import func, select

from weiqi.errors import Conflict, InputError, LineupRejected, PermissionDenied, RowsRejected
from weiqi.league.lineup import MissingLineup
from weiqi.league.settings import TeamEventSettings
from weiqi.league.team import TeamType
from weiqi.league.winner_stays_on import PlayerOrder
from weiqi.roles import Role
from weiqi.services.actor import ANONYMOUS, Actor
from weiqi.services.events import create_event
from weiqi.services.server_clock import ManualClock
from weiqi.services.teams import (
    import_teams,
    members_total_standings,
    pair_round,
    record_board_result,
    record_playoff,
    record_results,
    records,
    reveal_round,
    show_round,
    standings,
    submit_lineup,
)
from weiqi.services.winner_stays_on import record_stage_result, send_player, winner_stays_on
from weiqi.store.database import Database
from weiqi.store.teams import LineupRow, TeamRow
from weiqi.tournament.settings import System

LOCAL = Actor.local()
T0 = datetime(2026, 5, 1, 8, 0, tzinfo=UTC)


def teams_csv(teams: str = "ABCD", size: int = 3) -> str:
    """Players X1 (strongest) … X<size> of each team."""
    return "team,name,rank,rating\n" + "\n".join(
        f"{t},{t}{i},{9 - i}p,{2700 - i}" for t in teams for i in range(1, size + 1)
    )


def event(db: Database, teams: str = "ABCD", size: int = 3, **settings: object) -> int:
    ev = create_event(db, LOCAL, "Teams", TeamEventSettings(**settings))  # type: ignore[arg-type]
    import_teams(db, LOCAL, ev.id, teams_csv(teams, size))
    return ev.id


def play(db: Database, ev: int, rnd: int, outcome: dict[str, list[str]]) -> None:
    """Lineups X1…X<boards> for every team, reveal, then results by team and board."""
    view = show_round(db, ev, rnd)
    boards = len(next(iter(outcome.values())))
    for m in view.matches:
        for t in (m.home, m.away):
            submit_lineup(
                db,
                LOCAL,
                ev,
                rnd,
                t,
                [f"{t}{i}" for i in range(1, boards + 1)],
                clock=ManualClock(T0),
            )
    reveal_round(db, LOCAL, ev, rnd, clock=ManualClock(T0))
    record_results(
        db, LOCAL, ev, rnd,
        [(t, b, code) for t, codes in outcome.items() for b, code in enumerate(codes, start=1)],
    )  # fmt: skip


def test_import_is_all_or_nothing_and_closes_at_round_1(db: Database) -> None:
    ev = create_event(db, LOCAL, "Teams", TeamEventSettings(boards=2)).id
    with pytest.raises(RowsRejected) as err:
        import_teams(db, LOCAL, ev, "team,name,rank\nA,a1,5p\nA,a2,12d\nB,b1,3p\nB,b1,3p\n")
    assert [line for line, _ in err.value.problems] == [3, 5]
    with pytest.raises(InputError, match="1 players cannot field 2 boards"):
        import_teams(db, LOCAL, ev, "team,name,rank\nA,a1,5p\nA,a2,5p\nB,b1,3p\n")
    with db.transaction() as s:
        assert s.scalar(select(func.count()).select_from(TeamRow)) == 0
    assert import_teams(db, LOCAL, ev, teams_csv("AB", 2)) == 2
    with pytest.raises(InputError, match="already in the event"):
        import_teams(db, LOCAL, ev, teams_csv("A", 2))
    pair_round(db, LOCAL, ev)
    with pytest.raises(Conflict, match="has started"):
        import_teams(db, LOCAL, ev, teams_csv("C", 2))


def test_r_score_team_1_r_rank_team_a_drawn_match_shares_the_place(db: Database) -> None:
    """R-SCORE-TEAM-1: 2 per board won, 1 drawn; 4:4 is a drawn match, 1 match point each.
    R-RANK-TEAM: equal on match points, game points and every board → a shared place."""
    ev = event(db, "AB", 2, boards=2)
    pair_round(db, LOCAL, ev)
    # A black on board 1 wins it; board 2 is drawn (jigo): A 2 + 1 = 3, B 0 + 1 = 1
    play(db, ev, 1, {"A": ["B+R", "0"]})
    m = show_round(db, ev, 1).matches[0]
    assert (m.game_points, m.match_points, m.winner) == ((3, 1), (2, 0), "A")
    ev2 = event(db, "CD", 2, boards=2)
    pair_round(db, LOCAL, ev2)
    play(db, ev2, 1, {"C": ["0", "0"]})  # two jigo: 2:2, a drawn match
    table = standings(db, ev2)
    assert [(s.place, s.team, s.match_points, s.game_points, s.shared) for s in table] == [
        (1, "C", 1, 2, True),
        (1, "D", 1, 2, True),
    ]
    with pytest.raises(Conflict, match=r"is confirmed; only the chief referee"):
        record_board_result(db, LOCAL, ev2, 1, "C", 1, "B+R")
    with pytest.raises(InputError, match="no game points"):
        record_board_result(db, LOCAL, ev, 1, "A", 1, "Replay")


def test_board_one_decides_a_drawn_match_when_the_event_says_so(db: Database) -> None:
    ev = event(db, "AB", 2, boards=2, board_one_decides=True)
    pair_round(db, LOCAL, ev)
    play(db, ev, 1, {"A": ["B+R", "B+R"]})  # A wins board 1 (black), B board 2 (black): 2:2
    m = show_round(db, ev, 1).matches[0]
    assert (m.game_points, m.match_points, m.winner, m.decided_by_board_one) == (
        (2, 2), (2, 0), "A", True)  # fmt: skip
    assert [s.team for s in standings(db, ev)] == ["A", "B"]


def test_r_fmt_1_fixed_boards_play_in_rank_order_without_substitutes(db: Database) -> None:
    """分台定人制: the boards are the rank-and-rating order; no substitutes by default."""
    ev = event(db, "AB", 3, boards=2, team_type=TeamType.FIXED_BOARDS)
    pair_round(db, LOCAL, ev)
    with pytest.raises(LineupRejected, match="the boards are A1, A2"):
        submit_lineup(db, LOCAL, ev, 1, "A", ["A2", "A1"], clock=ManualClock(T0))
    with pytest.raises(LineupRejected, match="the boards are A1, A2"):
        submit_lineup(db, LOCAL, ev, 1, "A", ["A1", "A3"], clock=ManualClock(T0))
    submit_lineup(db, LOCAL, ev, 1, "A", ["A1", "A2"], clock=ManualClock(T0))
    # B sends nothing: the event's order plays (B1, B2), not a forfeit
    boards = reveal_round(db, LOCAL, ev, 1, clock=ManualClock(T0)).matches[0].boards
    assert [(b.home_player, b.away_player, b.result) for b in boards] == [
        ("A1", "B1", None), ("A2", "B2", None)]  # fmt: skip


def test_r_fmt_1_rotation_every_member_meets_every_member(db: Database) -> None:
    """全队轮赛制: two teams of 2 play 4 games over 2 sittings, colours swapping."""
    ev = event(db, "AB", 2, boards=2, team_type=TeamType.ROTATION)
    pair_round(db, LOCAL, ev)
    submit_lineup(db, LOCAL, ev, 1, "A", ["A1", "A2"], clock=ManualClock(T0))
    submit_lineup(db, LOCAL, ev, 1, "B", ["B1", "B2"], clock=ManualClock(T0))
    boards = reveal_round(db, LOCAL, ev, 1, clock=ManualClock(T0)).matches[0].boards
    assert [(b.sitting, b.home_player, b.away_player, b.home_color) for b in boards] == [
        (0, "A1", "B1", "B"), (0, "A2", "B2", "B"), (1, "A1", "B2", "W"), (1, "A2", "B1", "W"),
    ]  # fmt: skip
    for sitting in (0, 1):
        for board in (1, 2):
            record_board_result(db, LOCAL, ev, 1, "A", board, "B+R", sitting)
    m = show_round(db, ev, 1).matches[0]
    assert m.game_points == (4, 4) and m.match_points == (1, 1)
    players, _ = records(db, ev)
    assert {r.player_id: r.games for r in players} == {"A1": 2, "A2": 2, "B1": 2, "B2": 2}


def test_r_fmt_1_a_missing_lineup_forfeits_its_boards(db: Database) -> None:
    ev = event(db, "ABCD", 2, boards=2, missing=MissingLineup.FORFEIT)
    pair_round(db, LOCAL, ev, start=datetime(2026, 5, 1, 9, 0, tzinfo=UTC))
    submit_lineup(db, LOCAL, ev, 1, "A", ["A1", "A2"], clock=ManualClock(T0))
    submit_lineup(db, LOCAL, ev, 1, "B", ["B1", "B2"], clock=ManualClock(T0))
    view = reveal_round(
        db, LOCAL, ev, 1, clock=ManualClock(datetime(2026, 5, 1, 8, 30, tzinfo=UTC))
    )
    ad, bc = view.matches  # A–D: D sent nobody; B–C: C sent nobody
    assert [b.result for b in ad.boards] == ["B+F", "W+F"]  # A wins both by forfeit
    assert ad.game_points == (4, 0) and ad.winner == "A"
    assert [b.result for b in bc.boards] == ["B+F", "W+F"] and bc.winner == "B"
    with pytest.raises(Conflict, match="empty board"):
        record_board_result(db, LOCAL, ev, 1, "A", 1, "B+R")
    with db.transaction() as s:
        sources = sorted(s.scalars(select(LineupRow.source)))
    assert sources == ["forfeit", "forfeit", "submitted", "submitted"]


def test_r_fmt_3_team_swiss_pairs_winners_with_winners(db: Database) -> None:
    ev = event(db, "ABCD", 2, boards=2, system=System.SWISS, rounds=3)
    first = pair_round(db, LOCAL, ev)
    assert len(first.matches) == 2
    with pytest.raises(Conflict, match="not been played"):
        pair_round(db, LOCAL, ev)
    winners = []
    outcome: dict[str, list[str]] = {}
    for m in first.matches:
        outcome[m.home] = ["B+R", "W+R"]  # home wins both boards
        winners.append(m.home)
    play(db, ev, 1, outcome)
    second = pair_round(db, LOCAL, ev)
    pairs = [{m.home, m.away} for m in second.matches]
    assert set(winners) in pairs
    for t in "ABCD":
        submit_lineup(db, LOCAL, ev, 2, t, [f"{t}1", f"{t}2"], clock=ManualClock(T0))
    reveal_round(db, LOCAL, ev, 2, clock=ManualClock(T0))
    with pytest.raises(Conflict, match="has boards without a result"):
        pair_round(db, LOCAL, ev)


def test_r_fmt_3_a_team_swiss_round_explains_each_match(db: Database) -> None:
    """A team Swiss round keeps why each match was paired, as an individual round does, in a
    team's words: five teams, the bye and the two winners of round 1 on 2 match points, so in
    round 2 one of them is paired down against a team without a point."""
    ev = event(db, "ABCDE", 2, boards=2, system=System.SWISS, rounds=2)
    first = pair_round(db, LOCAL, ev)
    assert [w.board for w in show_round(db, ev, 1).explanation] == [1, 2]
    play(db, ev, 1, {m.home: ["B+R", "W+R"] for m in first.matches})
    second = pair_round(db, LOCAL, ev)
    why = show_round(db, ev, 2).explanation
    assert [w.board for w in why] == [m.number for m in second.matches]
    names = {m.number: (m.home, m.away) for m in second.matches}
    for w in why:
        assert (w.black.name, w.white.name) == names[w.board]  # the teams' names: their codes
    down = [w for w in why if w.score_gap]
    assert len(down) == 1 and down[0].score_gap == 2
    (note,) = [n.code for n in down[0].notes if n.code.startswith("paired_down")]
    assert note in ("paired_down_home", "paired_down_away")
    higher = down[0].black if note == "paired_down_home" else down[0].white
    assert str(higher.lines[0]) == "match points 2"
    assert all(
        "Black" not in str(line) for w in why for s in (w.black, w.white) for line in s.lines
    )


def test_a_team_round_robin_has_nothing_to_explain(db: Database) -> None:
    ev = event(db, "ABCD", 2, boards=2, system=System.ROUND_ROBIN)
    pair_round(db, LOCAL, ev)
    assert show_round(db, ev, 1).explanation == ()


def test_r_fmt_3_team_knockout_until_a_winner(db: Database) -> None:
    ev = event(db, "ABCD", 2, boards=2, system=System.KNOCKOUT)
    r1 = pair_round(db, LOCAL, ev)
    assert [(m.home, m.away) for m in r1.matches] == [("A", "D"), ("B", "C")]
    play(db, ev, 1, {"A": ["B+R", "W+R"], "B": ["B+R", "B+R"]})  # A 4:0; B–C 2:2
    with pytest.raises(Conflict, match="B–C is drawn 2:2"):
        pair_round(db, LOCAL, ev)
    with pytest.raises(Conflict, match="has a winner, A"):
        record_playoff(db, LOCAL, ev, 1, "D")
    decided = record_playoff(db, LOCAL, ev, 1, "C")  # R-PLAYOFF: C wins the 加赛
    assert decided.winner == "C" and decided.decided_by_playoff and decided.match_points == (1, 1)
    assert [(m.home, m.away) for m in pair_round(db, LOCAL, ev).matches] == [("A", "C")]
    ev = event(db, "EFGH", 2, boards=2, system=System.KNOCKOUT, board_one_decides=True)
    pair_round(db, LOCAL, ev)
    # E–H 2:2, H won board 1 (white) → H; F–G 2:2, F won board 1 (black) → F
    play(db, ev, 1, {"E": ["W+R", "W+R"], "F": ["B+R", "B+R"]})
    r2 = pair_round(db, LOCAL, ev)
    assert [(m.home, m.away) for m in r2.matches] == [("H", "F")]
    play(db, ev, 2, {"H": ["B+R", "W+R"]})
    with pytest.raises(Conflict, match="the knockout is over: H won"):
        pair_round(db, LOCAL, ev)


def test_r_fmt_3_winner_stays_on_fixed_and_chosen_order(db: Database) -> None:
    """擂台赛: the winner stays on; the loser's team sends its next player; a team is out when
    all its players are. Fixed order = the sealed lineup; chosen = sent player by player."""
    ev = event(db, "ABC", 2, boards=2, system=System.WINNER_STAYS_ON)
    pair_round(db, LOCAL, ev)
    with pytest.raises(Conflict, match="one round"):
        pair_round(db, LOCAL, ev)
    for t in "ABC":
        submit_lineup(db, LOCAL, ev, 1, t, [f"{t}2", f"{t}1"], clock=ManualClock(T0))
    reveal_round(db, LOCAL, ev, 1, clock=ManualClock(T0))
    view = winner_stays_on(db, ev)
    assert view.games[0].holder == ("A", "A2") and view.games[0].challenger == ("B", "B2")
    # the challenger takes black: B2 wins, A2 out; A sends A1 … and so on
    for code in ("B+R", "W+R", "B+R", "B+R"):
        view = record_stage_result(db, LOCAL, ev, code)
    assert [(g.holder, g.challenger, g.result) for g in view.games] == [
        (("A", "A2"), ("B", "B2"), "B+R"),
        (("B", "B2"), ("A", "A1"), "W+R"),  # B2 (white) wins again: A is out
        (("B", "B2"), ("C", "C2"), "B+R"),  # C2 wins
        (("C", "C2"), ("B", "B1"), "B+R"),  # B1 wins: B1 stays, C1 next
        (("B", "B1"), ("C", "C1"), None),
    ]
    assert not view.finished
    view = record_stage_result(db, LOCAL, ev, "W+R")  # B1 (white) beats C1
    assert view.finished and view.winner == "B"
    with pytest.raises(Conflict, match="not a table"):
        standings(db, ev)

    chosen = event(db, "XY", 2, boards=2, system=System.WINNER_STAYS_ON,
                   player_order=PlayerOrder.CHOSEN)  # fmt: skip
    pair_round(db, LOCAL, chosen)
    for t in "XY":
        submit_lineup(db, LOCAL, chosen, 1, t, [f"{t}1", f"{t}2"], clock=ManualClock(T0))
    reveal_round(db, LOCAL, chosen, 1, clock=ManualClock(T0))
    assert winner_stays_on(db, chosen).awaiting == "X"
    send_player(db, LOCAL, chosen, "X", "X2")
    with pytest.raises(Conflict, match="not X's turn"):
        send_player(db, LOCAL, chosen, "X", "X1")
    view = send_player(db, LOCAL, chosen, "Y", "Y1")
    assert view.games[0].black == ("Y", "Y1")
    view = record_stage_result(db, LOCAL, chosen, "B+R")  # Y1 wins; X chooses again
    assert view.awaiting == "X" and view.waiting["X"] == ("X1",)


def test_r_org_1_who_may_submit_pair_and_record(db: Database) -> None:
    from weiqi.services.accounts import create_user, grant_role
    from weiqi.services.team_coaches import assign_coach

    ev = event(db, "AB", 2, boards=2)
    with pytest.raises(PermissionDenied):
        pair_round(db, ANONYMOUS, ev)
    pair_round(db, LOCAL, ev)
    with pytest.raises(PermissionDenied, match="may not submit lineups"):
        submit_lineup(db, ANONYMOUS, ev, 1, "A", ["A1", "A2"], clock=ManualClock(T0))
    user = create_user(db, LOCAL, "coach", "correct horse")
    grant_role(db, LOCAL, user.id, ev, Role.PLAYER)
    coach = Actor(user.id, "coach")
    with pytest.raises(PermissionDenied, match="team they do not coach"):
        submit_lineup(db, coach, ev, 1, "A", ["A1", "A2"], clock=ManualClock(T0))
    assign_coach(db, LOCAL, ev, "A", "coach")
    submit_lineup(db, coach, ev, 1, "A", ["A1", "A2"], clock=ManualClock(T0))
    with pytest.raises(PermissionDenied, match="may not pair rounds"):
        reveal_round(db, coach, ev, 1, clock=ManualClock(T0))


def test_r_fmt_1_members_total_adds_up_the_members_individual_points(db: Database) -> None:
    """队员总分制: the members play an individual round robin; each team scores the total of
    its members' points (or of its best N)."""
    from weiqi.services.events import create_event
    from weiqi.services.tournament import import_players, record_result
    from weiqi.services.tournament import pair_round as pair_individual
    from weiqi.tournament.settings import EventSettings, System

    solo = create_event(db, LOCAL, "Solo", EventSettings(system=System.ROUND_ROBIN)).id
    import_players(db, LOCAL, solo, "name,rank\nX1,5d\nX2,4d\nY1,3d\nY2,2d\n")
    blacks: dict[str, int] = {}
    for rnd in (1, 2, 3):
        for p in pair_individual(db, LOCAL, solo).pairings:
            record_result(db, LOCAL, solo, rnd, p.board, "B+R")  # black wins every game
            blacks[p.black] = blacks.get(p.black, 0) + 1
    ev = create_event(db, LOCAL, "Members", TeamEventSettings(
        team_type=TeamType.MEMBERS_TOTAL, boards=2)).id  # fmt: skip
    import_teams(db, LOCAL, ev, "team,name,rank\nX,X1,5d\nX,X2,4d\nY,Y1,3d\nY,Y2,2d\n")
    with pytest.raises(Conflict, match="队员总分制"):
        pair_round(db, LOCAL, ev)
    table = members_total_standings(db, ev, solo)
    points = {p: 2 * n for p, n in blacks.items()}
    expected = {"X": points.get("X1", 0) + points.get("X2", 0),
                "Y": points.get("Y1", 0) + points.get("Y2", 0)}  # fmt: skip
    assert {t: int(v) for _, t, v in table} == expected
    assert sum(expected.values()) == 2 * 6  # six games, one winner each
    best = members_total_standings(db, ev, solo, counted=1)
    assert {t: int(v) for _, t, v in best} == {
        "X": max(points.get("X1", 0), points.get("X2", 0)),
        "Y": max(points.get("Y1", 0), points.get("Y2", 0)),
    }


def test_r_rank_team_a_swiss_bye_is_a_won_match(db: Database) -> None:
    """Five teams: the bye of round 1 scores a won match (2 match points, no game points), so
    that team pairs among the winners of round 1 and stands with them."""
    ev = event(db, "ABCDE", 2, boards=2, system=System.SWISS, rounds=2)
    first = pair_round(db, LOCAL, ev)
    assert first.bye is not None and len(first.matches) == 2
    outcome = {m.home: ["B+R", "W+R"] for m in first.matches}  # the home teams win 4:0
    play(db, ev, 1, outcome)
    winners = {m.home for m in first.matches} | {first.bye}
    table = standings(db, ev)
    bye_row = next(s for s in table if s.team == first.bye)
    assert (bye_row.match_points, bye_row.game_points, bye_row.won) == (2, 0, 1)
    assert {s.team for s in table if s.match_points == 2} == winners
    second = pair_round(db, LOCAL, ev)
    assert second.bye not in (None, first.bye)  # no team gets a second bye
    # three teams on 2 points: two of them meet, the third floats down
    assert sum(1 for m in second.matches if {m.home, m.away} <= winners) == 1
