"""How ``weiqi bot`` ends a game (issue #11; R-END-2, R-END-3, R-END-4): GNU Go plays Black as
a bot on the real server against White played by this test over the room's WebSocket. White
passes, then proposes the end; the bot accepts. The bot marks what ``final_status_list dead``
says (none of its stones); White claims Black's stones dead; the bot disputes, and play resumes
with White, the claimant, to move. At the next count the bot marks its view again, White claims
the stones again: the bot, having disputed once, marks its own view once more instead, White
accepts it, and both confirm the count — the bot's last word before it stops."""

from __future__ import annotations

import subprocess
from typing import Any

import pytest

from tests.live.bots import GNUGO_1, start_bot
from tests.live.conftest import PASSWORD, reader
from tests.server.conftest import LiveServer
from weiqi.services import accounts, live
from weiqi.services import tournament as t
from weiqi.services.actor import Actor
from weiqi.services.event_admin import publish_round
from weiqi.services.events import create_event
from weiqi.store.database import Database
from weiqi.tournament.settings import EventSettings, System

pytestmark = pytest.mark.gnugo
LOCAL = Actor.local()


def _event(server: LiveServer) -> tuple[int, str, str]:
    """A two-player event on 9×9, round 1 published: the bot's code for Black's entrant, and
    the username of White's player."""
    db = Database(server.db_url)
    try:
        settings = EventSettings(
            System.ROUND_ROBIN, board_size=9, play="online", time_control="10m+3x30s"
        )  # type: ignore[arg-type]
        ev = create_event(db, LOCAL, "结束对局", settings).id
        t.import_players(db, LOCAL, ev, "name\n甲\n乙\n")
        t.pair_round(db, LOCAL, ev)
        publish_round(db, LOCAL, ev, 1)
        (board,) = t.show_round(db, ev, 1).pairings
        black, white = board.black, board.white
        code = live.create_invite(db, LOCAL, ev, live.player_id(db, ev, black)).code
        person = accounts.create_user(db, LOCAL, "ending-white", PASSWORD)
        invite = live.create_invite(db, LOCAL, ev, live.player_id(db, ev, white)).code
        live.redeem_invite(db, person.actor(), invite)
        return ev, code, "ending-white"
    finally:
        db.dispose()


def _snap(m: dict[str, Any]) -> dict[str, Any] | None:
    return m["snapshot"] if m["type"] in ("state", "update") else None


def test_r_end_3_the_bot_accepts_the_end_disputes_once_then_marks_and_confirms(
    live_server: LiveServer, tmp_path: Any
) -> None:
    ev, code, white_user = _event(live_server)
    room = f"/events/{ev}/rounds/1/boards/1"
    log = (tmp_path / "bot.log").open("w")
    bot: subprocess.Popen[str] | None = None
    seen: list[str] = []  # what White saw happen, in order
    try:
        with reader(live_server, room, white_user) as white:
            bot = start_bot(live_server.url, code, GNUGO_1, log)
            snap: dict[str, Any] = {}
            passes = 0
            claims = 0
            acted = -1

            def send(action: str, **data: Any) -> None:
                nonlocal acted
                white.act(action, snap["seq"], **data)
                acted = snap["seq"]
                seen.append(action)

            while sorted(snap.get("confirmations", [])) != ["B", "W"]:
                got = _snap(white.next(timeout=60))
                if got is None or got["seq"] == acted or not got["started"]:
                    snap = got or snap
                    continue
                snap = got
                black_stones = sorted(v for v, c in snap["stones"].items() if c == "B")
                if snap["phase"] == "playing" and snap["to_move"] == "W":
                    passes += 1
                    send("pass" if passes <= 3 else "propose_end")
                elif snap["phase"] == "counting" and snap["dead_marked_by"] == "B":
                    if claims < 2:  # the bot marked first (its view): White claims
                        claims += 1
                        send("mark_dead", stones=black_stones)  # claims them dead
                    else:
                        send("agree_dead")
                elif snap["phase"] == "finished" and "W" not in snap["confirmations"]:
                    send("confirm")
            assert bot is not None
            out, _ = bot.communicate(timeout=60)
    finally:
        if bot is not None and bot.poll() is None:
            bot.kill()
            bot.wait()
        log.close()
    assert bot.returncode == 0 and out.strip() == "1 game(s) played", tmp_path / "bot.log"
    assert seen.count("propose_end") >= 1
    kinds = [e["kind"] for e in white.events()]
    assert "accept_end" in kinds, kinds  # the bot accepted White's proposal (R-END-2)
    assert kinds.count("dispute") == 1, kinds  # once, then it marked its own view (R-END-3)
    disputed = kinds.index("dispute")
    after = [k for k in kinds[disputed + 1 :] if k in ("mark_dead", "agree_dead")]
    assert after == ["mark_dead", "mark_dead", "mark_dead", "agree_dead"], kinds  # B, W, B
    assert kinds.count("agree_dead") == 1 and kinds.count("confirm") == 2, kinds
    assert snap["result"].startswith("B+"), snap["result"]  # Black's stones counted alive
    assert sorted(snap["confirmations"]) == ["B", "W"]
