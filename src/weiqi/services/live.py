"""Live online play (issue #11): players as accounts, and the game room's use cases.

Players are accounts: an organiser makes a one-time invitation code for an entrant of an
individual event, or a roster player of a team event (:func:`create_invite`); a logged-in user
who redeems it (:func:`redeem_invite`) becomes that player and sees "my game this round"
(:func:`my_games`): the board of the latest published round, or of the latest team round whose
lineups are revealed.

A board is named as ``services.games`` names it (a :data:`~weiqi.services.games.BoardKey`: the
board number of an individual round, a :class:`~weiqi.services.games.TeamBoard` of a team
match): every function below takes either, and a team board is played exactly as an individual
one (its record, clock, ending and result; the result then counts in the match score).

A live game is the board's one game record (``services.games``: the same record, hash chain,
signature and ``seq`` guard as every other game). The server is authoritative: every action of
a player (:func:`act`) goes through the rules core (``GameRecord.append``), under the game's
own lock (the event's taken shared: the games of one event write in parallel) and with the
``seq`` the player's page showed, so of two moves sent for the same turn only one is stored.
The worker keeps each game's verified record in memory between moves
(``services.record_cache``): a move replays nothing unless somebody else wrote meanwhile.

The game starts with the event's time control once both players are in the room
(:func:`start_game`); the server's clock runs it, and :func:`wake` — called by the room at the
clock's next deadline or call-out, whether or not anybody sends anything — records a time-out
as a referee's look at the clock (``ClockEvent(CHECK)``) and says which call-out is due.

Every read gives one :class:`Snapshot`: the board, captures, moves, both clocks and the ending,
in plain JSON-ready values (no language: the room renders messages in each reader's).

>>> from weiqi.store.database import Database
>>> from weiqi.tournament.settings import EventSettings, System
>>> from weiqi.services import accounts, tournament as t
>>> db = Database("sqlite://"); db.upgrade()
>>> local = Actor.local()
>>> settings = EventSettings(System.ROUND_ROBIN, board_size=9, play="online")
>>> from weiqi.services.events import create_event
>>> ev = create_event(db, local, "Online", settings).id
>>> _ = t.import_players(db, local, ev, "name\\n李\\n王\\n")
>>> _ = t.pair_round(db, local, ev)
>>> li, wang = (accounts.create_user(db, local, n, "a long pass phrase 7") for n in ("li", "wang"))
>>> for user, name in ((li, "李"), (wang, "王")):
...     code = create_invite(db, local, ev, player_id(db, ev, name)).code
...     _ = redeem_invite(db, user.actor(), code)
>>> black = seat(db, li.actor(), ev, 1, 1) or seat(db, wang.actor(), ev, 1, 1)
>>> black is not None
True
>>> snap = start_game(db, ev, 1, 1)
>>> snap.phase, snap.to_move, snap.seq
('playing', 'B', 2)
"""

from __future__ import annotations

import hashlib
import math
import random
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from datetime import date, timedelta
from functools import lru_cache
from typing import Any

from sqlalchemy import ColumnElement, and_, or_, select
from sqlalchemy.orm import Session

from weiqi.clock.clock import Clock, Status
from weiqi.clock.control import TimeControl, TimeSystem
from weiqi.clock.late import LatePolicy
from weiqi.errors import (
    Conflict,
    IllegalMove,
    InputError,
    InvalidSetting,
    NotFound,
    PermissionDenied,
)
from weiqi.messages import Msg
from weiqi.referee.actors import GameActor
from weiqi.referee.events import (
    AcceptEnd,
    AgreeDead,
    ClockAction,
    ClockEvent,
    Confirm,
    Dispute,
    MarkDead,
    Move,
    Pass,
    PlaceHandicap,
    ProposeEnd,
    RecordEvent,
    RefuseEnd,
    Resign,
    RulingMade,
    Start,
)
from weiqi.referee.nigiri import ColorAssignment, Contestant, Guess, Nigiri
from weiqi.referee.record import GameRecord
from weiqi.referee.rulings import Ruling, RulingKind
from weiqi.referee.state import GameState, Phase
from weiqi.roles import Role
from weiqi.rules.color import Color
from weiqi.rules.dead_stones import propose_dead
from weiqi.rules.vertex import format_vertex, parse_vertex
from weiqi.services import live_notices
from weiqi.services.actor import Actor
from weiqi.services.events import (
    event_settings,
    existing_event,
    is_team_event,
    player_row,
    players_with_teams,
)
from weiqi.services.games import (
    GAME_PLACE,
    BoardKey,
    RefereedGame,
    TeamBoard,
    _game_to_change,
    _load_at,
    _load_record,
    _load_stored,
    _now,
    _store,
    board_id_query,
    board_key,
    no_board,
    read_game,
    refereed_game,
)
from weiqi.services.permissions import Action, require
from weiqi.services.public import check_round_visible
from weiqi.services.server_clock import SYSTEM_CLOCK, ServerClock, as_utc
from weiqi.store.database import Database
from weiqi.store.games import GameRecordRow
from weiqi.store.live import PlayerAccountRow
from weiqi.store.locks import lock_event
from weiqi.store.models import EventRow, User
from weiqi.store.teams import (
    TeamMatchRow,
    TeamRow,
)
from weiqi.store.tournament import GameRow, PlayerRow, RoundRow
from weiqi.tournament.ranks import Rank
from weiqi.tournament.settings import EventSettings, GameStart, PlaySettings

#: The reasons the rules core gives for an illegal move (``IllegalMove.reason``), listed here
#: so that the catalogues translate them: the room says them in the player's language.
ILLEGAL_REASONS = (
    Msg("occupied"),
    Msg("suicide"),
    Msg("ko"),
    Msg("superko"),
    Msg("wrong-turn"),
    Msg("off-board"),
    Msg("game-over"),
)

#: Who starts a live game and its clock, and looks at the clock when a flag falls: the server,
#: acting for the referees (the record names it like any referee).
SERVER = GameActor.referee("server")

#: Why the room starts no game of an event played over the board (``EventSettings.play``).
OVER_THE_BOARD = Msg("this event is played over the board: the referees enter its results")

#: What a player may do in the room (:func:`act`).
ACTIONS = (
    "place_handicap",
    "move",
    "pass",
    "resign",
    "propose_end",
    "accept_end",
    "refuse_end",
    "mark_dead",
    "agree_dead",
    "dispute",
    "confirm",
    "forfeit_turn",
    "accept_time_loss",
)

#: Where the event lets a player whose last period ran out ask for a forfeited turn (弃权一次,
#: R-TIME-2, Art. 22.5; the time control's ``pass``): how long the server waits for the ask
#: before it rules the loss on time. The clock stands still meanwhile, for nobody.
FORFEIT_ASK_SECONDS = 10.0
#: What the flagged player asks for; the server, the game's referee, records it.
_ASKED_OF_THE_SERVER = frozenset({"forfeit_turn", "accept_time_loss"})

#: The actions that end the player's turn on the clock (a press follows them).
_PRESSES = frozenset({"place_handicap", "move", "pass", "propose_end"})

#: What a player may not do while a referee has paused the game (R-TIME-5); resigning may.
PAUSED_REFUSES = frozenset({"move", "pass", "propose_end", "accept_end", "refuse_end"})

_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no I, O, 0, 1: read aloud, typed by hand


# -- players as accounts ---------------------------------------------------------------------


@dataclass(frozen=True)
class Invite:
    """A one-time invitation code for one entrant (or roster player: ``player_id`` is then its
    roster id, ``team`` its team's code), shown once to the organiser who made it."""

    player_id: int
    name: str
    code: str
    team: str | None = None


@dataclass(frozen=True)
class EntrantAccount:
    """An entrant as the organisers' invitation page lists it."""

    player_id: int
    name: str
    invited: bool
    """An unspent code exists."""
    username: str | None
    """The user who plays as this entrant, once a code was redeemed."""
    team: str | None = None
    """A roster player's team (its name; ``player_id`` is then the roster id)."""


@dataclass(frozen=True)
class Linked:
    """What redeeming a code did: the user now plays as ``name`` in ``event_name``."""

    event_id: int
    event_name: str
    player_id: int
    name: str


def _code_hash(code: str) -> str:
    return hashlib.sha256(normalise_code(code).encode()).hexdigest()


def normalise_code(code: str) -> str:
    """A code as typed (any case, spaces or dashes) in the form it is hashed in.

    >>> normalise_code(" abcd-efgh jk ")
    'ABCDEFGHJK'
    """
    return "".join(ch for ch in code.upper() if ch.isalnum())


def _new_code() -> str:
    raw = "".join(secrets.choice(_CODE_ALPHABET) for _ in range(12))
    return f"{raw[:4]}-{raw[4:8]}-{raw[8:]}"


def event_player(
    session: Session, event_id: int, player_id: int, team: int | None = None
) -> tuple[PlayerRow, TeamRow | None]:
    """Player ``player_id`` of event ``event_id``, either kind: an entrant, or a team's player
    with its team. ``team`` is the team id the organiser or the claimant meant: a player of
    another team, or an entrant of an individual event, is ``InvalidSetting`` (field ``team``);
    a player the event does not have is ``NotFound``."""
    row = session.get(PlayerRow, player_id)
    if row is None or row.event_id != event_id:
        raise NotFound(Msg("event %(event_id)s has no such player", event_id=event_id))
    of_team = session.get(TeamRow, row.team_id) if row.team_id is not None else None
    if team is not None and of_team is None:
        raise InvalidSetting("team", Msg("applies to team events only"))
    if team is not None and of_team is not None and of_team.id != team:
        raise InvalidSetting(
            "team",
            Msg(
                "%(name)s is not a roster player of %(team)s",
                name=row.name,
                team=_team_label(session, event_id, team),
            ),
        )
    return row, of_team


def _team_named(session: Session, event_id: int, team: str) -> TeamRow:
    """The event's team whose code or name is ``team``; ``InvalidSetting`` (field ``team``)."""
    found = (
        session.scalars(
            select(TeamRow).where(TeamRow.event_id == event_id, TeamRow.code == team)
        ).first()
        or session.scalars(
            select(TeamRow).where(TeamRow.event_id == event_id, TeamRow.name == team)
        ).first()
    )
    if found is None:
        raise InvalidSetting("team", Msg("the event has no team %(team)s", team=team))
    return found


def player_id(db: Database, event_id: int, name: str, team: str | None = None) -> int:
    """The id of the entrant named ``name`` (tests and scripts; pages pass ids); in a team
    event the roster player's id, of ``team`` (its code or name) when given.

    ``NotFound`` when the event (or the team) has no such player; ``InvalidSetting`` (field
    ``team``) for a team the event does not have, or a team given in an individual event."""
    with db.transaction() as session:
        team_event = is_team_event(session, event_id)
        if team is not None and not team_event:
            raise InvalidSetting("team", Msg("applies to team events only"))
        query = select(PlayerRow.id).where(
            PlayerRow.event_id == event_id,
            (PlayerRow.name == name) | (PlayerRow.player_code == name),
        )
        if team is not None:
            query = query.where(PlayerRow.team_id == _team_named(session, event_id, team).id)
        ids = session.scalars(query.order_by(PlayerRow.id)).all()
        if len(ids) > 1 and team_event:
            raise InvalidSetting(
                "team", Msg("%(name)s plays for several teams: name the team", name=name)
            )
        found = ids[0] if ids else None
        if found is None:
            if team is not None:
                raise NotFound(
                    Msg("%(name)s is not a roster player of %(team)s", name=name, team=team)
                )
            raise NotFound(Msg("event %(event_id)s has no such player", event_id=event_id))
        return int(found)


def _link_of(session: Session, player: int) -> PlayerAccountRow | None:
    """The account link of ``player`` (an entrant, or a team's player), if any."""
    return session.scalar(select(PlayerAccountRow).where(PlayerAccountRow.player_id == player))


def new_link(session: Session, event_id: int, player: int) -> PlayerAccountRow:
    """The account link of ``player`` (an entrant, or a team's player), made empty — for an
    invitation or an approved claim to fill."""
    link = PlayerAccountRow(event_id=event_id, player_id=player)
    session.add(link)
    return link


def _linked_name(session: Session, link: PlayerAccountRow) -> str:
    """The name of the player of ``link``."""
    return player_row(session, link.event_id, link.player_id).name


def create_invite(
    db: Database,
    actor: Actor,
    event_id: int,
    player: int,
    clock: ServerClock = SYSTEM_CLOCK,
    *,
    team: int | None = None,
) -> Invite:
    """A new one-time code for entrant ``player`` — in a team event the roster player of that
    id (``team``: the team id the organiser meant; another team's player is refused) — for
    those who manage the event's players; it replaces an unspent one. ``Conflict`` when a user
    already plays as this player; ``NotFound`` for a player the event does not have."""
    code = _new_code()
    with db.transaction() as session:
        require(session, actor, Action.MANAGE_PLAYERS, event_id)
        lock_event(session, event_id)
        row, of_team = event_player(session, event_id, player, team)
        name, team_code = row.name, of_team.code if of_team is not None else None
        link = _link_of(session, player)
        if link is not None and link.user_id is not None:
            raise Conflict(Msg("%(name)s is already linked to an account", name=name))
        link = link or new_link(session, event_id, player)
        link.invite_hash = _code_hash(code)
        link.invited_at = clock.now()
        session.flush()
        return Invite(player, name, code, team_code)


def _team_label(session: Session, event_id: int, team: int) -> str:
    row = session.get(TeamRow, team)
    if row is None or row.event_id != event_id:
        raise InvalidSetting("team", Msg("the event has no team %(team)s", team=str(team)))
    return row.name


def entrant_accounts(db: Database, actor: Actor, event_id: int) -> list[EntrantAccount]:
    """Every entrant of the event with its invitation and linked user, in entry order."""
    with db.transaction() as session:
        require(session, actor, Action.MANAGE_PLAYERS, event_id)
        existing_event(session, event_id)
        players = [
            (p.id, p.name, t.name if t is not None else None)
            for p, t in players_with_teams(session, event_id)
        ]
        links = {
            r.player_id: r
            for r in session.scalars(
                select(PlayerAccountRow).where(PlayerAccountRow.event_id == event_id)
            )
        }
        names = {
            u.id: u.username
            for u in session.scalars(
                select(User).where(User.id.in_([r.user_id for r in links.values() if r.user_id]))
            )
        }
        out = []
        for pid, name, team in players:
            link = links.get(pid)
            user = link.user_id if link is not None else None
            out.append(
                EntrantAccount(
                    pid,
                    name,
                    link is not None and link.invite_hash is not None,
                    names.get(user) if user is not None else None,
                    team,
                )
            )
        return out


def redeem_invite(
    db: Database, actor: Actor, code: str, clock: ServerClock = SYSTEM_CLOCK
) -> Linked:
    """The logged-in user becomes the player of the code's entrant; the code is spent.

    ``InvalidSetting`` (field ``code``) for a code that is empty, unknown or already spent;
    ``Conflict`` when the user already plays as another entrant of the same event."""
    if not actor.authenticated or actor.user_id is None:
        raise PermissionDenied(Role.PUBLIC.value, Msg("redeem an invitation code"))
    if not normalise_code(code):
        raise InvalidSetting("code", Msg("enter the invitation code"))
    with db.transaction() as session:
        link = claim_code(session, code)
        other = session.scalar(
            select(PlayerAccountRow).where(
                PlayerAccountRow.event_id == link.event_id,
                PlayerAccountRow.user_id == actor.user_id,
            )
        )
        if other is not None and other.id != link.id:
            raise Conflict(
                Msg(
                    "you already play as %(name)s in this event",
                    name=_linked_name(session, other),
                )
            )
        return link_user(session, link, actor.user_id, clock)


def claim_code(session: Session, code: str) -> PlayerAccountRow:
    """The unspent invitation ``code``'s link, read again under its event's lock (two people
    or programs spending one code: one links, the other is refused); ``InvalidSetting`` (field
    ``code``) for a code unknown or already spent."""
    link = session.scalar(
        select(PlayerAccountRow).where(PlayerAccountRow.invite_hash == _code_hash(code))
    )
    if link is None:
        raise InvalidSetting("code", Msg("this invitation code is unknown or already used"))
    lock_event(session, link.event_id)
    session.refresh(link)
    if link.invite_hash != _code_hash(code) or link.user_id is not None:
        raise InvalidSetting("code", Msg("this invitation code is unknown or already used"))
    return link


def link_user(session: Session, link: PlayerAccountRow, user_id: int, clock: ServerClock) -> Linked:
    """User ``user_id`` becomes the player of ``link``'s entrant (or roster player); the code is
    spent, and the pending claims this settles are declined (``entry_claims.close_claims``)."""
    from weiqi.services.entry_claims import close_claims  # it builds on this module

    name = _linked_name(session, link)
    link.user_id = user_id
    link.linked_at = clock.now()
    link.invite_hash = None
    close_claims(session, link, user_id, clock)
    event = session.get(EventRow, link.event_id)
    assert event is not None
    session.flush()
    return Linked(event.id, event.name, link.player_id, name)


@dataclass(frozen=True)
class MyGame:
    """A linked player's board in the latest published round of one event (in a team event:
    the latest round whose lineups are revealed, ``key`` the team board)."""

    event_id: int
    event_name: str
    round: int
    board: int
    color: str
    """``B`` or ``W``."""
    opponent: str
    result: str | None
    key: BoardKey = 0
    """How the board is named in its round (``services.games``)."""
    team: str | None = None
    """A team board's own team and the opponent's (names)."""
    opponent_team: str | None = None

    @property
    def url(self) -> str:
        return room_url(self.event_id, self.round, self.key)


def key_of(data: Mapping[str, Any]) -> BoardKey:
    """The board of a snapshot's data (``Snapshot.to_data()``).

    >>> key_of({"board": 2, "match": None}), key_of({"board": 2, "match": 1, "sitting": 0})
    (2, TeamBoard(match=1, board=2, sitting=0))
    """
    board = int(data["board"])
    match = data.get("match")
    return board if match is None else TeamBoard(int(match), board, int(data.get("sitting", 0)))


def board_ref(board: BoardKey) -> int | str:
    """A board as the pushes and the round pages name it: its number, or a team board's
    ``match.board.sitting``.

    >>> board_ref(2), board_ref(TeamBoard(1, 4))
    (2, '1.4.0')
    """
    if isinstance(board, TeamBoard):
        return f"{board.match}.{board.board}.{board.sitting}"
    return board


def board_path(event_id: int, number: int, board: BoardKey) -> str:
    """The page of a board, in its event's scheme (without a rotation match's ``?sitting=``).

    >>> board_path(3, 2, 1), board_path(3, 2, TeamBoard(1, 4))
    ('/events/3/rounds/2/boards/1', '/events/3/rounds/2/matches/1/boards/4')
    """
    if isinstance(board, TeamBoard):
        return f"/events/{event_id}/rounds/{number}/matches/{board.match}/boards/{board.board}"
    return f"/events/{event_id}/rounds/{number}/boards/{board}"


def room_url(event_id: int, number: int, board: BoardKey, part: str = "/play") -> str:
    """The game room of a board (``part="/live"``: its WebSocket): the board's page + ``/play``.

    >>> room_url(3, 2, 1)
    '/events/3/rounds/2/boards/1/play'
    >>> room_url(3, 2, TeamBoard(1, 4, 1), "/live")
    '/events/3/rounds/2/matches/1/boards/4/live?sitting=1'
    """
    sitting = board.sitting if isinstance(board, TeamBoard) else 0
    return board_path(event_id, number, board) + part + (f"?sitting={sitting}" if sitting else "")


def _shown_to_players(team: bool) -> ColumnElement[bool]:
    """The condition on a round whose boards its players see: published (an individual
    round), or its lineups revealed (a team round, ``team``)."""
    return RoundRow.revealed_at.is_not(None) if team else RoundRow.published.is_(True)


def players_round(session: Session, event_id: int, *, team: bool) -> RoundRow | None:
    """The latest round of event ``event_id`` whose boards its players see: published (an
    individual event), or whose lineups are revealed (a team event, ``team``); ``None`` before
    the first. A player's games (:func:`my_games`) and a bot's (``live_bot``) are in it.

    >>> db = Database("sqlite://"); db.upgrade()
    >>> with db.transaction() as session:
    ...     players_round(session, 1, team=False) is None
    True
    """
    return session.scalar(
        select(RoundRow)
        .where(RoundRow.event_id == event_id, _shown_to_players(team))
        .order_by(RoundRow.number.desc())
        .limit(1)
    )


def my_games(db: Database, actor: Actor) -> list[MyGame]:
    """The user's game in the latest round its players see of each event they play in
    (:func:`player_games`; a round they sit out, or an event with no such round yet, shows
    nothing)."""
    if actor.user_id is None:
        return []
    out: list[MyGame] = []
    with db.transaction() as session:
        links = session.scalars(
            select(PlayerAccountRow).where(PlayerAccountRow.user_id == actor.user_id)
        ).all()
        for link in links:
            out.extend(game for _, game in player_games(session, link)[1])
    return out


def player_games(
    session: Session, link: PlayerAccountRow
) -> tuple[RoundRow | None, list[tuple[GameRow, MyGame]]]:
    """The latest round the linked player's event shows its players (:func:`players_round`),
    and the boards the player plays in it, either kind of event, each with what the player's
    page shows of it: what a player's page (:func:`my_games`) and a bot
    (``live_bot.entrant_games``) show of the round. A team board with an empty seat is a
    forfeit, no game.

    >>> db = Database("sqlite://"); db.upgrade()
    >>> with db.transaction() as session:
    ...     player_games(session, PlayerAccountRow(event_id=1, player_id=1))
    (None, [])
    """
    player = session.get(PlayerRow, link.player_id)
    event = session.get(EventRow, link.event_id)
    if player is None or event is None:
        return None, []
    rnd = players_round(session, event.id, team=player.team_id is not None)
    if rnd is None:
        return None, []
    me = player.id
    rows = session.execute(
        select(GameRow, TeamMatchRow)
        .outerjoin(TeamMatchRow, TeamMatchRow.id == GameRow.match_id)
        .where(GameRow.round_id == rnd.id, or_(GameRow.black_id == me, GameRow.white_id == me))
        .order_by(TeamMatchRow.number, GameRow.sitting, GameRow.board)
    ).all()
    out = []
    for game, match in rows:
        black, white = game.black_id, game.white_id
        if black is None or white is None:
            continue
        color = "B" if black == me else "W"
        other = session.get(PlayerRow, white if color == "B" else black)
        assert other is not None
        key: BoardKey = game.board
        teams: tuple[str | None, str | None] = (None, None)
        if match is not None:
            home, away = session.get(TeamRow, match.home_id), session.get(TeamRow, match.away_id)
            assert home is not None and away is not None
            key = TeamBoard(match.number, game.board, game.sitting)
            ours, theirs = (home, away) if me == game.home_player_id else (away, home)
            teams = (ours.name, theirs.name)
        mine = MyGame(
            event.id, event.name, rnd.number, game.board, color, other.name, game.result, key,
            *teams,
        )  # fmt: skip
        out.append((game, mine))
    return rnd, out


def _seat(session: Session, actor: Actor, game: GameRow) -> Color | None:
    """The colour ``actor`` plays on ``game`` (an individual or a team board), or ``None``
    (a spectator)."""
    if actor.user_id is None:
        return None
    ids = session.scalars(
        select(PlayerAccountRow.player_id).where(PlayerAccountRow.user_id == actor.user_id)
    ).all()
    black, white = game.black_id, game.white_id
    if black is not None and black in ids:
        return Color.BLACK
    if white is not None and white in ids:
        return Color.WHITE
    return None


def _kept_seat(session: Session, actor: Actor, game: RefereedGame) -> Color | None:
    """:func:`_seat`, kept with the board's other reads (``services.game_cache``) when the
    game was loaded for a live move: a move asks again only after an account was linked or
    the pairing changed."""
    kept = game.kept
    if kept is None or actor.user_id is None:
        return _seat(session, actor, game.row)
    if actor.user_id not in kept.seats:
        kept.seats[actor.user_id] = _seat(session, actor, game.row)
    seat: Color | None = kept.seats[actor.user_id]
    return seat


def seat(db: Database, actor: Actor, event_id: int, number: int, board: BoardKey) -> str | None:
    """``"B"``/``"W"``: the colour the user plays on the board; ``None``: a spectator (anyone
    not logged in, the board not looked up: a crowd of anonymous spectators reads nothing
    here)."""
    if actor.user_id is None:
        return None
    with db.transaction() as session:
        game = _live_game(session, event_id, number, board)
        color = _kept_seat(session, actor, game)
        return color.value if color is not None else None


# -- the room's state ------------------------------------------------------------------------


@dataclass(frozen=True)
class ClockSide:
    """What one side has left at the snapshot's instant (seconds)."""

    main: float
    periods: int | None
    period: float | None
    moves: int | None
    in_overtime: bool
    total: float | None


@dataclass(frozen=True)
class ClockView:
    """Both clocks at ``now`` (the server's time, seconds since the epoch): the page counts
    down the running side from there until the next push."""

    system: str
    status: str
    running: str | None
    now: float
    black: ClockSide
    white: ClockSide
    period_time: float
    description: str
    """The time control in settings notation (``"5m+3x30s"``)."""


@dataclass(frozen=True)
class Played:
    """One event of the record as the room lists it."""

    seq: int
    kind: str
    color: str | None
    vertex: str | None
    move_number: int


@dataclass(frozen=True)
class Snapshot:
    """The whole state of a live game, as every push and every (re)load gives it."""

    event_id: int
    round: int
    board: int
    size: int
    black: str
    white: str
    seq: int
    phase: str
    to_move: str
    stones: dict[str, str]
    last_move: str | None
    captures: dict[str, int]
    """Stones each colour has captured (提子)."""
    moves: list[Played]
    """The moves (stones, passes, end proposals) from ``since`` on."""
    clock: ClockView | None
    dead: list[str]
    """The dead stones marked (by a player), else the server's proposal while counting."""
    dead_marked_by: str | None
    proposed: bool
    """``dead`` is the server's proposal, not yet a player's marking."""
    result: str | None
    confirmed: bool
    started: bool
    end_proposed_by: str | None = None
    """The player who proposed to end the game (R-END-2), until the opponent answers."""
    confirmations: list[str] = field(default_factory=list)
    """Who confirmed the result so far: ``B``, ``W``, ``referee``."""
    events: list[Played] = field(default_factory=list)
    """The events since the ``seq`` the reader last saw (all of them on a first load)."""
    move_number: int = 0
    warnings: dict[str, int] = field(default_factory=lambda: {"B": 0, "W": 0})
    """Warnings each colour was given in this game (one stone each at counting, R-PEN-1)."""
    paused: bool = False
    """A referee (or the system, while the server was down) paused the game (R-TIME-5)."""
    notices: list[dict[str, Any]] = field(default_factory=list)
    """What the referees and the system did (``services.live_notices``), in record order."""
    disputed: bool = False
    """The ending was disputed (R-END-3) and the game is not over yet: the referees look."""
    asking: str | None = None
    """The colour whose last period ran out and who may ask for a forfeited turn (弃权一次)
    until ``asking_until`` (seconds since the epoch); else the loss on time is ruled."""
    asking_until: float | None = None
    match: int | None = None
    """A team board's match in its round and sitting (``None``: an individual board)."""
    sitting: int = 0
    black_team: str | None = None
    """A team board's teams (codes) of Black and White."""
    white_team: str | None = None

    starts_at: float | None = None
    """When the server starts the game by itself (its round's start time, seconds since the
    epoch), while it has not started: the room counts down to it."""
    handicap_to_place: int = 0
    """The handicap stones Black is to place freely before White's first move (R-HCP-2)."""
    handicap_stones: list[str] = field(default_factory=list)
    """Where Black placed them (free placement; the fixed ones are the rules' star points)."""
    nigiri: dict[str, Any] | None = None
    """The nigiri that gave the colours (猜先, R-COLOR-1): ``holder``, ``guesser``, ``guess``
    (``odd``/``even``), ``count`` (the stones in the handful), ``seed``, ``black``."""
    absent: list[str] = field(default_factory=list)
    """The players not in the room when the game started at the round's start time, until
    they arrive (their clock runs: R-TIME-6)."""
    starts_in: float | None = None
    """Seconds from the snapshot's instant to ``starts_at`` (the room counts down from it,
    whatever its own clock says)."""
    since: int = 0
    """``moves`` and ``events`` are those from this ``seq`` on: a reader keeps its own earlier
    moves (0: all of them, as on a first load)."""

    @property
    def key(self) -> BoardKey:
        """How the board is named in its round (``services.games``)."""
        return board_key(self.board, self.match, self.sitting)

    def to_data(self) -> dict[str, Any]:
        """JSON-ready, with the board's :func:`board_ref` (``ref``)."""
        return {**asdict(self), "ref": board_ref(self.key)}


def _side(clock: Clock, now: float, color: Color) -> ClockSide:
    v = clock.remaining(now, color)
    return ClockSide(v.main, v.periods, v.period, v.moves, v.in_overtime, v.total)


def _clock_view(clock: Clock | None, now: float) -> ClockView | None:
    if clock is None or clock.tc.system is TimeSystem.UNTIMED:
        return None
    c = clock.advance(now) if clock.status is Status.RUNNING else clock
    running = c.to_move.value if c.status is Status.RUNNING and c.to_move else None
    return ClockView(
        c.tc.system.value,
        c.status.value,
        running,
        now,
        _side(c, now, Color.BLACK),
        _side(c, now, Color.WHITE),
        c.tc.period_time,
        c.tc.format(),
    )


def _played(record: GameRecord, since: int = 0) -> list[Played]:
    size = record.state.ruleset.board_size if record.state.ruleset else 19
    out = []
    for entry in record.entries[since:]:
        event = entry.event
        color = entry.actor.color.value if entry.actor.color is not None else None
        vertex = None
        if isinstance(event, Move):
            vertex = format_vertex(event.point, size)
        elif isinstance(event, ClockEvent):
            kind = f"clock_{event.action.value}"
            out.append(Played(entry.seq, kind, color, None, entry.move_number))
            continue
        out.append(Played(entry.seq, event.kind, color, vertex, entry.move_number))
    return out


_MOVES = ("move", "pass", "propose_end")


@dataclass(frozen=True)
class _Facts:
    """What a snapshot tells of the whole record, found in one pass over it."""

    started: bool
    """The clock was started (``ClockEvent(START)``)."""
    disputed: bool
    last_move: str | None
    """The last stone's vertex; ``None`` after a pass or before any move."""
    handicap: tuple[int, ...]
    """The freely placed handicap stones (R-HCP-2)."""


def _facts(record: GameRecord) -> _Facts:
    size = record.state.ruleset.board_size if record.state.ruleset else 19
    started = disputed = False
    last: str | None = None
    handicap: tuple[int, ...] = ()
    for entry in record.entries:
        event = entry.event
        if isinstance(event, Move):
            last = format_vertex(event.point, size)
        elif event.kind in _MOVES:
            last = None
        elif isinstance(event, ClockEvent):
            started = started or event.action is ClockAction.START
        elif isinstance(event, PlaceHandicap):
            handicap += event.points
        elif event.kind == "dispute":
            disputed = True
    return _Facts(started, disputed, last, handicap)


@lru_cache(maxsize=256)
def _proposal(stones: bytes, size: int) -> tuple[str, ...]:
    """The server's dead-stone proposal of a position (``rules.dead_stones``), cached: every
    snapshot of a game being counted shows it."""
    return tuple(sorted(format_vertex(p, size) for p in propose_dead(stones, size)))


def _snapshot(
    event_id: int, game: RefereedGame, record: GameRecord | None, now: float, since: int = 0
) -> Snapshot:
    size = game.ruleset.board_size
    if record is None:
        starts = _starts(game)
        return Snapshot(
            event_id, game.number, game.board, size, game.black, game.white, 0, "not_started",
            "B", {}, None, {"B": 0, "W": 0}, [], None, [], None, False, game.result,
            game.confirmed, False, match=game.match, sitting=game.sitting,
            black_team=game.black_team, white_team=game.white_team, starts_at=starts,
            starts_in=None if starts is None else starts - now,
        )  # fmt: skip
    now = record.time_from(now)  # a reader's clock read just before another writer appended
    state: GameState = record.state
    events = _played(record, since)
    # only the moves since ``since`` (a reader holds the earlier ones): a push stays as small
    # at move 300 as at move 3
    moves = [p for p in events if p.kind in _MOVES]
    facts = _facts(record)
    dead = [format_vertex(p, size) for p in state.dead_stones]
    proposed = False
    if state.phase is Phase.COUNTING and state.dead_marked_by is None:
        dead = list(_proposal(state.stones, size))
        proposed = True
    started = facts.started
    starts = None if started else _starts(game)  # the round read only before
    asking = _asking(state)
    return Snapshot(
        event_id,
        game.number,
        game.board,
        size,
        game.black,
        game.white,
        len(record),
        state.phase.value,
        state.to_move.value,
        state.stone_map(),
        facts.last_move,
        {"B": state.captures[0], "W": state.captures[1]},
        moves,
        _clock_view(state.clock, now),
        dead,
        state.dead_marked_by.value if state.dead_marked_by else None,
        proposed,
        state.result.to_code() if state.result is not None else None,
        state.confirmed,
        started,
        state.end_proposed_by.value if state.end_proposed_by else None,
        [a.color.value if a.color is not None else "referee" for a in state.confirmations],
        events,
        move_number=state.move_number,
        warnings={"B": state.warnings[0], "W": state.warnings[1]},
        paused=_referee_paused(state),
        notices=live_notices.notices(record),
        disputed=state.result is None and facts.disputed,
        asking=asking.value if asking is not None else None,
        asking_until=_ask_deadline(record),
        match=game.match,
        sitting=game.sitting,
        black_team=game.black_team,
        white_team=game.white_team,
        starts_at=starts,
        nigiri=_nigiri_data(record),
        handicap_stones=[format_vertex(p, size) for p in facts.handicap],
        handicap_to_place=state.ruleset.handicap
        if state.handicap_pending and state.ruleset is not None
        else 0,
        absent=sorted(c.value for c in state.clock.absent) if state.clock is not None else [],
        starts_in=None if starts is None else starts - now,
        since=since,
    )


def _nigiri_data(record: GameRecord) -> dict[str, Any] | None:
    first = record.entries[0].event if len(record) else None
    drawn = first.colors.nigiri if isinstance(first, Start) else None
    if drawn is None:
        return None
    return {
        "holder": drawn.holder,
        "guesser": drawn.guesser,
        "guess": drawn.guess.value,
        "count": drawn.count,
        "seed": drawn.seed,
        "black": drawn.black,
    }


def _asking(state: GameState) -> Color | None:
    """The player whose flag fell where the event allows a forfeited turn, while the game
    waits for their ask (R-TIME-2)."""
    c = state.clock
    if state.phase is not Phase.PLAYING or c is None or c.status is not Status.FLAGGED:
        return None
    return c.flagged if c.tc.timeout_pass else None


def _ask_deadline(record: GameRecord) -> float | None:
    """Until when the flagged player may ask for the forfeited turn: :data:`FORFEIT_ASK_SECONDS`
    after the look at the clock that found the flag."""
    if _asking(record.state) is None:
        return None
    checks = [
        e.at
        for e in record.entries
        if isinstance(e.event, ClockEvent) and e.event.action is ClockAction.CHECK
    ]
    return (checks[-1] if checks else record.entries[-1].at) + FORFEIT_ASK_SECONDS


def _referee_paused(state: GameState) -> bool:
    """The clock stands still in play: a pause (R-TIME-5), not the wait while the dead stones
    are agreed (which is the counting phase)."""
    c = state.clock
    return state.phase is Phase.PLAYING and c is not None and c.status is Status.PAUSED


def _live_game(session: Session, event_id: int, number: int, board: BoardKey) -> RefereedGame:
    """The board's game: an individual round's board, or a team board once seated (its round's
    lineups revealed) — what this worker keeps of it used again while nothing it comes from
    changed (``services.game_cache``): a round's spectators opening its rooms read each board
    once, not once each."""
    return read_game(session, event_id, number, board)


def snapshot(
    db: Database,
    event_id: int,
    number: int,
    board: BoardKey,
    *,
    since: int = 0,
    clock: ServerClock = SYSTEM_CLOCK,
) -> Snapshot:
    """The game as the room shows it (``since``: list the record's events from there)."""
    with db.transaction() as session:
        game = _live_game(session, event_id, number, board)
        _row, record = _load_record(session, game, keep=True)
        snap = _snapshot(event_id, game, record, clock.now().timestamp(), since)
    return snap


@dataclass(frozen=True)
class RoomEntry:
    """What a room's socket learns when a reader comes in (:func:`enter_room`)."""

    color: str | None
    """``"B"``/``"W"``: the colour the reader plays on the board; ``None``: a spectator."""
    opens: bool
    """Whether the reader's coming opens the game (:func:`open_game`): a player of a game
    whose colours are drawn by nigiri and which has no record yet."""
    snapshot: Snapshot
    wakeup: float | None = None
    """When the server should look at the game's clock next (:func:`next_wakeup`), as read
    with the state: a reader's coming need not ask again."""


def enter_room(
    db: Database,
    actor: Actor,
    event_id: int,
    number: int,
    board: BoardKey,
    clock: ServerClock = SYSTEM_CLOCK,
) -> RoomEntry:
    """Whether ``actor`` may see the board (``NotFound`` as if it did not exist: an individual
    round not yet public; a team board not seated), the colour they play there, whether they
    open the game and its state — read in one transaction, not one per question: a round's
    start is every player's and every spectator's socket coming in at once."""
    with db.transaction() as session:
        if not isinstance(board, TeamBoard):
            check_round_visible(session, actor, event_id, number)
        game = _live_game(session, event_id, number, board)
        seat = _kept_seat(session, actor, game) if actor.user_id is not None else None
        _row, record = _load_record(session, game, keep=True)
        opens = seat is not None and record is None and _opens(session, game)
        now = clock.now().timestamp()
        wakeup = _wakeup(session, game, record, now)
        snap = _snapshot(event_id, game, record, now)
    return RoomEntry(seat.value if seat is not None else None, opens, snap, wakeup)


def start_game(
    db: Database,
    event_id: int,
    number: int,
    board: BoardKey,
    clock: ServerClock = SYSTEM_CLOCK,
    *,
    present: Iterable[str] | None = None,
) -> Snapshot:
    """Start the game (both players are in the room): a new record with the event's time
    control (its colours as paired), and Black's clock running. A game already started is left
    as it is (read without the event's lock: a reconnection writes nothing, so the event's
    pages stay cached); a board with a record from the referees (a result entered) is not
    restarted.

    The event's settings decide (:attr:`PlaySettings.online`, the one rule, of team events
    alike): a game of an event played over the board is never started here (``Conflict``);
    a game that starts at its round's start time (:func:`start_time`) is not started before
    it, whoever is in the room — the server starts it then (:func:`wake`, the room passing
    who is ``present``: ``"B"``, ``"W"``; ``None``: both). A player absent at the round's
    start time is late (R-TIME-6, Art. 22): their clock runs from the start time, and on
    arriving in the room (:func:`arrive`) the late time is deducted twice; past the limit
    (1 hour, as for a venue apart from the lodging) the game is lost by forfeit."""
    with db.transaction() as session:
        game = _live_game(session, event_id, number, board)
        _row, record = _load_record(session, game, keep=True)
        if not _to_start(game, record):
            return _snapshot(event_id, game, record, clock.now().timestamp())
        at = _start_time(session, game)  # refuses an event played over the board
        if at is not None and clock.now().timestamp() < at:
            return _snapshot(event_id, game, record, clock.now().timestamp())
    with db.transaction() as session:
        game = _game_to_change(session, event_id, number, board, None, game_only=True)
        row, record = _load_record(session, game, keep=True)
        at = _start_time(session, game)
        seated = {"B", "W"} if present is None or at is None else set(present)
        absent = tuple(c for c in (Color.BLACK, Color.WHITE) if c.value not in seated)
        record = _begin(session, game, row, record, at, clock, absent)
        snap = _snapshot(event_id, game, record, clock.now().timestamp())
    return snap


def arrive(
    db: Database,
    event_id: int,
    number: int,
    board: BoardKey,
    color: str,
    clock: ServerClock = SYSTEM_CLOCK,
) -> Snapshot:
    """The player of ``color`` came into the room of a game that started without them: the
    server records the arrival (``ClockEvent(ARRIVE)``) and the clock judges the lateness
    (R-TIME-6: the late time deducted twice, a forfeit past the limit). Nothing is written for
    a player who was not absent (the snapshot then lists no new event)."""
    seat_color = Color(color)
    with db.transaction() as session:
        game = _live_game(session, event_id, number, board)
        _row, record = _load_record(session, game)
        if record is None or not _is_absent(record, seat_color):
            return _snapshot(
                event_id, game, record, clock.now().timestamp(), since=len(record or ())
            )
    with db.transaction() as session:
        game = _game_to_change(session, event_id, number, board, None, game_only=True)
        row, record = _load_record(session, game)
        assert record is not None
        before = len(record)
        if _is_absent(record, seat_color):
            record.append(
                ClockEvent(ClockAction.ARRIVE, color=seat_color), SERVER, _now(clock, record)
            )
            _store(session, game, row, record)
        return _snapshot(event_id, game, record, clock.now().timestamp(), since=before)


def _is_absent(record: GameRecord, color: Color) -> bool:
    c = record.state.clock
    return c is not None and color in c.absent and record.state.phase is Phase.PLAYING


def _begin(
    session: Session,
    game: RefereedGame,
    row: Any,
    record: GameRecord | None,
    at: float | None,
    clock: ServerClock,
    absent: tuple[Color, ...] = (),
) -> GameRecord | None:
    """Start the game's clock in the caller's transaction (under the event's lock) if it is
    still to be started: at ``at`` (the round's start time: the clock ran from then, present
    or not; the ``absent`` players late from it) or now. A game not opened yet is opened
    first (:func:`_open`: its colours)."""
    now = clock.now().timestamp()
    when = now if at is None else min(at, now)
    if record is None and game.result is None:
        # opened and started in one write (a round's start: every game at once)
        game, record = _open(session, game, at, when, store=False)
    if record is not None and _to_start(game, record):
        c = record.state.clock
        # only a record opened for the round's start time judges lateness (its policy)
        late = absent if c is not None and c.late is not None else ()
        start = ClockEvent(ClockAction.START, absent=late, scheduled=at if late else None)
        record.append(start, SERVER, record.time_from(when))
        _store(session, game, row, record)
    return record


def _open(
    session: Session, game: RefereedGame, at: float | None, when: float, *, store: bool = True
) -> tuple[RefereedGame, GameRecord]:
    """A new record of the game, its clock not started (stored unless ``store`` is false: the
    caller stores it with more): the event's time control, and the colours as paired — or,
    for an even game of an event that says so, by nigiri (猜先, R-COLOR-1) the server draws
    now, its seed recorded; the board's colours follow it, so the round sheet and the
    standings show the drawn colours. Returns the game as it now is."""
    colors = ColorAssignment.by_organiser(game.black, game.white)
    if _draws_nigiri(session, game):
        assert isinstance(game.row, GameRow)
        drawn = _nigiri(session, game)
        if drawn is not None:
            colors = ColorAssignment.by_nigiri(drawn)
            if drawn.black != game.black:  # the paired White took Black
                game.row.black_id, game.row.white_id = game.row.white_id, game.row.black_id
                session.flush()
                game = refereed_game(session, game.row)
    room = _room(session, game)
    record = GameRecord.start(
        game.ruleset,
        colors,
        referee=SERVER,
        at=when,
        time_control=room.time_control,
        late=LatePolicy.separate_venue() if at is not None else None,
        lag=room.play.lag if room.play is not None else None,
    )
    if store:
        row, _none = _load_record(session, game)
        _store(session, game, row, record)
    return game, record


def _nigiri(session: Session, game: RefereedGame) -> Nigiri | None:
    """The server's nigiri for the game: the higher rank holds, at equal rank the elder
    (R-COLOR-1); the guess and the handful come from one secret seed, recorded so that anyone
    can draw it again (``Nigiri.verify``). ``None`` when the ranks and birth dates do not say
    who holds: then the chief referee decides, and the colours stay as paired."""
    assert isinstance(game.row, GameRow)
    seed = secrets.randbits(48)
    guess = random.Random(seed).choice((Guess.ODD, Guess.EVEN))
    people = []
    for name, pid in ((game.black, game.row.black_id), (game.white, game.row.white_id)):
        player = session.get(PlayerRow, pid)
        assert player is not None
        strength = Rank.parse(player.rank).strength if player.rank else 0
        people.append(Contestant(name, strength, player.birth_date or date.max))
    try:
        return Nigiri.draw(people[0], people[1], guess, seed)
    except InvalidSetting:
        return None


def open_game(
    db: Database, event_id: int, number: int, board: BoardKey, clock: ServerClock = SYSTEM_CLOCK
) -> Snapshot:
    """Open the game when a player first comes into its room, before its clock starts, where
    its colours are drawn by nigiri (:func:`_open`): the players see who is Black before the
    clock starts. Elsewhere (colours as paired, a game opened or started already, an event
    played over the board) nothing is written."""
    with db.transaction() as session:
        game = _live_game(session, event_id, number, board)
        _row, record = _load_record(session, game)
        if record is not None or game.result is not None or not _draws_nigiri(session, game):
            return _snapshot(
                event_id, game, record, clock.now().timestamp(), since=len(record or ())
            )
    with db.transaction() as session:
        game = _game_to_change(session, event_id, number, board, None, game_only=True)
        _row, record = _load_record(session, game)
        if record is None and game.result is None:
            game, record = _open(session, game, _start_time(session, game), clock.now().timestamp())
            return _snapshot(event_id, game, record, clock.now().timestamp())
        return _snapshot(event_id, game, record, clock.now().timestamp(), since=len(record or ()))


def to_open(db: Database, event_id: int, number: int, board: BoardKey) -> bool:
    """Whether a player coming into the room opens the game (:func:`open_game`: its colours
    to be drawn by nigiri and no record yet): a cheap read, so that the room writes only then."""
    with db.transaction() as session:
        game = _live_game(session, event_id, number, board)
        return session.get(GameRecordRow, game.id) is None and _opens(session, game)


def _opens(session: Session, game: RefereedGame) -> bool:
    """Whether a player's coming opens ``game``, which has no record yet."""
    return game.result is None and _draws_nigiri(session, game)


def _draws_nigiri(session: Session, game: RefereedGame) -> bool:
    return _room(session, game).nigiri


@dataclass(frozen=True)
class _Room:
    """What a game's room reads of its event besides the board: a round's start is every
    player's and every spectator's socket coming in at once, and each asked this of the
    database (five statements of a join's seven) — now read once per board and worker while
    the event's shape stays (kept with the board's other reads, ``services.game_cache``)."""

    starts: float | None
    """When the game's round starts (:func:`_round_start`)."""
    play: PlaySettings | None
    """The event's settings, of either kind (``events.event_settings``): where and when its
    games are played."""
    nigiri: bool
    """Whether the server draws the colours by nigiri: an even game of an online event that
    says so."""

    @property
    def time_control(self) -> TimeControl | None:
        """The time control the game's clock runs under: its event's
        (``PlaySettings.game_time_control``)."""
        return self.play.game_time_control if self.play is not None else None


def _kept_room(game: RefereedGame) -> _Room | None:
    """:class:`_Room` of ``game`` if its kept reads hold one."""
    room = game.kept.room if game.kept is not None else None
    return room if isinstance(room, _Room) else None


def _room(session: Session, game: RefereedGame) -> _Room:
    """:class:`_Room` of ``game``, as kept or read now (and kept)."""
    kept_room = _kept_room(game)
    if kept_room is not None:
        return kept_room
    kept = game.kept
    event_id = _event_of(game)
    settings = event_settings(session, event_id)
    room = _Room(
        _round_start(game),
        settings,
        isinstance(settings, EventSettings)
        and settings.online
        and settings.online_colors == "nigiri"
        and isinstance(game.row, GameRow)
        and game.row.handicap == 0,
    )
    if kept is not None:
        kept.room = room
    return room


def _starts(game: RefereedGame) -> float | None:
    """When the game's round starts: as its room found it, else read now."""
    room = _kept_room(game)
    return room.starts if room is not None else _round_start(game)


def _start_time(session: Session, game: RefereedGame) -> float | None:
    """When the server starts the game whoever is in the room (seconds since the epoch): its
    round's start time where the event starts games then; ``None``: once both players are in
    the room. ``Conflict`` for an event played over the board. The one rule of individual and
    team events alike (:class:`~weiqi.tournament.settings.PlaySettings`; a team board's round
    is its match's)."""
    room = _room(session, game)
    if room.play is None or not room.play.online:
        raise Conflict(OVER_THE_BOARD)
    return room.starts if room.play.game_start is GameStart.ROUND_START else None


def _round_start(game: RefereedGame) -> float | None:
    """When the game's round starts (seconds since the epoch), as the organisers set it; a
    team board's round is its match's."""
    rnd = game.row.round
    starts = as_utc(rnd.starts_at)
    return starts.timestamp() if starts is not None else None


def _event_of(game: RefereedGame) -> int:
    return game.row.round.event_id


def _scheduled(session: Session, game: RefereedGame) -> float | None:
    """:func:`_start_time`, ``None`` for an event played over the board (nothing to wake)."""
    try:
        return _start_time(session, game)
    except Conflict:
        return None


def start_time(db: Database, event_id: int, number: int, board: BoardKey) -> float | None:
    """When the server starts the game by itself (:func:`_start_time`); ``None`` also for a
    game already begun."""
    with db.transaction() as session:
        game = _live_game(session, event_id, number, board)
        _row, record = _load_record(session, game)
        return _start_time(session, game) if _to_start(game, record) else None


def scheduled_starts(
    db: Database, clock: ServerClock = SYSTEM_CLOCK, within: float = 60.0
) -> list[tuple[int, int, BoardKey]]:
    """The games the server is to start by itself within ``within`` seconds or overdue: boards
    of published rounds (a team round: its lineups revealed, both seats taken) with a start
    time, no record and no result yet, in online events that start games at the round's start
    time (:func:`_start_time`'s settings). The application looks for them regularly and
    watches each (``server/live/lifespan.py``), so that a game starts on time with nobody in
    the room — also when the start was set from the command line."""
    limit = clock.now() + timedelta(seconds=within)
    with db.transaction() as session:
        # an individual round's boards once it is published, a team round's once its lineups
        # are revealed; a team board with an empty seat is a forfeit, no game
        shown = or_(
            and_(GameRow.match_id.is_(None), _shown_to_players(team=False)),
            and_(GameRow.match_id.is_not(None), _shown_to_players(team=True)),
        )
        boards: list[tuple[int, int, BoardKey]] = [
            (int(event_id), int(number), board_key(board, match, sitting))
            for event_id, number, match, board, sitting in session.execute(
                select(*GAME_PLACE)
                .join(RoundRow, RoundRow.id == GameRow.round_id)
                .outerjoin(TeamMatchRow, TeamMatchRow.id == GameRow.match_id)
                .outerjoin(GameRecordRow, GameRecordRow.game_id == GameRow.id)
                .where(
                    shown,
                    RoundRow.starts_at.is_not(None),
                    RoundRow.starts_at <= limit,
                    GameRow.black_id.is_not(None),
                    GameRow.white_id.is_not(None),
                    GameRow.result.is_(None),
                    GameRecordRow.game_id.is_(None),
                )
            )
        ]
        settings: dict[int, PlaySettings | None] = {}
        out = []
        for key in sorted(boards, key=_board_order):
            event_id = key[0]
            if event_id not in settings:
                settings[event_id] = event_settings(session, event_id)
            found = settings[event_id]
            if found is not None and found.online and found.game_start is GameStart.ROUND_START:
                out.append(key)
        return out


def _board_order(key: tuple[int, int, BoardKey]) -> tuple[int, int, int, int, int]:
    event_id, number, board = key
    if isinstance(board, TeamBoard):
        return event_id, number, board.match, board.sitting, board.board
    return event_id, number, 0, 0, board


def _to_start(game: RefereedGame, record: GameRecord | None) -> bool:
    """Whether the game is still to be started: no record and no result yet, or a record in
    play whose clock was never started."""
    if record is None:
        return game.result is None
    return _to_start_clock(record)


def _to_start_clock(record: GameRecord) -> bool:
    """Whether ``record`` is in play with its clock never started."""
    return record.state.phase is Phase.PLAYING and not any(
        isinstance(e.event, ClockEvent) and e.event.action is ClockAction.START
        for e in record.entries
    )


# -- a player's actions ----------------------------------------------------------------------


@dataclass(frozen=True)
class ActionOutcome:
    """What an action did: the game after it (``snapshot.events``: what it stored), and why
    it was refused when it was (``refused``: nothing of the action stored — though a flag
    that had fallen before it may have been recorded, as ``snapshot.events`` then shows)."""

    snapshot: Snapshot
    refused: Msg | None = None
    reason: str | None = None
    """The rules' reason of an illegal move (``occupied``, ``suicide``, ``ko``, ``superko``…)."""
    next_at: float | None = None
    """When the server should look at the game's clock next, as :func:`next_wakeup` would
    say right after the action (the room's watcher need not read the game again)."""


def _vertices(points: Iterable[str], size: int, field: str) -> tuple[int, ...]:
    out = []
    for v in points:
        p = parse_vertex(str(v), size)
        if p is None:
            raise InvalidSetting(field, Msg("%(p)s holds no stone", p=str(v)))
        out.append(p)
    return tuple(sorted(set(out)))


def _think(data: dict[str, Any]) -> float | None:
    """The think time a player's client says the move took (``data["think"]``, seconds), to
    the millisecond; ``None`` for none or anything but a finite number >= 0. A bad value is
    ignored rather than refused: the move counts, nothing of its time is forgiven.

    >>> _think({"think": 12.3456}), _think({"think": 3}), _think({})
    (12.346, 3.0, None)
    >>> _think({"think": -1}), _think({"think": "5"}), _think({"think": 10**400})
    (None, None, None)
    """
    value = data.get("think")
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        seconds = float(value)
    except OverflowError:  # a whole number beyond any float
        return None
    return round(seconds, 3) if math.isfinite(seconds) and seconds >= 0 else None


def _events_for(
    action: str, color: Color, state: GameState, size: int, data: dict[str, Any], timed: bool
) -> tuple[RecordEvent, ...]:
    # the press that ends the player's turn carries their client's think time where the game
    # has a lag allowance: it forgives the rest of what the server measured, out of its quota
    think = _think(data) if state.clock is not None and state.clock.lag is not None else None
    press = (ClockEvent(ClockAction.PRESS, think=think),) if timed else ()
    if action == "place_handicap":  # free placement (R-HCP-2): Black's stones, then White
        if color is not Color.BLACK:
            raise Conflict(Msg("only Black places the handicap stones"))
        points = []
        for v in data.get("stones") or []:
            try:
                p = parse_vertex(str(v), size)
            except InputError:
                p = None
            if p is None:
                raise InvalidSetting("stones", Msg("%(p)s is not a point of the board", p=str(v)))
            points.append(p)
        return (PlaceHandicap(tuple(points)), *press)
    if action == "move":
        point = parse_vertex(str(data.get("vertex", "")), size)
        if point is None:
            return (Pass(), *press)
        return (Move(point), *press)
    if action == "pass":
        return (Pass(), *press)
    if action == "resign":
        return (Resign(),)
    if action == "propose_end":  # the player to move proposes the end and passes (R-END-2)
        return (ProposeEnd(), *press)
    if action == "accept_end":
        return (AcceptEnd(),)
    if action == "refuse_end":
        return (RefuseEnd(),)
    if action == "mark_dead":
        return (MarkDead(_vertices(data.get("stones", []), size, "dead stones")),)
    if action == "agree_dead":
        return (AgreeDead(),)
    if action == "dispute":
        # The opponent's marking holds stones of this player: the opponent claims them dead,
        # this player says they live; play resumes with the claimant moving (R-END-3).
        own = tuple(p for p in state.dead_stones if state.color_at(p) is color)
        if state.dead_marked_by is None or state.dead_marked_by is color or not own:
            raise Conflict(
                Msg("only a marking of your own stones by your opponent can be disputed")
            )
        return (Dispute(own, color.opponent),)
    if action == "confirm":
        return (Confirm(),)
    if action in _ASKED_OF_THE_SERVER:
        if _asking(state) is not color:
            raise Conflict(Msg("only a player whose last period ran out may ask for this"))
        if action == "forfeit_turn":  # 弃权一次: the opponent moves, the same byo-yomi goes on
            return (ClockEvent(ClockAction.FORFEIT_TURN),)
        declined = Ruling(RulingKind.TIME_LOSS, live_notices.DECLINED_REASON, color)
        return (RulingMade(declined),)
    raise InvalidSetting("action", Msg("unknown action %(action)s", action=action))


def act(
    db: Database,
    actor: Actor,
    event_id: int,
    number: int,
    board: BoardKey,
    action: str,
    expected_seq: int | None,
    data: dict[str, Any] | None = None,
    clock: ServerClock = SYSTEM_CLOCK,
) -> ActionOutcome:
    """The player ``actor`` does ``action`` (one of :data:`ACTIONS`) in the game as it stood
    at ``expected_seq`` (the ``seq`` of the snapshot the player saw; ``None``: whatever it is
    now). ``data``: ``{"vertex": "D4"}`` for a move, ``{"stones": ["C3", …]}`` for a marking;
    a move, a pass, a proposal to end or a handicap placement may say ``"think"``: the seconds
    the player thought, as their client measured them from the push that gave them the turn.
    It is only the client's claim: the time of the event is the server's (``clock``), and the
    game's lag allowance (:class:`~weiqi.clock.lag.LagPolicy`, from the event's settings)
    forgives at most its quota of the difference.

    Refusals of the rules (an illegal move, not the player's turn, the game over) come back as
    ``Outcome.refused``; a user who plays neither colour gets ``PermissionDenied``, a page out
    of date a ``Conflict``."""
    data = data or {}
    with db.transaction() as session:
        game = _game_to_change(session, event_id, number, board, expected_seq, game_only=True)
        color = _kept_seat(session, actor, game)
        if color is None:
            raise PermissionDenied(actor.username or Role.PUBLIC.value, Msg("play in this game"))
        row, record = _load_at(session, game, expected_seq, keep=True)
        if record is None or (action not in ("resign",) and _to_start(game, record)):
            snap = _snapshot(event_id, game, record, clock.now().timestamp())
            return ActionOutcome(snap, Msg("the game has not started"))
        before = len(record)
        now = _now(clock, record)
        flagged = _flag_if_due(record, now)
        if not flagged and action in _PRESSES:
            flagged = _flag_if_late(record, color, now, data)
        refused: Msg | None = None
        reason: str | None = None
        if flagged:
            refused = Msg("time: %(color)s's time ran out", color=record.state.clock.flagged)  # type: ignore[union-attr]
        elif action in PAUSED_REFUSES and _referee_paused(record.state):
            refused = Msg("the game is paused: wait until the referee resumes it")
        else:
            state = record.state
            size = game.ruleset.board_size
            timed = state.clock is not None and state.clock.status is Status.RUNNING
            try:
                first, *rest = _events_for(action, color, state, size, data, timed)
                # The rules refuse an event before it changes anything (``GameRecord.append``);
                # a flagged player's ask is recorded by the server, the game's referee.
                by = SERVER if action in _ASKED_OF_THE_SERVER else GameActor.player(color)
                record.append(first, by, now)
            except IllegalMove as err:
                refused, reason = err.msg, err.kind
            except (Conflict, InvalidSetting) as err:
                refused = _core_reason(err)
            else:
                for one in rest:  # the clock pressed after the stone: refused only by a bug
                    record.append(one, GameActor.player(color), now)
        if len(record) > before:
            _store(session, game, row, record)
        at = clock.now().timestamp()
        snap = _snapshot(event_id, game, record, at, since=before)
    return ActionOutcome(snap, refused, reason, _started_wakeup(record, at))


def _core_reason(err: Any) -> Msg:
    """The core says "event N: why"; the N of an event never stored means nothing."""
    msg: Msg = err.msg
    if msg.id == "event %(seq)s: %(reason)s":
        why = msg.args["reason"]
        return why if isinstance(why, Msg) else Msg.of(str(why))
    return msg


def _flag_due(record: GameRecord, now: float) -> bool:
    """Whether a flag has fallen by ``now`` that the record does not hold yet."""
    state = record.state
    clock = state.clock
    if clock is None or clock.status is not Status.RUNNING:
        return False
    due = clock.next_deadline()
    return due is not None and due <= now and state.phase in (Phase.PLAYING, Phase.COUNTING)


def _ask_expired(record: GameRecord, now: float) -> bool:
    """Whether the flagged player's time to ask for a forfeited turn is over (R-TIME-2)."""
    until = _ask_deadline(record)
    return until is not None and now >= until


def _flag_if_due(record: GameRecord, now: float) -> bool:
    """Record a flag that has fallen by ``now`` (the server looks at the clock); ``True`` if
    the game ended on time by it."""
    if not _flag_due(record, now):
        return False
    due = record.state.clock.next_deadline() if record.state.clock else None
    record.append(ClockEvent(ClockAction.CHECK), SERVER, max(now, due or now))
    return record.state.phase is Phase.FINISHED


def _flag_if_late(record: GameRecord, color: Color, now: float, data: dict[str, Any]) -> bool:
    """Record the flag of a turn sent too late: with a lag allowance the flag falls only when
    the quota is spent too (:meth:`Clock.next_deadline`), so a press may reach the server after
    the time ran out and before that; it counts if its think time, the lag forgiven, fits the
    time left. If not, the move does not stand: the press alone is recorded, which makes the
    flag fall (R-TIME-2); ``True`` then."""
    state = record.state
    clock = state.clock
    if (
        clock is None
        or clock.lag is None
        or clock.status is not Status.RUNNING
        or clock.to_move is not color
        or state.phase is not Phase.PLAYING
    ):
        return False
    think = _think(data)
    if clock.press(now, color, think).status is not Status.FLAGGED:
        return False
    record.append(ClockEvent(ClockAction.PRESS, think=think), GameActor.player(color), now)
    return True


@dataclass(frozen=True)
class Wake:
    """What the server's look at a running clock found: the game after it (``changed``: a flag
    was recorded), the call-out due now (``{"zh": …, "en": …}``) and when to look next
    (seconds since the epoch; ``None``: the clock does not run)."""

    snapshot: Snapshot
    changed: bool
    callout: dict[str, Any] | None
    next_at: float | None
    start_due: bool = False
    """The round's start time has come and the game is still to start: the room starts it
    (:func:`start_game` with who is present)."""


def wake(
    db: Database,
    event_id: int,
    number: int,
    board: BoardKey,
    clock: ServerClock = SYSTEM_CLOCK,
    *,
    since: int | None = None,
) -> Wake:
    """The server looks at the game's clock at its deadline or call-out, whether or not anybody
    sends anything: a flag that has fallen is recorded (the time loss goes into the record and
    the result), a call-out that is due is returned for the room to push. Only a flag writes
    (under the game's lock); a call-out is a read."""
    with db.transaction() as session:
        game = _live_game(session, event_id, number, board)
        _row, record = _load_record(session, game, keep=True)
        to_start = _to_start(game, record)
        if to_start:
            at = _scheduled(session, game)
            if at is None or clock.now().timestamp() < at:
                snap = _snapshot(event_id, game, record, clock.now().timestamp())
                return Wake(snap, False, None, at)
        elif record is None:
            snap = _snapshot(event_id, game, None, clock.now().timestamp())
            return Wake(snap, False, None, None)
        else:
            now = _now(clock, record)
            if not _flag_due(record, now) and not _ask_expired(record, now):
                return _woke(game, record, clock, since, len(record), False, event_id)
    if to_start:  # the round's start time has come: the room starts it, knowing who is there
        snap = _snapshot(event_id, game, record, clock.now().timestamp())
        return Wake(snap, False, None, None, start_due=True)
    with db.transaction() as session:
        game = _game_to_change(session, event_id, number, board, None, game_only=True)
        row, record = _load_record(session, game, keep=True)
        assert record is not None
        before = len(record)
        now = _now(clock, record)
        _flag_if_due(record, now)
        if _ask_expired(record, now):  # no forfeited turn asked in time: the loss stands
            loser = _asking(record.state)
            assert loser is not None
            ruling = Ruling(RulingKind.TIME_LOSS, live_notices.NOT_ASKED_REASON, loser)
            record.append(RulingMade(ruling), SERVER, now)
        changed = len(record) > before
        if changed:
            _store(session, game, row, record)
        return _woke(game, record, clock, since, before, changed, event_id)


def _woke(
    game: RefereedGame,
    record: GameRecord,
    clock: ServerClock,
    since: int | None,
    before: int,
    changed: bool,
    event_id: int,
) -> Wake:
    now = _now(clock, record)
    callout = None
    next_at = None
    c = record.state.clock
    if c is not None and c.status is Status.RUNNING:
        said = c.announcements(now)
        if said and c.since is not None:
            move_start = (c.since - c.elapsed) / 1000
            if now - (move_start + said[-1].offset) < 1.0:
                callout = said[-1].callout.to_dict()
        next_at = c.next_wakeup(now)
    snap = _snapshot(event_id, game, record, now, since=before if since is None else since)
    return Wake(snap, changed, callout, next_at)


def _board_id(session: Session, event_id: int, number: int, board: BoardKey) -> int:
    """The board's row id, read alone (no players, no settings); ``NotFound`` when the round
    has no such board."""
    game_id = session.scalar(board_id_query(event_id, number, board))
    if game_id is None:
        raise no_board(number, board_ref(board))
    return game_id


def next_wakeup(
    db: Database, event_id: int, number: int, board: BoardKey, clock: ServerClock = SYSTEM_CLOCK
) -> float | None:
    """When the server should look at the game's clock next (seconds since the epoch)."""
    with db.transaction() as session:
        # the record alone (the room asks after every move): not the players and settings
        game_id = _board_id(session, event_id, number, board)
        where = Msg("round %(round)s board %(board)s", round=number, board=board_ref(board))
        team = isinstance(board, TeamBoard)
        _row, record = _load_stored(session, team, game_id, where, keep=True)
        if record is None or _to_start_clock(record):
            # not started yet: when the server is to start it (the players and settings read)
            game = _live_game(session, event_id, number, board)
            return _wakeup(session, game, record, clock.now().timestamp())
        return _started_wakeup(record, clock.now().timestamp())


def _wakeup(
    session: Session, game: RefereedGame, record: GameRecord | None, now: float
) -> float | None:
    """:func:`next_wakeup` of ``game`` with its ``record`` read."""
    if record is None or _to_start_clock(record):
        return _scheduled(session, game) if _to_start(game, record) else None
    return _started_wakeup(record, now)


def _started_wakeup(record: GameRecord, now: float) -> float | None:
    """:func:`next_wakeup` of a game whose clock was started."""
    c = record.state.clock
    if c is not None and c.status is Status.FLAGGED:
        return _ask_deadline(record)  # the loss on time is ruled then, unless asked
    if c is None or c.status is not Status.RUNNING:
        return None
    return c.next_wakeup(record.time_from(now))
