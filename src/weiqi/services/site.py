"""Settings of the installation kept in the database.

>>> from weiqi.store.database import Database
>>> db = Database("sqlite://"); db.upgrade()
>>> key = secret_key(db)
>>> len(key) >= 32 and secret_key(db) == key
True
>>> overview = site_overview(db, Actor.local())
>>> [u.username for u in overview.users], overview.events, overview.grants
([], [], [])
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from weiqi.errors import Conflict
from weiqi.referee.signature import record_key
from weiqi.services.accounts import RoleGrant, UserInfo, grant_info, list_users
from weiqi.services.actor import Actor
from weiqi.services.events import EventInfo, list_events
from weiqi.services.permissions import Action, require
from weiqi.store.database import Database
from weiqi.store.models import EventRole, SiteSetting, User


@dataclass(frozen=True)
class SiteOverview:
    """What the administration page shows."""

    users: list[UserInfo]
    events: list[EventInfo]
    grants: list[RoleGrant]


def site_overview(db: Database, actor: Actor) -> SiteOverview:
    """Users, events and every role grant; for site administrators only."""
    with db.transaction() as session:
        require(session, actor, Action.ADMINISTER_SITE)
        rows = session.scalars(
            select(EventRole).join(User).order_by(EventRole.event_id, EventRole.role, User.username)
        )
        grants = [grant_info(r) for r in rows]
    return SiteOverview(users=list_users(db, actor), events=list_events(db), grants=grants)


def secret_key(db: Database) -> str:
    """The key that signs session cookies: generated on first use, then kept, so sessions
    survive a restart (and every worker signs with the same key: when two servers start at
    once, the second takes the key the first stored). Migration 0009 stores it if no server
    has yet, to sign the game records already stored."""
    try:
        with db.transaction() as session:
            return _stored_secret(session)
    except Conflict:  # the key's row, stored first by another server (``Database.transaction``)
        with db.transaction() as session:
            stored = session.get(SiteSetting, "secret_key")
            assert stored is not None
            return stored.value


def _stored_secret(session: Session) -> str:
    row = session.get(SiteSetting, "secret_key")
    if row is None:
        row = SiteSetting(key="secret_key", value=secrets.token_urlsafe(48))
        session.add(row)
    return row.value


def record_signing_key(session: Session) -> bytes:
    """The key that signs the heads of the stored game records, in the caller's transaction:
    derived from the site's secret (``weiqi.referee.signature.record_key``), never the secret
    itself, so records and session cookies do not share a key.

    >>> from weiqi.store.database import Database
    >>> db = Database("sqlite://"); db.upgrade()
    >>> with db.transaction() as session:
    ...     key = record_signing_key(session)
    >>> key == record_key(secret_key(db)) != secret_key(db).encode()
    True
    """
    return record_key(_stored_secret(session))
