"""The read models and form of the league's organisers' pages (issue #13: a season, its
divisions and calendar, closing it and the 摘牌 draft from the browser; R-LEAGUE-1, R-LEAGUE-2),
and the two team-event reads the pages gained: the lineup a coach sealed (R-FMT-1) and the home
page's event cards. On SQLite and PostgreSQL."""

from __future__ import annotations

import datetime

import pytest

from weiqi.errors import FieldsRejected, InvalidSetting, PermissionDenied
from weiqi.league.season import SeasonSettings
from weiqi.roles import Role
from weiqi.services import accounts, league, teams
from weiqi.services.actor import ANONYMOUS, Actor
from weiqi.services.events import EventKind, EventStatus, create_event, event_cards
from weiqi.services.permissions import Action as Act
from weiqi.services.permissions import allowed
from weiqi.services.team_coaches import CoachRole, assign_coach
from weiqi.services.tournament import import_players, pair_round
from weiqi.store.database import Database
from weiqi.tournament.settings import EventSettings, System

LOCAL = Actor.local()
PASSWORD = "组委会的密码 2026"
SETTINGS = SeasonSettings(boards=2, min_roster=2, max_roster=6, promoted=1, relegated=1)


def clubs(names: str) -> str:
    """Three clubs a division, three players each (江1 … 江3): a CSV of the season form."""
    return "队名,姓名,段位\n" + "\n".join(f"{c}队,{c}{i},{i}p" for c in names for i in range(1, 4))


def new_season(db: Database, actor: Actor = LOCAL) -> league.SeasonInfo:
    return league.create_season(
        db, actor, "2026 围甲联赛", [("甲", clubs("江浙沪")), ("乙", clubs("川渝闽"))],
        SETTINGS, start=datetime.date(2026, 3, 7),
    )  # fmt: skip


def play_season(db: Database, season: league.SeasonInfo, actor: Actor = LOCAL) -> None:
    """Every round of every division: both lineups sealed (boards 1 and 2: a club's players
    1 and 2), revealed, and the club listed first in its division wins both boards (江 over
    浙 over 沪: a table with no shared place)."""
    strength = "江浙沪川渝闽"
    for d in season.divisions:
        for rnd in teams.list_rounds(db, d.event_id):
            lineups = {t: [f"{t[0]}1", f"{t[0]}2"] for m in rnd.matches for t in (m.home, m.away)}
            teams.submit_lineups(db, actor, d.event_id, rnd.number, lineups)
            teams.reveal_round(db, actor, d.event_id, rnd.number)
            seated = teams.show_round(db, d.event_id, rnd.number)
            entries = []
            for m in seated.matches:
                home_wins = strength.index(m.home[0]) < strength.index(m.away[0])
                for b in m.boards:
                    winner = b.home_color if home_wins else ("W" if b.home_color == "B" else "B")
                    entries.append((m.home, b.board, f"{winner}+R"))
            teams.record_results(db, actor, d.event_id, rnd.number, entries)


def organiser(db: Database, name: str = "wang") -> Actor:
    """An organiser of an earlier event: may create events (and so seasons)."""
    user = accounts.create_user(db, LOCAL, name, PASSWORD)
    earlier = create_event(db, LOCAL, f"2025 秋季赛 {name}", EventSettings(System.SWISS, 3))
    accounts.grant_role(db, LOCAL, user.id, earlier.id, Role.ORGANISER)
    return accounts.authenticate(db, name, PASSWORD).actor()


def test_season_form_reads_every_field_and_names_every_bad_one_at_once() -> None:
    form = league.season_form(
        {"start": "2026-03-07", "days": "14", "boards": "3", "min_roster": "3",
         "max_roster": "5", "max_foreign": "", "promoted": "1", "relegated": "1",
         "missing": "forfeit", "board_one_decides": "on", "home_nationality": "cn"}
    )  # fmt: skip
    assert (form.start, form.days, form.home_nationality) == (datetime.date(2026, 3, 7), 14, "CN")
    s = form.settings
    assert (s.boards, s.min_roster, s.max_roster, s.max_foreign) == (3, 3, 5, None)
    assert (s.promoted, s.relegated, s.missing.value, s.board_one_decides) == (
        1,
        1,
        "forfeit",
        True,
    )
    with pytest.raises(FieldsRejected) as bad:
        league.season_form({"start": "", "days": "0", "boards": "x", "relegated": "-1"})
    assert set(bad.value.problems) == {"start", "days", "boards", "relegated"}
    with pytest.raises(InvalidSetting) as clash:  # fields fine, together not
        league.season_form({"start": "2026-03-07", "boards": "4", "min_roster": "2"})
    assert clash.value.field == "min_roster"


def test_a_season_sets_its_divisions_time_control_and_a_division_its_own(db: Database) -> None:
    """The season's time control is every division's (read as typed on its form, an
    unreadable one named with the others); a division may change its own, its other
    settings staying the season's."""
    from dataclasses import replace

    from weiqi.clock.control import TimeControl

    typed = {
        "start": "2026-03-07",
        "boards": "2",
        "min_roster": "2",
        "time_control": "1h incl 5x60s",
    }
    assert league.season_form(typed).settings.time_control == TimeControl.parse("55m+5x60s")
    with pytest.raises(FieldsRejected) as bad:
        league.season_form({**typed, "time_control": "一小时", "boards": "x"})
    assert set(bad.value.problems) == {"time_control", "boards"}
    season = league.create_season(
        db, LOCAL, "2026 围甲联赛", [("甲", clubs("江浙沪")), ("乙", clubs("川渝闽"))],
        replace(SETTINGS, time_control=TimeControl.parse("2h+5x60s")),
        start=datetime.date(2026, 3, 7),
    )  # fmt: skip
    controls = {
        teams.team_event_info(db, d.event_id).settings.time_control for d in season.divisions
    }
    assert controls == {TimeControl.parse("2h+5x60s")}
    top = teams.team_event_info(db, season.divisions[0].event_id)
    faster = replace(top.settings, time_control=TimeControl.parse("1h+3x30s"))
    teams.update_team_event(db, LOCAL, top.id, top.name, top.details, faster)
    assert teams.team_event_info(db, top.id).settings.time_control == TimeControl.parse("1h+3x30s")
    with pytest.raises(InvalidSetting) as refused:
        teams.update_team_event(db, LOCAL, top.id, top.name, top.details, replace(faster, komi=0))
    assert refused.value.field == "komi"


def test_a_season_created_by_an_organiser_is_theirs_to_close_and_draft(db: Database) -> None:
    """Issue #13: whoever creates a season from the pages (an organiser, not an administrator)
    organises and referees its divisions, as with any event they create; the season's page
    then offers them closing it and the draft, and nobody else."""
    wang = organiser(db)
    season = new_season(db, wang)
    top = season.divisions[0].event_id
    assert allowed(db, wang, Act.PAIR_ROUND, top) and allowed(db, wang, Act.RUN_DRAFT, top)
    page = league.season_page(db, wang, season.id)
    assert page.may_close and page.may_draft and not page.all_played and page.end is None
    assert [(p.division.division, p.finished, p.total) for p in page.progress] == [
        ("甲", 0, 6),
        ("乙", 0, 6),
    ]
    other = organiser(db, "li")
    assert not league.season_page(db, other, season.id).may_close
    assert not league.season_page(db, ANONYMOUS, season.id).may_draft
    [card] = league.list_seasons(db)
    assert (card.name, card.divisions, card.closed, card.draft_id) == (
        "2026 围甲联赛", ("甲", "乙"), False, None,
    )  # fmt: skip
    assert card.top_event_id == top


def test_season_page_after_closing_and_draft_page(db: Database) -> None:
    """R-LEAGUE-1 / R-LEAGUE-2: once every match is played the season closes with its final
    orders and next divisions; the draft page has each club's roster for its protected base."""
    season = new_season(db)
    play_season(db, season)
    assert league.season_page(db, LOCAL, season.id).all_played
    league.close_season(db, LOCAL, season.id)
    page = league.season_page(db, LOCAL, season.id)
    assert page.end is not None and set(page.end.final) == {"甲", "乙"}
    assert len(page.end.next_divisions["甲"]) == 3
    view = league.start_draft(db, LOCAL, season.id, base=2)
    assert league.season_page(db, LOCAL, season.id).draft_id == view.id
    assert league.list_seasons(db)[0].draft_id == view.id
    dp = league.draft_page(db, LOCAL, view.id)
    assert dp.may_run and dp.season.id == season.id
    assert set(dp.draft.waiting_to_protect) == set(dp.rosters) and len(dp.rosters) == 6
    assert [e.name for e in dp.rosters["江队"]] == ["江1", "江2", "江3"]
    assert not league.draft_page(db, ANONYMOUS, view.id).may_run


def test_a_coach_reads_the_lineup_they_sealed_and_nobody_else_does(db: Database) -> None:
    """Issue #13 / R-FMT-1: the coach sees the lineup they sealed; another team's coach and
    the public may not read it before the reveal."""
    season = new_season(db)
    top = season.divisions[0].event_id
    coach = accounts.create_user(db, LOCAL, "coach-jiang", PASSWORD)
    assign_coach(db, LOCAL, top, "江队", "coach-jiang", CoachRole.COACH)
    rival = accounts.create_user(db, LOCAL, "coach-zhe", PASSWORD)
    assign_coach(db, LOCAL, top, "浙队", "coach-zhe", CoachRole.COACH)
    me = accounts.authenticate(db, "coach-jiang", PASSWORD).actor()
    rnd = teams.show_round(db, top, 1)
    jiang_round = next(
        r for r in teams.list_rounds(db, top) if any("江队" in (m.home, m.away) for m in r.matches)
    )
    assert teams.sealed_lineup(db, me, top, jiang_round.number, "江队") is None
    teams.submit_lineup(db, me, top, jiang_round.number, "江队", ["江2", "江1"])
    sealed = teams.sealed_lineup(db, me, top, jiang_round.number, "江队")
    assert sealed is not None and sealed.players == ("江2", "江1")
    they = accounts.authenticate(db, "coach-zhe", PASSWORD).actor()
    with pytest.raises(PermissionDenied):
        teams.sealed_lineup(db, they, top, jiang_round.number, "江队")
    with pytest.raises(PermissionDenied):
        teams.sealed_lineup(db, ANONYMOUS, top, jiang_round.number, "江队")
    assert rnd.number == 1 and coach.id != rival.id


def test_event_cards_say_system_status_and_current_round(db: Database) -> None:
    """Issue #13: the home page's cards — an individual Swiss not started, then in round 1 of
    3; a league division not started until its first lineups are revealed, then finished."""
    swiss = create_event(db, LOCAL, "春季赛", EventSettings(System.SWISS, 3)).id
    season = new_season(db)
    cards = {c.id: c for c in event_cards(db)}
    assert (cards[swiss].kind, cards[swiss].system, cards[swiss].status) == (
        EventKind.INDIVIDUAL, "swiss", EventStatus.NOT_STARTED,
    )  # fmt: skip
    top = cards[season.divisions[0].event_id]
    assert (top.kind, top.system, top.status, top.planned) == (
        EventKind.TEAM, "round_robin", EventStatus.NOT_STARTED, 6,
    )  # fmt: skip
    assert top.season_id == season.id
    import_players(db, LOCAL, swiss, "name\n李明\n王强\n张伟\n刘洋\n")
    pair_round(db, LOCAL, swiss)
    card = {c.id: c for c in event_cards(db)}[swiss]
    assert (card.status, card.current_round, card.planned) == (EventStatus.IN_PROGRESS, 1, 3)
    play_season(db, season)
    top = {c.id: c for c in event_cards(db)}[season.divisions[0].event_id]
    assert (top.status, top.current_round) == (EventStatus.FINISHED, 6)
