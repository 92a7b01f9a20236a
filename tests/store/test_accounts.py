"""Accounts and per-event roles through the service layer, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from weiqi.errors import Conflict, InvalidSetting, NotFound, PermissionDenied
from weiqi.roles import Role
from weiqi.services import accounts
from weiqi.services.actor import ANONYMOUS, Actor
from weiqi.services.events import create_event, list_events
from weiqi.services.site import site_overview
from weiqi.store.database import Database
from weiqi.tournament.settings import EventSettings, System

SWISS = EventSettings(System.SWISS, rounds=5)


LOCAL = Actor.local()


def test_usernames_are_case_insensitive_and_unique(database: Database) -> None:
    accounts.create_user(database, LOCAL, "Zhang", "secret-password")
    with pytest.raises(Conflict):
        accounts.create_user(database, LOCAL, "ZHANG", "another-password")
    assert accounts.authenticate(database, "zhang", "secret-password") is not None


@pytest.mark.parametrize(
    ("username", "password", "field"),
    [
        ("x", "long enough", "username"),
        ("a b", "long enough", "username"),
        ("ok", "short", "password"),
    ],
)
def test_bad_user_input_names_the_field(
    database: Database, username: str, password: str, field: str
) -> None:
    with pytest.raises(InvalidSetting) as err:
        accounts.create_user(database, LOCAL, username, password)
    assert err.value.field == field


def test_passwords_are_stored_as_argon2_hashes(database: Database) -> None:
    from weiqi.store.models import User

    accounts.create_user(database, LOCAL, "li", "correct horse")
    with database.transaction() as s:
        stored = s.query(User).one().password_hash
    assert stored.startswith("$argon2id$") and "correct horse" not in stored


def test_only_a_site_administrator_creates_users(database: Database) -> None:
    li = accounts.create_user(database, LOCAL, "li", "correct horse")
    for actor in (ANONYMOUS, li.actor()):
        with pytest.raises(PermissionDenied):
            accounts.create_user(database, actor, "wang", "correct horse")
    assert [u.username for u in accounts.list_users(database, LOCAL)] == ["li"]


def test_first_run_admin_gets_a_one_time_password_once(database: Database) -> None:
    password = accounts.ensure_site_admin(database)
    assert password is not None and len(password) >= 12
    admin = accounts.authenticate(database, "admin", password)
    assert admin is not None and admin.is_admin and admin.must_change_password
    assert accounts.ensure_site_admin(database) is None  # an administrator exists now
    changed = accounts.change_password(database, admin.actor(), password, "my own password")
    assert not changed.must_change_password
    assert changed.session_epoch == admin.session_epoch + 1
    assert accounts.authenticate(database, "admin", password) is None


def test_first_run_admin_password_from_the_environment(database: Database) -> None:
    assert accounts.ensure_site_admin(database, "from the environment") is None
    admin = accounts.authenticate(database, "admin", "from the environment")
    assert admin is not None and not admin.must_change_password


def test_change_password_needs_the_current_one(database: Database) -> None:
    li = accounts.create_user(database, LOCAL, "li", "correct horse")
    with pytest.raises(InvalidSetting):
        accounts.change_password(database, li.actor(), "wrong", "new password")
    assert accounts.authenticate(database, "li", "correct horse") is not None


def test_r_org_1_organiser_grants_roles_in_own_event_only(database: Database) -> None:
    """R-ORG-1: roles are per event; an organiser manages the roles of their event only."""
    org = accounts.create_user(database, LOCAL, "org", "correct horse")
    ref = accounts.create_user(database, LOCAL, "ref", "correct horse")
    mine = create_event(database, LOCAL, "mine", SWISS)
    other = create_event(database, LOCAL, "other", SWISS)
    accounts.grant_role(database, LOCAL, org.id, mine.id, Role.ORGANISER)

    grant = accounts.grant_role(database, org.actor(), ref.id, mine.id, Role.CHIEF_REFEREE)
    assert (grant.username, grant.event_name, grant.role) == ("ref", "mine", Role.CHIEF_REFEREE)
    with pytest.raises(PermissionDenied):
        accounts.grant_role(database, org.actor(), ref.id, other.id, Role.REFEREE)
    # A chief referee is not an organiser: may not hand out roles, and nothing changes.
    with pytest.raises(PermissionDenied):
        accounts.grant_role(database, ref.actor(), ref.id, mine.id, Role.ORGANISER)
    assert [(g.username, g.role) for g in accounts.event_roles(database, mine.id)] == [
        ("org", Role.ORGANISER),
        ("ref", Role.CHIEF_REFEREE),
    ]
    assert accounts.event_roles(database, other.id) == []


def test_r_org_1_one_person_may_hold_several_roles(database: Database) -> None:
    li = accounts.create_user(database, LOCAL, "li", "correct horse")
    event = create_event(database, LOCAL, "e", SWISS)
    accounts.grant_role(database, LOCAL, li.id, event.id, Role.ORGANISER)
    accounts.grant_role(database, LOCAL, li.id, event.id, Role.CHIEF_REFEREE)
    with pytest.raises(Conflict):
        accounts.grant_role(database, LOCAL, li.id, event.id, Role.CHIEF_REFEREE)
    assert {g.role for g in accounts.roles_of(database, li.id)} == {
        Role.ORGANISER,
        Role.CHIEF_REFEREE,
    }
    accounts.revoke_role(database, LOCAL, li.id, event.id, Role.ORGANISER)
    assert [g.role for g in accounts.roles_of(database, li.id)] == [Role.CHIEF_REFEREE]
    with pytest.raises(NotFound):
        accounts.revoke_role(database, LOCAL, li.id, event.id, Role.ORGANISER)


def test_public_is_not_grantable_and_unknown_things_are_not_found(database: Database) -> None:
    li = accounts.create_user(database, LOCAL, "li", "correct horse")
    event = create_event(database, LOCAL, "e", SWISS)
    with pytest.raises(InvalidSetting):
        accounts.grant_role(database, LOCAL, li.id, event.id, Role.PUBLIC)
    with pytest.raises(NotFound):
        accounts.grant_role(database, LOCAL, li.id, event.id + 100, Role.PLAYER)
    with pytest.raises(NotFound):
        accounts.grant_role(database, LOCAL, li.id + 100, event.id, Role.PLAYER)


def test_events_and_the_site_overview(database: Database) -> None:
    li = accounts.create_user(database, LOCAL, "li", "correct horse")
    with pytest.raises(PermissionDenied):
        create_event(database, li.actor(), "nope", SWISS)
    with pytest.raises(InvalidSetting):
        create_event(database, LOCAL, "   ", SWISS)
    create_event(database, LOCAL, "first", SWISS)
    create_event(database, LOCAL, "second", SWISS)
    assert [e.name for e in list_events(database)] == ["second", "first"]
    with pytest.raises(PermissionDenied):
        site_overview(database, li.actor())
    assert [u.username for u in site_overview(database, LOCAL).users] == ["li"]
