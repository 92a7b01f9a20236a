"""Migration 0026 on SQLite and PostgreSQL (R-FMT-3, R-REF-7): a 擂台赛's results move from its
log to boards with records. A database holding two 擂台赛 — fixed order with three results and
a game in play, chosen order with sends and a result — is taken back to 0025 (the results become
log lines again, the boards go) and up again: the matches read the same, each game played is a
board whose record verifies and whose seal holds, the game in play is seated, and the chief
referee can correct a game that came from the log."""

from __future__ import annotations

from alembic import command
from sqlalchemy import func, select

from tests.league.test_stage_boards import seated, stage
from tests.store.test_team_game_migration import LOCAL
from weiqi.league.winner_stays_on import PlayerOrder
from weiqi.services import games
from weiqi.services.games import TeamBoard
from weiqi.services.winner_stays_on import (
    record_stage_result,
    send_player,
    winner_stays_on,
)
from weiqi.store.database import Database
from weiqi.store.migrate import alembic_config, current_revision, head_revision
from weiqi.store.teams import WinnerStaysOnLogRow
from weiqi.store.tournament import GameRow


def _log(db: Database, ev: int) -> list[tuple[str, str | None, str | None, str | None]]:
    with db.transaction() as session:
        return [
            (line.kind, line.team, line.player, line.result)
            for line in session.scalars(
                select(WinnerStaysOnLogRow)
                .where(WinnerStaysOnLogRow.event_id == ev)
                .order_by(WinnerStaysOnLogRow.seq)
            )
        ]


def test_0026_makes_the_stage_results_boards_with_records_and_back(database_url: str) -> None:
    db = Database(database_url)
    db.upgrade()
    fixed = stage(db)
    record_stage_result(db, LOCAL, fixed, "B+R", 1)  # B1 beats A1
    record_stage_result(db, LOCAL, fixed, "B+R", 2)  # A2 beats B1
    chosen = stage(db, PlayerOrder.CHOSEN)
    send_player(db, LOCAL, chosen, "A", "A2")
    send_player(db, LOCAL, chosen, "B", "B1")
    record_stage_result(db, LOCAL, chosen, "B+2.5", 1)  # B1 beats A2; A sends next
    before = {ev: (winner_stays_on(db, ev), seated(db, ev)) for ev in (fixed, chosen)}
    assert [len(b[1]) for b in before.values()] == [3, 1]  # game 3 of the fixed one in play

    with db.engine.begin() as connection:
        command.downgrade(alembic_config(connection), "0025")
    assert current_revision(db.engine) == "0025"
    assert _log(db, fixed) == [("result", None, None, "B+R"), ("result", None, None, "B+R")]
    assert _log(db, chosen) == [
        ("send", "A", "A2", None),
        ("send", "B", "B1", None),
        ("result", None, None, "B+2.5"),
    ]
    with db.engine.connect() as connection:
        assert connection.exec_driver_sql("SELECT COUNT(*) FROM team_games").scalar() == 0

    db.upgrade()
    assert current_revision(db.engine) == head_revision()
    assert {ev: (winner_stays_on(db, ev), seated(db, ev)) for ev in (fixed, chosen)} == before
    assert [k for k, *_ in _log(db, chosen)] == ["send", "send"]  # the results are boards
    checks = games.check_records(db)
    assert [(c.event_id, c.board) for c in checks] == [
        (fixed, TeamBoard(1, 1)),
        (fixed, TeamBoard(2, 1)),
        (chosen, TeamBoard(1, 1)),
    ]
    assert all(c.problem is None for c in checks)  # signed and sealed on the first start
    with db.transaction() as session:
        assert session.scalar(select(func.count()).where(GameRow.seal.is_(None))) == 1

    # a game that came from the log is refereed like any board: corrected, with its history
    view = games.correct_result(db, LOCAL, fixed, 1, TeamBoard(2, 1), "B+T", "超时负")
    assert [h.result for h in view.history] == ["B+R", "B+R", "B+T"]
    record_stage_result(db, LOCAL, fixed, "W+R", 3)  # A2 (white) beats B2: A wins
    assert winner_stays_on(db, fixed).winner == "A"
