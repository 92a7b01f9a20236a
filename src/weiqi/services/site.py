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

from weiqi.errors import Conflict
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
    once, the second takes the key the first stored)."""
    try:
        with db.transaction() as session:
            row = session.get(SiteSetting, "secret_key")
            if row is None:
                row = SiteSetting(key="secret_key", value=secrets.token_urlsafe(48))
                session.add(row)
            return row.value
    except Conflict:  # the key's row, stored first by another server (``Database.transaction``)
        with db.transaction() as session:
            stored = session.get(SiteSetting, "secret_key")
            assert stored is not None
            return stored.value
