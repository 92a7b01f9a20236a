"""every event has settings: an event created by name only gets the new-event form's Swiss

Until now the administration page and ``POST /api/events`` created an event by its name
alone. Such an event had no settings row, and nothing could give it one: its organisers'
page and its settings page were not found, and its public page said it was not set up.
Every event is now created with its kind and settings. This gives each event still without
settings what the new-event form shows first — an individual Swiss of 5 rounds with the
rules' defaults — which its organisers may change entirely before round 1 is paired (an
event without settings has no players or rounds).

The settings are stored as the few keys that differ from the defaults, as the API takes
them; every other setting is read as its default.

Downgrade: the rows this made are not told apart from settings saved since; they stay.

Revision ID: 0029
Revises: 0028
Create Date: 2026-12-07 04:30:00.000000
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0029"
down_revision = "0028"
branch_labels = None
depends_on = None

#: The new-event form's first settings (``event_admin.DEFAULT_SWISS`` at this revision).
_SWISS = json.dumps({"system": "swiss", "rounds": 5})


def upgrade() -> None:
    op.get_bind().execute(
        sa.text(
            "INSERT INTO event_settings (event_id, kind, system, settings_json) "
            "SELECT e.id, 'individual', 'swiss', :settings FROM events e "
            "WHERE NOT EXISTS (SELECT 1 FROM event_settings s WHERE s.event_id = e.id)"
        ),
        {"settings": _SWISS},
    )


def downgrade() -> None:
    """Nothing: see the module's docstring."""
