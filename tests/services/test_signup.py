"""Self sign-up (``services.signup``), on SQLite and PostgreSQL: with an invitation code the
account, its link to the entrant and the spent code are one transaction (a refusal leaves
neither an account nor a spent code); without one only when sign-up is open; the fields follow
the one rule every account follows (``accounts.new_user_problems``)."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import pytest

from tests.store.conftest import cheap_password_hashes  # noqa: F401  (autouse)
from weiqi.errors import Conflict, FieldsRejected, InvalidSetting
from weiqi.services import accounts, live
from weiqi.services import tournament as t
from weiqi.services.accounts import UsernameTaken
from weiqi.services.actor import Actor
from weiqi.services.event_admin import publish_round
from weiqi.services.events import create_event
from weiqi.services.server_clock import ManualClock
from weiqi.services.signup import sign_up
from weiqi.store.database import Database
from weiqi.tournament.settings import EventSettings, PlayMode, System

LOCAL = Actor.local()
PASSWORD = "落子无悔 2026"
CLOCK = ManualClock(datetime(2026, 5, 1, 8, 0, tzinfo=UTC))


def _event(db: Database) -> int:
    settings = EventSettings(System.ROUND_ROBIN, board_size=9, play=PlayMode.ONLINE)
    ev = create_event(db, LOCAL, "网络赛", settings).id
    t.import_players(db, LOCAL, ev, "name\n李明\n王强\n")
    return ev


def _code(db: Database, ev: int, name: str = "李明") -> str:
    return live.create_invite(db, LOCAL, ev, live.player_id(db, ev, name)).code


def _usernames(db: Database) -> list[str]:
    return [u.username for u in accounts.list_users(db, LOCAL)]


def _invited(db: Database, ev: int, name: str = "李明") -> bool:
    return next(e.invited for e in live.entrant_accounts(db, LOCAL, ev) if e.name == name)


def test_r_org_1_a_code_makes_the_entrants_account_with_no_role(db: Database) -> None:
    """The account plays as the entrant at once (its display name the entrant's), opens with
    its password, holds no role and is no administrator; the code is spent."""
    ev = _event(db)
    code = _code(db, ev)
    done = sign_up(db, "LiMing", PASSWORD, "", code.lower(), CLOCK, open_signup=False)
    assert done.user.username == "liming" and done.user.display_name == "李明"
    assert done.linked is not None and (done.linked.name, done.linked.event_id) == ("李明", ev)
    assert accounts.authenticate(db, "liming", PASSWORD) == done.user
    assert not done.user.is_admin and not done.user.actor().is_admin
    assert accounts.roles_of(db, done.user.id) == []
    assert not _invited(db, ev)
    (linked,) = [e for e in live.entrant_accounts(db, LOCAL, ev) if e.username == "liming"]
    assert linked.name == "李明"
    t.pair_round(db, LOCAL, ev)
    publish_round(db, LOCAL, ev, 1)
    (game,) = live.my_games(db, done.user.actor())
    assert (game.event_id, game.round) == (ev, 1)


def test_a_display_name_given_is_kept(db: Database) -> None:
    ev = _event(db)
    done = sign_up(db, "li", PASSWORD, "小李", _code(db, ev), CLOCK, open_signup=True)
    assert done.user.display_name == "小李"
    assert done.linked is not None and done.linked.name == "李明"


def test_without_a_code_only_when_sign_up_is_open(db: Database) -> None:
    with pytest.raises(FieldsRejected) as refused:
        sign_up(db, "wang", PASSWORD, "王强", "", CLOCK, open_signup=False)
    assert list(refused.value.problems) == ["code"]
    assert refused.value.problems["code"].id.startswith("this site makes accounts only")
    with pytest.raises(FieldsRejected):
        sign_up(db, "wang", PASSWORD, "王强", " - ", CLOCK, open_signup=False)
    assert _usernames(db) == []
    done = sign_up(db, "wang", PASSWORD, "", None, CLOCK, open_signup=True)
    assert done.linked is None and done.user.display_name == "wang"
    assert accounts.roles_of(db, done.user.id) == [] and not done.user.is_admin


def test_every_field_wrong_in_itself_is_named_at_once(db: Database) -> None:
    """The username's form, the display name and the password by the rules of every account,
    and the missing code, all in one refusal; nothing is stored."""
    with pytest.raises(FieldsRejected) as refused:
        sign_up(db, "a b", "password", "\u202e", "", CLOCK, open_signup=False)
    assert list(refused.value.problems) == ["username", "display_name", "password", "code"]
    assert _usernames(db) == []


@pytest.mark.parametrize(
    ("username", "password", "field"),
    [("x", "long enough", "username"), ("wangwei", "wangwei2026", "password"),
     ("ok", "12345678", "password"), ("ok", "short", "password")],
)  # fmt: skip
def test_one_rule_for_sign_up_and_create_user(
    db: Database, username: str, password: str, field: str
) -> None:
    """What the administrator's ``create_user`` refuses, sign-up refuses for the same field
    and the same reason (one rule, ``accounts.new_user_problems``)."""
    with pytest.raises(InvalidSetting) as by_admin:
        accounts.create_user(db, LOCAL, username, password)
    with pytest.raises(FieldsRejected) as by_self:
        sign_up(db, username, password, "", None, CLOCK, open_signup=True)
    assert by_admin.value.field == field
    assert by_self.value.problems == {field: by_admin.value.reason}


def test_a_taken_username_leaves_the_code_unspent(db: Database) -> None:
    ev = _event(db)
    accounts.create_user(db, LOCAL, "liming", PASSWORD)
    code = _code(db, ev)
    with pytest.raises(UsernameTaken) as taken:
        sign_up(db, "LIMING", PASSWORD, "", code, CLOCK, open_signup=True)
    assert isinstance(taken.value, Conflict) and taken.value.field == "username"
    with pytest.raises(UsernameTaken):  # the administrator meets the same rule
        accounts.create_user(db, LOCAL, "LiMing", PASSWORD)
    assert _invited(db, ev)  # the code still works: the transaction made nothing
    done = sign_up(db, "liming2", PASSWORD, "", code, CLOCK, open_signup=True)
    assert done.linked is not None and done.linked.name == "李明"


def test_a_spent_or_unknown_code_makes_no_account(db: Database) -> None:
    ev = _event(db)
    code = _code(db, ev)
    sign_up(db, "first", PASSWORD, "", code, CLOCK, open_signup=False)
    for again in (code, "AAAA-BBBB-CCCC"):
        with pytest.raises(InvalidSetting) as refused:
            sign_up(db, "second", PASSWORD, "", again, CLOCK, open_signup=True)
        assert refused.value.field == "code"
        assert refused.value.reason.id == "this invitation code is unknown or already used"
    assert _usernames(db) == ["first"]


def test_two_sign_ups_with_one_code_at_once_make_one_account(db: Database) -> None:
    """The code is read again under the event's lock: one sign-up gets the account and the
    entrant, the other is refused and leaves no account behind."""
    ev = _event(db)
    code = _code(db, ev)
    start = threading.Barrier(2)
    outcomes: list[str] = []

    def attempt(name: str) -> None:
        start.wait()
        try:
            outcomes.append(sign_up(db, name, PASSWORD, "", code, CLOCK, open_signup=False)
                            .user.username)  # fmt: skip
        except (InvalidSetting, Conflict) as err:
            outcomes.append(type(err).__name__)

    workers = [threading.Thread(target=attempt, args=(n,)) for n in ("one", "two")]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    made = [o for o in outcomes if o in ("one", "two")]
    assert len(made) == 1, outcomes
    assert _usernames(db) == made
