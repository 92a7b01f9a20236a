"""Entry claims (issue #11): a player without an invitation code claims an entry, the
organisers approve or decline it.

A logged-in user claims an entrant of an event — in a team event a roster player, who plays the
boards the lineups seat them on — with an optional note to the organisers (an EGF PIN, a club:
what lets them tell who is asking) (:func:`claim_entry`). Those who manage the event's players
see the claims (:func:`event_claims`) and approve one (:func:`approve_claim`): the user is then
linked to the entrant exactly as a redeemed invitation code links them (``live.link_user``;
an unspent code of the entrant is spent), and "my game this round" appears on their home page.
Or they decline it with a reason (:func:`decline_claim`), which the claimant reads on their own
list (:func:`my_claims`); the claimant may withdraw a claim still pending
(:func:`withdraw_claim`).

Whenever a user is linked to an entrant — by an approved claim or a redeemed code — the claims
that link settles are declined at once (:func:`close_claims`): the other users' pending claims
to that entrant, and the user's other pending claims in the event, each with a reason value
saying so. Every check and write runs under the event's lock, so of two approvals of one
entrant (or of two claims of one user) exactly one links.

>>> from datetime import UTC, datetime
>>> from weiqi.store.database import Database
>>> from weiqi.services import accounts, live, tournament as t
>>> from weiqi.services.server_clock import ManualClock
>>> from weiqi.tournament.settings import EventSettings, System
>>> db = Database("sqlite://"); db.upgrade()
>>> local, clock = Actor.local(), ManualClock(datetime(2026, 5, 1, 8, 0, tzinfo=UTC))
>>> from weiqi.services.events import create_event
>>> ev = create_event(db, local, "网络赛", EventSettings(System.ROUND_ROBIN)).id
>>> _ = t.import_players(db, local, ev, "name\\n李明\\n王强\\n")
>>> li = accounts.create_user(db, local, "li", "a long pass phrase 7").actor()
>>> claim = claim_entry(db, li, ev, live.player_id(db, ev, "李明"), clock, note="EGF PIN 123")
>>> claim.state, claim.name
('pending', '李明')
>>> approve_claim(db, local, ev, claim.id, clock).state
'approved'
>>> [(e.name, e.username) for e in live.entrant_accounts(db, local, ev)]
[('李明', 'li'), ('王强', None)]
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from sqlalchemy import select
from sqlalchemy.orm import Session

from weiqi.errors import Conflict, InvalidSetting, NotFound, PermissionDenied
from weiqi.messages import Msg
from weiqi.roles import Role
from weiqi.services import live
from weiqi.services.accounts import _audit
from weiqi.services.actor import Actor
from weiqi.services.events import (
    EventStatus,
    event_cards,
    existing_event,
    players_with_teams,
)
from weiqi.services.permissions import Action, require
from weiqi.services.player_names import player_labels
from weiqi.services.server_clock import ServerClock
from weiqi.store.database import Database
from weiqi.store.entry_claims import NOTE_LIMIT as NOTE_LIMIT
from weiqi.store.entry_claims import EntryClaimRow
from weiqi.store.live import PlayerAccountRow
from weiqi.store.locks import lock_event
from weiqi.store.models import EventRow, User
from weiqi.store.teams import TeamRow
from weiqi.store.tournament import PlayerRow


class ClaimState(enum.StrEnum):
    """Where a claim stands."""

    PENDING = "pending"
    APPROVED = "approved"
    DECLINED = "declined"
    WITHDRAWN = "withdrawn"


#: Each state as the pages name it (its value is also its msgid).
STATE_NAMES = {
    ClaimState.PENDING: Msg("pending"),
    ClaimState.APPROVED: Msg("approved"),
    ClaimState.DECLINED: Msg("declined"),
    ClaimState.WITHDRAWN: Msg("withdrawn"),
}

#: Why a claim was declined without anybody declining it (``EntryClaimRow.closed_by``).
CLOSED_REASONS = {
    "entrant-taken": Msg("another claim to this player was approved"),
    "user-linked": Msg("you now play as another player of this event"),
}

#: What a claim form says when no player was chosen.
CHOOSE_PLAYER = Msg("choose the player you are")

#: What the audit log records of a decision (``AuditEntry.action``).
AUDIT_APPROVED, AUDIT_DECLINED = "claim-approved", "claim-declined"


@dataclass(frozen=True)
class Claim:
    """A claim as the claimant's and the organisers' pages show it."""

    id: int
    event_id: int
    event_name: str
    player_id: int
    """The entrant's id, or in a team event the roster player's."""
    name: str
    """The entrant as every list names it (a namesake with what tells them apart)."""
    team: str | None
    """A roster player's team (its name)."""
    username: str
    display_name: str
    note: str
    made_at: datetime
    state: str
    """A :class:`ClaimState` value."""
    reason: str = ""
    """The organiser's words when they declined it."""
    closed: Msg | None = None
    """Why it was declined when another claim's approval (or a redeemed code) settled it."""
    decided_at: datetime | None = None
    decided_by: str | None = None
    """The username of whoever approved or declined it (``None``: settled by another link)."""
    time_zone: str = "UTC"
    """The event's time zone, which the pages show the times in."""
    taken_by: str | None = None
    """A pending claim's entrant already played by this user (linked by a code meanwhile):
    it can only be declined."""


@dataclass(frozen=True)
class OpenEntrant:
    """An entrant (or roster player) nobody plays as yet: one a user may claim."""

    player_id: int
    name: str
    rank: str
    team: str | None = None
    team_id: int | None = None


@dataclass(frozen=True)
class ClaimableEvent:
    """An event where the user may claim an entry: not finished, the user plays as nobody in
    it, and some entrant is not linked to an account."""

    id: int
    name: str
    open: int
    """How many entrants nobody plays as yet."""
    pending: bool
    """The user's claim there awaits the organisers."""


def _user_of(actor: Actor, what: Msg) -> int:
    if not actor.authenticated or actor.user_id is None:
        raise PermissionDenied(Role.PUBLIC.value, what)
    return actor.user_id


def _bounded(field: str, text: str) -> str:
    text = text.strip()
    if len(text) > NOTE_LIMIT:
        raise InvalidSetting(
            field, Msg("at most %(n)s characters (%(given)s given)", n=NOTE_LIMIT, given=len(text))
        )
    return text


def _entrant(
    session: Session, event_id: int, player: int, team: int | None
) -> tuple[str, str | None]:
    """The name and team (``None``: an entrant of an individual event) of the player claimed;
    ``InvalidSetting`` naming ``player`` (no such player) or ``team`` (another team's)."""
    try:
        row, of_team = live.event_player(session, event_id, player, team)
    except NotFound:
        raise InvalidSetting(
            "player", Msg("event %(event_id)s has no such player", event_id=event_id)
        ) from None
    return row.name, of_team.name if of_team is not None else None


def _linked_in(session: Session, event_id: int, user_id: int) -> PlayerAccountRow | None:
    return session.scalar(
        select(PlayerAccountRow).where(
            PlayerAccountRow.event_id == event_id, PlayerAccountRow.user_id == user_id
        )
    )


def _linkable(
    session: Session,
    event_id: int,
    player: int,
    user_id: int,
    name: str,
    who: Literal["you", "claimant"],
) -> tuple[PlayerAccountRow | None, Msg | None]:
    """The entrant's account link (``None``: none yet) and why user ``user_id`` may not become
    its player (``None``: they may) — somebody plays as the entrant already, or the user plays
    as another entrant of the event; ``who`` names the user to the reader. A claim is refused
    for it, and so is its approval later (a code redeemed meanwhile)."""
    link = live._link_of(session, player)
    if link is not None and link.user_id is not None:
        return link, Msg("%(name)s is already linked to an account", name=name)
    mine = _linked_in(session, event_id, user_id)
    if mine is None:
        return link, None
    other = live._linked_name(session, mine)
    if who == "you":
        return link, Msg("you already play as %(name)s in this event", name=other)
    return link, Msg("the claimant already plays as %(name)s in this event", name=other)


def _pending_of(session: Session, event_id: int, user_id: int) -> EntryClaimRow | None:
    return session.scalar(
        select(EntryClaimRow).where(
            EntryClaimRow.event_id == event_id,
            EntryClaimRow.user_id == user_id,
            EntryClaimRow.state == ClaimState.PENDING,
        )
    )


def claim_entry(
    db: Database,
    actor: Actor,
    event_id: int,
    player: int,
    clock: ServerClock,
    *,
    team: int | None = None,
    note: str = "",
) -> Claim:
    """The logged-in user claims entrant ``player`` of the event (in a team event the roster
    player of that id; ``team``: the team the user meant, another team's player is refused),
    with ``note`` to the organisers; pending until they decide.

    Refused with ``InvalidSetting`` naming the field: ``player`` when the event has no such
    player, somebody already plays as them, the user already plays as an entrant of the event
    or already has a claim there awaiting the organisers; ``team`` for a player of another
    team (or a team named in an individual event); ``note`` for a note over
    ``NOTE_LIMIT`` characters. ``NotFound`` for an event that does not exist."""
    user_id = _user_of(actor, Msg("claim an entry"))
    note = _bounded("note", note)
    with db.transaction() as session:
        lock_event(session, event_id)
        existing_event(session, event_id)
        name, _ = _entrant(session, event_id, player, team)
        _link, refused = _linkable(session, event_id, player, user_id, name, "you")
        if refused is not None:
            raise InvalidSetting("player", refused)
        pending = _pending_of(session, event_id, user_id)
        if pending is not None:
            raise InvalidSetting(
                "player",
                Msg(
                    "your claim to %(name)s in this event awaits the organisers: withdraw it first",
                    name=_names(session, [pending])[pending.id][0],
                ),
            )
        row = EntryClaimRow(
            event_id=event_id,
            user_id=user_id,
            player_id=player,
            note=note,
            made_at=clock.now(),
            state=ClaimState.PENDING.value,
        )
        session.add(row)
        session.flush()
        return _views(session, [row])[0]


def _names(session: Session, rows: list[EntryClaimRow]) -> dict[int, tuple[str, str | None]]:
    """Each claim's player: an entrant's name (namesakes told apart), or a team's player's name
    and team."""
    claimed = {r.player_id for r in rows}
    players = {p.id: p for p in session.scalars(select(PlayerRow).where(PlayerRow.id.in_(claimed)))}
    entrants = {p.event_id for p in players.values() if p.team_id is None}
    labels: dict[int, str] = {}
    if entrants:
        labels = player_labels(
            session.scalars(select(PlayerRow).where(PlayerRow.event_id.in_(entrants)))
        )
    out: dict[int, tuple[str, str | None]] = {}
    for r in rows:
        p = players.get(r.player_id)
        if p is None or p.team_id is None:
            out[r.id] = (labels.get(r.player_id, ""), None)
        else:
            team = session.get(TeamRow, p.team_id)
            out[r.id] = (p.name, team.name if team is not None else None)
    return out


def _views(session: Session, rows: list[EntryClaimRow]) -> list[Claim]:
    names = _names(session, rows)
    ids = {r.user_id for r in rows} | {r.decided_by for r in rows if r.decided_by is not None}
    users = {u.id: u for u in session.scalars(select(User).where(User.id.in_(ids)))}
    events = {
        e.id: e
        for e in session.scalars(
            select(EventRow).where(EventRow.id.in_({r.event_id for r in rows}))
        )
    }
    out = []
    for r in rows:
        taken = None
        if r.state == ClaimState.PENDING:
            link = live._link_of(session, r.player_id)
            if link is not None and link.user_id is not None:
                holder = session.get(User, link.user_id)
                taken = holder.username if holder is not None else ""
        claimant = users.get(r.user_id)
        decider = users.get(r.decided_by) if r.decided_by is not None else None
        name, team = names[r.id]
        out.append(
            Claim(
                r.id,
                r.event_id,
                events[r.event_id].name,
                r.player_id,
                name,
                team,
                claimant.username if claimant is not None else "",
                claimant.display_name if claimant is not None else "",
                r.note,
                r.made_at,
                r.state,
                r.reason,
                CLOSED_REASONS.get(r.closed_by) if r.closed_by else None,
                r.decided_at,
                decider.username if decider is not None else None,
                events[r.event_id].time_zone,
                taken,
            )
        )
    return out


def my_claims(db: Database, actor: Actor) -> list[Claim]:
    """The logged-in user's claims in every event, newest first, with what became of them
    (an anonymous reader has none)."""
    if actor.user_id is None:
        return []
    with db.transaction() as session:
        rows = session.scalars(
            select(EntryClaimRow)
            .where(EntryClaimRow.user_id == actor.user_id)
            .order_by(EntryClaimRow.made_at.desc(), EntryClaimRow.id.desc())
        ).all()
        return _views(session, list(rows))


def _pending_first(rows: list[EntryClaimRow]) -> list[EntryClaimRow]:
    pending = sorted(
        (r for r in rows if r.state == ClaimState.PENDING), key=lambda r: (r.made_at, r.id)
    )
    history = sorted(
        (r for r in rows if r.state != ClaimState.PENDING),
        key=lambda r: (r.decided_at or r.made_at, r.id),
        reverse=True,
    )
    return pending + history


def event_claims(db: Database, actor: Actor, event_id: int) -> list[Claim]:
    """The event's claims for those who manage its players: the pending ones first, oldest
    first (the order they came in), then the decided and withdrawn ones, newest first."""
    with db.transaction() as session:
        require(session, actor, Action.MANAGE_PLAYERS, event_id)
        existing_event(session, event_id)
        rows = session.scalars(
            select(EntryClaimRow).where(EntryClaimRow.event_id == event_id)
        ).all()
        return _views(session, _pending_first(list(rows)))


def _claim_in(session: Session, event_id: int, claim_id: int) -> EntryClaimRow:
    row = session.get(EntryClaimRow, claim_id)
    if row is None or row.event_id != event_id:
        raise NotFound(Msg("event %(event_id)s has no claim %(claim)s", event_id=event_id,
                           claim=claim_id))  # fmt: skip
    return row


def _still_pending(row: EntryClaimRow) -> None:
    if row.state != ClaimState.PENDING:
        raise Conflict(
            Msg(
                "this claim is no longer pending (%(state)s)",
                state=STATE_NAMES[ClaimState(row.state)],
            )
        )


def _claim_to_decide(session: Session, actor: Actor, event_id: int, claim_id: int) -> EntryClaimRow:
    """The event's claim ``claim_id`` for those who manage its players to approve or decline,
    read again under the event's lock (a second tab may have decided it meanwhile):
    ``Conflict`` when it is no longer pending."""
    require(session, actor, Action.MANAGE_PLAYERS, event_id)
    lock_event(session, event_id)
    row = _claim_in(session, event_id, claim_id)
    session.refresh(row)
    _still_pending(row)
    return row


def withdraw_claim(db: Database, actor: Actor, claim_id: int, clock: ServerClock) -> Claim:
    """The claimant withdraws a claim of theirs still pending. ``PermissionDenied`` for
    anybody else's claim, ``NotFound`` for one that does not exist, ``Conflict`` once decided."""
    user_id = _user_of(actor, Msg("withdraw a claim"))
    with db.transaction() as session:
        found = session.get(EntryClaimRow, claim_id)
        if found is None:
            raise NotFound(Msg("there is no claim %(claim)s", claim=claim_id))
        lock_event(session, found.event_id)
        session.refresh(found)
        if found.user_id != user_id:
            raise PermissionDenied(actor.username, Msg("withdraw another user's claim"))
        _still_pending(found)
        found.state = ClaimState.WITHDRAWN.value
        found.decided_at = clock.now()
        session.flush()
        return _views(session, [found])[0]


def approve_claim(
    db: Database, actor: Actor, event_id: int, claim_id: int, clock: ServerClock
) -> Claim:
    """For those who manage the event's players: the claimant becomes the entrant's player,
    as a redeemed code makes them (an unspent code of the entrant is spent); the other pending
    claims to the entrant and the claimant's other pending claims in the event are declined
    (:func:`close_claims`). ``Conflict`` when the claim is not pending, somebody already plays
    as the entrant, or the claimant already plays as another entrant of the event."""
    with db.transaction() as session:
        row = _claim_to_decide(session, actor, event_id, claim_id)
        player = row.player_id
        name = _names(session, [row])[row.id][0]
        link, refused = _linkable(session, event_id, player, row.user_id, name, "claimant")
        if refused is not None:
            raise Conflict(refused)
        if link is None:
            link = live.new_link(session, event_id, player)
            session.flush()
        row.state = ClaimState.APPROVED.value
        row.decided_by = actor.user_id
        row.decided_at = clock.now()
        live.link_user(session, link, row.user_id, clock)  # declines what it settles
        claimant = session.get(User, row.user_id)
        _audit(session, actor, AUDIT_APPROVED, event_id,
               claimant.username if claimant is not None else "", name)  # fmt: skip
        session.flush()
        return _views(session, [row])[0]


def decline_claim(
    db: Database,
    actor: Actor,
    event_id: int,
    claim_id: int,
    clock: ServerClock,
    reason: str = "",
) -> Claim:
    """For those who manage the event's players: the claim is declined, with ``reason`` for
    the claimant (optional; ``InvalidSetting`` naming ``reason`` over ``NOTE_LIMIT``
    characters). ``Conflict`` when the claim is not pending."""
    reason = _bounded("reason", reason)
    with db.transaction() as session:
        row = _claim_to_decide(session, actor, event_id, claim_id)
        row.state = ClaimState.DECLINED.value
        row.decided_by = actor.user_id
        row.decided_at = clock.now()
        row.reason = reason
        claimant = session.get(User, row.user_id)
        _audit(session, actor, AUDIT_DECLINED, event_id,
               claimant.username if claimant is not None else "",
               _names(session, [row])[row.id][0])  # fmt: skip
        session.flush()
        return _views(session, [row])[0]


def close_claims(
    session: Session, link: PlayerAccountRow, user_id: int, clock: ServerClock
) -> list[int]:
    """Decline, in the caller's transaction (under the event's lock), the pending claims that
    linking ``user_id`` to ``link``'s entrant settles: the other users' claims to the entrant
    (``entrant-taken``) and the user's claims to other entrants of the event
    (``user-linked``). Returns their ids. ``live.link_user`` calls it, so a redeemed code
    settles them too."""
    rows = session.scalars(
        select(EntryClaimRow).where(
            EntryClaimRow.event_id == link.event_id,
            EntryClaimRow.state == ClaimState.PENDING,
            (EntryClaimRow.player_id == link.player_id) | (EntryClaimRow.user_id == user_id),
        )
    ).all()
    now = clock.now()
    for row in rows:
        row.state = ClaimState.DECLINED.value
        row.decided_at = now
        row.closed_by = "user-linked" if row.user_id == user_id else "entrant-taken"
    return [r.id for r in rows]


def open_entrants(db: Database, actor: Actor, event_id: int) -> list[OpenEntrant]:
    """The entrants of the event nobody plays as yet (a team event's roster players, team by
    team in board order), for a logged-in user choosing which to claim."""
    _user_of(actor, Msg("claim an entry"))
    with db.transaction() as session:
        existing_event(session, event_id)
        linked = {
            r.player_id
            for r in session.scalars(
                select(PlayerAccountRow).where(
                    PlayerAccountRow.event_id == event_id, PlayerAccountRow.user_id.is_not(None)
                )
            )
        }
        players = players_with_teams(session, event_id)
        # an entrant's namesakes are told apart by club or birth date; a team's player by team
        labels = player_labels(p for p, t in players if t is None)
        return [
            OpenEntrant(p.id, p.name, p.rank or "", t.name, t.id)
            if t is not None
            else OpenEntrant(p.id, labels[p.id], p.rank or "")
            for p, t in players
            if p.id not in linked
        ]


def claimable_events(db: Database, actor: Actor) -> list[ClaimableEvent]:
    """The events where the logged-in user may claim an entry (or has a claim pending),
    newest first: not finished, the user plays as nobody there, some entrant is unlinked."""
    user_id = _user_of(actor, Msg("claim an entry"))
    cards = [c for c in event_cards(db) if c.kind is not None and c.status != EventStatus.FINISHED]
    with db.transaction() as session:
        mine = set(
            session.scalars(
                select(PlayerAccountRow.event_id).where(PlayerAccountRow.user_id == user_id)
            )
        )
        pending = set(
            session.scalars(
                select(EntryClaimRow.event_id).where(
                    EntryClaimRow.user_id == user_id, EntryClaimRow.state == ClaimState.PENDING
                )
            )
        )
    out = []
    for card in cards:
        if card.id in mine:
            continue
        free = len(open_entrants(db, actor, card.id))
        if free or card.id in pending:
            out.append(ClaimableEvent(card.id, card.name, free, card.id in pending))
    return out
