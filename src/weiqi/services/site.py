"""The site: its administration overview and its secret (kept outside the database).

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

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from weiqi.services.accounts import RoleGrant, UserInfo, grant_info, list_users
from weiqi.services.actor import Actor
from weiqi.services.events import EventInfo, list_events
from weiqi.services.permissions import Action, require
from weiqi.store.database import Database
from weiqi.store.models import EventRole, SiteSetting, User
from weiqi.store.seals import signing_key
from weiqi.store.site_key import site_key

#: The ``site_settings`` key of :func:`site_id`.
SITE_ID = "site_id"


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
    """The key that signs session cookies: the site's secret (``store.site_key``: from
    ``$WEIQI_SECRET_KEY`` or the key file, never the database), so sessions survive a restart
    and every worker signs with the same key."""
    return site_key(db.engine).session_secret


def site_id(db: Database) -> str:
    """The database's own random id (made by migration 0025): what tells this site's Redis
    keys apart from another site's on the same Redis, although both may share one secret (one
    key file on one machine). Every worker of the site reads the same.

    >>> from weiqi.store.database import Database
    >>> one, two = Database("sqlite://"), Database("sqlite://")
    >>> one.upgrade(); two.upgrade()
    >>> len(site_id(one)) == 32 and site_id(one) == site_id(one) != site_id(two)
    True
    """
    with db.transaction() as session:
        found = session.get(SiteSetting, SITE_ID)
        # none only in a database not upgraded to 0025 (a test's bare tables): its secret
        # alone names its keys, as before
        return found.value if found is not None else ""


def record_signing_key(session: Session) -> bytes:
    """The key that signs the heads of the stored game records and the boards' seals, for the
    caller's transaction: derived from the site's secret (``weiqi.referee.signature.record_key``),
    never the secret itself, so records and session cookies do not share a key.
    ``RecordRefused`` when this server does not have the key the database was signed with.

    >>> from weiqi.referee.signature import record_key
    >>> from weiqi.store.database import Database
    >>> db = Database("sqlite://"); db.upgrade()
    >>> with db.transaction() as session:
    ...     key = record_signing_key(session)
    >>> key == record_key(secret_key(db)) != secret_key(db).encode()
    True
    """
    return signing_key(session)
