"""The app on a real database, a test client, and logged-in helpers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from tests.store.conftest import (  # noqa: F401  (fixtures shared with the store tests)
    cheap_password_hashes,
    database,
    database_url,
    postgres_url,
    sqlite_url,
)
from weiqi.server.app import create_app
from weiqi.services.accounts import ensure_site_admin
from weiqi.store.database import Database

ADMIN_PASSWORD = "admin password"


@pytest.fixture
def client(database: Database) -> Iterator[TestClient]:  # noqa: F811
    """A client of the app on a fresh database whose administrator is ``admin``."""
    ensure_site_admin(database, ADMIN_PASSWORD)
    with TestClient(create_app(database, secret_key="test secret")) as c:
        yield c


def csrf(client: TestClient) -> str:
    """The session's CSRF token (as a script would fetch it)."""
    token: str = client.get("/api/session").json()["csrf_token"]
    return token


def api_login(client: TestClient, username: str, password: str) -> None:
    response = client.post(
        "/api/session",
        json={"username": username, "password": password},
        headers={"X-CSRF-Token": csrf(client)},
    )
    assert response.status_code == 200, response.text
