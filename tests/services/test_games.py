"""The result workflow and the referee's decisions on stored game records, on SQLite and
PostgreSQL (R-REF-7, R-END-4, R-PEN-1, R-REF-1…6, R-RANK-RR B)."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from typer.testing import CliRunner

from weiqi.cli import app
from weiqi.errors import Conflict, InputError, PermissionDenied, RecordRefused, RowsRejected
from weiqi.messages import Msg
from weiqi.referee.codec import canonical
from weiqi.referee.record import GENESIS, GameRecord, link
from weiqi.roles import Role
from weiqi.server.app import create_app
from weiqi.services import accounts, event_admin, games
from weiqi.services import tournament as t
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.services.server_clock import ManualClock
from weiqi.store.database import Database
from weiqi.store.games import GameRecordRow
from weiqi.store.tournament import GameRow
from weiqi.tournament.settings import EventSettings, System

LOCAL = Actor.local()


def event(db: Database, players: int = 4) -> tuple[int, dict[str, Actor]]:
    """A round robin with ``players`` entrants, round 1 paired, and one user per role."""
    ev = create_event(
        db, LOCAL, "杯赛", EventSettings(system=System.ROUND_ROBIN, tiebreaks=("WARN",))
    )
    names = "\n".join(f"P{i}" for i in range(1, players + 1))
    t.import_players(db, LOCAL, ev.id, f"name\n{names}\n")
    t.pair_round(db, LOCAL, ev.id)
    actors = {}
    for role in (Role.ORGANISER, Role.CHIEF_REFEREE, Role.REFEREE, Role.PLAYER):
        user = accounts.create_user(db, LOCAL, f"{role.value}-{ev.id}", "quiet tortoise 123")
        accounts.grant_role(db, LOCAL, user.id, ev.id, role)
        actors[role.value] = Actor(user.id, user.username)
    return ev.id, actors


def points(db: Database, event_id: int) -> dict[str, int]:
    return {s.name: s.points for s in t.event_standings(db, event_id)}


def test_r_pen_1_a_warning_turns_a_quarter_stone_win_and_the_standings(db: Database) -> None:
    """R-PEN-1: Black wins by ¼ stone on the count (184.5); a warning for Black makes it
    白胜3/4子, and the standings' points follow; a second warning loses at once."""
    ev, who = event(db)
    g = games.enter_result(db, who["referee"], ev, 1, 1, "184.5")
    assert (g.result_zh, g.result_sgf, g.confirmed) == ("黑胜1/4子", "B+0.5", False)
    before = points(db, ev)
    assert before[g.black] == 2 and before[g.white] == 0
    g = games.record_infraction(db, who["referee"], ev, 1, 1, "clock_before_move", "B")
    assert (g.result_zh, g.result_sgf, g.warnings) == ("白胜3/4子", "W+1.5", (1, 0))
    after = points(db, ev)
    assert after[g.black] == 0 and after[g.white] == 2
    g = games.record_infraction(db, who["referee"], ev, 1, 1, "take_back", "B")
    assert g.result == "W+J" and g.result_zh == "白胜(黑判负)"
    assert [i.penalty for i in g.infractions] == ["warning", "warning"]
    assert [i.requirement for i in g.infractions] == ["R-TIME-7", "R-REF-2"]


def test_r_rank_rr_b_game_warnings_count_once_for_warn(db: Database) -> None:
    """R-RANK-RR (B): warnings in games and event-level warnings add up, each counted once."""
    ev, who = event(db)
    g = games.record_infraction(db, who["referee"], ev, 1, 1, "phone_ringing", "W")
    assert t.add_warning(db, LOCAL, ev, g.white) == 2
    standings = {s.name: s.tiebreaks["WARN"] for s in t.event_standings(db, ev)}
    assert standings[g.white] == 2 and standings[g.black] == 0


def test_r_ref_7_confirmed_then_only_the_chief_referee_corrects(db: Database) -> None:
    """R-REF-7: a confirmed result cannot be entered over; a referee cannot correct it; the
    chief referee can, with a reason, and the history shows who, why, old → new."""
    ev, who = event(db)
    games.enter_result(db, who["organiser"], ev, 1, 1, "B+R")
    with pytest.raises(PermissionDenied):
        games.confirm_result(db, who["organiser"], ev, 1, 1)
    g = games.confirm_result(db, who["referee"], ev, 1, 1)
    assert g.confirmed and g.phase == "confirmed"
    with pytest.raises(Conflict, match="is confirmed; only the chief referee may correct it"):
        games.enter_result(db, who["referee"], ev, 1, 1, "W+R")
    with pytest.raises(PermissionDenied):
        games.correct_result(db, who["referee"], ev, 1, 1, "W+R", "wrong sheet")
    with pytest.raises(PermissionDenied):
        games.correct_result(db, who["player"], ev, 1, 1, "W+R", "wrong sheet")
    with pytest.raises(Conflict, match="already confirmed"):  # the CLI's message (issue 5)
        t.record_result(db, LOCAL, ev, 1, 1, "W+R")
    g = games.correct_result(db, who["chief_referee"], ev, 1, 1, "W+R", "黑方作弊，赛后查实")
    assert g.result == "W+R" and g.confirmed
    last = g.history[-1]
    assert (last.previous, last.result) == ("B+R", "W+R")
    assert last.who == f"chief referee chief_referee-{ev}"
    assert str(last.reason) == "corrected: 黑方作弊，赛后查实"
    assert [h.result for h in g.history] == ["B+R", "B+R", "W+R"]


def test_r_ref_7_a_player_may_ask_for_a_recount_before_confirmation(db: Database) -> None:
    ev, who = event(db)
    games.enter_result(db, who["referee"], ev, 1, 2, "185")
    g = games.request_recount(db, who["referee"], ev, 1, 2, "W")
    assert g.result is None and g.phase == "counting"
    g = games.enter_result(db, who["referee"], ev, 1, 2, "184")
    assert g.result_zh == "白胜1/4子"


def test_rulings_follow_the_core(db: Database) -> None:
    """R-END-1(d): a referee rules a forfeit; draw, replay, both lose are the chief referee's."""
    ev, who = event(db)
    with pytest.raises(PermissionDenied, match="rule a draw"):
        games.record_ruling(db, who["referee"], ev, 1, 1, "draw", "board scattered")
    g = games.record_ruling(db, who["chief_referee"], ev, 1, 1, "both_lose", "agreed result")
    assert g.result == "BL" and g.rulings[0].kind_zh == "判双方均负"
    g = games.record_ruling(db, who["referee"], ev, 1, 2, "forfeit", "absent", "W")
    assert g.result == "B+F"


def test_a_player_changes_nothing(db: Database) -> None:
    """R-ORG-1: a player cannot enter results, confirm or rule; nothing is stored."""
    ev, who = event(db)
    player = who["player"]
    for call in (
        lambda: games.enter_result(db, player, ev, 1, 1, "B+R"),
        lambda: games.confirm_result(db, player, ev, 1, 1),
        lambda: games.record_infraction(db, player, ev, 1, 1, "double_move", "B"),
        lambda: games.record_ruling(db, player, ev, 1, 1, "forfeit", "absent", "B"),
        lambda: games.enter_round_results(db, player, ev, 1, [(2, 1, "B+R")]),
    ):
        with pytest.raises(PermissionDenied):
            call()
    assert games.game_view(db, ev, 1, 1).seq == 0
    assert games.record_json(db, ev, 1, 1) is None


def test_optimistic_concurrency_refuses_a_stale_page(db: Database) -> None:
    """Two referees on the same game: the second, whose page is out of date, is refused."""
    ev, who = event(db)
    seen = games.game_view(db, ev, 1, 1).seq
    games.enter_result(db, who["referee"], ev, 1, 1, "B+R", expected_seq=seen)
    with pytest.raises(Conflict, match="changed since you loaded it"):
        games.enter_result(db, who["chief_referee"], ev, 1, 1, "W+R", expected_seq=seen)
    assert games.game_view(db, ev, 1, 1).result == "B+R"


def test_concurrent_appends_do_not_interleave(db: Database) -> None:
    """Many referees appending at once: every stored record is a valid chain, and it holds
    exactly the appends that were not refused."""
    ev, who = event(db)
    games.enter_result(db, who["referee"], ev, 1, 1, "185")
    outcomes: list[str] = []

    def warn() -> None:
        try:
            games.record_infraction(db, who["referee"], ev, 1, 1, "phone_ringing", "W")
            outcomes.append("ok")
        except Conflict:
            outcomes.append("conflict")
        except Exception as err:  # SQLite may report a busy database as an error
            outcomes.append(type(err).__name__)

    threads = [threading.Thread(target=warn) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    stored = games.record_json(db, ev, 1, 1)
    assert stored is not None
    record = GameRecord.from_json(stored)
    infractions = len(record.state.infractions)
    assert infractions == outcomes.count("ok") >= 1
    with db.transaction() as session:
        row = session.scalar(select(GameRecordRow))
        assert row is not None and row.seq == len(record) and row.head == record.head


def test_round_sheet_all_or_nothing_with_lines(db: Database) -> None:
    ev, who = event(db, players=6)
    with pytest.raises(RowsRejected) as err:
        games.enter_round_results(
            db, who["referee"], ev, 1, [(2, 1, "B+R"), (3, 2, "X+1"), (4, 9, "W+R")]
        )
    assert [line for line, _ in err.value.problems] == [3, 4]
    assert all(g.result is None for g in games.round_games(db, ev, 1))
    rows = games.parse_results_csv("board,result\n1,B+R\n2,184.5\n3,0\n")
    assert games.enter_round_results(db, who["referee"], ev, 1, rows) == 3
    got = [(g.result, g.confirmed) for g in games.round_games(db, ev, 1)]
    assert got == [("B+R", True), ("B+0.5", True), ("0", True)]
    # the same sheet again changes nothing; a different confirmed result is refused
    assert games.enter_round_results(db, who["referee"], ev, 1, rows[:1]) == 0
    with pytest.raises(RowsRejected, match=r"line 2: .*is confirmed; only the chief referee"):
        games.enter_round_results(db, who["referee"], ev, 1, [(2, 1, "W+R")])


def test_results_csv_names_bad_lines() -> None:
    with pytest.raises(InputError, match="line 3"):
        games.parse_results_csv("board,result\n1,B+R\nx,W+R\n")
    with pytest.raises(InputError, match="line 1"):
        games.parse_results_csv("tafel,result\n1,B+R\n")


def test_the_record_exports_to_sgf(db: Database) -> None:
    ev, who = event(db)
    games.record_infraction(db, who["referee"], ev, 1, 1, "double_move", "W")
    games.enter_result(db, who["referee"], ev, 1, 1, "184")
    sgf = games.game_sgf(db, ev, 1, 1)
    assert "RE[B+1.5]" in sgf and "连下两着" in sgf and "EV[杯赛]" in sgf


def test_the_command_line_result_is_kept_in_the_record(db: Database) -> None:
    """``weiqi round result`` (issue 5) enters and confirms in one step, through the record."""
    ev, _ = event(db)
    t.record_result(db, LOCAL, ev, 1, 1, "W+2.5")
    g = games.game_view(db, ev, 1, 1)
    assert g.confirmed and g.result_zh == "白胜1又1/4子"
    assert [h.result for h in g.history] == ["W+2.5", "W+2.5"] and g.seq == 3


def test_r_end_4_both_players_acknowledge_then_the_referee_confirms(db: Database) -> None:
    """R-END-4, R-REF-7: both players and the referee; a warning in between asks again."""
    ev, who = event(db)
    ref = who["referee"]
    games.enter_result(db, ref, ev, 1, 1, "185")
    games.acknowledge_result(db, ref, ev, 1, 1, "B")
    assert games.acknowledge_result(db, ref, ev, 1, 1, "W").acknowledged == ("B", "W")
    g = games.record_infraction(db, ref, ev, 1, 1, "phone_ringing", "B")
    assert g.result_zh == "白胜1/4子" and g.acknowledged == ()
    games.acknowledge_result(db, ref, ev, 1, 1, "B")
    games.acknowledge_result(db, ref, ev, 1, 1, "W")
    g = games.confirm_result(db, ref, ev, 1, 1)
    assert g.confirmed and "by both players and the referee" in str(g.history[-1].reason)


def test_a_stored_record_rewritten_behind_our_back_is_refused(db: Database) -> None:
    """The hash chain and the stored head: a record altered in the database, or rewritten
    end to end, is refused with a clear error instead of being shown or appended to."""
    ev, who = event(db)
    games.enter_result(db, who["referee"], ev, 1, 1, "185")
    with db.transaction() as session:
        row = session.scalar(select(GameRecordRow))
        assert row is not None
        row.record_json = row.record_json.replace('"black_count":"185"', '"black_count":"175"')
    with pytest.raises(RecordRefused, match="altered"):
        games.game_view(db, ev, 1, 1)
    with pytest.raises(RecordRefused, match="altered"):
        games.confirm_result(db, who["referee"], ev, 1, 1)


def _rewrite_as_an_attacker(record_json: str, old: str, new: str) -> tuple[str, str]:
    """``record_json`` with ``old`` replaced by ``new`` in its events and every hash of the
    chain recomputed — what whoever can write the database can do, since the chain is
    unkeyed; returns the new JSON and its new head."""
    data = json.loads(record_json.replace(old, new))
    prev = GENESIS
    for entry in data["entries"]:
        entry["prev"] = prev
        entry["hash"] = prev = link(prev, {k: v for k, v in entry.items() if k != "hash"})
    return canonical(data), prev


def test_a_record_rewritten_with_its_chain_recomputed_is_refused_by_its_signature(
    db: Database, tmp_path: Path
) -> None:
    """Issue #16: whoever can write the database rewrites board 1's record — Black's count
    185 made 175, every hash recomputed, the new head stored — and the chain verifies; the
    head's signature under the site's record key does not. The service refuses the record
    (``RecordRefused``, HTTP 409 ``record_refused``: not shown, not appended to, no SGF);
    ``weiqi record check`` names it and exits 1. The untouched record of board 2 verifies and
    is shown. A record without its signature, or copied whole from another board, is refused
    too."""
    ev, who = event(db)
    games.enter_result(db, who["referee"], ev, 1, 1, "185")
    games.enter_result(db, who["referee"], ev, 1, 2, "B+R")
    with db.transaction() as session:
        rows = {
            board: row
            for row, board in session.execute(
                select(GameRecordRow, GameRow.board).join(GameRow)
            ).all()
        }
        assert all(len(row.signature or "") == 64 for row in rows.values())
        forged, head = _rewrite_as_an_attacker(
            rows[1].record_json, '"black_count":"185"', '"black_count":"175"'
        )
        rows[1].record_json, rows[1].head = forged, head
        board_2 = (rows[2].record_json, rows[2].head, rows[2].signature)
    assert GameRecord.from_json(forged, head).state.black_count == 175  # the chain is fine

    with pytest.raises(RecordRefused, match="its signature does not match its head") as refused:
        games.game_view(db, ev, 1, 1)
    assert refused.value.msg.args["game"] == Msg(
        "round %(round)s board %(board)s", round=1, board=1
    )
    with pytest.raises(RecordRefused):
        games.confirm_result(db, who["referee"], ev, 1, 1)
    with pytest.raises(RecordRefused):
        games.game_sgf(db, ev, 1, 1)
    untouched = games.game_view(db, ev, 1, 2)
    assert (untouched.result, untouched.seq) == ("B+R", 2)

    event_admin.publish_round(db, LOCAL, ev, 1)
    with TestClient(create_app(db, secret_key="records")) as client:
        answer = client.get(f"/api/events/{ev}/rounds/1/boards/1")
        assert answer.status_code == 409, answer.text
        assert answer.json()["error"] == "record_refused"
        assert "its signature does not match its head" in answer.json()["message"]
        assert client.get(f"/api/events/{ev}/rounds/1/boards/2").status_code == 200

    checked = CliRunner().invoke(app, ["record", "check", "--db", db.url, "--json"])
    assert checked.exit_code == 1, checked.output
    lines = [json.loads(line) for line in checked.output.splitlines()]
    # the record refused, and its board, whose seal no longer matches the record's head
    assert [(c["board"], c["verified"]) for c in lines] == [(1, False), (2, True), (1, False)]
    assert "its signature does not match its head" in lines[0]["problem"]
    assert "changed outside weiqi" in lines[2]["problem"]

    with db.transaction() as session:  # the attacker's other tries: no signature at all …
        row = session.get(GameRecordRow, rows[1].game_id)
        assert row is not None
        row.signature = None
    with pytest.raises(RecordRefused, match="it has no signature"):
        games.game_view(db, ev, 1, 1)
    with db.transaction() as session:  # … or board 2's whole record, signature and all
        row = session.get(GameRecordRow, rows[1].game_id)
        assert row is not None
        row.record_json, row.head, row.signature = board_2
    with pytest.raises(RecordRefused, match="moved from another game"):
        games.game_view(db, ev, 1, 1)
    assert games.game_view(db, ev, 1, 2).result == "B+R"


def test_r_time_2_art_22_7_a_referee_grants_a_seat_leave_once(db: Database) -> None:
    """R-TIME-2 / Art. 22.7: a referee lets White (in Black's time) leave the seat; the page's
    timeline shows it; a second leave, a leave in the player's own time, a player's request
    and a game no longer in play are refused, nothing stored."""
    from weiqi.errors import InvalidSetting

    ev, who = event(db)
    g = games.grant_seat_leave(db, who["referee"], ev, 1, 1, "W", expected_seq=0)
    assert [(v.player_color, v.granted_by_role) for v in g.seat_leaves] == [("W", "referee")]
    assert g.result is None and g.phase == "playing"
    seq = g.seq
    with pytest.raises(InvalidSetting, match="only once per game") as once:
        games.grant_seat_leave(db, who["chief_referee"], ev, 1, 1, "W")
    assert "event " not in str(once.value) and "round 1 board 1" in str(once.value)
    with pytest.raises(InvalidSetting, match="Black's own time"):
        games.grant_seat_leave(db, who["referee"], ev, 1, 1, "B")
    with pytest.raises(PermissionDenied):
        games.grant_seat_leave(db, who["player"], ev, 1, 1, "B")
    with pytest.raises(InvalidSetting, match="not B or W"):
        games.grant_seat_leave(db, who["referee"], ev, 1, 1, "X")
    assert games.game_view(db, ev, 1, 1).seq == seq
    games.enter_result(db, who["referee"], ev, 1, 2, "185")
    with pytest.raises(InvalidSetting, match="cannot let a player leave the seat"):
        games.grant_seat_leave(db, who["referee"], ev, 1, 2, "W")
    assert len(games.game_view(db, ev, 1, 2).seat_leaves) == 0


def test_r_time_2_art_22_7_no_leave_before_byo_yomi_when_the_record_keeps_the_clock(
    db: Database,
) -> None:
    """R-TIME-2 / Art. 22.7: with the clock in the record, a player still in main time needs
    no permission; the refusal says so and stores nothing."""
    from datetime import UTC, datetime
    from fractions import Fraction

    from weiqi.clock.control import TimeControl
    from weiqi.errors import InvalidSetting
    from weiqi.referee.actors import GameActor
    from weiqi.referee.events import ClockAction, ClockEvent
    from weiqi.referee.nigiri import ColorAssignment
    from weiqi.referee.signature import signing_context
    from weiqi.rules.ruleset import Ruleset
    from weiqi.services.site import record_signing_key

    ev, who = event(db)
    referee = GameActor.referee("referee")
    clock = ManualClock(datetime(2026, 5, 1, 9, 0, tzinfo=UTC))
    now = clock.now().timestamp()  # the service appends at this clock: an hour of main time left
    record = GameRecord.start(
        Ruleset(board_size=19, komi=Fraction(15, 2)),
        ColorAssignment.by_organiser("P1", "P4"),
        referee=referee,
        at=now,
        time_control=TimeControl.byo_yomi(3600, 3, 60),
    )
    record.append(ClockEvent(ClockAction.START), referee, at=now)
    with db.transaction() as session:
        game = games._game_row(session, ev, 1, 1)
        session.add(
            GameRecordRow(
                game_id=game.id,
                record_json=record.to_json(),
                head=record.head,
                # stored as the site stores its records: signed with its key
                signature=record.signature(
                    record_signing_key(session), signing_context("game_records", game.id)
                ),
                seq=len(record),
                black_warnings=0,
                white_warnings=0,
            )
        )
    with pytest.raises(InvalidSetting, match="White is not in byo-yomi"):
        games.grant_seat_leave(db, who["referee"], ev, 1, 1, "W", clock=clock)
    assert games.game_view(db, ev, 1, 1).seq == len(record)


def test_r_ref_7_a_game_record_is_stamped_by_the_server_clock(db: Database) -> None:
    """R-REF-7: the times in a game's history are the server's clock (injected), never earlier
    than the record's last event: a clock set back does not reorder the history."""
    from datetime import UTC, datetime, timedelta

    ev, who = event(db)
    clock = ManualClock(datetime(2026, 5, 1, 9, 0, tzinfo=UTC))
    games.enter_result(db, who["referee"], ev, 1, 1, "B+R", clock=clock)
    games.confirm_result(db, who["referee"], ev, 1, 1, clock=clock.advance(timedelta(minutes=5)))
    clock.set(datetime(2026, 5, 1, 8, 0, tzinfo=UTC))  # set back an hour
    games.correct_result(db, who["chief_referee"], ev, 1, 1, "W+R", "wrong sheet", clock=clock)
    stamps = [h.at for h in games.game_view(db, ev, 1, 1).history]
    assert stamps == [
        datetime(2026, 5, 1, 9, 0, tzinfo=UTC),
        datetime(2026, 5, 1, 9, 5, tzinfo=UTC),
        datetime(2026, 5, 1, 9, 5, tzinfo=UTC),
    ]


def test_r_board_1_a_games_ruleset_comes_from_the_event_settings(db: Database) -> None:
    """R-BOARD-1 / R-KO-2 / R-HCP-2 (issue #10): a game's ``Ruleset`` is the event's — a 9×9
    event with a draw for cycles and free handicap placement records its games on 9×9 with
    those rules (SGF ``SZ[9]``); nothing rebuilds it with a 19×19 constant, so a point off the
    9×9 board is refused."""
    from weiqi.rules.ruleset import CyclePolicy, HandicapPlacement

    settings = EventSettings(
        system=System.ROUND_ROBIN,
        board_size=9,
        cycle=CyclePolicy.DRAW,
        handicap_placement=HandicapPlacement.FREE,
    )
    ev = create_event(db, LOCAL, "九路赛", settings).id
    t.import_players(db, LOCAL, ev, "name\nP1\nP2\n")
    t.pair_round(db, LOCAL, ev)
    games.enter_result(db, LOCAL, ev, 1, 1, "B+R")
    stored = games.record_json(db, ev, 1, 1)
    assert stored is not None
    ruleset = GameRecord.from_json(stored).state.ruleset
    assert ruleset is not None
    assert (ruleset.board_size, ruleset.cycle, ruleset.handicap_placement, ruleset.komi) == (
        9,
        CyclePolicy.DRAW,
        HandicapPlacement.FREE,
        settings.komi,
    )
    assert "SZ[9]" in games.game_sgf(db, ev, 1, 1)
    with pytest.raises(InputError, match="K10"):
        games.record_infraction(db, LOCAL, ev, 1, 1, "capture_live_stones", "B", points="K10")
    g = games.record_infraction(db, LOCAL, ev, 1, 1, "capture_live_stones", "B", points="J9")
    assert [i.kind for i in g.infractions] == ["capture_live_stones"]
