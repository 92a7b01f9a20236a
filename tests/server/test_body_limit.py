"""No request body larger than ``MAX_REQUEST_BYTES`` is read (``server/body_limit.py``): a request
that says it is larger gets 413 before a byte of its body is read, a chunked one as soon as it
passes the limit; in the API's error shape or as an error page, in the reader's language, and
nothing is stored. A body of exactly the limit is processed as any other."""

from __future__ import annotations

import json
import select as io_select
import socket
import time
from collections.abc import Iterator
from contextlib import closing, suppress
from pathlib import Path

import httpx
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from tests.server.conftest import ADMIN_PASSWORD, api_login, csrf
from tests.server.test_race_http import _admin, _server
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.store.database import Database
from weiqi.store.tournament import PlayerRow
from weiqi.text import MAX_REQUEST_BYTES
from weiqi.tournament.settings import EventSettings, System

LOCAL = Actor.local()
CLAIMED = 50 * 1024 * 1024  # what an oversized request says it holds
CODE = "The request is too large (at most %(limit)s MB)."
LIMIT_MB = MAX_REQUEST_BYTES // (1024 * 1024)
BOUNDARY = "weiqiboundary"


def _event(database: Database) -> int:
    return create_event(database, LOCAL, "春季赛", EventSettings(System.SWISS, 3)).id


def _players(database: Database, event: int) -> int:
    with database.transaction() as session:
        query = select(func.count()).select_from(PlayerRow).where(PlayerRow.event_id == event)
        return int(session.scalar(query) or 0)


def _admin_headers(client: TestClient) -> dict[str, str]:
    api_login(client, "admin", ADMIN_PASSWORD)
    return {"X-CSRF-Token": csrf(client)}


def _json_padded(csv: str, size: int) -> bytes:
    """``{"csv": csv}`` followed by spaces (JSON allows them) to exactly ``size`` bytes."""
    body = json.dumps({"csv": csv}).encode()
    return body + b" " * (size - len(body))


def _multipart(fields: dict[str, str], files: dict[str, bytes]) -> bytes:
    parts = [
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
        for k, v in fields.items()
    ]
    parts += [
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{k}"; filename="{k}.csv"\r\n'
        f"Content-Type: text/csv\r\n\r\n".encode()
        + content
        + b"\r\n"
        for k, content in files.items()
    ]
    return b"".join(parts) + f"--{BOUNDARY}--\r\n".encode()


def _multipart_padded(fields: dict[str, str], csv: bytes, size: int) -> bytes:
    """A page's import form with ``csv`` as its file and a second file of padding (which the
    form ignores) so that the whole body is exactly ``size`` bytes."""
    bare = len(_multipart(fields, {"file": csv, "padding": b""}))
    return _multipart(fields, {"file": csv, "padding": b"#" * (size - bare)})


MULTIPART = {"content-type": f"multipart/form-data; boundary={BOUNDARY}"}


def _chunks(total: int, size: int = 64 * 1024) -> Iterator[bytes]:
    sent = 0
    while sent < total:
        yield b"x" * min(size, total - sent)
        sent += size


def _assert_too_large(response: httpx.Response, message: str) -> None:
    assert response.status_code == 413, response.text
    body = response.json()
    assert set(body) == {"error", "code", "args", "message"}, body
    assert body["error"] == "request_too_large"
    assert (body["code"], body["args"]) == (CODE, {"limit": LIMIT_MB})
    assert body["message"] == message
    assert response.headers["connection"] == "close"


def test_a_declared_length_over_the_limit_is_413_without_reading_the_body(
    client: TestClient, database: Database
) -> None:
    """The request claims 50 MB and holds a few bytes: read, they would be bad JSON (422) or a
    bad form; refused by the header alone, it is 413, on the API and the page."""
    event = _event(database)
    headers = {**_admin_headers(client), "content-length": str(CLAIMED)}
    api = f"/api/events/{event}/players/import"
    english = client.post(api, content=b'{"csv": "na', headers={**headers, "accept-language": "en"})
    _assert_too_large(english, "The request is too large (at most 3 MB).")
    chinese = client.post(
        api, content=b'{"csv": "na', headers={**headers, "accept-language": "zh-CN"}
    )
    _assert_too_large(chinese, "请求过大（上限 3 MB）")

    page = client.post(
        f"/events/{event}/manage/players/import",
        content=f"--{BOUNDARY}\r\n".encode(),
        headers={**headers, **MULTIPART, "accept-language": "zh-CN"},
    )
    assert page.status_code == 413
    assert page.headers["content-type"].startswith("text/html")
    assert "请求过大（上限 3 MB）" in page.text and "content-security-policy" in page.headers
    assert _players(database, event) == 0


def test_a_chunked_body_over_the_limit_is_413_and_nothing_is_stored(
    client: TestClient, database: Database
) -> None:
    """No Content-Length (chunked): counted as it is read, refused once past the limit."""
    event = _event(database)
    headers = _admin_headers(client)
    over = _json_padded("name\nLi\nWang\n", MAX_REQUEST_BYTES + 1)
    response = client.post(
        f"/api/events/{event}/players/import",
        content=iter([over[:1024], over[1024:]]),  # a generator: sent chunked
        headers={**headers, "content-type": "application/json", "accept-language": "zh-CN"},
    )
    assert "content-length" not in response.request.headers
    _assert_too_large(response, "请求过大（上限 3 MB）")

    # A form whose file never ends: the parser would read it all, the limit stops it.
    head = _multipart({"csrf_token": headers["X-CSRF-Token"]}, {"file": b"name\n"})
    page = client.post(
        f"/events/{event}/manage/players/import",
        content=iter([head[: -len(f"\r\n--{BOUNDARY}--\r\n")], *_chunks(MAX_REQUEST_BYTES)]),
        headers={**headers, **MULTIPART},
    )
    assert page.status_code == 413 and "请求过大（上限 3 MB）" in page.text
    assert _players(database, event) == 0


def test_a_body_of_exactly_the_limit_is_processed(client: TestClient, database: Database) -> None:
    """The limit is the largest body read: one byte more is 413, the limit itself imports."""
    event = _event(database)
    headers = {**_admin_headers(client), "content-type": "application/json"}
    url = f"/api/events/{event}/players/import"
    over = client.post(
        url, content=_json_padded("name\nLi\n", MAX_REQUEST_BYTES + 1), headers=headers
    )
    assert over.status_code == 413
    body = _json_padded("name\nLi\nWang\n", MAX_REQUEST_BYTES)
    response = client.post(url, content=body, headers=headers)
    assert response.status_code == 200, response.text
    assert response.json() == {"imported": 2}

    form = _multipart_padded(
        {"csrf_token": headers["X-CSRF-Token"]}, "name\n张三\n".encode(), MAX_REQUEST_BYTES
    )
    assert len(form) == MAX_REQUEST_BYTES
    page = client.post(
        f"/events/{event}/manage/players/import",
        content=form,
        headers={"X-CSRF-Token": headers["X-CSRF-Token"], **MULTIPART},
        follow_redirects=False,
    )
    assert page.status_code == 303, page.text
    assert _players(database, event) == 3


def _raw_post(url: str, path: str, head: dict[str, str], body: bytes) -> tuple[float, bytes]:
    """Send a request's head and ``body`` on a bare socket (so that nothing completes or checks
    the body as an HTTP client would) and read the answer: (seconds it took, the answer)."""
    address = httpx.URL(url)
    lines = [f"POST {path} HTTP/1.1", f"Host: {address.host}:{address.port}"]
    lines += [f"{k}: {v}" for k, v in head.items()]
    start = time.monotonic()
    with socket.create_connection((address.host, address.port or 80), timeout=20) as s:
        s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
    return time.monotonic() - start, answer


def _raw_chunked(url: str, path: str, head: dict[str, str], total: int) -> tuple[int, bytes]:
    """Stream ``total`` bytes chunked on a bare socket until the server answers or stops
    reading: (bytes sent, the answer)."""
    address = httpx.URL(url)
    lines = [f"POST {path} HTTP/1.1", f"Host: {address.host}:{address.port}"]
    lines += [f"{k}: {v}" for k, v in head.items()] + ["Transfer-Encoding: chunked"]
    sent = 0
    with socket.create_connection((address.host, address.port or 80), timeout=5) as s:
        s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        for chunk in _chunks(total):
            if io_select.select([s], [], [], 0)[0]:
                break  # the answer has come
            try:
                s.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            except (TimeoutError, OSError):
                break  # the server reads no more (or has closed the connection)
            sent += len(chunk)
        answer = b""
        with suppress(ConnectionResetError):
            while chunk := s.recv(65536):
                answer += chunk
    return sent, answer


def test_a_real_server_answers_an_oversized_claim_at_once(tmp_path: Path) -> None:
    """Against ``weiqi serve``: a request claiming 50 MB and sending 11 bytes is answered 413 in
    well under the 20 s the socket would wait for a body that never comes, and the connection
    closed; nothing is imported."""
    db_url = f"sqlite:///{tmp_path / 'weiqi.sqlite3'}"
    with _server(db_url, tmp_path) as url, closing(_admin(url, "zh-CN")) as admin:
        event = _event(Database(db_url))
        head = {
            "Cookie": "; ".join(f"{k}={v}" for k, v in admin.cookies.items()),
            "X-CSRF-Token": admin.headers["X-CSRF-Token"],
            "Accept-Language": "zh-CN",
            "Content-Type": "application/json",
            "Content-Length": str(CLAIMED),
        }
        path = f"/api/events/{event}/players/import"
        seconds, answer = _raw_post(url, path, head, b'{"csv": "na')
        status, _, rest = answer.partition(b"\r\n")
        assert status == b"HTTP/1.1 413 Request Entity Too Large", answer[:500]
        assert seconds < 10, seconds
        body = json.loads(rest.partition(b"\r\n\r\n")[2])
        assert (body["error"], body["message"]) == ("request_too_large", "请求过大（上限 3 MB）")
        assert _players(Database(db_url), event) == 0

        # Chunked, 50 MB: the server stops reading soon after the limit (the rest of what was
        # sent is in the sockets' buffers), answers 413 and closes.
        del head["Content-Length"]
        sent, answer = _raw_chunked(url, path, head, CLAIMED)
        assert answer.startswith(b"HTTP/1.1 413 "), answer[:500]
        assert sent < CLAIMED // 2, sent
        assert _players(Database(db_url), event) == 0
