"""Programs as entrants (issue #11): a GTP bot signs in with an invitation code and finds its
games.

An organiser makes the entrant's one-time invitation code as for a person
(:func:`weiqi.services.live.create_invite`, also ``weiqi player invite``). A person redeems it
from their own account on ``/join``; a program has no account and no browser, so it spends the
code on :func:`sign_in_with_code`: that makes a *code-only* account for the entrant (its
password hash is not a hash, so no password ever opens it), links it and the code is spent,
exactly as a redemption spends it. The route then opens an ordinary login session for the
account (the cookie), which the program keeps for the WebSocket and its reconnections.

:func:`entrant_games` is what the program asks for next: for each event it plays in, the
latest published round's game(s) of its entrant with what it needs to set up its engine
(board size, komi in points, handicap), and whether the event has more rounds to come.

>>> from weiqi.services import tournament as t
>>> from weiqi.services.actor import Actor
>>> from weiqi.services.event_admin import publish_round
>>> from weiqi.tournament.settings import EventSettings, System
>>> db = Database("sqlite://"); db.upgrade()
>>> local = Actor.local()
>>> from weiqi.services.events import create_event
>>> ev = create_event(db, local, "Bots", EventSettings(System.SWISS, rounds=2,
...                          board_size=9, play="online")).id
>>> _ = t.import_players(db, local, ev, "name\\nGNU Go\\nweiqi\\n")
>>> code = live.create_invite(db, local, ev, live.player_id(db, ev, "GNU Go")).code
>>> bot = sign_in_with_code(db, code)
>>> bot.user.username, bot.linked.name
('bot-1-1', 'GNU Go')
>>> _ = t.pair_round(db, local, ev); _ = publish_round(db, local, ev, 1)
>>> (event,) = entrant_games(db, bot.user.actor())
>>> event.round, event.rounds, event.more_rounds, [(g.board, g.size, g.komi) for g in event.games]
(1, 2, True, [(1, 9, 7.5)])
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from fractions import Fraction

from sqlalchemy import select
from sqlalchemy.orm import Session

from weiqi.errors import InvalidSetting, NotFound, PermissionDenied
from weiqi.messages import Msg
from weiqi.roles import Role
from weiqi.services import live
from weiqi.services.accounts import UserInfo, _info, add_user, normalise_username
from weiqi.services.actor import Actor
from weiqi.services.events import competition
from weiqi.services.public import stored_boards
from weiqi.services.read_models import BoardFacts, board_phase
from weiqi.services.server_clock import SYSTEM_CLOCK, ServerClock
from weiqi.store.database import Database
from weiqi.store.live import PlayerAccountRow
from weiqi.store.models import User
from weiqi.store.tournament import PlayerRow

#: The password hash of a code-only account: not a hash the hasher can read, so every password
#: is refused (``accounts.authenticate``); the account opens only by its session cookie.
NO_PASSWORD = "!code-only"


@dataclass(frozen=True)
class BotSignIn:
    """A code spent by a program: its new account and the entrant it plays as."""

    user: UserInfo
    linked: live.Linked


def _free_username(session: Session, wanted: str) -> str:
    name = normalise_username(wanted)
    while session.scalar(select(User.id).where(User.username == name)) is not None:
        name = f"{normalise_username(wanted)}-{secrets.token_hex(2)}"
    return name


def sign_in_with_code(db: Database, code: str, clock: ServerClock = SYSTEM_CLOCK) -> BotSignIn:
    """Spend the invitation ``code`` for a program: a new code-only account (``bot-E-P``: event
    and entrant ids) becomes the entrant's player. ``InvalidSetting`` (field ``code``) for a code
    that is empty, unknown or already spent — the same refusal as a person's redemption."""
    if not live.normalise_code(code):
        raise InvalidSetting("code", Msg("enter the invitation code"))
    with db.transaction() as session:
        link = live.claim_code(session, code)
        name = live._linked_name(session, link)
        user = add_user(session, _free_username(session, f"bot-{link.event_id}-{link.player_id}"),
                        NO_PASSWORD, name)  # fmt: skip
        linked = live.link_user(session, link, user.id, clock)
        return BotSignIn(_info(user), linked)


@dataclass(frozen=True)
class EntrantGame:
    """One board of the entrant in the latest published round, with its engine's set-up."""

    board: int
    color: str
    """``B`` or ``W``."""
    opponent: str
    size: int
    komi: float
    """In points, as GTP's ``komi`` takes it (the event's komi in stones × 2)."""
    handicap: int
    result: str | None
    confirmed: bool
    path: str
    """The room's path; its WebSocket is this plus ``/live``."""


@dataclass(frozen=True)
class EntrantEvent:
    """What an entrant has to play in one event now."""

    event_id: int
    event_name: str
    player: str
    round: int | None
    """The latest published round (``None``: none yet)."""
    rounds: int | None
    """The rounds the event plays (``None``: not fixed by its settings, e.g. a knockout)."""
    withdrawn: bool
    games: list[EntrantGame] = field(default_factory=list)

    @property
    def more_rounds(self) -> bool:
        """Whether a round after the latest published one may still bring the entrant a game."""
        if self.withdrawn:
            return False
        if self.round is None or self.rounds is None:
            return True
        return self.round < self.rounds


def entrant_games(db: Database, actor: Actor) -> list[EntrantEvent]:
    """For every event the user plays in (an individual event's entrant linked to the account),
    the latest published round's games of that entrant (none: a bye, or not paired)."""
    if not actor.authenticated or actor.user_id is None:
        raise PermissionDenied(Role.PUBLIC.value, Msg("play in this game"))
    out: list[EntrantEvent] = []
    with db.transaction() as session:
        links = session.scalars(
            select(PlayerAccountRow)
            .where(PlayerAccountRow.user_id == actor.user_id)
            .order_by(PlayerAccountRow.event_id)
        ).all()
        for link in links:
            player = session.get(PlayerRow, link.player_id)
            try:  # its settings and its players or teams counted, as the event's pages say
                event = competition(session, link.event_id)
            except NotFound:  # no settings yet: nothing to play
                continue
            if player is None:
                continue
            latest, boards = live.player_games(session, link)
            games = [
                EntrantGame(
                    mine.board,
                    mine.color,
                    mine.opponent,
                    event.settings.board_size,
                    float(Fraction(game.komi) * 2),
                    game.handicap or 0,
                    game.result,
                    bool(game.confirmed),
                    live.room_url(event.id, mine.round, mine.key, ""),
                )
                for game, mine in boards
            ]
            withdrawn = player.withdrawn_after is not None  # no round after it pairs them
            out.append(
                EntrantEvent(
                    event.id,
                    event.name,
                    player.name,
                    latest.number if latest is not None else None,
                    event.settings.planned_rounds(event.entrants),
                    withdrawn,
                    games,
                )
            )
    return out


def board_states(db: Database, event_id: int, number: int) -> dict[int, dict[str, object]]:
    """Each board of a round as a script watching it needs it, from the stored rows alone (one
    query, no record replayed: cheap on a round of thousands of boards): ``phase`` —
    ``not_started`` (no record), ``playing`` (a record, no result yet: in play or being
    counted), ``finished`` (a result, not confirmed), ``confirmed`` — and ``events``, the length
    of the board's record.

    >>> from weiqi.services import tournament as t
    >>> from weiqi.services.actor import Actor
    >>> from weiqi.tournament.settings import EventSettings, System
    >>> db = Database("sqlite://"); db.upgrade()
    >>> from weiqi.services.events import create_event
    >>> ev = create_event(db, Actor.local(), "Bots", EventSettings(System.ROUND_ROBIN)).id
    >>> _ = t.import_players(db, Actor.local(), ev, "name\\nA\\nB\\n")
    >>> _ = t.pair_round(db, Actor.local(), ev)
    >>> board_states(db, ev, 1)
    {1: {'phase': 'not_started', 'events': 0, 'confirmed': False}}
    """
    with db.transaction() as session:
        rows = stored_boards(session, event_id, number)
    out: dict[int, dict[str, object]] = {}
    for board, result, confirmed, events in rows:
        phase = board_phase(bool(result), BoardFacts(confirmed, events))
        out[board] = {"phase": phase, "events": events, "confirmed": confirmed}
    return out
