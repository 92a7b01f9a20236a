"""R-TIME-2 (Art. 22.5) in live play: where the event's time control allows it (``pass``), a
player whose last period runs out may ask for a forfeited turn (弃权一次) instead of the loss:
the server (the game's referee) records it, the opponent moves and the same byo-yomi goes on.
Asked for nothing within the server's window, or declined, the loss on time stands — ruled by
the server with nobody sending anything. Only the flagged player may ask."""

from __future__ import annotations

import time
from typing import Any

from tests.live.conftest import online_event, reader
from tests.live.test_live_socket import _started
from tests.server.conftest import LiveServer
from weiqi.services.live import FORFEIT_ASK_SECONDS


def _asking(m: dict[str, Any]) -> bool:
    return m["type"] in ("state", "update") and m["snapshot"]["asking"] is not None


def test_r_time_2_a_forfeited_turn_on_request_then_the_loss_when_declined(
    live_server: LiveServer,
) -> None:
    ev = online_event(live_server, "forfeit", time_control="1x3s pass")
    room = ev.room()
    with (
        reader(live_server, room, ev.players["B"]) as black,
        reader(live_server, room, ev.players["W"]) as white,
    ):
        black.until(_started)
        white.until(_started)
        flagged = black.until(_asking, 10)["snapshot"]  # nobody moved: Black's 3 s ran out
        assert flagged["asking"] == "B" and flagged["result"] is None
        assert flagged["asking_until"] > time.time()
        white.act("forfeit_turn", flagged["seq"])  # not White's to ask
        refused = white.until(lambda m: m["type"] == "refused")
        assert refused["message"] == "只有最后一次读秒已用完的棋手才能申请", refused
        black.act("forfeit_turn", flagged["seq"])
        after = black.until(lambda m: m["type"] == "update" and m["snapshot"]["asking"] is None)
        snap = after["snapshot"]
        assert snap["to_move"] == "W" and snap["clock"]["running"] == "W"
        assert snap["clock"]["black"]["periods"] == 1  # the same byo-yomi goes on
        assert [n["kind"] for n in snap["notices"]][-1:] == ["forfeit_turn"]
        white.act("move", snap["seq"], vertex="E5")
        again = black.until(_asking, 10)["snapshot"]  # Black's next 3 s run out too
        black.act("accept_time_loss", again["seq"])
        end = black.until(lambda m: m["type"] == "update" and m["snapshot"]["result"])
        assert end["snapshot"]["result"] == "W+T"
        assert end["result_text"] == "白超时胜"


def test_r_time_2_the_server_rules_the_loss_when_nobody_asks(live_server: LiveServer) -> None:
    ev = online_event(live_server, "noask", time_control="1x2s pass")
    room = ev.room()
    with (
        reader(live_server, room, ev.players["B"]) as black,
        reader(live_server, room, ev.players["W"]),
    ):
        black.until(_started)
        flagged = black.until(_asking, 10)["snapshot"]
        end = black.until(
            lambda m: m["type"] == "update" and m["snapshot"]["result"], FORFEIT_ASK_SECONDS + 10
        )
        late = time.time() - flagged["asking_until"]
        assert end["snapshot"]["result"] == "W+T"
        assert -0.05 < late < 1.5, late  # at the end of the window, nobody sending anything
        assert end["snapshot"]["notices"][-1]["kind"] == "ruling"
