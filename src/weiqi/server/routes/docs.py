"""``/docs``: the interactive API documentation (Swagger UI), served entirely from this server.

FastAPI's own page loads Swagger UI from a CDN and starts it with an inline script; a hall without
internet would see a blank page, and our Content-Security-Policy forbids inline script. So the
assets come from the ``fastapi-offline`` package (mounted at ``/static/swagger``) and the start-up
is ``static/api-docs.js``.
"""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

from weiqi.server.inputs import ScreenedRoute

router = APIRouter(route_class=ScreenedRoute, include_in_schema=False)

PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>weiqi · API</title>
  <link rel="stylesheet" href="/static/swagger/swagger-ui.css">
  <link rel="icon" href="/static/swagger/favicon.png">
</head>
<body>
<div id="swagger-ui" data-openapi="/openapi.json"></div>
<script src="/static/swagger/swagger-ui-bundle.js"></script>
<script src="/static/api-docs.js"></script>
</body>
</html>
"""


@router.get("/docs", response_class=HTMLResponse)
def api_docs() -> HTMLResponse:
    """The Swagger UI page for ``/openapi.json``."""
    return HTMLResponse(PAGE)
