"""event versions

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-02 10:00:00.000000

Every event's version (``store.versions``), and the site's (row 0). Existing events and the site
get a first version here, so that their pages can be kept from the first read on.
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    table = op.create_table(
        "event_versions",
        sa.Column("event_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("version", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("event_id", name=op.f("pk_event_versions")),
    )
    events = [row[0] for row in op.get_bind().execute(sa.text("SELECT id FROM events"))]
    op.bulk_insert(
        table,
        [{"event_id": event_id, "version": secrets.randbits(62) + 1} for event_id in [0, *events]],
    )


def downgrade() -> None:
    op.drop_table("event_versions")
