"""Which role may take which action in an event (R-ORG-1), checked in one place.

Each action names the event roles that may take it; a site administrator may take every action.
Areas add their actions to ``Action`` and ``POLICY`` (e.g. ``RECORD_RESULT`` for referees).

>>> sorted(r.value for r in POLICY[Action.GRANT_ROLE])
['organiser']
"""

from __future__ import annotations

from enum import StrEnum

from sqlalchemy import select
from sqlalchemy.orm import Session

from weiqi.errors import PermissionDenied
from weiqi.roles import Role
from weiqi.services.actor import Actor
from weiqi.store.database import Database
from weiqi.store.models import EventRole


class Action(StrEnum):
    """Something a role may or may not do. Site-wide actions have no event roles at all.

    The value completes "… may not <action>" in ``PermissionDenied``; list it in
    ``server/errors.py``'s ``ACTION_MSGIDS`` so the error page says it in the user's language.
    """

    ADMINISTER_SITE = "open the site administration"
    CREATE_USER = "create users"
    RESET_PASSWORD = "reset passwords"
    LIST_USERS = "list users"
    CREATE_EVENT = "create events"
    GRANT_ROLE = "grant roles"
    REVOKE_ROLE = "revoke roles"
    MANAGE_PLAYERS = "enter or withdraw players"
    PAIR_ROUND = "pair rounds"
    RECORD_RESULT = "record results"
    EDIT_SETTINGS = "change the event's settings"
    PUBLISH_ROUND = "publish rounds"
    ENTER_RESULT = "enter results"
    CONFIRM_RESULT = "confirm results"
    RULE_INFRACTION = "record infractions and rulings"
    CORRECT_RESULT = "correct confirmed results"
    CHIEF_RULING = "rule a draw, a replay, both lose or no result"
    CORRECT_CLOCK = "correct a game's clock"
    SUBMIT_LINEUP = "submit lineups"
    SUBMIT_OTHER_LINEUP = "submit the lineup of a team they do not coach"
    RUN_DRAFT = "run the transfer draft"
    READ_AUDIT_LOG = "read the audit log"


POLICY: dict[Action, frozenset[Role]] = {
    Action.ADMINISTER_SITE: frozenset(),
    Action.CREATE_USER: frozenset(),
    Action.RESET_PASSWORD: frozenset(),
    Action.LIST_USERS: frozenset({Role.ORGANISER}),
    # an organiser of one event may create the next (and becomes its organiser)
    Action.CREATE_EVENT: frozenset({Role.ORGANISER}),
    Action.GRANT_ROLE: frozenset({Role.ORGANISER}),
    Action.REVOKE_ROLE: frozenset({Role.ORGANISER}),
    # R-ORG-1: the chief referee runs the draw and supervises pairing; referees record results
    Action.MANAGE_PLAYERS: frozenset({Role.ORGANISER, Role.CHIEF_REFEREE}),
    Action.PAIR_ROUND: frozenset({Role.CHIEF_REFEREE}),
    Action.RECORD_RESULT: frozenset({Role.CHIEF_REFEREE, Role.REFEREE}),
    # the chief referee drafts the supplementary rules with the organising committee
    Action.EDIT_SETTINGS: frozenset({Role.ORGANISER, Role.CHIEF_REFEREE}),
    # the chief referee supervises publication; the organising committee announces
    Action.PUBLISH_ROUND: frozenset({Role.ORGANISER, Role.CHIEF_REFEREE}),
    # R-REF-7: referees enter (organisers too, from the result sheets) and confirm results and
    # rule at the board; a confirmed result is changed by the chief referee only.
    Action.ENTER_RESULT: frozenset({Role.ORGANISER, Role.CHIEF_REFEREE, Role.REFEREE}),
    Action.CONFIRM_RESULT: frozenset({Role.CHIEF_REFEREE, Role.REFEREE}),
    Action.RULE_INFRACTION: frozenset({Role.CHIEF_REFEREE, Role.REFEREE}),
    Action.CORRECT_RESULT: frozenset({Role.CHIEF_REFEREE}),
    Action.CHIEF_RULING: frozenset({Role.CHIEF_REFEREE}),  # Art. 17.5–6 (R-REF-3)
    Action.CORRECT_CLOCK: frozenset({Role.CHIEF_REFEREE}),  # R-TIME-8: the chief referee's
    # R-FMT-1: a team's coach or captain holds the player role in the event and submits for
    # the teams it coaches only (services/team_coaches.py); organisers and the chief referee
    # enter any team's sheet.
    Action.SUBMIT_LINEUP: frozenset({Role.ORGANISER, Role.CHIEF_REFEREE, Role.PLAYER}),
    Action.SUBMIT_OTHER_LINEUP: frozenset({Role.ORGANISER, Role.CHIEF_REFEREE}),
    # the league's organisers run the draft (R-LEAGUE-2), picks entered as the clubs call them
    Action.RUN_DRAFT: frozenset({Role.ORGANISER}),
    # who granted which role, and who corrected what: the chief referee oversees it (R-ORG-1)
    Action.READ_AUDIT_LOG: frozenset({Role.ORGANISER, Role.CHIEF_REFEREE}),
}


def roles_in_event(session: Session, actor: Actor, event_id: int) -> frozenset[Role]:
    """The roles ``actor`` holds in the event; everybody holds ``PUBLIC``."""
    held = {Role.PUBLIC}
    if actor.user_id is not None:
        rows = session.scalars(
            select(EventRole.role).where(
                EventRole.user_id == actor.user_id, EventRole.event_id == event_id
            )
        )
        held.update(Role(r) for r in rows)
    return frozenset(held)


def holds_any_role(session: Session, actor: Actor, role: Role) -> bool:
    """Whether ``actor`` holds ``role`` in at least one event."""
    if actor.user_id is None:
        return False
    found = session.scalar(
        select(EventRole.event_id)
        .where(EventRole.user_id == actor.user_id, EventRole.role == role.value)
        .limit(1)
    )
    return found is not None


def require(session: Session, actor: Actor, action: Action, event_id: int | None = None) -> None:
    """Raise ``PermissionDenied`` unless ``actor`` may take ``action`` (in ``event_id``).

    Without an event, an action allowed to some role is allowed to whoever holds that role in
    any event (an organiser may list users to grant them roles).
    """
    if actor.is_admin:
        return
    allowed = POLICY[action]
    if Role.PUBLIC in allowed:
        return
    if event_id is not None:
        if roles_in_event(session, actor, event_id) & allowed:
            return
    elif any(holds_any_role(session, actor, role) for role in allowed):
        return
    who = actor.username if actor.authenticated else Role.PUBLIC.value
    raise PermissionDenied(who, action.value)


def allowed_in(session: Session, actor: Actor, action: Action, event_id: int | None = None) -> bool:
    """Whether ``actor`` may take ``action`` (:func:`require`), in the caller's transaction."""
    try:
        require(session, actor, action, event_id)
    except PermissionDenied:
        return False
    return True


def allowed(db: Database, actor: Actor, action: Action, event_id: int | None = None) -> bool:
    """Whether ``actor`` may take ``action`` — for pages deciding which forms to show."""
    with db.transaction() as session:
        return allowed_in(session, actor, action, event_id)
