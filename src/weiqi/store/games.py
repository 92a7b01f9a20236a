"""The referee's game record of a game (``weiqi.referee.GameRecord``), of either kind of
event, stored as its JSON log with the head hash and the number of events (``game_records``).

``seq`` (the number of events) is the optimistic lock: an append writes
``UPDATE … WHERE game_id = ? AND seq = <the seq it loaded>``, so two referees appending to the
same game cannot interleave — the second finds no row to update and is told to reload.
``head`` detects a log rewritten end to end (``GameRecord.from_json(…, head)``), and
``signature`` — the head signed with the site's record key for this kind of board and game
(``weiqi.referee.signature``, ``store.seals.board_labels``) — a log rewritten together with
its head; ``None`` only for a record that did not verify when migration 0009 first signed the
stored records (it is refused like a wrong signature). The warnings of the paired Black and
White players are kept beside the log so the standings (WARN tie-break, R-RANK-RR B) need not
replay every record of the event.
"""

from __future__ import annotations

from sqlalchemy import ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from weiqi.store.base import Base


class GameRecordRow(Base):
    """The record of a game (``event_games``), of either kind of event."""

    __tablename__ = "game_records"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("event_games.id", ondelete="CASCADE"), primary_key=True
    )
    record_json: Mapped[str] = mapped_column(Text)
    head: Mapped[str] = mapped_column(String(64))
    signature: Mapped[str | None] = mapped_column(String(64), nullable=True)
    seq: Mapped[int] = mapped_column(Integer)
    black_warnings: Mapped[int] = mapped_column(Integer, default=0)
    white_warnings: Mapped[int] = mapped_column(Integer, default=0)
