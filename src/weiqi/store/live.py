"""Players as accounts (issue #11): which user plays as which player of an event — an entrant
of an individual event, or a team's player of a team event (a team board's player).

An organiser makes a one-time invitation code for an entrant; only its SHA-256 is kept
(``invite_hash``), so the code itself is shown once, to the organiser who made it. A logged-in
user who redeems it becomes the entrant's player (``user_id``) and the code is spent (the hash
is cleared). One row per player (``player_id``); a new code replaces an unspent one.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from weiqi.store.base import Base


class PlayerAccountRow(Base):
    """The account link of one player: an unspent invitation, a linked user, or both empty."""

    __tablename__ = "event_player_accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(
        ForeignKey("event_players.id", ondelete="CASCADE"), unique=True
    )
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    invite_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    invited_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), nullable=True, index=True
    )
    linked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
