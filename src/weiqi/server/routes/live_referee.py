"""Spectators and referees of a live round (issue #11).

Pages:

- ``/events/{id}/rounds/{n}/live``: every board of the round, live (stones, both clocks, the
  result), for anybody who may see the round; each board links to its room (read-only for
  whoever does not play in it) and its SGF with the moves so far;
- ``/events/{id}/rounds/{n}/referee``: the referee console — every board with both clocks, the
  move number and its alerts (time trouble, a disputed ending, a player disconnected, paused);
- ``/events/{id}/rounds/{n}/boards/{b}/referee``: one game for its referee: the live board and
  the forms to pause and resume it, record an infraction, rule, and (the chief referee) correct
  a clock; each form posts to ``…/referee/{pause,resume,infraction,ruling,clock}``, is stored
  in the game's record and pushed live to the players and spectators.
- ``/events/{id}/rounds/{n}/live/socket``: the round's WebSocket: ``{"type": "round",
  "boards": [...]}`` on connecting, then ``{"type": "board", "board": {...}}`` at every change
  of a board; a referee also gets each board's ``alerts`` (re-evaluated every second).

The JSON API of the referees' actions is ``routes/live_referee_api.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable, Mapping
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form
from fastapi.responses import RedirectResponse
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.websockets import WebSocket, WebSocketDisconnect

from weiqi.errors import Conflict, InvalidSetting, NotFound, PermissionDenied
from weiqi.i18n import N_
from weiqi.messages import Msg
from weiqi.server.board import board_svg, layout
from weiqi.server.inputs import ScreenedRoute, requires
from weiqi.server.live.rooms import GameKey, channel
from weiqi.server.live.tasks import stop_tasks
from weiqi.server.referee_forms import (
    INFRACTION_FIELDS,
    RULING_FIELDS,
    Refusal,
    choices,
    refusal,
)
from weiqi.server.routes.games import game_url
from weiqi.server.routes.live import (
    ROOM,
    TEAM_ROOM,
    _labels,
    _result_text,
    _socket_reader,
    room_context,
    rooms,
)
from weiqi.server.security import AppClock, CurrentActor, Db, flash
from weiqi.server.templating import html, say, translate
from weiqi.services import live, live_referee, referee_input
from weiqi.services.actor import Actor
from weiqi.services.games import BoardKey, TeamBoard
from weiqi.services.permissions import Action
from weiqi.store.database import Database

router = APIRouter(route_class=ScreenedRoute, include_in_schema=False)

ROUND = "/events/{event_id}/rounds/{number}"
#: How often a referee's console socket re-evaluates the alerts (time trouble and a long
#: disconnection come with time, not with a push).
ALERT_SECONDS = 1.0


def room_key(
    event_id: int, number: int, board: int, match: int | None = None, sitting: int = 0
) -> GameKey:
    """The game of a referee's page from its path: an individual board, or a team board (the
    ``{match}`` of its path, a rotation match's ``?sitting=``)."""
    if match is None:
        return event_id, number, board
    return event_id, number, TeamBoard(match, board, sitting)


#: The game a referee's page is about (both kinds of boards, one set of handlers).
Key = Annotated[GameKey, Depends(room_key)]


def _console_url(key: GameKey, form: str = "") -> str:
    """The referee's page of the game ``key``, or the address its form ``form`` posts to."""
    event_id, number, board = key
    return live.room_url(event_id, number, board, f"/referee/{form}" if form else "/referee")


def _round_labels(request: Request) -> dict[str, str]:
    words = {
        "time_trouble": N_("%(color)s in time trouble"),
        "dispute": N_("Ending disputed"),
        "disconnected": N_("%(color)s disconnected"),
        "paused": N_("Paused"),
        "not_started": N_("Not started"),
        "playing": N_("Playing"),
        "counting": N_("Counting"),
        "move": N_("Move %(n)s"),
        "call": N_("%(color)s calls the referee"),
    }
    return {**_labels(request), **{k: translate(request, v) for k, v in words.items()}}


def _board_urls(event_id: int, number: int, snap: dict[str, Any]) -> dict[str, str]:
    """Where a board of the round page leads: its room, SGF and referee view."""
    key = live.key_of(snap)
    return {
        "play_url": live.room_url(event_id, number, key),
        "sgf_url": game_url(event_id, number, key, "/sgf"),
        "referee_url": _console_url((event_id, number, key)),
    }


def _round_context(request: Request, data: live_referee.RoundLive, console: bool) -> dict[str, Any]:
    boards = []
    for b in data.boards:
        boards.append(
            {
                **b,
                **_board_urls(data.event_id, data.number, b),
                "svg": board_svg(b["size"], b["stones"], last_move=b["last_move"],
                                 coordinates=False),
                "result_text": _result_text(b["result"], request),
            }
        )  # fmt: skip
    path = ROUND.format(event_id=data.event_id, number=data.number)
    geo = layout(data.size, coordinates=False)
    return {
        "data": data,
        "boards": boards,
        "console": console,
        "config": {
            "ws": path + "/live/socket",
            "labels": _round_labels(request),
            "console": console,
            "geometry": geo.script_geometry(),
            "boards": [
                {**live_referee.summary(b), "result_text": x["result_text"]}
                for b, x in zip(data.boards, boards, strict=True)
            ],
        },
    }


@router.get(ROUND + "/live")
def round_page(
    request: Request, db: Db, actor: CurrentActor, clock: AppClock, event_id: int, number: int
) -> Response:
    """Every board of the round, live, for its spectators."""
    data = live_referee.round_boards(db, actor, event_id, number, clock)
    return html(request, "live_round.html", _round_context(request, data, False))


@router.get(ROUND + "/referee")
@requires(Action.RULE_INFRACTION)
def console_page(
    request: Request, db: Db, actor: CurrentActor, clock: AppClock, event_id: int, number: int
) -> Response:
    """The referee console of a round."""
    data = live_referee.console_boards(db, actor, event_id, number, clock)
    return html(request, "live_console.html", _round_context(request, data, True))


# -- one game for its referee ----------------------------------------------------------------


def _game_page(
    request: Request,
    db: Database,
    actor: Actor,
    clock: Any,
    event_id: int,
    number: int,
    board: BoardKey,
    refused: Refusal | None = None,
    status_code: int = 200,
) -> Response:
    data = live_referee.console_boards(db, actor, event_id, number, clock)
    if not any(live.key_of(b) == board for b in data.boards):
        raise NotFound(Msg("round %(number)s has no board %(board)s", number=number,
                                board=board))  # fmt: skip
    context = room_context(request, db, actor, clock, event_id, number, board, watch=True)
    calls = rooms(request.app).calls((event_id, number, board))
    context.update(
        {
            "calls": sorted(calls),
            "console": True,
            "refusal": refused,
            "actions": {
                what: _console_url((event_id, number, board), what)
                for what in ("answer", "pause", "resume", "infraction", "ruling", "clock")
            },
            "console_path": ROUND.format(event_id=event_id, number=number) + "/referee",
            "infractions": choices(request, referee_input.LIVE_INFRACTIONS),
            "rulings": choices(request, referee_input.RULINGS),
        }
    )
    return html(request, "live_console_game.html", context, status_code=status_code)


@router.get(ROOM + "/referee")
@router.get(TEAM_ROOM + "/referee")
@requires(Action.RULE_INFRACTION)
def game_console_page(
    request: Request,
    db: Db,
    actor: CurrentActor,
    clock: AppClock,
    key: Key,
) -> Response:
    """One live game for its referee."""
    event_id, number, board = key
    return _game_page(request, db, actor, clock, event_id, number, board)


Seq = Annotated[int | None, Form()]


async def _act(
    request: Request,
    db: Database,
    actor: Actor,
    clock: Any,
    key: GameKey,
    form: str,
    values: dict[str, str],
    work: Callable[[], live.ActionOutcome],
    done: str,
    fields: Mapping[str, str] | None = None,
) -> Response:
    """Run a referee's action under the game's lock and push it; a refusal shows the form
    ``form`` again with the reason beside its field (a field sent, or one ``fields`` maps the
    service's name of to the form's) and what was sent kept."""
    event_id, number, board = key
    back = _console_url(key)
    live_rooms = rooms(request.app)
    try:
        await live_rooms.change(key, work)
    except InvalidSetting as err:
        shown = refusal(request, form, err, values, {**{f: f for f in values}, **(fields or {})})
        return await run_in_threadpool(
            _game_page, request, db, actor, clock, event_id, number, board, shown, 422
        )
    except Conflict as err:
        flash(request, say(request, err.msg))
        return RedirectResponse(back, status_code=303)
    await live_rooms.answer(key)  # the referee took the game up: its players' calls are answered
    flash(request, done)
    return RedirectResponse(back, status_code=303)


@router.post(ROOM + "/referee/answer")
@router.post(TEAM_ROOM + "/referee/answer")
@requires(Action.RULE_INFRACTION)
async def answer_call(request: Request, key: Key) -> Response:
    """The referee answers the players' call (nothing to record in the game)."""
    await rooms(request.app).answer(key)
    flash(request, translate(request, "The call is answered."))
    return RedirectResponse(_console_url(key), status_code=303)


@router.post(ROOM + "/referee/pause")
@router.post(TEAM_ROOM + "/referee/pause")
@requires(Action.RULE_INFRACTION)
async def pause_game(
    request: Request,
    db: Db,
    actor: CurrentActor,
    clock: AppClock,
    key: Key,
    seq: Seq = None,
    reason: Annotated[str, Form()] = "",
) -> Response:
    event_id, number, board = key
    return await _act(
        request, db, actor, clock, key, "form-pause", {"reason": reason},
        lambda: live_referee.pause(db, actor, event_id, number, board, seq, reason,
                                   clock=clock),
        translate(request, "The game is paused."),
    )  # fmt: skip


@router.post(ROOM + "/referee/resume")
@router.post(TEAM_ROOM + "/referee/resume")
@requires(Action.RULE_INFRACTION)
async def resume_game(
    request: Request,
    db: Db,
    actor: CurrentActor,
    clock: AppClock,
    key: Key,
    seq: Seq = None,
) -> Response:
    event_id, number, board = key
    return await _act(
        request, db, actor, clock, key, "form-resume", {},
        lambda: live_referee.resume(db, actor, event_id, number, board, seq, clock=clock),
        translate(request, "The game goes on."),
    )  # fmt: skip


@router.post(ROOM + "/referee/infraction")
@router.post(TEAM_ROOM + "/referee/infraction")
@requires(Action.RULE_INFRACTION)
async def game_infraction(
    request: Request,
    db: Db,
    actor: CurrentActor,
    clock: AppClock,
    key: Key,
    seq: Seq = None,
    kind: Annotated[str, Form()] = "",
    offender: Annotated[str, Form()] = "",
    penalty: Annotated[str, Form()] = "",
    note: Annotated[str, Form()] = "",
) -> Response:
    event_id, number, board = key
    values = {"kind": kind, "offender": offender, "penalty": penalty, "note": note}
    return await _act(
        request, db, actor, clock, key, "record-infraction", values,
        lambda: live_referee.record_infraction(db, actor, event_id, number, board, seq, kind,
                                               offender, penalty, note, clock=clock),
        translate(request, "Infraction recorded."), INFRACTION_FIELDS,
    )  # fmt: skip


@router.post(ROOM + "/referee/ruling")
@router.post(TEAM_ROOM + "/referee/ruling")
@requires(Action.RULE_INFRACTION)
async def game_ruling(
    request: Request,
    db: Db,
    actor: CurrentActor,
    clock: AppClock,
    key: Key,
    seq: Seq = None,
    kind: Annotated[str, Form()] = "",
    loser: Annotated[str, Form()] = "",
    reason: Annotated[str, Form()] = "",
) -> Response:
    event_id, number, board = key
    values = {"kind": kind, "loser": loser, "reason": reason}
    return await _act(
        request, db, actor, clock, key, "record-ruling", values,
        lambda: live_referee.record_ruling(db, actor, event_id, number, board, seq, kind,
                                           reason, loser, clock=clock),
        translate(request, "Ruling recorded."), RULING_FIELDS,
    )  # fmt: skip


@router.post(ROOM + "/referee/clock")
@router.post(TEAM_ROOM + "/referee/clock")
@requires(Action.CORRECT_CLOCK)
async def game_clock(
    request: Request,
    db: Db,
    actor: CurrentActor,
    clock: AppClock,
    key: Key,
    seq: Seq = None,
    color: Annotated[str, Form()] = "",
    seconds: Annotated[str, Form()] = "",
    reason: Annotated[str, Form()] = "",
) -> Response:
    event_id, number, board = key
    values = {"color": color, "seconds": seconds, "reason": reason}
    return await _act(
        request, db, actor, clock, key, "form-clock", values,
        lambda: live_referee.correct_clock(db, actor, event_id, number, board, seq, color,
                                           seconds, reason, clock=clock),
        translate(request, "Clock corrected."),
    )  # fmt: skip


# -- the round's socket ----------------------------------------------------------------------


class _Watched:
    """What a round's socket knows of one board: its last snapshot, who is connected, since
    when the others are away and who called the referee — as this process saw them, and as the
    pushes of every worker say (with several workers on Redis, a player's socket may be on
    another one)."""

    def __init__(self, key: GameKey, snap: dict[str, Any]) -> None:
        self.key = key
        self.snap = snap
        self.present: set[str] = set()
        self.away: dict[str, float] = {}
        self.calls: dict[str, float] = {}
        self.shown: list[str] | None = None

    def alerts(self, now: float, after: float | None) -> list[str]:
        return live_referee.alerts(self.snap, self.present, self.away, now, after, self.calls)


def _board_message(
    w: _Watched, locale: str, console: bool, now: float, after: float | None
) -> dict[str, Any]:
    snap = w.snap
    out = {**live_referee.summary(snap), "result_text": _result_text(snap.get("result"), locale)}
    if console:
        w.shown = out["alerts"] = w.alerts(now, after)
        out["present"] = sorted(w.present)
    return {"type": "board", "board": out}


async def round_socket(websocket: WebSocket) -> None:
    """A spectator's or a referee's view of a whole round."""
    params = websocket.path_params
    event_id, number = int(params["event_id"]), int(params["number"])
    live_rooms = rooms(websocket.app)
    db: Database = websocket.app.state.db
    reader = await _socket_reader(websocket)
    if reader is None:
        return
    actor, locale = reader
    try:
        boards, alert = await run_in_threadpool(
            live_referee.round_plan, db, actor, event_id, number
        )
        console = await run_in_threadpool(live_referee.may_referee, db, actor, event_id)
    except (NotFound, PermissionDenied):
        await websocket.close(code=4404)
        return
    await websocket.accept()
    after = None if alert is None else float(alert)
    keys: dict[int | str, GameKey] = {live.board_ref(b): (event_id, number, b) for b in boards}
    inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    subs = [live_rooms.bus.subscribe(channel(k)) for k in keys.values()]
    tasks: list[asyncio.Task[None]] = []

    def now() -> float:
        return live_rooms.clock.now().timestamp()

    async def pump(sub: Any) -> None:
        while True:
            await inbox.put(await sub.get())

    try:
        for sub in subs:
            await sub.ready()  # before the boards are read: no push falls between the two
        tasks = [asyncio.get_running_loop().create_task(pump(s)) for s in subs]
        fresh = await run_in_threadpool(
            live_referee.round_boards, db, actor, event_id, number, live_rooms.clock
        )
        watched = {b["ref"]: _Watched(keys[b["ref"]], b) for b in fresh.boards if b["ref"] in keys}
        for w in watched.values():
            w.present = await live_rooms.present(w.key)
            w.away = live_rooms.away_since(w.key)
            w.calls = live_rooms.calls(w.key)
        first = [
            _board_message(w, locale, console, now(), after)["board"] for w in watched.values()
        ]
        await websocket.send_json({"type": "round", "boards": first})

        async def listen() -> None:
            while True:
                message = await inbox.get()
                kind = message.get("type")
                ref = message.get("board") or message.get("snapshot", {}).get("ref")
                w = watched.get(ref) if ref is not None else None
                if w is None:
                    continue
                if kind == "update":
                    snap = message["snapshot"]
                    if snap["seq"] < w.snap["seq"]:
                        continue  # an older push overtaken by a newer one
                    w.snap = snap
                elif kind == "presence":
                    w.present = set(message.get("present", ()))
                    w.away = {
                        c: t for c, t in {**w.away, **message.get("away_since", {})}.items()
                        if c not in w.present
                    }  # fmt: skip
                    if not console:
                        continue
                elif kind == "call":
                    w.calls = dict(message.get("calls", {}))
                    live_rooms.note_calls(w.key, w.calls)
                    if not console:
                        continue
                else:
                    continue
                await websocket.send_json(_board_message(w, locale, console, now(), after))

        async def watch_alerts() -> None:
            while True:
                await asyncio.sleep(ALERT_SECONDS)
                for w in watched.values():
                    if w.alerts(now(), after) != w.shown:
                        await websocket.send_json(_board_message(w, locale, True, now(), after))

        tasks.append(asyncio.get_running_loop().create_task(listen()))
        if console:
            tasks.append(asyncio.get_running_loop().create_task(watch_alerts()))
        while True:  # the reader sends nothing we act on; this notices it leaving
            text = await websocket.receive_text()
            with contextlib.suppress(ValueError):
                json.loads(text)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        await stop_tasks(tasks)
        for sub in subs:
            sub.close()


router.add_websocket_route(ROUND + "/live/socket", round_socket)
