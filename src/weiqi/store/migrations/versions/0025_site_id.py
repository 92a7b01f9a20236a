"""site id: a random name of the database, told apart from every other site's on one Redis

The live rooms' Redis keys (their channels, presence and shared deadlines) and the login limits
were named after the site's secret alone. Two sites on one machine share the secret when they
share its key file (PostgreSQL's default, ``~/.local/share/weiqi/secret.key``): one Redis then
mixed their games — the first game of one site's first round (event 1, round 1, board 1) was
the other's, its moves pushed to the wrong room and its start taken for already watched. Each
database now has an id of its own, made once here, and the keys are named after both.

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-06 14:00:00.000000
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None

#: The ``site_settings`` key of the database's id (``services.site.site_id``).
KEY = "site_id"


def upgrade() -> None:
    op.execute(
        sa.text("INSERT INTO site_settings (key, value) VALUES (:key, :value)").bindparams(
            key=KEY, value=secrets.token_hex(16)
        )
    )


def downgrade() -> None:
    op.execute(sa.text("DELETE FROM site_settings WHERE key = :key").bindparams(key=KEY))
