"""The live moves' lock (issue #12): a move locks its own game, the event's lock taken shared,
so the games of one event write in parallel on PostgreSQL, two moves of one game one after the
other, and a writer of the whole event (``store.locks.lock_event``) waits for them. Real
threads on the real database; no server."""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial

import pytest
from sqlalchemy import select

from tests.services.test_races import Won, race
from weiqi.errors import Conflict
from weiqi.referee.events import Move
from weiqi.rules.vertex import format_vertex
from weiqi.services import accounts, games, live
from weiqi.services import tournament as t
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.services.site import record_signing_key
from weiqi.store.database import Database
from weiqi.store.games import GameRecordRow
from weiqi.store.locks import lock_event
from weiqi.store.tournament import GameRow, RoundRow
from weiqi.tournament.settings import EventSettings, PlayMode, System

LOCAL = Actor.local()
BOARDS = 4


def _event(db: Database) -> tuple[int, dict[tuple[int, str], Actor]]:
    """An online 9×9 round of :data:`BOARDS` boards, every game started; each board's
    players' actors by (board, colour)."""
    settings = EventSettings(
        System.SWISS, rounds=1, board_size=9, play=PlayMode.ONLINE, time_control="60m"
    )  # type: ignore[arg-type]
    ev = create_event(db, LOCAL, "并行", settings).id
    names = [f"棋手{i}" for i in range(2 * BOARDS)]
    t.import_players(db, LOCAL, ev, "name\n" + "".join(f"{n}\n" for n in names))
    rnd = t.pair_round(db, LOCAL, ev)
    color_of = {}
    for p in rnd.pairings:
        color_of[p.black], color_of[p.white] = (p.board, "B"), (p.board, "W")
    seats = {}
    for i, name in enumerate(names):
        actor = accounts.create_user(db, LOCAL, f"p{ev}-{i}", "a long pass phrase 7").actor()
        live.redeem_invite(
            db, actor, live.create_invite(db, LOCAL, ev, live.player_id(db, ev, name)).code
        )
        seats[color_of[name]] = actor
    for board in range(1, BOARDS + 1):
        live.start_game(db, ev, 1, board)
    return ev, seats


def _stones(db: Database, ev: int) -> dict[int, list[str]]:
    """Every board's stones as stored, each record read and verified from its row."""
    out = {}
    with db.transaction() as session:
        key = record_signing_key(session)
        rows = session.execute(
            select(GameRow.board, GameRecordRow)
            .join(GameRecordRow, GameRecordRow.game_id == GameRow.id)
            .join(RoundRow, GameRow.round_id == RoundRow.id)
            .where(RoundRow.event_id == ev)
        ).all()
        for board, row in rows:
            record = games._verified(row, key, team=False)
            out[board] = [
                f"{e.actor.color.value if e.actor.color else '?'}{format_vertex(e.event.point, 9)}"
                for e in record.entries
                if isinstance(e.event, Move)
            ]
    return out


def _finishes(call: Callable[[], object], within: float) -> tuple[bool, threading.Thread]:
    """Start ``call`` in a thread; whether it finished within ``within`` seconds."""
    done = threading.Event()

    def run() -> None:
        call()
        done.set()

    th = threading.Thread(target=run)
    th.start()
    return done.wait(within), th


def test_a_move_waits_for_its_own_game_only(database: Database) -> None:
    """While a transaction holds board 1's lock, a move on board 2 of the same event is
    stored at once (PostgreSQL) and a move on board 1 waits until that transaction ends; a
    writer of the whole event waits too."""
    if database.engine.dialect.name != "postgresql":
        pytest.skip("SQLite has one writer for the whole file")
    ev, seats = _event(database)
    with database.transaction() as session:
        games._game_to_change(session, ev, 1, 1, None, game_only=True)
        other, t2 = _finishes(
            partial(live.act, database, seats[(2, "B")], ev, 1, 2, "move", None, {"vertex": "C3"}),
            10,
        )
        assert other, "a move on another board of the event waited for board 1's lock"
        same, t1 = _finishes(
            partial(live.act, database, seats[(1, "B")], ev, 1, 1, "move", None, {"vertex": "C3"}),
            0.5,
        )
        assert not same, "a second write of board 1 did not wait for the first"

        def whole_event() -> None:
            with database.transaction() as s:
                lock_event(s, ev)

        event_writer, t3 = _finishes(whole_event, 0.5)
        assert not event_writer, "a writer of the whole event did not wait for the move"
    for th in (t1, t2, t3):
        th.join(30)
        assert not th.is_alive()
    assert _stones(database, ev)[1] == ["BC3"]


def test_moves_of_every_board_at_once_none_lost_or_doubled(database: Database) -> None:
    """Every board's player to move sends two different moves for the same turn, all boards
    at once, several turns: on each board exactly one of the two is stored, the other refused
    as out of date, and every board's record holds exactly the winners in order."""
    ev, seats = _event(database)
    seqs = {b: live.snapshot(database, ev, 1, b).seq for b in range(1, BOARDS + 1)}
    expected: dict[int, list[str]] = {b: [] for b in seqs}
    for turn in range(6):
        color = "BW"[turn % 2]
        column = "ABCD"[turn // 2] if color == "B" else "FGHJ"[turn // 2]
        calls = []
        for b in seqs:
            for row in (1, 9):
                vertex = f"{column}{row}"
                calls.append(
                    partial(
                        live.act, database, seats[(b, color)], ev, 1, b, "move", seqs[b],
                        {"vertex": vertex},
                    )
                )  # fmt: skip
        outcomes = race(*calls)
        for i, b in enumerate(seqs):
            pair = outcomes[2 * i : 2 * i + 2]
            won = [o.value for o in pair if isinstance(o, Won)]
            assert len(won) == 1, pair
            assert all(isinstance(o, Conflict) for o in pair if not isinstance(o, Won)), pair
            snap = won[0].snapshot  # type: ignore[attr-defined]
            expected[b].append(f"{color}{snap.moves[-1].vertex}")
            seqs[b] = snap.seq
    assert _stones(database, ev) == expected
