"""rounds: published flag and the pairing's explanation

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29 13:55:15.488169
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("event_rounds", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("published", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
        batch_op.add_column(
            sa.Column("explanation_json", sa.Text(), server_default="{}", nullable=False)
        )


def downgrade() -> None:
    with op.batch_alter_table("event_rounds", schema=None) as batch_op:
        batch_op.drop_column("explanation_json")
        batch_op.drop_column("published")
