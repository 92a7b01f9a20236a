"""A GTP engine as an entrant of an online event (issue #11; ``weiqi bot``).

:class:`Bot` spends the entrant's invitation code once (``POST /api/invites/session``: the
server makes a code-only account for the entrant and logs it in) and keeps the session cookie;
then, round after round, it asks for its games (``GET /api/live/games``), opens each game
room's WebSocket (``…/live``, the protocol of ``server/routes/live.py``) and plays:

- on the room's first message (the whole game) it sets up the engine — ``boardsize``,
  ``clear_board``, ``komi``, ``fixed_handicap`` in a handicap game, the time settings of the
  event's control (``kgs-time_settings`` when the engine knows it, else plain
  ``time_settings``) — and replays the moves so far;
- on its turn it sends ``time_left`` from the live clock and ``genmove``, and plays, passes or
  resigns as the engine says; a move the server refuses as illegal (a superko the engine does
  not know) becomes a pass. A move or pass says how long the bot thought (``think``, seconds:
  from the arrival of the push that gave it the turn, the engine's ``genmove`` included), so
  that an online event's lag allowance forgives the network's share of the server's measure;
  a turn that began before the connection says nothing;
- in the counting phase it marks the stones ``final_status_list dead`` calls dead, agrees with
  the opponent's marking when it is the same, disputes it once when it holds its own stones the
  engine thinks alive (play resumes, R-END-3), otherwise marks once more its own view and then
  agrees; it answers a proposal to end by accepting it;
- once the game has a result it confirms it (R-END-4) and goes to its next game.

The server is the referee and the clock: the bot keeps no state of its own the server does not
send again — after a network error it reconnects, and the room's first message gives the whole
game, which the engine is brought back in step with (rebuilt when it diverged). It stops when
the events it plays in have no more rounds for it, after ``rounds`` games, or after one game
with ``once``.
"""

from __future__ import annotations

import http.cookies
import json
import math
import os
import shlex
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from weiqi.clock.control import TimeControl, TimeSystem
from weiqi.clock.notation import gtp_time_settings, kgs_time_settings
from weiqi.engines.gtp import EngineError, SimpleEngine
from weiqi.errors import WeiqiError
from weiqi.i18n import environment_locale
from weiqi.messages import Msg
from weiqi.rules.color import Color

#: Seconds between two looks for the next round while none is published for the bot.
POLL = 1.0
#: Seconds to wait before reconnecting after a network error (doubled up to :data:`MAX_RETRY`).
RETRY = 0.5
MAX_RETRY = 8.0


class BotError(WeiqiError):
    """The server refused the bot (its code, its session, its seat), or its engine failed."""


def live_code(token: str) -> str:
    """The code as the server reads it (any case, spaces or dashes), empty for none.

    >>> live_code(" abcd-efgh jkLM "), live_code("")
    ('ABCDEFGHJKLM', '')
    """
    return "".join(ch for ch in token.upper() if ch.isalnum())


def engine_command(text: str) -> list[str]:
    """The engine's command line as a shell would split it.

    >>> engine_command("gnugo --mode gtp --chinese-rules --level 1")
    ['gnugo', '--mode', 'gtp', '--chinese-rules', '--level', '1']
    """
    words = shlex.split(text)
    if not words:
        raise BotError(Msg("no engine command given"))
    return words


def ws_url(server: str, path: str) -> str:
    """The WebSocket address of a room's path on ``server`` (a team board's path may carry its
    sitting as a query).

    >>> ws_url("https://go.example.org/", "/events/1/rounds/2/boards/3")
    'wss://go.example.org/events/1/rounds/2/boards/3/live'
    >>> ws_url("http://h", "/events/1/rounds/2/matches/1/boards/3?sitting=1")
    'ws://h/events/1/rounds/2/matches/1/boards/3/live?sitting=1'
    """
    base = server.rstrip("/")
    if base.startswith("https://"):
        base = "wss://" + base[len("https://") :]
    elif base.startswith("http://"):
        base = "ws://" + base[len("http://") :]
    where, mark, query = path.partition("?")
    return f"{base}{where}/live{mark}{query}"


def merged(held: dict[str, Any] | None, update: dict[str, Any]) -> dict[str, Any]:
    """The game after the room's ``update``, which lists only the moves from its ``since`` on:
    the earlier ones are those of the snapshot ``held``.

    >>> held = {"seq": 4, "moves": [{"seq": 1, "vertex": "E5"}, {"seq": 3, "vertex": "C3"}]}
    >>> new = {"seq": 6, "since": 4, "moves": [{"seq": 4, "vertex": "G7"}]}
    >>> [m["vertex"] for m in merged(held, new)["moves"]]
    ['E5', 'C3', 'G7']
    """
    since = update.get("since") or 0
    if held is None or since <= 0:
        return update
    earlier = [m for m in held["moves"] if m["seq"] < since]
    return {**update, "moves": earlier + update["moves"]}


def _moves(snap: dict[str, Any]) -> list[tuple[str, str]]:
    """The moves of a snapshot as the engine plays them: (colour, vertex or ``pass``)."""
    out = []
    for m in snap["moves"]:
        if m["kind"] == "move" and m["vertex"]:
            out.append((m["color"], m["vertex"]))
        elif m["kind"] in ("move", "pass", "propose_end"):
            out.append((m["color"], "pass"))
    return out


def time_left(side: dict[str, Any], elapsed: float, kgs: bool) -> tuple[int, int]:
    """``time_left`` arguments (seconds, stones or periods) of a clock side of the room,
    ``elapsed`` seconds after the snapshot: ``stones`` 0 in main time; in byo-yomi the periods
    left (``kgs-time_settings``) or 1 (byo-yomi sent as Canadian with one stone a period).

    >>> time_left({"main": 100.0, "in_overtime": False, "period": 20.0, "periods": 3}, 2.5, True)
    (97, 0)
    >>> time_left({"main": 0.0, "in_overtime": True, "period": 20.0, "periods": 3}, 5, False)
    (15, 1)
    """
    if side["in_overtime"]:
        left = max(0, math.floor((side["period"] or 0) - elapsed))
        stones = side["periods"] if side["periods"] is not None else side["moves"]
        return left, int(stones or 0) if kgs or side["periods"] is None else 1
    return max(0, math.floor(side["main"] - elapsed)), 0


@dataclass
class _Game:
    """What the bot knows of the game it plays now (beyond what the server sends again)."""

    color: str
    komi: float
    handicap: int = 0
    """Black's handicap stones: placed as GTP's ``fixed_handicap`` places them (the rules'
    fixed placement), or where Black placed them freely (``place_free_handicap`` for the
    bot's own, ``set_free_handicap`` for the opponent's); the moves start with White's."""
    engine_moves: list[tuple[str, str]] = field(default_factory=list)
    engine_handicap: list[str] = field(default_factory=list)
    """The handicap stones placed freely that the engine was given (``set_free_handicap``)."""
    size: int | None = None
    acted_at: int | None = None
    """The ``seq`` the bot last acted on: nothing more until the game changes."""
    refused: dict[int, int] = field(default_factory=dict)
    """How often the rules refused what it sent at a ``seq`` (an engine's move illegal under
    superko, a marking): it then passes, or takes the marking on the board."""
    disputes: int = 0
    remarks: int = 0
    timed: bool = False
    engine: SimpleEngine | None = None
    """The engine process the moves were given to (another one starts from an empty board)."""
    told: dict[int, dict[str, Any]] = field(default_factory=dict)
    sent: list[tuple[int, str, str | None]] = field(default_factory=list)
    turn: tuple[int, str] | None = None
    """The bot's turn being timed: the move number and colour of the snapshot that gave it."""
    turn_since: float | None = None
    """When the push that gave the bot that turn arrived (``time.monotonic()``); ``None``: the
    turn began before the connection, its think time unknown (none is sent)."""


#: The actions that end the bot's turn on the clock: they carry its think time.
PRESSES = frozenset({"move", "pass", "propose_end", "place_handicap"})


def note_turn(state: _Game, snap: dict[str, Any], at: float, fresh: bool) -> None:
    """After a push: time the bot's turn from ``at`` when a ``fresh`` push (an update) gave it;
    the room's first message (``fresh`` false) may come during a turn already begun.

    >>> game = _Game("B", 7.5)
    >>> snap = {"started": True, "result": None, "phase": "playing", "to_move": "B",
    ...         "move_number": 4, "clock": {}}
    >>> note_turn(game, snap, 10.0, fresh=True); game.turn_since
    10.0
    >>> note_turn(game, snap, 12.0, fresh=True); game.turn_since  # the same turn goes on
    10.0
    >>> note_turn(game, {**snap, "to_move": "W"}, 13.0, fresh=True); game.turn_since is None
    True
    >>> note_turn(game, snap, 20.0, fresh=False); game.turn_since is None  # begun unseen
    True
    """
    mine = (
        snap["started"]
        and snap["result"] is None
        and snap["phase"] == "playing"
        and snap["to_move"] == state.color
        and snap.get("clock") is not None
    )
    if not mine:
        state.turn = state.turn_since = None
        return
    key = (int(snap["move_number"]), str(snap["to_move"]))
    if key != state.turn:
        state.turn, state.turn_since = key, at if fresh else None


class Bot:
    """One entrant played by one GTP engine on one server, or on any of several workers of one
    site (fail-over: after a network error it goes on with the next, issue #12).

    >>> Bot("http://127.0.0.1:8000", "ABCD-EFGH-JKLM", ["gnugo", "--mode", "gtp"]).server
    'http://127.0.0.1:8000'
    >>> bot = Bot(["http://a:8000/", "http://b:8000"], "", ["gnugo"])
    >>> bot.server, bot.fail_over(), bot.server, bot.fail_over(), bot.server
    ('http://a:8000', False, 'http://b:8000', True, 'http://a:8000')
    """

    def __init__(
        self,
        server: str | Sequence[str],
        token: str,
        engine: Sequence[str],
        *,
        log: Callable[[str], None] | None = None,
        engine_timeout: float = 60.0,
        session_file: Path | None = None,
    ) -> None:
        given = [server] if isinstance(server, str) else list(server)
        if not given:  # the command line requires one
            raise ValueError("no server given")
        #: The workers of the site, any of which serves the bot (one database behind them all:
        #: the session opens the entrant's games on each).
        self.servers = [s.rstrip("/") for s in given]
        self._at = 0
        self.token = token
        self.command = list(engine)
        self.log = log or (lambda line: print(line, file=sys.stderr, flush=True))
        self.engine_timeout = engine_timeout
        self.session_file = session_file
        #: The server's refusals are logged in the command line's language (``WEIQI_LANG``…).
        self.language = "zh-CN" if environment_locale(os.environ) == "zh_CN" else "en"
        self._cookies: dict[str, str] = {}
        self._opener = urllib.request.build_opener()
        self.name = ""
        self._engine: SimpleEngine | None = None
        self._kgs = False
        #: The games played to their end so far: (event, round, the room's path).
        self.played: set[tuple[int, int, str]] = set()
        self._time_left = False
        self._time_settings = False
        #: Every event of each game (by its room's path) the server told the bot of, by the
        #: record's ``seq``: what it acknowledged, to be found in the stored record.
        self.told: dict[str, dict[int, dict[str, Any]]] = {}
        #: Each action the bot sent, by room: ``(seq, action, vertex)``.
        self.sent: dict[str, list[tuple[int, str, str | None]]] = {}
        #: The bot's colour in each game.
        self.seats: dict[str, str] = {}

    @property
    def server(self) -> str:
        """The worker the bot talks to now."""
        return self.servers[self._at]

    def fail_over(self) -> bool:
        """Go on with the next worker after a network error; ``True`` once every worker was
        tried in turn (time to wait before the next round of tries)."""
        self._at = (self._at + 1) % len(self.servers)
        return self._at == 0

    # -- HTTP ------------------------------------------------------------------------------

    def _http(
        self, method: str, path: str, body: dict[str, Any] | None = None, csrf: str = ""
    ) -> tuple[int, Any]:
        """(status, JSON answer) of a request, retried after a network error (the server
        restarting, say); the session cookie goes with it and is kept."""
        data = json.dumps(body).encode() if body is not None else None
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json",
            "Accept-Language": self.language,
        }
        if self._cookies:
            headers["Cookie"] = self._cookie()
        if csrf:
            headers["X-CSRF-Token"] = csrf
        wait = RETRY
        while True:
            request = urllib.request.Request(
                self.server + path, data=data, method=method, headers=headers
            )
            try:
                with self._opener.open(request, timeout=30) as answer:
                    self._keep(answer.headers.get_all("Set-Cookie") or [])
                    return answer.status, json.loads(answer.read() or b"null")
            except urllib.error.HTTPError as err:
                self._keep(err.headers.get_all("Set-Cookie") or [])
                try:
                    return err.code, json.loads(err.read() or b"null")
                except ValueError:
                    return err.code, None
            except (OSError, urllib.error.URLError) as err:
                self.log(f"{self.name or 'bot'}: {method} {self.server}{path}: {err}; retrying")
                if self.fail_over():
                    time.sleep(wait)
                    wait = min(MAX_RETRY, wait * 2)

    def sign_in(self) -> str:
        """Spend the code: the session cookie is this bot's from now on; returns the entrant's
        name. A refused code raises :class:`BotError` with the server's message."""
        if not live_code(self.token):
            raise BotError(Msg("give the entrant's code (--token): no saved session to take up"))
        _status, session = self._http("GET", "/api/session")
        status, answer = self._http(
            "POST", "/api/invites/session", {"code": self.token}, csrf=session["csrf_token"]
        )
        if status != 200:
            message = answer.get("message", "") if isinstance(answer, dict) else str(status)
            raise BotError(Msg("the server refused the code: %(message)s", message=message))
        self.name = str(answer["name"])
        self._save()
        self.log(f"{self.name}: signed in to {answer['event_name']}")
        return self.name

    def _keep(self, set_cookies: list[str]) -> None:
        """The cookies the server set (or cleared); the session's is saved when it changes."""
        before = dict(self._cookies)
        for line in set_cookies:
            jar: http.cookies.SimpleCookie = http.cookies.SimpleCookie()
            jar.load(line)
            for name, morsel in jar.items():
                if morsel["max-age"] == "0" or morsel.value in ("", "null"):
                    self._cookies.pop(name, None)
                else:
                    self._cookies[name] = morsel.value
        if self._cookies != before and self.name:
            self._save()

    def _cookie(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self._cookies.items())

    def _save(self) -> None:
        """Keep the session for a later run (``--session FILE``): readable by its owner only,
        as it opens the entrant's games like a browser's cookie."""
        if self.session_file is None:
            return
        data = {"server": self.server, "name": self.name, "cookies": self._cookies}
        self.session_file.touch(mode=0o600, exist_ok=True)
        self.session_file.chmod(0o600)
        self.session_file.write_text(json.dumps(data, ensure_ascii=False), "utf-8")

    def resume(self) -> bool:
        """Take up the session a former run saved, if it is this server's and still open
        (the code was spent then); ``False``: none to take up."""
        if self.session_file is None or not self.session_file.exists():
            return False
        try:
            data = json.loads(self.session_file.read_text("utf-8"))
        except ValueError:
            return False
        if not isinstance(data, dict) or data.get("server") not in self.servers:
            return False
        self._cookies = {str(k): str(v) for k, v in dict(data.get("cookies", {})).items()}
        status, _found = self._http("GET", "/api/live/games")
        if status != 200:
            self._cookies = {}
            return False
        self.name = str(data.get("name", ""))
        self.log(f"{self.name}: session taken up from {self.session_file}")
        return True

    def games(self) -> list[dict[str, Any]]:
        """The entrant's events with their latest published round's games (``GET
        /api/live/games``)."""
        status, found = self._http("GET", "/api/live/games")
        if status != 200 or not isinstance(found, list):
            raise BotError(Msg("the server refused the session; sign in again"))
        return found

    # -- rounds ----------------------------------------------------------------------------

    def run(self, rounds: int | None = None, *, once: bool = False) -> int:
        """Sign in, then play every game the events give the entrant until they have no more
        (or ``rounds`` games, or one with ``once``); returns the number of games played."""
        if not self.name and not self.resume():
            self.sign_in()
        limit = 1 if once else rounds
        played = self.played
        try:
            while limit is None or len(played) < limit:
                events = self.games()
                todo = [
                    (e, g)
                    for e in events
                    for g in e["games"]
                    if (e["event_id"], e["round"], g["path"]) not in played
                ]
                if todo:
                    event, game = todo[0]
                    result = self.play(game)
                    if result is not None:
                        played.add((event["event_id"], event["round"], game["path"]))
                        where = f"round {event['round']} board {game['board']}"
                        self.log(f"{self.name}: {where}: {result}")
                        continue
                if not any(e["more_rounds"] for e in events):
                    break
                time.sleep(POLL)
        finally:
            self.close()
        return len(played)

    def close(self) -> None:
        if self._engine is not None:
            self._engine.quit()
            self._engine = None

    # -- one game --------------------------------------------------------------------------

    def engine(self) -> SimpleEngine:
        if self._engine is None or not self._engine.alive:
            self._engine = SimpleEngine.popen(self.command, timeout=self.engine_timeout)
            self._kgs = self._engine.known_command("kgs-time_settings")
            self._time_left = self._engine.known_command("time_left")
            self._time_settings = self._engine.known_command("time_settings")
        return self._engine

    def play(self, game: dict[str, Any]) -> str | None:
        """Play one game to its confirmed result (by both players); returns the result code,
        ``None`` when the room is closed to it (its round hidden or unpaired meanwhile).
        Reconnects after a network error; the room's first message gives the whole game."""
        state = _Game(game["color"], float(game["komi"]), int(game.get("handicap") or 0))
        state.told = self.told.setdefault(game["path"], {})
        state.sent = self.sent.setdefault(game["path"], [])
        self.seats[game["path"]] = state.color
        wait = RETRY
        while True:
            try:
                with connect(
                    ws_url(self.server, game["path"]),
                    additional_headers={"Cookie": self._cookie(), "Accept-Language": self.language},
                    open_timeout=20,
                ) as ws:
                    wait = RETRY
                    result = self._room(ws, state)
                    if result is not None:
                        return result
            except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError) as err:
                if isinstance(err, InvalidStatus) and err.response.status_code in (403, 404):
                    self.log(f"{self.name}: the room is closed ({err}); looking again")
                    return None
                self.log(f"{self.name}: connection to {self.server} lost ({err}); reconnecting")
            if self.fail_over():  # every worker tried: wait a little longer each round
                time.sleep(wait)
                wait = min(MAX_RETRY, wait * 2)

    def _room(self, ws: ClientConnection, state: _Game) -> str | None:
        snap: dict[str, Any] | None = None
        received = time.monotonic()
        state.acted_at = None  # a reconnection: what was sent may never have arrived
        while True:
            message = json.loads(ws.recv())
            kind = message.get("type")
            if kind == "state":
                if message.get("color") not in ("B", "W"):
                    raise BotError(Msg("the server does not seat this bot on the board"))
                # the colour as the room says it: a nigiri drawn on opening may have changed it
                state.color = message["color"]
                snap, received = message["snapshot"], time.monotonic()
            elif kind == "update":
                snap, received = merged(snap, message["snapshot"]), time.monotonic()
            if kind in ("state", "update"):
                state.told.update((e["seq"], e) for e in message["snapshot"]["events"])
                note_turn(state, message["snapshot"], received, fresh=kind == "update")
            elif kind == "refused":
                self.log(f"{self.name}: refused: {message.get('message')}")
                if snap is not None and message.get("code") == "refused":
                    tries = state.refused[snap["seq"]] = state.refused.get(snap["seq"], 0) + 1
                    if tries <= 2:
                        state.acted_at = None  # once more, otherwise
            if snap is None:
                continue
            if snap["confirmed"] or (
                snap["result"] is not None
                and (state.color in snap["confirmations"] or state.refused.get(snap["seq"]))
            ):
                return str(snap["result"])
            if state.acted_at == snap["seq"]:
                continue
            action = self._decide(snap, state, time.monotonic() - received)
            if action is not None:
                name, data = action
                if name in PRESSES and state.turn_since is not None:
                    data = {**data, "think": round(time.monotonic() - state.turn_since, 3)}
                ws.send(json.dumps({"type": "act", "action": name, "seq": snap["seq"], **data}))
                state.sent.append((snap["seq"], name, data.get("vertex")))
                state.acted_at = snap["seq"]

    def _sync(self, snap: dict[str, Any], state: _Game) -> SimpleEngine:
        """The engine in the position of ``snap``: the moves it lacks played, or the whole game
        replayed on a cleared board when it went another way (a refused move, a new game)."""
        engine = self.engine()
        moves = _moves(snap)
        known = state.engine_moves
        placed = list(snap.get("handicap_stones") or [])
        if (
            state.engine is not engine
            or state.size != snap["size"]
            or moves[: len(known)] != known
            or placed != state.engine_handicap
        ):
            engine.boardsize(snap["size"])
            engine.clear_board()
            engine.komi(state.komi)
            if placed:  # placed freely by Black (R-HCP-2)
                engine.set_free_handicap(placed)
            elif state.handicap >= 2 and not snap.get("handicap_to_place"):
                engine.fixed_handicap(state.handicap)
            state.engine_handicap = placed
            state.size, state.engine, known = snap["size"], engine, []
            clock = snap.get("clock")
            timed = clock is not None and clock["system"] != TimeSystem.UNTIMED.value
            if clock is not None and timed and (self._kgs or self._time_settings):
                tc = TimeControl.parse(clock["description"])
                with_kgs = self._kgs and tc.system is not TimeSystem.FISCHER
                line = (
                    f"kgs-time_settings {kgs_time_settings(tc)}"
                    if with_kgs
                    else f"time_settings {gtp_time_settings(tc)}"
                )
                engine.command(line)
                state.timed = True
        for color, vertex in moves[len(known) :]:
            engine.play(Color(color), vertex)
        state.engine_moves = moves
        return engine

    def _decide(
        self, snap: dict[str, Any], state: _Game, elapsed: float
    ) -> tuple[str, dict[str, Any]] | None:
        """What to send for the game as ``snap`` shows it, ``elapsed`` seconds after it came;
        ``None``: nothing (the opponent's turn, or the game not started)."""
        me = state.color
        if snap["result"] is not None:
            return ("confirm", {})
        if not snap["started"]:
            return None
        if snap["phase"] == "playing":
            if snap.get("end_proposed_by") not in (None, me):
                return ("accept_end", {})
            if snap["to_move"] != me:
                return None
            engine = self._sync(snap, state)
            if snap.get("handicap_to_place"):  # Black places its stones freely: the engine's
                return (
                    "place_handicap",
                    {"stones": engine.place_free_handicap(snap["handicap_to_place"])},
                )
            if state.refused.get(snap["seq"]):
                return ("pass", {})
            clock = snap.get("clock")
            if state.timed and self._time_left and clock is not None:
                side = clock["black" if me == "B" else "white"]
                seconds, stones = time_left(side, elapsed, self._kgs)
                engine.time_left(Color(me), seconds, stones)
            vertex = engine.genmove(Color(me))
            state.engine_moves.append((me, vertex if vertex != "resign" else "pass"))
            if vertex == "resign":
                return ("resign", {})
            if vertex == "pass":
                return ("pass", {})
            return ("move", {"vertex": vertex})
        if snap["phase"] == "counting":
            engine = self._sync(snap, state)
            mine = sorted(set(engine.final_status_list("dead")))
            by = snap["dead_marked_by"]
            if state.refused.get(snap["seq"]):  # its own view refused: the board's
                return ("agree_dead", {}) if by not in (None, me) else None
            if by is None:
                return ("mark_dead", {"stones": mine})
            if by == me:
                return None  # the opponent's turn to agree, dispute or mark
            marked = set(snap["dead"])
            if marked == set(mine):
                return ("agree_dead", {})
            own = {v for v in marked - set(mine) if snap["stones"].get(v) == me}
            if own and state.disputes < 1:
                state.disputes += 1
                return ("dispute", {})
            if state.remarks < 1:
                state.remarks += 1
                return ("mark_dead", {"stones": mine})
            return ("agree_dead", {})
        return None


def run_bot(
    server: str | Sequence[str],
    token: str,
    engine: str,
    *,
    rounds: int | None = None,
    once: bool = False,
    log: Callable[[str], None] | None = None,
    session_file: Path | None = None,
) -> int:
    """``weiqi bot``: play as the code's entrant until told to stop; the games played.
    ``session_file``: where the session is kept, so that a later run takes it up without the
    code (spent by the first)."""
    bot = Bot(server, token, engine_command(engine), log=log, session_file=session_file)
    try:
        return bot.run(rounds, once=once)
    except KeyboardInterrupt:  # told to stop (Ctrl-C): the engine is closed, the count said
        return len(bot.played)
    except EngineError as err:
        raise BotError(Msg("the engine failed: %(error)s", error=err.message)) from None
