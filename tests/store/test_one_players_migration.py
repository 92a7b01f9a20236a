"""Migration 0031 on SQLite and PostgreSQL: a team's roster players move from ``team_roster``
into ``event_players`` beside the individual events' entrants (issue #10, one competition
model: a team's players are the event's players), and every reference follows them — the team
boards, the lineups, the account links and the entry claims.

A database holding an individual event, a team event (its lineups, one team's missing, its
boards with their records and a correction), a league division and a 擂台赛, with a team
player's account link and two entry claims of team players, is taken back to 0030 and up
again: every standing, round, lineup, game and record reads the same, the link and the claims
name the same players, nothing is left in the roster table, and a player entered afterwards
gets an id of its own.

A moved player's id changes, and a team board's seal covers its players' ids: the migration,
which has no key, leaves the sealed boards to the first start, which seals again those whose
seal held (since 0032 ``stored_seals.reseal_moved_games``, which carries 0031's listing).
Until then they are refused; a downgrade before that start gives the roster its ids back, the
ids their seals still cover."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from alembic import command
from sqlalchemy import func, inspect, select, text

from tests.league.test_stage_boards import seated, stage
from tests.store.test_one_rounds_migration import _facts, _individual
from tests.store.test_team_game_migration import LOCAL, T0, _division, _team_event
from weiqi.services import accounts, games, live
from weiqi.services import entry_claims as ec
from weiqi.services.actor import Actor
from weiqi.services.games import TeamBoard
from weiqi.services.server_clock import ManualClock
from weiqi.services.winner_stays_on import record_stage_result, winner_stays_on
from weiqi.store.database import Database
from weiqi.store.migrate import alembic_config, current_revision, head_revision, upgrade
from weiqi.store.teams import LineupBoardRow
from weiqi.store.tournament import GameRow, PlayerRow

PASSWORD = "一个球员一张表 2026"


def _stage(db: Database) -> int:
    """A 擂台赛 with two games played (B1 beats A1, A2 beats B1) and the third seated."""
    ev = stage(db)
    record_stage_result(db, LOCAL, ev, "B+R", 1)
    record_stage_result(db, LOCAL, ev, "B+R", 2)
    return ev


def _accounts(db: Database, team_event: int, division: int) -> tuple[Actor, ...]:
    """Three users of team players: one linked to A1 by an invitation code, one claiming the
    namesake 张伟 of team B (pending), one whose claim to a division's player was approved."""
    clock = ManualClock(T0)
    a, b, c = (accounts.create_user(db, LOCAL, f"player-{n}", PASSWORD).actor() for n in "abc")
    a1 = live.player_id(db, team_event, "A1", team="A")
    live.redeem_invite(db, a, live.create_invite(db, LOCAL, team_event, a1).code)
    ec.claim_entry(db, b, team_event, live.player_id(db, team_event, "张伟", team="B"), clock)
    claim = ec.claim_entry(db, c, division, live.player_id(db, division, "江1"), clock)
    ec.approve_claim(db, LOCAL, division, claim.id, clock)
    return a, b, c


def _read(
    db: Database, individual: int, team_events: tuple[int, int], st: int, users: tuple[Actor, ...]
) -> object:
    """What a user reads: the events' standings, rounds, lineups and records, a corrected team
    board's page, the 擂台赛, and the players' accounts, claims and games (every player named,
    as a page names them: a player's id is the migration's to change)."""
    view = games.game_view(db, team_events[0], 1, TeamBoard(1, 1))
    return (
        _facts(db, individual, team_events),
        (view.black, view.white, view.result, [h.result for h in view.history]),
        (winner_stays_on(db, st), seated(db, st)),
        [
            replace(e, player_id=0)
            for ev in (individual, *team_events)
            for e in live.entrant_accounts(db, LOCAL, ev)
        ],
        [replace(c, player_id=0) for ev in team_events for c in ec.event_claims(db, LOCAL, ev)],
        [live.my_games(db, user) for user in users],
    )


def _team_players(db: Database) -> dict[tuple[int, str], int]:
    """Every team player's id by its team and code."""
    with db.transaction() as session:
        rows = session.execute(
            select(PlayerRow.team_id, PlayerRow.player_code, PlayerRow.id).where(
                PlayerRow.team_id.is_not(None)
            )
        )
        return {(team, code): pid for team, code, pid in rows}


def _roster(db: Database) -> dict[tuple[int, str], int]:
    """At 0030: every roster player's id by its team and code."""
    with db.engine.connect() as connection:
        rows = connection.execute(text("SELECT team_id, player_code, id FROM team_roster"))
        return {(team, code): rid for team, code, rid in rows}


def _downgrade(db: Database) -> None:
    with db.engine.begin() as connection:
        command.downgrade(alembic_config(connection), "0030")
    assert current_revision(db.engine) == "0030"


def _moved(db: Database) -> dict[str, Any] | None:
    """The boards the first start is to seal again, and the offset of the ids (``None``: none):
    0031's listing, or at 0032 the same carried in ``moved_games`` (its ``players``)."""
    with db.engine.connect() as connection:
        value = connection.execute(
            text("SELECT value FROM site_settings WHERE key = 'moved_players'")
        ).scalar()
        games_moved = connection.execute(
            text("SELECT value FROM site_settings WHERE key = 'moved_games'")
        ).scalar()
    if value is None and games_moved is not None:
        players: dict[str, Any] | None = json.loads(games_moved)["players"]
        return players
    return json.loads(value) if value is not None else None


def test_0031_moves_the_rosters_into_the_players_table_and_back(database_url: str) -> None:
    db = Database(database_url)
    db.upgrade()
    individual = _individual(db)
    team_events = (_team_event(db), _division(db))
    games.correct_result(db, LOCAL, team_events[0], 1, TeamBoard(1, 1), "W+R", "记录表填错")
    st = _stage(db)
    users = _accounts(db, *team_events)
    before = _read(db, individual, team_events, st, users)
    assert all(check[-1] is None for check in before[0][-1])  # type: ignore[index]
    players = _team_players(db)

    _downgrade(db)
    tables = inspect(db.engine)
    assert "team_roster" in tables.get_table_names()
    assert "team_id" not in {c["name"] for c in tables.get_columns("event_players")}
    for table in ("event_player_accounts", "entry_claims"):
        assert "roster_id" in {c["name"] for c in tables.get_columns(table)}
    # a team player goes back under its id: the seals written over it hold at 0030
    assert _roster(db) == players
    with db.engine.connect() as connection:
        count = connection.exec_driver_sql
        assert count("SELECT COUNT(*) FROM event_players").scalar() == 4  # the individual's
        links = "SELECT COUNT(*) FROM event_player_accounts WHERE roster_id IS NOT NULL"
        assert count(links).scalar() == 2  # the code redeemed, the claim approved
        assert count("SELECT COUNT(*) FROM entry_claims WHERE roster_id IS NOT NULL").scalar() == 2
        sealed = set(count("SELECT id FROM team_games WHERE seal IS NOT NULL").scalars())

    # up without a start: the players move above every id, their sealed boards wait for the key
    upgrade(db.engine)
    moved = _moved(db)
    assert moved is not None and set(moved["boards"]) == sealed
    offset = moved["offset"]
    assert offset == max(players.values()) and offset > 4
    assert _team_players(db) == {k: v + offset for k, v in players.items()}
    unsealed = [c for c in games.check_records(db) if c.problem == games.UNSEALED]
    assert len(unsealed) == len(sealed)
    # down again before the start: the roster gets back the ids its boards' seals cover
    _downgrade(db)
    assert _roster(db) == players and _moved(db) is None

    db.upgrade()  # the first start seals again every board whose seal held
    assert current_revision(db.engine) == head_revision()
    assert "team_roster" not in inspect(db.engine).get_table_names()
    assert _moved(db) is None
    assert _read(db, individual, team_events, st, users) == before  # no broken seal among them
    with db.transaction() as session:
        team_players = set(
            session.scalars(select(PlayerRow.id).where(PlayerRow.team_id.is_not(None)))
        )
        seats = session.execute(
            select(GameRow.black_id, GameRow.white_id).where(GameRow.match_id.is_not(None))
        )
        assert {p for seat in seats for p in seat if p is not None} <= team_players
        assert set(session.scalars(select(LineupBoardRow.player_id))) <= team_players
        assert session.scalar(select(func.count(LineupBoardRow.player_id)))
        assert len(team_players) == len(players)

    # a player entered after the move gets a new id (PostgreSQL's sequence follows the moved
    # ids), an entrant and a team's player alike
    highest = max(team_players)
    again = _individual(db), _team_event(db)
    with db.transaction() as session:
        fresh = session.scalars(select(PlayerRow.id).where(PlayerRow.event_id.in_(again))).all()
    assert len(fresh) == 4 + 8 and min(fresh) > highest
    # a moved board is refereed like any other: corrected again, sealed over the new ids
    view = games.correct_result(db, LOCAL, team_events[0], 1, TeamBoard(1, 1), "B+R", "改回")
    assert [h.result for h in view.history][-3:] == ["B+R", "W+R", "B+R"]
    assert all(check.problem is None for check in games.check_records(db))
    db.dispose()
