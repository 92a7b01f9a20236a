"""The voice clock's JSON API: a time control compiled for ``static/clock.js``, and the replay of
a clock log through :mod:`weiqi.clock` (the page's verdicts, checked by the server's model)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field
from starlette.requests import Request

from weiqi.clock import TimeControl
from weiqi.server.inputs import ScreenedRoute
from weiqi.server.templating import locale_of
from weiqi.server.voice_clock import plan, replay_log

router = APIRouter(route_class=ScreenedRoute, prefix="/api/clock", tags=["clock"])


class ReplayIn(BaseModel):
    tc: str = Field(description="a settings string, e.g. 55m+5x60s, 3x30s, 90m, 15/10m")
    events: list[dict[str, Any]] = Field(
        description='the log, e.g. [{"op": "start", "now": 0}, {"op": "press", "now": 12.5, '
        '"color": "B"}]; ops: start, press, seal, pause, resume, stop, forfeit_turn, '
        "advance"
    )


@router.get("/plan")
def get_plan(request: Request, tc: str) -> dict[str, Any]:
    """The time control ``tc`` as the voice clock page runs it: the starting account in ms,
    byo-yomi call-outs per periods left (offsets and zh/en texts), the outcome of each flag."""
    return plan(TimeControl.parse(tc), locale_of(request))


@router.post("/replay")
def post_replay(body: ReplayIn) -> dict[str, Any]:
    """Replay a clock log through the clock model: the final state, the call-outs made (with
    their move and offset), both players' time left at the last event, and the result.
    Open to everybody: it reads and stores nothing."""
    return replay_log(TimeControl.parse(body.tc), body.events)
