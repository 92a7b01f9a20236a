"""Tables of team events and league seasons: teams (their players are the event's players,
``store.tournament.PlayerRow`` with a ``team_id``), team matches (under the rounds of
``store.tournament``, one table for both kinds), board games, sealed lineups, seasons and
drafts with their logs.

Facts only — who is on which roster, which lineup a team sealed and when, which board result
was recorded, which draft move was made. Match scores, tables and a draft's state are derived by
``weiqi.league`` on demand (a draft is replayed from its log every time it is read).

A team event's settings are in ``event_settings`` beside an individual event's (JSON of
``weiqi.league.settings.TeamEventSettings``). A league season's division is a team event of its
own with a ``league_divisions`` row (its season and label), so lineups, results and tables of a
season go through the same tables as any team event.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from weiqi.store.base import Base
from weiqi.store.models import utcnow
from weiqi.store.tournament import GameRow, PlayerRow, RoundRow


class SeasonRow(Base):
    """A league season (联赛赛季); ``settings_json`` holds ``SeasonSettings``, ``final_json`` the
    final orders and next season's divisions once the season is closed."""

    __tablename__ = "league_seasons"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    settings_json: Mapped[str] = mapped_column(Text)
    final_json: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class LeagueDivisionRow(Base):
    """A team event that is a division of a league season (its settings are the event's, in
    ``event_settings``): ``division`` is its label (甲, 乙 …)."""

    __tablename__ = "league_divisions"

    event_id: Mapped[int] = mapped_column(
        ForeignKey("events.id", ondelete="CASCADE"), primary_key=True
    )
    season_id: Mapped[int] = mapped_column(
        ForeignKey("league_seasons.id", ondelete="CASCADE"), index=True
    )
    division: Mapped[str] = mapped_column(String(32), default="")


class TeamRow(Base):
    """A team (or club) of one event; ``code`` is its id in the core and on the command line.
    Its roster is its players in ``event_players`` (``PlayerRow.team_id``); its declared
    定台换人制 order is their ``declared_position``."""

    __tablename__ = "teams"
    __table_args__ = (UniqueConstraint("event_id", "code"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    code: Mapped[str] = mapped_column(String(200))
    name: Mapped[str] = mapped_column(String(200))
    club: Mapped[str] = mapped_column(String(200), default="")
    coach: Mapped[str] = mapped_column(String(200), default="")
    captain: Mapped[str] = mapped_column(String(200), default="")

    roster: Mapped[list[PlayerRow]] = relationship(
        back_populates="team", cascade="all, delete-orphan", order_by="PlayerRow.position"
    )


class TeamCoachRow(Base):
    """An account that speaks for a team (R-FMT-1: the lineup is submitted by the coach):
    ``role`` is ``coach`` or ``captain``. A player-role account submits lineups only for the
    teams it is stored here for."""

    __tablename__ = "team_coaches"
    __table_args__ = (UniqueConstraint("team_id", "user_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    role: Mapped[str] = mapped_column(String(16), default="coach")


class TeamMatchRow(Base):
    """A match of a round: ``home`` is team A (listed first, black on board 1 when colours
    alternate)."""

    __tablename__ = "team_matches"
    __table_args__ = (UniqueConstraint("round_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(
        ForeignKey("event_rounds.id", ondelete="CASCADE"), index=True
    )
    number: Mapped[int] = mapped_column(Integer)
    home_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    away_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    # the winner of a playoff (加赛, R-PLAYOFF) that decided a drawn knockout match
    playoff_winner_id: Mapped[int | None] = mapped_column(
        ForeignKey("teams.id", ondelete="CASCADE"), nullable=True
    )

    round: Mapped[RoundRow] = relationship(back_populates="matches")
    games: Mapped[list[GameRow]] = relationship(
        back_populates="match",
        cascade="all, delete-orphan",
        order_by="(GameRow.sitting, GameRow.board)",
    )


class LineupRow(Base):
    """A team's lineup (出场名单) for a round: its players by board, one ``LineupBoardRow``
    each (none for a forfeit). Sealed until the round's ``revealed_at``; ``source`` is
    ``submitted``, ``fixed`` (分台定人制), ``previous`` or ``forfeit``.

    Rows, not a joined string: a player code may hold any character (a player named
    "Li, Wei" is the player code ``Li, Wei``), and each board names its roster row."""

    __tablename__ = "team_lineups"
    __table_args__ = (UniqueConstraint("round_id", "team_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(
        ForeignKey("event_rounds.id", ondelete="CASCADE"), index=True
    )
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    source: Mapped[str] = mapped_column(String(16))
    submitted_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    # every reader of a lineup wants its players: loaded with it, one query for a whole list
    boards: Mapped[list[LineupBoardRow]] = relationship(
        cascade="all, delete-orphan", order_by="LineupBoardRow.position", lazy="selectin"
    )

    @property
    def players(self) -> tuple[str, ...]:
        """The player codes by board (board 1 first); ``()`` for a forfeit."""
        return tuple(b.player.code for b in self.boards)


class LineupBoardRow(Base):
    """One board of a lineup: ``position`` (from 1) is the board — the place in the order for
    a 全队轮赛制 or 擂台赛 lineup — and ``player_id`` the roster row of the player on it."""

    __tablename__ = "team_lineup_boards"
    __table_args__ = (UniqueConstraint("lineup_id", "player_id"),)

    lineup_id: Mapped[int] = mapped_column(
        ForeignKey("team_lineups.id", ondelete="CASCADE"), primary_key=True
    )
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(
        ForeignKey("event_players.id", ondelete="CASCADE"), index=True
    )

    player: Mapped[PlayerRow] = relationship(lazy="joined")


class WinnerStaysOnLogRow(Base):
    """One line of a 擂台赛's append-only log: a team sends a player (``send``, chosen order) or
    the current game's result is recorded (``result``). The match is replayed from it."""

    __tablename__ = "winner_stays_on_log"

    event_id: Mapped[int] = mapped_column(
        ForeignKey("events.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    team: Mapped[str | None] = mapped_column(String(200), nullable=True)
    player: Mapped[str | None] = mapped_column(String(200), nullable=True)
    result: Mapped[str | None] = mapped_column(String(16), nullable=True)
    recorded_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class DraftRow(Base):
    """A transfer draft (摘牌) after a season: ``setup_json`` holds the picking order, the
    rosters and the settings; ``protected_json`` each club's protected base as it is declared."""

    __tablename__ = "drafts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    season_id: Mapped[int] = mapped_column(
        ForeignKey("league_seasons.id", ondelete="CASCADE"), index=True
    )
    setup_json: Mapped[str] = mapped_column(Text)
    protected_json: Mapped[str] = mapped_column(Text, default="{}")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    log: Mapped[list[DraftLogRow]] = relationship(
        cascade="all, delete-orphan", order_by="DraftLogRow.seq"
    )


class DraftLogRow(Base):
    """One line of a draft's append-only log (a pick or a pass)."""

    __tablename__ = "draft_log"

    draft_id: Mapped[int] = mapped_column(
        ForeignKey("drafts.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    round: Mapped[int] = mapped_column(Integer)
    turn: Mapped[int] = mapped_column(Integer)
    club: Mapped[str] = mapped_column(String(200))
    action: Mapped[str] = mapped_column(String(8))
    player: Mapped[str | None] = mapped_column(String(200), nullable=True)
    from_club: Mapped[str | None] = mapped_column(String(200), nullable=True)
    recorded_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
