"""The tournament use cases on a real database (SQLite and PostgreSQL): all-or-nothing imports
and results, clear refusals, withdrawals (R-WD-1), and the standings."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from weiqi.errors import Conflict, InputError, NotFound, PermissionDenied, RowsRejected
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.services.tournament import (
    event_standings,
    import_players,
    pair_round,
    record_result,
    record_results,
    show_round,
    tournament_info,
    withdraw_player,
)
from weiqi.store.database import Database
from weiqi.store.tournament import GameRow, PlayerRow
from weiqi.tournament.settings import EventSettings, System

LOCAL = Actor.local()
PLAYERS = "name,rank,rating,club,country,birth_date,email\n" + "\n".join(
    f"P{i},{r},{2500 - 50 * i},C{i % 3},CN,,p{i}@example.org"
    for i, r in enumerate(["6d", "5d", "4d", "3d", "2d", "1d", "1k"], start=1)
)


def swiss(db: Database, rounds: int = 3) -> int:
    return create_event(
        db, LOCAL, "Club Swiss", EventSettings(system=System.SWISS, rounds=rounds)
    ).id


def count(db: Database, model: type) -> int:
    with db.transaction() as s:
        return int(s.scalar(select(func.count()).select_from(model)) or 0)


def test_import_is_all_or_nothing_with_line_numbers(db: Database) -> None:
    event = swiss(db)
    bad = "name,rank\nA,5d\nB,10d\nC,3k\n,2d\n"
    with pytest.raises(RowsRejected) as err:
        import_players(db, LOCAL, event, bad)
    assert [line for line, _ in err.value.problems] == [3, 5]
    assert count(db, PlayerRow) == 0
    assert import_players(db, LOCAL, event, PLAYERS) == 7
    with pytest.raises(RowsRejected, match="already entered"):  # the same P1 again
        import_players(db, LOCAL, event, "name,club\nP1,C1\n")
    assert tournament_info(db, event).entrants == 7
    # a namesake from another club is another player (issue #13)
    assert import_players(db, LOCAL, event, "name,club\nP1,Elsewhere\n") == 1


def test_pair_record_and_refuse_clearly(db: Database) -> None:
    event = swiss(db)
    import_players(db, LOCAL, event, PLAYERS)
    with pytest.raises(NotFound, match="round 1 is not paired"):
        record_result(db, LOCAL, event, 1, 1, "B+R")
    rnd = pair_round(db, LOCAL, event)
    assert rnd.number == 1 and len(rnd.pairings) == 3 and rnd.byes == ("P7",)
    assert rnd.explanations and "score gap" in rnd.explanations[0]
    with pytest.raises(Conflict, match="no final result"):
        pair_round(db, LOCAL, event)
    with pytest.raises(NotFound, match="no board 9"):
        record_result(db, LOCAL, event, 1, 9, "B+R")
    with pytest.raises(InputError):
        record_result(db, LOCAL, event, 1, 1, "B+0.7")
    assert record_result(db, LOCAL, event, 1, 1, "W+1.5").result == "W+1.5"
    with pytest.raises(Conflict, match="already confirmed"):
        record_result(db, LOCAL, event, 1, 1, "B+R")
    # a results file with one bad row changes nothing
    with pytest.raises(InputError):
        record_results(db, LOCAL, event, 1, "board,result\n2,BL\n3,X+Y\n")
    with pytest.raises(InputError, match="line 2"):
        record_results(db, LOCAL, event, 1, "board,result\n1,B+R\n2,BL\n")
    assert [p.result for p in show_round(db, event, 1).pairings] == ["W+1.5", None, None]
    assert record_results(db, LOCAL, event, 1, "board,result\n2,BL\n3,0\n") == 2
    assert show_round(db, event).number == 1
    rnd2 = pair_round(db, LOCAL, event)
    assert rnd2.number == 2 and "P7" not in rnd2.byes
    table = event_standings(db, event)
    assert sum(r.points for r in table) == 2 + 0 + 2 + 2 + 2  # W+1.5, BL, draw, two byes
    assert all(set(r.tiebreaks) == {"SOS", "WARN"} for r in table)


def test_r_wd_1_withdrawn_player_is_not_paired_again(db: Database) -> None:
    event = swiss(db)
    import_players(db, LOCAL, event, PLAYERS)
    pair_round(db, LOCAL, event)
    record_results(db, LOCAL, event, 1, "board,result\n1,B+R\n2,W+R\n3,B+T\n")
    assert withdraw_player(db, LOCAL, event, "P1") == 1
    with pytest.raises(Conflict):
        withdraw_player(db, LOCAL, event, "P1")
    with pytest.raises(NotFound):
        withdraw_player(db, LOCAL, event, "Nobody")
    rnd = pair_round(db, LOCAL, event)
    names = {n for p in rnd.pairings for n in (p.black, p.white)} | set(rnd.byes)
    assert "P1" not in names and len(names) == 6


def test_r_wd_1_round_robin_forfeits_are_stored_confirmed(db: Database) -> None:
    event = create_event(db, LOCAL, "RR", EventSettings(system=System.ROUND_ROBIN)).id
    import_players(db, LOCAL, event, "name,rank\nA,5d\nB,4d\nC,3d\nD,2d\n")
    for r in (1, 2):
        pair_round(db, LOCAL, event)
        record_results(db, LOCAL, event, r, "board,result\n1,B+R\n2,W+R\n")
    withdraw_player(db, LOCAL, event, "A")  # 2 of 3 rounds played: results stand
    rnd = pair_round(db, LOCAL, event)
    forfeit = next(p for p in rnd.pairings if "A" in (p.black, p.white))
    assert forfeit.confirmed and forfeit.result in ("B+F", "W+F")
    with db.transaction() as s:
        assert s.scalar(select(func.count()).select_from(GameRow).where(GameRow.confirmed)) == 5


def test_late_entries_only_in_a_swiss(db: Database) -> None:
    event = swiss(db)
    import_players(db, LOCAL, event, PLAYERS)
    pair_round(db, LOCAL, event)
    assert import_players(db, LOCAL, event, "name,rank\nLate,2k\n") == 1
    rr = create_event(db, LOCAL, "RR", EventSettings(system=System.ROUND_ROBIN)).id
    import_players(db, LOCAL, rr, "name\nA\nB\n")
    pair_round(db, LOCAL, rr)
    with pytest.raises(Conflict, match="late entries"):
        import_players(db, LOCAL, rr, "name\nC\n")


def test_anonymous_may_not_pair(db: Database) -> None:
    event = swiss(db)
    import_players(db, LOCAL, event, PLAYERS)
    nobody = Actor(user_id=None, username="")
    with pytest.raises(PermissionDenied):
        pair_round(db, nobody, event)
    with pytest.raises(PermissionDenied):
        record_result(db, nobody, event, 1, 1, "B+R")
