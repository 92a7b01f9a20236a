"""Players are accounts (issue #11), the path without a code: a user claims an entry, the
organisers (R-ORG-1: those who manage the event's players) approve or decline it; an approval
links exactly as a redeemed code does. Through the services, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from functools import partial

import pytest
from sqlalchemy import select

from tests.services.test_races import race, winner
from weiqi.errors import Conflict, InvalidSetting, NotFound, PermissionDenied
from weiqi.league.settings import TeamEventSettings
from weiqi.roles import Role
from weiqi.services import accounts, live, teams
from weiqi.services import entry_claims as ec
from weiqi.services import tournament as t
from weiqi.services.actor import ANONYMOUS, Actor
from weiqi.services.event_admin import publish_round
from weiqi.services.events import create_event
from weiqi.services.server_clock import ManualClock
from weiqi.store.database import Database
from weiqi.store.live import PlayerAccountRow
from weiqi.store.models import AuditEntry
from weiqi.tournament.settings import EventSettings, PlayMode, System

LOCAL = Actor.local()
PASSWORD = "认领报名的密码 2026"
T0 = datetime(2026, 5, 1, 8, 0, tzinfo=UTC)


def _event(db: Database) -> int:
    ev = create_event(
        db, LOCAL, "网络赛", EventSettings(System.ROUND_ROBIN, board_size=9, play=PlayMode.ONLINE)
    ).id
    t.import_players(db, LOCAL, ev, "name\n李明\n王强\n张伟\n刘洋\n")
    t.pair_round(db, LOCAL, ev)
    return ev


def _user(db: Database, name: str) -> Actor:
    return accounts.create_user(db, LOCAL, name, PASSWORD).actor()


def _clock() -> ManualClock:
    return ManualClock(T0)


def test_an_approved_claim_links_the_user_as_a_code_does_and_settles_the_rival_claims(
    database: Database,
) -> None:
    """Two users claim 李明: the organiser approves one; that user plays as 李明 (the unspent
    code of 李明 is spent, my game appears once the round is published), the other's claim is
    declined with the reason that another claim was approved, and the decision is audited."""
    ev, clock = _event(database), _clock()
    li = live.player_id(database, ev, "李明")
    organiser = _user(database, "organiser")
    accounts.grant_role(database, LOCAL, organiser.user_id or 0, ev, Role.ORGANISER)
    a, b = _user(database, "player-a"), _user(database, "player-b")
    code = live.create_invite(database, LOCAL, ev, li).code
    first = ec.claim_entry(database, a, ev, li, clock, note="  EGF PIN 12345678, 北京队 ")
    assert (first.state, first.note, first.name, first.username) == (
        "pending", "EGF PIN 12345678, 北京队", "李明", "player-a"
    )  # fmt: skip
    clock.advance(timedelta(minutes=1))
    second = ec.claim_entry(database, b, ev, li, clock)
    listed = ec.event_claims(database, organiser, ev)
    assert [c.id for c in listed] == [first.id, second.id]  # pending, in the order they came
    clock.advance(timedelta(minutes=1))
    done = ec.approve_claim(database, organiser, ev, first.id, clock)
    assert (done.state, done.decided_by, done.decided_at) == ("approved", "organiser", clock.now())
    accounts_ = {e.name: e for e in live.entrant_accounts(database, LOCAL, ev)}
    assert accounts_["李明"].username == "player-a" and not accounts_["李明"].invited
    with pytest.raises(InvalidSetting):
        live.redeem_invite(database, b, code)  # the code was spent by the approval
    (mine_b,) = ec.my_claims(database, b)
    assert mine_b.state == "declined" and mine_b.decided_by is None
    assert mine_b.closed == ec.CLOSED_REASONS["entrant-taken"]
    history = {c.id: c.state for c in ec.event_claims(database, organiser, ev)}
    assert history == {first.id: "approved", second.id: "declined"}
    assert live.my_games(database, a) == []
    publish_round(database, LOCAL, ev, 1)
    (game,) = live.my_games(database, a)
    assert game.url == f"/events/{ev}/rounds/1/boards/{game.board}/play"
    with database.transaction() as session:
        audit = session.scalars(
            select(AuditEntry).where(AuditEntry.event_id == ev, AuditEntry.action != "role-granted")
        ).all()
        assert [(e.action, e.actor, e.subject, e.detail) for e in audit] == [
            ("claim-approved", "organiser", "player-a", "李明")
        ]


def test_a_claim_is_refused_naming_the_field(database: Database) -> None:
    """Refused, each naming its field: an entrant already linked, a user who already plays in
    the event or already has a claim pending there, an unknown player, a team named in an
    individual event, a note too long; a user not logged in may not claim at all."""
    ev, clock = _event(database), _clock()
    li, wang = live.player_id(database, ev, "李明"), live.player_id(database, ev, "王强")
    zhang = live.player_id(database, ev, "张伟")
    a, b, c = _user(database, "player-a"), _user(database, "player-b"), _user(database, "player-c")
    live.redeem_invite(database, a, live.create_invite(database, LOCAL, ev, li).code)

    def refused(actor: Actor, player: int, **options: object) -> InvalidSetting:
        with pytest.raises(InvalidSetting) as err:
            ec.claim_entry(database, actor, ev, player, clock, **options)  # type: ignore[arg-type]
        return err.value

    taken = refused(b, li)
    assert taken.field == "player" and "already linked" in taken.message
    plays = refused(a, wang)
    assert plays.field == "player" and "already play as 李明" in plays.message
    ec.claim_entry(database, b, ev, wang, clock)
    twice = refused(b, zhang)
    assert twice.field == "player" and "awaits the organisers" in twice.message
    unknown = refused(c, 10_000)
    assert unknown.field == "player" and "no such player" in unknown.message
    assert refused(c, zhang, team=1).field == "team"
    long = refused(c, zhang, note="段" * (ec.NOTE_LIMIT + 1))
    assert long.field == "note" and str(ec.NOTE_LIMIT) in long.message
    assert ec.claim_entry(database, c, ev, zhang, clock, note="段" * ec.NOTE_LIMIT).state
    with pytest.raises(PermissionDenied):
        ec.claim_entry(database, ANONYMOUS, ev, zhang, clock)
    with pytest.raises(NotFound):
        ec.claim_entry(database, c, ev + 100, zhang, clock)


def test_only_those_who_manage_the_players_see_and_decide_claims(database: Database) -> None:
    """R-ORG-1: a referee and the claimant may neither list, approve nor decline; the chief
    referee declines with a reason the claimant reads; a decided claim is decided once."""
    ev, clock = _event(database), _clock()
    wang = live.player_id(database, ev, "王强")
    referee, chief = _user(database, "referee"), _user(database, "chief")
    accounts.grant_role(database, LOCAL, referee.user_id or 0, ev, Role.REFEREE)
    accounts.grant_role(database, LOCAL, chief.user_id or 0, ev, Role.CHIEF_REFEREE)
    a = _user(database, "player-a")
    claim = ec.claim_entry(database, a, ev, wang, clock)
    for actor in (referee, a):
        with pytest.raises(PermissionDenied):
            ec.event_claims(database, actor, ev)
        with pytest.raises(PermissionDenied):
            ec.approve_claim(database, actor, ev, claim.id, clock)
        with pytest.raises(PermissionDenied):
            ec.decline_claim(database, actor, ev, claim.id, clock, "no")
    with pytest.raises(InvalidSetting) as long:
        ec.decline_claim(database, chief, ev, claim.id, clock, "x" * (ec.NOTE_LIMIT + 1))
    assert long.value.field == "reason"
    with pytest.raises(NotFound):
        ec.decline_claim(database, LOCAL, ev + 100, claim.id, clock, "wrong event")
    done = ec.decline_claim(database, chief, ev, claim.id, clock, "王强本人已到场登记")
    assert (done.state, done.reason, done.decided_by) == ("declined", "王强本人已到场登记", "chief")
    assert ec.my_claims(database, a)[0].reason == "王强本人已到场登记"
    with pytest.raises(Conflict):
        ec.approve_claim(database, chief, ev, claim.id, clock)
    with pytest.raises(Conflict):
        ec.withdraw_claim(database, a, claim.id, clock)
    assert live.entrant_accounts(database, LOCAL, ev)[1].username is None


def test_the_claimant_withdraws_a_pending_claim_of_theirs_only(database: Database) -> None:
    ev, clock = _event(database), _clock()
    a, b = _user(database, "player-a"), _user(database, "player-b")
    claim = ec.claim_entry(database, a, ev, live.player_id(database, ev, "张伟"), clock)
    with pytest.raises(PermissionDenied):
        ec.withdraw_claim(database, b, claim.id, clock)
    with pytest.raises(NotFound):
        ec.withdraw_claim(database, a, claim.id + 100, clock)
    assert ec.withdraw_claim(database, a, claim.id, clock).state == "withdrawn"
    with pytest.raises(Conflict):
        ec.approve_claim(database, LOCAL, ev, claim.id, clock)
    # withdrawn, the user may claim again in the event
    assert ec.claim_entry(database, a, ev, live.player_id(database, ev, "刘洋"), clock).state


def test_approval_is_refused_once_the_entrant_or_the_claimant_is_linked_otherwise(
    database: Database,
) -> None:
    """A code redeemed meanwhile settles the claims it makes moot (declined with the reason);
    a claim whose entrant was linked behind the service's back cannot be approved."""
    ev, clock = _event(database), _clock()
    li, wang = live.player_id(database, ev, "李明"), live.player_id(database, ev, "王强")
    a, b = _user(database, "player-a"), _user(database, "player-b")
    claim_a = ec.claim_entry(database, a, ev, li, clock)
    claim_b = ec.claim_entry(database, b, ev, wang, clock)
    live.redeem_invite(database, a, live.create_invite(database, LOCAL, ev, wang).code)
    states = {c.id: c for c in ec.event_claims(database, LOCAL, ev)}
    assert states[claim_a.id].closed == ec.CLOSED_REASONS["user-linked"]
    assert states[claim_b.id].closed == ec.CLOSED_REASONS["entrant-taken"]
    # linked without the service (an older server, a hand-made row): approval re-checks
    c = _user(database, "player-c")
    claim_c = ec.claim_entry(database, c, ev, live.player_id(database, ev, "张伟"), clock)
    d = _user(database, "player-d")
    with database.transaction() as session:
        session.add(
            PlayerAccountRow(
                event_id=ev, player_id=live.player_id(database, ev, "张伟"), user_id=d.user_id
            )
        )
    assert ec.event_claims(database, LOCAL, ev)[0].taken_by == "player-d"
    with pytest.raises(Conflict):
        ec.approve_claim(database, LOCAL, ev, claim_c.id, clock)


def test_a_team_events_roster_player_is_claimed_per_board_and_plays_the_revealed_board(
    database: Database,
) -> None:
    """Team events: the claim names a roster player (of the team the user meant: another
    team's is refused, field ``team``); approved, the user's board appears once revealed."""
    settings = TeamEventSettings(boards=2, play=PlayMode.ONLINE)
    ev = create_event(database, LOCAL, "团体赛", settings).id
    teams.import_teams(
        database, LOCAL, ev, "team,name,rank\n甲,甲一,5d\n甲,甲二,4d\n乙,乙一,5d\n乙,乙二,4d\n"
    )
    clock = _clock()
    a = _user(database, "player-a")
    open_ = ec.open_entrants(database, a, ev)
    assert [(o.team, o.name) for o in open_] == [
        ("甲", "甲一"), ("甲", "甲二"), ("乙", "乙一"), ("乙", "乙二")
    ]  # fmt: skip
    second, yi = open_[1], open_[2]
    with pytest.raises(InvalidSetting) as wrong:
        ec.claim_entry(database, a, ev, second.player_id, clock, team=yi.team_id)
    assert wrong.value.field == "team"
    claim = ec.claim_entry(database, a, ev, second.player_id, clock, team=second.team_id)
    assert (claim.name, claim.team) == ("甲二", "甲")
    ec.approve_claim(database, LOCAL, ev, claim.id, clock)
    assert [o.name for o in ec.open_entrants(database, a, ev)] == ["甲一", "乙一", "乙二"]
    teams.pair_round(database, LOCAL, ev)
    for team in ("甲", "乙"):
        teams.submit_lineup(database, LOCAL, ev, 1, team, [f"{team}一", f"{team}二"])
    teams.reveal_round(database, LOCAL, ev, 1)
    (game,) = live.my_games(database, a)
    assert (game.board, game.team, game.opponent) == (2, "甲", "乙二")


def test_claimable_events_are_those_where_the_user_plays_as_nobody_yet(database: Database) -> None:
    ev, clock = _event(database), _clock()
    other = _event(database)
    a = _user(database, "player-a")
    assert {e.id for e in ec.claimable_events(database, a)} == {ev, other}
    ec.claim_entry(database, a, ev, live.player_id(database, ev, "李明"), clock)
    found = {e.id: e for e in ec.claimable_events(database, a)}
    assert found[ev].pending and not found[other].pending and found[ev].open == 4
    live.redeem_invite(
        database,
        a,
        live.create_invite(database, LOCAL, other, live.player_id(database, other, "李明")).code,
    )
    assert [e.id for e in ec.claimable_events(database, a)] == [ev]


def test_two_approvals_of_one_entrant_at_once_link_one_user(database: Database) -> None:
    """Two organisers approve two users' claims to the same entrant at the same moment (and
    the same user's claims to two entrants): exactly one approval links, the other is refused
    with a Conflict, and one user plays as the entrant."""
    ev, clock = _event(database), _clock()
    names = ("李明", "王强", "张伟", "刘洋")
    for trial in range(2):
        first, second = _user(database, f"o1-{trial}"), _user(database, f"o2-{trial}")
        for who in (first, second):
            accounts.grant_role(database, LOCAL, who.user_id or 0, ev, Role.ORGANISER)
        entrant = live.player_id(database, ev, names[trial])
        claims = [
            ec.claim_entry(database, _user(database, f"u{i}-{trial}"), ev, entrant, clock).id
            for i in (1, 2)
        ]
        outcomes = race(
            partial(ec.approve_claim, database, first, ev, claims[0], clock),
            partial(ec.approve_claim, database, second, ev, claims[1], clock),
            held=(database, ev) if trial else None,
        )
        winner(outcomes)
        with database.transaction() as session:
            linked = session.scalars(
                select(PlayerAccountRow.user_id).where(PlayerAccountRow.player_id == entrant)
            ).all()
        assert len(linked) == 1 and linked[0] is not None
