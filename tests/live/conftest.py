"""Live play against the real server (``weiqi serve`` in a subprocess) and real browsers: the
fixtures of the server tests, and helpers to set up an online event through the services."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from tests.server.conftest import (  # noqa: F401  (fixtures shared with the server tests)
    LiveServer,
    browser,
    cheap_password_hashes,
    database,
    database_url,
    live_server,
    page,
    postgres_url,
    sqlite_template,
    sqlite_url,
)
from weiqi.clock.control import TimeControl
from weiqi.roles import Role
from weiqi.services import accounts, live
from weiqi.services import tournament as t
from weiqi.services.actor import Actor
from weiqi.services.event_admin import publish_round
from weiqi.services.events import create_event
from weiqi.store.database import Database
from weiqi.tournament.settings import EventSettings, System

LOCAL = Actor.local()
PASSWORD = "对局室的密码 2026"


@dataclass(frozen=True)
class OnlineEvent:
    """An online round robin of two on 9×9, round 1 paired and published; ``players`` maps
    ``B``/``W`` to the username that plays that colour on board 1 (each redeemed an
    invitation code), ``referee`` is the event's referee."""

    id: int
    players: dict[str, str]
    names: dict[str, str]
    referee: str

    def room(self, board: int = 1) -> str:
        return f"/events/{self.id}/rounds/1/boards/{board}"


def online_event(
    server: LiveServer,
    tag: str,
    time_control: str = "10m+3x30s",
    ranks: tuple[str, str] = ("5d", "4d"),
    **options: Any,
) -> OnlineEvent:
    """``ranks``: of 李明 and 王强; ``options``: more settings of the event
    (``game_start="round_start"``)."""
    db = Database(server.db_url)
    try:
        settings = EventSettings(
            system=System.ROUND_ROBIN,
            board_size=9,
            play="online",  # type: ignore[arg-type]
            time_control=TimeControl.parse(time_control),
            **options,
        )
        ev = create_event(db, LOCAL, f"{tag}网络赛", settings).id
        t.import_players(db, LOCAL, ev, f"name,rank\n李明,{ranks[0]}\n王强,{ranks[1]}\n")
        t.pair_round(db, LOCAL, ev)
        publish_round(db, LOCAL, ev, 1)
        players = {}
        names = {}
        for name, user in (("李明", f"li-{tag}"), ("王强", f"wang-{tag}")):
            account = accounts.create_user(db, LOCAL, user, PASSWORD)
            code = live.create_invite(db, LOCAL, ev, live.player_id(db, ev, name)).code
            live.redeem_invite(db, account.actor(), code)
            color = live.seat(db, account.actor(), ev, 1, 1)
            assert color is not None
            players[color] = user
            names[color] = name
        referee = accounts.create_user(db, LOCAL, f"ref-{tag}", PASSWORD)
        accounts.grant_role(db, LOCAL, referee.id, ev, Role.REFEREE)
        return OnlineEvent(ev, players, names, f"ref-{tag}")
    finally:
        db.dispose()


def seated_event(
    db: Database, time_control: str, name: str = "网络赛", **settings: Any
) -> tuple[int, dict[str, Actor]]:
    """A round robin of two on 9×9 (``settings``: more of its settings, e.g. ``play="online"``)
    with ``time_control``, round 1 paired, each entrant linked to a new user (named after the
    event's id): the event's id and the players' actors by the colour they play."""
    made = EventSettings(
        System.ROUND_ROBIN, board_size=9, time_control=TimeControl.parse(time_control), **settings
    )
    ev = create_event(db, LOCAL, name, made).id
    t.import_players(db, LOCAL, ev, "name\n李明\n王强\n")
    t.pair_round(db, LOCAL, ev)
    seats = {}
    for player, user in (("李明", f"li-{ev}"), ("王强", f"wang-{ev}")):
        actor = accounts.create_user(db, LOCAL, user, "a long pass phrase 7").actor()
        live.redeem_invite(
            db, actor, live.create_invite(db, LOCAL, ev, live.player_id(db, ev, player)).code
        )
        color = live.seat(db, actor, ev, 1, 1)
        assert color is not None
        seats[color] = actor
    return ev, seats


def session_cookie(server: LiveServer, username: str | None) -> str:
    """The ``Cookie`` header of a logged-in session of ``username`` (``None``: anonymous)."""
    with httpx.Client(base_url=server.url) as client:
        token = client.get("/api/session").json()["csrf_token"]
        if username is not None:
            answer = client.post(
                "/api/session",
                json={"username": username, "password": PASSWORD},
                headers={"X-CSRF-Token": token},
            )
            assert answer.status_code == 200, answer.text
        return "; ".join(f"{k}={v}" for k, v in client.cookies.items())


class Reader:
    """One WebSocket reader of a room: what it received, in order."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.received: list[dict[str, Any]] = []

    def next(self, timeout: float = 10) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        self.received.append(message)
        return message

    def until(self, test: Any, timeout: float = 10) -> dict[str, Any]:
        """The first message (from now) for which ``test(message)`` holds, within ``timeout``
        seconds in all (messages that keep coming but never match must not keep it waiting)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no matching message in {timeout} s: {self.received[-5:]}")
            message = self.next(left)
            if test(message):
                return message

    def act(self, action: str, seq: int, **data: Any) -> None:
        self.ws.send(json.dumps({"type": "act", "action": action, "seq": seq, **data}))

    def events(self) -> list[dict[str, Any]]:
        """Every record event this reader was told of: the first state's, then each update's."""
        out: list[dict[str, Any]] = []
        for message in self.received:
            if message["type"] in ("state", "update"):
                out.extend(message["snapshot"]["events"])
        return out


@contextmanager
def reader(
    server: LiveServer, path: str, username: str | None, language: str = "zh-CN"
) -> Iterator[Reader]:
    url = server.url.replace("http://", "ws://") + path + "/live"
    headers = {"Cookie": session_cookie(server, username), "Accept-Language": language}
    with connect(url, additional_headers=headers, open_timeout=20) as ws:
        yield Reader(ws)
