"""Entry claims (issue #11): a logged-in user asks to play as a player of an event (an entrant,
or a team's player of a team event) and the organisers approve or decline.

One row per claim, kept once decided (the claimant sees what became of it, the organisers the
history). ``state`` is ``pending``, ``approved``, ``declined`` or
``withdrawn``; a declined claim keeps the organiser's ``reason`` (their words), or, when it was
declined because another claim was approved, ``closed_by`` names which (``entrant-taken``:
somebody else now plays as the entrant; ``user-linked``: the claimant now plays as another
entrant of the event) and ``decided_by`` stays empty.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from weiqi.store.base import Base

#: The longest note to the organisers, and the longest reason of a decline (characters).
NOTE_LIMIT = 200


class EntryClaimRow(Base):
    """One user's claim to one player of an event (an entrant, or a team's player)."""

    __tablename__ = "entry_claims"
    __table_args__ = (
        CheckConstraint("state IN ('pending', 'approved', 'declined', 'withdrawn')", name="state"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("event_players.id", ondelete="CASCADE"))
    note: Mapped[str] = mapped_column(String(NOTE_LIMIT), default="", server_default="")
    made_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    state: Mapped[str] = mapped_column(String(16), default="pending", server_default="pending")
    decided_by: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), nullable=True
    )
    decided_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    reason: Mapped[str] = mapped_column(String(NOTE_LIMIT), default="", server_default="")
    closed_by: Mapped[str | None] = mapped_column(String(32), nullable=True)
