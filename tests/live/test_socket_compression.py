"""``weiqi serve`` does not compress its live sockets unless ``--ws-compression`` asks: a push
is about 1.3 KB of JSON, and compressing it for each socket cost a tenth of a worker's
CPU and 47 KB a socket at 5,000 spectators (``bench/live.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from websockets.sync.client import connect

from tests.live.conftest import online_event
from tests.live.test_workers import serve


@pytest.mark.parametrize("option", [None, "--ws-compression"])
def test_live_sockets_are_compressed_only_when_asked(tmp_path: Path, option: str | None) -> None:
    db = f"sqlite:///{tmp_path / 'w.sqlite3'}"
    with serve(tmp_path, db, *([option] if option else []), redis_url=None) as server:
        room = online_event(server, "zip").room()
        url = server.url.replace("http://", "ws://") + room + "/live"
        # a browser offers permessage-deflate: the server takes it only when asked
        with connect(url, compression="deflate", open_timeout=20) as ws:
            assert ws.recv(timeout=20)  # the room's first state: the socket works either way
            taken = ws.response.headers.get("Sec-WebSocket-Extensions") if ws.response else None
    if option:
        assert taken is not None and "permessage-deflate" in taken
    else:
        assert taken is None
