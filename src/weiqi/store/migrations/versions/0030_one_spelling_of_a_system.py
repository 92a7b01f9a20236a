"""one spelling of a system: an individual event's systems are spelled as a team event's

An individual event's systems were spelled with hyphens (``round-robin``,
``double-round-robin``, ``double-elimination``, ``swiss-knockout``) and a team event's with
underscores (``round_robin``, ``winner_stays_on``): two spellings of one name in the API, the
command line and the stored settings. Every system is now spelled with underscores. This
carries the stored individual settings: the ``system`` column of ``event_settings`` and the
``system`` key of its ``settings_json``.

The code reads the hyphenated spelling as the same name too (a file or script written for an
earlier release); this migration makes what is stored say the one spelling.

Downgrade: the four systems back to their hyphens.

Revision ID: 0030
Revises: 0029
Create Date: 2026-12-07 05:00:00.000000
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0030"
down_revision = "0029"
branch_labels = None
depends_on = None

#: The systems whose spelling changes (an individual event's), old to new.
_SYSTEMS = {
    "round-robin": "round_robin",
    "double-round-robin": "double_round_robin",
    "double-elimination": "double_elimination",
    "swiss-knockout": "swiss_knockout",
}


def _respell(names: dict[str, str]) -> None:
    """Each individual event's stored system in ``names`` under its other spelling, in the
    column and in the settings' JSON (written as the code writes it: not escaped)."""
    bind = op.get_bind()
    rows = bind.execute(
        sa.text(
            "SELECT event_id, system, settings_json FROM event_settings "
            "WHERE kind = 'individual' AND system IN :old"
        ).bindparams(sa.bindparam("old", expanding=True)),
        {"old": list(names)},
    ).all()
    for event_id, system, text in rows:
        try:
            data = json.loads(text)
        except ValueError:
            data = None  # not JSON: only the column is this migration's to change
        if isinstance(data, dict) and data.get("system") in names:
            data["system"] = names[data["system"]]
            text = json.dumps(data, ensure_ascii=False)
        bind.execute(
            sa.text(
                "UPDATE event_settings SET system = :system, settings_json = :json "
                "WHERE event_id = :id"
            ),
            {"system": names[system], "json": text, "id": event_id},
        )


def upgrade() -> None:
    _respell(_SYSTEMS)


def downgrade() -> None:
    _respell({new: old for old, new in _SYSTEMS.items()})
