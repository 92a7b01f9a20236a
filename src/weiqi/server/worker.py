"""The application of one worker of ``weiqi serve --workers N`` (issue #12).

uvicorn starts each worker process from an import string, so the worker builds its application
from the environment the command set before starting them: ``WEIQI_DATABASE_URL`` (already
migrated by the command, once), ``WEIQI_REDIS_URL`` (the pushes, presence, login limits and
page cache shared by every worker), ``WEIQI_HTTPS_ONLY`` and ``WEIQI_PAGE_CACHE``. Every worker
reads the same database, so they share the session cookies' key and every record.

>>> import os, tempfile
>>> from unittest import mock
>>> from weiqi.store.database import Database
>>> url = f"sqlite:///{tempfile.mkdtemp()}/w.sqlite3"
>>> Database(url).upgrade()
>>> with mock.patch.dict(os.environ, {"WEIQI_DATABASE_URL": url}):
...     app = worker_app()
>>> app.state.db.url == url
True
"""

from __future__ import annotations

import os

from fastapi import FastAPI

_OFF = frozenset({"off", "0", "no", "false"})


def worker_app() -> FastAPI:
    """The application on the environment's database and Redis (see the module's docstring)."""
    from weiqi.server.app import create_app
    from weiqi.store.database import DEFAULT_URL, Database

    return create_app(
        Database(os.environ.get("WEIQI_DATABASE_URL") or DEFAULT_URL),
        https_only=os.environ.get("WEIQI_HTTPS_ONLY", "") == "1",
        redis_url=os.environ.get("WEIQI_REDIS_URL") or None,
        cache_pages=os.environ.get("WEIQI_PAGE_CACHE", "on").lower() not in _OFF,
    )
