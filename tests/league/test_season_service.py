"""A whole league season through the services, on SQLite and PostgreSQL (R-LEAGUE-1,
R-LEAGUE-2, R-SCORE-TEAM-1, R-RANK-TEAM): 甲 with 12 clubs over a dated double round robin of 22
rounds, 乙 with 4 clubs; 4-board matches from sealed lineups with at most one foreign player; the
final table, promotion and relegation; then next season's draft, replayed from its log."""

from __future__ import annotations

import datetime

import pytest
from sqlalchemy import select

from weiqi.errors import Conflict, LineupRejected, PermissionDenied
from weiqi.league.season import SeasonSettings
from weiqi.services.actor import ANONYMOUS, Actor
from weiqi.services.league import (
    close_season,
    create_season,
    division_event,
    pass_turn,
    pick,
    protect,
    season_calendar,
    show_draft,
    start_draft,
)
from weiqi.services.server_clock import ManualClock
from weiqi.services.teams import (
    record_results,
    reveal_round,
    show_round,
    standings,
    submit_lineup,
    submit_lineups,
)
from weiqi.store.database import Database
from weiqi.store.teams import DraftLogRow

LOCAL = Actor.local()
JIA = [f"J{k:02d}" for k in range(1, 13)]  # J01 strongest … J12 weakest
YI = [f"Y{k}" for k in range(1, 5)]


def roster_csv(clubs: list[str], size: int) -> str:
    """Players c1…c<size>; c5 and c6 are Korean, so foreign (外援) with home nationality CN."""
    rows = [
        f"{c},{c}p{i},{9 - i}p,{2800 - 10 * i},{'KR' if i >= 5 else 'CN'}"
        for c in clubs
        for i in range(1, size + 1)
    ]
    return "team,name,rank,rating,nationality\n" + "\n".join(rows)


def lineup(club: str, rnd: int) -> list[str]:
    """Four players; the foreign c5 plays the odd rounds in place of c4."""
    return [f"{club}p1", f"{club}p2", f"{club}p3", f"{club}p5" if rnd % 2 else f"{club}p4"]


def play_division(
    db: Database, season_id: int, division: str, clubs: list[str], skip: tuple[int, str]
) -> None:
    """Every round: lineups sealed the day before, revealed at the deadline, then results —
    the stronger club (earlier in ``clubs``) wins boards 1–3 and loses board 4 (6:2)."""
    strength = {c: i for i, c in enumerate(clubs)}
    event_id = division_event(db, season_id, division)
    for rnd in season_calendar(db, season_id, division):
        assert rnd.date is not None
        day = datetime.datetime.fromisoformat(rnd.date).replace(tzinfo=datetime.UTC)
        sheets = {
            club: lineup(club, rnd.number)
            for m in rnd.matches
            for club in (m.home, m.away)
            if (rnd.number, club) != skip
        }
        # the chief referee enters the round's sheets in one go (one transaction)
        clock = ManualClock(day - datetime.timedelta(hours=12))
        submit_lineups(db, LOCAL, event_id, rnd.number, sheets, clock=clock)
        seated = reveal_round(db, LOCAL, event_id, rnd.number, clock=clock.set(day))
        rows = []
        for m in seated.matches:
            strong_home = strength[m.home] < strength[m.away]
            for b in m.boards:
                home_wins = strong_home if b.board < 4 else not strong_home
                winner = b.home_color if home_wins else ("W" if b.home_color == "B" else "B")
                rows.append((m.home, b.board, f"{winner}+R"))
        record_results(db, LOCAL, event_id, rnd.number, rows)


def test_r_league_1_r_league_2_a_whole_season_and_the_next_draft(db: Database) -> None:
    settings = SeasonSettings(boards=4, min_roster=4, max_roster=6, max_foreign=1,
                              promoted=2, relegated=2)  # fmt: skip
    season = create_season(
        db, LOCAL, "2026", [("甲", roster_csv(JIA, 6)), ("乙", roster_csv(YI, 5))], settings,
        start=datetime.date(2026, 3, 7), home_nationality="CN",
    )  # fmt: skip
    jia, yi = season.divisions
    assert (jia.division, jia.clubs, jia.rounds) == ("甲", 12, 22)
    assert (yi.division, yi.clubs, yi.rounds) == ("乙", 4, 6)

    calendar = season_calendar(db, season.id, "甲")
    assert [r.date for r in calendar][:2] == ["2026-03-07", "2026-03-14"]
    assert calendar[-1].date == "2026-08-01"  # 21 weeks after the first round
    meetings: dict[tuple[str, str], int] = {}
    for r in calendar:
        assert len(r.matches) == 6
        for m in r.matches:
            meetings[(m.home, m.away)] = meetings.get((m.home, m.away), 0) + 1
    # double round robin: every ordered pair once, so each pair meets twice, home and away
    assert len(meetings) == 12 * 11 and set(meetings.values()) == {1}

    # R-LEAGUE-1: the foreign limit is checked on every lineup, and nothing is stored
    two_foreign = ["J01p1", "J01p2", "J01p5", "J01p6"]
    with pytest.raises(LineupRejected, match="2 foreign players"):
        submit_lineup(db, LOCAL, jia.event_id, 1, "J01", two_foreign)
    with pytest.raises(LineupRejected, match="not on the roster"):
        submit_lineup(db, LOCAL, jia.event_id, 1, "J01", ["J01p1", "J01p2", "J01p3", "J02p1"])
    # the lineups stay sealed until revealed: only whether a club has submitted shows
    submit_lineup(db, LOCAL, jia.event_id, 1, "J01", lineup("J01", 1))
    sealed = show_round(db, jia.event_id, 1)
    assert sealed.lineups == {} and all(m.boards == () for m in sealed.matches)
    assert sealed.matches[0].submitted["J01"] is True

    with pytest.raises(Conflict, match="not closed"):
        start_draft(db, LOCAL, season.id)
    # J07 sends no lineup in round 5: its round-4 lineup plays again (SeasonSettings default)
    play_division(db, season.id, "甲", JIA, skip=(5, "J07"))
    play_division(db, season.id, "乙", YI, skip=(0, ""))
    r5 = show_round(db, jia.event_id, 5)
    assert r5.lineups["J07"] == tuple(lineup("J07", 4))

    table = standings(db, jia.event_id)
    # by hand: club k (1…12) wins its 2 × (12 − k) matches against weaker clubs 6:2 and loses
    # the 2 × (k − 1) others 2:6 → MP 4 × (12 − k), GP 12 × (12 − k) + 4 × (k − 1)
    assert [(s.place, s.team) for s in table] == [(k, JIA[k - 1]) for k in range(1, 13)]
    for k, s in enumerate(table, start=1):
        assert (s.played, s.won, s.lost) == (22, 12 - k + 12 - k, 2 * (k - 1))
        assert s.match_points == 4 * (12 - k)
        assert s.game_points == 12 * (12 - k) + 4 * (k - 1)
        # boards 1–3 go to the stronger club, board 4 to the weaker
        assert s.board_points == [4 * (12 - k)] * 3 + [4 * (k - 1)]
    assert sum(s.match_points for s in table) == 2 * 132  # 2 match points shared per match

    end = close_season(db, LOCAL, season.id)
    assert end.final["甲"] == JIA and end.final["乙"] == YI
    assert end.next_divisions["甲"] == [*JIA[:10], "Y1", "Y2"]  # J11, J12 relegated
    assert end.next_divisions["乙"] == ["J11", "J12", "Y3", "Y4"]
    with pytest.raises(Conflict, match="already closed"):
        close_season(db, LOCAL, season.id)

    # R-LEAGUE-2: next season's 甲 clubs pick in reverse order of the combined standing
    draft = start_draft(db, LOCAL, season.id, base=4)
    assert draft.order == ("Y2", "Y1", *reversed(JIA[:10]))
    assert set(draft.waiting_to_protect) == set(JIA) | set(YI)
    with pytest.raises(Conflict, match="has its draft already"):
        start_draft(db, LOCAL, season.id)
    for club in JIA:
        protect(db, LOCAL, draft.id, club, [f"{club}p{i}" for i in range(1, 5)])
    for club in YI:
        protect(db, LOCAL, draft.id, club, [f"{club}p{i}" for i in (1, 2, 3, 5)])
    view = show_draft(db, draft.id)
    assert len(view.pool) == 12 * 2 + 4 and view.on_the_clock == "Y2"
    with pytest.raises(PermissionDenied, match="may not run the transfer draft"):
        pick(db, ANONYMOUS, draft.id, "Y2", "J01p5")
    with pytest.raises(Conflict, match="Y2's turn"):
        pick(db, LOCAL, draft.id, "Y1", "J01p5")
    with pytest.raises(Conflict, match="cannot pick him back"):
        pick(db, LOCAL, draft.id, "Y2", "Y2p4")
    # round 1: every club takes the first listed player of another club; round 2: all pass
    for club in draft.order:
        pool = show_draft(db, draft.id).pool
        player = next(p for p, owner in pool if owner != club)
        pick(db, LOCAL, draft.id, club, player)
    for club in draft.order:
        pass_turn(db, LOCAL, draft.id, club)
    done = show_draft(db, draft.id)
    assert done.finished and len(done.log) == 24
    assert done.log[0].text() == "1.1 Y2 picks J01p5 (from J01)"
    assert done.log[-1].text() == "2.12 J01 passes"
    assert "J01p5" in done.rosters["Y2"] and "J01p5" not in done.rosters["J01"]
    assert sum(len(r) for r in done.rosters.values()) == 12 * 6 + 4 * 5  # nobody lost

    # the log is audited on every read: an altered line is refused with its number
    with db.transaction() as session:
        line = session.scalar(select(DraftLogRow).where(DraftLogRow.seq == 3))
        assert line is not None
        line.club = "J01"  # out of turn
    with pytest.raises(Conflict, match="draft log line 3"):
        show_draft(db, draft.id)
