"""The live game's record kept in the worker's memory (``services.record_cache``, issue #11):
a move no longer replays the record, yet a record written meanwhile by anybody else — another
worker or process, the referee's page, a row changed outside weiqi — is read again from what
is stored, and a kept record never takes a move on top of someone else's. Real database
(SQLite and PostgreSQL), real processes; no server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from functools import partial
from pathlib import Path

import pytest
from sqlalchemy import select

from tests.live.test_live_clock import _game as live_game
from tests.services.test_races import TRIALS, Won, race
from weiqi.errors import Conflict, RecordRefused
from weiqi.referee.codec import canonical
from weiqi.referee.events import Move
from weiqi.referee.record import GameRecord
from weiqi.rules.vertex import format_vertex
from weiqi.services import games, live, record_cache
from weiqi.services.actor import Actor
from weiqi.services.site import record_signing_key
from weiqi.store.database import Database
from weiqi.store.games import GameRecordRow

LOCAL = Actor.local()
SRC = Path(__file__).resolve().parents[2] / "src"


def _game(db: Database) -> tuple[int, dict[str, Actor]]:
    """An online 9×9 game of two linked players (60 minutes each), started; their actors by
    colour."""
    ev, seats = live_game(db, "60m")
    live.start_game(db, ev, 1, 1)
    return ev, seats


def _stored(db: Database) -> GameRecord:
    """The board's record as stored, read and verified from its row (no cache)."""
    with db.transaction() as session:
        row = session.scalar(select(GameRecordRow))
        assert row is not None
        return games._verified(row, record_signing_key(session), team=False)


def _moves(record: GameRecord) -> list[str]:
    """The record's stones: colour and vertex (``BC3``)."""
    return [
        f"{e.actor.color.value if e.actor.color else '?'}{format_vertex(e.event.point, 9)}"
        for e in record.entries
        if isinstance(e.event, Move)
    ]


@pytest.fixture
def db(database: Database) -> Database:
    """The live tests' database (SQLite and PostgreSQL in turn)."""
    return database


@pytest.fixture
def replays(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many events were replayed from stored JSON (each record read: its length)."""
    seen: list[int] = []
    real = GameRecord.from_entries.__func__  # type: ignore[attr-defined]

    def counting(cls: type[GameRecord], entries: list[object]) -> GameRecord:
        seen.append(len(entries))
        return real(cls, entries)  # type: ignore[no-any-return]

    monkeypatch.setattr(GameRecord, "from_entries", classmethod(counting))
    return seen


def test_a_move_reads_no_record_back_from_json(db: Database, replays: list[int]) -> None:
    """After the first read, the moves of a game, the room's snapshot and its look at the
    clock use the record kept by the worker: nothing is replayed, and what is stored is the
    same record as a full read verifies."""
    ev, seats = _game(db)
    seq = live.snapshot(db, ev, 1, 1).seq
    replays.clear()
    for i, vertex in enumerate(("C3", "G7", "C4", "G6", "C5", "G5")):
        out = live.act(db, seats["BW"[i % 2]], ev, 1, 1, "move", seq, {"vertex": vertex})
        assert out.refused is None
        live.next_wakeup(db, ev, 1, 1)
        seq = out.snapshot.seq
    assert live.snapshot(db, ev, 1, 1).seq == seq
    assert replays == []
    stored = _stored(db)
    assert (len(stored), _moves(stored)) == (seq, ["BC3", "WG7", "BC4", "WG6", "BC5", "WG5"])


def test_a_move_by_another_process_is_read_again_and_the_stale_record_takes_no_move(
    db: Database, replays: list[int]
) -> None:
    """Black moves here (the record kept in this process); White's move is written by another
    process. Black's next move, sent after White's, lands after it: the record is read again
    from the database, not the one kept here (which ends before White's move, and would have
    dropped it); a move sent with the ``seq`` from before White's move is refused."""
    ev, seats = _game(db)
    seq = live.snapshot(db, ev, 1, 1).seq
    first = live.act(db, seats["B"], ev, 1, 1, "move", seq, {"vertex": "C3"})
    stale = first.snapshot.seq
    white = seats["W"]
    script = (
        "from weiqi.services import live\n"
        "from weiqi.services.actor import Actor\n"
        "from weiqi.store.database import Database\n"
        f"db = Database({db.url!r})\n"
        f"out = live.act(db, Actor({white.user_id}, {white.username!r}), {ev}, 1, 1, 'move',"
        f" {stale}, {{'vertex': 'G7'}})\n"
        "assert out.refused is None, out.refused\n"
        "print(out.snapshot.seq)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    after = int(done.stdout.strip())
    assert after > stale
    replays.clear()
    out = live.act(db, seats["B"], ev, 1, 1, "move", after, {"vertex": "C4"})
    assert out.refused is None
    assert replays, "the record written by the other process was read from the database"
    with pytest.raises(Conflict):  # a page from before White's move: out of date
        live.act(db, seats["B"], ev, 1, 1, "move", stale, {"vertex": "C5"})
    assert _moves(_stored(db)) == ["BC3", "WG7", "BC4"]
    assert out.snapshot.seq == len(_stored(db))


def test_a_record_rewritten_in_the_database_is_refused_though_one_is_kept(db: Database) -> None:
    """A row whose text was changed outside weiqi (head, ``seq`` and signature left as they
    were) is refused on the next move, as a full read refuses it: the record kept in memory
    does not hide it."""
    ev, seats = _game(db)
    out = live.act(db, seats["B"], ev, 1, 1, "move", None, {"vertex": "C3"})
    assert out.refused is None
    with db.transaction() as session:
        row = session.scalar(select(GameRecordRow))
        assert row is not None
        data = json.loads(row.record_json)
        data["entries"][-2]["at"] += 0.5  # the stone's time, its hash left as it was
        row.record_json = canonical(data)
    with pytest.raises(RecordRefused):
        live.act(db, seats["W"], ev, 1, 1, "move", None, {"vertex": "G7"})


def test_a_referee_write_between_two_moves_is_read_again(db: Database) -> None:
    """The referee's page enters a warning (a write through ``services.games``) between two
    moves of the live game: the next move is stored after it, the warning kept."""
    ev, seats = _game(db)
    out = live.act(db, seats["B"], ev, 1, 1, "move", None, {"vertex": "C3"})
    games.record_infraction(
        db, LOCAL, ev, 1, 1, "phone_ringing", "W", expected_seq=out.snapshot.seq
    )
    out = live.act(db, seats["W"], ev, 1, 1, "move", None, {"vertex": "G7"})
    assert out.refused is None
    stored = _stored(db)
    assert stored.state.warnings == (0, 1)
    assert _moves(stored) == ["BC3", "WG7"]


def test_two_moves_for_one_turn_one_lands_with_the_record_kept(db: Database) -> None:
    """Two moves of Black sent at once for the same turn (``seq``), both in this worker with
    the record kept: exactly one is stored, the other is refused as out of date; then the game
    goes on from the stored record, nothing lost or doubled."""
    ev, seats = _game(db)
    seq = live.snapshot(db, ev, 1, 1).seq
    played: list[str] = []
    for trial in range(min(TRIALS, 10)):
        black, white = f"C{trial + 1}", f"G{trial + 1}"
        outcomes = race(
            partial(live.act, db, seats["B"], ev, 1, 1, "move", seq, {"vertex": black}),
            partial(live.act, db, seats["B"], ev, 1, 1, "move", seq, {"vertex": "E9"}),
        )
        won = [o.value for o in outcomes if isinstance(o, Won)]
        lost = [o for o in outcomes if not isinstance(o, Won)]
        assert len(won) == 1 and len(lost) == 1, outcomes
        assert isinstance(lost[0], Conflict)
        move = won[0].snapshot.moves[-1].vertex  # type: ignore[attr-defined]
        played.append(f"B{move}")
        if move == "E9":
            break  # E9 is taken: the next trial's second move would be illegal
        out = live.act(db, seats["W"], ev, 1, 1, "move", won[0].snapshot.seq, {"vertex": white})  # type: ignore[attr-defined]
        assert out.refused is None
        played.append(f"W{white}")
        seq = out.snapshot.seq
    assert _moves(_stored(db)) == played


def test_a_failed_write_keeps_nothing(db: Database) -> None:
    """A record changed in memory whose transaction rolled back is not kept: the next read is
    the stored one (no event that was never stored)."""
    ev, seats = _game(db)
    live.act(db, seats["B"], ev, 1, 1, "move", None, {"vertex": "C3"})
    game_id = _game_id(db)
    with pytest.raises(RuntimeError), db.transaction() as session:
        game = games._game_row(session, ev, 1, 1)
        _row, record = games._load_record(session, game, keep=True)
        assert record is not None
        record.play(record.state.to_move, "G7", record.entries[-1].at)
        raise RuntimeError("the write failed")
    key = (db.engine.url.render_as_string(), "game_records", game_id)
    assert record_cache.CACHE.take(key) is None
    assert _moves(_stored(db)) == ["BC3"]
    out = live.act(db, seats["W"], ev, 1, 1, "move", None, {"vertex": "G7"})
    assert _moves(_stored(db)) == ["BC3", "WG7"] and out.refused is None


def _game_id(db: Database) -> int:
    with db.transaction() as session:
        row = session.scalar(select(GameRecordRow))
        assert row is not None
        return row.game_id
