"""The tables of accounts, events and per-event roles.

``events`` is deliberately minimal (id, name, created_at): the tournament work extends it with
its settings in a later migration; other tables refer to it by ``events.id``.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    Date,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from weiqi.roles import Role
from weiqi.store.base import Base


def utcnow() -> datetime:
    """Now, timezone-aware in UTC (the only clock the shell's defaults read)."""
    return datetime.now(UTC)


class User(Base):
    """A person who can log in. ``is_admin`` marks a site administrator."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # Stored lower-case: usernames compare case-insensitively on every database.
    username: Mapped[str] = mapped_column(String(64), unique=True)
    display_name: Mapped[str] = mapped_column(String(200))
    password_hash: Mapped[str] = mapped_column(String(200))
    is_admin: Mapped[bool] = mapped_column(Boolean, default=False)
    # Set for the generated first-run password, cleared when the user sets their own.
    must_change_password: Mapped[bool] = mapped_column(Boolean, default=False)
    # Part of every session cookie; bumping it logs the user out everywhere.
    session_epoch: Mapped[int] = mapped_column(Integer, default=0)
    # A generated one-time password opens one session (which may only set a new password).
    one_time_password_used: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    roles: Mapped[list[EventRole]] = relationship(
        back_populates="user", cascade="all, delete-orphan", passive_deletes=True
    )


class EventRow(Base):
    """A competition (赛会). Minimal here; the tournament work adds its settings."""

    __tablename__ = "events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # what the event announces (``weiqi.tournament.details``): its days, venue and time zone
    # (every time its pages show is in it); its time control is one of its settings
    start_date: Mapped[date | None] = mapped_column(Date, nullable=True)
    end_date: Mapped[date | None] = mapped_column(Date, nullable=True)
    venue: Mapped[str] = mapped_column(String(200), default="", server_default="")
    time_zone: Mapped[str] = mapped_column(
        String(64), default="Asia/Shanghai", server_default="Asia/Shanghai"
    )

    roles: Mapped[list[EventRole]] = relationship(
        back_populates="event", cascade="all, delete-orphan", passive_deletes=True
    )


ROLE_VALUES = ", ".join(f"'{r.value}'" for r in Role.grantable())


class EventRole(Base):
    """A role (R-ORG-1) one user holds in one event; ``public`` is never stored."""

    __tablename__ = "event_roles"
    __table_args__ = (CheckConstraint(f"role IN ({ROLE_VALUES})", name="role"),)

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    event_id: Mapped[int] = mapped_column(
        ForeignKey("events.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    role: Mapped[str] = mapped_column(String(32), primary_key=True)
    granted_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    user: Mapped[User] = relationship(back_populates="roles")
    event: Mapped[EventRow] = relationship(back_populates="roles")


class LoginSession(Base):
    """A logged-in session, held by the server so that logging out (or a password change)
    ends it for good: the cookie carries only a random token, stored here as its SHA-256."""

    __tablename__ = "login_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AuditEntry(Base):
    """An administrative action (a role granted or revoked, a password reset …): who, when,
    what, and in which event; shown to the event's chief referee and the administrators."""

    __tablename__ = "audit_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    actor: Mapped[str] = mapped_column(String(64))
    action: Mapped[str] = mapped_column(String(64))
    event_id: Mapped[int | None] = mapped_column(
        ForeignKey("events.id", ondelete="CASCADE"), index=True, nullable=True
    )
    subject: Mapped[str] = mapped_column(String(200), default="")
    detail: Mapped[str] = mapped_column(String(200), default="")


class SiteSetting(Base):
    """Key/value settings of the installation, e.g. the generated cookie-signing key."""

    __tablename__ = "site_settings"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


# The tournament tables live in their own module; importing it here registers them on
# ``Base.metadata`` wherever the models are loaded (the Alembic environment included).
from weiqi.store import teams as _teams  # noqa: E402, F401
from weiqi.store import tournament as _tournament  # noqa: E402, F401
