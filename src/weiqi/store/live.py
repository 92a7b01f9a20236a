"""Players as accounts (issue #11): which user plays as which entrant of an individual event,
or as which roster player of a team event (a team board's player).

An organiser makes a one-time invitation code for an entrant; only its SHA-256 is kept
(``invite_hash``), so the code itself is shown once, to the organiser who made it. A logged-in
user who redeems it becomes the entrant's player (``user_id``) and the code is spent (the hash
is cleared). One row per entrant (``player_id``) or roster player (``roster_id``): exactly
one of the two is set; a new code replaces an unspent one.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from weiqi.store.base import Base


class PlayerAccountRow(Base):
    """The account link of one entrant or roster player: an unspent invitation, a linked user,
    or both empty."""

    __tablename__ = "event_player_accounts"
    __table_args__ = (
        CheckConstraint(
            "(player_id IS NULL) <> (roster_id IS NULL)", name="entrant_or_roster_player"
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int | None] = mapped_column(
        ForeignKey("event_players.id", ondelete="CASCADE"), nullable=True, unique=True
    )
    roster_id: Mapped[int | None] = mapped_column(
        ForeignKey("team_roster.id", ondelete="CASCADE"), nullable=True, unique=True
    )
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    invite_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    invited_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), nullable=True, index=True
    )
    linked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
