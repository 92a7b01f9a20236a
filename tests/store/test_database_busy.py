"""A write that waits past SQLite's busy timeout (another writer holds the file) is a
``Conflict`` with why, in the user's language, and nothing of it is stored — not a server
error that closes a player's game-room socket (found by ``bench/live.py`` at 100 games)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from weiqi.errors import Conflict
from weiqi.i18n import render
from weiqi.store.database import BUSY, Database
from weiqi.store.locks import lock_event
from weiqi.store.models import User


def test_a_write_locked_out_past_the_timeout_is_a_conflict(tmp_path: Path) -> None:
    path = tmp_path / "busy.sqlite3"
    Database(f"sqlite:///{path}").upgrade()
    db = Database(f"sqlite:///{path}?timeout=0.2")
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another writer has the file
    try:
        with pytest.raises(Conflict) as refused, db.transaction() as session:
            lock_event(session, 1)
            session.add(User(username="li", display_name="Li", password_hash="-"))
        assert refused.value.msg == BUSY
        assert "数据库正忙" in render(refused.value.msg, "zh_CN")
    finally:
        other.execute("ROLLBACK")
        other.close()
    with db.transaction() as session:  # nothing was stored, and the file works again
        assert session.query(User).filter_by(username="li").count() == 0
        session.add(User(username="li", display_name="Li", password_hash="-"))
    db.dispose()
