"""Migration 0008 on SQLite and PostgreSQL: a database of revision 0007 (team board results as
bare columns, no game records) gains a confirmed game record for every recorded team board —
a team event and a league division, a forfeited board left without one — and the team
standings, match scores and results are the same before and after; the chief referee can then
correct a migrated result (R-REF-7)."""

from __future__ import annotations

import datetime

from alembic import command
from sqlalchemy import inspect, select

from weiqi.league.season import SeasonSettings
from weiqi.league.settings import TeamEventSettings
from weiqi.services import games, league, teams
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.services.games import TeamBoard
from weiqi.services.read_models import as_json
from weiqi.services.server_clock import ManualClock
from weiqi.store.database import Database
from weiqi.store.games import GameRecordRow
from weiqi.store.migrate import alembic_config, current_revision, head_revision
from weiqi.store.tournament import GameRow

LOCAL = Actor.local()
T0 = datetime.datetime(2026, 5, 1, 8, 0, tzinfo=datetime.UTC)


def _team_event(db: Database) -> int:
    """Four teams, two boards, two rounds played; in round 2 team D sends no lineup (its
    boards are forfeited, empty). Every team's second player is called 张伟 (namesakes meet
    on board 2)."""
    ev = create_event(db, LOCAL, "团体赛", TeamEventSettings(boards=2)).id
    csv = "team,id,name,rank\n" + "\n".join(
        f"{t},{t}{i},{'张伟' if i == 2 else t + '1'},{9 - i}p" for t in "ABCD" for i in (1, 2)
    )
    teams.import_teams(db, LOCAL, ev, csv)
    for number, codes in ((1, ("B+R", "W+R")), (2, ("0", "B+R"))):
        rnd = teams.pair_round(db, LOCAL, ev)
        for m in rnd.matches:
            for t in (m.home, m.away):
                if not (number == 2 and t == "D"):
                    teams.submit_lineup(
                        db, LOCAL, ev, number, t, [f"{t}1", f"{t}2"], clock=ManualClock(T0)
                    )
        teams.reveal_round(db, LOCAL, ev, number, clock=ManualClock(T0))
        rows = [
            (m.home, b, code)
            for m in rnd.matches
            if "D" not in (m.home, m.away) or number == 1
            for b, code in enumerate(codes, start=1)
        ]
        teams.record_results(db, LOCAL, ev, number, rows)
    return ev


def _division(db: Database) -> int:
    clubs = "队名,姓名,段位\n" + "\n".join(f"{c}队,{c}{i},{i}p" for c in "江浙沪粤" for i in (1, 2))
    season = league.create_season(
        db,
        LOCAL,
        "围甲",
        [("甲", clubs)],
        SeasonSettings(boards=2, min_roster=2, max_roster=6, promoted=0, relegated=0),
        start=datetime.date(2026, 3, 7),
    )
    ev = season.divisions[0].event_id
    rnd = teams.show_round(db, ev, 1)
    lineups = {t: [f"{t[0]}1", f"{t[0]}2"] for m in rnd.matches for t in (m.home, m.away)}
    teams.submit_lineups(db, LOCAL, ev, 1, lineups)
    teams.reveal_round(
        db,
        LOCAL,
        ev,
        1,
        clock=ManualClock(datetime.datetime(2026, 3, 7, 9, 0, tzinfo=datetime.UTC)),
    )
    for m in rnd.matches:
        teams.record_results(db, LOCAL, ev, 1, [(m.home, 1, "B+R"), (m.home, 2, "W+2.5")])
    return ev


def _facts(db: Database, ev: int) -> tuple[object, ...]:
    return (
        teams.standings(db, ev),
        [as_json(teams.round_read(r))["matches"] for r in teams.list_rounds(db, ev)],
    )


def _without_confirmed(facts: tuple[object, ...]) -> tuple[object, ...]:
    """The facts without the ``confirmed`` flag of each board (0007 has no such column)."""
    standings, rounds = facts
    stripped = [
        [
            {**m, "boards": [{k: v for k, v in b.items() if k != "confirmed"} for b in m["boards"]]}
            for m in matches  # type: ignore[attr-defined]
        ]
        for matches in rounds  # type: ignore[attr-defined]
    ]
    return standings, stripped


def test_0008_gives_every_recorded_team_board_a_record_and_keeps_the_standings(
    database_url: str,
) -> None:
    db = Database(database_url)
    db.upgrade()
    events = (_team_event(db), _division(db))
    before = {ev: _facts(db, ev) for ev in events}
    with db.engine.begin() as connection:  # back to 0007: records and confirmations gone
        command.downgrade(alembic_config(connection), "0007")
    assert current_revision(db.engine) == "0007"
    assert "team_game_records" not in inspect(db.engine).get_table_names()
    assert "confirmed" not in {c["name"] for c in inspect(db.engine).get_columns("team_games")}

    db.upgrade()
    assert current_revision(db.engine) == head_revision()
    for ev in events:
        assert _without_confirmed(_facts(db, ev)) == _without_confirmed(before[ev])
        assert _facts(db, ev) == before[ev]  # the sheet's results were confirmed: still are
    with db.transaction() as session:
        boards = session.execute(
            select(GameRow.id, GameRow.result, GameRow.black_id, GameRow.white_id).where(
                GameRow.match_id.is_not(None)
            )
        ).all()
        recorded = set(
            session.scalars(
                select(GameRecordRow.game_id)
                .join(GameRow, GameRow.id == GameRecordRow.game_id)
                .where(GameRow.match_id.is_not(None))
            )
        )
    played = {gid for gid, result, b, w in boards if result is not None and None not in (b, w)}
    forfeits = {gid for gid, _, b, w in boards if None in (b, w)}
    assert played and forfeits and recorded == played

    ev = events[0]
    view = games.game_view(db, ev, 1, TeamBoard(1, 1))
    assert view.confirmed and view.result == "B+R" and view.seq == 3
    assert [h.result for h in view.history][-1] == "B+R"
    namesakes = games.game_view(db, ev, 1, TeamBoard(1, 2))
    assert namesakes.confirmed and {namesakes.black, namesakes.white} == {
        f"张伟 ({namesakes.black_team})",
        f"张伟 ({namesakes.white_team})",
    }
    table = teams.standings(db, ev)
    view = games.correct_result(db, LOCAL, ev, 1, TeamBoard(1, 1), "W+R", "记录表填错")
    assert view.history[-1].previous == "B+R" and view.result == "W+R"
    assert teams.standings(db, ev) != table
    db.dispose()
