"""services.event_admin on SQLite and PostgreSQL: creating events, players, pairing, publishing,
unpairing, withdrawals (R-ORG-1, R-FMT-3, R-WD-1)."""

from __future__ import annotations

import pytest

from weiqi.errors import Conflict, InputError, InvalidSetting, PermissionDenied, RowsRejected
from weiqi.roles import Role
from weiqi.services import accounts, event_admin
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.services.permissions import roles_in_event
from weiqi.services.tournament import record_result, tournament_info
from weiqi.store.database import Database
from weiqi.tournament.settings import INDIVIDUAL_SYSTEMS, EventSettings, System

LOCAL = Actor.local()


CLUBS = ("北京棋院", "上海棋院", "成都棋院", "杭州棋院", "深圳棋院")


def players_csv(n: int, clubs: int = 5) -> str:
    """``n`` players 选手00… with ranks 5d…3k, falling ratings and ``clubs`` clubs."""
    ranks = ["5d", "4d", "3d", "2d", "1d", "1k", "2k", "3k"]
    rows = [
        f"选手{i:02d},{ranks[i % len(ranks)]},{2400 - 10 * i},{CLUBS[i % clubs]}" for i in range(n)
    ]
    return "姓名,段位,等级分,俱乐部\n" + "\n".join(rows) + "\n"


def swiss(db: Database, players: int = 24, rounds: int = 5) -> int:
    info = create_event(
        db, LOCAL, "2026 俱乐部积分编排赛", EventSettings(System.SWISS, rounds=rounds)
    )
    if players:
        event_admin.import_players(db, LOCAL, info.id, players_csv(players))
    return info.id


def user(db: Database, name: str) -> Actor:
    return accounts.create_user(db, LOCAL, name, "a good password").actor()


@pytest.mark.parametrize("system", INDIVIDUAL_SYSTEMS)
def test_r_fmt_3_every_system_can_be_created_and_paired(database: Database, system: System) -> None:
    """R-FMT-3: each system of the core is offered, stored and paired for round 1."""
    extra: dict[str, object] = {}
    if system.is_swiss:
        extra["rounds"] = 3
    if system is System.SWISS_KNOCKOUT:
        extra["elimination_losses"] = 2
    if system is System.MCMAHON:
        form = {"system": system.value, "rounds": "3", "mcmahon_bar": "3d", "komi": "3¾"}
        settings = event_admin.settings_from_form(form)
    else:
        settings = EventSettings(system, **extra)  # type: ignore[arg-type]
    info = create_event(database, LOCAL, f"{system.zh} 测试", settings)
    assert tournament_info(database, info.id).settings == settings
    n = 2 if system is System.MATCH else 8
    event_admin.import_players(database, LOCAL, info.id, players_csv(n))
    rnd = event_admin.pair_next_round(database, LOCAL, info.id)
    assert rnd.number == 1 and not rnd.published
    assert len(rnd.pairings) == n // 2


def test_defaults_follow_the_rules(database: Database) -> None:
    """Komi 3¾, points 2/1/0, 胜者小分 first for a round robin."""
    info = create_event(
        database, LOCAL, "循环赛", event_admin.settings_from_form({"system": "round_robin"})
    )
    s = info.settings
    assert (s.komi, s.points_win, s.points_draw, s.points_loss) == (15 / 4, 2, 1, 0)
    assert s.tiebreak_codes == ("SB", "WARN")


def test_invalid_setting_names_the_field(database: Database) -> None:
    with pytest.raises(InvalidSetting) as err:
        event_admin.settings_from_form({"system": "swiss", "rounds": ""})
    assert err.value.field == "rounds"
    with pytest.raises(InvalidSetting) as err:
        event_admin.settings_from_form({"system": "swiss", "rounds": "5", "points_win": "1"})
    assert err.value.field == "points"
    with pytest.raises(InvalidSetting) as err:
        event_admin.settings_from_form({"system": "swiss", "rounds": "5", "komi": "three"})
    assert err.value.field == "komi"


def test_r_org_1_creator_becomes_organiser_and_chief_referee(database: Database) -> None:
    """R-ORG-1: an organiser of one event may create another and runs it; a player may not."""
    admin_made = swiss(database, players=0)
    organiser = user(database, "organiser")
    accounts.grant_role(database, LOCAL, organiser.user_id or 0, admin_made, Role.ORGANISER)
    info = create_event(database, organiser, "新赛事", EventSettings(System.SWISS, rounds=3))
    with database.transaction() as session:
        held = roles_in_event(session, organiser, info.id)
    assert {Role.ORGANISER, Role.CHIEF_REFEREE} <= held
    player = user(database, "player")
    accounts.grant_role(database, LOCAL, player.user_id or 0, admin_made, Role.PLAYER)
    with pytest.raises(PermissionDenied):
        create_event(database, player, "x", EventSettings(System.ROUND_ROBIN))
    with pytest.raises(PermissionDenied):
        event_admin.pair_next_round(database, player, admin_made)


def test_settings_change_freely_before_round_1(database: Database) -> None:
    event_id = swiss(database, players=8)
    changed = EventSettings(System.SWISS, rounds=4, avoid_same_club=True)
    info = event_admin.update_settings(database, LOCAL, event_id, "改名", changed)
    assert info.name == "改名" and info.settings == changed


def test_import_is_all_or_nothing(database: Database) -> None:
    event_id = swiss(database, players=0)
    bad = (
        players_csv(24)
        .replace("选手03,2d", "选手03,12d")
        .replace("选手07,3k,2330", "选手07,3k,abc")
    )
    with pytest.raises(RowsRejected) as err:
        event_admin.import_players(database, LOCAL, event_id, bad)
    assert [line for line, _ in err.value.problems] == [5, 9]
    assert event_admin.dashboard(database, LOCAL, event_id).players == ()
    assert event_admin.import_players(database, LOCAL, event_id, players_csv(24)) == 24


def test_register_one_player_checks_like_a_row(database: Database) -> None:
    event_id = swiss(database, players=0)
    p = event_admin.register_player(database, LOCAL, event_id, "李明", "5段", "2400", "北京")
    assert (p.rank, p.rating, p.club) == ("5d", 2400.0, "北京")
    with pytest.raises(InputError) as err:
        event_admin.register_player(database, LOCAL, event_id, "王芳", rank="12d")
    assert err.value.where == "rank"
    with pytest.raises(InputError) as err:  # the same player twice (issue #13)
        event_admin.register_player(database, LOCAL, event_id, "李明", club="北京")
    assert err.value.where == "name"


def test_pairing_keeps_its_explanation_and_totals(database: Database) -> None:
    event_id = swiss(database)
    rnd = event_admin.pair_next_round(database, LOCAL, event_id)
    assert len(rnd.pairings) == 12 and len(rnd.explanations) == 12
    assert rnd.totals is not None and rnd.totals.games == 12
    again = event_admin.round_detail(database, LOCAL, event_id, 1)
    assert again.explanations == rnd.explanations and again.totals == rnd.totals
    names = {p.black for p in rnd.pairings} | {p.white for p in rnd.pairings}
    assert {e.black for e in rnd.explanations} | {e.white for e in rnd.explanations} == names


def test_a_round_is_hidden_until_published(database: Database) -> None:
    event_id = swiss(database, players=8)
    event_admin.pair_next_round(database, LOCAL, event_id)
    public = Actor(user_id=None, username="", is_admin=False)
    with pytest.raises(PermissionDenied):
        event_admin.round_detail(database, public, event_id, 1)
    assert event_admin.publish_round(database, LOCAL, event_id, 1).published
    assert event_admin.round_detail(database, public, event_id, 1).published
    assert not event_admin.publish_round(database, LOCAL, event_id, 1, False).published


def test_unpair_only_the_latest_round_without_results(database: Database) -> None:
    event_id = swiss(database, players=8)
    first = event_admin.pair_next_round(database, LOCAL, event_id)
    event_admin.unpair_round(database, LOCAL, event_id, 1)
    assert event_admin.dashboard(database, LOCAL, event_id).rounds == ()
    again = event_admin.pair_next_round(database, LOCAL, event_id)
    assert again.pairings == first.pairings  # the lots are seeded: the same draw
    record_result(database, LOCAL, event_id, 1, 1, "B+R")
    with pytest.raises(Conflict):
        event_admin.unpair_round(database, LOCAL, event_id, 1)
    for board in range(2, 5):
        record_result(database, LOCAL, event_id, 1, board, "W+3.5")
    event_admin.pair_next_round(database, LOCAL, event_id)
    with pytest.raises(Conflict):
        event_admin.unpair_round(database, LOCAL, event_id, 1)
    event_admin.unpair_round(database, LOCAL, event_id, 2)


def test_r_wd_1_withdrawal_consequences(database: Database) -> None:
    """R-WD-1: before the start out of the draw; Swiss: results stand, no further pairing;
    round robin: void under half the games, forfeits from half on."""
    event_id = swiss(database, players=8)
    before = event_admin.withdraw(database, LOCAL, event_id, "选手07")
    assert (before.after_round, before.consequence) == (0, event_admin.CONSEQUENCE_BEFORE_START)
    rnd = event_admin.pair_next_round(database, LOCAL, event_id)
    assert "选手07" not in {p.black for p in rnd.pairings} | {p.white for p in rnd.pairings}
    for p in rnd.pairings:
        record_result(database, LOCAL, event_id, 1, p.board, "B+R")
    gone = rnd.pairings[0].black
    done = event_admin.withdraw(database, LOCAL, event_id, gone)
    assert (done.after_round, done.consequence) == (1, event_admin.CONSEQUENCE_SWISS)
    rnd2 = event_admin.pair_next_round(database, LOCAL, event_id)
    assert gone not in {p.black for p in rnd2.pairings} | {p.white for p in rnd2.pairings}

    rr = create_event(database, LOCAL, "循环", EventSettings(System.ROUND_ROBIN))
    event_admin.import_players(database, LOCAL, rr.id, players_csv(6))
    r1 = event_admin.pair_next_round(database, LOCAL, rr.id)
    for p in r1.pairings:
        record_result(database, LOCAL, rr.id, 1, p.board, "W+R")
    void = event_admin.withdraw(database, LOCAL, rr.id, r1.pairings[0].white)
    assert void.consequence == event_admin.CONSEQUENCE_RR_VOID


def test_late_entry_only_into_a_swiss(database: Database) -> None:
    event_id = swiss(database, players=8)
    event_admin.pair_next_round(database, LOCAL, event_id)
    late = event_admin.register_player(database, LOCAL, event_id, "迟到者", "1d")
    assert late.joined_round == 2
    rr = create_event(database, LOCAL, "循环", EventSettings(System.ROUND_ROBIN))
    event_admin.import_players(database, LOCAL, rr.id, players_csv(4))
    event_admin.pair_next_round(database, LOCAL, rr.id)
    with pytest.raises(Conflict):
        event_admin.register_player(database, LOCAL, rr.id, "迟到者")


def test_the_dashboard_knows_when_every_round_is_paired(database: Database) -> None:
    event_id = swiss(database, players=8, rounds=3)
    for number in (1, 2, 3):
        assert not event_admin.dashboard(database, LOCAL, event_id).finished
        rnd = event_admin.pair_next_round(database, LOCAL, event_id)
        assert rnd.number == number
        board = event_admin.dashboard(database, LOCAL, event_id)
        assert (board.rounds[-1].games, board.rounds[-1].results) == (4, 0)
        for p in rnd.pairings:
            record_result(database, LOCAL, event_id, number, p.board, "B+R")
    board = event_admin.dashboard(database, LOCAL, event_id)
    assert board.finished and [r.results for r in board.rounds] == [4, 4, 4]


def test_r_wd_1_round_robin_results_stand_from_half_the_games(database: Database) -> None:
    """R-WD-1: in a round robin, a player who has played at least half the games keeps the
    results; the rest are forfeits."""
    rr = create_event(database, LOCAL, "循环", EventSettings(System.ROUND_ROBIN))
    event_admin.import_players(database, LOCAL, rr.id, players_csv(4))
    for number in (1, 2):
        rnd = event_admin.pair_next_round(database, LOCAL, rr.id)
        for p in rnd.pairings:
            record_result(database, LOCAL, rr.id, number, p.board, "B+R")
    done = event_admin.withdraw(database, LOCAL, rr.id, "选手00")
    assert (done.after_round, done.consequence) == (2, event_admin.CONSEQUENCE_RR_STAND)
