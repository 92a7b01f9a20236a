"""Live online play (issue #11): invitations, "my game", the game room and its WebSocket.

Pages:

- ``/events/{id}/invites``: the organisers make a one-time invitation code per entrant;
- ``/join``: a logged-in user redeems a code and becomes that entrant's player (one not logged
  in is offered to log in or to create an account with the code: ``routes/signup.py``);
- ``/events/{id}/rounds/{n}/boards/{b}/play``: the game room (anyone may watch a published
  round's room; the two players play in it); a team board's room is its page's address +
  ``/play`` (``/events/{id}/rounds/{n}/matches/{m}/boards/{b}/play``, ``?sitting=`` for
  a rotation match's later sittings), open once the round's lineups are revealed;
- ``…/live`` beside ``…/play``: the room's WebSocket. The server sends the
  whole game on connecting (``{"type": "state", …}``), then every change once, in order
  (``"update"``: the snapshot with the events it added), call-outs (``"callout"``) and, to the
  sender only, refusals (``"refused"``, the reason in the reader's language). A player sends
  ``{"type": "act", "action": "move", "vertex": "D4", "seq": N}`` (or ``pass``, ``resign``,
  ``mark_dead`` with ``stones``, ``agree_dead``, ``dispute``, ``confirm``). A move, a pass,
  a proposal to end or a handicap placement may add ``"think": S``, the seconds the player
  thought as their device measured them: the game's lag allowance forgives the rest of the
  server's measure, out of its quota (``services.live.act``; anything but seconds is ignored).

The JSON API of invitations is ``routes/live_api.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from datetime import UTC, datetime
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Form
from fastapi.responses import RedirectResponse
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.websockets import WebSocket, WebSocketDisconnect

from weiqi.clock.control import TimeControl
from weiqi.errors import Conflict, InvalidSetting, NotFound, PermissionDenied, WeiqiError
from weiqi.i18n import N_, negotiate, render, render_value
from weiqi.messages import Msg
from weiqi.rules.result import Result
from weiqi.server.board import board_svg, layout
from weiqi.server.inputs import ScreenedRoute, requires
from weiqi.server.live.rooms import GameKey, LiveRooms, channel
from weiqi.server.live.tasks import stop_tasks
from weiqi.server.routes.games import TEAM, game_url
from weiqi.server.routes.signup import join_logged_out
from weiqi.server.security import AppClock, CurrentActor, CurrentUser, Db, LoggedIn, flash
from weiqi.server.templating import LANG_COOKIE, html, say, translate
from weiqi.services import live
from weiqi.services.accounts import session_user
from weiqi.services.actor import ANONYMOUS, Actor
from weiqi.services.events import event_details, event_time_control
from weiqi.services.games import BoardKey, TeamBoard
from weiqi.services.live_notices import notice_msg
from weiqi.services.permissions import Action
from weiqi.services.public import require_round_visible
from weiqi.store.database import Database
from weiqi.tournament.details import format_local
from weiqi.tournament.settings import describe_time_control

router = APIRouter(route_class=ScreenedRoute, include_in_schema=False)

ROOM = "/events/{event_id}/rounds/{number}/boards/{board}"
#: A team board's room: the team board page's address (``routes.games``) + ``/play``.
TEAM_ROOM = TEAM + "/boards/{board}"


def rooms(app: Any) -> LiveRooms:
    """The live rooms of this application (made on first use, on the app's database and
    clock, and on Redis when the app has ``WEIQI_REDIS_URL``)."""
    found = getattr(app.state, "live", None)
    if found is None:
        redis_url = getattr(app.state, "redis_url", None)
        if redis_url:  # every worker's readers on one bus, presence counted over all of them
            from weiqi.server.live.redis_bus import RedisBus, RedisDeadlines, RedisPresence

            prefix = app.state.live_prefix
            presence = RedisPresence.from_url(redis_url, prefix)
            found = LiveRooms(
                app.state.db,
                app.state.clock,
                RedisBus.from_url(redis_url, prefix),
                presence,
                RedisDeadlines.from_url(redis_url, prefix),
                presence.worker,
            )
        else:
            found = LiveRooms(app.state.db, app.state.clock)
        app.state.live = found
    return found


# -- invitations -----------------------------------------------------------------------------


@router.get("/events/{event_id}/invites")
@requires(Action.MANAGE_PLAYERS)
def invites_page(request: Request, db: Db, actor: CurrentActor, event_id: int) -> Response:
    return _invites(request, db, actor, event_id)


def _invites(
    request: Request,
    db: Database,
    actor: Actor,
    event_id: int,
    made: live.Invite | None = None,
    status_code: int = 200,
    declining: dict[str, Any] | None = None,
) -> Response:
    """``declining``: a decline of a claim refused (``routes/entry_claims.py``), shown at its
    form with what was typed."""
    from weiqi.services.entry_claims import event_claims

    context = {
        "event_id": event_id,
        "entrants": live.entrant_accounts(db, actor, event_id),
        "made": made,
        "claims": event_claims(db, actor, event_id),
        "declining": declining,
    }
    return html(request, "live_invites.html", context, status_code=status_code)


@router.post("/events/{event_id}/invites/{player_id}")
@requires(Action.MANAGE_PLAYERS)
def make_invite(
    request: Request, db: Db, actor: CurrentActor, clock: AppClock, event_id: int, player_id: int
) -> Response:
    """The code is shown on the page this answers with, once: only its hash is kept."""
    try:
        made = live.create_invite(db, actor, event_id, player_id, clock)
    except Conflict as err:
        flash(request, say(request, err.msg))
        return RedirectResponse(f"/events/{event_id}/invites", status_code=303)
    return _invites(request, db, actor, event_id, made)


@router.get("/join")
def join_page(request: Request, user: CurrentUser, code: str = "", then: str = "") -> Response:
    if user is None:  # log in first, or create an account with the code (routes/signup.py)
        return join_logged_out(request, code, then)
    return html(request, "live_join.html", {"error": None, "code": code})


@router.post("/join")
def join(
    request: Request,
    db: Db,
    user: LoggedIn,
    clock: AppClock,
    code: Annotated[str, Form()] = "",
) -> Response:
    try:
        linked = live.redeem_invite(db, user.actor(), code, clock)
    except (InvalidSetting, Conflict) as err:
        message = say(request, err.reason)
        context = {"error": message, "code": code}
        return html(request, "live_join.html", context, status_code=422)
    flash(
        request,
        translate(
            request, "You now play as %(name)s in %(event)s.", name=linked.name,
            event=linked.event_name,
        ),
    )  # fmt: skip
    return RedirectResponse("/", status_code=303)


# -- the room --------------------------------------------------------------------------------


def _labels(request: Request) -> dict[str, str]:
    """What the room's script writes, in the reader's language."""
    words = {
        "black": N_("Black"),
        "white": N_("White"),
        "to_move": N_("%(color)s to move"),
        "your_turn": N_("Your move"),
        "counting": N_("Counting: mark the dead stones, then accept"),
        "finished": N_("Game over: %(result)s"),
        "confirmed": N_("Confirmed: %(result)s"),
        "not_started": N_("Waiting for both players"),
        "nigiri": N_(
            "Nigiri: %(holder)s held, %(guesser)s guessed %(guess)s, the handful had "
            "%(count)s stones: %(black)s plays Black (seed %(seed)s)"
        ),
        "place_handicap": N_("Place your handicap stones: %(n)s of %(total)s chosen"),
        "placing_handicap": N_("Black is placing the handicap stones"),
        "odd": N_("odd"),
        "even": N_("even"),
        "you_black": N_("You play Black"),
        "you_white": N_("You play White"),
        "starts_in": N_("The game starts in %(time)s: the clock starts then, present or not"),
        "pass": N_("pass"),
        "periods": N_("%(n)s × %(s)ss"),
        "connecting": N_("Connecting…"),
        "disconnected": N_("Connection lost; reconnecting…"),
        "proposal": N_("The server's proposal of dead stones"),
        "marked_by": N_("Dead stones marked by %(color)s"),
        "time_up": N_("Time is up"),
        "end_proposed": N_("%(color)s proposes to end the game"),
        "paused": N_("The game is paused by the referee"),
        "referee_notes": N_("Referee's notes"),
        "referee_called": N_("The referees are called: one will see to your game."),
    }
    return {k: translate(request, v) for k, v in words.items()}


@router.get(ROOM + "/play")
def room(
    request: Request,
    db: Db,
    actor: CurrentActor,
    clock: AppClock,
    event_id: int,
    number: int,
    board: int,
) -> Response:
    require_round_visible(db, actor, event_id, number)
    context = room_context(request, db, actor, clock, event_id, number, board)
    return html(request, "live_room.html", context)


@router.get(TEAM_ROOM + "/play")
def team_room(
    request: Request,
    db: Db,
    actor: CurrentActor,
    clock: AppClock,
    event_id: int,
    number: int,
    match: int,
    board: int,
    sitting: int = 0,
) -> Response:
    """A team board's room: the same room (its lookup refuses a board not seated yet)."""
    key = TeamBoard(match, board, sitting)
    context = room_context(request, db, actor, clock, event_id, number, key)
    return html(request, "live_room.html", context)


def room_context(
    request: Request,
    db: Database,
    actor: Actor,
    clock: Any,
    event_id: int,
    number: int,
    board: BoardKey,
    *,
    watch: bool = False,
) -> dict[str, Any]:
    """What ``live_room.html`` draws (``watch``: as a spectator, whoever reads it — the
    referee console's view of the game)."""
    snap = live.snapshot(db, event_id, number, board, clock=clock)
    color = None if watch else live.seat(db, actor, event_id, number, board)
    geo = layout(snap.size)
    context = {
        "snap": snap,
        "color": color,
        "svg": board_svg(snap.size, snap.stones, last_move=snap.last_move),
        "geometry": {"size": snap.size, **geo.script_geometry()},
        "state": {
            **snap.to_data(),
            "result_text": _result_text(snap.result, request),
            "notices_text": [say(request, notice_msg(n)) for n in snap.notices],
        },
        "labels": _labels(request),
        "ws_path": live.room_url(event_id, number, board, "/live"),
        "urls": {
            "board": game_url(event_id, number, board),
            "sgf": game_url(event_id, number, board, "/sgf"),
            "round": f"/events/{event_id}/rounds/{number}/live",
        },
        "result_text": _result_text(snap.result, request),
        "starts": _starts_text(db, event_id, snap.starts_at),
        "time_control": _time_control_text(db, event_id, snap, _locale(request)),
    }
    return context


def _time_control_text(db: Database, event_id: int, snap: live.Snapshot, locale: str) -> str:
    """The time control the game is played under, as the room states it: its clock's once
    it has started, else its event's, which it will start with."""
    played: TimeControl | None = (
        TimeControl.parse(snap.clock.description)
        if snap.clock is not None
        else event_time_control(db, event_id)
    )
    return describe_time_control(played, locale)


def _starts_text(db: Database, event_id: int, starts_at: float | None) -> str:
    """The round's start time as the room shows it, in the event's time zone."""
    if starts_at is None:
        return ""
    zone_name = event_details(db, event_id).time_zone
    return f"{format_local(datetime.fromtimestamp(starts_at, UTC), zone_name)} ({zone_name})"


def _result_text(code: str | None, request: Request | str) -> str:
    if not code:
        return ""
    locale = request if isinstance(request, str) else _locale(request)
    return render_value(Result.parse(code), locale)


def _locale(conn: Request | WebSocket) -> str:
    return negotiate(conn.cookies.get(LANG_COOKIE), conn.headers.get("accept-language"))


def _ws_actor(websocket: WebSocket) -> Actor:
    token = websocket.session.get("sid") if "session" in websocket.scope else None
    if not isinstance(token, str):
        return ANONYMOUS
    user = session_user(websocket.app.state.db, token, websocket.app.state.clock.now())
    return user.actor() if user else ANONYMOUS


def _same_origin(websocket: WebSocket) -> bool:
    """A browser always says where the page that opens a WebSocket comes from: only our own
    pages may open a player's socket (no cross-site WebSocket hijacking)."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True  # not a browser (a bot, a test client): it holds its own cookie
    return urlsplit(origin).netloc == websocket.headers.get("host", "")


async def _socket_reader(websocket: WebSocket) -> tuple[Actor, str] | None:
    """Who reads ``websocket`` and in which language; ``None`` once the socket is closed
    (4403) because another site's page opened it (:func:`_same_origin`)."""
    if not _same_origin(websocket):
        await websocket.close(code=4403)
        return None
    return await run_in_threadpool(_ws_actor, websocket), _locale(websocket)


def _localised(message: dict[str, Any], locale: str) -> dict[str, Any]:
    if message.get("type") in ("update", "state"):
        snap = message["snapshot"]
        notices = [render(notice_msg(n), locale) for n in snap.get("notices", ())]
        return {
            **message,
            "result_text": _result_text(snap.get("result"), locale),
            "notices_text": notices,
        }
    if message.get("type") == "callout":
        callout = message["callout"]
        return {**message, "text": callout["zh"] if locale == "zh_CN" else callout["en"]}
    return message


#: Where a pushed message keeps its text per language (see :func:`_text`).
_TEXTS = "\0texts"


def _text(message: dict[str, Any], locale: str) -> str:
    """``message`` as a reader in ``locale`` gets it, as JSON: encoded once per language for
    all the readers of this worker that get it unchanged (a round's hundreds of spectators get
    one push of the bus, the same object), kept in the message itself — the bus hands each
    message to its local readers after it has sent it on, so nothing encodes it again."""
    texts: dict[str, str] = message.setdefault(_TEXTS, {})
    text = texts.get(locale)
    if text is None:
        plain = {k: v for k, v in message.items() if k != _TEXTS}
        text = json.dumps(_localised(plain, locale), separators=(",", ":"), ensure_ascii=False)
        texts[locale] = text
    return text


def socket_key(websocket: WebSocket) -> GameKey:
    """The game of a room's socket, from its path (and a rotation match's ``?sitting=``)."""
    params = websocket.path_params
    board: BoardKey = int(params["board"])
    if "match" in params:
        sitting = websocket.query_params.get("sitting", "0")
        seat = int(sitting) if sitting.isdigit() else 0
        board = TeamBoard(int(params["match"]), int(params["board"]), seat)
    return int(params["event_id"]), int(params["number"]), board


async def room_socket(websocket: WebSocket) -> None:
    """One reader of a room: the state, then every push; a player's actions."""
    key = socket_key(websocket)
    event_id, number, board = key
    live_rooms = rooms(websocket.app)
    db: Database = websocket.app.state.db
    reader = await _socket_reader(websocket)
    if reader is None:
        return
    actor, locale = reader
    clock = live_rooms.clock
    subscription = live_rooms.bus.subscribe(channel(key))
    try:
        await subscription.ready()  # before the state is read: no push falls between the two
        async with live_rooms.lock(key):  # no change of this worker's between the two either
            entry = await run_in_threadpool(live.enter_room, db, actor, *key, clock)
        if entry.opens:  # a player opens the game: colours drawn by nigiri before the clock
            await live_rooms.change(key, lambda: live.open_game(db, *key, clock))
            async with live_rooms.lock(key):
                entry = await run_in_threadpool(live.enter_room, db, actor, *key, clock)
    except (NotFound, Conflict):  # no such board, or a team board not seated yet
        subscription.close()
        await websocket.close(code=4404)
        return
    except BaseException:
        subscription.close()
        raise
    await websocket.accept()
    color, first = entry.color, entry.snapshot
    seen = first.seq  # the record's length this reader has been told of

    async def send(message: dict[str, Any]) -> None:
        await websocket.send_json(_localised(message, locale))

    async def forward() -> None:
        nonlocal seen
        while True:
            message = await subscription.get()
            if message.get("type") == "update":
                snap = message["snapshot"]
                if snap["seq"] <= seen:
                    continue  # already in the state this reader was sent
                events = [e for e in snap["events"] if e["seq"] >= seen]
                if not events or events[0]["seq"] > seen:
                    # Two workers' pushes of one game crossed on the way (or this one came
                    # first): what lies between is read again from the database, the truth.
                    fresh = await run_in_threadpool(
                        live.snapshot, db, event_id, number, board,
                        since=seen, clock=live_rooms.clock,
                    )  # fmt: skip
                    snap = fresh.to_data()
                    events = [e for e in snap["events"] if e["seq"] >= seen]
                    if snap["seq"] <= seen:
                        continue
                if snap is not message["snapshot"] or len(events) != len(snap["events"]):
                    message = {"type": "update", "snapshot": {**snap, "events": events}}
                seen = snap["seq"]
            elif message.get("type") == "call":  # a call (or its answer) made on any worker
                live_rooms.note_calls(key, message.get("calls") or {})
            await websocket.send_text(_text(message, locale))

    pusher: asyncio.Task[None] | None = None
    try:
        await send({"type": "state", "snapshot": first.to_data(), "color": color})
        pusher = asyncio.get_running_loop().create_task(forward())
        try:
            await live_rooms.join(key, color)
            if color is not None and color in first.absent:  # late for the start (R-TIME-6)
                await live_rooms.change(
                    key,
                    lambda: live.arrive(db, event_id, number, board, color, live_rooms.clock),
                )
        except WeiqiError as err:  # a board with a refused record, unpaired meanwhile …
            await websocket.send_json(_refused(err.msg, None, locale, type(err).__name__))
        live_rooms.look(key, entry.wakeup)
        while True:
            try:
                data = json.loads(await websocket.receive_text())
            except ValueError:
                continue  # not JSON: nothing to do
            if isinstance(data, dict) and data.get("type") == "call_referee":
                if color is None:  # only the game's players call its referee
                    denied = Msg("only the players of this game may call its referee")
                    await websocket.send_json(_refused(denied, None, locale, "PermissionDenied"))
                else:
                    await live_rooms.call_referee(key, color)
                continue
            if not isinstance(data, dict) or data.get("type") != "act":
                continue
            await _act(websocket, live_rooms, key, actor, data, locale)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        subscription.close()
        with contextlib.suppress(Exception):  # the presence store gone: counts expire
            await live_rooms.leave(key, color)
        await stop_tasks([pusher])


async def _act(
    websocket: WebSocket,
    live_rooms: LiveRooms,
    key: GameKey,
    actor: Actor,
    data: dict[str, Any],
    locale: str,
) -> None:
    event_id, number, board = key
    action = str(data.get("action", ""))
    seq = data.get("seq")
    expected = seq if isinstance(seq, int) and not isinstance(seq, bool) else None
    db = live_rooms.db
    try:
        outcome = await live_rooms.change(
            key,
            lambda: live.act(
                db, actor, event_id, number, board, action, expected, data, live_rooms.clock
            ),
        )
    except (PermissionDenied, Conflict, InvalidSetting, NotFound) as err:
        await websocket.send_json(_refused(err.msg, None, locale, type(err).__name__))
        return
    except WeiqiError as err:  # pragma: no cover - any other refusal
        await websocket.send_json(_refused(err.msg, None, locale, "error"))
        return
    if outcome.refused is not None:
        await websocket.send_json(_refused(outcome.refused, outcome.reason, locale, "refused"))


def _refused(msg: Msg, reason: str | None, locale: str, code: str) -> dict[str, Any]:
    return {"type": "refused", "code": code, "reason": reason, "message": render(msg, locale)}


router.add_websocket_route(ROOM + "/live", room_socket)
router.add_websocket_route(TEAM_ROOM + "/live", room_socket)
