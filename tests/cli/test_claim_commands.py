"""Issue #11 from a script: the organisers list the entry claims (``player claims --json``),
approve one and decline another with a reason (``player approve|decline``); a reason too long
is named in one line (exit 2)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.cli.contracts import weiqi
from weiqi.services import accounts, entry_claims, live
from weiqi.services.actor import Actor
from weiqi.services.server_clock import ManualClock
from weiqi.store.database import Database

LOCAL = Actor.local()


def test_the_organisers_list_approve_and_decline_claims_from_a_script(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "e.sqlite3")
    assert weiqi(capsys, "event", "create", "--db", db, "--name", "网络赛", "--system",
                 "swiss", "--rounds", "2").code == 0  # fmt: skip
    players = tmp_path / "p.csv"
    players.write_text("name,rank\n甲,3d\n乙,2d\n", "utf-8")
    assert weiqi(capsys, "player", "import", "--db", db, str(players)).code == 0
    database = Database(f"sqlite:///{db}")
    clock = ManualClock(datetime(2026, 5, 1, 8, 0, tzinfo=UTC))
    made = (accounts.create_user(database, LOCAL, n, "认领的密码 2026") for n in ("li", "wang"))
    a, b = (user.actor() for user in made)
    jia = live.player_id(database, 1, "甲")
    first = entry_claims.claim_entry(database, a, 1, jia, clock, note="EGF PIN 1")
    second = entry_claims.claim_entry(database, b, 1, live.player_id(database, 1, "乙"), clock)
    listed = json.loads(weiqi(capsys, "player", "claims", "--db", db, "--json").out)
    assert [(c["id"], c["player"], c["username"], c["note"], c["state"]) for c in listed] == [
        (first.id, "甲", "li", "EGF PIN 1", "pending"), (second.id, "乙", "wang", "", "pending")
    ]  # fmt: skip
    done = weiqi(capsys, "player", "approve", "--db", db, str(first.id))
    assert done.code == 0 and "li now plays as 甲" in done.out
    long = weiqi(capsys, "player", "decline", "--db", db, str(second.id), "--reason", "x" * 201)
    assert long.code == 2 and "--reason" in long.err and "200" in long.err
    no = weiqi(capsys, "player", "decline", "--db", db, str(second.id), "--reason", "不是本人")
    assert no.code == 0, no.err
    again = weiqi(capsys, "player", "approve", "--db", db, str(second.id))
    assert again.code != 0 and "no longer pending" in again.err
    text = weiqi(capsys, "player", "claims", "--db", db).out
    assert f"{second.id}: wang (wang) → 乙: declined: 不是本人" in text
    assert [e.username for e in live.entrant_accounts(database, LOCAL, 1)] == ["li", None]
