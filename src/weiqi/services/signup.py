"""Self sign-up (issue #11): a person makes their own account, with an invitation code or,
where the site allows it, without one.

A code an organiser made for an entrant (``services.live.create_invite``) is usually redeemed
from an account the person already has (``/join``). A person who has none signs up with it
instead: :func:`sign_up` makes the account, links it to the code's entrant and spends the code
in one transaction — of two sign-ups with one code, one gets the account and the entrant, the
other is refused and no account is left behind. Without a code a person may sign up only where
the site's policy is :attr:`SignupPolicy.OPEN` (``weiqi serve --signup open``, the default);
under :attr:`SignupPolicy.CODE` an invitation code is the only way in.

An account made here is an ordinary logged-in user: no role in any event, not an
administrator. Its fields follow the rules of every account
(:func:`weiqi.services.accounts.new_user_problems`, one rule for all ways an account is made).

>>> from weiqi.store.database import Database
>>> from weiqi.services import tournament as t
>>> from weiqi.services.actor import Actor
>>> from weiqi.services.server_clock import SYSTEM_CLOCK
>>> from weiqi.tournament.settings import EventSettings, System
>>> db = Database("sqlite://"); db.upgrade()
>>> local = Actor.local()
>>> settings = EventSettings(System.ROUND_ROBIN, play="online")
>>> from weiqi.services.events import create_event
>>> ev = create_event(db, local, "网络赛", settings).id
>>> _ = t.import_players(db, local, ev, "name\\n李明\\n王强\\n")
>>> code = live.create_invite(db, local, ev, live.player_id(db, ev, "李明")).code
>>> done = sign_up(db, "liming", "落子无悔 2026", "", code, SYSTEM_CLOCK, open_signup=False)
>>> done.user.display_name, done.linked.name if done.linked else None
('李明', '李明')
>>> try:
...     sign_up(db, "wang", "落子无悔 2026", "王强", "", SYSTEM_CLOCK, open_signup=False)
... except FieldsRejected as err:
...     print(err.problems)
{'code': Msg('this site makes accounts only with an invitation code: enter yours')}
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from weiqi.errors import FieldsRejected
from weiqi.i18n import N_
from weiqi.messages import Msg
from weiqi.services import live
from weiqi.services.accounts import UserInfo, _info, add_user, hash_password, new_user_problems
from weiqi.services.server_clock import ServerClock
from weiqi.store.database import Database

#: The field of the invitation code (a msgid, as every field: 邀请码 on a Chinese page).
CODE_FIELD = N_("code")


class SignupPolicy(StrEnum):
    """Who may make their own account (``weiqi serve --signup``, ``$WEIQI_SIGNUP``)."""

    OPEN = "open"
    """Anybody; with an invitation code the account plays as its entrant."""
    CODE = "code"
    """Only a person with an unspent invitation code."""


@dataclass(frozen=True)
class SignedUp:
    """A new account and, when it was made with a code, the entrant it plays as."""

    user: UserInfo
    linked: live.Linked | None


def sign_up(
    db: Database,
    username: str,
    password: str,
    display_name: str,
    code: str | None,
    clock: ServerClock,
    *,
    open_signup: bool,
) -> SignedUp:
    """Make an account for the person signing up; with ``code`` it becomes the player of the
    code's entrant (whose name is the display name unless one is given) and the code is spent,
    in the same transaction.

    Refusals name their field: ``FieldsRejected`` for every field wrong in itself (username,
    display name, password; no code where ``open_signup`` is false), then ``InvalidSetting``
    (field ``code``) for a code unknown or already spent, ``UsernameTaken`` (field
    ``username``) for a name another user has."""
    with_code = bool(code and live.normalise_code(code))
    problems = new_user_problems(username, password, display_name)
    if not with_code and not open_signup:
        problems[CODE_FIELD] = Msg(
            "this site makes accounts only with an invitation code: enter yours"
        )
    if problems:
        raise FieldsRejected(problems)
    password_hash = hash_password(password)  # before the transaction: no lock waits for argon2
    with db.transaction() as session:
        if not with_code:
            return SignedUp(_info(add_user(session, username, password_hash, display_name)), None)
        assert code is not None
        link = live.claim_code(session, code)
        name = display_name.strip() or live._linked_name(session, link)
        user = add_user(session, username, password_hash, name)
        return SignedUp(_info(user), live.link_user(session, link, user.id, clock))
