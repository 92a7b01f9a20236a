"""stage games are boards: each game of a 擂台赛 is a board with the referee's record

A 擂台赛's results were lines of its log (``winner_stays_on_log``, kind ``result``): no game
record, so none could be confirmed, corrected, warned or ruled on. Each game is now a board of
the event's one round — a match of one board, numbered as the game, the holder (擂主) at home —
like every team board, and the log keeps the sends only.

The games are replayed from the log as the core of this version plays them (the teams' sealed
lineups, the sends, the nigiri seed), and stored with their results, confirmed (a result of the
log was final), each with a record of its result entered and confirmed when the log recorded it.
The game in play, if any, is seated too.

A record is signed, and a board's result counts once it is sealed, under the site's key, which
this migration does not have: the ids of the boards it stored wait in
``site_settings.stage_boards`` for the first start, which signs and seals them
(``stored_seals.seal_stage_boards``).

Downgrade: the boards' results go back to the log in game order; their records (and so any
correction, warning or ruling made on them since) are dropped.

Revision ID: 0026
Revises: 0025
Create Date: 2026-12-06 16:30:00.000000
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0026"
down_revision = "0025"
branch_labels = None
depends_on = None

#: The ``site_settings`` key of the boards this migration stored, sealed on the first start.
KEY = "stage_boards"


def upgrade() -> None:
    # the core of this version replays the match (how a 擂台赛 seats its games)
    from weiqi.league.winner_stays_on import PlayerOrder, StageSetup, WinnerStaysOnSystem
    from weiqi.rules.result import Result

    bind = op.get_bind()
    events = bind.execute(
        sa.text(
            "SELECT event_id, player_order, board_colors, seed, board_size FROM team_events "
            "WHERE system = 'winner_stays_on' ORDER BY event_id"
        )
    ).all()
    stored: list[int] = []
    for event_id, order, colours, seed, size in events:
        round_id = bind.execute(
            sa.text(
                "SELECT id FROM event_rounds WHERE event_id = :e AND number = 1 "
                "AND revealed_at IS NOT NULL"
            ),
            {"e": event_id},
        ).scalar()
        if round_id is None:
            continue  # not revealed: no game was played
        teams: dict[str, int] = dict(
            bind.execute(
                sa.text("SELECT code, id FROM teams WHERE event_id = :e ORDER BY id"),
                {"e": event_id},
            ).all()
        )
        roster: dict[tuple[str, str], int] = {}
        names: dict[tuple[str, str], str] = {}
        for rid, code, player, name in bind.execute(
            sa.text(
                "SELECT r.id, t.code, r.player_code, r.name FROM team_roster r "
                "JOIN teams t ON t.id = r.team_id WHERE t.event_id = :e"
            ),
            {"e": event_id},
        ):
            roster[(code, player)] = rid
            names[(code, player)] = name
        squads: dict[str, list[str]] = {code: [] for code in teams}
        for code, player in bind.execute(
            sa.text(
                "SELECT t.code, r.player_code FROM team_lineups l "
                "JOIN teams t ON t.id = l.team_id "
                "JOIN team_lineup_boards b ON b.lineup_id = l.id "
                "JOIN team_roster r ON r.id = b.player_id "
                "WHERE l.round_id = :r ORDER BY t.id, b.position"
            ),
            {"r": round_id},
        ):
            squads[code].append(player)
        log = bind.execute(
            sa.text(
                "SELECT kind, team, player, result, recorded_at FROM winner_stays_on_log "
                "WHERE event_id = :e ORDER BY seq"
            ),
            {"e": event_id},
        ).all()
        setup = StageSetup(
            {code: players for code, players in squads.items() if players},
            PlayerOrder(order),
            seed if colours == "nigiri" else None,
            tuple((team, player) for kind, team, player, _, _ in log if kind == "send"),
        )
        results = [(result, at) for kind, _, _, result, at in log if kind == "result"]
        stage = WinnerStaysOnSystem(setup).play([Result.parse(r) for r, _ in results])
        games = list(stage.games)
        if not stage.finished and stage.awaiting is None:
            games = [*games, stage.next_game()]  # the game in play, seated as it is now
        for game in games:
            match_id = bind.execute(
                sa.text(
                    "INSERT INTO team_matches (round_id, number, home_id, away_id) "
                    "VALUES (:r, :n, :home, :away) RETURNING id"
                ),
                {
                    "r": round_id,
                    "n": game.number,
                    "home": teams[game.holder[0]],
                    "away": teams[game.challenger[0]],
                },
            ).scalar_one()
            result = game.result.to_code() if game.result is not None else None
            board_id = bind.execute(
                sa.text(
                    "INSERT INTO team_games (match_id, board, sitting, home_player_id, "
                    "away_player_id, home_color, result, confirmed) "
                    "VALUES (:m, 1, 0, :home, :away, :colour, :result, :confirmed) RETURNING id"
                ),
                {
                    "m": match_id,
                    "home": roster[game.holder],
                    "away": roster[game.challenger],
                    "colour": "B" if game.black == game.holder else "W",
                    "result": result,
                    "confirmed": result is not None,
                },
            ).scalar_one()
            if result is not None:
                black, white = (names[game.black], names[game.white])
                if black == white:  # namesakes of two teams, named apart as services.games does
                    black, white = f"{black} ({game.black[0]})", f"{white} ({game.white[0]})"
                _record(board_id, size, black, white, result, results[game.number - 1][1])
                stored.append(board_id)
        bind.execute(
            sa.text("DELETE FROM winner_stays_on_log WHERE event_id = :e AND kind = 'result'"),
            {"e": event_id},
        )
    if stored:
        bind.execute(
            sa.text("INSERT INTO site_settings (key, value) VALUES (:key, :value)"),
            {"key": KEY, "value": json.dumps(stored)},
        )


def _record(board_id: int, size: int, black: str, white: str, result: str, at: object) -> None:
    """The record of a game of the log: its result entered and confirmed when the log recorded
    it (signed on the first start)."""
    # the referee core of this version writes the record (its JSON is versioned)
    from weiqi.referee.actors import GameActor
    from weiqi.referee.events import ResultEntered, SheetConfirmed
    from weiqi.referee.nigiri import ColorAssignment
    from weiqi.referee.record import GameRecord
    from weiqi.rules.result import Result
    from weiqi.rules.ruleset import Ruleset

    stamp = _stamp(at)
    by = GameActor.referee("weiqi")
    record = GameRecord.start(
        Ruleset(board_size=size), ColorAssignment.by_organiser(black, white), referee=by, at=stamp
    )
    record.append(ResultEntered(result=Result.parse(result)), by, stamp)
    record.append(SheetConfirmed(), by, stamp)
    op.get_bind().execute(
        sa.text(
            "INSERT INTO team_game_records "
            "(game_id, record_json, head, seq, black_warnings, white_warnings) "
            "VALUES (:id, :json, :head, :seq, 0, 0)"
        ),
        {"id": board_id, "json": record.to_json(), "head": record.head, "seq": len(record)},
    )


def _stamp(at: object) -> float:
    """A stored time as seconds since the epoch (SQLite gives text, PostgreSQL a datetime)."""
    if isinstance(at, str):
        at = datetime.fromisoformat(at)
    assert isinstance(at, datetime)
    return (at if at.tzinfo is not None else at.replace(tzinfo=UTC)).timestamp()


def downgrade() -> None:
    bind = op.get_bind()
    events = bind.execute(
        sa.text("SELECT event_id FROM team_events WHERE system = 'winner_stays_on'")
    ).scalars()
    for event_id in list(events):
        games = bind.execute(
            sa.text(
                "SELECT m.id, g.id, g.result FROM team_matches m "
                "JOIN event_rounds r ON r.id = m.round_id "
                "LEFT JOIN team_games g ON g.match_id = m.id "
                "WHERE r.event_id = :e ORDER BY m.number"
            ),
            {"e": event_id},
        ).all()
        last = bind.execute(
            sa.text("SELECT MAX(seq) FROM winner_stays_on_log WHERE event_id = :e"),
            {"e": event_id},
        ).scalar()
        seq = last or 0
        for match_id, board_id, result in games:
            if result is not None:
                seq += 1
                bind.execute(
                    sa.text(
                        "INSERT INTO winner_stays_on_log (event_id, seq, kind, result, "
                        "recorded_at) VALUES (:e, :seq, 'result', :result, CURRENT_TIMESTAMP)"
                    ),
                    {"e": event_id, "seq": seq, "result": result},
                )
            if board_id is not None:
                bind.execute(
                    sa.text("DELETE FROM team_game_records WHERE game_id = :g"), {"g": board_id}
                )
                bind.execute(sa.text("DELETE FROM team_games WHERE id = :g"), {"g": board_id})
            bind.execute(sa.text("DELETE FROM team_matches WHERE id = :m"), {"m": match_id})
    bind.execute(sa.text("DELETE FROM site_settings WHERE key = :key"), {"key": KEY})
