"""Accounts: users, passwords (argon2), the first-run administrator, per-event roles (R-ORG-1).

>>> from weiqi.store.database import Database
>>> from weiqi.services.events import create_event
>>> from weiqi.tournament.settings import EventSettings, System
>>> db = Database("sqlite://"); db.upgrade()
>>> admin = Actor.local()
>>> li = create_user(db, admin, "Li", "correct horse", display_name="李明")
>>> li.username, li.display_name
('li', '李明')
>>> authenticate(db, "LI", "correct horse") == li
True
>>> authenticate(db, "li", "wrong") is None
True
>>> event = create_event(db, admin, "春季赛", EventSettings(System.ROUND_ROBIN))
>>> grant_role(db, admin, li.id, event.id, Role.REFEREE).role
<Role.REFEREE: 'referee'>
>>> [g.event_name for g in roles_of(db, li.id)]
['春季赛']
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from weiqi.errors import Conflict, InvalidSetting, NotFound
from weiqi.i18n import N_
from weiqi.messages import Msg
from weiqi.roles import Role
from weiqi.services.actor import Actor
from weiqi.services.events import existing_event
from weiqi.services.permissions import Action, require
from weiqi.store.database import Database
from weiqi.store.locks import lock_event
from weiqi.store.models import AuditEntry, EventRole, LoginSession, User
from weiqi.text import clean_name

ADMIN_USERNAME = "admin"
MIN_PASSWORD_LENGTH = 8  # the messages below say "8"
SESSION_LIFETIME = timedelta(days=14)
_USERNAME = re.compile(r"^[\w.-]{2,64}$")
_hasher = PasswordHasher()
# Verified against when the username is unknown, so a failed login takes as long either way.
_dummy_hash: str | None = None


def set_password_hasher(hasher: PasswordHasher) -> PasswordHasher:
    """Use ``hasher`` from now on and return the one used before. Tests use cheap parameters;
    the default is argon2-cffi's recommended argon2id profile."""
    global _hasher, _dummy_hash
    previous, _hasher, _dummy_hash = _hasher, hasher, None
    return previous


def _unknown_user_hash() -> str:
    global _dummy_hash
    if _dummy_hash is None:
        _dummy_hash = _hasher.hash("not the password of anybody")
    return _dummy_hash


@dataclass(frozen=True)
class UserInfo:
    id: int
    username: str
    display_name: str
    is_admin: bool
    must_change_password: bool
    session_epoch: int

    def actor(self) -> Actor:
        """Who the services act for. Until the generated first-run password is replaced, the
        administrator has no rights but to replace it (a leaked one-time password is worth
        nothing else)."""
        admin = self.is_admin and not self.must_change_password
        return Actor(user_id=self.id, username=self.username, is_admin=admin)


@dataclass(frozen=True)
class RoleGrant:
    user_id: int
    username: str
    display_name: str
    event_id: int
    event_name: str
    role: Role


def _info(user: User) -> UserInfo:
    return UserInfo(
        id=user.id,
        username=user.username,
        display_name=user.display_name,
        is_admin=user.is_admin,
        must_change_password=user.must_change_password,
        session_epoch=user.session_epoch,
    )


def grant_info(row: EventRole) -> RoleGrant:
    return RoleGrant(
        user_id=row.user_id,
        username=row.user.username,
        display_name=row.user.display_name,
        event_id=row.event_id,
        event_name=row.event.name,
        role=Role(row.role),
    )


def normalise_username(username: str) -> str:
    """Usernames compare case-insensitively and without surrounding blanks.

    >>> normalise_username("  Wang_Wei ")
    'wang_wei'
    """
    return username.strip().lower()


@cache
def _common_passwords() -> frozenset[str]:
    """The 30,000 most common passwords of leaked lists, as zxcvbn ships them (loaded once, on
    the first password set: the list costs 0.2 s, which a login must not pay)."""
    from zxcvbn.frequency_lists import FREQUENCY_LISTS  # type: ignore[import-untyped]

    return frozenset(FREQUENCY_LISTS["passwords"])


def _check_password(password: str, *names: str) -> None:
    """Refuse a password that is short, among the most common ones, or made of the user's name.

    >>> _check_password("correct horse battery", "li")
    >>> for bad in ("short", "password", "12345678", "wangwei2026"):
    ...     try:
    ...         _check_password(bad, "wangwei")
    ...     except InvalidSetting as err:
    ...         print(err.reason)
    must have at least 8 characters
    is one of the most common passwords; choose another
    is one of the most common passwords; choose another
    must not contain the username
    """
    if len(password) < MIN_PASSWORD_LENGTH:
        raise InvalidSetting(N_("password"), N_("must have at least 8 characters"))
    folded = password.casefold()
    if folded in _common_passwords() or "".join(folded.split()) in _common_passwords():
        raise InvalidSetting(
            N_("password"), N_("is one of the most common passwords; choose another")
        )
    for name in names:
        name = name.casefold().strip()
        if len(name) >= 3 and (name in folded or folded in name):
            raise InvalidSetting(N_("password"), N_("must not contain the username"))


def _find_user(session: Session, username: str) -> User | None:
    return session.scalar(select(User).where(User.username == normalise_username(username)))


class UsernameTaken(Conflict):
    """A username another user has: HTTP 409 ``conflict`` (as every clash with what is stored),
    and ``field`` names the form field it belongs beside.

    >>> UsernameTaken("li").message, UsernameTaken.field
    ("username 'li' is taken", 'username')
    """

    field = N_("username")

    def __init__(self, name: str) -> None:
        super().__init__(Msg("username %(name)s is taken", name=repr(name)))


def new_user_problems(username: str, password: str, display_name: str) -> dict[str, Msg]:
    """What is wrong with a new user's fields, by field (none: ``{}``) — the one rule of every
    way an account is made (:func:`create_user`, ``services.signup.sign_up``): a username of
    2–64 letters, digits, '.', '_' or '-' (any case: it is stored lower-case), a password by
    :func:`_check_password`, a display name as :func:`weiqi.text.clean_name` keeps names.

    >>> new_user_problems("Li", "correct horse", "李明")
    {}
    >>> for field, why in new_user_problems("x", "short", "").items():
    ...     print(field, why, sep=": ")
    username: use 2–64 letters, digits, '.', '_' or '-'
    password: must have at least 8 characters
    """
    problems: dict[str, Msg] = {}
    name = normalise_username(username)
    if not _USERNAME.match(name):
        problems["username"] = Msg(N_("use 2–64 letters, digits, '.', '_' or '-'"))
    try:
        clean_name("display_name", display_name, required=False)
    except InvalidSetting as err:
        problems["display_name"] = err.reason
    try:
        _check_password(password, name)
    except InvalidSetting as err:
        problems["password"] = err.reason
    return problems


def add_user(
    session: Session, username: str, password_hash: str, display_name: str, is_admin: bool = False
) -> User:
    """Store a new user in ``session``'s transaction (its fields checked by
    :func:`new_user_problems`; ``password_hash`` made by :func:`hash_password` before the
    transaction, so no lock waits for argon2); the display name defaults to the username.
    :class:`UsernameTaken` if the name is taken."""
    name = normalise_username(username)
    if _find_user(session, name) is not None:
        raise UsernameTaken(name)
    user = User(
        username=name,
        display_name=clean_name("display_name", display_name, required=False) or name,
        password_hash=password_hash,
        is_admin=is_admin,
        must_change_password=False,
        session_epoch=0,
    )
    session.add(user)
    session.flush()
    return user


def hash_password(password: str) -> str:
    """The stored (argon2) form of ``password``."""
    return _hasher.hash(password)


def create_user(
    db: Database,
    actor: Actor,
    username: str,
    password: str,
    display_name: str = "",
    is_admin: bool = False,
) -> UserInfo:
    """Create a user; only a site administrator may. ``InvalidSetting`` naming the first field
    that :func:`new_user_problems` refuses; :class:`UsernameTaken` if the name is taken."""
    problems = new_user_problems(username, password, display_name)
    if problems:
        field, reason = next(iter(problems.items()))
        raise InvalidSetting(field, reason)
    password_hash = hash_password(password)
    with db.transaction() as session:
        require(session, actor, Action.CREATE_USER)
        return _info(add_user(session, username, password_hash, display_name, is_admin))


def authenticate(db: Database, username: str, password: str) -> UserInfo | None:
    """The user if the password is right, else ``None`` (no hint which part was wrong)."""
    with db.transaction() as session:
        user = _find_user(session, username)
        try:
            _hasher.verify(user.password_hash if user else _unknown_user_hash(), password)
        except (VerificationError, InvalidHashError):
            return None
        if user is None:
            return None
        if user.must_change_password:
            if user.one_time_password_used:  # lost its session? `weiqi users set-password`
                return None
            user.one_time_password_used = True
        if _hasher.check_needs_rehash(user.password_hash):
            user.password_hash = _hasher.hash(password)
        return _info(user)


def user_named(db: Database, username: str) -> UserInfo:
    """The user called ``username`` (any case); ``NotFound`` if there is none."""
    with db.transaction() as session:
        user = _find_user(session, username)
        if user is None:
            raise NotFound(Msg("no user %(username)s", username=repr(normalise_username(username))))
        return _info(user)


def _set_password(session: Session, user: User, new: str) -> None:
    """``user``'s password becomes ``new`` (no longer one to change), and every session of
    theirs ends: whoever knew the old one is logged out, on every device."""
    user.password_hash = _hasher.hash(new)
    user.must_change_password = False
    user.session_epoch += 1
    session.execute(delete(LoginSession).where(LoginSession.user_id == user.id))


def reset_password(db: Database, actor: Actor, username: str, new: str) -> UserInfo:
    """Set another user's password (site administrators; e.g. a forgotten one). Ends that
    user's sessions."""
    _check_password(new, normalise_username(username))
    with db.transaction() as session:
        require(session, actor, Action.RESET_PASSWORD)
        user = _find_user(session, username)
        if user is None:
            raise NotFound(Msg("no user %(username)s", username=repr(normalise_username(username))))
        _set_password(session, user, new)
        _audit(session, actor, "password-reset", None, user.username)
        return _info(user)


def list_users(db: Database, actor: Actor) -> list[UserInfo]:
    """Every user by username; administrators and organisers (to grant roles) may list them."""
    with db.transaction() as session:
        require(session, actor, Action.LIST_USERS)
        return [_info(u) for u in session.scalars(select(User).order_by(User.username))]


def change_password(db: Database, actor: Actor, old: str, new: str) -> UserInfo:
    """Change the actor's own password; this logs out all their sessions (the caller starts a
    new one for the session that asked)."""
    with db.transaction() as session:
        user = session.get(User, actor.user_id) if actor.user_id is not None else None
        if user is None:
            raise NotFound(Msg("you are not logged in"))
        _check_password(new, user.username)
        try:
            _hasher.verify(user.password_hash, old)
        except (VerificationError, InvalidHashError):
            raise InvalidSetting(N_("current password"), N_("is not right")) from None
        if secrets.compare_digest(old.encode(), new.encode()):
            raise InvalidSetting(N_("new password"), N_("must differ from the current one"))
        _set_password(session, user, new)
        return _info(user)


# -- server-side sessions ------------------------------------------------------------------


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def start_session(db: Database, user_id: int, now: datetime) -> str:
    """A new login session of ``user_id`` until ``now`` + 14 days; returns its secret token
    (for the cookie; only its hash is stored, so a copy of the database opens no session)."""
    token = secrets.token_urlsafe(32)
    with db.transaction() as session:
        session.add(
            LoginSession(
                token_hash=_token_hash(token),
                user_id=user_id,
                created_at=now,
                expires_at=now + SESSION_LIFETIME,
            )
        )
    return token


def session_user(db: Database, token: str, now: datetime) -> UserInfo | None:
    """The user of a live session, or ``None`` once it was ended, has expired or never was."""
    with db.transaction() as session:
        row = session.get(LoginSession, _token_hash(token))
        if row is None:
            return None
        expires = (
            row.expires_at if row.expires_at.tzinfo else row.expires_at.replace(tzinfo=now.tzinfo)
        )
        if expires <= now:
            session.delete(row)
            return None
        user = session.get(User, row.user_id)
        return _info(user) if user else None


def end_session(db: Database, token: str) -> None:
    """Log out: the token opens nothing any more, wherever a copy of the cookie is."""
    with db.transaction() as session:
        session.execute(delete(LoginSession).where(LoginSession.token_hash == _token_hash(token)))


# -- audit log -----------------------------------------------------------------------------


@dataclass(frozen=True)
class AuditView:
    at: datetime
    actor: str
    action: str
    event_id: int | None
    subject: str
    detail: str


def _audit(
    session: Session,
    actor: Actor,
    action: str,
    event_id: int | None,
    subject: str,
    detail: str = "",
) -> None:
    """Record an administrative action in the transaction that takes it (so none goes unseen)."""
    from weiqi.store.models import utcnow

    session.add(
        AuditEntry(
            at=utcnow(),
            actor=actor.username or ("local" if actor.user_id is None else str(actor.user_id)),
            action=action,
            event_id=event_id,
            subject=subject[:200],
            detail=detail[:200],
        )
    )


def audit_log(db: Database, actor: Actor, event_id: int) -> list[AuditView]:
    """The administrative actions of one event, newest first (its chief referee, organisers and
    the administrators may read it)."""
    with db.transaction() as session:
        require(session, actor, Action.READ_AUDIT_LOG, event_id)
        rows = session.scalars(
            select(AuditEntry)
            .where(AuditEntry.event_id == event_id)
            .order_by(AuditEntry.at.desc(), AuditEntry.id.desc())
        )
        return [AuditView(r.at, r.actor, r.action, r.event_id, r.subject, r.detail) for r in rows]


def ensure_site_admin(db: Database, password: str | None = None) -> str | None:
    """On first run (no administrator yet) create ``admin``.

    With ``password`` (from ``$WEIQI_ADMIN_PASSWORD``) that password is used and ``None`` is
    returned; otherwise a one-time password is generated and returned for printing, and the
    account asks for a new password until one is set.
    """
    try:
        return _ensure_site_admin(db, password)
    except Conflict:  # the administrator's unique username, stored first by another
        # Another server starting on the same fresh database created the administrator first
        # (and printed its one-time password); there is nothing left to do.
        return None


def _ensure_site_admin(db: Database, password: str | None) -> str | None:
    with db.transaction() as session:
        if session.scalar(select(func.count()).select_from(User).where(User.is_admin)):
            return None
        generated = password is None
        if password is None:
            password = secrets.token_urlsafe(12)
        _check_password(password, ADMIN_USERNAME)
        user = _find_user(session, ADMIN_USERNAME)
        if user is not None and user.is_admin:
            # another server starting on the same fresh database committed the administrator
            # between the count above and this read (PostgreSQL reads each statement afresh):
            # its one-time password stands, so none is made (and printed) here
            return None
        if user is None:
            user = User(username=ADMIN_USERNAME, display_name=ADMIN_USERNAME, session_epoch=0)
            session.add(user)
        user.password_hash = _hasher.hash(password)
        user.is_admin = True
        user.must_change_password = generated
        return password if generated else None


def grant_role(db: Database, actor: Actor, user_id: int, event_id: int, role: Role) -> RoleGrant:
    """Give a user a role in an event (administrators and the event's organisers may)."""
    if role is Role.PUBLIC:
        raise InvalidSetting(N_("role"), N_("everybody is public; grant another role"))
    with db.transaction() as session:
        require(session, actor, Action.GRANT_ROLE, event_id)
        lock_event(session, event_id)  # of one grant sent twice, the second sees the first
        existing_event(session, event_id)
        user = session.get(User, user_id)
        if user is None:
            raise NotFound(Msg("user %(user_id)s does not exist", user_id=user_id))
        if session.get(EventRole, (user_id, event_id, role.value)) is not None:
            raise Conflict(
                Msg(
                    "%(username)s is already %(label)s of event %(event_id)s",
                    username=user.username,
                    label=Msg(role.label),
                    event_id=event_id,
                )
            )
        row = EventRole(user_id=user_id, event_id=event_id, role=role.value)
        session.add(row)
        _audit(session, actor, "role-granted", event_id, user.username, role.value)
        session.flush()
        session.refresh(row)
        return grant_info(row)


def revoke_role(db: Database, actor: Actor, user_id: int, event_id: int, role: Role) -> None:
    """Take a role away (administrators and the event's organisers may)."""
    with db.transaction() as session:
        require(session, actor, Action.REVOKE_ROLE, event_id)
        lock_event(session, event_id)
        row = session.get(EventRole, (user_id, event_id, role.value))
        if row is None:
            raise NotFound(
                Msg(
                    "user %(user_id)s is not %(label)s of event %(event_id)s",
                    user_id=user_id,
                    label=Msg(role.label),
                    event_id=event_id,
                )
            )
        _audit(session, actor, "role-revoked", event_id, row.user.username, role.value)
        session.delete(row)


def roles_of(db: Database, user_id: int) -> list[RoleGrant]:
    """The roles one user holds, by event."""
    with db.transaction() as session:
        rows = session.scalars(
            select(EventRole)
            .where(EventRole.user_id == user_id)
            .order_by(EventRole.event_id, EventRole.role)
        )
        return [grant_info(r) for r in rows]


def event_roles(db: Database, event_id: int) -> list[RoleGrant]:
    """Who holds which role in one event (public information, like a programme), organisers
    first."""
    with db.transaction() as session:
        existing_event(session, event_id)
        rows = session.scalars(select(EventRole).where(EventRole.event_id == event_id))
        grants = [grant_info(r) for r in rows]
    # In the order of R-ORG-1: organisers, chief referees, referees, players.
    order = list(Role)
    return sorted(grants, key=lambda g: (order.index(g.role), g.username))
