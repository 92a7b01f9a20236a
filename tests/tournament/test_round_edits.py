"""The chief referee's edits by hand of a paired round on a real database, SQLite and
PostgreSQL (issue #13, "Pairing", first bullet): only on an unpublished round without results,
only by the chief referee, only with a reason, which is kept with who and when; a rematch is
refused; the explanation is recomputed; the stored round is what the preview said."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from weiqi.errors import Conflict, InvalidSetting, PermissionDenied
from weiqi.roles import Role
from weiqi.services import accounts, event_admin, round_edits, tournament
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.services.round_edits import EditKind, RoundEdit
from weiqi.services.server_clock import ManualClock
from weiqi.store.database import Database
from weiqi.store.tournament import RoundRow
from weiqi.tournament.settings import EventSettings, System

LOCAL = Actor.local()
NOON = datetime(2026, 5, 1, 4, 0, tzinfo=UTC)


def swiss(db: Database, players: int = 8) -> tuple[int, dict[str, str]]:
    event = create_event(db, LOCAL, "手动调整测试", EventSettings(System.SWISS, rounds=4)).id
    ranks = ["5d", "4d", "3d", "2d", "1d", "1k", "2k", "3k", "4k"]
    rows = "\n".join(f"棋手{i},{ranks[i % 9]},俱乐部{i % 4}" for i in range(players))
    event_admin.import_players(db, LOCAL, event, "姓名,段位,俱乐部\n" + rows + "\n")
    return event, round_edits.player_ids(db, event)


def boards(detail: event_admin.RoundDetail) -> list[tuple[int, str, str]]:
    return [(p.board, p.black, p.white) for p in detail.pairings]


def play_round_one(db: Database, event: int) -> event_admin.RoundDetail:
    first = event_admin.pair_next_round(db, LOCAL, event)
    for p in first.pairings:
        tournament.record_result(db, LOCAL, event, 1, p.board, "B+R")
    return event_admin.pair_next_round(db, LOCAL, event)


def test_a_swap_is_previewed_then_kept_with_its_reason_who_and_when(db: Database) -> None:
    event, ids = swiss(db)
    before = event_admin.pair_next_round(db, LOCAL, event)
    one, two = before.pairings[0], before.pairings[1]
    swap = RoundEdit(EditKind.SWAP, ids[one.white], ids[two.white])
    shown = round_edits.preview_edit(db, LOCAL, event, 1, swap)
    assert not shown.refused and shown.changed == (1, 2)
    # the preview changes nothing
    assert boards(event_admin.round_detail(db, LOCAL, event, 1)) == boards(before)
    clock = ManualClock(NOON)
    done = round_edits.apply_edit(db, LOCAL, event, 1, swap, " 棋手迟到，换台 ", clock=clock)
    after = event_admin.round_detail(db, LOCAL, event, 1)
    assert boards(after)[:2] == [(1, one.black, two.white), (2, two.black, one.white)]
    assert boards(after)[2:] == boards(before)[2:]
    assert [(p.board, p.black, p.white) for p in done.pairings] == boards(after)
    (record,) = after.edits
    assert (record.by, record.at, record.reason) == ("(command line)", NOON, "棋手迟到，换台")
    assert str(record.description) == f"swap {one.white} and {two.white}"
    # the explanation follows the boards, and marks what the chief referee changed
    why = {e.board: e for e in after.explanations}
    assert (why[1].black, why[1].white) == (one.black, two.white)
    assert [e.by_hand for e in after.explanations] == [True, True] + [False] * 2
    assert after.totals is not None and after.totals.games == 4


def test_a_rematch_is_refused_and_nothing_is_stored(db: Database) -> None:
    event, ids = swiss(db)
    second = play_round_one(db, event)
    first = event_admin.round_detail(db, LOCAL, event, 1).pairings[0]
    # put round 1's White against round 1's Black again
    game = next(p for p in second.pairings if first.black in (p.black, p.white))
    seat = game.white if game.black == first.black else game.black
    rematch = RoundEdit(EditKind.SWAP, ids[seat], ids[first.white])
    shown = round_edits.preview_edit(db, LOCAL, event, 2, rematch)
    assert shown.refused
    assert any("the Swiss rules allow no rematch" in str(p.message) for p in shown.problems)
    with pytest.raises(Conflict, match="allow no rematch"):
        round_edits.apply_edit(db, LOCAL, event, 2, rematch, "试试")
    assert boards(event_admin.round_detail(db, LOCAL, event, 2)) == boards(second)
    assert event_admin.round_detail(db, LOCAL, event, 2).edits == ()


def test_a_reason_is_required_and_warnings_are_kept(db: Database) -> None:
    event, ids = swiss(db, players=9)
    second = play_round_one(db, event)
    had_bye = event_admin.round_detail(db, LOCAL, event, 1).byes[0]
    bye = RoundEdit(EditKind.BYE, ids[had_bye])
    for reason in ("", "  \n "):
        with pytest.raises(InvalidSetting, match="reason"):
            round_edits.apply_edit(db, LOCAL, event, 2, bye, reason)
    shown = round_edits.preview_edit(db, LOCAL, event, 2, bye)
    assert not shown.refused and "second_bye" in [p.kind for p in shown.problems]
    round_edits.apply_edit(db, LOCAL, event, 2, bye, "本人要求轮空")
    after = event_admin.round_detail(db, LOCAL, event, 2)
    assert after.byes == (had_bye,) and second.byes[0] in str(boards(after))
    (record,) = after.edits
    assert any("second bye" in str(w) for w in record.warnings)


def test_only_an_unpublished_round_without_results(db: Database) -> None:
    event, ids = swiss(db)
    rnd = event_admin.pair_next_round(db, LOCAL, event)
    p = rnd.pairings
    swap = RoundEdit(EditKind.SWAP, ids[p[0].white], ids[p[1].white])
    event_admin.publish_round(db, LOCAL, event, 1)
    with pytest.raises(Conflict, match="is published"):
        round_edits.preview_edit(db, LOCAL, event, 1, swap)
    event_admin.publish_round(db, LOCAL, event, 1, published=False)
    tournament.record_result(db, LOCAL, event, 1, 3, "W+R")
    with pytest.raises(Conflict, match="has results"):
        round_edits.apply_edit(db, LOCAL, event, 1, swap, "理由")


def test_only_the_chief_referee_edits(db: Database) -> None:
    event, ids = swiss(db)
    rnd = event_admin.pair_next_round(db, LOCAL, event)
    organiser = accounts.create_user(db, LOCAL, "organiser", "a good password").actor()
    chief = accounts.create_user(db, LOCAL, "chief", "a good password").actor()
    accounts.grant_role(db, LOCAL, organiser.user_id or 0, event, Role.ORGANISER)
    accounts.grant_role(db, LOCAL, chief.user_id or 0, event, Role.CHIEF_REFEREE)
    table = RoundEdit(EditKind.TABLE, ids[rnd.pairings[3].black], board=1)
    with pytest.raises(PermissionDenied):
        round_edits.preview_edit(db, organiser, event, 1, table)
    with pytest.raises(PermissionDenied):
        round_edits.apply_edit(db, organiser, event, 1, table, "理由")
    round_edits.apply_edit(db, chief, event, 1, table, "轮椅棋手固定在第1台")
    after = event_admin.round_detail(db, chief, event, 1)
    assert boards(after)[0] == (1, rnd.pairings[3].black, rnd.pairings[3].white)
    assert after.edits[0].by == "chief"
    # kept in the round's explanation, as plain values
    with db.transaction() as session:
        row = session.query(RoundRow).filter_by(event_id=event, number=1).one()
        stored = json.loads(row.explanation_json)
    assert stored["edits"][0]["kind"] == "table" and stored["edits"][0]["board"] == 1
    assert stored["edits"][0]["reason"] == "轮椅棋手固定在第1台"


def test_the_edited_round_pairs_on(db: Database) -> None:
    """An edited round is an ordinary round: results, then the next round, which avoids the
    pairs the edit made."""
    event, ids = swiss(db)
    rnd = event_admin.pair_next_round(db, LOCAL, event)
    a, b = rnd.pairings[0].black, rnd.pairings[1].black
    round_edits.apply_edit(db, LOCAL, event, 1, RoundEdit(EditKind.PAIR, ids[a], ids[b]), "对调")
    edited = event_admin.round_detail(db, LOCAL, event, 1)
    assert any({p.black, p.white} == {a, b} for p in edited.pairings)
    for p in edited.pairings:
        tournament.record_result(db, LOCAL, event, 1, p.board, "B+R")
    nxt = event_admin.pair_next_round(db, LOCAL, event)
    assert not any({p.black, p.white} == {a, b} for p in nxt.pairings)
