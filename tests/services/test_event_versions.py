"""Every write a service makes to an event changes that event's version and no other (the
public pages kept under the old one are out of date: ``server/page_cache.py``), on SQLite and
PostgreSQL — none of them falls back on the site's version, which would throw away every
event's pages."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta

from weiqi.league.settings import TeamEventSettings
from weiqi.roles import Role
from weiqi.services import accounts, event_admin, games, league, team_admin, team_coaches, teams
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.services.public import event_version
from weiqi.services.server_clock import ManualClock
from weiqi.services.tournament import (
    add_warning,
    import_players,
    pair_round,
    withdraw_player,
)
from weiqi.store.database import Database
from weiqi.store.versions import Version
from weiqi.tournament.settings import EventSettings, System

LOCAL = Actor.local()
T0 = datetime(2026, 5, 1, 8, 0, tzinfo=UTC)
PLAYERS = "name,rank\n" + "".join(f"P{i},{7 - i}d\n" for i in range(1, 7))


def _version(db: Database, event_id: int) -> Version:
    found = event_version(db, event_id)
    assert found is not None, event_id
    return found


def _each_changes_only_its_event(
    db: Database, ev: int, steps: list[tuple[str, Callable[[], object]]]
) -> None:
    bystander = create_event(db, LOCAL, "旁观杯", EventSettings(System.SWISS, rounds=2)).id
    for label, step in steps:
        before, other = _version(db, ev), _version(db, bystander)
        step()
        after = _version(db, ev)
        assert after.event != before.event, f"{label}: the event's version stayed"
        assert after.site == before.site, f"{label}: fell back on the site's version"
        assert _version(db, bystander) == other, f"{label}: another event's version changed"


def test_every_write_of_an_individual_event(db: Database) -> None:
    ev = create_event(db, LOCAL, "版本杯", EventSettings(System.SWISS, rounds=3)).id
    assert event_version(db, ev) is not None  # from its creation on
    user = accounts.create_user(db, LOCAL, "caipan", "一个足够长的裁判密码 2026")
    steps: list[tuple[str, Callable[[], object]]] = [
        ("import players", lambda: import_players(db, LOCAL, ev, PLAYERS)),
        ("register a player", lambda: event_admin.register_player(db, LOCAL, ev, "P7", "1k")),
        (
            "change the settings",
            lambda: event_admin.update_settings(
                db, LOCAL, ev, "版本杯 2026", EventSettings(System.SWISS, rounds=4)
            ),
        ),
        ("grant a role", lambda: accounts.grant_role(db, LOCAL, user.id, ev, Role.REFEREE)),
        ("pair round 1", lambda: pair_round(db, LOCAL, ev)),
        ("publish round 1", lambda: event_admin.publish_round(db, LOCAL, ev, 1)),
        ("enter a result", lambda: games.enter_result(db, LOCAL, ev, 1, 1, "B+R")),
        ("confirm it", lambda: games.confirm_result(db, LOCAL, ev, 1, 1)),
        (
            "record an infraction",
            lambda: games.record_infraction(db, LOCAL, ev, 1, 2, "clock_before_move", "B"),
        ),
        (
            "enter the sheet",
            lambda: games.enter_round_results(db, LOCAL, ev, 1, [(1, 2, "B+R"), (2, 3, "W+R")]),
        ),
        (
            "correct a confirmed result",
            lambda: games.correct_result(db, LOCAL, ev, 1, 1, "W+R", "记错颜色"),
        ),
        ("add a warning", lambda: add_warning(db, LOCAL, ev, "P1")),
        ("withdraw a player", lambda: withdraw_player(db, LOCAL, ev, "P7")),
        ("pair round 2", lambda: pair_round(db, LOCAL, ev)),
        ("unpair round 2", lambda: event_admin.unpair_round(db, LOCAL, ev, 2)),
        ("revoke the role", lambda: accounts.revoke_role(db, LOCAL, user.id, ev, Role.REFEREE)),
    ]
    _each_changes_only_its_event(db, ev, steps)


def test_every_write_of_a_team_event(db: Database) -> None:
    ev = create_event(db, LOCAL, "团体版本赛", TeamEventSettings(boards=2)).id
    rows = "".join(f"{t},{t}{i},{8 - i}d\n" for t in ("北京队", "上海队", "广州队") for i in (1, 2))
    accounts.create_user(db, LOCAL, "jiaolian", "一个足够长的教练密码 2026")
    early = ManualClock(T0 - timedelta(hours=1))
    lineups = {t: [f"{t}1", f"{t}2"] for t in ("北京队", "上海队", "广州队")}
    lineups["深圳队"] = ["深圳1", "深圳2"]
    steps: list[tuple[str, Callable[[], object]]] = [
        ("import teams", lambda: teams.import_teams(db, LOCAL, ev, "team,name,rank\n" + rows)),
        (
            "add a team from the form",
            lambda: team_admin.add_team(db, LOCAL, ev, "深圳队", "王教练", "深圳1,5d\n深圳2,4d"),
        ),
        (
            "assign a coach",
            lambda: team_coaches.assign_coach(db, LOCAL, ev, "北京队", "jiaolian"),
        ),
        ("pair round 1", lambda: teams.pair_round(db, LOCAL, ev, start=T0)),
        ("submit lineups", lambda: teams.submit_lineups(db, LOCAL, ev, 1, lineups, clock=early)),
        ("reveal", lambda: teams.reveal_round(db, LOCAL, ev, 1, clock=ManualClock(T0))),
        (
            "record a board",
            lambda: teams.record_board_result(db, LOCAL, ev, 1, "北京队", 1, "B+R"),
        ),
        ("record the sheet", lambda: teams.record_results(db, LOCAL, ev, 1, [("北京队", 2, "0")])),
    ]
    _each_changes_only_its_event(db, ev, steps)


def test_a_new_league_gives_every_division_a_version(db: Database) -> None:
    def clubs(names: str) -> str:
        return "队名,姓名,段位\n" + "\n".join(f"{c}队,{c}{i},{i}p" for c in names for i in (1, 2))

    season = league.create_season(
        db,
        LOCAL,
        "围甲",
        [("甲", clubs("江浙沪粤")), ("乙", clubs("京津冀鲁"))],
        league.SeasonSettings(boards=2, min_roster=2, max_roster=6, promoted=1, relegated=1),
        start=date(2026, 3, 7),
    )
    found = [_version(db, d.event_id) for d in season.divisions]
    assert len({v.event for v in found}) == 2
