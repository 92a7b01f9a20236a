"""What a live move reads of its game — the event, the round, the players and their labels, the
settings, the mover's seat — kept by the worker between moves (``services.game_cache``, issue
#11), and read again as soon as anything it comes from is written: the event's *shape*
(``store.versions``) changes with every write but a game's progress. Real databases (SQLite and
PostgreSQL in turn), no server."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import delete, event, select

from tests.live.test_live_clock import _game as live_game
from tests.live.test_live_record_cache import _game
from weiqi.errors import PermissionDenied
from weiqi.services import event_admin, game_cache, live
from weiqi.services.actor import Actor
from weiqi.store import versions
from weiqi.store.database import Database
from weiqi.store.live import PlayerAccountRow
from weiqi.store.tournament import GameRow, PlayerRow

LOCAL = Actor.local()


@pytest.fixture
def db(database: Database) -> Database:
    return database


def _versions(db: Database, ev: int) -> tuple[versions.Version | None, versions.Shapes]:
    with db.transaction() as session:
        return versions.read(session, ev), versions.shapes(session, ev)


def _player_id(db: Database, ev: int, name: str) -> int:
    with db.transaction() as session:
        found = session.scalar(
            select(PlayerRow.id).where(PlayerRow.event_id == ev, PlayerRow.name == name)
        )
        assert found is not None
        return found


def test_a_live_move_changes_the_events_version_and_not_its_shape(db: Database) -> None:
    """The move writes the game's record and its board's row only: the pages derived from the
    event are out of date (the version), what the move read of the game is not (the shape);
    renaming a player changes both."""
    ev, seats = _game(db)
    version, shape = _versions(db, ev)
    assert live.act(db, seats["B"], ev, 1, 1, "move", None, {"vertex": "E5"}).refused is None
    moved_version, moved_shape = _versions(db, ev)
    assert moved_version != version and moved_shape == shape
    event_admin.edit_player(db, LOCAL, ev, _player_id(db, ev, "李明"), "李明明")
    renamed_version, renamed_shape = _versions(db, ev)
    assert renamed_version != moved_version and renamed_shape.event != moved_shape.event


def test_a_player_renamed_between_two_moves_is_named_anew_by_the_second(db: Database) -> None:
    ev, seats = _game(db)
    first = live.act(db, seats["B"], ev, 1, 1, "move", None, {"vertex": "E5"}).snapshot
    black = first.black
    event_admin.edit_player(db, LOCAL, ev, _player_id(db, ev, black), "新名字")
    second = live.act(db, seats["W"], ev, 1, 1, "move", None, {"vertex": "C3"}).snapshot
    assert (first.black, second.black) == (black, "新名字")


def test_an_account_link_removed_between_two_moves_takes_the_seat_away(db: Database) -> None:
    """The kept seat is the mover's only while no account link of the event was written."""
    ev, seats = _game(db)
    assert live.act(db, seats["B"], ev, 1, 1, "move", None, {"vertex": "E5"}).refused is None
    assert live.act(db, seats["W"], ev, 1, 1, "move", None, {"vertex": "C3"}).refused is None
    with db.transaction() as session:
        session.execute(
            delete(PlayerAccountRow).where(PlayerAccountRow.user_id == seats["B"].user_id)
        )
    with pytest.raises(PermissionDenied):
        live.act(db, seats["B"], ev, 1, 1, "move", None, {"vertex": "D4"})


def test_colors_swapped_on_the_boards_row_are_read_again(db: Database) -> None:
    """The board's own row is read by every move: its players changed (the pairing corrected
    by the organisers) and the kept reads are not used for it."""
    ev, seats = _game(db)
    first = live.act(db, seats["B"], ev, 1, 1, "move", None, {"vertex": "E5"}).snapshot
    with db.transaction() as session:  # a progress-only write: the shapes stay
        row = session.scalar(select(GameRow))
        assert row is not None
        row.black_id, row.white_id = row.white_id, row.black_id
    # White's user now plays Black's seat: the turn is White's, which is Black's user's now
    second = live.act(db, seats["B"], ev, 1, 1, "move", None, {"vertex": "C3"})
    assert second.refused is None
    assert (second.snapshot.black, second.snapshot.white) == (first.white, first.black)


def _statements(db: Database) -> list[str]:
    seen: list[str] = []

    def note(*args: Any) -> None:
        seen.append(str(args[2]))

    event.listen(db.engine, "before_cursor_execute", note)
    return seen


def test_a_move_with_its_game_kept_reads_only_what_it_writes(db: Database) -> None:
    """With the reads kept, a move reads the event's lock, its board's row, the shapes and its
    record, and nothing of the players, the settings or the accounts; with the cache off it
    reads them all again."""
    ev, seats = _game(db)
    live.act(db, seats["B"], ev, 1, 1, "move", None, {"vertex": "E5"})
    seen = _statements(db)
    live.act(db, seats["W"], ev, 1, 1, "move", None, {"vertex": "C3"})
    kept = [s for s in seen if "event_players" in s or "event_settings" in s]
    assert kept == [], kept
    game_cache.CACHE.enabled = False
    game_cache.CACHE.clear()
    try:
        seen.clear()
        live.act(db, seats["B"], ev, 1, 1, "move", None, {"vertex": "D4"})
        assert any("event_players" in s for s in seen) and any("event_settings" in s for s in seen)
    finally:
        game_cache.CACHE.enabled = True


def test_a_moves_push_lists_only_the_moves_since_the_reader_last_saw(db: Database) -> None:
    """A push stays as small at move 300 as at move 3: the update of a move lists the moves
    from its ``since`` on (the player's room keeps the earlier ones); a first load lists all."""
    ev, seats = _game(db)
    for color, vertex in (("B", "E5"), ("W", "C3")):
        live.act(db, seats[color], ev, 1, 1, "move", None, {"vertex": vertex})
    third = live.act(db, seats["B"], ev, 1, 1, "move", None, {"vertex": "G7"}).snapshot
    assert [m.vertex for m in third.moves] == ["G7"] and third.last_move == "G7"
    assert third.since == third.events[0].seq > 0
    full = live.snapshot(db, ev, 1, 1)
    assert [m.vertex for m in full.moves] == ["E5", "C3", "G7"] and full.since == 0
    passed = live.act(db, seats["W"], ev, 1, 1, "pass", None).snapshot
    assert [m.kind for m in passed.moves] == ["pass"] and passed.last_move is None


def test_a_readers_coming_reads_the_board_its_shapes_and_its_record_only(db: Database) -> None:
    """A round's start is every player's and spectator's socket coming in at once: with the
    board's reads kept, a spectator's coming (``live.enter_room``, which also says when the
    server looks next) reads the round's visibility, the board's row, the shapes and the
    record — not the settings, the event or its team settings, nor the round's pairing
    explanation; the start opens and starts the record in one write."""
    ev, _seats = live_game(db, "60m")
    event_admin.publish_round(db, LOCAL, ev, 1)
    spectator = Actor(None, "")
    live.enter_room(db, spectator, ev, 1, 1)
    seen = _statements(db)
    entry = live.enter_room(db, spectator, ev, 1, 1)
    assert entry.wakeup is None and entry.snapshot.phase == "not_started"
    reads = [s for s in seen if s.lstrip().startswith("SELECT")]
    tables = [(w := s.split())[w.index("FROM") + 1] for s in reads]
    assert tables == ["event_rounds", "event_games", "event_versions", "game_records"], seen
    # nor the round's pairing explanation: a 10,000-player round's is over a megabyte
    assert not any("explanation_json" in s for s in seen), seen
    seen.clear()
    assert live.start_game(db, ev, 1, 1).started
    writes = [s.split("(")[0].strip() for s in seen if not s.lstrip().startswith("SELECT")]
    assert writes.count("INSERT INTO game_records") == 1, writes
    assert not any(w.startswith("UPDATE game_records") for w in writes), writes
    assert not any("event_settings" in s or "team_events" in s for s in seen), seen
