"""Tables of individual tournaments: the event's settings, players, rounds, games and byes.

Facts only — who entered, who played whom with which colours, which result was recorded and
confirmed. Standings and the next pairing are derived by ``weiqi.tournament`` on demand.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import (
    Boolean,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
    text,
)
from sqlalchemy.engine.default import DefaultExecutionContext
from sqlalchemy.orm import Mapped, mapped_column, relationship
from sqlalchemy.sql.elements import conv

from weiqi.store.base import Base
from weiqi.tournament.namesakes import identity_key

if TYPE_CHECKING:
    from weiqi.store.teams import TeamMatchRow, TeamRow

_T = TypeVar("_T")


def team_identity_key(team_id: int, player_code: str) -> str:
    """The ``identity_key`` of a team's player: its team and code (migration 0031 wrote the
    same for the rosters it moved here)."""
    return identity_key(player_code, "", None, f"team {team_id}")


def team_seats(first: _T, second: _T, home_color: str) -> tuple[_T, _T]:
    """A team board's two seats in the other order: Black and White from the home and the
    away team's players (or teams), or home and away from Black and White — the one swap, made
    when the home team plays White (``home_color``).

    >>> team_seats(7, 8, "B"), team_seats(7, 8, "W"), team_seats(*team_seats(7, 8, "W"), "W")
    ((7, 8), (8, 7), (7, 8))
    """
    return (first, second) if home_color == "B" else (second, first)


class EventSettingsRow(Base):
    """The settings of an event, individual or team (``kind``, an ``EventKind`` value): the
    system its entrants meet by, and the whole settings value as JSON
    (``weiqi.tournament.settings.settings_to_dict``: ``EventSettings`` of an individual event,
    ``weiqi.league.settings.TeamEventSettings`` of a team event). An event without one is not
    set up yet."""

    __tablename__ = "event_settings"

    event_id: Mapped[int] = mapped_column(
        ForeignKey("events.id", ondelete="CASCADE"), primary_key=True
    )
    kind: Mapped[str] = mapped_column(String(16), default="individual", server_default="individual")
    system: Mapped[str] = mapped_column(String(32))
    settings_json: Mapped[str] = mapped_column(Text)


def _identity_of_insert(context: DefaultExecutionContext) -> str:
    """The ``identity_key`` of a row inserted without one, from the row's own columns: a team's
    player is told apart by the team and code (unique within the team)."""
    row: dict[str, Any] = context.get_current_parameters()  # type: ignore[no-untyped-call]
    if row.get("team_id") is not None:
        return team_identity_key(row["team_id"], row["player_code"])
    return identity_key(
        row["name"], row.get("club") or "", row.get("birth_date"), row.get("licence") or ""
    )


class PlayerRow(Base):
    """A player of one event, either kind: an entrant of an individual event, or a player on a
    team's roster (``team_id`` set); ``extra`` keeps the import file's other columns as JSON.

    Two players may share a name (two 张伟 from different clubs) when the club, the birth date
    or the ``licence`` (an explicit ID, such as a federation number) tells them apart:
    ``identity_key`` is the digest of the four (``weiqi.tournament.namesakes.identity_key``),
    unique per event, so one player cannot be entered twice. The constraint keeps the name it
    had when it was over ``(event_id, name)``: SQLite can only rename the column it is over
    (migration 0012), never drop it without copying a table others refer to.
    """

    __tablename__ = "event_players"
    __table_args__ = (
        UniqueConstraint("event_id", "identity_key", name=conv("uq_event_players_event_id_name")),
        UniqueConstraint("team_id", "player_code"),
        # an index, not a constraint: SQLite adds it without copying the table
        Index(
            "ix_event_players_team_id_declared_position",
            "team_id",
            "declared_position",
            unique=True,
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    identity_key: Mapped[str] = mapped_column(String(200), default=_identity_of_insert)
    name: Mapped[str] = mapped_column(String(200), server_default="")
    licence: Mapped[str] = mapped_column(String(64), default="", server_default="")
    rank: Mapped[str | None] = mapped_column(String(16), nullable=True)
    rating: Mapped[float | None] = mapped_column(Float, nullable=True)
    club: Mapped[str] = mapped_column(String(200), default="")
    country: Mapped[str] = mapped_column(String(100), default="")
    region: Mapped[str] = mapped_column(String(100), default="")
    birth_date: Mapped[date | None] = mapped_column(Date, nullable=True)
    extra_json: Mapped[str] = mapped_column(Text, default="{}")
    withdrawn_after: Mapped[int | None] = mapped_column(Integer, nullable=True)
    joined_round: Mapped[int] = mapped_column(Integer, default=1)
    warnings: Mapped[int] = mapped_column(Integer, default=0)
    # whole wins added to a McMahon start score (the "super-bar"; OpenGotha's smmsCorrection)
    mcmahon_correction: Mapped[int] = mapped_column(Integer, default=0, server_default="0")

    # A team's player (a team event's, or a league division's; migration 0031 brought them here
    # from a roster table of their own). ``player_code`` is the player's id in lineups, files
    # and on the command line: given by the teams CSV's ``id`` column, else the name when
    # nobody else in the event has it, else the name with what tells the namesake apart
    # (``张伟 (白虎)``); it never changes afterwards, so a renamed player keeps it. ``foreign``
    # marks a 外援; ``position`` is the place on the roster; ``declared_position`` the place
    # (from 1) in the team's declared order (定台换人制), ``None`` when the team declared none
    # or left the player out of it.
    team_id: Mapped[int | None] = mapped_column(
        ForeignKey("teams.id", ondelete="CASCADE"), nullable=True, index=True
    )
    position: Mapped[int | None] = mapped_column(Integer, nullable=True)
    player_code: Mapped[str | None] = mapped_column(String(200), nullable=True)
    foreign: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    protected: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    declared_position: Mapped[int | None] = mapped_column(Integer, nullable=True)

    team: Mapped[TeamRow | None] = relationship(back_populates="roster")

    @property
    def code(self) -> str:
        """The player's id in the core: a team's player's code, an entrant's row id."""
        return self.player_code if self.player_code is not None else str(self.id)


class AbsenceRow(Base):
    """A round one player sits out without withdrawing (not paired, scored as absent)."""

    __tablename__ = "event_player_absences"

    player_id: Mapped[int] = mapped_column(
        ForeignKey("event_players.id", ondelete="CASCADE"), primary_key=True
    )
    round: Mapped[int] = mapped_column(Integer, primary_key=True)


class RoundRow(Base):
    """A paired round of an event of either kind; ``seed`` is the recorded seed of its lots.
    An individual event's round holds its ``games`` and ``byes``; a team event's its
    ``matches`` (and, under it, the teams' lineups), its date on a league's calendar, its
    lineup deadline, when its lineups were revealed (``None`` while sealed) and the team with
    the bye (migration 0024 brought the team rounds here from a table of their own).

    ``published``: the public sees the round only once the chief referee or an organiser has
    published it (R-ORG-1); a team round's matches are public from its pairing (its boards,
    from the reveal), so it is stored published. ``explanation_json``: why each pair was made
    and the round's totals, as the pairing computed them (``services.event_admin``), for the
    referees' page; loaded only when read (deferred): a 10,000-player round's is over a
    megabyte, and every live room's reads of its board held a copy (at 5,000 games a worker
    held gigabytes of them, ``bench/live.py``) and every reader's coming fetched it again from
    the database.
    """

    __tablename__ = "event_rounds"
    __table_args__ = (UniqueConstraint("event_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int | None] = mapped_column(Integer, nullable=True)
    published: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    explanation_json: Mapped[str] = mapped_column(
        Text, default="{}", server_default="{}", deferred=True
    )
    starts_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """When the round starts (UTC), set by the organisers; an online event may start its games
    then (``EventSettings.game_start``)."""

    date: Mapped[date | None] = mapped_column(Date, nullable=True)
    """A team round's day on its league's calendar (``None``: no calendar)."""
    lineup_deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    revealed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """When a team round's lineups were revealed (``None`` while sealed)."""
    bye_team_id: Mapped[int | None] = mapped_column(
        ForeignKey("teams.id", ondelete="CASCADE"), nullable=True
    )

    games: Mapped[list[GameRow]] = relationship(
        primaryjoin="and_(RoundRow.id == GameRow.round_id, GameRow.match_id.is_(None))",
        cascade="all, delete-orphan",
        order_by="GameRow.board",
    )
    """The boards of an individual round (a team round's are its matches')."""
    byes: Mapped[list[ByeRow]] = relationship(cascade="all, delete-orphan")
    matches: Mapped[list[TeamMatchRow]] = relationship(
        back_populates="round", cascade="all, delete-orphan", order_by="TeamMatchRow.number"
    )


class GameRow(Base):
    """One game of a round, of either kind of event: an individual event's board (``match_id``
    ``None``) or a board of a team match (its ``match_id``, ``sitting`` and ``home_color``,
    the colour the match's home team plays on it); ``result`` in ``Result.to_code`` notation
    once recorded, ``confirmed`` once confirmed, both following the game's record
    (``store.games.GameRecordRow``).

    A seat is ``None`` only on a team board its team left empty (a forfeit at the reveal)."""

    __tablename__ = "event_games"
    __table_args__ = (
        # a board's number is its own in an individual round, in its match's sitting in a team
        # round (every match of the round has its board 1)
        Index(
            "uq_event_games_round_board",
            "round_id",
            "board",
            unique=True,
            sqlite_where=text("match_id IS NULL"),
            postgresql_where=text("match_id IS NULL"),
        ),
        Index(
            "uq_event_games_match_board",
            "match_id",
            "sitting",
            "board",
            unique=True,
            sqlite_where=text("match_id IS NOT NULL"),
            postgresql_where=text("match_id IS NOT NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(
        ForeignKey("event_rounds.id", ondelete="CASCADE"), index=True
    )
    match_id: Mapped[int | None] = mapped_column(
        ForeignKey("team_matches.id", ondelete="CASCADE"), nullable=True, index=True
    )
    board: Mapped[int] = mapped_column(Integer)
    sitting: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    black_id: Mapped[int | None] = mapped_column(
        ForeignKey("event_players.id", ondelete="CASCADE"), nullable=True
    )
    white_id: Mapped[int | None] = mapped_column(
        ForeignKey("event_players.id", ondelete="CASCADE"), nullable=True
    )
    home_color: Mapped[str | None] = mapped_column(String(1), nullable=True)
    result: Mapped[str | None] = mapped_column(String(16), nullable=True)
    confirmed: Mapped[bool] = mapped_column(Boolean, default=False)
    handicap: Mapped[int] = mapped_column(Integer, default=0)
    komi: Mapped[str] = mapped_column(String(16))
    label: Mapped[str] = mapped_column(String(16), default="")
    seal: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The board as it counts, sealed under the site's key (``store.seals``)."""

    # read only: a round's individual boards are written through ``RoundRow.games``, a team
    # round's through its matches
    round: Mapped[RoundRow] = relationship(viewonly=True)
    match: Mapped[TeamMatchRow | None] = relationship(back_populates="games")

    @classmethod
    def team_board(
        cls,
        round_id: int,
        board: int,
        sitting: int,
        seats: tuple[int | None, int | None],
        home_color: str,
        komi: str,
        result: str | None = None,
    ) -> GameRow:
        """A board of a team match seated with ``seats`` (the home team's player, the away
        team's; ``None`` an empty seat), the home team playing ``home_color``.

        >>> g = GameRow.team_board(1, 2, 0, (7, 8), "W", "15/4")
        >>> (g.black_id, g.white_id, g.home_player_id, g.away_player_id)
        (8, 7, 7, 8)
        """
        black, white = team_seats(*seats, home_color)
        return cls(
            round_id=round_id,
            board=board,
            sitting=sitting,
            black_id=black,
            white_id=white,
            home_color=home_color,
            komi=komi,
            handicap=0,
            label="",
            result=result,
        )

    @property
    def pair(self) -> tuple[int, int]:
        """An individual board's players, Black and White (both always seated).

        >>> GameRow(black_id=3, white_id=4).pair
        (3, 4)
        """
        assert self.black_id is not None and self.white_id is not None, self.id
        return self.black_id, self.white_id

    @property
    def home_plays(self) -> str:
        """The colour the home team plays on a team board, ``B`` or ``W``."""
        assert self.home_color is not None, self.id
        return self.home_color

    @property
    def home_player_id(self) -> int | None:
        """The home team's player on a team board."""
        return team_seats(self.black_id, self.white_id, self.home_plays)[0]

    @property
    def away_player_id(self) -> int | None:
        """The away team's player on a team board."""
        return team_seats(self.black_id, self.white_id, self.home_plays)[1]


class ByeRow(Base):
    """A player with a bye (轮空) in a round."""

    __tablename__ = "event_byes"

    round_id: Mapped[int] = mapped_column(
        ForeignKey("event_rounds.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[int] = mapped_column(
        ForeignKey("event_players.id", ondelete="CASCADE"), primary_key=True
    )
