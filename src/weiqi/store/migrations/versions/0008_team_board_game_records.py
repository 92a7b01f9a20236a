"""team board game records

Every board of a team match with two players becomes a refereed game: a record in
``team_game_records`` (the same columns as ``game_records``) and a ``confirmed`` flag on
``team_games``. A board that already has a result gets a record carrying it — entered and
confirmed as from the signed sheet, which is what a recorded team result was until now — so the
chief referee can correct it and its history starts with it. Empty boards (forfeits without a
player) stay as they are: there is no game to referee.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01 09:20:00.000000
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def _stamp(at: datetime | str | None) -> float:
    """The round's reveal time as a timestamp (SQLite hands back text)."""
    if at is None:
        return 0.0
    if isinstance(at, str):
        at = datetime.fromisoformat(at)
    if at.tzinfo is None:
        at = at.replace(tzinfo=UTC)
    return at.timestamp()


def upgrade() -> None:
    op.create_table(
        "team_game_records",
        sa.Column("record_json", sa.Text(), nullable=False),
        sa.Column("head", sa.String(length=64), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("black_warnings", sa.Integer(), nullable=False),
        sa.Column("white_warnings", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["team_games.id"],
            name=op.f("fk_team_game_records_game_id_team_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_team_game_records")),
    )
    with op.batch_alter_table("team_games", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("confirmed", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    _records_of_recorded_results()


def _records_of_recorded_results() -> None:
    # the referee core of this version writes the records (its JSON is versioned)
    from weiqi.referee.actors import GameActor
    from weiqi.referee.events import ResultEntered, SheetConfirmed
    from weiqi.referee.nigiri import ColorAssignment
    from weiqi.referee.record import GameRecord
    from weiqi.rules.result import Result
    from weiqi.rules.ruleset import Ruleset

    bind = op.get_bind()
    rows = bind.execute(
        sa.text(
            "SELECT g.id, g.home_color, g.result, h.name, a.name, r.revealed_at, "
            "ht.code, awt.code "
            "FROM team_games g "
            "JOIN team_roster h ON h.id = g.home_player_id "
            "JOIN team_roster a ON a.id = g.away_player_id "
            "JOIN team_matches m ON m.id = g.match_id "
            "JOIN teams ht ON ht.id = m.home_id "
            "JOIN teams awt ON awt.id = m.away_id "
            "JOIN team_rounds r ON r.id = m.round_id "
            "WHERE g.result IS NOT NULL ORDER BY g.id"
        )
    ).all()
    by = GameActor.referee("weiqi")
    for game_id, home_color, code, home, away, revealed_at, home_team, away_team in rows:
        if home == away:  # namesakes of two teams, named apart as services.games does
            home, away = f"{home} ({home_team})", f"{away} ({away_team})"
        black, white = (home, away) if home_color == "B" else (away, home)
        at = _stamp(revealed_at)
        record = GameRecord.start(
            Ruleset(), ColorAssignment.by_organiser(black, white), referee=by, at=at
        )
        record.append(ResultEntered(result=Result.parse(code)), by, at)
        record.append(SheetConfirmed(), by, at)
        bind.execute(
            sa.text(
                "INSERT INTO team_game_records "
                "(game_id, record_json, head, seq, black_warnings, white_warnings) "
                "VALUES (:id, :json, :head, :seq, 0, 0)"
            ),
            {"id": game_id, "json": record.to_json(), "head": record.head, "seq": len(record)},
        )
        bind.execute(
            sa.text("UPDATE team_games SET confirmed = :yes WHERE id = :id"),
            {"yes": True, "id": game_id},
        )


def downgrade() -> None:
    with op.batch_alter_table("team_games", schema=None) as batch_op:
        batch_op.drop_column("confirmed")
    op.drop_table("team_game_records")
