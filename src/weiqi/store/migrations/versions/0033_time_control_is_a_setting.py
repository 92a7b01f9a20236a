"""the time control is a setting: ``events.time_control`` moves into the event's settings

An event's time control was an event detail (a column of ``events``, beside its days, venue
and time zone), while everything else its games are played under — board size, komi, the
repeated-position rule, online or over the board, the lag allowance — was a setting. The game
room read it from the column and the settings from ``event_settings``. It is now the
``time_control`` key of the settings' JSON (the same settings string, ``55m+5x60s``; null
when the event announces none), written where the code writes it, for both kinds; the column
goes.

The column is dropped with a plain ``ALTER TABLE … DROP COLUMN``: SQLite's batch mode would
copy ``events``, which every other table refers to, and the copy would cascade.

Downgrade: the column comes back, filled from the settings, and the key leaves them.

Revision ID: 0033
Revises: 0032
Create Date: 2026-12-07 18:00:00.000000
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0033"
down_revision = "0032"
branch_labels = None
depends_on = None


def _settings(bind: sa.Connection) -> list[tuple[int, dict[str, object], str]]:
    """Each event's settings that are a JSON object, with the text they were read from."""
    out = []
    for event_id, text in bind.execute(
        sa.text("SELECT event_id, settings_json FROM event_settings")
    ).all():
        try:
            data = json.loads(text)
        except ValueError:
            continue  # not JSON: not this migration's to read
        if isinstance(data, dict):
            out.append((event_id, data, text))
    return out


def _write(bind: sa.Connection, event_id: int, data: dict[str, object]) -> None:
    bind.execute(
        sa.text("UPDATE event_settings SET settings_json = :json WHERE event_id = :id"),
        {"json": json.dumps(data, ensure_ascii=False), "id": event_id},
    )


def _with_time_control(data: dict[str, object], control: str | None) -> dict[str, object]:
    """``data`` with its ``time_control`` where the code writes it, after ``lag_cap`` (at the
    end of settings stored before there was one): the same text as the code writes."""
    out: dict[str, object] = {}
    for key, value in data.items():
        if key != "time_control":
            out[key] = value
        if key == "lag_cap":
            out["time_control"] = control
    out.setdefault("time_control", control)
    return out


def upgrade() -> None:
    bind = op.get_bind()
    controls: dict[int, str] = dict(
        bind.execute(sa.text("SELECT id, time_control FROM events WHERE time_control <> ''")).all()
    )
    for event_id, data, _text in _settings(bind):
        _write(bind, event_id, _with_time_control(data, controls.get(event_id)))
    with op.batch_alter_table("events", recreate="never") as batch:
        batch.drop_column("time_control")


def downgrade() -> None:
    op.add_column(
        "events", sa.Column("time_control", sa.String(100), nullable=False, server_default="")
    )
    bind = op.get_bind()
    for event_id, data, _text in _settings(bind):
        if "time_control" not in data:
            continue
        control = data.pop("time_control")
        if isinstance(control, str) and control:
            bind.execute(
                sa.text("UPDATE events SET time_control = :tc WHERE id = :id"),
                {"tc": control, "id": event_id},
            )
        _write(bind, event_id, data)
