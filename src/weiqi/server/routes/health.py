"""``GET /health`` for load balancers and monitors."""

from __future__ import annotations

from fastapi import APIRouter
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
