"""one settings table: a team event's settings are JSON in ``event_settings``, as an individual's

An individual event kept its settings as JSON in ``event_settings``; a team event kept its
own as twenty columns of ``team_events``, so every new team setting was a migration and the
two kinds were read and written by two codes. Both kinds now live in ``event_settings``: a
``kind`` column (``individual`` or ``team``), the system, and the settings as JSON — a team
event's keys are its columns', ``missing_lineup`` read as ``missing`` (the settings' own
name). A league division's season and label, which are not settings, move to
``league_divisions``.

Downgrade: the team rows go back to the columns of ``team_events`` (a key the JSON lacks
takes the column's default) and ``kind`` is dropped.

Revision ID: 0027
Revises: 0026
Create Date: 2026-12-06 19:10:00.000000
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0027"
down_revision = "0026"
branch_labels = None
depends_on = None

#: The settings columns of ``team_events`` at 0026, by their key in the JSON, with the default
#: a downgrade gives a key the JSON lacks (the model's defaults of 0026).
_COLUMNS: dict[str, tuple[str, Any]] = {
    "system": ("system", "round_robin"),
    "team_type": ("team_type", "per_round"),
    "boards": ("boards", 4),
    "board_colors": ("board_colors", "alternate"),
    "max_foreign": ("max_foreign", None),
    "substitutes": ("substitutes", None),
    "missing": ("missing_lineup", "forfeit"),
    "board_one_decides": ("board_one_decides", False),
    "deadline_minutes": ("deadline_minutes", 30),
    "rounds": ("rounds", None),
    "cycles": ("cycles", 1),
    "ranking": ("ranking", "round_robin"),
    "seed": ("seed", 0),
    "player_order": ("player_order", "fixed"),
    "board_size": ("board_size", 19),
    "play": ("play", "board"),
    "game_start": ("game_start", "present"),
    "lag_gain": ("lag_gain", 1.0),
    "lag_cap": ("lag_cap", 3.0),
}
_BOOLEANS = ("substitutes", "board_one_decides")
_FLOATS = ("lag_gain", "lag_cap")


def upgrade() -> None:
    with op.batch_alter_table("event_settings") as batch:
        batch.add_column(
            sa.Column("kind", sa.String(16), nullable=False, server_default="individual")
        )
    op.create_table(
        "league_divisions",
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("division", sa.String(32), nullable=False),
        sa.ForeignKeyConstraint(
            ["event_id"],
            ["events.id"],
            name=op.f("fk_league_divisions_event_id_events"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["season_id"],
            ["league_seasons.id"],
            name=op.f("fk_league_divisions_season_id_league_seasons"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("event_id", name=op.f("pk_league_divisions")),
    )
    op.create_index(
        op.f("ix_league_divisions_season_id"), "league_divisions", ["season_id"], unique=False
    )
    bind = op.get_bind()
    names = ", ".join(column for column, _ in _COLUMNS.values())
    rows = bind.execute(
        sa.text(f"SELECT event_id, season_id, division, {names} FROM team_events")
    ).all()
    for event_id, season_id, division, *values in rows:
        settings: dict[str, Any] = {}
        for key, value in zip(_COLUMNS, values, strict=True):
            if key in _BOOLEANS and value is not None:
                value = bool(value)  # SQLite gives 0 / 1
            elif key in _FLOATS:
                value = float(value)
            settings[key] = value
        bind.execute(
            sa.text(
                "INSERT INTO event_settings (event_id, kind, system, settings_json) "
                "VALUES (:e, 'team', :s, :j)"
            ),
            {"e": event_id, "s": settings["system"], "j": json.dumps(settings)},
        )
        if season_id is not None:
            bind.execute(
                sa.text(
                    "INSERT INTO league_divisions (event_id, season_id, division) "
                    "VALUES (:e, :s, :d)"
                ),
                {"e": event_id, "s": season_id, "d": division},
            )
    op.drop_index(op.f("ix_team_events_season_id"), table_name="team_events")
    op.drop_table("team_events")


def downgrade() -> None:
    op.create_table(
        "team_events",
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("system", sa.String(32), nullable=False),
        sa.Column("team_type", sa.String(32), nullable=False),
        sa.Column("boards", sa.Integer(), nullable=False),
        sa.Column("board_colors", sa.String(16), nullable=False),
        sa.Column("max_foreign", sa.Integer(), nullable=True),
        sa.Column("substitutes", sa.Boolean(), nullable=True),
        sa.Column("missing_lineup", sa.String(16), nullable=False),
        sa.Column("board_one_decides", sa.Boolean(), nullable=False),
        sa.Column("deadline_minutes", sa.Integer(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=True),
        sa.Column("cycles", sa.Integer(), nullable=False),
        sa.Column("ranking", sa.String(32), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("season_id", sa.Integer(), nullable=True),
        sa.Column("division", sa.String(32), nullable=False),
        sa.Column("player_order", sa.String(16), nullable=False),
        sa.Column("board_size", sa.Integer(), server_default="19", nullable=False),
        sa.Column("play", sa.String(16), server_default="board", nullable=False),
        sa.Column("game_start", sa.String(16), server_default="present", nullable=False),
        sa.Column("lag_gain", sa.Float(), server_default="1", nullable=False),
        sa.Column("lag_cap", sa.Float(), server_default="3", nullable=False),
        sa.ForeignKeyConstraint(
            ["event_id"],
            ["events.id"],
            name=op.f("fk_team_events_event_id_events"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["season_id"],
            ["league_seasons.id"],
            name=op.f("fk_team_events_season_id_league_seasons"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("event_id", name=op.f("pk_team_events")),
    )
    op.create_index(op.f("ix_team_events_season_id"), "team_events", ["season_id"], unique=False)
    bind = op.get_bind()
    divisions = dict(
        (event_id, (season_id, division))
        for event_id, season_id, division in bind.execute(
            sa.text("SELECT event_id, season_id, division FROM league_divisions")
        )
    )
    columns = ", ".join(column for column, _ in _COLUMNS.values())
    places = ", ".join(f":{key}" for key in _COLUMNS)
    for event_id, text in bind.execute(
        sa.text("SELECT event_id, settings_json FROM event_settings WHERE kind = 'team'")
    ).all():
        settings = json.loads(text)
        values = {key: settings.get(key, default) for key, (_, default) in _COLUMNS.items()}
        season_id, division = divisions.get(event_id, (None, ""))
        bind.execute(
            sa.text(
                f"INSERT INTO team_events (event_id, season_id, division, {columns}) "
                f"VALUES (:event_id, :season_id, :division, {places})"
            ),
            {**values, "event_id": event_id, "season_id": season_id, "division": division},
        )
    bind.execute(sa.text("DELETE FROM event_settings WHERE kind = 'team'"))
    op.drop_index(op.f("ix_league_divisions_season_id"), table_name="league_divisions")
    op.drop_table("league_divisions")
    with op.batch_alter_table("event_settings") as batch:
        batch.drop_column("kind")
