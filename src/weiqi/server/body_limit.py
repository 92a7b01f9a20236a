"""No request body larger than we accept is ever read: 413 before the body, not after parsing it.

:class:`BodyLimit` is a pure ASGI middleware around the application (``create_app`` adds it
inside the session middleware, so that an error page knows its reader). A request whose
``Content-Length`` is over the limit (``weiqi.text.MAX_REQUEST_BYTES``) is answered 413 at once:
the application never runs and not a byte of the body is read. A body without a length (chunked,
streamed) is counted as the application reads it; the first ``receive`` that passes the limit
raises :class:`RequestTooLarge` instead of handing the bytes on, so the reader (a form parser,
``request.body()``) stops there and the service behind it never runs. Whatever the application
would answer then (FastAPI makes a failed body read a 400) is replaced by the 413. The answer is
:func:`weiqi.server.errors.request_too_large`: the API's ``{error, code, args, message}`` or an
error page, in the reader's language, with ``Connection: close`` (the rest of the body is never
read).

>>> import asyncio
>>> from starlette.types import Message
>>> async def app(scope: Scope, receive: Receive, send: Send) -> None:
...     raise AssertionError("the application ran")
>>> async def receive() -> Message:
...     raise AssertionError("the body was read")
>>> sent: list[Message] = []
>>> async def send(message: Message) -> None:
...     sent.append(message)
>>> scope = {"type": "http", "method": "POST", "path": "/api/x", "query_string": b"",
...          "headers": [(b"content-length", b"52428800")]}
>>> asyncio.run(BodyLimit(app, limit=1024)(scope, receive, send))
>>> sent[0]["status"]
413
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from weiqi.server.errors import request_too_large
from weiqi.text import MAX_REQUEST_BYTES


class RequestTooLarge(Exception):
    """Raised by the ``receive`` of a request whose body has passed the limit (and so out of
    whatever was reading it); :class:`BodyLimit` answers 413."""


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413 before reading them (see the module).

    ``BodyLimit(app)`` has the site's limit, :data:`weiqi.text.MAX_REQUEST_BYTES`.
    """

    def __init__(self, app: ASGIApp, *, limit: int = MAX_REQUEST_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if _declared_length(scope) > self.limit:
            await self._refuse(scope, send)
            return
        received = 0
        over = False
        answered = False  # the application had started its own answer when the limit was passed

        async def limited_receive() -> Message:
            nonlocal received, over
            if over:  # whoever ignored the first refusal reads nothing more
                raise RequestTooLarge
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    over = True
                    raise RequestTooLarge
            return message

        async def checked_send(message: Message) -> None:
            nonlocal answered
            if not over:
                if message["type"] == "http.response.start":
                    answered = True
                await send(message)
            # Past the limit, the application's own answer (FastAPI's 400 for a body it could
            # not read, an error page) is dropped: the 413 below is sent instead.

        try:
            await self.app(scope, limited_receive, checked_send)
        except RequestTooLarge:
            if answered:
                raise
        if over and not answered:
            await self._refuse(scope, send)

    async def _refuse(self, scope: Scope, send: Send) -> None:
        response = request_too_large(Request(scope), self.limit)
        await response(scope, _nothing, send)


def _declared_length(scope: Scope) -> int:
    """The request's ``Content-Length`` (0 without one; the server refuses a malformed one)."""
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            digits = value.strip()
            if not digits.isdigit():
                return 0
            # More digits than any limit has: no need to convert (Python's int-string limit).
            return int(digits) if len(digits) <= 18 else 10**18
    return 0


async def _nothing() -> Message:
    # The 413 is sent without reading the body; a response that waits for a disconnect sees one.
    return {"type": "http.disconnect"}
