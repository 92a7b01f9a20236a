"""The application of one worker of ``weiqi serve --workers N`` (issue #12).

uvicorn starts each worker process from an import string, so the worker builds its application
from the environment the command set before starting them: ``WEIQI_DATABASE_URL`` (already
migrated by the command, once), ``WEIQI_REDIS_URL`` (the pushes, presence, login limits and
page cache shared by every worker), ``WEIQI_HTTPS_ONLY``, ``WEIQI_PAGE_CACHE``,
``WEIQI_SIGNUP`` and ``WEIQI_DB_POOL`` (the connections to PostgreSQL each worker may hold:
its share of ``--db-connections``). Every worker reads the same database, so they share the
session cookies' key and every record.

>>> import os, tempfile
>>> from unittest import mock
>>> from weiqi.store.database import Database
>>> url = f"sqlite:///{tempfile.mkdtemp()}/w.sqlite3"
>>> Database(url).upgrade()
>>> with mock.patch.dict(os.environ, {"WEIQI_DATABASE_URL": url}):
...     app = worker_app()
>>> app.state.db.url == url
True
>>> import gc; gc.set_threshold(700, 10, 10); gc.unfreeze()  # (the doctest's process as it was)
"""

from __future__ import annotations

import gc
import os

from fastapi import FastAPI

_OFF = frozenset({"off", "0", "no", "false"})

#: The cyclic garbage collector's thresholds in a server process: the first generation is
#: collected every 50,000 allocations net (Python's default, 700, is for scripts), the others
#: as usual.
GC_THRESHOLDS = (50_000, 20, 20)


def tune_gc() -> None:
    """Set up the garbage collector of a server process, once its modules are loaded: what is
    already there (the application, its templates, SQLAlchemy's mappings) is frozen out of
    every collection, and collections come less often. A worker holding thousands of sockets
    otherwise spent most of its time in the collector: at 1,000 live games and 10,000
    spectators (``bench/live.py``) two thirds of its samples were collections set off by a
    move's allocations, each walking the whole heap.

    >>> import gc
    >>> before = gc.get_threshold()
    >>> tune_gc(); gc.get_threshold() == GC_THRESHOLDS
    True
    >>> gc.set_threshold(*before); gc.unfreeze()
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def worker_app() -> FastAPI:
    """The application on the environment's database and Redis (see the module's docstring)."""
    from weiqi.server.app import create_app
    from weiqi.services.signup import SignupPolicy
    from weiqi.store.database import DEFAULT_URL, POOL_SIZE, Database

    # the worker's share of the command's PostgreSQL connections (``connection_share``)
    pool = int(os.environ.get("WEIQI_DB_POOL") or POOL_SIZE)
    app = create_app(
        Database(os.environ.get("WEIQI_DATABASE_URL") or DEFAULT_URL, connections=pool),
        https_only=os.environ.get("WEIQI_HTTPS_ONLY", "") == "1",
        redis_url=os.environ.get("WEIQI_REDIS_URL") or None,
        cache_pages=os.environ.get("WEIQI_PAGE_CACHE", "on").lower() not in _OFF,
        open_signup=SignupPolicy(os.environ.get("WEIQI_SIGNUP") or "open") is SignupPolicy.OPEN,
    )
    tune_gc()
    return app
