"""Public pages and their JSON kept per event version, so that a hall full of players
refreshing the standings after a round is published costs one computation per write.

An endpoint marked :func:`cached_page` (below its ``@router.get(…)`` line) is answered from the
cache when the reader is anonymous (not logged in, no message waiting): what such a reader sees
depends only on the event's stored data, the page's address and the language. A page is kept
under (site version, event id, language, path, query) with the event's version it was derived
from, and served only while that is still the event's version; the versions change in the same
transaction as every write to the event (``store.versions``), and the request reads them before
anything else, so a page kept under a version is never older than that version: the first read
after a write computes the page again, and replaces the old one (one copy a page, however many
writes). Logged-in readers (organisers, referees, coaches: they
may see more, and pages name them) are never served from the cache, nor is their page kept.

- Pages are rendered with :data:`~weiqi.server.templating.CSRF_PLACEHOLDER` instead of the
  reader's CSRF token; each response gets the reader's own.
- ``ETag`` from the key and the version (and the reader's CSRF token, which a page holds):
  ``If-None-Match``
  with the current one is a ``304``. ``Cache-Control: no-cache`` (a browser asks again every
  time, cheaply), ``public`` for JSON, ``private`` for pages (they hold the token). A
  logged-in session's responses keep ``no-store`` (``SecurityHeaders``).
- Where: :class:`MemoryPages`, an LRU of bounded size in the process (the default), or
  :class:`RedisPages` with ``WEIQI_REDIS_URL`` so that every worker shares one copy.
  ``WEIQI_PAGE_CACHE=off`` turns the cache off (``weiqi serve``; ``create_app(cache_pages=False)``).

>>> pages = MemoryPages(max_bytes=10)
>>> pages.put("a", Page(b"123456", (), html=False, version=1))
>>> pages.put("b", Page(b"7890", (), html=False, version=1))
>>> pages.get("a").body
b'123456'
>>> pages.put("c", Page(b"xyz", (), html=False, version=1))  # over 10 bytes: the least recent
>>> pages.get("b") is None, pages.get("a") is not None
(True, True)
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import redis
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from weiqi.server.security import (
    csrf_token,
    current_user,
    database,
    has_flashes,
    session_csrf,
)
from weiqi.server.templating import CSRF_PLACEHOLDER, RENDER_FOR_CACHE, locale_of
from weiqi.services.public import event_version

__all__ = [
    "PUBLIC_RESPONSE",
    "MemoryPages",
    "Page",
    "PageCache",
    "Pages",
    "RedisPages",
    "cached_page",
    "is_cached",
    "wrap",
]

F = TypeVar("F", bound=Callable[..., Any])
Handler = Callable[[Request], Coroutine[Any, Any, Response]]

_MARK = "__weiqi_cached_page__"
PUBLIC_RESPONSE = "weiqi_public_response"
"""The ``request.state`` flag of a response meant for anyone: ``SecurityHeaders`` leaves its
``Cache-Control`` as it is even when the (anonymous) reader has a session cookie."""
_PLACEHOLDER = str(CSRF_PLACEHOLDER).encode()
_KEPT_HEADERS = frozenset({"content-type", "content-disposition", "vary"})
_VARY = "Accept-Language, Cookie"
MEMORY_BYTES = 64 * 1024 * 1024
"""The default size of the in-process cache: about 400 pages of a 500-player event."""
REDIS_SECONDS = 24 * 3600
"""How long Redis keeps a page nobody reads (a page read again is replaced at its next version,
so there is one copy a page)."""


def cached_page(endpoint: F) -> F:
    """Mark a GET endpoint of an ``{event_id}`` whose answer to an anonymous reader depends
    only on the event's stored data, the address and the language (see the module). Like
    every page, it reads from one snapshot of the database (``inputs.ScreenedRoute``), so a
    page kept under a version is what one state of the event was."""
    setattr(endpoint, _MARK, True)
    return endpoint


def is_cached(endpoint: Callable[..., Any]) -> bool:
    """Whether :func:`cached_page` marked ``endpoint``."""
    return getattr(endpoint, _MARK, False) is True


@dataclass(frozen=True)
class Page:
    """A kept response: its body, the headers that describe it, whether it is a page (with
    the CSRF placeholder in it), and the event version it was derived from."""

    body: bytes
    headers: tuple[tuple[str, str], ...]
    html: bool
    version: int

    def to_bytes(self) -> bytes:
        meta = {"headers": self.headers, "html": self.html, "version": self.version}
        return json.dumps(meta).encode() + b"\n" + self.body

    @classmethod
    def from_bytes(cls, data: bytes) -> Page:
        head, _, body = data.partition(b"\n")
        meta = json.loads(head)
        headers = tuple((k, v) for k, v in meta["headers"])
        return cls(body, headers, bool(meta["html"]), int(meta["version"]))


class Pages(Protocol):
    """Where pages are kept."""

    def get(self, key: str) -> Page | None: ...

    def put(self, key: str, page: Page) -> None: ...


class MemoryPages:
    """The pages of one process, the least recently read dropped beyond ``max_bytes``."""

    def __init__(self, max_bytes: int = MEMORY_BYTES) -> None:
        self.max_bytes = max_bytes
        self._pages: OrderedDict[str, Page] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, key: str) -> Page | None:
        with self._lock:
            page = self._pages.get(key)
            if page is not None:
                self._pages.move_to_end(key)
            return page

    def put(self, key: str, page: Page) -> None:
        with self._lock:
            old = self._pages.pop(key, None)
            if old is not None:
                self._bytes -= len(old.body)
            self._pages[key] = page
            self._bytes += len(page.body)
            while self._bytes > self.max_bytes and len(self._pages) > 1:
                _, dropped = self._pages.popitem(last=False)
                self._bytes -= len(dropped.body)


class RedisPages:
    """The pages shared by every worker on one Redis. Redis out of reach is a miss, never an
    error: the page is computed as if there were no cache."""

    def __init__(
        self, client: redis.Redis, prefix: str = "weiqi:page:", seconds: int = REDIS_SECONDS
    ) -> None:
        self._client = client
        self._prefix = prefix
        self._seconds = seconds

    @classmethod
    def from_url(cls, url: str) -> RedisPages:
        return cls(redis.Redis.from_url(url))

    def get(self, key: str) -> Page | None:
        try:
            data = self._client.get(self._prefix + key)
        except redis.RedisError:
            return None
        return Page.from_bytes(data) if isinstance(data, bytes) else None

    def put(self, key: str, page: Page) -> None:
        with contextlib.suppress(redis.RedisError):
            self._client.set(self._prefix + key, page.to_bytes(), ex=self._seconds)


@dataclass(frozen=True)
class _Lookup:
    key: str
    """Where the page is kept (whatever its version)."""
    version: int
    """The event's version now."""
    page: Page | None
    """The kept page if it is of that version."""


def wrap(handler: Handler) -> Handler:
    """A route's ``handler`` (of an endpoint marked :func:`cached_page`), answering anonymous
    readers from the application's cache (``app.state.page_cache``; ``None``: no cache)."""

    async def serve(request: Request) -> Response:
        cache: PageCache | None = getattr(request.app.state, "page_cache", None)
        if cache is None:
            return await handler(request)
        return await cache.serve(request, handler)

    return serve


class PageCache:
    """Serves the endpoints marked :func:`cached_page` from ``pages``."""

    def __init__(self, pages: Pages) -> None:
        self.pages = pages

    async def serve(self, request: Request, handler: Handler) -> Response:
        """The answer to ``request``: kept, or computed by ``handler`` (and kept)."""
        lookup = await run_in_threadpool(self._look_up, request)
        if lookup is None:
            return await handler(request)
        if lookup.page is None:
            response = await self._render(request, handler)
            page = _keep(response, lookup.version)
            if page is None:
                return _with_token(request, response)
            await run_in_threadpool(self.pages.put, lookup.key, page)
        else:
            page = lookup.page
        return _respond(request, lookup, page)

    def _look_up(self, request: Request) -> _Lookup | None:
        """The key and the kept page of an anonymous reader's request; ``None`` for a reader
        the cache does not serve. A ``304`` needs no page: ``page`` is then left out."""
        raw = str(request.path_params.get("event_id", ""))
        if not raw.isdigit():
            return None
        if current_user(request) is not None or has_flashes(request):
            return None
        version = event_version(database(request), int(raw))
        if version is None:
            return None
        query = request.url.query
        text = f"{version.site}.{raw}.{locale_of(request)}.{request.url.path}?{query}"
        key = hashlib.sha256(text.encode()).hexdigest()
        if _etag(key, version.event, session_csrf(request)) in _if_none_match(request):
            return _Lookup(key, version.event, _NOT_MODIFIED)
        page = self.pages.get(key)
        current = page if page is not None and page.version == version.event else None
        return _Lookup(key, version.event, current)

    @staticmethod
    async def _render(request: Request, handler: Handler) -> Response:
        setattr(request.state, RENDER_FOR_CACHE, True)
        try:
            return await handler(request)
        finally:  # an error page rendered after this is the reader's own
            setattr(request.state, RENDER_FOR_CACHE, False)


_NOT_MODIFIED = Page(b"", (), html=False, version=0)
"""Stands for the page a ``304`` leaves out."""


def _keep(response: Response, version: int) -> Page | None:
    """What to keep of a route's response (derived from the event's ``version``): a complete
    200 without cookies of its own."""
    body = getattr(response, "body", None)
    if response.status_code != 200 or not isinstance(body, bytes):
        return None
    if "set-cookie" in response.headers:
        return None
    headers = tuple((k, v) for k, v in response.headers.items() if k in _KEPT_HEADERS)
    html = response.headers.get("content-type", "").startswith("text/html")
    return Page(body, headers, html, version)


def _with_token(request: Request, response: Response) -> Response:
    """A response not kept, rendered with the placeholder all the same (an HTML answer other
    than 200): the reader's token put in."""
    body = getattr(response, "body", None)
    if isinstance(body, bytes) and _PLACEHOLDER in body:
        response.body = body.replace(_PLACEHOLDER, csrf_token(request).encode())
        response.headers["content-length"] = str(len(response.body))
    return response


def _respond(request: Request, lookup: _Lookup, page: Page) -> Response:
    token = csrf_token(request) if page.html else session_csrf(request)
    etag = _etag(lookup.key, lookup.version, token)
    headers = {"etag": etag, "cache-control": _cache_control(request), "vary": _VARY}
    setattr(request.state, PUBLIC_RESPONSE, True)
    if page is _NOT_MODIFIED:
        return Response(status_code=304, headers=headers)
    body = page.body.replace(_PLACEHOLDER, token.encode()) if page.html and token else page.body
    return Response(body, headers={**dict(page.headers), **headers})


def _cache_control(request: Request) -> str:
    # A page holds the reader's CSRF token: only the reader's own browser may keep it.
    return "public, no-cache" if request.url.path.startswith("/api/") else "private, no-cache"


def _etag(key: str, version: int, token: str | None) -> str:
    tag = hashlib.sha256(f"{key}.{version}.{token or ''}".encode()).hexdigest()
    return f'"{tag[:32]}"'


def _if_none_match(request: Request) -> set[str]:
    header = request.headers.get("if-none-match", "")
    return {tag.strip().removeprefix("W/") for tag in header.split(",") if tag.strip()}
