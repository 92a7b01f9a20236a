"""The referee's game record of a game (``weiqi.referee.GameRecord``), stored as its JSON log
with the head hash and the number of events: one table for the boards of individual events
(``game_records``), one for the boards of team matches (``team_game_records``), with the same
columns.

``seq`` (the number of events) is the optimistic lock: an append writes
``UPDATE … WHERE game_id = ? AND seq = <the seq it loaded>``, so two referees appending to the
same game cannot interleave — the second finds no row to update and is told to reload.
``head`` detects a log rewritten end to end (``GameRecord.from_json(…, head)``), and
``signature`` — the head signed with the site's record key for this table and game
(``weiqi.referee.signature``) — a log rewritten together with its head; ``None`` only for a
record that did not verify when migration 0009 first signed the stored records (it is refused
like a wrong signature). The warnings
of the paired Black and White players are kept beside the log so the standings (WARN
tie-break, R-RANK-RR B) need not replay every record of the event.
"""

from __future__ import annotations

from sqlalchemy import ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from weiqi.store.base import Base


class RecordColumns:
    """The columns of a stored game record (shared by individual and team boards)."""

    record_json: Mapped[str] = mapped_column(Text)
    head: Mapped[str] = mapped_column(String(64))
    signature: Mapped[str | None] = mapped_column(String(64), nullable=True)
    seq: Mapped[int] = mapped_column(Integer)
    black_warnings: Mapped[int] = mapped_column(Integer, default=0)
    white_warnings: Mapped[int] = mapped_column(Integer, default=0)


class GameRecordRow(RecordColumns, Base):
    """One board's game record in an individual event."""

    __tablename__ = "game_records"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("event_games.id", ondelete="CASCADE"), primary_key=True
    )


class TeamGameRecordRow(RecordColumns, Base):
    """One board's game record in a team match (``team_games``)."""

    __tablename__ = "team_game_records"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("team_games.id", ondelete="CASCADE"), primary_key=True
    )
