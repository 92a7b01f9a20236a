"""The game room's WebSocket against the real server (``weiqi serve`` in a subprocess): two
players and a spectator see every move once and in order; an illegal move is refused with its
reason in Chinese; the server flags a time-out at the deadline with nobody sending anything
(issue #11; R-PLAY-1, R-KO-1, R-TIME-2, R-TIME-3, R-END-1)."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest
from websockets.exceptions import InvalidStatus

from tests.live.conftest import LOCAL, OnlineEvent, Reader, online_event, reader
from tests.server.conftest import LiveServer
from weiqi.services import games
from weiqi.services.event_admin import publish_round
from weiqi.store.database import Database


def _started(m: dict[str, Any]) -> bool:
    return m["type"] in ("state", "update") and m["snapshot"]["started"]


def _seq_after(m: dict[str, Any], seq: int) -> bool:
    return m["type"] == "update" and m["snapshot"]["seq"] > seq


def _play(players: dict[str, Reader], others: list[Reader], moves: list[str]) -> int:
    """Play ``moves`` alternately from Black, each once every reader saw the one before;
    returns the record's length after the last."""
    seq = max(last_seq(r) for r in players.values())
    for i, vertex in enumerate(moves):
        mover = players["BW"[i % 2]]
        mover.act("move", seq, vertex=vertex)
        for r in (*players.values(), *others):
            got = r.until(lambda m, s=seq: _seq_after(m, s) or m["type"] == "refused")
            assert got["type"] == "update", got
        seq = got["snapshot"]["seq"]
    return seq


def last_seq(r: Reader) -> int:
    """The record's length in the last state or update ``r`` received."""
    return max(m["snapshot"]["seq"] for m in r.received if m["type"] in ("state", "update"))


def _view(server: LiveServer, ev: OnlineEvent) -> games.GameView:
    db = Database(server.db_url)
    try:
        return games.game_view(db, ev.id, 1, 1)
    finally:
        db.dispose()


def test_r_play_1_two_players_and_a_spectator_see_every_move_once_and_in_order(
    live_server: LiveServer,
) -> None:
    """R-PLAY-1: the spectator (not logged in) and both players each get the record's events
    exactly once, in the record's order — the first state, then one update per change — and a
    reader who reconnects gets the whole game again; resigning ends the game at once and the
    result is the board's (R-END-1(b))."""
    ev = online_event(live_server, "order")
    room = ev.room()
    with (
        reader(live_server, room, None) as spectator,
        reader(live_server, room, ev.players["B"]) as black,
        reader(live_server, room, ev.players["W"]) as white,
    ):
        first = spectator.next()
        assert first["type"] == "state" and first["color"] is None
        for r in (black, white):
            assert r.next()["type"] == "state"
        for r in (spectator, black, white):
            r.until(_started)
        moves = ["E5", "C3", "G7", "C7", "G3", "D5"]
        seq = _play({"B": black, "W": white}, [spectator], moves)
        black.act("resign", seq)
        for r in (spectator, black, white):
            end = r.until(lambda m: _seq_after(m, seq))
            assert end["snapshot"]["result"] == "W+R"
            assert end["result_text"] == "白中盘胜"
        for r in (spectator, black, white):
            seqs = [e["seq"] for e in r.events()]
            assert seqs == list(range(len(seqs))), seqs  # each once, in order, none missing
            played = [e["vertex"] for e in r.events() if e["kind"] == "move"]
            assert played == moves
        with reader(live_server, room, None) as again:  # a reload restores the whole game
            state = again.next()
            assert state["type"] == "state"
            assert [m["vertex"] for m in state["snapshot"]["moves"]] == moves
            assert state["snapshot"]["stones"]["E5"] == "B"
            assert [e["seq"] for e in state["snapshot"]["events"]] == seqs
    view = _view(live_server, ev)
    assert view.result == "W+R" and view.move_number == len(moves)


def test_r_ko_1_illegal_moves_are_refused_with_the_reason_in_chinese(
    live_server: LiveServer,
) -> None:
    """R-KO-1, R-PLAY-1: a stone on an occupied point and an immediate ko recapture are
    refused, only to the player who sent them, with the rules' reason in Chinese; nothing is
    stored; a move sent for a position already gone (a stale ``seq``) is refused too; the
    player not to move cannot move; a spectator cannot play at all."""
    ev = online_event(live_server, "illegal")
    room = ev.room()
    with (
        reader(live_server, room, None) as spectator,
        reader(live_server, room, ev.players["B"]) as black,
        reader(live_server, room, ev.players["W"]) as white,
    ):
        for r in (spectator, black, white):
            r.until(_started)
        players = {"B": black, "W": white}
        seq = _play(players, [spectator], ["C5"])
        white.act("move", seq, vertex="C5")
        refused = white.until(lambda m: m["type"] == "refused")
        assert refused["reason"] == "occupied"
        assert refused["message"] == "第2手（C5）：此处已有棋子"
        black.act("move", seq, vertex="D4")  # not Black's turn
        wrong = black.until(lambda m: m["type"] == "refused")
        assert wrong["reason"] == "wrong-turn" and "还没轮到你" in wrong["message"]
        spectator.act("move", seq, vertex="D4")
        watching = spectator.until(lambda m: m["type"] == "refused")
        assert watching["code"] == "PermissionDenied"
        # A ko: Black's E5 takes White's D5; White may not take back at once (R-KO-1).
        shape = ["E4", "D4", "E6", "D6", "F5", "A9", "D5", "E5"]
        seq = _play({"B": white, "W": black}, [spectator], shape)  # White moves next
        white.act("move", seq, vertex="D5")
        ko = white.until(lambda m: m["type"] == "refused")
        assert ko["reason"] == "ko" and ko["message"].startswith("第10手（D5）：打劫")
        white.act("move", seq - 2, vertex="A1")  # sent for a position already gone
        stale = white.until(lambda m: m["type"] == "refused")
        assert stale["code"] == "Conflict" and "刷新页面" in stale["message"]
        assert not [m for m in black.received if m["type"] == "refused" and m is not wrong]
    view = _view(live_server, ev)
    assert view.seq == seq and view.move_number == 9 and view.result is None
    stones = dict(view.stones)
    assert "D5" not in stones and stones["E5"] == "B"


def test_r_time_2_the_server_flags_a_time_out_with_no_client_message(
    live_server: LiveServer,
) -> None:
    """R-TIME-2, R-TIME-3: with 1 × 5 s of byo-yomi and nobody sending anything once the game
    has started, the server itself counts the call-outs and flags Black at the deadline: the
    loss on time goes into the record (a look at the clock by the server) and is pushed to
    every reader; the board's result is White's win on time. The deadline is the online
    event's: its default lag allowance's full quota (3 s) after the time runs out."""
    ev = online_event(live_server, "flag", time_control="1x5s")
    room = ev.room()
    with (
        reader(live_server, room, None) as spectator,
        reader(live_server, room, ev.players["B"]) as black,
        reader(live_server, room, ev.players["W"]) as white,
    ):
        start = black.until(_started)
        clock = start["snapshot"]["clock"]
        assert clock["running"] == "B" and clock["black"]["total"] == pytest.approx(5, abs=0.5)
        deadline = clock["now"] + clock["black"]["total"] + 3  # the lag quota
        flagged = black.until(lambda m: m["type"] == "update" and m["snapshot"]["result"], 15)
        late = time.time() - deadline
        assert flagged["snapshot"]["result"] == "W+T"
        assert flagged["result_text"] == "白超时胜"
        assert [e["kind"] for e in flagged["snapshot"]["events"]] == ["clock_check"]
        assert -0.05 < late < 1.0, late  # at the deadline, not at someone's next message
        said = [m["text"] for m in black.received if m["type"] == "callout"]
        assert said[:4] == ["1", "2", "3", "4"], said
        for r in (spectator, white):
            got = r.until(lambda m: m["type"] == "update" and m["snapshot"]["result"], 5)
            assert got["snapshot"]["result"] == "W+T"
    view = _view(live_server, ev)
    assert view.result == "W+T"
    assert any("时间" in h.reason.id or "time" in h.reason.id for h in view.history)
    answer = httpx.get(f"{live_server.url}/events/{ev.id}/rounds/1/boards/1/play")
    assert answer.status_code == 200 and "白超时胜" in answer.text


def test_r_end_3_two_passes_lead_to_counting_a_dispute_resumes_and_agreement_counts(
    live_server: LiveServer,
) -> None:
    """R-END-1(c), R-END-3, R-SCORE-1: after two passes the server proposes the dead stones
    (``rules.dead_stones``: Black's lone H5 in White's area); White marks them, Black disputes
    (its stone lives, it says): play resumes with White, the claimant, to move; after two more
    passes White marks H5 again, Black agrees, and the count is the board's result, which both
    players then confirm (R-END-4) — the referee's confirmation is still to come."""
    ev = online_event(live_server, "count")
    room = ev.room()
    with (
        reader(live_server, room, ev.players["B"]) as black,
        reader(live_server, room, ev.players["W"]) as white,
    ):
        for r in (black, white):
            r.until(_started)
        players = {"B": black, "W": white}
        walls = [v for row in range(1, 10) for v in (f"E{row}", f"F{row}")]
        seq = _play(players, [], [*walls, "H5"])

        def step(mover: Reader, action: str, **data: Any) -> dict[str, Any]:
            nonlocal seq
            mover.act(action, seq, **data)
            for r in (black, white):
                got = r.until(lambda m: _seq_after(m, seq) or m["type"] == "refused")
                assert got["type"] == "update", got
            seq = got["snapshot"]["seq"]
            return got["snapshot"]

        step(white, "pass")
        snap = step(black, "pass")
        assert snap["phase"] == "counting" and snap["proposed"]
        assert "H5" in snap["dead"] and not any(v.startswith(("E", "F")) for v in snap["dead"])
        assert snap["clock"]["running"] is None  # the clock waits while the stones are agreed
        snap = step(white, "mark_dead", stones=snap["dead"])
        assert snap["dead_marked_by"] == "W" and not snap["proposed"]
        snap = step(black, "dispute")
        assert snap["phase"] == "playing" and snap["to_move"] == "W"
        assert snap["clock"]["running"] == "W"
        step(white, "move", vertex="H3")
        step(black, "pass")
        snap = step(white, "pass")
        assert snap["phase"] == "counting"
        step(white, "mark_dead", stones=["H5"])
        snap = step(black, "agree_dead")
        assert snap["phase"] == "finished" and snap["result"].startswith("B+")
        result = snap["result"]
        step(black, "confirm")
        snap = step(white, "confirm")
        assert sorted(snap["confirmations"]) == ["B", "W"] and not snap["confirmed"]
    view = _view(live_server, ev)
    assert view.result == result and view.black_count is not None and not view.confirmed


def test_r_play_1_two_moves_sent_for_the_same_turn_cannot_both_land(
    live_server: LiveServer,
) -> None:
    """R-PLAY-1: Black in two tabs sends two different moves for the same position (the same
    ``seq``) at once: exactly one is stored and pushed, the other is refused as out of date."""
    ev = online_event(live_server, "race")
    room = ev.room()
    with (
        reader(live_server, room, ev.players["B"]) as tab1,
        reader(live_server, room, ev.players["B"]) as tab2,
        reader(live_server, room, ev.players["W"]) as white,
    ):
        start = white.until(_started)
        seq = start["snapshot"]["seq"]
        tab1.act("move", seq, vertex="C3")
        tab2.act("move", seq, vertex="G7")
        landed = white.until(lambda m: _seq_after(m, seq))
        moves = [e["vertex"] for e in landed["snapshot"]["events"] if e["kind"] == "move"]
        assert len(moves) == 1
        winner, loser = (tab1, tab2) if moves == ["C3"] else (tab2, tab1)
        for tab in (winner, loser):
            tab.until(lambda m: _seq_after(m, seq))
        if not any(m["type"] == "refused" for m in loser.received):
            loser.until(lambda m: m["type"] == "refused")
        (refused,) = [m for m in loser.received if m["type"] == "refused"]
        assert refused["code"] == "Conflict" and "刷新页面" in refused["message"]
        assert not [m for m in winner.received if m["type"] == "refused"]
        assert landed["snapshot"]["stones"] == {moves[0]: "B"}


def test_r_end_2_a_proposal_to_end_is_refused_then_accepted(live_server: LiveServer) -> None:
    """R-END-2: the player to move proposes the end (and passes); the opponent refuses and
    plays on; the second proposal is accepted and the game is counted (R-END-1(a))."""
    ev = online_event(live_server, "propose")
    room = ev.room()
    with (
        reader(live_server, room, ev.players["B"]) as black,
        reader(live_server, room, ev.players["W"]) as white,
    ):
        for r in (black, white):
            r.until(_started)
        seq = _play({"B": black, "W": white}, [], ["C3", "G7"])

        def step(mover: Reader, action: str, **data: Any) -> dict[str, Any]:
            nonlocal seq
            mover.act(action, seq, **data)
            got = white.until(lambda m: _seq_after(m, seq) or m["type"] == "refused")
            assert got["type"] == "update", got
            seq = got["snapshot"]["seq"]
            return got["snapshot"]

        snap = step(black, "propose_end")
        assert snap["end_proposed_by"] == "B" and snap["to_move"] == "W"
        snap = step(white, "refuse_end")
        assert snap["end_proposed_by"] is None and snap["phase"] == "playing"
        step(white, "move", vertex="G3")
        snap = step(black, "propose_end")
        assert snap["end_proposed_by"] == "B"
        snap = step(white, "accept_end")
        assert snap["phase"] == "counting" and snap["proposed"]


def test_r_play_1_a_hidden_round_s_room_lets_in_only_its_referees(live_server: LiveServer) -> None:
    """A round hidden again after publication: its room's socket is refused at the handshake to
    a spectator and to the game's own players — as if the board did not exist, like every read
    of an unpublished round — while its referee watches it; a board the round does not have is
    refused to all. (One read lets a reader in: the visibility, the seat and the state.)"""
    ev = online_event(live_server, "hidden")
    db = Database(live_server.db_url)
    try:
        publish_round(db, LOCAL, ev.id, 1, published=False)
    finally:
        db.dispose()
    for who in (None, ev.players["B"]):
        with pytest.raises(InvalidStatus), reader(live_server, ev.room(), who):
            pass
    with reader(live_server, ev.room(), ev.referee) as referee:
        state = referee.next()
        assert state["type"] == "state" and state["color"] is None
        assert state["snapshot"]["phase"] == "not_started"
    with pytest.raises(InvalidStatus), reader(live_server, ev.room(7), ev.referee):
        pass
    db = Database(live_server.db_url)
    try:
        publish_round(db, LOCAL, ev.id, 1)
    finally:
        db.dispose()
    with reader(live_server, ev.room(), ev.players["B"]) as black:
        state = black.next()
        assert state["type"] == "state" and state["color"] == "B"
