"""``GET /health`` for load balancers and monitors; ``GET /health/live``, a worker's live
figures."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from weiqi import __version__
from weiqi.server.inputs import ScreenedRoute
from weiqi.server.security import Db

router = APIRouter(route_class=ScreenedRoute)


@router.get("/health", tags=["health"])
def health(db: Db) -> JSONResponse:
    """``200 {"status": "ok"}`` when the database answers, else 503."""
    ok = db.ping()
    body = {"status": "ok" if ok else "unavailable", "database": ok, "version": __version__}
    return JSONResponse(body, status_code=200 if ok else 503)


@router.get("/health/live", tags=["health"])
async def health_live(request: Request) -> JSONResponse:
    """This worker's live figures for a monitor (issue #12): ``{"readers": open room sockets
    here, "watched": games whose clock it watches, "workers": workers alive on Redis,
    "overdue": games past their deadline that no worker looked at}`` — the last two ``null``
    without Redis. Alert on ``overdue`` above 0 and on ``workers`` below the number started."""
    from weiqi.server.routes.live import rooms

    return JSONResponse(await rooms(request.app).figures())
